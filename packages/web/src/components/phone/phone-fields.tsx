import { MOBILE_PATTERN, type SmsType } from '@luntan/shared';
import { useTranslation } from '../../i18n/use-translation';
import { Button, TextInput, toast } from '../ui';
import { useSmsCode } from './use-sms-code';
import './phone.css';

/** The send button and its countdown, at the right end of the code box. */
function SendCodeButton({ type, mobile }: { type: SmsType; mobile: string | undefined }) {
  const { t } = useTranslation();
  const { seconds, sending, send } = useSmsCode(type);
  const onClick = (): void => {
    if (mobile !== undefined && !MOBILE_PATTERN.test(mobile)) {
      toast.warning(t('phone.mobileInvalid'));
      return;
    }
    void send(mobile);
  };
  return (
    <Button
      type="text"
      size="small"
      className="lt-phone__send"
      disabled={seconds > 0}
      loading={sending}
      onClick={onClick}
      data-testid={`sms-send-${type}`}
    >
      {seconds > 0 ? t('phone.resendIn', { seconds }) : t('phone.sendCode')}
    </Button>
  );
}

/**
 * A number and its code: the number box (or, for `verify`, the member's masked number as text), then the code box
 * with the send button. `mobile` undefined with `fixedMobile`: the code goes to the member's own number.
 */
export function PhoneCodeFields({
  type,
  mobile,
  onMobileChange,
  code,
  onCodeChange,
  fixedMobile,
  mobileLabel,
}: {
  type: SmsType;
  mobile: string;
  onMobileChange: (value: string) => void;
  code: string;
  onCodeChange: (value: string) => void;
  /** The masked number the code goes to, shown instead of the number box. */
  fixedMobile?: string;
  mobileLabel?: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      {fixedMobile !== undefined ? (
        <p className="lt-phone__fixed" data-testid="phone-current">
          {t('phone.codeTo', { mobile: fixedMobile })}
        </p>
      ) : (
        <TextInput
          label={mobileLabel ?? t('phone.mobile')}
          name="mobile"
          inputMode="numeric"
          autoComplete="tel-national"
          maxLength={11}
          trim
          placeholder={t('phone.mobilePlaceholder')}
          value={mobile}
          onChange={onMobileChange}
          required
        />
      )}
      <TextInput
        label={t('phone.code')}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        trim
        placeholder={t('phone.codePlaceholder')}
        value={code}
        onChange={onCodeChange}
        // Keyed by purpose: another purpose's countdown (the step before) never carries over.
        append={<SendCodeButton key={type} type={type} mobile={fixedMobile !== undefined ? undefined : mobile} />}
        appendWidth="120px"
        required
      />
    </>
  );
}
