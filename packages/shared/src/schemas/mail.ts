import { z } from 'zod';
import { EMAIL_MAX, emailSchema, passwordSchema } from './auth.js';
import { labeled } from './field-labels.js';

/** The one-use links mailed to members: 43 characters of base64url (256 bits). */
const mailTokenSchema = labeled(z.string().trim().min(1).max(200), { zh: '链接', en: 'Link' });

/** POST /api/v3/users/email.bind: mails a verification link to the address. */
export const emailBindBody = z.object({ email: emailSchema });
export type EmailBindBody = z.infer<typeof emailBindBody>;

/** POST /api/v3/users/email.verify: the token of the link; the address becomes the member's. */
export const emailVerifyBody = z.object({ token: mailTokenSchema });

/** POST /api/v3/users/password.forgot: a username or an e-mail address. */
export const passwordForgotBody = z.object({
  account: labeled(z.string().trim().min(1).max(EMAIL_MAX), { zh: '用户名或邮箱', en: 'Username or email' }),
});

/** POST /api/v3/users/password.reset: the link's token and the new password (the registration rules). */
export const passwordResetBody = z.object({
  token: mailTokenSchema,
  password: labeled(passwordSchema, { zh: '新密码', en: 'New password', zhChars: '位' }),
});

/** What email.bind answers: where the link went and until when it works. */
export interface EmailBindResult {
  email: string;
  expiresAt: string;
}

/** What email.verify answers. */
export interface EmailVerifyResult {
  userId: number;
  email: string;
}
