import { randomUUID } from 'node:crypto';
import {
  Code,
  WEBHOOK_DELIVERIES_KEPT,
  WEBHOOK_PING_EVENT,
  type DeliveredEvent,
  type DomainEventName,
  type WebhookCreateBody,
  type WebhookDeliveryItem,
  type WebhookDeliveryStatus,
  type WebhookItem,
  type WebhookUpdateBody,
} from '@luntan/shared';
import type { Kysely, Selectable } from 'kysely';
import { AppError, notFound } from '../../core/errors.js';
import {
  BlockedAddressError,
  checkDestination,
  FetchRefusedError,
  type AddressRefusal,
} from '../../core/safe-fetch.js';
import { now } from '../../core/time.js';
import type { DB, WebhooksTable } from '../../db/schema.js';
import {
  deleteWebhook,
  enabledWebhooks,
  findWebhook,
  insertDelivery,
  insertWebhook,
  listDeliveries,
  listWebhooks,
  pruneDeliveries,
  updateWebhook,
} from './webhooks.repository.js';
import { msg } from '../../i18n/index.js';

/** What the webhook rules need from the app: its database and whether private addresses may be reached. */
export interface WebhooksDeps {
  db: Kysely<DB>;
  allowPrivateFetch: boolean;
}

const REFUSAL_NAMES: Record<AddressRefusal, { zh: string; en: string }> = {
  loopback: msg('webhooks.loopback'),
  private: msg('webhooks.private'),
  uniqueLocal: msg('webhooks.private2'),
  linkLocal: msg('webhooks.linkLocal'),
  unspecified: msg('webhooks.unspecified'),
  carrierGradeNat: msg('webhooks.carrierGradeNat'),
  broadcast: msg('webhooks.broadcast'),
  multicast: msg('webhooks.multicast'),
  reserved: msg('webhooks.reserved'),
  other: msg('webhooks.specialPurpose'),
};

const notFoundHook = () => notFound(msg('webhooks.webhookNotFound'));

/**
 * Refuses a URL the server may not send to (-4001, naming the address; Data.field "url", Data.address): one on a
 * loopback, private or link-local network (unless ALLOW_PRIVATE_FETCH=1), or whose host cannot be resolved.
 */
export async function assertUrlAllowed(deps: WebhooksDeps, url: string): Promise<void> {
  try {
    await checkDestination(url, deps.allowPrivateFetch);
  } catch (err) {
    if (err instanceof BlockedAddressError) {
      const kind = REFUSAL_NAMES[err.refusal];
      const via = err.host === err.address ? '' : `${err.host} → `;
      throw new AppError(
        Code.INVALID_PARAMETER,
        msg('webhooks.webhooksNotSentAddress', { kindZh: kind.zh, via, address: err.address, kindEn: kind.en }),
        { data: { field: 'url', address: err.address } },
      );
    }
    if (err instanceof FetchRefusedError) {
      const host = new URL(url).hostname;
      throw new AppError(Code.INVALID_PARAMETER, msg('webhooks.hostCouldNotFound', { host }), {
        data: { field: 'url' },
      });
    }
    throw err;
  }
}

function parseEvents(json: string): DomainEventName[] {
  const list: unknown = JSON.parse(json);
  return Array.isArray(list) ? (list as DomainEventName[]) : [];
}

function present(row: Selectable<WebhooksTable> & { lastStatus?: string | null }): WebhookItem {
  return {
    id: row.id,
    url: row.url,
    events: parseEvents(row.events),
    enabled: row.enabled === 1,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    lastStatus: (row.lastStatus ?? null) as WebhookDeliveryStatus | null,
  };
}

export async function listWebhooksForAdmin(db: Kysely<DB>): Promise<WebhookItem[]> {
  return (await listWebhooks(db)).map(present);
}

