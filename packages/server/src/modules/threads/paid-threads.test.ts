import {
  Code,
  GroupId,
  OrderStatus,
  OrderType,
  type Page,
  type PaidUser,
  type PostItem,
  type ThreadDetail,
  type ThreadItem,
} from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCategory, buildGroup, memberPermissions, setGroupPermissions } from '../../test/forum-fixtures.js';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';

type User = Awaited<ReturnType<typeof buildUser>>;

let t: TestServer;
let admin: string;
let author: User;
let stranger: User;
let buyer: User;
let freeViewer: User;
let rewarder: User;
let category: number;

/** The free part (19 characters) and a word only the paid part holds. */
const FREE = 'Opening words here.';
/** The body's plain text is 67 characters long (the image is not text): 0.28 of it frees round(18.76) = 19. */
const BODY_LENGTH = 67;
const FREE_FRACTION = 0.28;
const SECRET = 'zebraquartz';
const IMAGE = '/api/v3/attachments/abcdefghijklmnopqr.png';
const BODY = `${FREE}\n\nSecond paragraph: ${SECRET} is the paid word.\n\n![pic](${IMAGE})`;

let orderSerial = 0;
async function paidOrder(userId: number, threadId: number, type: number, amountCents: number, anonymous = false) {
  orderSerial += 1;
  const at = new Date(Date.now() + orderSerial).toISOString();
  await t.app.ctx.db
    .insertInto('orders')
    .values({
      orderSn: `PT${process.pid}${orderSerial}${Date.now()}`,
      userId,
      payeeId: author.id,
      type,
      status: OrderStatus.PAID,
      amountCents,
      authorAmountCents: amountCents,
      threadId,
      groupId: null,
      isAnonymous: anonymous ? 1 : 0,
      paymentType: 20,
      createdAt: at,
      updatedAt: at,
      expiresAt: at,
      paidAt: at,
    })
    .execute();
}

const create = (token: string, body: Record<string, unknown>) =>
  t.post<ThreadDetail>(
    '/api/v3/thread.create',
    { categoryId: category, title: 'A paid thread', content: { text: BODY }, ...body },
    token,
  );
