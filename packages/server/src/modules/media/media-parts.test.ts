/* Files (part 108), audio (102), video (103) and images (101) of threads: upload, attach, read, buy, download, play. */
import {
  Code,
  GroupId,
  OrderType,
  PayType,
  type FileAttachmentItem,
  type FilesPart,
  type ImagesPart,
  type MediaPart,
  type ThreadDetail,
  type TradePayResult,
} from '@luntan/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import { memberPermissions, setGroupPermissions } from '../../test/factories.js';
import { createOrder, PAY_PASSWORD, recharge, setPayPassword, setSettings } from '../../test/money-fixtures.js';

type User = Awaited<ReturnType<typeof buildUser>>;

let t: TestServer;
let admin: string;
let memberPerms: string[];

beforeAll(async () => {
  t = await startTestServer({ env: { PAYMENT_SANDBOX: '1' } });
  admin = await t.login(ADMIN.username, ADMIN.password);
  memberPerms = await memberPermissions(t, admin);
  // Fresh sites let members attach files but not audio or video (the family's defaults): this site does.
  memberPerms = [...memberPerms, 'thread.insertAudio', 'thread.insertVideo'];
  await setGroupPermissions(t, admin, GroupId.MEMBER, memberPerms);
});
afterAll(async () => {
  await t.close();
});

/** A multipart/form-data body with some fields and one file. */
function multipart(fields: Record<string, string>, file: { name: string; data: Buffer }) {
  const boundary = `----luntan${Date.now()}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  chunks.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const upload = async (token: string, type: string, name: string, data: Buffer, extra: Record<string, string> = {}) => {
  const { body, headers } = multipart({ type, ...extra }, { name, data });
  return (await t.call<FileAttachmentItem>('POST', '/api/v3/attachments', { token, body, headers })).body;
};

// Small files whose first bytes say what they are.
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n');
const EXE = Buffer.concat([
  Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff', 'latin1'),
  Buffer.alloc(200),
]);
const TEXT = Buffer.from('plain notes\n');
const MP4 = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypmp42'),
  Buffer.from([0, 0, 0, 0]),
  Buffer.from('mp42isom'),
  Buffer.alloc(4000, 7),
]);
const WEBM = Buffer.concat([
  Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81, 0x01, 0x42, 0xf2, 0x81, 0x04]),
  Buffer.from([0x42, 0xf3, 0x81, 0x08, 0x42, 0x82, 0x84]),
  Buffer.from('webm'),
  Buffer.from([0x42, 0x87, 0x81, 0x04, 0x42, 0x85, 0x81, 0x02]),
  Buffer.alloc(2000, 3),
]);
const FRAME = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(413)]);
const MP3 = Buffer.concat([Buffer.from('ID3'), Buffer.from([3, 0, 0, 0, 0, 0, 0]), FRAME, FRAME]);
const AVI = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0, 0, 0, 0]), Buffer.from('AVI LIST'), Buffer.alloc(200)]);

const createThread = (token: string, indexes: unknown, extra: Record<string, unknown> = {}) =>
  t.post<ThreadDetail>(
    '/api/v3/thread.create',
    { categoryId: 1, title: '资料分享', content: { text: '见附件', indexes }, ...extra },
    token,
  );
const detail = (threadId: number, token?: string) =>
  t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${threadId}`, token);
const raw = (url: string, token?: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });

async function fundedMember(amount: string): Promise<User> {
  const user = await buildUser(t);
  await setPayPassword(t, user);
  await recharge(t, user.token, amount);
  return user;
}

