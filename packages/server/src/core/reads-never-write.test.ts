import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildReply, buildThread } from '../test/factories.js';
import { ADMIN, buildUser } from '../test/harness.js';
import { useTestServer } from '../test/fixture.js';

/*
 * A guest's read changes nothing: every public GET of the API (as the OpenAPI document lists them) and the pages,
 * called a thousand times in all, leave every table and the cache version counters as they were. A write on a
 * read empties caches in every process (a settings write raises the settings version) and turns a read-only
 * replica or a crawler into a writer.
 *
 * Left out, each for what it is: view.count counts a view (a write by name); the live stream stays open; the sign-in flows of other services (OAuth and WeChat) start or
 * finish a sign-in.
 */
const WRITES_BY_NAME = [
  '/api/v3/view.count',
  '/api/v3/live',
  '/api/v3/oauth/{slug}/start',
  '/api/v3/oauth/{slug}/callback',
  '/api/v3/users/wechat/h5.oauth',
  '/api/v3/users/wechat/h5.login',
  '/api/v3/users/wechat/h5.bind',
  '/api/v3/users/wechat/h5.rebind',
  '/api/v3/users/pc/wechat/h5.genqrcode',
  '/api/v3/users/pc/wechat/h5.login',
];

const t = useTestServer({ env: { PAYMENT_SANDBOX: '1' } });
let ids: { thread: number; reply: number; user: number };

beforeAll(async () => {
  const admin = await t.login(ADMIN.username, ADMIN.password);
  const member = await buildUser(t);
  const thread = await buildThread(t, member.token, { title: '颐和园', text: '昆明湖和万寿山' });
  const reply = await buildReply(t, admin, thread.threadId, { text: '长廊' });
  ids = { thread: thread.threadId, reply: reply.id, user: member.id };
});

/** Every table's rows, as a digest per table (row order ignored). */
async function snapshot(): Promise<Record<string, string>> {
  const db = t.app.ctx.db;
  const tables = (await db.introspection.getTables()).map((table) => table.name).sort();
  const out: Record<string, string> = {};
  for (const name of tables) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db);
    const lines = rows.map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)));
    out[name] = createHash('sha256').update(lines.sort().join('\n')).digest('hex');
  }
  return out;
}

/** The value a required parameter gets: real ids where the read wants one. */
function sample(name: string): string {
  const values: Record<string, string> = {
    threadId: String(ids.thread),
    postId: String(ids.reply),
    userId: String(ids.user),
    id: '1',
    key: 'siteName',
    tag: 'default',
    typeName: '新用户注册通知',
    code: 'not-an-invite',
    dialogId: '1',
    orderSn: '20261126000000000000',
    appid: 'poll',
    file: 'missing.png',
    filter: '',
  };
  return values[name] ?? 'x';
}

async function publicReads(): Promise<string[]> {
  const doc = JSON.parse((await t.app.inject({ method: 'GET', url: '/api/docs/json' })).body) as {
    paths: Record<string, { get?: { parameters?: { in: string; name: string; required?: boolean }[] } }>;
  };
  const urls: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    if (!ops.get || !path.startsWith('/api/') || WRITES_BY_NAME.includes(path) || path === '/api/{*}') continue;
    const params = ops.get.parameters ?? [];
    let url = path.replace(/\{([^}]+)\}/g, (_m, name: string) => (name === '*' ? 'x' : sample(name)));
    const query = params
      .filter((p) => p.in === 'query' && p.required)
      .map((p) =>
        p.name === 'filter'
          ? `filter[userId]=${ids.user}&filter[type]=1`
          : `${p.name}=${encodeURIComponent(sample(p.name))}`,
      );
    if (query.length > 0) url += `?${query.join('&')}`;
    urls.push(url);
  }
  urls.push(
    `/api/v3/thread.list?page=1&perPage=10`,
    `/api/v3/thread.list?filter[search]=${encodeURIComponent('昆明湖')}`,
    `/api/v3/users.list?filter[nickname]=u`,
    '/',
    `/thread/${ids.thread}`,
    `/user/${ids.user}`,
    `/search?keyword=${encodeURIComponent('颐和园')}`,
    '/sitemap.xml',
    '/robots.txt',
    '/user/login',
  );
  return urls;
}

describe('a guest reading', () => {
  it('leaves every table and the cache versions as they were, after 1,000 reads', async () => {
    const urls = await publicReads();
    expect(urls.length).toBeGreaterThan(50);
    const before = await snapshot();
    let calls = 0;
    const answers = new Map<string, number>();
    while (calls < 1000) {
      for (const url of urls) {
        const res = await t.app.inject({
          method: 'GET',
          url,
          remoteAddress: `10.1.${calls % 200}.${(calls >> 3) % 250}`,
        });
        answers.set(url, res.statusCode);
        calls += 1;
      }
    }
    // Nothing failed on the way (a 5xx would hide a write that did not happen).
    expect([...answers].filter(([, status]) => status >= 500)).toEqual([]);
    const after = await snapshot();
    const changed = Object.keys(after).filter((name) => after[name] !== before[name]);
    expect(changed).toEqual([]);
  }, 180_000);

  it('and a refused payment callback changes nothing either', async () => {
    const before = await snapshot();
    for (let i = 0; i < 20; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v3/pay/notify/sandbox',
        headers: { 'content-type': 'application/json', 'x-sandbox-signature': 'forged' },
        payload: JSON.stringify({ orderSn: '20261126000000000000', amountCents: 100, outcome: 'paid' }),
      });
      expect(res.statusCode).toBeLessThan(500);
    }
    expect(await snapshot()).toEqual(before);
  });
});
