import { OAUTH_ERRORS, type OauthError } from '@luntan/shared';
import { useQuery } from '@tanstack/react-query';
import type { MouseEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { Link } from 'react-router';
import { isSuccess } from '../../api/dispatcher';
import { oauthProvidersQuery, oauthStartUrl } from '../../api/oauth-queries';
import { useAppContext } from '../../app-context';
import { takeJumpUrl } from '../../auth/jump-url';
import { buttonClassName } from '../ui';
import './oauth.css';

/** The written reason of a sign-in with another service that ended here (`?oauthError=`), or null. */
export function oauthErrorOf(search: URLSearchParams): OauthError | null {
  const code = search.get('oauthError');
  return code && (OAUTH_ERRORS as readonly string[]).includes(code) ? (code as OauthError) : null;
}

export function OauthErrorNotice({ error }: { error: OauthError | null }) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <p className="lt-auth__notice" role="alert" data-testid="oauth-error">
      {t(`oauth.error.${error}`)}
    </p>
  );
}

/**
 * The login page's buttons for the providers an administrator configured, and WeChat when it is set up. A
 * provider's button leaves the app (a full navigation to our start call), taking the saved return address along.
 */
export function OauthButtons() {
  const { t, i18n } = useTranslation();
  const { api } = useAppContext();
  const result = useQuery(oauthProvidersQuery(api)).data;
  if (!result || !isSuccess(result)) return null;
  const { providers, wechat } = result.Data;
  if (providers.length === 0 && !wechat) return null;
  const go = (slug: string) => (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    window.location.assign(oauthStartUrl(slug, { redirect: takeJumpUrl() }));
  };
  return (
    <div className="lt-oauth" data-testid="oauth-buttons">
      <p className="lt-oauth__or">
        <span>{t('oauth.or')}</span>
      </p>
      <div className="lt-oauth__list">
        {providers.map((p) => (
          <a
            key={p.slug}
            className={buttonClassName({ size: 'large', full: true }, 'lt-oauth__button')}
            href={oauthStartUrl(p.slug)}
            onClick={go(p.slug)}
            data-testid={`oauth-${p.slug}`}
          >
            <span className="lt-oauth__mark" aria-hidden="true">
              {[...(i18n.language === 'en' ? p.labelEn : p.labelZh)][0]}
            </span>
            {i18n.language === 'en' ? p.labelEn : p.labelZh}
          </a>
        ))}
        {wechat ? (
          <Link
            className={buttonClassName({ size: 'large', full: true }, 'lt-oauth__button')}
            to="/user/wx-login"
            data-testid="oauth-wechat"
          >
            <span className="lt-oauth__mark lt-oauth__mark--wechat" aria-hidden="true">
              微
            </span>
            {t('oauth.wechatLogin')}
          </Link>
        ) : null}
      </div>
    </div>
  );
}
