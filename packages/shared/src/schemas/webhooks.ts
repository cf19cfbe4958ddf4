import { z } from 'zod';
import { PUBLIC_EVENT_NAMES, type DomainEventName } from '../events.js';
import { problem } from '../validation-messages.js';
import { bodyId, queryId } from './categories.js';
import { CONTROL_CHARS, noControlChars } from './common.js';
import { labeled } from './field-labels.js';

/**
 * Outgoing webhooks (docs/webhooks.md): an administrator picks events, a URL and a secret; each delivery is a JSON
 * POST signed with HMAC-SHA256 of the body (X-Luntan-Signature: sha256=<hex>).
 */

/** The test event the back office sends (POST /api/backAdmin/webhooks.ping); a hook need not list it. */
export const WEBHOOK_PING_EVENT = 'ping';
/** How many deliveries each hook keeps (the newest). */
export const WEBHOOK_DELIVERIES_KEPT = 50;

/** The events a webhook may pick: every domain event but the server's own timers (PUBLIC_EVENT_NAMES). */
export const WEBHOOK_EVENT_NAMES = PUBLIC_EVENT_NAMES;

const url = labeled(
  z
    .string()
    .trim()
    .max(2000)
    .refine(
      (s) => /^https?:\/\/[^\s/]+/.test(s) && URL.canParse(s) && noControlChars(s),
      problem({
        kind: 'sentence',
        zh: '地址需要是 http:// 或 https:// 开头的网址',
        en: 'The URL must be an http:// or https:// address',
      }),
    ),
  { zh: '接收地址', en: 'Payload URL' },
);

const secret = labeled(
  z
    .string()
    .min(12, problem({ kind: 'sentence', zh: '密钥至少 12 个字符', en: 'The secret needs at least 12 characters' }))
    .max(200)
    .refine(noControlChars, CONTROL_CHARS),
  { zh: '密钥', en: 'Secret' },
);

const events = labeled(
  z
    .array(z.enum(WEBHOOK_EVENT_NAMES as [DomainEventName, ...DomainEventName[]]))
    .min(1, problem({ kind: 'sentence', zh: '至少选择一个事件', en: 'Pick at least one event' }))
    .max(WEBHOOK_EVENT_NAMES.length)
    .transform((list) => [...new Set(list)]),
  { zh: '事件', en: 'Events' },
);

/** POST /api/backAdmin/webhooks: a new hook. */
export const webhookCreateBody = z.object({
  url,
  secret,
  events,
  enabled: z.boolean().default(true),
});
export type WebhookCreateBody = z.infer<typeof webhookCreateBody>;

/** POST /api/backAdmin/webhooks.update: what is given changes; an empty or absent secret keeps the stored one. */
export const webhookUpdateBody = z.object({
  id: bodyId,
  url: url.optional(),
  secret: z.union([z.literal(''), secret]).optional(),
  events: events.optional(),
  enabled: z.boolean().optional(),
});
export type WebhookUpdateBody = z.infer<typeof webhookUpdateBody>;

export const webhookIdBody = z.object({ id: bodyId });
export const webhookIdQuery = z.object({ id: queryId });

/** A hook as the back office sees it: never its secret. */
export interface WebhookItem {
  id: number;
  url: string;
  events: DomainEventName[];
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
  /** The newest delivery's status, if any. */
  lastStatus: WebhookDeliveryStatus | null;
}

export type WebhookDeliveryStatus = 'pending' | 'sending' | 'delivered' | 'failed';

export interface WebhookDeliveryItem {
  id: number;
  /** X-Luntan-Delivery. */
  uuid: string;
  event: string;
  eventId: number | null;
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  /** The receiver's HTTP status on the last attempt (null: no answer). */
  responseStatus: number | null;
  /** Why the last attempt failed (an HTTP status, a refused address, a timeout). */
  error: string | null;
  durationMs: number | null;
  createdAt: string;
  updatedAt: string;
  /** The exact body sent. */
  payload: string;
}
