import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { wechatOauthUrl } from '../api/oauth-queries';
import { WechatQrPanel } from '../components/oauth/wechat-qr';
import { buttonClassName, toast } from '../components/ui';
import { usePlatform } from '../platform/platform-context';
import type { RouteHandle } from '../routing/handle';
import { AuthCard } from './auth-card';

export const handle: RouteHandle = { title: (t) => t('oauth.wx.bindTitle') };

const BACK = '/my?tab=settings';

/** Binding WeChat to the signed-in account: a QR code on a desktop, WeChat's authorisation on a phone (?rebind=1). */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const platform = usePlatform();
  const [search] = useSearchParams();
  const type = search.get('rebind') === '1' ? 'rebind' : 'bind';

  const done = useCallback(async () => {
    await queryClient.invalidateQueries({ queryKey: ['oauth', 'identities'] });
    toast.success(t('oauth.wx.bound'));
    await navigate(BACK, { replace: true });
  }, [navigate, queryClient, t]);

  return (
    <AuthCard title={t('oauth.wx.bindTitle')} footer={<Link to={BACK}>{t('my.title')}</Link>}>
      {platform === 'pc' ? (
        <WechatQrPanel type="pc_bind" onDone={done} />
      ) : (
        <div className="lt-wx">
          <a
            className={buttonClassName({ type: 'primary', size: 'large', full: true })}
            href={wechatOauthUrl(type, BACK)}
            data-testid="wechat-continue"
          >
            {t('oauth.wx.openInWechat')}
          </a>
        </div>
      )}
    </AuthCard>
  );
}