describe('uploading files, audio and video', () => {
  it('takes allowed types, refuses others, a renamed program, a file too large', async () => {
    const author = await buildUser(t);
    const pdf = await upload(author.token, 'file', '说明.pdf', PDF);
    expect(pdf.Code).toBe(0);
    expect(pdf.Data).toMatchObject({ type: 0, fileName: '说明.pdf', format: 'pdf', fileSize: PDF.length });
    expect((await upload(author.token, '0', 'notes.txt', TEXT)).Code).toBe(0);

    const exe = await upload(author.token, 'file', 'report.pdf', EXE);
    expect(exe.Code).toBe(Code.INVALID_PARAMETER);
    expect(exe.Message).toContain('.pdf');
    expect(exe.Message).toContain('exe');
    const ext = await upload(author.token, 'file', 'tool.exe', EXE);
    expect(ext.Code).toBe(Code.INVALID_PARAMETER);
    expect(ext.Message).toContain('.exe');

    // The smallest setting: whole MiB, from 1.
    await setSettings(t, admin, { supportMaxSize: 1 });
    try {
      const big = await upload(author.token, 'file', 'big.txt', Buffer.alloc(1024 * 1024 + 1, 'a'));
      expect(big.Code).toBe(Code.INVALID_PARAMETER);
      expect(big.Message).toContain('1 MB');
    } finally {
      await setSettings(t, admin, { supportMaxSize: 20 });
    }

    const video = await upload(author.token, 'video', 'clip.mp4', MP4, { duration: '3.5' });
    expect(video.Data).toMatchObject({ type: 3, format: 'mp4', duration: 3.5 });
    expect((await upload(author.token, 'video', 'clip.webm', WEBM)).Data.format).toBe('webm');
    expect((await upload(author.token, 'audio', 'song.mp3', MP3)).Data.type).toBe(2);
    const avi = await upload(author.token, 'video', 'clip.avi', AVI);
    expect(avi.Code).toBe(Code.INVALID_PARAMETER);
    expect(avi.Message).toContain('mp4, webm');
    // An mp4 name on bytes that are no video.
    expect((await upload(author.token, 'video', 'clip.mp4', TEXT)).Code).toBe(Code.INVALID_PARAMETER);
  });

  it('needs the permission of the part the upload is for', async () => {
    const member = await buildUser(t);
    await setGroupPermissions(
      t,
      admin,
      GroupId.MEMBER,
      memberPerms.filter((p) => p !== 'thread.insertAttachment'),
    );
    try {
      expect((await upload(member.token, 'file', 'a.pdf', PDF)).Code).toBe(Code.UNAUTHORIZED);
      expect((await upload(member.token, 'video', 'a.mp4', MP4)).Code).toBe(0);
    } finally {
      await setGroupPermissions(t, admin, GroupId.MEMBER, memberPerms);
    }
  });
});

