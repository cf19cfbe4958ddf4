import { emailVerifyBody, type EmailVerifyResult } from '@luntan/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { useSearchParams } from 'react-router';
import { userProfileKey } from '../api/people-queries';
import { isSuccess, request } from '../api/dispatcher';
import { Icon, LinkButton, Spinner } from '../components/ui';
import { useViewer } from '../hooks/use-forum';
import type { RouteHandle } from '../routing/handle';
import { AuthCard } from './auth-card';
import { endpoints } from '../api/endpoints';

export const handle: RouteHandle = { title: (t) => t('mail.verifyTitle') };

type State = { kind: 'working' } | { kind: 'done'; email: string } | { kind: 'failed'; message: string };

/**
 * /user/verify-email?token=: the mailed link. The page opens it once in the browser (the server's render only shows
 * that it is working, so a link previewer that does not run scripts uses nothing up); no login is needed.
 */
export function Component() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const viewer = useViewer();
  const queryClient = useQueryClient();
  const [state, setState] = useState<State>({ kind: 'working' });
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (!token) {
      setState({ kind: 'failed', message: t('mail.noToken') });
      return;
    }
    void request<EmailVerifyResult>({
      url: endpoints.users.emailVerify,
      method: 'POST',
      data: { token },
      validator: emailVerifyBody,
      handleError: false,
    }).then((result) => {
      if (isSuccess(result)) {
        setState({ kind: 'done', email: result.Data.email });
        void queryClient.invalidateQueries({ queryKey: userProfileKey(result.Data.userId) });
      } else {
        setState({ kind: 'failed', message: result.Message });
      }
    });
  }, [token, t, queryClient]);

  const next = viewer ? (
    <LinkButton type="primary" to="/my?tab=settings">
      {t('mail.toMy')}
    </LinkButton>
  ) : (
    <LinkButton type="primary" to="/user/login">
      {t('mail.toLogin')}
    </LinkButton>
  );
  return (
    <AuthCard title={t('mail.verifyTitle')} footer={<LinkButton to="/">{t('mail.home')}</LinkButton>}>
      {state.kind === 'working' ? (
        <div className="lt-auth__done" role="status" data-testid="verify-working">
          <Spinner />
          <p>{t('mail.verifying')}</p>
        </div>
      ) : state.kind === 'done' ? (
        <div className="lt-auth__done" role="status" data-testid="verify-done">
          <Icon name="success" size={32} />
          <p>{t('mail.verified', { email: state.email })}</p>
          {next}
        </div>
      ) : (
        <div className="lt-auth__done" role="alert" data-testid="verify-failed">
          <Icon name="warning" size={32} />
          <h2 className="lt-auth__subtitle">{t('mail.verifyFailed')}</h2>
          <p>{state.message}</p>
          {next}
        </div>
      )}
    </AuthCard>
  );
}
