import { gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import * as tar from 'tar-stream';
import type { Envelope, PluginAdminItem } from '@luntan/shared';
import type { TestServer } from './harness.js';

/** Plugin packages made in tests: a plugin.json and files, packed as .tgz or .zip (bad ones on purpose too). */

export type PackageFiles = Record<string, string | Buffer>;

export function manifest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    pluginName: 'Hello',
    version: '1.0.0',
    author: { name: 'Tester', email: 'tester@example.com' },
    type: 'widget',
    appid: 'hello',
    platform: ['pc', 'h5'],
    entries: [{ target: 'plugin_index', hookName: 'right_insert', component: 'Hello' }],
    client: 'client.js',
    ...overrides,
  };
}

export const CLIENT_JS =
  "import { jsx } from 'react/jsx-runtime';\nexport function Hello() { return jsx('p', { children: 'hello' }); }\n";

/** A .tgz of the files; `links` adds symbolic-link entries (name → target). */
export async function tgz(files: PackageFiles, links: Record<string, string> = {}): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (c: unknown) => chunks.push(c as Buffer));
  const ended = new Promise<void>((resolve) => pack.on('end', () => resolve()));
  for (const [name, body] of Object.entries(files)) pack.entry({ name }, typeof body === 'string' ? body : body);
  for (const [name, linkname] of Object.entries(links)) pack.entry({ name, type: 'symlink', linkname });
  pack.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks));
}

export function zip(files: PackageFiles): Buffer {
  const entries = Object.fromEntries(
    Object.entries(files).map(([name, body]) => [name, typeof body === 'string' ? Buffer.from(body) : body]),
  );
  return Buffer.from(zipSync(entries));
}

/** A plugin package with its plugin.json (the manifest given) and files. */
export function pluginFiles(m: Record<string, unknown> = manifest(), extra: PackageFiles = {}): PackageFiles {
  return { 'plugin.json': JSON.stringify(m), 'client.js': CLIENT_JS, ...extra };
}

export async function uploadPlugin(t: TestServer, token: string | undefined, bytes: Buffer, name = 'plugin.tgz') {
  const boundary = `----plugin${Date.now()}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n`),
    Buffer.from('Content-Type: application/octet-stream\r\n\r\n'),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/backAdmin/plugin/upload',
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    payload: body,
  });
  return res.json() as Envelope<{ kept: string; previousVersion: string | null; item: PluginAdminItem }>;
}

export const operate = (t: TestServer, token: string, appid: string, op: 'enable' | 'disable' | 'delete') =>
  t.post('/api/backAdmin/plugin/operate', { appid, operate: op }, token);
