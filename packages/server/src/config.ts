import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { StorageSettings } from './core/storage/file-store.js';

/** Everything the server reads from the environment, documented in the README. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .optional()
    .refine((v) => !v || /^postgres(ql)?:\/\//.test(v), 'DATABASE_URL must be a postgres:// URL'),
  /** PostgreSQL schema to use (default: the server's search_path, normally public). */
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .optional(),
  /** off: every statement unnamed (a pooler that cannot carry named prepared statements; db/prepared-statements.ts). */
  DATABASE_PREPARE: z.enum(['on', 'off']).default('on'),
  ADMIN_USERNAME: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Redis for counters shared by app processes (rate limits); without it they live in the database. */
  REDIS_URL: z
    .string()
    .optional()
    .refine((v) => !v || /^rediss?:\/\//.test(v), 'REDIS_URL must be a redis:// or rediss:// URL'),
  /** Registrations allowed per address per minute. */
  RATE_LIMIT_REGISTER: z.coerce.number().int().min(1).default(10),
  /** Private messages a member may send per minute. */
  RATE_LIMIT_DIALOG_MESSAGES: z.coerce.number().int().min(1).default(30),
  /** Failed logins allowed per address per minute. */
  RATE_LIMIT_LOGIN_FAILURES: z.coerce.number().int().min(1).default(10),
  /** Requests an API key may make per minute (each key its own budget, counted across processes). */
  RATE_LIMIT_API_KEY: z.coerce.number().int().min(1).default(600),
  /** Trust X-Forwarded-* from a reverse proxy (true, a hop count, or a comma-separated list of addresses). */
  TRUST_PROXY: z.string().optional(),
  /** Largest request body in bytes (uploads have their own limit). */
  BODY_LIMIT: z.coerce.number().int().min(1024).default(1_048_576),
  /**
   * How many pages one process renders at once (a page not kept: its reads, React's render, its compression); the
   * next ones wait their turn, first come first served. Renders are CPU work: on two cores, 50 visitors rendered at
   * once each waited for all the others (p99 2.2 s, half the pages per second of 2-4 at a time).
   */
  RENDER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(4),
  /** How long a guest's answer to a public read may be served again, in milliseconds (0: never). */
  GUEST_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /**
   * How long a page of a thread list may be kept for every member who blocked nobody, in milliseconds (0: never);
   * writes stale it at once, views and writes straight to the database show within it (modules/threads/kept-lists.ts).
   */
  LIST_KEEP_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  /**
   * How many processes serve the forum (node:cluster): a whole number, or auto (one per core the process may use).
   * Default: auto when NODE_ENV=production, else 1 (one process, no cluster).
   */
  WORKERS: z
    .string()
    .regex(/^(auto|[1-9]\d{0,3})$/, 'WORKERS must be a whole number from 1 to 9999, or auto')
    .optional(),
  /**
   * On SIGTERM or SIGINT, how long requests in flight may take to finish, in milliseconds, before their connections
   * are closed and the process stops anyway.
   */
  STOP_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(8000),
  NODE_ENV: z.string().optional(),
  /** 1: every answer says which process gave it (x-luntan-worker, x-luntan-pid), for tests and debugging. */
  LUNTAN_PROCESS_HEADER: z.enum(['0', '1']).optional(),
  /** 1: the sandbox payment provider is on (development and tests), whatever the back office says. */
  PAYMENT_SANDBOX: z.enum(['0', '1']).optional(),
  /** Outgoing mail: smtp:// or smtps:// (wins over the back office's smtpUrl), and the sender. */
  SMTP_URL: z
    .string()
    .optional()
    .refine((v) => !v || /^smtps?:\/\//.test(v), 'SMTP_URL must be an smtp:// or smtps:// URL'),
  MAIL_FROM: z.string().optional(),
  /** log: every SMS is written to the server log (one line: number and text) instead of sent, whatever the back office says. */
  SMS_PROVIDER: z.enum(['log']).optional(),
  /** Seconds between two codes to one number (0: no wait, for tests). */
  SMS_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(60),
  /** Codes one number may receive per day. */
  SMS_DAILY_LIMIT: z.coerce.number().int().min(1).default(10),
  /** Codes one address may ask for per hour. */
  RATE_LIMIT_SMS_ADDRESS: z.coerce.number().int().min(1).default(30),
  /**
   * 1: addresses the server fetches on someone's behalf (webhooks) may be on loopback, private and link-local
   * networks (tests, closed networks). Default: refused (core/safe-fetch.ts).
   */
  ALLOW_PRIVATE_FETCH: z.enum(['0', '1']).optional(),
  /** How long a product page may take to answer goods/analysis, ms (modules/goods). */
  GOODS_FETCH_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  /**
   * Where files are kept: absent (or disk) for DATA_DIR on this machine, or an S3-compatible bucket,
   * s3://KEY:SECRET@BUCKET[/PREFIX]?endpoint=URL&region=REGION&forcePathStyle=true (docs/deployment.md).
   */
  STORAGE_URL: z.string().optional(),
  /** The public address (a CDN) that serves the files under /uploads/; /uploads/x then redirects to it. */
  STORAGE_PUBLIC_URL: z
    .string()
    .optional()
    .refine((v) => !v || /^https?:\/\/[^\s]+$/.test(v), 'STORAGE_PUBLIC_URL must be an http:// or https:// address'),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databaseSchema: string | undefined;
  /** Named prepared statements on PostgreSQL (DATABASE_PREPARE, default on). */
  databasePrepare: boolean;
  redisUrl: string | undefined;
  adminUsername: string | undefined;
  adminPassword: string | undefined;
  logLevel: string;
  rateLimitRegister: number;
  rateLimitLoginFailures: number;
  rateLimitApiKey: number;
  rateLimitDialogMessages: number;
  trustProxy: boolean | number | string;
  bodyLimit: number;
  guestCacheMs: number;
  listKeepMs: number;
  renderConcurrency: number;
  paymentSandbox: boolean;
  smtpUrl: string | undefined;
  mailFrom: string | undefined;
  smsProvider: 'log' | undefined;
  smsIntervalSeconds: number;
  smsDailyLimit: number;
  rateLimitSmsAddress: number;
  /** Processes serving the forum; 1 is a single process without a cluster primary. */
  workers: number;
  /** Answers carry x-luntan-worker and x-luntan-pid. */
  processHeader: boolean;
  /** On SIGTERM/SIGINT: how long requests in flight may still take (main.ts, cluster-primary.ts). */
  stopGraceMs: number;
  /** ALLOW_PRIVATE_FETCH=1: fetches on someone's behalf may reach private addresses (core/safe-fetch.ts). */
  allowPrivateFetch: boolean;
  /** GOODS_FETCH_TIMEOUT_MS: how long a product page may take to answer goods/analysis (5 s). */
  goodsFetchTimeoutMs: number;
  /** STORAGE_URL: where files are kept (core/storage). */
  storage: StorageSettings;
  /** STORAGE_PUBLIC_URL without its trailing slash: /uploads/<path> redirects to <it>/uploads/<path>. */
  storagePublicUrl: string | undefined;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(
    Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')),
  );
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${issues}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseSchema: e.DATABASE_SCHEMA,
    databasePrepare: e.DATABASE_PREPARE === 'on',
    redisUrl: e.REDIS_URL,
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    logLevel: e.LOG_LEVEL,
    rateLimitRegister: e.RATE_LIMIT_REGISTER,
    rateLimitLoginFailures: e.RATE_LIMIT_LOGIN_FAILURES,
    rateLimitApiKey: e.RATE_LIMIT_API_KEY,
    rateLimitDialogMessages: e.RATE_LIMIT_DIALOG_MESSAGES,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    bodyLimit: e.BODY_LIMIT,
    guestCacheMs: e.GUEST_CACHE_MS,
    listKeepMs: e.LIST_KEEP_MS,
    renderConcurrency: e.RENDER_CONCURRENCY,
    paymentSandbox: e.PAYMENT_SANDBOX === '1',
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    smsProvider: e.SMS_PROVIDER,
    smsIntervalSeconds: e.SMS_INTERVAL_SECONDS,
    smsDailyLimit: e.SMS_DAILY_LIMIT,
    rateLimitSmsAddress: e.RATE_LIMIT_SMS_ADDRESS,
    workers: parseWorkers(e.WORKERS ?? (e.NODE_ENV === 'production' ? 'auto' : '1')),
    processHeader: e.LUNTAN_PROCESS_HEADER === '1',
    stopGraceMs: e.STOP_GRACE_MS,
    allowPrivateFetch: e.ALLOW_PRIVATE_FETCH === '1',
    goodsFetchTimeoutMs: e.GOODS_FETCH_TIMEOUT_MS,
    storage: parseStorageUrl(e.STORAGE_URL),
    storagePublicUrl: e.STORAGE_PUBLIC_URL?.replace(/\/+$/, ''),
  };
}

