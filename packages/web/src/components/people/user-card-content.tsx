import type { UserProfile } from '@luntan/shared';
import { useTranslation } from '../../i18n/use-translation';
import { Link } from 'react-router';
import { isSuccess, type ApiResult } from '../../api/dispatcher';
import { Avatar, Spinner } from '../ui';
import { ProfileCounts, Signature } from './profile-counts';
import { UserActions } from './user-actions';
import { userHref, type AvatarUser, type CardPhase } from './user-link';

/** The hover card's content (user-hover-card.tsx), in its own chunk: the profile, its counts and the buttons. */
export function CardContent({
  user,
  phase,
  result,
  guest,
}: {
  user: AvatarUser;
  phase: CardPhase;
  result: ApiResult<UserProfile> | undefined;
  guest: boolean;
}) {
  const { t } = useTranslation();
  if (phase === 'loading') {
    return (
      <div className="lt-hover-card__loading">
        <Spinner showLabel />
      </div>
    );
  }
  const profile = result && isSuccess(result) ? result.Data : null;
  const name = profile?.nickname || user.nickname;
  return (
    <>
      <div className="lt-hover-card__head">
        <Link to={userHref(user.id)} className="lt-hover-card__avatar" tabIndex={-1}>
          <Avatar image={profile?.avatarUrl ?? user.avatar} text={name} size="large" circle alt={name} />
        </Link>
        <div className="lt-hover-card__who">
          <Link to={userHref(user.id)} className="lt-hover-card__name" title={name} data-testid="card-name">
            {name}
          </Link>
          {profile ? (
            <Signature text={profile.signature} className="lt-hover-card__signature" />
          ) : (
            <p className="lt-hover-card__signature lt-signature--empty">
              {guest ? t('people.loginForMore') : (result?.Message ?? '')}
            </p>
          )}
        </div>
      </div>
      {profile ? <ProfileCounts profile={profile} /> : null}
      {profile && !profile.isMe ? <UserActions user={profile} /> : null}
      {!profile && guest ? <UserActions user={{ id: user.id, nickname: name, follow: 0, isDeny: false }} /> : null}
    </>
  );
}