describe('a thread’s files (part 108)', () => {
  it('attaches own unlinked files only, at most the setting’s number, and needs thread.insertAttachment', async () => {
    const author = await buildUser(t);
    const other = await buildUser(t);
    const mine = (await upload(author.token, 'file', 'a.pdf', PDF)).Data.id;
    const theirs = (await upload(other.token, 'file', 'b.pdf', PDF)).Data.id;
    const notAFile = (await upload(author.token, 'video', 'c.mp4', MP4)).Data.id;
    for (const id of [theirs, notAFile]) {
      const res = await createThread(author.token, { 108: { tomId: '108', body: { docIds: [mine, id] } } });
      expect(res.Code).toBe(Code.INVALID_PARAMETER);
    }
    const used = await createThread(author.token, { 108: { tomId: '108', body: { docIds: [mine] } } });
    expect(used.Code).toBe(0);
    // Linked now: it cannot be attached to a second thread.
    const again = await createThread(author.token, { 108: { tomId: '108', body: { docIds: [mine] } } });
    expect(again.Code).toBe(Code.INVALID_PARAMETER);

    await setSettings(t, admin, { supportMaxUploadAttachmentNum: 2 });
    try {
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push((await upload(author.token, 'file', `${i}.txt`, TEXT)).Data.id);
      const many = await createThread(author.token, { 108: { tomId: '108', body: { docIds: ids } } });
      expect(many.Code).toBe(Code.INVALID_PARAMETER);
      expect(many.Message).toContain('2');
    } finally {
      await setSettings(t, admin, { supportMaxUploadAttachmentNum: 9 });
    }

    const fresh = (await upload(author.token, 'file', 'd.pdf', PDF)).Data.id;
    await setGroupPermissions(
      t,
      admin,
      GroupId.MEMBER,
      memberPerms.filter((p) => p !== 'thread.insertAttachment' && !p.endsWith('.thread.insertAttachment')),
    );
    try {
      const res = await createThread(author.token, { 108: { tomId: '108', body: { docIds: [fresh] } } });
      expect(res.Code).toBe(Code.UNAUTHORIZED);
    } finally {
      await setGroupPermissions(t, admin, GroupId.MEMBER, memberPerms);
    }
  });

  it('lists and downloads by group permission, as an attachment that is never a page', async () => {
    const author = await buildUser(t);
    const id = (await upload(author.token, 'file', '计划 v2.pdf', PDF)).Data.id;
    const made = await createThread(author.token, { 108: { tomId: '108', body: { docIds: [id] } } });
    const threadId = made.Data.threadId;
    const body = made.Data.content.indexes['108']!.body as FilesPart;
    expect(body).toMatchObject({ price: '0.00', needPay: false, canView: true, canDownload: true });
    expect(body.docs).toEqual([
      {
        id,
        fileName: '计划 v2.pdf',
        format: 'pdf',
        fileSize: PDF.length,
        url: `/api/v3/attachment.download?threadId=${threadId}&attachmentsId=${id}`,
      },
    ]);
    const stranger = await buildUser(t);
    for (const token of [author.token, stranger.token, admin, undefined]) {
      const res = await raw(body.docs[0]!.url, token);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(PDF)).toBe(true);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(String(res.headers['content-disposition'])).toMatch(
        /^attachment; filename="__ v2.pdf"; filename\*=UTF-8''%E8%AE%A1%E5%88%92%20v2.pdf$/,
      );
    }
    // A part of the file through a Range.
    const part = await raw(body.docs[0]!.url, stranger.token, { range: 'bytes=0-3' });
    expect(part.statusCode).toBe(206);
    expect(part.payload).toBe('%PDF');

    // Guests lose thread.downloadAttachment: they see the list without an address and cannot download.
    const guestPerms = await t.get<{ permissions: string[] }>(
      `/api/group.resource.v2?id=${GroupId.GUEST}&include=permission`,
      admin,
    );
    const before = guestPerms.Data.permissions;
    await setGroupPermissions(
      t,
      admin,
      GroupId.GUEST,
      before.filter((p) => !p.endsWith('thread.downloadAttachment')),
    );
    try {
      const seen = (await detail(threadId)).Data.content.indexes['108']!.body as FilesPart;
      expect(seen.canDownload).toBe(false);
      expect(seen.docs[0]!.url).toBe('');
      expect(seen.docs[0]!.fileName).toBe('计划 v2.pdf');
      const res = await raw(body.docs[0]!.url);
      expect(res.json().Code).toBe(Code.JUMP_TO_LOGIN);
      // Without thread.viewAttachment the list itself is hidden.
      await setGroupPermissions(
        t,
        admin,
        GroupId.GUEST,
        before.filter((p) => !p.endsWith('thread.downloadAttachment') && !p.endsWith('thread.viewAttachment')),
      );
      const hidden = (await detail(threadId)).Data.content.indexes['108']!.body as FilesPart;
      expect(hidden).toMatchObject({ docs: [], canView: false });
    } finally {
      await setGroupPermissions(t, admin, GroupId.GUEST, before);
    }
    // An attachment of another thread through this one: not found.
    const otherId = (await upload(author.token, 'file', 'x.pdf', PDF)).Data.id;
    await createThread(author.token, { 108: { tomId: '108', body: { docIds: [otherId] } } });
    const wrong = await raw(`/api/v3/attachment.download?threadId=${threadId}&attachmentsId=${otherId}`, admin);
    expect(wrong.json().Code).toBe(Code.RESOURCE_NOT_FOUND);
  });

  it('sells the files apart (order type 7): locked until bought, then downloaded', async () => {
    const author = await buildUser(t);
    const id = (await upload(author.token, 'file', 'paid.pdf', PDF)).Data.id;
    const made = await createThread(author.token, { 108: { tomId: '108', body: { docIds: [id], price: '2.50' } } });
    expect(made.Code).toBe(0);
    const threadId = made.Data.threadId;
    const url = `/api/v3/attachment.download?threadId=${threadId}&attachmentsId=${id}`;
    expect((made.Data.content.indexes['108']!.body as FilesPart).docs[0]!.url).toBe(url);

    const buyer = await fundedMember('10.00');
    const locked = (await detail(threadId, buyer.token)).Data.content.indexes['108']!.body as FilesPart;
    expect(locked).toMatchObject({ price: '2.50', needPay: true, canDownload: false });
    expect(locked.docs[0]!.url).toBe('');
    expect((await raw(url, buyer.token)).json().Code).toBe(Code.UNAUTHORIZED);
    expect((await raw(url)).json().Code).not.toBe(0);
    expect((await raw(url, admin)).statusCode).toBe(200);

    // The author cannot buy their own; a thread without a price has nothing to buy.
    expect(
      (await t.post('/api/v3/order.create', { type: OrderType.ATTACHMENT, threadId }, author.token)).Code,
    ).not.toBe(0);
    const order = await createOrder(t, buyer.token, { type: OrderType.ATTACHMENT, threadId });
    expect(order.amount).toBe('2.50');
    const paid = await t.post<TradePayResult>(
      '/api/v3/trade/pay/order',
      { orderSn: order.orderSn, paymentType: PayType.WALLET, payPassword: PAY_PASSWORD },
      buyer.token,
    );
    expect(paid.Code).toBe(0);
    const open = (await detail(threadId, buyer.token)).Data.content.indexes['108']!.body as FilesPart;
    expect(open).toMatchObject({ needPay: false, canDownload: true });
    expect(open.docs[0]!.url).toBe(url);
    const res = await raw(url, buyer.token);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PDF)).toBe(true);
    // Bought once: a second order answers the paid one.
    const second = await createOrder(t, buyer.token, { type: OrderType.ATTACHMENT, threadId });
    expect(second.orderSn).toBe(order.orderSn);
  });

  it('hides the files of a paid thread from who has not bought the thread', async () => {
    const author = await buildUser(t);
    const id = (await upload(author.token, 'file', 'x.pdf', PDF)).Data.id;
    const made = await createThread(
      author.token,
      { 108: { tomId: '108', body: { docIds: [id] } } },
      { price: '1.00', freeWords: 0 },
    );
    expect(made.Code).toBe(0);
    const stranger = await buildUser(t);
    const seen = (await detail(made.Data.threadId, stranger.token)).Data.content.indexes['108']!.body as FilesPart;
    expect(seen.canDownload).toBe(false);
    expect(seen.docs.every((d) => d.url === '')).toBe(true);
    const url = `/api/v3/attachment.download?threadId=${made.Data.threadId}&attachmentsId=${id}`;
    expect((await raw(url, stranger.token)).json().Code).toBe(Code.UNAUTHORIZED);
  });
});

