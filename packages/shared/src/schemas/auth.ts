import { z } from 'zod';
import { signinAnswers } from './signin-fields.js';
import { NICKNAME_MAX, PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from '../constants.js';

/** A refinement's message in both locales: the server answers in the viewer's. */
const says = (en: string, zh: string) => ({ message: en, params: { zh } });

/** Counts user-perceived code points, so a Chinese character or an emoji is one. */
const codePoints = (s: string) => [...s].length;

/** Letters of any script (Chinese included), digits, underscore and hyphen. */
const USERNAME_PATTERN = /^[\p{L}\p{N}_-]+$/u;

export const usernameSchema = z
  .string()
  .trim()
  .refine(
    (s) => codePoints(s) >= USERNAME_MIN,
    says(`username must be at least ${USERNAME_MIN} characters`, `用户名至少 ${USERNAME_MIN} 个字符`),
  )
  .refine(
    (s) => codePoints(s) <= USERNAME_MAX,
    says(`username must be at most ${USERNAME_MAX} characters`, `用户名最多 ${USERNAME_MAX} 个字符`),
  )
  .refine(
    (s) => USERNAME_PATTERN.test(s),
    says('username may hold letters, digits, underscore and hyphen only', '用户名只能包含文字、数字、下划线和连字符'),
  );

export const nicknameSchema = z
  .string()
  .trim()
  .min(1)
  .refine(
    (s) => codePoints(s) <= NICKNAME_MAX,
    says(`nickname must be at most ${NICKNAME_MAX} characters`, `昵称最多 ${NICKNAME_MAX} 个字符`),
  )
  .refine((s) => !/\p{Cc}/u.test(s), says('nickname holds control characters', '昵称不能包含控制字符'));

export const passwordSchema = z.string().min(PASSWORD_MIN).max(PASSWORD_MAX);

export const registerBody = z.object({
  username: usernameSchema,
  password: passwordSchema,
  nickname: nicknameSchema.optional(),
  /**
   * Answers to the sign-in fields ([{id: fieldId, value}]). Given, every enabled required field must be answered;
   * left out while required fields exist, the new user gets status 10 and answers them afterwards.
   */
  signinFields: signinAnswers.optional(),
});
export type RegisterBody = z.infer<typeof registerBody>;

export const loginBody = z.object({
  username: z.string().trim().min(1).max(100),
  password: z.string().min(1).max(PASSWORD_MAX),
});
export type LoginBody = z.infer<typeof loginBody>;

export const usernameCheckBody = z.object({ username: usernameSchema });

/** What login and registration answer. */
export const sessionData = z.object({
  accessToken: z.string(),
  userId: z.number().int(),
  userStatus: z.number().int(),
  expiresIn: z.number().int().describe('seconds until the token expires'),
});
export type SessionData = z.infer<typeof sessionData>;
