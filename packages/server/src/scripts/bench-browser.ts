import { ACCESS_TOKEN_NAME, ACCESS_TOKEN_TTL_MS } from '@luntan/shared';
import { chromium, devices, type Browser, type BrowserContext, type CDPSession } from 'playwright-core';
import { markdownTable, verdict, type TargetCheck } from './bench-measurements.js';

/**
 * The browser part of `npm run bench`: what a visitor on a mid-range phone sees. Chromium with Playwright's Pixel 7
 * (mobile viewport, touch, mobile user agent) and the CPU slowed down 4 times through the DevTools protocol, a new
 * context (so a cold HTTP cache) for every load. Per page and viewer, the median of `loads` loads of:
 *
 * - Largest Contentful Paint: the last 'largest-contentful-paint' entry at the end of the window.
 * - Total Blocking Time: the part beyond 50 ms of every long task, counted from First Contentful Paint to the end
 *   of the window (Lighthouse's definition, with the window below instead of Time to Interactive).
 *
 * The window: from navigation until the load event, then until the network has been idle for 500 ms (Playwright's
 * 'networkidle'; at most 15 s), then 2 s more. The first guest load of the home page also adds up the JavaScript and
 * CSS as transferred (headers and body, as encoded on the wire with the browser's own Accept-Encoding).
 */

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const BROWSER_TARGETS = { lcpMs: 1500, tbtMs: 200, jsKb: 150, cssKb: 30 } as const;
const CPU_SLOWDOWN = 4;
const DEVICE = 'Pixel 7';
const QUIET_MS = 2000;

export interface LongTask {
  startTime: number;
  duration: number;
}

/** Total Blocking Time: the time beyond the first 50 ms of each long task, within [fcp, end]. */
export function totalBlockingTime(tasks: LongTask[], fcp: number, end = Number.POSITIVE_INFINITY): number {
  let sum = 0;
  for (const t of tasks) {
    const blockingStart = Math.max(t.startTime + 50, fcp);
    const blockingEnd = Math.min(t.startTime + t.duration, end);
    if (blockingEnd > blockingStart) sum += blockingEnd - blockingStart;
  }
  return sum;
}

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Installed before any script of the page: long tasks are not buffered, so they must be observed from the start. */
const OBSERVERS = `(() => {
  const state = { lcp: undefined, longTasks: [] };
  window.__luntanBench = state;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) state.lcp = e.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) state.longTasks.push({ startTime: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
})();`;

const READ_METRICS = `(() => ({
  lcp: window.__luntanBench.lcp,
  fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
  longTasks: window.__luntanBench.longTasks,
  now: performance.now(),
}))()`;

export interface BrowserBenchInput {
  baseUrl: string;
  threadId: number;
  memberToken: string;
  loads: number;
  executablePath: string;
}

export interface PageLoads {
  page: string;
  viewer: 'guest' | 'member';
  lcp: number[];
  tbt: number[];
}

export interface BrowserReport {
  pages: PageLoads[];
  /** Bytes of the first guest load of the home page. */
  transfer: { js: number; css: number };
}

interface LoadResult {
  lcp: number;
  tbt: number;
  js: number;
  css: number;
}

/** Counts Script and Stylesheet bytes as Chromium received them. */
function countTransfer(cdp: CDPSession): { js: number; css: number } {
  const types = new Map<string, string>();
  const totals = { js: 0, css: 0 };
  cdp.on('Network.responseReceived', (e) => types.set(e.requestId, e.type));
  cdp.on('Network.loadingFinished', (e) => {
    const type = types.get(e.requestId);
    if (type === 'Script') totals.js += e.encodedDataLength;
    if (type === 'Stylesheet') totals.css += e.encodedDataLength;
  });
  return totals;
}

async function newContext(browser: Browser, input: BrowserBenchInput, viewer: 'guest' | 'member') {
  const { defaultBrowserType: _ignored, ...device } = devices[DEVICE]!;
  const context = await browser.newContext({ ...device, locale: 'zh-CN' });
  if (viewer === 'member') {
    // As after a sign-in: the cookie for server-rendered pages, local storage for the app's own API calls.
    await context.addCookies([
      { name: ACCESS_TOKEN_NAME, value: input.memberToken, url: input.baseUrl, httpOnly: true, sameSite: 'Lax' },
    ]);
    await context.addInitScript(
      `localStorage.setItem(${JSON.stringify(ACCESS_TOKEN_NAME)}, ${JSON.stringify(input.memberToken)});` +
        `localStorage.setItem(${JSON.stringify(`${ACCESS_TOKEN_NAME}__expires`)}, String(Date.now() + ${ACCESS_TOKEN_TTL_MS}));`,
    );
  }
  await context.addInitScript(OBSERVERS);
  return context;
}

