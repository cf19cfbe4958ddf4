import { useTranslation } from '../../i18n/use-translation';
import { SearchBox } from '../../components/forum/search-box';
import { PlainLink } from '../../components/plain-link';
import { PrefetchNavLink } from '../../components/prefetch-link';
import { Avatar, Badge, Dropdown, Icon, LinkButton, Menu, MenuItem } from '../../components/ui';
import { useForum } from '../../hooks/use-forum';
import { useUnreadPolling } from '../../hooks/use-unread';
import { headerBrand } from '../shared/site-logo';
import { useLogout } from '../shared/use-logout';
import './desktop.css';

const navClass = ({ isActive }: { isActive: boolean }): string =>
  isActive ? 'lt-header__link lt-header__link--active' : 'lt-header__link';

/**
 * Logo (home), search box, Home / Message (badge) / Discover (only with canViewThreads), and the user area:
 * a hover menu (Personal Center, Log out) for a signed-in user, one Login/Register button for a guest.
 */
export function DesktopHeader() {
  const { t } = useTranslation();
  const { forum } = useForum();
  const viewer = forum?.user ?? null;
  const unread = useUnreadPolling(viewer?.userId);
  const { logOut, pending } = useLogout();
  const site = forum?.setSite;
  const total = unread?.totalUnread ?? 0;
  const brand = headerBrand(site);

  return (
    <header className="lt-header lt-header--desktop">
      <div className="lt-header__inner">
        <PlainLink to="/" className="lt-header__logo" data-testid="header-brand">
          {brand.kind === 'name' ? (
            <span className="lt-header__site-name">{brand.name}</span>
          ) : (
            <img src={brand.src} alt={site?.siteName || t('site.defaultLogoAlt')} height={32} />
          )}
        </PlainLink>
        <SearchBox />
        <nav className="lt-header__nav" aria-label={t('nav.main')}>
          <PrefetchNavLink to="/" end className={navClass}>
            {t('nav.home')}
          </PrefetchNavLink>
          <PrefetchNavLink to="/message" className={navClass} data-testid="nav-message">
            <Badge count={total} label={t('nav.unread', { count: total })}>
              {t('nav.message')}
            </Badge>
          </PrefetchNavLink>
          {forum?.other.canViewThreads ? (
            <PrefetchNavLink to="/search" className={navClass} data-testid="nav-discover">
              {t('nav.discover')}
            </PrefetchNavLink>
          ) : null}
        </nav>
        <div className="lt-header__user">
          {viewer ? (
            <Dropdown
              label={t('nav.userMenu')}
              placement="right"
              triggerClassName="lt-header__user-trigger"
              menu={(close) => (
                <Menu label={t('nav.userMenu')}>
                  <MenuItem to="/my" icon={<Icon name="user" />} onClick={close}>
                    {t('nav.personalCenter')}
                  </MenuItem>
                  <MenuItem to="/wallet" icon={<Icon name="wallet" />} onClick={close}>
                    {t('money.menu')}
                  </MenuItem>
                  {viewer.isAdmin ? (
                    <MenuItem to="/admin" icon={<Icon name="discover" />} onClick={close}>
                      {t('admin.enter')}
                    </MenuItem>
                  ) : null}
                  <MenuItem
                    icon={<Icon name="logout" />}
                    disabled={pending}
                    onClick={() => {
                      close();
                      logOut();
                    }}
                  >
                    {t('nav.logout')}
                  </MenuItem>
                </Menu>
              )}
            >
              <Avatar image={viewer.avatarUrl} text={viewer.nickname || viewer.username} size="small" circle />
              <span className="lt-header__user-name">{viewer.nickname || viewer.username}</span>
              <Icon name="down" size={14} />
            </Dropdown>
          ) : (
            <LinkButton to="/user/login" type="primary" data-testid="login-register">
              {t('nav.loginRegister')}
            </LinkButton>
          )}
        </div>
      </div>
    </header>
  );
}
