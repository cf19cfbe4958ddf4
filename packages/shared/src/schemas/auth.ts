import { z } from 'zod';
import { NICKNAME_MAX, PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from '../constants.js';

/** Counts user-perceived code points, so a Chinese character or an emoji is one. */
const codePoints = (s: string) => [...s].length;

/** Letters of any script (Chinese included), digits, underscore and hyphen. */
const USERNAME_PATTERN = /^[\p{L}\p{N}_-]+$/u;

export const usernameSchema = z
  .string()
  .trim()
  .refine((s) => codePoints(s) >= USERNAME_MIN, {
    message: `username must be at least ${USERNAME_MIN} characters`,
  })
  .refine((s) => codePoints(s) <= USERNAME_MAX, {
    message: `username must be at most ${USERNAME_MAX} characters`,
  })
  .refine((s) => USERNAME_PATTERN.test(s), {
    message: 'username may hold letters, digits, underscore and hyphen only',
  });

export const nicknameSchema = z
  .string()
  .trim()
  .min(1)
  .refine((s) => codePoints(s) <= NICKNAME_MAX, {
    message: `nickname must be at most ${NICKNAME_MAX} characters`,
  })
  .refine((s) => !/\p{Cc}/u.test(s), { message: 'nickname holds control characters' });

export const passwordSchema = z.string().min(PASSWORD_MIN).max(PASSWORD_MAX);

export const registerBody = z.object({
  username: usernameSchema,
  password: passwordSchema,
  nickname: nicknameSchema.optional(),
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
