import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from './config.js';
import { CacheVersions, VersionedValue } from './core/cache-versions.js';
import { EventBus } from './core/events/event-bus.js';
import { forumKey } from './core/forum-key.js';
import { GuestAnswerCache } from './core/guest-cache.js';
import { LiveHub } from './core/live.js';
import { deliveredScopeOf, PageCache, pageScopeOf } from './core/page-cache.js';
import { MailTransport } from './core/mail.js';
import { AttemptLimiter, LimiterStore, LoginThrottle } from './core/rate-limit.js';
import { SignalBus } from './core/signals.js';
import { openFileStore, type FileStore } from './core/storage/index.js';
import type { Database, DialectName } from './db/database.js';
import type { DB } from './db/schema.js';
import type { ViewerContext } from './access/viewer.js';
import { readSiteGate, type SiteGate } from './modules/settings/index.js';
import { StopWordCache } from './modules/stop-words/index.js';
import { ViewerCache } from './access/viewer-cache.js';
import { WebhookDispatcher } from './modules/webhooks/index.js';
import { BackupScheduler } from './modules/backups/index.js';
import { ThreadPartRegistry } from './modules/thread-parts/index.js';

/** What sending SMS codes may use (modules/sms). */
export interface SmsLimits {
  interval: AttemptLimiter | null;
  daily: AttemptLimiter;
  address: AttemptLimiter;
}

/** Work beside the requests, started and stopped with the app, kicked when there is some (tests wait for a round). */
export interface BackgroundWorker {
  start(log: FastifyBaseLogger): void;
  stop(): Promise<void>;
  /** Looks for work now, without waiting. */
  kick(): void;
  /** Does what is due and answers once done. */
  runDue(): Promise<void>;
}

/** What every route module needs, built once per app instance (so tests get their own). */
export interface AppContext {
  config: Config;
  db: Kysely<DB>;
  /** The database as opened (its driver's handle: backups snapshot it). */
  database: Database;
  dialect: DialectName;
  /** DATA_DIR/uploads: where /uploads/ is served from when files are kept on disk. */
  uploadsDir: string;
  /**
   * Where every file the forum keeps is written, read and removed (core/storage): DATA_DIR on this machine, or the
   * bucket STORAGE_URL names. Keys start with uploads/ (public) or files/ (checked by the forum).
   */
  files: FileStore;
  /** Attempt counters shared by every process (core/rate-limit.ts). */
  limits: {
    store: LimiterStore;
    register: AttemptLimiter;
    login: LoginThrottle;
    dialogMessages: AttemptLimiter;
    /** Requests per minute of each API key (RATE_LIMIT_API_KEY). */
    apiKeys: AttemptLimiter;
    sms: SmsLimits;
    /** A viewer's view of a thread counts once an hour (a member by id, a guest by address), as NodeBB counts. */
    threadViews: AttemptLimiter;
  };
  /** This process's stop-word matcher, rebuilt when the list changes (in any process). */
  stopWords: StopWordCache;
  /**
   * Signals to every process of this forum (core/signals.ts): what a per-process cache needs to hear when another
   * process changed its data. Connected to the other processes by server.ts.
   */
  signals: SignalBus;
  /** What guests read, kept for a moment (core/guest-cache.ts). */
  guestCache: GuestAnswerCache;
  /**
   * Rendered pages, kept until a write changes what they show, shared through Redis when there is one
   * (core/page-cache.ts).
   */
  pages: PageCache;
  /**
   * Domain events (core/events): `emit(trx, name, payload)` in the transaction of a change; subscribers (notifications,
   * live delivery, plugins) hear it after commit, once across processes.
   */
  events: EventBus;
  /** Events for signed-in pages, delivered at once (core/live.ts). */
  live: LiveHub;
  /** Outgoing mail over SMTP (core/mail.ts); the mail module decides whether and what to send. */
  mail: MailTransport;
  /** The counters of cached data, read at the start of every request (core/cache-versions.ts). */
  versions: CacheVersions;
  /** Sessions and what they may do, kept per process under the `viewers` counter (auth/viewer-cache.ts). */
  viewers: ViewerCache;
  /** Whether the site is closed, its mode and default language: read by every /api request. */
  siteGate: VersionedValue<SiteGate>;
  /** Sends the outgoing webhooks' deliveries (modules/webhooks); started and stopped with the app. */
  webhooks: WebhookDispatcher;
  /** The daily backup (modules/backups); started and stopped with the app. */
  backups: BackupScheduler;
  /**
   * Fetches the previews of links alone on their line (modules/link-previews' worker); made by the app's assembly
   * (app.ts), which starts and stops it with the app.
   */
  linkPreviews: BackgroundWorker;
  /** The kinds of parts a thread may hold (modules/thread-parts), registered by the assembly (thread-parts.ts). */
  threadParts: ThreadPartRegistry;
  /** The app's logger, for work beside a request that must not fail it (a notification that could not be made). */
  log: FastifyBaseLogger;
}

