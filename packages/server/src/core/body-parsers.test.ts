import { Code } from '@luntan/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildThread } from '../test/factories.js';
import { buildUser } from '../test/harness.js';
import { useTestServer } from '../test/fixture.js';
import { manifest, operate, pluginFiles, tgz, uploadPlugin } from '../test/plugin-fixtures.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './body-parsers.js';

/**
 * What the /api body parsers refuse before any route sees the body: bytes that are not UTF-8 (they would be stored
 * as replacement characters) and JSON nested deeper than MAX_JSON_DEPTH (it parses, then overflows the stack of
 * whatever walks it). And a failure of ours, such as a plugin route that throws, is an HTTP 500.
 */
const t = useTestServer({ env: { PAYMENT_SANDBOX: '1' } });
let member: Awaited<ReturnType<typeof buildUser>>;
let other: Awaited<ReturnType<typeof buildUser>>;
let threadId: number;

const ECHO_JS = `
export default function register(router) {
  router.post('echo', (req) => ({ body: req.body }));
  router.post('walk', (req) => ({ text: JSON.stringify(req.body).length }));
  router.get('crash', () => {
    throw new Error('a bug');
  });
  router.get('fail', () => {
    throw { code: -5002, message: 'the plugin gave up' };
  });
}
`;

beforeAll(async () => {
  member = await buildUser(t);
  other = await buildUser(t);
  threadId = (await buildThread(t, member.token)).threadId;
  const files = pluginFiles(manifest({ appid: 'echo', server: 'server.js' }), { 'server.js': ECHO_JS });
  expect((await uploadPlugin(t, t.admin, await tgz(files))).Code).toBe(0);
  expect((await operate(t, t.admin, 'echo', 'enable')).Code).toBe(0);
});

/** Rows in every table: a refused call must leave each as it was. */
async function rowCounts(): Promise<Record<string, number>> {
  const db = t.server.database.db;
  const counts: Record<string, number> = {};
  for (const table of await db.introspection.getTables()) {
    const row = await db
      .selectFrom(table.name as never)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    counts[table.name] = Number(row.n);
  }
  return counts;
}

const post = (url: string, body: Buffer | string, contentType = 'application/json', token = member.token) =>
  t.call('POST', url, { token, body: body as string, headers: { 'content-type': contentType } });

/** A JSON body written around `text`, whose bytes are put in as they are (not as JSON escapes). */
const withBytes = (before: string, bytes: number[], after: string) =>
  Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);

/** Byte sequences that are not UTF-8: a lone continuation byte, a cut-off sequence, an overlong slash, a surrogate, 0xFF. */
const NOT_UTF8 = [[0x80], [0xe4, 0xb8], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xff], [0xf4, 0x90, 0x80, 0x80]];

describe('bodies that are not UTF-8', () => {
  it('are refused with -4001 on every writing route tried, in JSON and as plain text, and nothing is stored', async () => {
    const before = await rowCounts();
    const routes: [string, (bad: number[]) => Buffer][] = [
      [
        '/api/v3/thread.create',
        (bad) => withBytes('{"categoryId":1,"title":"标题', bad, '","content":{"text":"正文内容"}}'),
      ],
      ['/api/v3/posts.create', (bad) => withBytes(`{"id":${threadId},"content":"回复`, bad, '"}')],
      ['/api/v3/dialog.create', (bad) => withBytes(`{"recipientUserId":${other.id},"messageText":"你好`, bad, '"}')],
      ['/api/v3/order.create', (bad) => withBytes('{"type":1,"amount":"1.00","remark":"', bad, '"}')],
      ['/api/v3/users/update.user', (bad) => withBytes('{"signature":"签名', bad, '"}')],
      ['/api/plugin/echo/echo', (bad) => withBytes('{"text":"', bad, '"}')],
    ];
    for (const [url, body] of routes) {
      for (const bad of NOT_UTF8) {
        for (const locale of ['zh', 'en']) {
          const res = await t.call('POST', url, {
            token: member.token,
            body: body(bad) as unknown as string,
            headers: { 'content-type': 'application/json', cookie: `locale=${locale}` },
          });
          const label = `${url} ${bad.join(',')}`;
          expect(res.body.Code, label).toBe(Code.INVALID_PARAMETER);
          expect(res.body.Data, label).toEqual({ field: 'body' });
          expect(res.body.Message, label).toBe(
            locale === 'zh' ? '提交的内容不是有效的 UTF-8 文本' : 'What was sent is not valid UTF-8 text',
          );
        }
      }
    }
    // A plain-text body reaches a plugin's route as a string: the same rule.
    for (const bad of NOT_UTF8) {
      const res = await post('/api/plugin/echo/echo', withBytes('text ', bad, ''), 'text/plain; charset=utf-8');
      expect(res.body.Code, bad.join(',')).toBe(Code.INVALID_PARAMETER);
    }
    expect(await rowCounts()).toEqual(before);
  });

  it('while UTF-8 text in any script still arrives intact', async () => {
    const text = '中文 émoji 🙂 ﻿עברית \u2028';
    const json = await post('/api/plugin/echo/echo', JSON.stringify({ text }));
    expect(json.body).toMatchObject({ Code: 0, Data: { body: { text } } });
    const plain = await post('/api/plugin/echo/echo', text, 'text/plain');
    expect(plain.body).toMatchObject({ Code: 0, Data: { body: text } });
  });
});

describe('deeply nested JSON', () => {
  const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

  it('50,000 levels are -4001 on a plugin route and a core route, never a 500', async () => {
    for (const url of ['/api/plugin/echo/walk', '/api/v3/thread.create', '/api/v3/users/username.login']) {
      const res = await post(url, `{"a":${nested(50_000)}}`);
      expect(res.status, url).toBe(200);
      expect(res.body.Code, url).toBe(Code.INVALID_PARAMETER);
      expect(res.body.Data, url).toEqual({ field: 'body' });
      expect(res.body.Message, url).toBe(`提交的内容嵌套太深：最多 ${MAX_JSON_DEPTH} 层`);
    }
  });

  it(`${MAX_JSON_DEPTH} levels pass, one more does not; brackets inside strings do not count`, async () => {
    const at = await post('/api/plugin/echo/walk', nested(MAX_JSON_DEPTH));
    expect(at.body.Code).toBe(0);
    expect((await post('/api/plugin/echo/walk', nested(MAX_JSON_DEPTH + 1))).body.Code).toBe(Code.INVALID_PARAMETER);
    const quoted = await post('/api/plugin/echo/echo', JSON.stringify({ text: '[{'.repeat(500) + '\\"[' }));
    expect(quoted.body.Code).toBe(0);
    expect(nestsDeeperThan('{"a":"\\\\"}', 1)).toBe(false);
    expect(nestsDeeperThan('[["\\"]"]]', 1)).toBe(true);
  });
});

describe('failures of ours', () => {
  it('a plugin route that throws answers -5002 with HTTP 500, the detail only in the log', async () => {
    for (const path of ['crash', 'fail']) {
      const res = await t.call('GET', `/api/plugin/echo/${path}`);
      expect(res.status, path).toBe(500);
      expect(res.body.Code, path).toBe(Code.INTERNAL_ERROR);
      expect(res.body.Message, path).not.toContain('a bug');
    }
  });
});
