import { z } from 'zod';
import { signinAnswers } from './signin-fields.js';
import { charsBetween, CONTROL_CHARS, noControlChars } from './common.js';
import { MOBILE_PATTERN, NICKNAME_MAX, PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from '../constants.js';
import { problem } from '../validation-messages.js';
import { captchaField } from './captcha.js';
import { labeled } from './field-labels.js';

/** Letters of any script (Chinese included), digits, underscore and hyphen. */
const USERNAME_PATTERN = /^[\p{L}\p{N}_-]+$/u;

/** Its length in characters (a Chinese character is one); its messages name it 用户名 / Username. */
export const usernameSchema = z
  .string()
  .trim()
  .superRefine(charsBetween(USERNAME_MIN, USERNAME_MAX))
  .refine((s) => USERNAME_PATTERN.test(s), problem({ kind: 'nameChars' }));

/**
 * A username being chosen (registration, the one change of a generated name): also not a mobile number, which signs
 * in too (username.login takes either), so no name can be another member's number.
 */
export const newUsernameSchema = usernameSchema.refine(
  (s) => !MOBILE_PATTERN.test(s),
  problem({
    kind: 'sentence',
    zh: '用户名不能是手机号',
    en: 'A username cannot be a mobile number',
  }),
);

export const nicknameSchema = z
  .string()
  .trim()
  .min(1)
  .superRefine(charsBetween(1, NICKNAME_MAX))
  .refine(noControlChars, CONTROL_CHARS);

export const passwordSchema = z.string().min(PASSWORD_MIN).max(PASSWORD_MAX);

/** The longest address SMTP carries (RFC 5321 path limit). */
export const EMAIL_MAX = 254;

/** An e-mail address, as typed (trimmed); stored as given and compared lower-cased. */
export const emailSchema = labeled(z.string().trim().max(EMAIL_MAX).pipe(z.email()), { zh: '邮箱', en: 'Email' });

export const registerBody = z.object({
  username: newUsernameSchema,
  password: passwordSchema,
  nickname: nicknameSchema.optional(),
  /** An address to verify (a link is mailed when the site sends mail); unverified until the link is opened. */
  email: emailSchema.optional(),
  /**
   * Answers to the sign-in fields ([{id: fieldId, value}]). Given, every enabled required field must be answered;
   * left out while required fields exist, the new user gets status 10 and answers them afterwards.
   */
  signinFields: signinAnswers.optional(),
  /** The invitation code of /user/register?inviteCode= (needed while registerInviteOnly is on). */
  inviteCode: labeled(z.string().max(64), { zh: '邀请码', en: 'Invitation code' }).optional(),
  /** true: the newcomer accepts the agreements (needed while registerAgreementOpen is on). */
  agreement: labeled(z.boolean(), { zh: '注册协议', en: 'Agreement' }).optional(),
  /** The captcha's solution (needed while registerCaptcha is on). */
  captcha: captchaField.optional(),
});
export type RegisterBody = z.infer<typeof registerBody>;

export const loginBody = z.object({
  /** A username, or the bound mobile number (a username is tried first; see username.login). */
  username: z.string().trim().min(1).max(100),
  password: z.string().min(1).max(PASSWORD_MAX),
  /** The captcha's solution: needed while loginCaptcha is on after three failures in a row (-4001 field captcha). */
  captcha: captchaField.optional(),
});
export type LoginBody = z.infer<typeof loginBody>;

export const usernameCheckBody = z.object({ username: newUsernameSchema });

/** What login and registration answer. */
export const sessionData = z.object({
  accessToken: z.string(),
  userId: z.number().int(),
  userStatus: z.number().int(),
  expiresIn: z.number().int().describe('seconds until the token expires'),
});
export type SessionData = z.infer<typeof sessionData>;
