import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FilesPart, GoodsPart, ImagesPart, MediaPart, VotePart } from '@luntan/shared';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { importInto, installDumpWith } from '../../../test/discuzq-fixtures.js';
import { useTestServer } from '../../../test/fixture.js';
import type { ImportReport } from '../importer.js';
import { renderInsert, type SqlRow } from '../fixture-sql.js';
import { accountSteps } from './accounts.js';
import { contentSteps } from './content.js';
import { countersStep } from './counters.js';
import { partsSteps } from './parts.js';

const DAY = '2021-02-03 10:00:00';
const DIR = 'public/attachments/2021/02/03/';
const NAMES = {
  image: 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0f.png',
  remote: 'Zy3xWv6uTs9rQp2oNm5lKj8iHg1fEd4cBa7zYx0w.png',
  missing: 'Mi5sSiNgFiLeNaMe7xYz0aBcDeFgHiJkLmNoPqRs.png',
  doc: 'Do9cUmEnTfIlE2aBcDeFgHiJkLmNoPqRsTuVwXyZ.pdf',
  paidDoc: 'Pa1dDoCuMeNt3aBcDeFgHiJkLmNoPqRsTuVwXyZa.pdf',
};
const VOD = 'https://1500001234.vod2.myqcloud.com/6c9d2f1cvodcq1500001234/a1b2c3d4';
const COS = 'https://cdn.example.com';

const user = (id: number, username: string): SqlRow => ({
  id,
  username,
  password: '',
  nickname: username,
  register_ip: '127.0.0.1',
  created_at: DAY,
  updated_at: DAY,
});

const attachment = (id: number, postId: number, type: number, name: string, fileName: string, remote = 0): SqlRow => ({
  id,
  uuid: `00000000-0000-0000-0000-${String(id).padStart(12, '0')}`,
  user_id: 1,
  type_id: postId,
  type,
  is_remote: remote,
  attachment: name,
  file_path: DIR,
  file_name: fileName,
  file_size: 100,
  created_at: DAY,
  updated_at: DAY,
});

const thread = (id: number, values: SqlRow = {}): SqlRow => ({
  id,
  user_id: 1,
  category_id: 1,
  title: `主题 ${id}`,
  address: '',
  location: '',
  created_at: DAY,
  updated_at: DAY,
  ...values,
});

const post = (id: number, threadId: number, content: string): SqlRow => ({
  id,
  user_id: 1,
  thread_id: threadId,
  content,
  ip: '127.0.0.1',
  is_first: 1,
  created_at: DAY,
  updated_at: DAY,
});