describe('audio and video (parts 102, 103)', () => {
  it('plays with HTTP Range, a poster and a duration, and needs thread.viewVideo for video', async () => {
    const author = await buildUser(t);
    const video = (await upload(author.token, 'video', 'clip.mp4', MP4, { duration: '2' })).Data.id;
    const audio = (await upload(author.token, 'audio', 'song.mp3', MP3)).Data.id;
    const png = await sharp({ create: { width: 32, height: 18, channels: 3, background: '#124' } })
      .png()
      .toBuffer();
    const poster = (await upload(author.token, 'image', 'poster.png', png)).Data.id;
    const made = await createThread(author.token, {
      103: { tomId: '103', body: { videoId: video, posterId: poster } },
      102: { tomId: '102', body: { audioId: audio } },
    });
    expect(made.Code).toBe(0);
    const threadId = made.Data.threadId;
    const v = made.Data.content.indexes['103']!.body as MediaPart;
    expect(v).toMatchObject({ id: video, duration: 2, mimeType: 'video/mp4', canPlay: true, format: 'mp4' });
    expect(v.posterUrl).toMatch(/^\/api\/v3\/attachments\/.+\.png$/);
    expect(v.url).toBe(`/api/v3/attachment.media?threadId=${threadId}&attachmentsId=${video}`);
    const a = made.Data.content.indexes['102']!.body as MediaPart;
    expect(a).toMatchObject({ mimeType: 'audio/mpeg', canPlay: true });

    const stranger = await buildUser(t);
    const whole = await raw(v.url, stranger.token);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(Number(whole.headers['content-length'])).toBe(MP4.length);
    // Seeking: a range in the middle, an open range, a suffix, and one past the end.
    const mid = await raw(v.url, stranger.token, { range: 'bytes=100-199' });
    expect(mid.statusCode).toBe(206);
    expect(mid.headers['content-range']).toBe(`bytes 100-199/${MP4.length}`);
    expect(mid.rawPayload.equals(MP4.subarray(100, 200))).toBe(true);
    const open = await raw(v.url, stranger.token, { range: `bytes=${MP4.length - 10}-` });
    expect(open.headers['content-range']).toBe(`bytes ${MP4.length - 10}-${MP4.length - 1}/${MP4.length}`);
    const suffix = await raw(v.url, stranger.token, { range: 'bytes=-5' });
    expect(suffix.rawPayload.equals(MP4.subarray(-5))).toBe(true);
    const bad = await raw(v.url, stranger.token, { range: `bytes=${MP4.length + 10}-` });
    expect(bad.statusCode).toBe(416);
    expect(bad.headers['content-range']).toBe(`bytes */${MP4.length}`);
    expect((await raw(a.url, undefined, { range: 'bytes=0-2' })).payload).toBe('ID3');

    await setGroupPermissions(
      t,
      admin,
      GroupId.MEMBER,
      memberPerms.filter((p) => !p.endsWith('thread.viewVideo')),
    );
    try {
      const seen = (await detail(threadId, stranger.token)).Data.content.indexes['103']!.body as MediaPart;
      expect(seen).toMatchObject({ canPlay: false, url: '' });
      expect((await raw(v.url, stranger.token)).json().Code).toBe(Code.UNAUTHORIZED);
      expect((await raw(v.url, admin)).statusCode).toBe(200);
    } finally {
      await setGroupPermissions(t, admin, GroupId.MEMBER, memberPerms);
    }
  });

  it('takes an external media address for imports, and refuses a body with neither or both', async () => {
    const author = await buildUser(t);
    const made = await createThread(author.token, {
      103: { tomId: '103', body: { mediaUrl: 'https://media.example.com/a.mp4' } },
    });
    expect(made.Code).toBe(0);
    expect(made.Data.content.indexes['103']!.body).toMatchObject({ id: null, url: 'https://media.example.com/a.mp4' });
    // Two parts of one thread: each read back with its own body.
    const both = await createThread(author.token, {
      103: { tomId: '103', body: { mediaUrl: 'https://media.example.com/b.mp4' } },
      102: { tomId: '102', body: { mediaUrl: 'https://media.example.com/b.mp3' } },
    });
    expect(both.Code).toBe(0);
    const read = (await detail(both.Data.threadId)).Data;
    expect(Object.keys(read.content.indexes)).toEqual(['102', '103']);
    expect(read.content.indexes['102']!.body).toMatchObject({ url: 'https://media.example.com/b.mp3' });
    expect(read.content.indexes['103']!.body).toMatchObject({ url: 'https://media.example.com/b.mp4' });
    expect((await createThread(author.token, { 103: { tomId: '103', body: {} } })).Code).toBe(Code.INVALID_PARAMETER);
    const js = await createThread(author.token, { 102: { tomId: '102', body: { mediaUrl: 'javascript:alert(1)' } } });
    expect(js.Code).toBe(Code.INVALID_PARAMETER);
  });

  it('hides a paid thread’s media from who has not bought it', async () => {
    const author = await buildUser(t);
    const video = (await upload(author.token, 'video', 'clip.webm', WEBM)).Data.id;
    const made = await createThread(
      author.token,
      { 103: { tomId: '103', body: { videoId: video } } },
      { price: '1.00', freeWords: 0 },
    );
    const stranger = await buildUser(t);
    const seen = (await detail(made.Data.threadId, stranger.token)).Data.content.indexes['103']!.body as MediaPart;
    expect(seen).toMatchObject({ canPlay: false, url: '' });
    const url = `/api/v3/attachment.media?threadId=${made.Data.threadId}&attachmentsId=${video}`;
    expect((await raw(url, stranger.token)).json().Code).toBe(Code.UNAUTHORIZED);
  });
});

describe('images (part 101)', () => {
  it('shows the poster’s own images as a gallery', async () => {
    const author = await buildUser(t);
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#a52' } })
      .png()
      .toBuffer();
    const ids = [];
    for (let i = 0; i < 2; i++) ids.push((await upload(author.token, 'image', `${i}.png`, png)).Data.id);
    const made = await createThread(author.token, { 101: { tomId: '101', body: { imageIds: ids } } });
    expect(made.Code).toBe(0);
    const body = (await detail(made.Data.threadId)).Data.content.indexes['101']!.body as ImagesPart;
    expect(body.images.map((i) => i.id)).toEqual(ids);
    expect(body.images[0]).toMatchObject({ width: 40, height: 30 });
    const other = await buildUser(t);
    const stolen = await createThread(other.token, { 101: { tomId: '101', body: { imageIds: [ids[0]] } } });
    expect(stolen.Code).toBe(Code.INVALID_PARAMETER);
  });
});
