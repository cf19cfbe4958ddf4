import { performance } from 'node:perf_hooks';
import { ACCESS_TOKEN_NAME } from '@luntan/shared';
import { stopWordBenchmarkFixture } from '../modules/stop-words/index.js';
import autocannon from 'autocannon';

/**
 * What `npm run bench` measures: a list of named measurements, each one row of the table. Add a row by adding an
 * entry: an HTTP call against the running server (`kind: 'http'`), or a function timed in this process
 * (`kind: 'function'`, e.g. the stop-word matcher once it exists).
 */

export interface BenchContext {
  /** The server's address, e.g. http://127.0.0.1:40123 */
  baseUrl: string;
  /**
   * Ids of up to THREAD_POOL listed threads, in random order. The rows that read a thread take the next one for each
   * request, so a thread comes again only after all the others: with 1,000 of them and the guest cache's second, a
   * page is asked for again within its lifetime only above 1,000 requests a second, so each request is a first visit.
   */
  threadIds: number[];
  /** A demo member's access token, for the rows measured as a signed-in viewer. */
  memberToken: string;
}

export type BenchDatabase = 'sqlite' | 'postgres';

/** How many threads the bench reads, a different one each request (BenchContext.threadIds). */
export const THREAD_POOL = 1000;

/** The rows the targets table (bench-targets.ts) compares, by name. */
export const ROW = {
  memberList: 'thread.list (home), member',
  keptPage: 'GET / (server-rendered home), guest',
  guestHomeUncached: 'GET / (server-rendered home), guest, no guest cache',
  memberHomeUncached: 'GET / (server-rendered home), member, nothing kept',
  guestThreadPage: 'GET /thread/<id> (server-rendered thread), guest',
  memberThreadPage: 'GET /thread/<id> (server-rendered thread), member',
  /**
   * First visits: nothing kept (a second server with GUEST_CACHE_MS=0). With pages kept, a pool of 1,000 threads is
   * all rendered within the run once a render takes less than about 5 ms, and the rows above measure kept pages.
   */
  guestThreadFirst: 'GET /thread/<id> (server-rendered thread), guest, no guest cache',
  memberThreadFirst: 'GET /thread/<id> (server-rendered thread), member, nothing kept',
  /** Not in MEASUREMENTS: the kept page's bytes answered from memory by a bare Fastify server (bench-ceiling.ts). */
  ceiling: 'bare Fastify ceiling (the kept page from memory)',
} as const;

/**
 * What a row must reach: a latency percentile below a number of milliseconds, or a rate of at least so many
 * requests (or calls) a second. `database` limits a target to one database (a figure set for SQLite only).
 */
export type Target =
  | { kind: 'latency'; percentile: 'p95' | 'p99'; /** Milliseconds. */ below: number; database?: BenchDatabase }
  | { kind: 'rate'; atLeast: number; database?: BenchDatabase };

export interface HttpMeasurement {
  kind: 'http';
  name: string;
  connections: number;
  /**
   * Who asks: a guest (no token; public reads may come from the guest cache) or a signed-in member (always the
   * full path: viewer, permissions, queries).
   */
  viewer: 'guest' | 'member';
  /**
   * A page as a browser asks for it: `Accept: text/html`, `Accept-Encoding: br, gzip` and, for a member, the
   * session cookie (instead of the Authorization header of API calls).
   */
  page?: boolean;
  /**
   * Measured against a second server started with `GUEST_CACHE_MS=0`: the cost of a guest's request when the guest
   * cache cannot answer it (the first visitor of a page, or every page of a crawler walking the forum).
   */
  withoutGuestCache?: boolean;
  /** The path of each request: called for every request, so it may vary. */
  path: (ctx: BenchContext) => () => string;
  /** Checked once before measuring: a body that fails is a broken benchmark, not a slow one. */
  check?: (body: string) => boolean;
  targets?: Target[];
}

export interface FunctionMeasurement {
  kind: 'function';
  name: string;
  /** Prepares the data and answers the function to time (one call = one sample). */
  setup: (ctx: BenchContext) => Promise<() => unknown> | (() => unknown);
  targets?: Target[];
}

export type Measurement = HttpMeasurement | FunctionMeasurement;

export interface MeasurementResult {
  name: string;
  /** HTTP connections, or 1 for a function. */
  connections: number;
  /** Requests (or calls) per second. */
  rate: number;
  p50: number;
  p95: number;
  p99: number;
  samples: number;
  /** Failed requests: transport errors, timeouts and non-2xx answers. */
  errors: number;
  /** Of the errors, the requests autocannon gave up waiting for (10 s). */
  timeouts: number;
  /** The row's targets that apply to the database measured. */
  targets: Target[];
  /**
   * The row a target compares this one with (the member's thread.list), measured on the same server right before
   * and right after this row: the machine's speed moves over a run (a shared machine), and a rate compared with one
   * measured minutes earlier on another server moved with it (bench.ts, measureOnServer's `beside`).
   */
  beside?: { name: string; rates: number[] };
}

