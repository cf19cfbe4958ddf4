import { useTranslation } from 'react-i18next';
import { Avatar, Button, LinkButton } from '../components/ui';
import { useViewer } from '../hooks/use-forum';
import { useLogout } from '../layouts/shared/use-logout';
import type { RouteHandle } from '../routing/handle';
import './my.css';

export const handle: RouteHandle = { title: (t) => t('my.title') };

/** The personal centre: the viewer's name, avatar and a log-out button until the personal-centre issue fills it. */
export function Component() {
  const { t } = useTranslation();
  const viewer = useViewer();
  const { logOut, pending } = useLogout();
  if (!viewer) return null;
  const name = viewer.nickname || viewer.username;
  return (
    <div className="lt-page lt-my">
      <h1 className="lt-visually-hidden">{t('my.title')}</h1>
      <section className="lt-card lt-my__profile" aria-label={t('my.title')}>
        <Avatar image={viewer.avatarUrl} text={name} size="big" circle alt={name} />
        <div className="lt-my__who">
          <p className="lt-my__name" data-testid="my-name">
            {name}
          </p>
          <p className="lt-my__username">{t('my.username', { username: viewer.username })}</p>
        </div>
        {viewer.isAdmin ? <LinkButton to="/admin">{t('admin.enter')}</LinkButton> : null}
        <Button type="danger" onClick={logOut} loading={pending} data-testid="my-logout">
          {t('nav.logout')}
        </Button>
      </section>
      <p className="lt-empty">{t('my.comingSoon')}</p>
    </div>
  );
}
