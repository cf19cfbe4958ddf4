import type { LinkedAccountItem, LinkedAccounts } from '@luntan/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/use-translation';
import { Link, useSearchParams } from 'react-router';
import { isSuccess } from '../../api/dispatcher';
import { post } from '../../api/mutate';
import { linkedAccountsKey, linkedAccountsQuery, oauthStartUrl, wechatOauthUrl } from '../../api/oauth-queries';
import { useAppContext } from '../../app-context';
import { usePending } from '../../hooks/use-pending';
import { usePlatform } from '../../platform/platform-context';
import { Button, buttonClassName, Spinner, toast, useConfirm } from '../ui';
import { OauthErrorNotice, oauthErrorOf } from './oauth-buttons';
import './oauth.css';
import { endpoints } from '../../api/endpoints';

const BACK = '/my?tab=settings';

/** Link (leaves the app for the provider) or unlink one account. */
function AccountRow({ account, userId }: { account: LinkedAccountItem; userId: number }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const platform = usePlatform();
  const { pending, run } = usePending();
  const { confirm, dialog } = useConfirm();
  const name = i18n.language === 'en' ? account.labelEn : account.labelZh;
  const who = account.displayName || account.email;

  const unlink = async () => {
    const asked = {
      title: t('oauth.linked.unlink'),
      message: t('oauth.linked.confirmUnlink', { name }),
      confirmText: t('oauth.linked.unlink'),
      cancelText: t('oauth.linked.cancel'),
      danger: true,
    };
    if (!(await confirm(asked))) return;
    void run(async () => {
      const body = account.kind === 'wechat' ? { kind: 'wechat' } : { providerId: account.providerId };
      if (!(await post<LinkedAccounts>(endpoints.oauth.unlink, body))) return;
      await queryClient.invalidateQueries({ queryKey: linkedAccountsKey(userId) });
      toast.success(t('oauth.linked.unlinked'));
    });
  };

  // WeChat: a QR code on a desktop, the WeChat authorisation on a phone.
  const linkHref =
    account.kind === 'wechat'
      ? platform === 'pc'
        ? '/user/wx-bind'
        : wechatOauthUrl('bind', BACK)
      : oauthStartUrl(account.slug, { link: true, redirect: BACK });
  const linkClass = buttonClassName({ type: 'primary', size: 'small' });

  return (
    <li className="lt-linked__item" data-testid={`linked-${account.slug}`}>
      <div className="lt-linked__who">
        <div className="lt-linked__name">{name}</div>
        <div className="lt-linked__state">
          {account.linked
            ? who
              ? t('oauth.linked.linkedAs', { name: who })
              : t('oauth.linked.linked')
            : account.enabled
              ? t('oauth.linked.notLinked')
              : t('oauth.linked.off')}
        </div>
      </div>
      <div className="lt-linked__actions">
        {account.linked ? (
          <Button size="small" onClick={() => void unlink()} loading={pending} data-testid={`unlink-${account.slug}`}>
            {t('oauth.linked.unlink')}
          </Button>
        ) : account.enabled ? (
          linkHref.startsWith('/api/') ? (
            <a className={linkClass} href={linkHref} data-testid={`link-${account.slug}`}>
              {t('oauth.linked.link')}
            </a>
          ) : (
            <Link className={linkClass} to={linkHref} data-testid={`link-${account.slug}`}>
              {t('oauth.linked.link')}
            </Link>
          )
        ) : null}
      </div>
      {dialog}
    </li>
  );
}

/** The personal centre's linked accounts: every provider with link or unlink. Hidden when there is none. */
export function LinkedAccountsBlock({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const [search] = useSearchParams();
  const result = useQuery(linkedAccountsQuery(api, userId)).data;
  if (!result) return <Spinner />;
  if (!isSuccess(result) || result.Data.accounts.length === 0) return null;
  const { accounts, hasPassword } = result.Data;
  return (
    <section className="lt-settings__block" aria-labelledby="settings-linked" data-testid="linked-accounts">
      <h3 id="settings-linked" className="lt-settings__title">
        {t('oauth.linked.title')}
      </h3>
      <OauthErrorNotice error={oauthErrorOf(search)} />
      <ul className="lt-linked">
        {accounts.map((account) => (
          <AccountRow key={`${account.kind}:${account.providerId}`} account={account} userId={userId} />
        ))}
      </ul>
      <p className="lt-settings__hint">{hasPassword ? t('oauth.linked.hint') : t('oauth.linked.noPassword')}</p>
    </section>
  );
}