const apiOk = (body: string) => (JSON.parse(body) as { Code: number }).Code === 0;
const listNotEmpty = (body: string) =>
  apiOk(body) && (JSON.parse(body) as { Data: { pageData: unknown[] } }).Data.pageData.length > 0;
const search = (word: string) => `/api/v3/thread.list?filter[search]=${encodeURIComponent(word)}`;

/** The words searched: one inside unspaced Chinese sentences, and a two-character one (which has no trigram). */
export const SEARCH_WORDS = { chinese: '数据库', twoCharacters: '缓存' } as const;

const home: Omit<HttpMeasurement, 'name' | 'viewer'> = {
  kind: 'http',
  connections: 50,
  path: () => () => '/api/v3/thread.list',
  check: listNotEmpty,
  targets: [{ kind: 'latency', percentile: 'p99', below: 50 }],
};

/** Cycles through the listed threads (random order), one per request. */
const eachThread =
  (pathOf: (id: number) => string) =>
  (ctx: BenchContext): (() => string) => {
    let i = 0;
    return () => pathOf(ctx.threadIds[i++ % ctx.threadIds.length]!);
  };

const randomThread: Omit<HttpMeasurement, 'name' | 'viewer'> = {
  kind: 'http',
  connections: 50,
  path: eachThread((id) => `/api/v3/thread.detail?threadId=${id}`),
  check: apiOk,
};

const searchOf = (word: string): Omit<HttpMeasurement, 'name' | 'viewer'> => ({
  kind: 'http',
  connections: 10,
  path: () => () => search(word),
  check: listNotEmpty,
  targets: [{ kind: 'latency', percentile: 'p95', below: 100 }],
});

/** A server-rendered page: the document with the app rendered into its root. */
export const isRenderedPage = (body: string) => /^<!doctype html/i.test(body) && /<div id="root">\s*<[a-z]/i.test(body);

const page = (path: (ctx: BenchContext) => () => string): Omit<HttpMeasurement, 'name' | 'viewer'> => ({
  kind: 'http',
  page: true,
  connections: 50,
  path,
  check: isRenderedPage,
});
const homePage = page(() => () => '/');
const threadPage = page(eachThread((id) => `/thread/${id}`));
/** A signed-in member's page, rendered every time. */
const MEMBER_PAGE_TARGETS: Target[] = [
  { kind: 'rate', atLeast: 400 },
  { kind: 'latency', percentile: 'p99', below: 150 },
];
/** A guest's page that the guest cache does not answer. */
const UNCACHED_GUEST_PAGE_TARGETS: Target[] = [{ kind: 'rate', atLeast: 500 }];

/**
 * Every read is measured twice: as a guest (what search engines and most visitors get, served from the guest
 * cache for a second) and as a signed-in member (never cached: the cost of the full path).
 */
export const MEASUREMENTS: Measurement[] = [
  { ...home, name: 'thread.list (home), guest', viewer: 'guest' },
  {
    ...home,
    name: ROW.memberList,
    viewer: 'member',
    targets: [...home.targets!, { kind: 'rate', atLeast: 1500, database: 'sqlite' }],
  },
  { ...randomThread, name: 'thread.detail (random thread), guest', viewer: 'guest' },
  { ...randomThread, name: 'thread.detail (random thread), member', viewer: 'member' },
  {
    ...searchOf(SEARCH_WORDS.chinese),
    name: `search "${SEARCH_WORDS.chinese}" (inside sentences), guest`,
    viewer: 'guest',
  },
  {
    ...searchOf(SEARCH_WORDS.chinese),
    name: `search "${SEARCH_WORDS.chinese}" (inside sentences), member`,
    viewer: 'member',
  },
  {
    ...searchOf(SEARCH_WORDS.twoCharacters),
    name: `search "${SEARCH_WORDS.twoCharacters}" (2 characters), guest`,
    viewer: 'guest',
  },
  {
    ...searchOf(SEARCH_WORDS.twoCharacters),
    name: `search "${SEARCH_WORDS.twoCharacters}" (2 characters), member`,
    viewer: 'member',
  },
  {
    kind: 'http',
    name: 'thread.list (hot, 5: the home page column), member',
    viewer: 'member',
    connections: 10,
    path: () => () => '/api/v3/thread.list?filter[sort]=3&perPage=5',
    check: listNotEmpty,
  },
  { ...homePage, name: ROW.keptPage, viewer: 'guest' },
  {
    ...homePage,
    name: ROW.guestHomeUncached,
    viewer: 'guest',
    withoutGuestCache: true,
    targets: UNCACHED_GUEST_PAGE_TARGETS,
  },
  { ...homePage, name: 'GET / (server-rendered home), member', viewer: 'member', targets: MEMBER_PAGE_TARGETS },
  { ...homePage, name: ROW.memberHomeUncached, viewer: 'member', withoutGuestCache: true },
  { ...threadPage, name: ROW.guestThreadPage, viewer: 'guest' },
  {
    ...threadPage,
    name: ROW.guestThreadFirst,
    viewer: 'guest',
    withoutGuestCache: true,
    targets: UNCACHED_GUEST_PAGE_TARGETS,
  },
  {
    ...threadPage,
    name: ROW.memberThreadPage,
    viewer: 'member',
    targets: MEMBER_PAGE_TARGETS,
  },
  { ...threadPage, name: ROW.memberThreadFirst, viewer: 'member', withoutGuestCache: true },
  {
    kind: 'function',
    name: 'stop-word matcher (10,000 words, 10,000-character post)',
    setup: () => {
      const { matcher, text } = stopWordBenchmarkFixture({ words: 10_000, textLength: 10_000 });
      return () => matcher.check(text, 'ugc');
    },
    targets: [{ kind: 'latency', percentile: 'p99', below: 10 }],
  },
];

