import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('WORKERS', () => {
  it('is 1 by default, and one per core in production', () => {
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ NODE_ENV: 'production' }).workers).toBe(os.availableParallelism());
    expect(loadConfig({ NODE_ENV: 'production', WORKERS: '1' }).workers).toBe(1);
  });

  it('takes a whole number of at least 1, or auto', () => {
    expect(loadConfig({ WORKERS: '3' }).workers).toBe(3);
    expect(loadConfig({ WORKERS: 'auto' }).workers).toBe(os.availableParallelism());
    for (const bad of ['0', '-1', '1.5', 'two', 'AUTO', '01']) {
      expect(() => loadConfig({ WORKERS: bad }), bad).toThrow(ConfigError);
    }
  });

  it('says which process answered only when asked to', () => {
    expect(loadConfig({}).processHeader).toBe(false);
    expect(loadConfig({ LUNTAN_PROCESS_HEADER: '1' }).processHeader).toBe(true);
  });
});

describe('STOP_GRACE_MS', () => {
  it('is 8 s by default, and a whole number of milliseconds', () => {
    expect(loadConfig({}).stopGraceMs).toBe(8000);
    expect(loadConfig({ STOP_GRACE_MS: '0' }).stopGraceMs).toBe(0);
    expect(loadConfig({ STOP_GRACE_MS: '30000' }).stopGraceMs).toBe(30_000);
    for (const bad of ['-1', '1.5', 'soon', '600001']) {
      expect(() => loadConfig({ STOP_GRACE_MS: bad }), bad).toThrow(ConfigError);
    }
  });
});

describe('RENDER_CONCURRENCY', () => {
  it('renders 4 pages at once by default, from 1 to 1000', () => {
    expect(loadConfig({}).renderConcurrency).toBe(4);
    expect(loadConfig({ RENDER_CONCURRENCY: '1' }).renderConcurrency).toBe(1);
    for (const bad of ['0', '-2', '2.5', 'many', '1001']) {
      expect(() => loadConfig({ RENDER_CONCURRENCY: bad }), bad).toThrow(ConfigError);
    }
  });
});

describe('ALLOW_PRIVATE_FETCH', () => {
  it('is off unless set to 1', () => {
    expect(loadConfig({}).allowPrivateFetch).toBe(false);
    expect(loadConfig({ ALLOW_PRIVATE_FETCH: '0' }).allowPrivateFetch).toBe(false);
    expect(loadConfig({ ALLOW_PRIVATE_FETCH: '1' }).allowPrivateFetch).toBe(true);
    expect(() => loadConfig({ ALLOW_PRIVATE_FETCH: 'yes' })).toThrow(ConfigError);
  });
});
