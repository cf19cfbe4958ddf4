import { describe, expect, it } from 'vitest';
import { MEASUREMENTS, percentile, resultTable, runMeasurement, type MeasurementResult } from './bench-measurements.js';

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
    expect(result.samples).toBeGreaterThan(10);
    expect(calls).toBeGreaterThanOrEqual(result.samples);
    expect(result.p50).toBeLessThanOrEqual(result.p99);
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
      target: { percentile: 'p99', below: 50 },
    });
    const table = resultTable('SQLite', [row('fast', 40), row('slow', 60)]);
    expect(table).toContain('| fast ');
    expect(table).toContain('p99 < 50 ms: met');
    expect(table).toContain('p99 < 50 ms: MISSED');
    expect(table.split('\n').filter((l) => l.startsWith('|'))).toHaveLength(4);
  });

  it('names every row once and measures the list, a thread, both searches and the home page', () => {
    const names = MEASUREMENTS.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.join(' ')).toMatch(/thread\.list.*thread\.detail.*search.*search.*GET \//);
  });

  it('measures every list, thread, search and page read both as a guest and as a signed-in member', () => {
    const http = MEASUREMENTS.filter((m) => m.kind === 'http');
    for (const read of ['thread.list (home)', 'thread.detail', 'search "数据库"', 'search "缓存"', 'GET /']) {
      const viewers = http.filter((m) => m.name.startsWith(read)).map((m) => m.viewer);
      expect(viewers.sort(), read).toEqual(['guest', 'member']);
    }
  });
});
