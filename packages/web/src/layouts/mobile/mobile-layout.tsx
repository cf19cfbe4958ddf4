import type { ReactNode } from 'react';
import { AppFrame } from '../shared/app-frame';
import { MobileHeader } from './mobile-header';
import './mobile.css';

export function MobileLayout({ children }: { children: ReactNode }) {
  return (
    <AppFrame platform="h5" header={<MobileHeader />}>
      {children}
    </AppFrame>
  );
}
