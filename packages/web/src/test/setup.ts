import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { toastStore } from '../components/ui/toast';

// findBy* and waitFor wait for a state, not for a speed: the 1 s default fails on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  // The files share one worker (isolate: false): a test that left fake timers on must not hand them to the next.
  vi.useRealTimers();
  toastStore.reset();
  if (typeof window !== 'undefined') {
    window.localStorage.clear();
    window.sessionStorage.clear();
  }
});