const detail = (id: number, token?: string) => t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${id}`, token);
const listed = async (id: number, query: string, token?: string) => {
  const res = await t.get<Page<ThreadItem>>(`/api/v3/thread.list?${query}`, token);
  expect(res.Code).toBe(0);
  return res.Data.pageData.find((item) => item.threadId === id);
};

let paidThread: ThreadDetail;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login(ADMIN.username, ADMIN.password);
  category = await buildCategory(t, admin, { name: '付费分类' });
  [author, stranger, buyer, freeViewer, rewarder] = await Promise.all([
    buildUser(t, { nickname: 'Author' }),
    buildUser(t),
    buildUser(t, { nickname: 'Buyer' }),
    buildUser(t),
    buildUser(t, { nickname: 'Rewarder' }),
  ]);
  // Members hold thread.insertPay on a fresh site (as the family's do): here they do not, but for one category.
  const member = (await memberPermissions(t, admin)).filter((p) => p !== 'thread.insertPay');
  await setGroupPermissions(t, admin, GroupId.MEMBER, member);
  await buildGroup(t, admin, [...member, `category${category}.thread.insertPay`], [author.id]);
  await buildGroup(t, admin, [...member, `category${category}.thread.freeViewPosts`], [freeViewer.id]);
  const res = await create(author.token, { price: '12.50', freeWords: FREE_FRACTION });
  expect(res.Code).toBe(0);
  paidThread = res.Data;
  await paidOrder(buyer.id, paidThread.threadId, OrderType.THREAD, 1250);
});
afterAll(async () => {
  await t.close();
});

describe('price and free part on thread.create and thread.update', () => {
  it('refuses a price that is not money, or out of range, saying so on the field', async () => {
    for (const price of ['abc', '12.505', '-1', '10000.01', 10000.5]) {
      const res = await create(author.token, { price });
      expect(res.Code, String(price)).toBe(Code.INVALID_PARAMETER);
      expect(res.Data).toMatchObject({ field: 'price' });
      expect(res.Message).toMatch(/价格|Price/);
    }
    for (const freeWords of [-1, -0.1, 1.5, 10001, '0.3']) {
      const res = await create(author.token, { price: '1', freeWords });
      expect(res.Code, String(freeWords)).toBe(Code.INVALID_PARAMETER);
      expect(res.Data).toMatchObject({ field: 'freeWords' });
      expect(res.Message).toMatch(/免费部分|Free part/);
    }
    const english = await t.call('POST', '/api/v3/thread.update', {
      token: author.token,
      headers: { cookie: 'locale=en' },
      body: { threadId: paidThread.threadId, freeWords: 1.5 },
    });
    expect(english.body).toMatchObject({ Code: Code.INVALID_PARAMETER, Data: { field: 'freeWords' } });
    expect(english.body.Message).toMatch(/fraction from 0 to 1/);
  });

  it('takes "0.00" to "10000.00" as a string or a number', async () => {
    for (const [price, shown] of [
      ['10000.00', '10000.00'],
      [0.5, '0.50'],
      ['0', '0.00'],
    ] as const) {
      const res = await create(author.token, { price, freeWords: 0.3 });
      expect(res.Code).toBe(0);
      expect(res.Data).toMatchObject({ price: shown, freeWords: 0.3, canViewFull: true, paid: false });
    }
  });

  it('needs thread.insertPay in the category for a price above 0 (-4002 on the price field)', async () => {
    const res = await create(stranger.token, { price: '5.00' });
    expect(res.Code).toBe(Code.UNAUTHORIZED);
    expect(res.Data).toMatchObject({ field: 'price' });
    expect(res.Message).toMatch(/付费|paid content/);
    const free = await create(stranger.token, { price: '0.00' });
    expect(free.Code).toBe(0);
    // Elsewhere the author may not either.
    const other = await create(author.token, { price: '1', categoryId: 1 });
    expect(other.Code).toBe(Code.UNAUTHORIZED);

    const own = free.Data.threadId;
    const raise = await t.post('/api/v3/thread.update', { threadId: own, price: '3' }, stranger.token);
    expect(raise.Code).toBe(Code.UNAUTHORIZED);
    const words = await t.post<ThreadDetail>(
      '/api/v3/thread.update',
      { threadId: own, freeWords: 0.7 },
      stranger.token,
    );
    expect(words.Data).toMatchObject({ price: '0.00', freeWords: 0.7 });
  });

  it('changes the price: a thread made free is read whole by everyone', async () => {
    const made = (await create(author.token, { price: '2', freeWords: 0.5 })).Data;
    expect((await detail(made.threadId, stranger.token)).Data.canViewFull).toBe(false);
    // 0.12 of 67 characters: round(8.04) = 8.
    const up = await t.post<ThreadDetail>(
      '/api/v3/thread.update',
      { threadId: made.threadId, price: '3.20', freeWords: 0.12 },
      author.token,
    );
    expect(up.Data).toMatchObject({ price: '3.20', freeWords: 0.12 });
    const seen = await detail(made.threadId, stranger.token);
    expect(seen.Data.content.text).toBe('Opening ');
    await t.post('/api/v3/thread.update', { threadId: made.threadId, price: '0' }, author.token);
    const free = await detail(made.threadId, stranger.token);
    expect(free.Data).toMatchObject({ price: '0.00', canViewFull: true, paid: false });
    expect(free.Data.content.html).toContain(SECRET);
  });
});

describe('what each viewer reads of a paid thread', () => {
  it('a stranger and a guest read the free part only, in every field', async () => {
    for (const token of [stranger.token, undefined]) {
      const res = await detail(paidThread.threadId, token);
      expect(res.Code).toBe(0);
      expect(res.Data).toMatchObject({ price: '12.50', freeWords: FREE_FRACTION, paid: false, canViewFull: false });
      expect(res.Data.content).toEqual({ text: FREE, html: `<p>${FREE}</p>`, indexes: {} });
      expect(res.Data.summary).toBe(`${FREE}…`);
      expect(res.Data.mentions).toEqual([]);
      const json = JSON.stringify(res.Data);
      expect(json).not.toContain(SECRET);
      expect(json).not.toContain(IMAGE);
    }
  });

  it('the buyer, the author, an administrator and a freeViewPosts holder read it whole', async () => {
    for (const [token, paid] of [
      [buyer.token, true],
      [author.token, false],
      [admin, false],
      [freeViewer.token, false],
    ] as const) {
      const res = await detail(paidThread.threadId, token);
      expect(res.Data).toMatchObject({ canViewFull: true, paid });
      expect(res.Data.content.text).toBe(BODY);
      expect(res.Data.content.html).toContain(SECRET);
      expect(res.Data.content.html).toContain(IMAGE);
      expect(res.Data.summary).toContain(SECRET);
    }
  });

  it('thread.list and its search show the free part of the summary to strangers', async () => {
    const query = `filter[categoryids][]=${category}&perPage=50`;
    const seen = await listed(paidThread.threadId, query, stranger.token);
    expect(seen).toMatchObject({ price: '12.50', paid: false, canViewFull: false, summary: `${FREE}…` });
    expect(await listed(paidThread.threadId, query, buyer.token)).toMatchObject({ paid: true, canViewFull: true });
    expect((await listed(paidThread.threadId, query, buyer.token))?.summary).toContain(SECRET);

    const found = await listed(paidThread.threadId, `filter[search]=Opening&perPage=50`, stranger.token);
    expect(found?.summary).toBe(`${FREE}…`);
    // The index holds the free part only: the paid part's words find nothing, for anyone.
    for (const token of [stranger.token, buyer.token, undefined]) {
      const secret = await t.get<Page<ThreadItem>>(`/api/v3/thread.list?filter[search]=${SECRET}`, token);
      expect(secret.Data.pageData.map((item) => item.threadId)).not.toContain(paidThread.threadId);
    }
  });

  it('the first post answered by posts.update (a like) holds the free part only', async () => {
    const liked = await t.post<PostItem>(
      '/api/v3/posts.update',
      { id: paidThread.postId, isLiked: true },
      stranger.token,
    );
    expect(liked.Code).toBe(0);
    expect(liked.Data.content).toEqual({ text: FREE, html: `<p>${FREE}</p>` });
    const byBuyer = await t.post<PostItem>(
      '/api/v3/posts.update',
      { id: paidThread.postId, isLiked: true },
      buyer.token,
    );
    expect(byBuyer.Data.content.text).toBe(BODY);
    // Replies stay free.
    const reply = await t.post<PostItem>(
      '/api/v3/posts.create',
      { id: paidThread.threadId, content: 'A reply' },
      buyer.token,
    );
    const replies = await t.get<Page<PostItem>>(`/api/v3/posts.list?threadId=${paidThread.threadId}`, stranger.token);
    expect(replies.Data.pageData.map((p) => p.id)).toContain(reply.Data.id);
  });

  it('escapes the free part: text that looked like markup stays text', async () => {
    const made = // 16 of the 21 characters of the plain text: round(0.76 × 21) = 16.
      (await create(author.token, { content: { text: 'a `<b>x</b>` & "q"\n\nrest' }, price: '1', freeWords: 0.76 }))
        .Data;
    const res = await detail(made.threadId, stranger.token);
    expect(res.Data.content.html).toBe('<p>a &lt;b&gt;x&lt;/b&gt; &amp; &quot;q&quot;</p>');
    expect(res.Data.content.html).not.toContain('rest');
  });

  it('the server-rendered thread page (and its dehydrated data) holds only what the visitor may read', async () => {
    const page = (headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: `/thread/${paidThread.threadId}`, headers });
    const pages = [await page(), await page({ authorization: `Bearer ${stranger.token}` })];
    for (const res of pages) {
      expect(res.body).not.toContain(SECRET);
      expect(res.body).not.toContain(IMAGE);
    }
    // Without the web build (npm run build) the pages are the "not built" notice: nothing more to see then.
    if (pages[0]!.statusCode === 503) return;
    for (const res of pages) {
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain(FREE);
    }
    const bought = await page({ authorization: `Bearer ${buyer.token}` });
    expect(bought.body).toContain(SECRET);
  });
});

describe('freeWords as Discuz! Q means it: the free fraction of the body', () => {
  const HUNDRED = 'abcdefghij'.repeat(10);
  const strangerReads = async (body: Record<string, unknown>) => {
    const made = await create(author.token, { price: '1', content: { text: HUNDRED }, ...body });
    expect(made.Code).toBe(0);
    const read = await detail(made.Data.threadId, stranger.token);
    const item = await listed(made.Data.threadId, `filter[categoryids][]=${category}&perPage=50`, stranger.token);
    return { made: made.Data, read: read.Data, item };
  };

  it('0.3 of a 100-character body frees its first 30 characters, in the content and the list summary', async () => {
    const { read, item } = await strangerReads({ freeWords: 0.3 });
    expect(read).toMatchObject({ freeWords: 0.3, canViewFull: false });
    expect(read.content.text).toBe(HUNDRED.slice(0, 30));
    expect(read.summary).toBe(`${HUNDRED.slice(0, 30)}…`);
    expect(item?.summary).toBe(`${HUNDRED.slice(0, 30)}…`);
    expect(item?.freeWords).toBe(0.3);
  });

  it('0 frees nothing, 1 frees the whole text (but never the markup)', async () => {
    const none = await strangerReads({ freeWords: 0 });
    expect(none.read.content).toEqual({ text: '', html: '', indexes: {} });
    expect(none.item?.summary).toBe('');
    const whole = await strangerReads({ freeWords: 1 });
    expect(whole.read).toMatchObject({ freeWords: 1, canViewFull: false });
    expect(whole.read.content.text).toBe(HUNDRED);
    expect(whole.item?.summary).toBe(HUNDRED);
    const all = (await create(author.token, { price: '1', freeWords: 1 })).Data;
    const seen = await detail(all.threadId, stranger.token);
    expect(seen.Data.content.html).toContain(SECRET);
    expect(seen.Data.content.html).not.toContain(IMAGE);
  });

  it('takes a whole number above 1 as the legacy character count, answered as its fraction', async () => {
    const legacy = await create(author.token, { price: '1', freeWords: FREE.length });
    expect(legacy.Data.freeWords).toBeCloseTo(FREE.length / BODY_LENGTH, 10);
    expect((await detail(legacy.Data.threadId, stranger.token)).Data.content.text).toBe(FREE);
    const more = await create(author.token, { price: '1', freeWords: 500 });
    expect(more.Data.freeWords).toBe(1);
    // On thread.update, the count is a share of the new body when the body changes too.
    const up = await t.post<ThreadDetail>(
      '/api/v3/thread.update',
      { threadId: legacy.Data.threadId, content: { text: HUNDRED }, freeWords: 25 },
      author.token,
    );
    expect(up.Data.freeWords).toBe(0.25);
    expect((await detail(legacy.Data.threadId, stranger.token)).Data.content.text).toBe(HUNDRED.slice(0, 25));
  });

  it('keeps the fraction when the body changes: the free part grows with it', async () => {
    const { made } = await strangerReads({ freeWords: 0.3 });
    const up = await t.post<ThreadDetail>(
      '/api/v3/thread.update',
      { threadId: made.threadId, content: { text: HUNDRED.slice(0, 50) } },
      author.token,
    );
    expect(up.Data.freeWords).toBe(0.3);
    expect((await detail(made.threadId, stranger.token)).Data.content.text).toBe(HUNDRED.slice(0, 15));
    await t.post('/api/v3/posts.update', { id: made.postId, content: HUNDRED + HUNDRED }, author.token);
    expect((await detail(made.threadId, stranger.token)).Data.content.text).toBe((HUNDRED + HUNDRED).slice(0, 60));
  });
});

describe('thread.paidusers and the counts on thread.detail', () => {
  it('lists buyers (type 3) and rewarders (type 2, anonymous ones unnamed), newest first, and counts them', async () => {
    const made = (await create(author.token, { price: '2.00', freeWords: 0.05 })).Data;
    await paidOrder(buyer.id, made.threadId, OrderType.THREAD, 200);
    await paidOrder(stranger.id, made.threadId, OrderType.THREAD, 200);
    await paidOrder(rewarder.id, made.threadId, OrderType.REWARD, 100);
    await paidOrder(rewarder.id, made.threadId, OrderType.REWARD, 250, true);

    const buyers = await t.get<Page<PaidUser>>(`/api/v3/thread.paidusers?threadId=${made.threadId}`);
    expect(buyers.Code).toBe(0);
    expect(buyers.Data.totalCount).toBe(2);
    expect(buyers.Data.pageData.map((u) => u.userId)).toEqual([stranger.id, buyer.id]);
    expect(buyers.Data.pageData[1]).toMatchObject({ nickname: 'Buyer', amount: '2.00', isAnonymous: false });

    const rewards = await t.get<Page<PaidUser>>(`/api/v3/thread.paidusers?threadId=${made.threadId}&type=2`);
    expect(rewards.Data.pageData).toEqual([
      expect.objectContaining({ userId: null, nickname: '匿名', avatar: '', isAnonymous: true, amount: '2.50' }),
      expect.objectContaining({ userId: rewarder.id, nickname: 'Rewarder', isAnonymous: false, amount: '1.00' }),
    ]);
    const english = await t.call<Page<PaidUser>>('GET', `/api/v3/thread.paidusers?threadId=${made.threadId}&type=2`, {
      headers: { cookie: 'locale=en' },
    });
    expect(english.body.Data.pageData[0]!.nickname).toBe('Anonymous');
    const paged = await t.get<Page<PaidUser>>(`/api/v3/thread.paidusers?threadId=${made.threadId}&perPage=1&page=2`);
    expect(paged.Data.pageData.map((u) => u.userId)).toEqual([buyer.id]);

    const d = await detail(made.threadId);
    expect(d.Data).toMatchObject({ paidCount: 2, rewardedCount: 2, rewardedAmount: '3.50' });
    expect((await t.get(`/api/v3/thread.paidusers?threadId=${made.threadId}&type=4`)).Code).toBe(
      Code.INVALID_PARAMETER,
    );
    expect((await t.get(`/api/v3/thread.paidusers?threadId=999999`)).Code).toBe(Code.RESOURCE_NOT_FOUND);
  });

  it('a free thread tells price "0.00" and nothing sold', async () => {
    const made = (await create(author.token, {})).Data;
    expect(made).toMatchObject({ price: '0.00', freeWords: 0, paid: false, canViewFull: true, paidCount: 0 });
    expect(made.rewardedAmount).toBe('0.00');
    expect(GroupId.MEMBER).toBeGreaterThan(0);
  });
});
