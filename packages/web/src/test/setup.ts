import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { toastStore } from '../components/ui/toast';

afterEach(() => {
  cleanup();
  toastStore.reset();
  if (typeof window !== 'undefined') {
    window.localStorage.clear();
    window.sessionStorage.clear();
  }
});
