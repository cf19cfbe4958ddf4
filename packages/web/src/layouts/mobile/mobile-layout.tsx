import type { ReactNode } from 'react';
import { PluginSlot } from '../../components/plugin/plugin-slot';
import { SiteFooter } from '../shared/site-footer';
import { MobileHeader } from './mobile-header';
import './mobile.css';

export function MobileLayout({ children }: { children: ReactNode }) {
  return (
    <div className="lt-app lt-app--h5" data-layout="h5">
      <PluginSlot target="plugin_global" hook="header_replace">
        <MobileHeader />
      </PluginSlot>
      <main id="main" className="lt-main lt-main--h5" tabIndex={-1}>
        {children}
      </main>
      <PluginSlot target="plugin_global" hook="footer_replace">
        <SiteFooter />
      </PluginSlot>
    </div>
  );
}
