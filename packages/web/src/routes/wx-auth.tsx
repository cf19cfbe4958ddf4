import type { WechatSignIn } from '@luntan/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { isSuccess } from '../api/dispatcher';
import { useAppContext } from '../app-context';
import { completeSignIn } from '../auth/session';
import { Spinner, toast } from '../components/ui';
import type { RouteHandle } from '../routing/handle';
import { AuthCard } from './auth-card';

export const handle: RouteHandle = { title: (t) => t('oauth.wx.authTitle') };

/** Which call finishes which start (h5.oauth's `type`, in the address WeChat sent the phone back to). */
const CALLS = {
  login: 'h5.login',
  pc: 'h5.login',
  bind: 'h5.bind',
  rebind: 'h5.rebind',
} as const;

/**
 * Where WeChat sends the phone back (`?type=&code=&state=`): finishes the sign-in, bind or rebind with the code,
 * then goes on; a phone that signed a desktop in says so and stays.
 */
export function Component() {
  const { t } = useTranslation();
  const ctx = useAppContext();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const [outcome, setOutcome] = useState<{ text: string; failed: boolean } | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const raw = search.get('type') ?? 'login';
    const type = raw in CALLS ? (raw as keyof typeof CALLS) : 'login';
    const code = search.get('code');
    const state = search.get('state');
    if (!code || !state) {
      setOutcome({ text: t('oauth.wx.failed'), failed: true });
      return;
    }
    void (async () => {
      const result = await ctx.api.get<WechatSignIn>(
        `/api/v3/users/wechat/${CALLS[type]}`,
        { code, state },
        { handleError: false },
      );
      if (!isSuccess(result)) {
        setOutcome({ text: result.Message, failed: true });
        return;
      }
      const data = result.Data;
      if (type === 'pc') {
        setOutcome({ text: t('oauth.wx.pcDone'), failed: false });
        return;
      }
      if (type === 'login' && data.accessToken) {
        const jump = await completeSignIn(ctx, {
          accessToken: data.accessToken,
          userId: data.userId,
          userStatus: data.userStatus,
          expiresIn: data.expiresIn ?? 0,
        });
        toast.success(t('auth.loginSuccess'));
        await navigate(data.redirect !== '/' ? data.redirect : jump, { replace: true });
        return;
      }
      await queryClient.invalidateQueries({ queryKey: ['oauth', 'identities'] });
      toast.success(t('oauth.wx.bound'));
      await navigate(data.redirect, { replace: true });
    })();
  }, [ctx, navigate, queryClient, search, t]);

  return (
    <AuthCard title={t('oauth.wx.authTitle')} footer={<Link to="/user/login">{t('oauth.wx.backToLogin')}</Link>}>
      <div className="lt-wx" data-testid="wechat-auth">
        {outcome ? (
          <p className={outcome.failed ? 'lt-auth__notice' : 'lt-wx__hint'} role={outcome.failed ? 'alert' : 'status'}>
            {outcome.text}
          </p>
        ) : (
          <>
            <Spinner />
            <p className="lt-wx__hint">{t('oauth.wx.finishing')}</p>
          </>
        )}
      </div>
    </AuthCard>
  );
}