/** The headers of each request of a row: a browser's for pages, an API client's otherwise. */
export function requestHeaders(m: HttpMeasurement, ctx: BenchContext): Record<string, string> {
  if (m.page) {
    return {
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'accept-encoding': 'br, gzip',
      ...(m.viewer === 'member' ? { cookie: `${ACCESS_TOKEN_NAME}=${ctx.memberToken}` } : {}),
    };
  }
  return m.viewer === 'member' ? { authorization: `Bearer ${ctx.memberToken}` } : {};
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summarize(
  m: Measurement,
  database: BenchDatabase | undefined,
  connections: number,
  latencies: number[],
  seconds: number,
  failed: { errors: number; timeouts: number },
): MeasurementResult {
  const sorted = latencies.sort((a, b) => a - b);
  return {
    name: m.name,
    connections,
    rate: sorted.length / seconds,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    samples: sorted.length,
    ...failed,
    targets: (m.targets ?? []).filter((t) => !t.database || t.database === database),
  };
}

/**
 * One autocannon run of warm-up plus measurement, recording only what answers after the warm-up. One run, not two:
 * requests still queued in the server when a run ends are not cancelled, so a separate measured run of a slow row
 * (a page at 50 connections) would start by waiting for the warm-up's leftovers.
 */
async function runHttp(
  m: HttpMeasurement,
  ctx: BenchContext,
  warmupSeconds: number,
  seconds: number,
): Promise<{ latencies: number[]; errors: number; timeouts: number; seconds: number }> {
  const next = m.path(ctx);
  const latencies: number[] = [];
  let errors = 0;
  let timeouts = 0;
  let instance: NodeJS.EventEmitter | undefined;
  const recordFrom = performance.now() + warmupSeconds * 1000;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: ctx.baseUrl,
        connections: m.connections,
        duration: warmupSeconds + seconds,
        // autocannon stops at its sampling tick: a run of a fraction of a second needs a finer one.
        ...(Number.isInteger(warmupSeconds + seconds) ? {} : { sampleInt: 100 }),
        headers: requestHeaders(m, ctx),
        requests: [{ setupRequest: (req) => ({ ...req, path: next() }) }],
      },
      (err: unknown, result) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(result)),
    );
  });
  // The runner's own events (its types describe a client's): (client, statusCode, bytes, responseTime in ms), and
  // (error) for a failed or timed-out request.
  instance!.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (performance.now() < recordFrom) return;
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    else errors += 1;
  });
  instance!.on('reqError', (err: Error) => {
    if (performance.now() < recordFrom) return;
    errors += 1;
    // autocannon's own error for a request it stopped waiting for (lib/run.js, onTimeout).
    if (err.message === 'request timed out') timeouts += 1;
  });
  await done;
  return { latencies, errors, timeouts, seconds: (performance.now() - recordFrom) / 1000 };
}

/**
 * Every row's load in turn, twice round, for `seconds` in all, nothing recorded: before a server's first row, so
 * that V8 has compiled what each row runs by the time any is measured. A process that has just started is still
 * compiling its hot code for a minute under load (with `--trace-opt`: 444 optimizations in 8 s at 27 s of a thread
 * page's load, 26 in 10 s at 60 s, while the page's rate rose by a tenth): without it the first rows measured a JIT
 * at work, and a page's path (the bundle's render, the services) is longer to compile than the thread.list call they
 * are compared with (docs/performance.md, fifteenth part). A round-robin, as a forum's traffic is a mix: the types
 * every row brings are seen before the code is compiled for them.
 */