export async function createWebhook(deps: WebhooksDeps, body: WebhookCreateBody): Promise<WebhookItem> {
  await assertUrlAllowed(deps, body.url);
  const at = now();
  const id = await insertWebhook(deps.db, {
    url: body.url,
    secret: body.secret,
    events: JSON.stringify(body.events),
    enabled: body.enabled ? 1 : 0,
    createdAt: at,
    updatedAt: at,
  });
  return present((await findWebhook(deps.db, id))!);
}

export async function changeWebhook(deps: WebhooksDeps, body: WebhookUpdateBody): Promise<WebhookItem> {
  const existing = await findWebhook(deps.db, body.id);
  if (!existing) throw notFoundHook();
  if (body.url !== undefined && body.url !== existing.url) await assertUrlAllowed(deps, body.url);
  await updateWebhook(deps.db, body.id, {
    ...(body.url !== undefined ? { url: body.url } : {}),
    ...(body.secret ? { secret: body.secret } : {}),
    ...(body.events !== undefined ? { events: JSON.stringify(body.events) } : {}),
    ...(body.enabled !== undefined ? { enabled: body.enabled ? 1 : 0 } : {}),
    updatedAt: now(),
  });
  return present((await findWebhook(deps.db, body.id))!);
}

export async function removeWebhook(db: Kysely<DB>, id: number): Promise<void> {
  if (!(await deleteWebhook(db, id))) throw notFoundHook();
}

export async function listWebhookDeliveries(db: Kysely<DB>, id: number): Promise<WebhookDeliveryItem[]> {
  if (!(await findWebhook(db, id))) throw notFoundHook();
  const rows = await listDeliveries(db, id, WEBHOOK_DELIVERIES_KEPT);
  return rows.map((r) => ({
    id: r.id,
    uuid: r.uuid,
    event: r.eventName,
    eventId: r.eventId,
    status: r.status as WebhookDeliveryStatus,
    attempts: r.attempts,
    nextAttemptAt: r.nextAttemptAt,
    responseStatus: r.responseStatus,
    error: r.error,
    durationMs: r.durationMs,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    payload: r.payload,
  }));
}

/** The body of a delivery: {id, event, createdAt, data}, sent and signed exactly as stored. */
function deliveryBody(eventId: number | null, event: string, createdAt: string, data: unknown): string {
  return JSON.stringify({ id: eventId, event, createdAt, data });
}

async function queue(
  db: Kysely<DB>,
  webhookId: number,
  event: string,
  eventId: number | null,
  createdAt: string,
  data: unknown,
): Promise<{ id: number; uuid: string } | undefined> {
  const at = now();
  const uuid = randomUUID();
  const id = await insertDelivery(db, {
    webhookId,
    uuid,
    eventName: event,
    eventId,
    payload: deliveryBody(eventId, event, createdAt, data),
    status: 'pending',
    nextAttemptAt: at,
    createdAt: at,
    updatedAt: at,
  });
  if (id === undefined) return undefined;
  await pruneDeliveries(db, webhookId, WEBHOOK_DELIVERIES_KEPT);
  return { id, uuid };
}

/** Queues the test event for one hook (enabled or not); the dispatcher sends it at once. */
export async function queuePing(db: Kysely<DB>, id: number): Promise<{ id: number; uuid: string }> {
  const hook = await findWebhook(db, id);
  if (!hook) throw notFoundHook();
  const at = now();
  const queued = await queue(db, id, WEBHOOK_PING_EVENT, null, at, { webhookId: id, message: 'ping' });
  return queued!;
}

/**
 * Queues a domain event for every enabled hook that listens to it; answers how many deliveries were queued. Hearing
 * the same event again (the event bus retries a subscriber that failed midway) queues nothing twice.
 */
export async function queueEvent(db: Kysely<DB>, event: DeliveredEvent): Promise<number> {
  const hooks = (await enabledWebhooks(db)).filter((h) => parseEvents(h.events).includes(event.name));
  let queued = 0;
  for (const hook of hooks) {
    if (await queue(db, hook.id, event.name, event.id, event.at, event.payload)) queued += 1;
  }
  return queued;
}
