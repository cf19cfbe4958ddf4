import type { UserProfile } from '@luntan/shared';
import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { Link } from 'react-router';
import { Avatar } from '../ui';
import { ProfileCounts, Signature, type CountName } from './profile-counts';
import './people.css';

export interface ProfileHeaderProps {
  profile: UserProfile;
  /** The buttons at the right (another member's three, or one's own edit and log-out). */
  actions?: ReactNode;
  /** Replaces the avatar (the personal centre's picker). */
  avatar?: ReactNode;
  /** Over the cover, at its corner (the personal centre's background picker). */
  coverControl?: ReactNode;
  /** A preview shown instead of the stored background. */
  coverPreview?: string | null;
  /** Where a count leads (its tab), or null. */
  countHref?: (name: CountName) => string | null;
  nameTestId?: string;
}

/** `2026-01-31` from an ISO time: the same text on the server and in the browser. */
function day(iso: string): string {
  return iso.slice(0, 10);
}

/** A profile's header: background, avatar, nickname, username, group, signature, counts, actions. */
export function ProfileHeader({
  profile,
  actions,
  avatar,
  coverControl,
  coverPreview,
  countHref,
  nameTestId = 'profile-name',
}: ProfileHeaderProps) {
  const { t } = useTranslation();
  const cover = coverPreview ?? profile.backgroundUrl;
  return (
    <section className="lt-card lt-profile" aria-labelledby="profile-name" data-testid="profile-header">
      <div
        className={cover ? 'lt-profile__cover' : 'lt-profile__cover lt-profile__cover--plain'}
        style={cover ? { backgroundImage: `url("${encodeURI(cover)}")` } : undefined}
        data-testid="profile-cover"
      >
        {coverControl}
      </div>
      <div className="lt-profile__body">
        <div className="lt-profile__avatar">
          {avatar ?? (
            <Avatar image={profile.avatarUrl} text={profile.nickname} size="big" circle alt={profile.nickname} />
          )}
        </div>
        <div className="lt-profile__who">
          <h1 id="profile-name" className="lt-profile__name" data-testid={nameTestId}>
            {profile.nickname}
          </h1>
          <p className="lt-profile__meta">
            <span>@{profile.username}</span>
            {profile.group ? <span className="lt-profile__group">{profile.group.name}</span> : null}
            <span>{t('people.joined', { date: day(profile.joinedAt) })}</span>
          </p>
          <Signature text={profile.signature} className="lt-profile__signature" />
        </div>
        {actions ? <div className="lt-profile__actions">{actions}</div> : null}
      </div>
      <ProfileCounts profile={profile} hrefOf={countHref} />
      {profile.isDeny ? <p className="lt-profile__note">{t('people.blockedNote')}</p> : null}
    </section>
  );
}

/** The sections of a profile page as links (`?tab=`), so each is an address of its own. */
export function ProfileTabs<T extends string>({
  tabs,
  current,
  hrefOf,
}: {
  tabs: readonly T[];
  current: T;
  hrefOf: (tab: T) => string;
}) {
  const { t } = useTranslation();
  return (
    <nav className="lt-tabs lt-profile-tabs" aria-label={t('people.tabs')}>
      {tabs.map((tab) => (
        <Link
          key={tab}
          to={hrefOf(tab)}
          className={`lt-tab${tab === current ? ' lt-tab--active' : ''}`}
          aria-current={tab === current ? 'page' : undefined}
          data-testid={`tab-${tab}`}
          preventScrollReset
        >
          {t(`people.tab.${tab}` as 'people.tab.threads')}
        </Link>
      ))}
    </nav>
  );
}

/** `?tab=` and `?page=` of a profile page; the first tab when the address names none (or one not offered). */
export function readProfileParams<T extends string>(
  search: URLSearchParams,
  tabs: readonly T[],
): { tab: T; page: number } {
  const asked = search.get('tab');
  const tab = tabs.find((name) => name === asked) ?? tabs[0]!;
  const n = Number(search.get('page'));
  return { tab, page: Number.isInteger(n) && n >= 1 && n <= 1_000_000 ? n : 1 };
}

export function profileTabHref(path: string, tab: string, first: string): string {
  return tab === first ? path : `${path}?tab=${tab}`;
}
