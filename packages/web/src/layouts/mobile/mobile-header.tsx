import { useTranslation } from '../../i18n/use-translation';
import { useNavigate } from 'react-router';
import { PrefetchNavLink } from '../../components/prefetch-link';
import { Badge, Icon } from '../../components/ui';
import { useForum } from '../../hooks/use-forum';
import { useUnreadPolling } from '../../hooks/use-unread';
import { goBackOrHome } from '../../routing/history';
import './mobile.css';

const navClass = ({ isActive }: { isActive: boolean }): string =>
  isActive ? 'lt-mheader__link lt-mheader__link--active' : 'lt-mheader__link';

/** A back button (home when the history has one entry or fewer), then Home, Message (badge), Personal Center. */
export function MobileHeader() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { forum } = useForum();
  const unread = useUnreadPolling(forum?.user?.userId);
  const total = unread?.totalUnread ?? 0;

  return (
    <header className="lt-mheader">
      <button
        type="button"
        className="lt-mheader__back"
        aria-label={t('nav.back')}
        data-testid="mobile-back"
        onClick={() => goBackOrHome(navigate)}
      >
        <Icon name="back" size={22} />
      </button>
      <nav className="lt-mheader__nav" aria-label={t('nav.main')}>
        <PrefetchNavLink to="/" end className={navClass}>
          <Icon name="home" size={20} />
          <span>{t('nav.home')}</span>
        </PrefetchNavLink>
        <PrefetchNavLink to="/message" className={navClass} data-testid="nav-message">
          <Badge count={total} label={t('nav.unread', { count: total })}>
            <Icon name="message" size={20} />
          </Badge>
          <span>{t('nav.message')}</span>
        </PrefetchNavLink>
        <PrefetchNavLink to="/my" className={navClass}>
          <Icon name="user" size={20} />
          <span>{t('nav.personalCenter')}</span>
        </PrefetchNavLink>
      </nav>
    </header>
  );
}
