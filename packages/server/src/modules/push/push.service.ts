import { Code, type PushKind, type PushMessage, type PushPreferences, type PushSubscribeBody } from '@luntan/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError, fieldError } from '../../core/errors.js';
import { BlockedAddressError, checkDestination, FetchRefusedError, safeFetch } from '../../core/safe-fetch.js';
import type { ViewerContext } from '../../access/viewer.js';
import { requireUser } from '../../access/viewer.js';
import {
  countSubscriptions,
  deleteSubscription,
  markDelivered,
  readPreferences,
  saveSubscription,
  subscriptionsOf,
  vapidKeys,
  writePreferences,
} from './push.repository.js';

/** Devices one member may have subscribed at once (each push goes to all of them). */
export const PUSH_SUBSCRIPTIONS_MAX = 10;
/** A push service that does not answer within this is tried again with the next notice. */
const SEND_TIMEOUT_MS = 5_000;
/** How long a push service keeps a notice for a device that is offline. */
const PUSH_TTL_SECONDS = 24 * 3600;
/** After this many failures in a row (not 404/410, which drop it at once) a subscription is dropped. */
const FAILURES_MAX = 10;

type Ctx = Pick<AppContext, 'db' | 'config'>;

export async function publicKey(ctx: Ctx): Promise<{ publicKey: string }> {
  return { publicKey: (await vapidKeys(ctx.db)).publicKey };
}

const badEndpoint = (en: string, zh: string) => fieldError(Code.INVALID_PARAMETER, 'endpoint', { zh, en });

/**
 * Keeps the browser's subscription for the member. The endpoint is an address the server will POST to: https only
 * (http too where ALLOW_PRIVATE_FETCH=1, for tests), and never one that leads to this machine or its network
 * (core/safe-fetch.ts; checked again at every push).
 */
export async function subscribe(
  ctx: Ctx,
  viewer: ViewerContext,
  body: PushSubscribeBody,
  userAgent: string,
): Promise<{ subscribed: true }> {
  const user = requireUser(viewer);
  const url = new URL(body.endpoint);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && ctx.config.allowPrivateFetch)) {
    throw badEndpoint('The endpoint must be an https:// address', '推送地址需要是 https:// 开头的网址');
  }
  try {
    await checkDestination(url, ctx.config.allowPrivateFetch);
  } catch (error) {
    if (error instanceof BlockedAddressError || error instanceof FetchRefusedError) {
      throw badEndpoint(
        'The endpoint is not a push service this server may reach',
        '推送地址不是服务器可以访问的推送服务',
      );
    }
    throw error;
  }
  const known = (await subscriptionsOf(ctx.db, user.id)).some((s) => s.endpoint === body.endpoint);
  if (!known && (await countSubscriptions(ctx.db, user.id)) >= PUSH_SUBSCRIPTIONS_MAX) {
    throw new AppError(Code.INVALID_PARAMETER, {
      zh: `最多在 ${PUSH_SUBSCRIPTIONS_MAX} 台设备上开启推送，请先在其他设备上关闭`,
      en: `Push can be on for at most ${PUSH_SUBSCRIPTIONS_MAX} devices: turn it off on another first`,
    });
  }
  await saveSubscription(ctx.db, {
    userId: user.id,
    endpoint: body.endpoint,
    p256dh: body.keys.p256dh,
    auth: body.keys.auth,
    userAgent,
    at: new Date().toISOString(),
  });
  return { subscribed: true };
}

export async function unsubscribe(ctx: Ctx, viewer: ViewerContext, endpoint: string): Promise<{ removed: number }> {
  const user = requireUser(viewer);
  return { removed: await deleteSubscription(ctx.db, endpoint, user.id) };
}

export async function preferences(ctx: Ctx, viewer: ViewerContext): Promise<PushPreferences & { devices: number }> {
  const user = requireUser(viewer);
  return { ...(await readPreferences(ctx.db, user.id)), devices: await countSubscriptions(ctx.db, user.id) };
}

export async function changePreferences(
  ctx: Ctx,
  viewer: ViewerContext,
  changes: Partial<Record<PushKind, boolean>>,
): Promise<PushPreferences & { devices: number }> {
  const user = requireUser(viewer);
  await writePreferences(ctx.db, user.id, changes);
  return preferences(ctx, viewer);
}

/** VAPID's subject: the site's https address when it has one, else a mailto the push services accept. */
function vapidSubject(siteUrl: string): string {
  return /^https:\/\/[^/]+/.test(siteUrl) ? siteUrl : 'mailto:push@luntan.invalid';
}

/**
 * Sends a notice to every device the member subscribed, if they want this kind pushed: encrypted for each
 * (RFC 8291, aes128gcm) and signed (VAPID) by web-push, posted through core/safe-fetch.ts. A subscription the push
 * service says is gone (404, 410) is dropped; one that keeps failing too.
 */
export async function pushTo(
  ctx: Ctx,
  userId: number,
  message: PushMessage,
  siteUrl: string,
  log?: FastifyBaseLogger,
): Promise<number> {
  if (!(await readPreferences(ctx.db, userId))[message.kind]) return 0;
  const subscriptions = await subscriptionsOf(ctx.db, userId);
  if (subscriptions.length === 0) return 0;
  const keys = await vapidKeys(ctx.db);
  // Loaded with the first push (a process that sends none does not keep it).
  const { default: webpush } = await import('web-push');
  const payload = JSON.stringify(message);
  let delivered = 0;
  await Promise.all(
    subscriptions.map(async (s) => {
      const at = new Date().toISOString();
      try {
        const request = webpush.generateRequestDetails(
          { endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } },
          payload,
          {
            vapidDetails: { subject: vapidSubject(siteUrl), publicKey: keys.publicKey, privateKey: keys.privateKey },
            TTL: PUSH_TTL_SECONDS,
            contentEncoding: 'aes128gcm',
            urgency: 'normal',
          },
        );
        const res = await safeFetch(request.endpoint, {
          method: 'POST',
          headers: request.headers as Record<string, string>,
          body: request.body ?? Buffer.alloc(0),
          allowPrivate: ctx.config.allowPrivateFetch,
          timeoutMs: SEND_TIMEOUT_MS,
          maxBytes: 4096,
          maxRedirects: 0,
        });
        if (res.status === 404 || res.status === 410) {
          await deleteSubscription(ctx.db, s.endpoint);
          return;
        }
        const ok = res.status >= 200 && res.status < 300;
        if (ok) delivered += 1;
        await markDelivered(ctx.db, s.id, at, ok);
      } catch (error) {
        log?.info({ err: error, endpoint: s.endpoint }, 'push: a device could not be reached');
        await markDelivered(ctx.db, s.id, at, false);
      }
    }),
  );
  await ctx.db
    .deleteFrom('pushSubscriptions')
    .where('userId', '=', userId)
    .where('failures', '>=', FAILURES_MAX)
    .execute();
  return delivered;
}