/** Everything but the logger, which the app adds when it is built (app.ts). */
export function createContext(config: Config, database: Database): Omit<AppContext, 'log' | 'linkPreviews'> {
  const store = LimiterStore.open(database, config.redisUrl, forumKey(config));
  const versions = new CacheVersions(database.handle);
  const signals = new SignalBus(randomUUID());
  const guestCache = new GuestAnswerCache(config.guestCacheMs, signals);
  const events = new EventBus(database.db, signals, signals.origin);
  const files = openFileStore(config.storage, config.dataDir);
  const pages = new PageCache(config.guestCacheMs > 0, database.db, versions, {
    redisUrl: config.redisUrl,
    namespace: forumKey(config),
    handle: database.handle,
  });
  // What a write or a subscriber changed shows where its events say (core/page-cache.ts): its threads' pages and the
  // lists, or anywhere.
  guestCache.afterWrite((request) => pages.noteWrite(pageScopeOf(request?.emittedEvents)));
  events.afterDelivery((delivered) => pages.noteWrite(deliveredScopeOf(delivered)));
  const base: Omit<AppContext, 'log' | 'linkPreviews'> = {
    config,
    db: database.db,
    database,
    dialect: database.dialect,
    uploadsDir: path.join(config.dataDir, 'uploads'),
    files,
    limits: {
      store,
      register: new AttemptLimiter(store, 'register_ip', config.rateLimitRegister),
      login: new LoginThrottle(store, config.rateLimitLoginFailures),
      dialogMessages: new AttemptLimiter(store, 'dialog_user', config.rateLimitDialogMessages),
      apiKeys: new AttemptLimiter(store, 'api_key', config.rateLimitApiKey),
      sms: {
        // A number's wait between codes (none when 0) and its day's budget; an address's budget per hour.
        interval:
          config.smsIntervalSeconds > 0
            ? new AttemptLimiter(store, 'sms_phone_wait', 1, config.smsIntervalSeconds)
            : null,
        daily: new AttemptLimiter(store, 'sms_phone_day', config.smsDailyLimit, 24 * 3600),
        address: new AttemptLimiter(store, 'sms_ip', config.rateLimitSmsAddress, 3600),
      },
      threadViews: new AttemptLimiter(store, 'thread_view', 1, 3600),
    },
    stopWords: new StopWordCache(),
    signals,
    guestCache,
    pages,
    events,
    live: new LiveHub(signals),
    mail: new MailTransport(),
    versions,
    viewers: new ViewerCache(versions),
    siteGate: new VersionedValue(versions, 'settings', () => readSiteGate(database.db)),
    webhooks: new WebhookDispatcher(database.db, config.allowPrivateFetch),
    backups: new BackupScheduler({ database, config, files }),
    threadParts: new ThreadPartRegistry(),
  };
  return base;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    viewer: ViewerContext;
  }
}
