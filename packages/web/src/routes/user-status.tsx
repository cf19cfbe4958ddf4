import { UserStatus } from '@luntan/shared';
import { useTranslation } from '../i18n/use-translation';
import { forumQuery } from '../api/queries';
import type { AppContext } from '../app-context';
import { Button, Icon, LinkButton } from '../components/ui';
import { useViewer } from '../hooks/use-forum';
import { useLogout } from '../layouts/shared/use-logout';
import type { RouteHandle } from '../routing/handle';

export const handle: RouteHandle = { title: (t) => t('status.title') };

/** The status changed behind the page's back (that is why the reader is here): read it again. */
export async function loader(ctx: AppContext): Promise<null> {
  if (!ctx.isServer) await ctx.queryClient.fetchQuery({ ...forumQuery(ctx.api), staleTime: 0 });
  return null;
}

const TEXT_KEYS = {
  [UserStatus.NORMAL]: 'normal',
  [UserStatus.BANNED]: 'banned',
  [UserStatus.UNDER_REVIEW]: 'review',
  [UserStatus.REJECTED]: 'rejected',
  [UserStatus.IGNORED]: 'ignored',
  [UserStatus.NEEDS_SIGNIN_FIELDS]: 'fields',
} as const;

/** /user/status: why the account cannot act (banned, under review, rejected, ignored, fields owed), and the way on. */
export function Component() {
  const { t } = useTranslation();
  const viewer = useViewer();
  const { logOut, pending } = useLogout();
  if (!viewer) return null;
  // The viewer's own reason, read again by the loader (the server's HTML has it too).
  const reason = viewer.status === UserStatus.NORMAL ? '' : viewer.rejectReason;
  const key = TEXT_KEYS[viewer.status as keyof typeof TEXT_KEYS] ?? 'normal';
  return (
    <section className="lt-card lt-error-page" role="status" data-testid="user-status" data-status={viewer.status}>
      <Icon name={viewer.status === UserStatus.NORMAL ? 'success' : 'warning'} size={40} />
      <h1>{t(`status.${key}`)}</h1>
      {reason ? <p data-testid="user-status-reason">{t('status.reason', { reason })}</p> : null}
      {viewer.status === UserStatus.NEEDS_SIGNIN_FIELDS ? (
        <LinkButton type="primary" to="/user/supplementary">
          {t('status.fillFields')}
        </LinkButton>
      ) : null}
      {viewer.status === UserStatus.NORMAL ? <LinkButton to="/">{t('errors.home')}</LinkButton> : null}
      <Button onClick={logOut} loading={pending}>
        {t('nav.logout')}
      </Button>
    </section>
  );
}
