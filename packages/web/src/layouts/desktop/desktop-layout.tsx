import type { ReactNode } from 'react';
import { PluginSlot } from '../../components/plugin/plugin-slot';
import { SiteFooter } from '../shared/site-footer';
import { DesktopHeader } from './desktop-header';
import './desktop.css';

export function DesktopLayout({ children }: { children: ReactNode }) {
  return (
    <div className="lt-app lt-app--pc" data-layout="pc">
      <PluginSlot target="plugin_global" hook="header_replace">
        <DesktopHeader />
      </PluginSlot>
      <main id="main" className="lt-main lt-main--pc" tabIndex={-1}>
        {children}
      </main>
      <PluginSlot target="plugin_global" hook="footer_replace">
        <SiteFooter />
      </PluginSlot>
    </div>
  );
}
