import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBuiltServer, type BuiltServer } from '../test/built-server.js';

/*
 * sharp (libvips, about 20 MB of a process's memory) is loaded the first time an image is handled (core/sharp.ts),
 * not when the server starts: the built server, as `npm start` runs it, serves pages and the API without libvips
 * mapped, and maps it once asked for an image. Needs the build (`npm test` builds first).
 */

const libvipsMapped = (pid: number): boolean => fs.readFileSync(`/proc/${pid}/maps`, 'utf8').includes('libvips');

describe.runIf(process.platform === 'linux')('sharp, loaded on first use', () => {
  let server: BuiltServer | undefined;
  beforeAll(async () => {
    server = await startBuiltServer({});
  }, 120_000);
  afterAll(async () => {
    await server?.stop({ graceMs: 5000 });
  });

  it('is not loaded by pages and API answers, and is by the first image', async () => {
    const { base, child } = server!;
    for (const path of ['/', '/thread/1', '/api/v3/thread.list', '/api/siteinfo.v2', '/manifest.webmanifest']) {
      const res = await fetch(base + path);
      await res.arrayBuffer();
      expect(res.status, path).toBeLessThan(500);
    }
    expect(libvipsMapped(child.pid!)).toBe(false);

    const icon = await fetch(`${base}/pwa/icon-192.png`);
    expect(icon.status).toBe(200);
    const png = Buffer.from(await icon.arrayBuffer());
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(libvipsMapped(child.pid!)).toBe(true);
  });
});
