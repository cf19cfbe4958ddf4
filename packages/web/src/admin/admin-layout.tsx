import { useTranslation } from '../i18n/use-translation';
import { NavLink, Outlet } from 'react-router';
import type { RouteHandle } from '../routing/handle';
import '../components/forum/forum.css';
import '../routes/thread.css';
import '../components/forum/prose.css';
import './admin.css';

export const handle: RouteHandle = { title: (t) => t('admin.title') };

/** The back office's sections (more arrive with their calls). */
export const ADMIN_SECTIONS = [
  { to: '/admin', key: 'settings', end: true },
  { to: '/admin/categories', key: 'categories' },
  { to: '/admin/groups', key: 'groups' },
  { to: '/admin/users', key: 'users' },
  { to: '/admin/stop-words', key: 'stopWords' },
  { to: '/admin/review', key: 'review' },
  { to: '/admin/reports', key: 'reports' },
  { to: '/admin/signin-fields', key: 'signinFields' },
  { to: '/admin/templates', key: 'templates' },
  { to: '/admin/plugins', key: 'plugins' },
  { to: '/admin/finance', key: 'finance' },
  { to: '/admin/withdrawals', key: 'withdrawals' },
  { to: '/admin/pay-settings', key: 'paySettings' },
  { to: '/admin/messaging', key: 'messaging' },
  { to: '/admin/oauth', key: 'oauth' },
  { to: '/admin/webhooks', key: 'webhooks' },
  { to: '/admin/backups', key: 'backups' },
  { to: '/admin/apikeys', key: 'apiKeys' },
] as const;

/** The back office frame: a section menu (a row on narrow screens) and the section's page. */
export function Component() {
  const { t } = useTranslation();
  return (
    <div className="lt-admin">
      <nav className="lt-admin__nav" aria-label={t('admin.sections')}>
        <h2 className="lt-admin__nav-title">{t('admin.title')}</h2>
        <ul>
          {ADMIN_SECTIONS.map((section) => (
            <li key={section.key}>
              <NavLink
                to={section.to}
                end={'end' in section ? section.end : false}
                className={({ isActive }) => `lt-admin__link${isActive ? ' lt-admin__link--active' : ''}`}
              >
                {t(`admin.section.${section.key}`)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="lt-admin__page">
        <Outlet />
      </div>
    </div>
  );
}
