import { Code, openStreetMapLink, type Page, type ThreadDetail, type ThreadItem } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../test/fixture.js';

/** A thread's position (thread.insertPosition): given on thread.create/update, answered in lists and the detail. */
const t = useTestServer();

const PLACE = { latitude: 31.2304, longitude: 121.4737, location: '人民广场', address: '上海市黄浦区' };

const create = (token: string, extra: Record<string, unknown>) =>
  t.post<ThreadDetail>(
    '/api/v3/thread.create',
    { categoryId: 1, title: '在这里', content: { text: '写在人民广场' }, ...extra },
    token,
  );

const columns = (id: number) =>
  t.app.ctx.db
    .selectFrom('threads')
    .select(['longitude', 'latitude', 'address', 'location'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('a thread position', () => {
  it('is stored on create and answered in the detail and in lists; none is null', async () => {
    const author = await t.buildMember();
    const res = await create(author.token, { position: PLACE });
    expect(res.Code, res.Message).toBe(0);
    expect(res.Data.position).toEqual(PLACE);
    expect(await columns(res.Data.threadId)).toEqual(PLACE);

    const detail = await t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${res.Data.threadId}`);
    expect(detail.Data.position).toEqual(PLACE);
    const list = await t.get<Page<ThreadItem>>('/api/v3/thread.list?filter[sort]=1&perPage=50');
    expect(list.Data.pageData.find((x) => x.threadId === res.Data.threadId)?.position).toEqual(PLACE);

    const plain = await create(author.token, {});
    expect(plain.Data.position).toBeNull();
    expect(openStreetMapLink(PLACE)).toBe(
      'https://www.openstreetmap.org/?mlat=31.2304&mlon=121.4737#map=16/31.2304/121.4737',
    );
  });

  it("takes the family clients' decimal strings and an absent address", async () => {
    const author = await t.buildMember();
    const res = await create(author.token, {
      position: { latitude: '-33.8568', longitude: '151.2153', location: 'Opera House' },
    });
    expect(res.Code, res.Message).toBe(0);
    expect(res.Data.position).toEqual({
      latitude: -33.8568,
      longitude: 151.2153,
      location: 'Opera House',
      address: '',
    });
  });

  it('is changed and removed (null) through thread.update; an update without it keeps it', async () => {
    const author = await t.buildMember();
    const made = await create(author.token, { position: PLACE });
    const id = made.Data.threadId;
    const moved = await t.post<ThreadDetail>(
      '/api/v3/thread.update',
      { threadId: id, position: { latitude: 0, longitude: 0, location: 'Null Island' } },
      author.token,
    );
    expect(moved.Code, moved.Message).toBe(0);
    expect(moved.Data.position).toEqual({ latitude: 0, longitude: 0, location: 'Null Island', address: '' });

    const retitled = await t.post<ThreadDetail>(
      '/api/v3/thread.update',
      { threadId: id, title: '新标题' },
      author.token,
    );
    expect(retitled.Data.position?.location).toBe('Null Island');

    const removed = await t.post<ThreadDetail>('/api/v3/thread.update', { threadId: id, position: null }, author.token);
    expect(removed.Code, removed.Message).toBe(0);
    expect(removed.Data.position).toBeNull();
    expect(await columns(id)).toEqual({ longitude: null, latitude: null, address: '', location: '' });
  });

  it('refuses bad coordinates and text with a sentence naming the field, storing nothing', async () => {
    const author = await t.buildMember();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...PLACE, latitude: 90.5 }, 'position.latitude', '纬度'],
      [{ ...PLACE, latitude: -91 }, 'position.latitude', '纬度'],
      [{ ...PLACE, longitude: 180.01 }, 'position.longitude', '经度'],
      [{ ...PLACE, longitude: 'east' }, 'position.longitude', '经度'],
      [{ ...PLACE, location: '' }, 'position.location', '地点名称'],
      [{ ...PLACE, location: 'x'.repeat(101) }, 'position.location', '地点名称'],
      [{ ...PLACE, address: 'a\u0007b' }, 'position.address', '详细地址'],
      [{ ...PLACE, address: 'y'.repeat(101) }, 'position.address', '详细地址'],
      [{ latitude: 1, location: 'x' }, 'position.longitude', '经度'],
    ];
    const before = await t.app.ctx.db
      .selectFrom('threads')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    for (const [position, field, zh] of cases) {
      const res = await create(author.token, { position });
      expect(res.Code, field).toBe(Code.INVALID_PARAMETER);
      expect((res.Data as unknown as { field: string }).field, JSON.stringify(position)).toBe(field);
      expect(res.Message).toContain(zh);
      expect(res.Message).not.toMatch(/invalid_|Expected|undefined|NaN/);
    }
    const after = await t.app.ctx.db
      .selectFrom('threads')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));

    const made = await create(author.token, { position: PLACE });
    const bad = await t.post(
      '/api/v3/thread.update',
      { threadId: made.Data.threadId, position: { ...PLACE, latitude: 100 } },
      author.token,
    );
    expect(bad.Code).toBe(Code.INVALID_PARAMETER);
    expect((await columns(made.Data.threadId)).latitude).toBe(PLACE.latitude);
  });

  it("is refused without the group's thread.insertPosition in the category, storing nothing", async () => {
    const member = await t.buildMember();
    await t.buildGroup(['viewThreads', 'thread.viewPosts', 'createThread', 'thread.editOwnThread'], [member]);
    const before = await t.app.ctx.db
      .selectFrom('threads')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('userId', '=', member.id)
      .executeTakeFirstOrThrow();
    const { body: res } = (await t.call('POST', '/api/v3/thread.create', {
      token: member.token,
      body: { categoryId: 1, title: 't', content: { text: 'x' }, position: PLACE },
      headers: { cookie: 'locale=en' },
    })) as { body: { Code: number; Message: string; Data: { field: string } } };
    expect(res.Code).toBe(Code.UNAUTHORIZED);
    expect(res.Message).toBe('You may not add a position in this category');
    expect(res.Data.field).toBe('position');
    expect(Number(before.n)).toBe(0);
    const after = await t.app.ctx.db
      .selectFrom('threads')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('userId', '=', member.id)
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(0);

    // Without the permission a thread is still written without a position; adding one later is refused too, and
    // removing one needs only the right to edit.
    const plain = await t.post<ThreadDetail>(
      '/api/v3/thread.create',
      { categoryId: 1, title: 't', content: { text: 'x' } },
      member.token,
    );
    expect(plain.Code, plain.Message).toBe(0);
    const later = await t.post(
      '/api/v3/thread.update',
      { threadId: plain.Data.threadId, position: PLACE },
      member.token,
    );
    expect(later.Code).toBe(Code.UNAUTHORIZED);
    expect((await columns(plain.Data.threadId)).latitude).toBeNull();
    const cleared = await t.post(
      '/api/v3/thread.update',
      { threadId: plain.Data.threadId, position: null },
      member.token,
    );
    expect(cleared.Code, cleared.Message).toBe(0);
  });
});
