import type { ReactNode } from 'react';
import { AppFrame } from '../shared/app-frame';
import { DesktopHeader } from './desktop-header';
import './desktop.css';

export function DesktopLayout({ children }: { children: ReactNode }) {
  return (
    <AppFrame platform="pc" header={<DesktopHeader />}>
      {children}
    </AppFrame>
  );
}
