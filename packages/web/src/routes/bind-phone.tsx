import { smsCodeBody } from '@luntan/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Link, useNavigate } from 'react-router';
import { isSuccess, request } from '../api/dispatcher';
import { forumQuery } from '../api/queries';
import { useAppContext } from '../app-context';
import { PhoneCodeFields } from '../components/phone/phone-fields';
import { Button, toast } from '../components/ui';
import { useForum } from '../hooks/use-forum';
import { usePending } from '../hooks/use-pending';
import type { RouteHandle } from '../routing/handle';
import { AuthCard } from './auth-card';
import { endpoints } from '../api/endpoints';

export const handle: RouteHandle = { title: (t) => t('phone.bindTitle') };

/** Goes back to where the member was (the -8001 answer brings them here from a form), or to the personal centre. */
export function leavePhonePage(navigate: ReturnType<typeof useNavigate>): void {
  const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
  if (idx > 0) void navigate(-1);
  else void navigate('/my', { replace: true });
}

/** Binds a first number (a site may ask for one before posting: -8001 comes here). */
export function Component() {
  const { t } = useTranslation();
  const ctx = useAppContext();
  const navigate = useNavigate();
  const { forum } = useForum();
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const { pending, run } = usePending();
  const current = forum?.user?.mobile ?? '';

  const onSubmit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (!mobile || !code) {
      toast.warning(t('phone.required'));
      return;
    }
    void run(async () => {
      const result = await request({
        url: endpoints.sms.bind,
        method: 'POST',
        data: { mobile, code },
        validator: smsCodeBody,
      });
      if (!isSuccess(result)) {
        toast.error(result.Message);
        return;
      }
      await ctx.queryClient.fetchQuery({ ...forumQuery(ctx.api), staleTime: 0 });
      toast.success(t('phone.bound'));
      leavePhonePage(navigate);
    });
  };

  return (
    <AuthCard title={t('phone.bindHeading')} footer={<Link to="/my">{t('phone.later')}</Link>}>
      {current ? (
        <div className="lt-auth__form" data-testid="phone-already-bound">
          <p className="lt-phone__hint">{t('phone.alreadyBound', { mobile: current })}</p>
          <Link to="/user/rebind">{t('phone.change')}</Link>
        </div>
      ) : (
        <form className="lt-auth__form" onSubmit={onSubmit} noValidate data-testid="bind-phone-form">
          <p className="lt-phone__hint">{t('phone.bindHint')}</p>
          <PhoneCodeFields type="bind" mobile={mobile} onMobileChange={setMobile} code={code} onCodeChange={setCode} />
          <Button type="primary" size="large" htmlType="submit" full loading={pending} data-testid="bind-phone-submit">
            {t('phone.bindSubmit')}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
