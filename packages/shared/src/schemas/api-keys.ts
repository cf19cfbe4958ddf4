import { z } from 'zod';
import { CONTROL_CHARS, noControlChars } from './common.js';
import { bodyId } from './categories.js';
import { labeled } from './field-labels.js';

/** What an API key may do: read (GET only), write (everything but the back office), admin (everything). */
export const API_KEY_SCOPES = ['read', 'write', 'admin'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** POST /api/backAdmin/apikeys */
export const apiKeyCreateBody = z.object({
  name: labeled(z.string().trim().min(1).max(100).refine(noControlChars, CONTROL_CHARS), {
    zh: '名称',
    en: 'Name',
  }),
  scope: labeled(z.enum(API_KEY_SCOPES), { zh: '权限范围', en: 'Scope' }),
  /** The member the key acts as; absent: the administrator who makes it. */
  userId: labeled(bodyId.optional(), { zh: '代表的用户', en: 'Acts as' }),
});
export type ApiKeyCreateBody = z.infer<typeof apiKeyCreateBody>;

/** DELETE /api/backAdmin/apikeys/:id */
export const apiKeyIdParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

/** A key as the back office lists it: never the key itself. */
export interface ApiKeyItem {
  id: number;
  name: string;
  scope: ApiKeyScope;
  /** The member it acts as. */
  userId: number;
  nickname: string;
  /** `lt_` and its next five characters, to recognise it. */
  keyPrefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** The answer of POST /api/backAdmin/apikeys: the key itself, shown this once. */
export interface ApiKeyCreated extends ApiKeyItem {
  key: string;
}
