import { z } from 'zod';
import { problem } from '../validation-messages.js';
import { labeled } from './field-labels.js';

/** The kinds of notice a member may have pushed to their devices, each with its own switch (/my). */
export const PUSH_KINDS = ['reply', 'mention', 'like', 'message', 'financial'] as const;
export type PushKind = (typeof PUSH_KINDS)[number];
export type PushPreferences = Record<PushKind, boolean>;

/** Bytes a base64url text decodes to, or -1 when it is not base64url. */
function base64urlBytes(text: string): number {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text)) return -1;
  const length = text.replace(/=+$/, '').length;
  return length % 4 === 1 ? -1 : Math.floor((length * 3) / 4);
}

const endpoint = labeled(
  z
    .string()
    .trim()
    .max(2000)
    .refine(
      (s) => /^https?:\/\/[^\s/]+/.test(s) && URL.canParse(s),
      problem({
        kind: 'sentence',
        zh: '推送地址需要是 https:// 开头的网址',
        en: 'The endpoint must be an https:// address',
      }),
    ),
  { zh: '推送地址', en: 'Endpoint' },
);

/** POST /api/v3/push/subscribe: a PushSubscription as the browser gives it (toJSON()). */
export const pushSubscribeBody = z.object({
  endpoint,
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: labeled(
      z
        .string()
        .max(200)
        .refine(
          (s) => base64urlBytes(s) === 65,
          problem({ kind: 'sentence', zh: '浏览器的公钥不正确', en: 'The browser’s public key is not valid' }),
        ),
      { zh: '公钥', en: 'Public key' },
    ),
    auth: labeled(
      z
        .string()
        .max(100)
        .refine(
          (s) => base64urlBytes(s) === 16,
          problem({ kind: 'sentence', zh: '浏览器的认证密钥不正确', en: 'The browser’s auth secret is not valid' }),
        ),
      { zh: '认证密钥', en: 'Auth secret' },
    ),
  }),
});
export type PushSubscribeBody = z.infer<typeof pushSubscribeBody>;

/** POST /api/v3/push/unsubscribe */
export const pushUnsubscribeBody = z.object({ endpoint });

/** POST /api/v3/push/preferences: the switches to change. */
export const pushPreferencesBody = z
  .object(
    Object.fromEntries(PUSH_KINDS.map((k) => [k, z.boolean().optional()])) as Record<
      PushKind,
      z.ZodOptional<z.ZodBoolean>
    >,
  )
  .strict();

/** What a pushed notice carries (the service worker shows it; `url` opens on a click). */
export interface PushMessage {
  title: string;
  body: string;
  url: string;
  kind: PushKind;
  tag: string;
}
