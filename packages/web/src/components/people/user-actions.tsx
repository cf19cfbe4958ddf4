import { FollowState, type FollowStateValue } from '@luntan/shared';
import { useState, type MouseEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { usePeopleActions } from '../../hooks/use-people-actions';
import { Button, Icon, LinkButton, type ButtonSize } from '../ui';

/** The private chat with a user (spec section 2: /message with page=chat, userId and nickname). */
export function chatHref(userId: number, nickname: string): string {
  return `/message?page=chat&userId=${userId}&nickname=${encodeURIComponent(nickname)}`;
}

/** Runs one action at a time per button: a second press while the first is on its way does nothing. */
function useBusy(): [boolean, (work: () => Promise<unknown>) => void] {
  const [busy, setBusy] = useState(false);
  const run = (work: () => Promise<unknown>): void => {
    if (busy) return;
    setBusy(true);
    work()
      .catch((error: unknown) => console.error(error))
      .finally(() => setBusy(false));
  };
  return [busy, run];
}

export interface FollowButtonProps {
  userId: number;
  follow: FollowStateValue;
  size?: ButtonSize;
}

/** 关注, or 已关注 / 互相关注 (pressed; pressing again unfollows). */
export function FollowButton({ userId, follow, size = 'small' }: FollowButtonProps) {
  const { t } = useTranslation();
  const actions = usePeopleActions();
  const [busy, run] = useBusy();
  const following = follow !== FollowState.NONE;
  const label =
    follow === FollowState.MUTUAL
      ? t('people.mutual')
      : follow === FollowState.FOLLOWING
        ? t('people.following')
        : t('people.follow');
  return (
    <Button
      type={following ? 'default' : 'primary'}
      size={size}
      loading={busy}
      aria-pressed={following}
      title={following ? t('people.unfollow') : undefined}
      icon={following ? undefined : <Icon name="plus" size={14} />}
      onClick={() => run(() => (following ? actions.unfollow(userId) : actions.follow(userId)))}
      data-testid="follow-button"
      data-follow={follow}
    >
      {label}
    </Button>
  );
}

export interface UserActionsProps {
  user: { id: number; nickname: string; follow: FollowStateValue; isDeny: boolean };
  size?: ButtonSize;
}

/** The card's and the page's three buttons: follow/unfollow, private message, block/unblock. */
export function UserActions({ user, size = 'small' }: UserActionsProps) {
  const { t } = useTranslation();
  const actions = usePeopleActions();
  const [busy, run] = useBusy();
  const message = (event: MouseEvent<HTMLAnchorElement>): void => {
    if (!actions.signedIn()) event.preventDefault();
  };
  return (
    <div className="lt-user-actions" data-testid="user-actions">
      <FollowButton userId={user.id} follow={user.follow} size={size} />
      <LinkButton
        size={size}
        to={chatHref(user.id, user.nickname)}
        onClick={message}
        icon={<Icon name="message" size={14} />}
        data-testid="message-button"
      >
        {t('people.message')}
      </LinkButton>
      <Button
        type={user.isDeny ? 'default' : 'text'}
        size={size}
        loading={busy}
        aria-pressed={user.isDeny}
        onClick={() => run(() => (user.isDeny ? actions.unblock(user.id) : actions.block(user.id)))}
        data-testid="block-button"
      >
        {user.isDeny ? t('people.unblock') : t('people.block')}
      </Button>
    </div>
  );
}
