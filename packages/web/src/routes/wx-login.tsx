import type { WechatQrStatus } from '@luntan/shared';
import { useCallback } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Link, useNavigate } from 'react-router';
import { wechatOauthUrl } from '../api/oauth-queries';
import { useAppContext } from '../app-context';
import { takeJumpUrl } from '../auth/jump-url';
import { completeSignIn } from '../auth/session';
import { WechatQrPanel } from '../components/oauth/wechat-qr';
import { buttonClassName, toast } from '../components/ui';
import { usePlatform } from '../platform/platform-context';
import type { RouteHandle } from '../routing/handle';
import { AuthCard } from './auth-card';

export const handle: RouteHandle = { title: (t) => t('oauth.wx.loginTitle') };

/** WeChat sign-in: a QR code to scan on a desktop; on a phone, WeChat's own authorisation. */
export function Component() {
  const { t } = useTranslation();
  const ctx = useAppContext();
  const navigate = useNavigate();
  const platform = usePlatform();

  const done = useCallback(
    async (status: WechatQrStatus) => {
      if (!status.accessToken || status.userId === undefined) return;
      const next = await completeSignIn(ctx, {
        accessToken: status.accessToken,
        userId: status.userId,
        userStatus: status.userStatus ?? 0,
        expiresIn: status.expiresIn ?? 0,
      });
      toast.success(t('auth.loginSuccess'));
      await navigate(status.userStatus === 10 ? '/user/supplementary' : next, { replace: true });
    },
    [ctx, navigate, t],
  );

  return (
    <AuthCard title={t('oauth.wx.loginTitle')} footer={<Link to="/user/login">{t('oauth.wx.otherWays')}</Link>}>
      {platform === 'pc' ? (
        <WechatQrPanel type="pc_login" onDone={done} />
      ) : (
        <div className="lt-wx">
          <p className="lt-wx__hint">{t('oauth.wx.mobileHint')}</p>
          <a
            className={buttonClassName({ type: 'primary', size: 'large', full: true })}
            href={wechatOauthUrl('login')}
            onClick={(event) => {
              event.preventDefault();
              window.location.assign(wechatOauthUrl('login', takeJumpUrl()));
            }}
            data-testid="wechat-continue"
          >
            {t('oauth.wx.openInWechat')}
          </a>
        </div>
      )}
    </AuthCard>
  );
}