export async function settleLoad(rows: HttpMeasurement[], ctx: BenchContext, seconds: number): Promise<void> {
  if (seconds <= 0 || rows.length === 0) return;
  // Each row's share of the time, a tenth of a second at least (about twenty rows on the kept-pages server).
  const each = Math.max(0.1, seconds / (2 * rows.length));
  for (let round = 0; round < 2; round += 1) {
    for (const m of rows) {
      await runHttp(m, ctx, each, 0);
      await awaitLeftovers(m, ctx);
    }
  }
}

/**
 * The requests in flight at the end of a run still run in the server; one more of the same kind answers about when
 * they are done (the server interleaves them), so the next row does not start by paying for this one's leftovers.
 */
async function awaitLeftovers(m: HttpMeasurement, ctx: BenchContext): Promise<void> {
  await fetch(`${ctx.baseUrl}${m.path(ctx)()}`, { headers: requestHeaders(m, ctx) })
    .then((res) => res.arrayBuffer())
    .catch(() => undefined);
}

/** Runs one measurement: a warm-up (not recorded), then `seconds` of recorded load. */
export async function runMeasurement(
  m: Measurement,
  ctx: BenchContext,
  options: { seconds: number; warmupSeconds: number; database?: BenchDatabase },
): Promise<MeasurementResult> {
  if (m.kind === 'function') {
    const fn = await m.setup(ctx);
    const latencies: number[] = [];
    const warmUntil = performance.now() + options.warmupSeconds * 1000;
    while (performance.now() < warmUntil) fn();
    const started = performance.now();
    const until = started + options.seconds * 1000;
    // At least once: a process descheduled for the whole window still measures the row.
    do {
      const t0 = performance.now();
      fn();
      latencies.push(performance.now() - t0);
    } while (performance.now() < until);
    const seconds = (performance.now() - started) / 1000;
    return summarize(m, options.database, 1, latencies, seconds, { errors: 0, timeouts: 0 });
  }
  if (m.check) {
    const url = `${ctx.baseUrl}${m.path(ctx)()}`;
    const res = await fetch(url, { headers: requestHeaders(m, ctx) });
    const body = await res.text();
    if (!res.ok || !m.check(body)) throw new Error(`${m.name}: unexpected answer from ${url}: ${body.slice(0, 300)}`);
  }
  const run = await runHttp(m, ctx, options.warmupSeconds, options.seconds);
  await awaitLeftovers(m, ctx);
  return summarize(m, options.database, m.connections, run.latencies, run.seconds, {
    errors: run.errors,
    timeouts: run.timeouts,
  });
}

const ms = (n: number) => (Number.isNaN(n) ? '-' : n < 10 ? n.toFixed(2) : n.toFixed(1));

export interface TargetCheck {
  label: string;
  met: boolean;
}

const count = (n: number) => n.toLocaleString('en');

/**
 * Each target of a row, met or not. A row with targets that had failed requests (timeouts, errors) also gets a
 * missed "no errors": a fast answer to some requests is no answer to the others.
 */
export function evaluateTargets(
  r: Pick<MeasurementResult, 'targets' | 'rate' | 'p95' | 'p99' | 'errors'>,
): TargetCheck[] {
  const checks = r.targets.map((t): TargetCheck => {
    if (t.kind === 'rate') return { label: `≥ ${count(t.atLeast)} req/s`, met: r.rate >= t.atLeast };
    return { label: `${t.percentile} < ${count(t.below)} ms`, met: r[t.percentile] < t.below };
  });
  if (checks.length > 0 && r.errors > 0) checks.push({ label: 'no errors', met: false });
  return checks;
}

export const verdict = (checks: TargetCheck[]): string =>
  checks.map((c) => `${c.label}: ${c.met ? 'met' : 'MISSED'}`).join('; ');

export const targetVerdict = (r: MeasurementResult): string => verdict(evaluateTargets(r));

/** The results as a Markdown table (readable as plain text too). */
export function resultTable(title: string, results: MeasurementResult[]): string {
  const head = ['measurement', 'conn.', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors', 'target'];
  return markdownTable(
    title,
    head,
    results.map((r) => [
      r.name,
      String(r.connections),
      r.rate >= 100 ? r.rate.toFixed(0) : r.rate.toFixed(1),
      ms(r.p50),
      ms(r.p95),
      ms(r.p99),
      r.timeouts > 0 ? `${r.errors} (${r.timeouts} timeouts)` : String(r.errors),
      targetVerdict(r),
    ]),
  );
}

/** A titled Markdown table with its columns padded (readable as plain text too). */
export function markdownTable(title: string, head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max([...h].length, ...rows.map((row) => [...row[i]!].length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => c + ' '.repeat(Math.max(0, widths[i]! - [...c].length))).join(' | ')} |`;
  return [
    `### ${title}`,
    '',
    line(head),
    `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`,
    ...rows.map(line),
  ].join('\n');
}