async function loadOnce(browser: Browser, input: BrowserBenchInput, path: string, viewer: 'guest' | 'member') {
  let context: BrowserContext | undefined;
  try {
    context = await newContext(browser, input, viewer);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await cdp.send('Network.enable');
    const transfer = countTransfer(cdp);
    const response = await page.goto(`${input.baseUrl}${path}`, { waitUntil: 'load', timeout: 60_000 });
    if (!response?.ok()) throw new Error(`browser: ${path} answered ${response?.status() ?? 'nothing'}`);
    await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
    await page.waitForTimeout(QUIET_MS);
    const m = (await page.evaluate(READ_METRICS)) as {
      lcp: number | undefined;
      fcp: number | undefined;
      longTasks: LongTask[];
      now: number;
    };
    if (m.lcp === undefined || m.fcp === undefined) throw new Error(`browser: ${path} painted nothing`);
    return { lcp: m.lcp, tbt: totalBlockingTime(m.longTasks, m.fcp, m.now), ...transfer } satisfies LoadResult;
  } finally {
    await context?.close();
  }
}

export async function runBrowserBench(input: BrowserBenchInput): Promise<BrowserReport> {
  const browser = await chromium.launch({ executablePath: input.executablePath, args: CHROMIUM_ARGS });
  try {
    const pages: PageLoads[] = [];
    let transfer: BrowserReport['transfer'] | undefined;
    for (const [name, path] of [
      ['home', '/'],
      ['thread', `/thread/${input.threadId}`],
    ] as const) {
      for (const viewer of ['guest', 'member'] as const) {
        const row: PageLoads = { page: name, viewer, lcp: [], tbt: [] };
        for (let i = 0; i < input.loads; i++) {
          const r = await loadOnce(browser, input, path, viewer);
          row.lcp.push(r.lcp);
          row.tbt.push(r.tbt);
          transfer ??= { js: r.js, css: r.css };
        }
        pages.push(row);
      }
    }
    return { pages, transfer: transfer! };
  } finally {
    await browser.close();
  }
}

const kb = (bytes: number) => (bytes / 1000).toFixed(1);
const ms = (n: number) => n.toFixed(0);

export function browserTables(title: string, report: BrowserReport, loads: number): string {
  const pageRows = report.pages.map((p) => {
    const lcp = median(p.lcp);
    const tbt = median(p.tbt);
    const checks: TargetCheck[] = [
      { label: `LCP < ${BROWSER_TARGETS.lcpMs.toLocaleString('en')} ms`, met: lcp < BROWSER_TARGETS.lcpMs },
      { label: `TBT < ${BROWSER_TARGETS.tbtMs} ms`, met: tbt < BROWSER_TARGETS.tbtMs },
    ];
    return [p.page, p.viewer, ms(lcp), ms(tbt), p.lcp.map(ms).join(', '), p.tbt.map(ms).join(', '), verdict(checks)];
  });
  const { js, css } = report.transfer;
  const transferRows = [
    [
      'JavaScript',
      kb(js),
      verdict([{ label: `≤ ${BROWSER_TARGETS.jsKb} kB`, met: js <= BROWSER_TARGETS.jsKb * 1000 }]),
    ],
    ['CSS', kb(css), verdict([{ label: `≤ ${BROWSER_TARGETS.cssKb} kB`, met: css <= BROWSER_TARGETS.cssKb * 1000 }])],
  ];
  return [
    markdownTable(
      `${title}: ${DEVICE}, CPU ${CPU_SLOWDOWN}x slower, cold cache; median of ${loads} loads`,
      ['page', 'viewer', 'LCP ms', 'TBT ms', 'LCP of each load', 'TBT of each load', 'target'],
      pageRows,
    ),
    '',
    markdownTable(
      `${title}: the home page's JavaScript and CSS as transferred (a guest's cold load; kB = 1,000 bytes)`,
      ['resource', 'kB', 'target'],
      transferRows,
    ),
  ].join('\n');
}