let tomId = 0;
/** A thread_tom row as v3 writes it: json_encode with escaped slashes. */
const tom = (threadId: number, tomType: string, value: unknown, priceIds = '{}', status = 0): SqlRow => ({
  id: ++tomId,
  thread_id: threadId,
  tom_type: tomType,
  key: tomType,
  value: JSON.stringify(value).replace(/\//g, '\\/'),
  status,
  price_type: priceIds === '{}' ? 0 : 1,
  price_ids: priceIds,
  created_at: DAY,
  updated_at: DAY,
});

const sqlRows: [string, SqlRow[]][] = [
  ['settings', [{ key: 'qcloud_cos_cdn_url', value: COS, tag: 'qcloud' }]],
  ['users', [user(1, 'admin'), user(2, 'alice'), user(3, 'bob')]],
  [
    'group_user',
    [
      { group_id: 1, user_id: 1 },
      { group_id: 10, user_id: 2 },
      { group_id: 10, user_id: 3 },
    ],
  ],
  [
    'threads',
    [
      thread(1, { longitude: '116.3974800', latitude: '39.9086900', address: '北京市东城区', location: '天安门' }),
      thread(2, { price: '9.90', attachment_price: '2.00', free_words: 0.5 }),
      thread(3),
      thread(4, { is_red_packet: 1 }),
      thread(5),
    ],
  ],
  [
    'posts',
    [
      post(1, 1, '<p>全部部件都在这里</p>'),
      post(2, 2, '<p>付费的主题，附件另外卖</p>'),
      post(3, 3, '<p>只有远程图片</p>'),
      post(4, 4, '<p>红包</p>'),
      post(5, 5, '<p>悬赏</p>'),
    ],
  ],
  [
    'attachments',
    [
      attachment(1, 1, 1, NAMES.image, '本地.png'),
      attachment(2, 1, 1, NAMES.remote, '远程.png', 1),
      attachment(3, 1, 1, NAMES.missing, '丢失.png'),
      attachment(4, 1, 0, NAMES.doc, '说明.pdf'),
      attachment(5, 2, 0, NAMES.paidDoc, '付费.pdf'),
      attachment(6, 3, 1, NAMES.remote, '远程二.png', 1),
    ],
  ],
  [
    'thread_video',
    [
      {
        id: 1,
        thread_id: 1,
        post_id: 1,
        user_id: 1,
        type: 1,
        status: 1,
        file_name: '讲解.m4a',
        file_id: '5285890813594829377',
        media_url: `${VOD}/f0.m4a`,
        created_at: DAY,
        updated_at: DAY,
      },
      {
        id: 2,
        thread_id: 1,
        post_id: 1,
        user_id: 1,
        type: 0,
        status: 1,
        file_name: '夜景.mp4',
        file_id: '5285890813594829376',
        media_url: `${VOD}/f0.mp4`,
        cover_url: `${VOD}/cover.jpg`,
        created_at: DAY,
        updated_at: DAY,
      },
    ],
  ],
  [
    'post_goods',
    [
      {
        id: 1,
        user_id: 1,
        post_id: 1,
        platform_id: '100012043978',
        title: '索尼 Alpha 7 IV 全画幅微单相机',
        price: '16999.00',
        image_path: 'https://img14.360buyimg.com/n1/a7m4.jpg',
        type: 2,
        ready_content: '',
        detail_content: 'https://item.jd.com/100012043978.html',
        created_at: DAY,
        updated_at: DAY,
      },
    ],
  ],
  [
    'thread_votes',
    [{ id: 7, thread_id: 1, vote_title: '去哪儿拍', choice_type: 2, vote_users: 9, expired_at: '2021-03-01 00:00:00' }],
  ],
  [
    'thread_vote_subitems',
    [
      { id: 11, thread_vote_id: 7, content: '山', vote_count: 5 },
      { id: 12, thread_vote_id: 7, content: '海', vote_count: 0 },
      { id: 13, thread_vote_id: 7, content: '城', vote_count: 0 },
    ],
  ],
  [
    'thread_vote_users',
    [
      { id: 1, user_id: 2, thread_id: 1, thread_vote_subitem_id: 11 },
      { id: 2, user_id: 2, thread_id: 1, thread_vote_subitem_id: 12 },
      { id: 3, user_id: 3, thread_id: 1, thread_vote_subitem_id: 11 },
    ],
  ],
  [
    'thread_tom',
    [
      tom(1, '101', { imageIds: [1, 2, 3] }),
      tom(1, '108', { docIds: [4] }),
      tom(1, '102', { audioId: 1 }),
      tom(1, '103', { videoId: 2 }),
      tom(1, '104', { goodsId: 1 }),
      tom(1, '109', { voteIds: [7] }),
      tom(1, '105', { questionId: 1 }),
      tom(1, '61540fef8f4de8', { anything: true }),
      tom(2, '108', { docIds: [5] }, '[5]'),
      tom(2, '101', { imageIds: [1] }, '{}', -1),
      tom(3, '101', { imageIds: [6] }),
      // v3 stores the thread_red_packets / thread_rewards row itself as the value.
      tom(4, '106', { id: 5, thread_id: 4, post_id: 4, rule: 1, condition: 0, likenum: 0, money: '20.00', number: 10 }),
      tom(5, '107', { id: 6, thread_id: 5, post_id: 5, type: 0, user_id: 1, money: '50.00', remain_money: '50.00' }),
    ],
  ],
];

interface Detail {
  content: { text?: string; html?: string; indexes: Record<string, { tomId: string; body: unknown }> };
  position: { longitude: number; latitude: number; address: string; location: string } | null;
}

describe('Discuz! Q import: thread parts', () => {
  const t = useTestServer();
  let report: ImportReport;

  beforeAll(async () => {
    const storageDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dzq-storage-'));
    const dir = path.join(storageDir, 'app', DIR);
    await fs.mkdir(dir, { recursive: true });
    const png = await sharp({ create: { width: 8, height: 6, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    await fs.writeFile(path.join(dir, NAMES.image), png);
    await fs.writeFile(path.join(dir, NAMES.doc), '%PDF-1.4 doc');
    await fs.writeFile(path.join(dir, NAMES.paidDoc), '%PDF-1.4 paid');
    const file = await installDumpWith(sqlRows.map(([table, rows]) => renderInsert(table, rows)).join('\n'));
    report = await importInto(t.current, file, {
      storageDir,
      steps: [...accountSteps, ...contentSteps, ...partsSteps, countersStep],
    });
  });

  const detail = async (threadId: number) => {
    const res = await t.get<Detail>(`/api/v3/thread.detail?threadId=${threadId}`);
    expect(res.Code).toBe(0);
    return res.Data;
  };

  it('shows every part of a thread over thread.detail, with its position', async () => {
    const d = await detail(1);
    expect(Object.keys(d.content.indexes).sort()).toEqual(['101', '102', '103', '104', '108', '109']);
    const images = d.content.indexes['101']!.body as ImagesPart;
    expect(images.images.map((i) => i.id)).toEqual([1]);
    expect(images.images[0]!.url).toMatch(/^\/api\/v3\/attachments\//);
    const files = d.content.indexes['108']!.body as FilesPart;
    expect(files.docs).toMatchObject([{ id: 4, fileName: '说明.pdf', format: 'pdf' }]);
    expect(files.docs[0]!.url).toBe('/api/v3/attachment.download?threadId=1&attachmentsId=4');
    expect(files.price).toBe('0.00');
    const audio = d.content.indexes['102']!.body as MediaPart;
    expect(audio).toMatchObject({ id: null, url: `${VOD}/f0.m4a`, canPlay: true });
    const goods = d.content.indexes['104']!.body as GoodsPart;
    expect(goods).toEqual({
      title: '索尼 Alpha 7 IV 全画幅微单相机',
      price: '16999.00',
      imagePath: 'https://img14.360buyimg.com/n1/a7m4.jpg',
      detailContent: 'https://item.jd.com/100012043978.html',
      type: 2,
    });
    const [vote] = d.content.indexes['109']!.body as VotePart[];
    expect(vote).toMatchObject({ voteId: 7, voteTitle: '去哪儿拍', choiceType: 2, voteUsers: 2, isExpired: true });
    expect(vote!.subitems.map((s) => [s.id, s.content, s.voteCount])).toEqual([
      [11, '山', 2],
      [12, '海', 1],
      [13, '城', 0],
    ]);
    expect(d.position).toMatchObject({ address: '北京市东城区', location: '天安门' });
    expect(d.position!.longitude).toBeCloseTo(116.39748);

    // The part's uploads belong to the first post; the file downloads.
    const res = await t.app.inject({ method: 'GET', url: '/api/v3/attachment.download?threadId=1&attachmentsId=4' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('%PDF-1.4 doc');
  });

  it('keeps the ballots and counts them again', async () => {
    const db = t.app.ctx.db;
    const ballots = await db
      .selectFrom('threadVoteUsers')
      .select(['id', 'userId', 'threadVoteId', 'threadVoteSubitemId', 'position'])
      .orderBy('id')
      .execute();
    expect(ballots).toEqual([
      { id: 1, userId: 2, threadVoteId: 7, threadVoteSubitemId: 11, position: 0 },
      { id: 2, userId: 2, threadVoteId: 7, threadVoteSubitemId: 12, position: 1 },
      { id: 3, userId: 3, threadVoteId: 7, threadVoteSubitemId: 11, position: 0 },
    ]);
  });

  it('plays a VOD-only video from its address (its cover is not an upload of ours)', async () => {
    const video = (await detail(1)).content.indexes['103']!.body as MediaPart;
    expect(video).toMatchObject({ id: null, url: `${VOD}/f0.mp4`, posterUrl: '', mimeType: '', canPlay: true });
  });

  it("sells a paid thread's files at its attachment price", async () => {
    const part = await t.app.ctx.db
      .selectFrom('threadParts')
      .select(['value', 'priceIds'])
      .where('threadId', '=', 2)
      .where('type', '=', 108)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(part.value)).toEqual({ docIds: [5], priceCents: 200 });
    expect(JSON.parse(part.priceIds)).toEqual([5]);
    const files = (await detail(2)).content.indexes['108']!.body as FilesPart;
    // A guest reads the free part only: the list without an address, the price shown.
    expect(files).toMatchObject({ price: '2.00', needPay: true, canDownload: false });
    expect(files.docs.map((f) => [f.id, f.url])).toEqual([[5, '']]);
    // A part removed on the old site stays removed.
    expect((await detail(2)).content.indexes['101']).toBeUndefined();
  });

  it('drops an attachment whose file did not come over, and puts a COS picture in the text', async () => {
    const first = await t.app.ctx.db
      .selectFrom('posts')
      .select(['content', 'contentHtml'])
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    const remote = `${COS}/${DIR}${NAMES.remote}`;
    expect(first.content).toBe(`全部部件都在这里\n\n![](${remote})`);
    expect(first.contentHtml).toContain(`<img src="${remote}"`);
    expect(first.content).not.toContain(NAMES.missing);

    // A thread whose only picture is on COS gets it in its text and no images part.
    const only = await detail(3);
    expect(only.content.indexes['101']).toBeUndefined();
    expect(only.content.html).toContain(`<img src="${remote}"`);
  });

  it('names the red packet and the bounty the money step writes', async () => {
    const parts = await t.app.ctx.db
      .selectFrom('threadParts')
      .select(['threadId', 'type', 'value'])
      .where('threadId', 'in', [4, 5])
      .orderBy('threadId')
      .execute();
    expect(parts.map((p) => [p.threadId, p.type, JSON.parse(p.value) as unknown])).toEqual([
      [4, 106, { redPacketId: 5 }],
      [5, 107, { amountCents: 5000, type: 0 }],
    ]);
  });

  it('reports what has no counterpart', () => {
    const toms = report.tables.find((r) => r.table === 'thread_tom')!;
    expect(toms.skipped).toEqual({
      'question part (no counterpart)': 1,
      'plugin part (no counterpart)': 1,
      'part removed': 1,
    });
    expect(toms.written).toBe(10);
    expect(report.notes.some((n) => n.includes('question part (105'))).toBe(true);
    expect(report.notes.some((n) => n.includes('"61540fef8f4de8"'))).toBe(true);
  });

  it('leaves no memo rows behind', async () => {
    const memos = await t.app.ctx.db
      .selectFrom('legacyRedirects')
      .select('path')
      .where((eb) =>
        eb.or([
          eb('path', 'like', 'dzq:goods:%'),
          eb('path', 'like', 'dzq:thread_video:%'),
          eb('path', 'like', 'dzq:attachment-price:%'),
        ]),
      )
      .execute();
    expect(memos).toEqual([]);
  });
});
