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
import { leavePhonePage } from './bind-phone';
import { endpoints } from '../api/endpoints';

export const handle: RouteHandle = { title: (t) => t('phone.rebindTitle') };

/** Changing the number: a code to the current number first (sms.verify, type verify), then the new number's code. */
export function Component() {
  const { t } = useTranslation();
  const ctx = useAppContext();
  const navigate = useNavigate();
  const { forum } = useForum();
  const [step, setStep] = useState<1 | 2>(1);
  const [oldCode, setOldCode] = useState('');
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const { pending, run } = usePending();
  const current = forum?.user?.mobile ?? '';

  const call = async (url: string, data: unknown): Promise<boolean> => {
    const result = await request({
      url,
      method: 'POST',
      data,
      ...(url.endsWith('rebind') ? { validator: smsCodeBody } : {}),
    });
    if (!isSuccess(result)) toast.error(result.Message);
    return isSuccess(result);
  };

  const verifyOld = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (!oldCode) {
      toast.warning(t('phone.codeRequired'));
      return;
    }
    void run(async () => {
      if (await call(endpoints.sms.verify, { code: oldCode, type: 'verify' })) setStep(2);
    });
  };

  const bindNew = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (!mobile || !code) {
      toast.warning(t('phone.required'));
      return;
    }
    void run(async () => {
      if (!(await call(endpoints.sms.rebind, { mobile, code }))) return;
      await ctx.queryClient.fetchQuery({ ...forumQuery(ctx.api), staleTime: 0 });
      toast.success(t('phone.changed'));
      leavePhonePage(navigate);
    });
  };

  return (
    <AuthCard title={t('phone.rebindHeading')} footer={<Link to="/my">{t('phone.later')}</Link>}>
      {!current ? (
        <div className="lt-auth__form">
          <p className="lt-phone__hint">{t('phone.noneBound')}</p>
          <Link to="/user/bind-phone">{t('phone.bindSubmit')}</Link>
        </div>
      ) : (
        <>
          <ol className="lt-phone__steps">
            <li aria-current={step === 1 ? 'step' : undefined}>{t('phone.stepVerify')}</li>
            <li aria-hidden="true">›</li>
            <li aria-current={step === 2 ? 'step' : undefined}>{t('phone.stepBind')}</li>
          </ol>
          {step === 1 ? (
            <form
              key="verify"
              className="lt-auth__form"
              onSubmit={verifyOld}
              noValidate
              data-testid="rebind-verify-form"
            >
              <PhoneCodeFields
                type="verify"
                fixedMobile={current}
                mobile=""
                onMobileChange={() => undefined}
                code={oldCode}
                onCodeChange={setOldCode}
              />
              <Button type="primary" size="large" htmlType="submit" full loading={pending} data-testid="rebind-next">
                {t('phone.next')}
              </Button>
            </form>
          ) : (
            <form key="new" className="lt-auth__form" onSubmit={bindNew} noValidate data-testid="rebind-new-form">
              <PhoneCodeFields
                type="rebind"
                mobileLabel={t('phone.newMobile')}
                mobile={mobile}
                onMobileChange={setMobile}
                code={code}
                onCodeChange={setCode}
              />
              <Button type="primary" size="large" htmlType="submit" full loading={pending} data-testid="rebind-submit">
                {t('phone.changeSubmit')}
              </Button>
            </form>
          )}
        </>
      )}
    </AuthCard>
  );
}
