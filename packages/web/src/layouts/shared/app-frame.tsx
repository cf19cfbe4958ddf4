import type { ReactNode } from 'react';
import { PluginSlot } from '../../components/plugin/plugin-slot';
import { SiteFooter } from './site-footer';

/** The frame both layouts share: the platform's header, the page, the footer (each replaceable by a plugin). */
export function AppFrame({
  platform,
  header,
  children,
}: {
  platform: 'pc' | 'h5';
  header: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={`lt-app lt-app--${platform}`} data-layout={platform}>
      <PluginSlot target="plugin_global" hook="header_replace">
        {header}
      </PluginSlot>
      <main id="main" className={`lt-main lt-main--${platform}`} tabIndex={-1}>
        {children}
      </main>
      <PluginSlot target="plugin_global" hook="footer_replace">
        <SiteFooter />
      </PluginSlot>
    </div>
  );
}
