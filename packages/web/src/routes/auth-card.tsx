import type { ReactNode } from 'react';
import { usePlatform } from '../platform/platform-context';
import './auth.css';

/** The frame of the login and registration pages. */
export function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer: ReactNode }) {
  const platform = usePlatform();
  return (
    <div className={`lt-auth lt-auth--${platform}`}>
      <section className="lt-auth__card" aria-labelledby="auth-title">
        <h1 id="auth-title" className="lt-auth__title">
          {title}
        </h1>
        {children}
        <p className="lt-auth__switch">{footer}</p>
      </section>
    </div>
  );
}