const STORAGE_URL_FORM = 's3://KEY:SECRET@BUCKET?endpoint=https://...&region=...&forcePathStyle=true';

/** STORAGE_URL: disk (the default) or an S3-compatible bucket; a wrong one stops the start with what is wrong. */
export function parseStorageUrl(value: string | undefined): StorageSettings {
  if (!value || value === 'disk' || value === 'disk:') return { kind: 'disk' };
  const bad = (why: string) =>
    new ConfigError(`Invalid configuration: STORAGE_URL: ${why} (expected ${STORAGE_URL_FORM}, or disk)`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw bad('not a URL');
  }
  if (url.protocol !== 's3:') throw bad(`unknown scheme ${url.protocol}`);
  const decode = (part: string, name: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      throw bad(`${name} is not URL-encoded properly`);
    }
  };
  const accessKeyId = decode(url.username, 'the access key');
  const secretAccessKey = decode(url.password, 'the secret');
  if (!accessKeyId || !secretAccessKey) throw bad('the access key and secret are missing');
  const bucket = decode(url.hostname, 'the bucket');
  if (!/^[a-z0-9][a-z0-9.-]{1,62}$/i.test(bucket)) throw bad(`"${bucket}" is no bucket name`);
  const prefix = decode(url.pathname, 'the prefix').replace(/^\/+|\/+$/g, '');
  if (prefix.split('/').some((s) => s === '.' || s === '..')) throw bad('the prefix may not hold . or ..');
  const known = new Set(['endpoint', 'region', 'forcePathStyle']);
  for (const name of url.searchParams.keys()) {
    if (!known.has(name)) throw bad(`unknown parameter ${name} (known: endpoint, region, forcePathStyle)`);
  }
  const endpoint = url.searchParams.get('endpoint') || undefined;
  if (endpoint && !/^https?:\/\/[^\s/]+/.test(endpoint)) throw bad('endpoint must be an http:// or https:// address');
  const style = url.searchParams.get('forcePathStyle');
  if (style !== null && style !== 'true' && style !== 'false') throw bad('forcePathStyle must be true or false');
  return {
    kind: 's3',
    accessKeyId,
    secretAccessKey,
    bucket,
    prefix: prefix ? `${prefix}/` : '',
    endpoint,
    region: url.searchParams.get('region') || 'us-east-1',
    forcePathStyle: style === 'true',
  };
}

function parseWorkers(value: string): number {
  return value === 'auto' ? os.availableParallelism() : Number(value);
}

function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}
