import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  evaluateTargets,
  isRenderedPage,
  MEASUREMENTS,
  percentile,
  requestHeaders,
  resultTable,
  ROW,
  runMeasurement,
  settleLoad,
  type HttpMeasurement,
  type MeasurementResult,
} from './bench-measurements.js';

describe('bench measurements', () => {
  it('takes the nearest-rank percentile', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 95)).toBe(95);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });

  it('times a function row in process (the hook for rows such as the stop-word matcher)', async () => {
    let calls = 0;
    const result = await runMeasurement(
      { kind: 'function', name: 'sum', setup: () => () => (calls += 1) },
      { baseUrl: 'http://127.0.0.1:1', threadIds: [], memberToken: '' },
      { seconds: 0.05, warmupSeconds: 0 },
    );
    expect(result).toMatchObject({ name: 'sum', connections: 1, errors: 0 });
    // How many fit in the window depends on the machine's load: each sample is one call, and there is at least one.
    expect(result.samples).toBeGreaterThanOrEqual(1);
    expect(calls).toBe(result.samples);
    expect(result.p50).toBeLessThanOrEqual(result.p99);
    // Even a window that is over before the first call (a descheduled process) measures the row once.
    const once = await runMeasurement(
      { kind: 'function', name: 'once', setup: () => () => 1 },
      { baseUrl: 'http://127.0.0.1:1', threadIds: [], memberToken: '' },
      { seconds: 0, warmupSeconds: 0 },
    );
    expect(once.samples).toBe(1);
  });

  it('settles a server with every row’s load in turn, twice round, before anything is measured', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.url} ${req.headers.accept?.startsWith('text/html') ? 'page' : 'api'}`);
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const row = (name: string, path: string, page: boolean): HttpMeasurement => ({
        kind: 'http',
        name,
        connections: 2,
        viewer: 'guest',
        page,
        path: () => () => path,
      });
      const rows = [row('a page', '/a', true), row('an API call', '/b', false)];
      const started = performance.now();
      await settleLoad(rows, { baseUrl, threadIds: [], memberToken: '' }, 4);
      // Four rounds of one second (two rows, twice round), each row's requests as its own rows send them.
      expect(performance.now() - started).toBeGreaterThanOrEqual(3900);
      expect(seen.filter((s) => s === '/a page').length).toBeGreaterThan(10);
      expect(seen.filter((s) => s === '/b api').length).toBeGreaterThan(10);
      expect(new Set(seen)).toEqual(new Set(['/a page', '/b api']));
      // In turn: /a, then /b, then /a again.
      const changes = seen.filter((s, i) => i > 0 && s !== seen[i - 1]).length;
      expect(changes).toBeGreaterThanOrEqual(3);
      // Rows share the time however many they are: a second for two rows is four quarters, not four seconds.
      seen.length = 0;
      const short = performance.now();
      await settleLoad(rows, { baseUrl, threadIds: [], memberToken: '' }, 1);
      expect(performance.now() - short).toBeLessThan(2500);
      expect(new Set(seen)).toEqual(new Set(['/a page', '/b api']));
      // Nothing to settle: no request.
      seen.length = 0;
      await settleLoad(rows, { baseUrl, threadIds: [], memberToken: '' }, 0);
      expect(seen).toEqual([]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('prints a Markdown table with the verdict on each target', () => {
    const row = (name: string, p99: number): MeasurementResult => ({
      name,
      connections: 50,
      rate: 1234.5,
      p50: 3,
      p95: 20,
      p99,
      samples: 10,
      errors: 0,
      timeouts: 0,
      targets: [{ kind: 'latency', percentile: 'p99', below: 50 }],
    });
    const table = resultTable('SQLite', [row('fast', 40), row('slow', 60)]);
    expect(table).toContain('| fast ');
    expect(table).toContain('p99 < 50 ms: met');
    expect(table).toContain('p99 < 50 ms: MISSED');
    expect(table.split('\n').filter((l) => l.startsWith('|'))).toHaveLength(4);
    expect(resultTable('SQLite', [{ ...row('timing out', 40), errors: 3, timeouts: 2 }])).toContain(
      '| 3 (2 timeouts) |',
    );
  });

  it('names every row once and measures the list, a thread, both searches and the home page', () => {
    const names = MEASUREMENTS.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.join(' ')).toMatch(/thread\.list.*thread\.detail.*search.*search.*GET \//);
  });

  it('measures every list, thread, search and page read both as a guest and as a signed-in member', () => {
    const http = MEASUREMENTS.filter((m) => m.kind === 'http');
    const reads = ['thread.list (home)', 'thread.detail', 'search "数据库"', 'search "缓存"', 'GET / ', 'GET /thread/'];
    for (const read of reads) {
      const viewers = http.filter((m) => m.name.startsWith(read) && !m.withoutGuestCache).map((m) => m.viewer);
      expect(viewers.sort(), read).toEqual(['guest', 'member']);
    }
  });

  it("measures each page without anything kept, and holds the member's pages to a rate and a p99", () => {
    const pages = MEASUREMENTS.filter((m): m is HttpMeasurement => m.kind === 'http' && m.page === true);
    expect(pages.filter((m) => m.withoutGuestCache).map((m) => [m.name.split(' ')[1], m.viewer])).toEqual([
      ['/', 'guest'],
      ['/', 'member'],
      ['/thread/<id>', 'guest'],
      ['/thread/<id>', 'member'],
    ]);
    for (const m of pages.filter((p) => p.viewer === 'member' && !p.withoutGuestCache)) {
      expect(m.connections).toBe(50);
      expect(m.targets).toEqual([
        { kind: 'rate', atLeast: 400 },
        { kind: 'latency', percentile: 'p99', below: 150 },
      ]);
    }
  });

  it('judges rate and percentile targets, and misses a row with targets that had errors', () => {
    const r = {
      rate: 450,
      p95: 90,
      p99: 160,
      errors: 0,
      targets: [
        { kind: 'rate', atLeast: 400 },
        { kind: 'latency', percentile: 'p99', below: 150 },
        { kind: 'rate', atLeast: 1500 },
      ] as MeasurementResult['targets'],
    };
    expect(evaluateTargets(r)).toEqual([
      { label: '≥ 400 req/s', met: true },
      { label: 'p99 < 150 ms', met: false },
      { label: '≥ 1,500 req/s', met: false },
    ]);
    expect(evaluateTargets({ ...r, rate: 400, p99: 149.9, targets: r.targets.slice(0, 2) }).every((c) => c.met)).toBe(
      true,
    );
    expect(evaluateTargets({ ...r, errors: 3, targets: r.targets.slice(0, 1) })).toEqual([
      { label: '≥ 400 req/s', met: true },
      { label: 'no errors', met: false },
    ]);
    expect(evaluateTargets({ ...r, errors: 3, targets: [] })).toEqual([]);
  });

  it("keeps a target for one database off the other database's row", async () => {
    const row = { kind: 'function', name: 'f', setup: () => () => 1 } as const;
    const targets = [
      { kind: 'rate', atLeast: 1, database: 'sqlite' },
      { kind: 'latency', percentile: 'p99', below: 1000 },
    ] as const;
    const ctx = { baseUrl: '', threadIds: [], memberToken: '' };
    const options = { seconds: 0.01, warmupSeconds: 0 };
    const pg = await runMeasurement({ ...row, targets: [...targets] }, ctx, { ...options, database: 'postgres' });
    expect(pg.targets).toEqual([targets[1]]);
    const lite = await runMeasurement({ ...row, targets: [...targets] }, ctx, { ...options, database: 'sqlite' });
    expect(lite.targets).toHaveLength(2);
  });

  it('names in MEASUREMENTS every row the targets table compares, and reads a different thread each request', () => {
    const names = new Set(MEASUREMENTS.map((m) => m.name));
    for (const [key, name] of Object.entries(ROW)) expect(names.has(name), key).toBe(key !== 'ceiling');
    const ctx = { baseUrl: '', threadIds: [11, 12, 13], memberToken: '' };
    for (const name of [ROW.guestThreadPage, ROW.memberThreadPage, ROW.guestThreadFirst, ROW.memberThreadFirst]) {
      const m = MEASUREMENTS.find((r): r is HttpMeasurement => r.kind === 'http' && r.name === name)!;
      const next = m.path(ctx);
      expect([next(), next(), next(), next()]).toEqual(['/thread/11', '/thread/12', '/thread/13', '/thread/11']);
    }
    const uncached = (name: string) => MEASUREMENTS.find((m) => m.name === name && m.kind === 'http');
    expect(uncached(ROW.memberHomeUncached)).toMatchObject({ viewer: 'member', withoutGuestCache: true, page: true });
    expect(uncached(ROW.guestHomeUncached)).toMatchObject({ viewer: 'guest', withoutGuestCache: true, page: true });
    expect(uncached(ROW.guestThreadFirst)).toMatchObject({ viewer: 'guest', withoutGuestCache: true, page: true });
    expect(uncached(ROW.memberThreadFirst)).toMatchObject({ viewer: 'member', withoutGuestCache: true, page: true });
  });

  it('asks for pages as a browser does, with the cookie for a member', () => {
    const ctx = { baseUrl: '', threadIds: [1], memberToken: 'tok' };
    const page = MEASUREMENTS.find((m): m is HttpMeasurement => m.kind === 'http' && m.page === true)!;
    expect(requestHeaders({ ...page, viewer: 'member' }, ctx)).toMatchObject({
      cookie: 'access_token=tok',
      'accept-encoding': 'br, gzip',
    });
    expect(requestHeaders({ ...page, viewer: 'guest' }, ctx)).not.toHaveProperty('cookie');
    const api = MEASUREMENTS.find((m): m is HttpMeasurement => m.kind === 'http' && !m.page)!;
    expect(requestHeaders({ ...api, viewer: 'member' }, ctx)).toEqual({ authorization: 'Bearer tok' });
  });

  it('recognizes a rendered page by the app inside its root', () => {
    expect(isRenderedPage('<!doctype html><html><body><div id="root"><div class="app">x</div></div>')).toBe(true);
    expect(isRenderedPage('<!doctype html><html><body><div id="root"></div>')).toBe(false);
    expect(isRenderedPage('{"Code":0}')).toBe(false);
  });
});
