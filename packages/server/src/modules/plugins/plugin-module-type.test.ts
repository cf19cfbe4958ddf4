import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BUILT_ADMIN, PinnedClient, startBuiltServer, type BuiltServer } from '../../test/built-server.js';
import { manifest, pluginFiles, tgz } from '../../test/plugin-fixtures.js';

/**
 * A plugin's server module is an ES module, named server.js in its package. Node reads a .js file as CommonJS when the
 * nearest package.json above it says "type": "commonjs", and DATA_DIR may well sit below such a folder (a home
 * directory, a deployment checkout): the installed module must load all the same. The built server runs in its own
 * process here, because under vitest every import goes through Vite's loader, which ignores package.json types.
 */
let parent: string;
let server: BuiltServer;
let client: PinnedClient;
let token: string;

beforeAll(async () => {
  parent = fs.mkdtempSync(path.join(os.tmpdir(), 'luntan-commonjs-'));
  fs.writeFileSync(path.join(parent, 'package.json'), JSON.stringify({ name: 'host', type: 'commonjs' }));
  fs.mkdirSync(path.join(parent, 'data'));
  server = await startBuiltServer({ DATA_DIR: path.join(parent, 'data') });
  client = new PinnedClient(server.base);
  const login = await client.call<{ accessToken: string }>('POST', '/api/v3/users/username.login', {
    body: BUILT_ADMIN,
  });
  token = login.body.Data.accessToken;
}, 120_000);
afterAll(async () => {
  client?.close();
  await server?.stop();
  fs.rmSync(parent, { recursive: true, force: true });
});

it('a server module loads and answers when a folder above DATA_DIR holds a "commonjs" package.json', async () => {
  const files = pluginFiles(manifest({ appid: 'esm', server: 'server.js' }), {
    'server.js': "export default function (router) {\n  router.get('ping', () => ({ pong: true }));\n}\n",
  });
  const boundary = 'pluginBoundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="esm.tgz"\r\n\r\n`),
    await tgz(files),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const uploaded = await fetch(`${server.base}/api/backAdmin/plugin/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
  });
  expect(((await uploaded.json()) as { Code: number }).Code).toBe(0);
  const enabled = await client.call('POST', '/api/backAdmin/plugin/operate', {
    token,
    body: { appid: 'esm', operate: 'enable' },
  });
  expect(enabled.body.Code, enabled.body.Message).toBe(0);
  const ping = await client.call('GET', '/api/plugin/esm/ping');
  expect(ping.body).toMatchObject({ Code: 0, Data: { pong: true } });
});
