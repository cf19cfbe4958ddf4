import { z } from 'zod';
import { MOBILE_PATTERN } from '../constants.js';
import { problem } from '../validation-messages.js';
import { labeled } from './field-labels.js';
import { passwordSchema } from './auth.js';

/** Other numbers than MOBILE_PATTERN's are refused with a sentence. */
export { MOBILE_PATTERN };

/**
 * What a code is for: `login` (sign in, or register on a first sign-in), `bind` (a first number), `rebind` (the new
 * number), `reset_pwd` (a forgotten password), `verify` (proving the current number before changing it),
 * `reset_pay_pwd` (a forgotten pay password: the member's own bound number).
 */
export const SMS_TYPES = ['login', 'bind', 'rebind', 'reset_pwd', 'verify', 'reset_pay_pwd'] as const;
export type SmsType = (typeof SMS_TYPES)[number];

/** Digits in a code; how long it lasts; how many wrong answers void it. */
export const SMS_CODE_LENGTH = 6;
export const SMS_CODE_TTL_SECONDS = 300;
export const SMS_CODE_MAX_TRIES = 5;
/** How long the proof of the current number (sms.verify, type verify) lasts for sms.rebind. */
export const SMS_VERIFY_PROOF_SECONDS = 600;

export const mobileSchema = labeled(
  z
    .string()
    .trim()
    .refine(
      (s) => MOBILE_PATTERN.test(s),
      problem({
        kind: 'sentence',
        zh: '请输入 11 位中国大陆手机号',
        en: 'Enter an 11-digit mainland China mobile number',
      }),
    ),
  { zh: '手机号', en: 'Mobile number' },
);

export const smsCodeSchema = labeled(
  z
    .string()
    .trim()
    .refine(
      (s) => /^\d{6}$/.test(s),
      problem({ kind: 'sentence', zh: '验证码是 6 位数字', en: 'The code is 6 digits' }),
    ),
  { zh: '验证码', en: 'Code' },
);

/** The number may be left out for `verify` only: the member's own bound number then (the page knows it masked). */
const mobileUnlessVerify = (body: { mobile?: string | undefined; type: SmsType }, ctx: z.RefinementCtx) => {
  if (body.mobile === undefined && body.type !== 'verify') {
    ctx.addIssue({ code: 'custom', path: ['mobile'], ...problem({ kind: 'required' }) });
  }
};

export const smsSendBody = z
  .object({ mobile: mobileSchema.optional(), type: z.enum(SMS_TYPES) })
  .superRefine(mobileUnlessVerify);
export type SmsSendBody = z.infer<typeof smsSendBody>;

export const smsVerifyBody = z
  .object({ mobile: mobileSchema.optional(), code: smsCodeSchema, type: z.enum(SMS_TYPES) })
  .superRefine(mobileUnlessVerify);
export type SmsVerifyBody = z.infer<typeof smsVerifyBody>;

/** sms.login, sms.bind, sms.rebind. */
export const smsCodeBody = z.object({ mobile: mobileSchema, code: smsCodeSchema });
export type SmsCodeBody = z.infer<typeof smsCodeBody>;

export const smsResetPasswordBody = z.object({ mobile: mobileSchema, code: smsCodeSchema, password: passwordSchema });
export type SmsResetPasswordBody = z.infer<typeof smsResetPasswordBody>;

/** sms.send's answer: seconds before the next code may be asked for (the page's countdown). */
export const smsSendData = z.object({ interval: z.number().int() });
export type SmsSendData = z.infer<typeof smsSendData>;

/** A number as others may see it: 138****8000. */
export function maskMobile(mobile: string): string {
  return mobile.length === 11 ? `${mobile.slice(0, 3)}****${mobile.slice(7)}` : mobile;
}
