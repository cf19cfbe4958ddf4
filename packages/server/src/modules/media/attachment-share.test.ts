/* GET /api/v3/attachment.share: the address of one of a thread's files, for whoever may download it. */
import { Code, GroupId, type AttachmentShareData, type FileAttachmentItem, type ThreadDetail } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../test/fixture.js';
import { setGroupPermissions } from '../../test/factories.js';

const t = useTestServer();

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n');

async function uploadPdf(token: string, name: string): Promise<number> {
  const boundary = `----share${Date.now()}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\n0\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n`),
    Buffer.from('Content-Type: application/octet-stream\r\n\r\n'),
    PDF,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` };
  const res = await t.call<FileAttachmentItem>('POST', '/api/v3/attachments', { token, body, headers });
  expect(res.body.Code).toBe(0);
  return res.body.Data.id;
}

async function threadWithFile(token: string, price?: string) {
  const id = await uploadPdf(token, 'share.pdf');
  const made = await t.post<ThreadDetail>(
    '/api/v3/thread.create',
    {
      categoryId: 1,
      title: '分享附件',
      content: {
        text: '见附件',
        indexes: { 108: { tomId: '108', body: { docIds: [id], ...(price ? { price } : {}) } } },
      },
    },
    token,
  );
  expect(made.Code).toBe(0);
  return { threadId: made.Data.threadId, id };
}

const share = (threadId: number, attachmentsId: number | string, token?: string) =>
  t.get<AttachmentShareData>(`/api/v3/attachment.share?threadId=${threadId}&attachmentsId=${attachmentsId}`, token);

describe('attachment.share', () => {
  it("answers the file's download address to whoever may download it, and the address serves the file", async () => {
    const author = await t.buildMember();
    const { threadId, id } = await threadWithFile(author.token);
    const url = `/api/v3/attachment.download?threadId=${threadId}&attachmentsId=${id}`;
    for (const token of [author.token, (await t.buildMember()).token, t.admin, undefined]) {
      const res = await share(threadId, id, token);
      expect([res.Code, res.Data]).toEqual([0, { url }]);
    }
    const got = await t.app.inject({ method: 'GET', url });
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(PDF)).toBe(true);
  });

  it('refuses what the download refuses, and bad input', async () => {
    const author = await t.buildMember();
    const { threadId, id } = await threadWithFile(author.token);
    const other = await threadWithFile(author.token);
    // Another thread's file through this one.
    expect((await share(threadId, other.id, author.token)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await share(999999, id, author.token)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    // Files sold apart: not before they are bought (the author and administrators may).
    const paid = await threadWithFile(author.token, '2.00');
    const stranger = await t.buildMember();
    expect((await share(paid.threadId, paid.id, stranger.token)).Code).toBe(Code.UNAUTHORIZED);
    expect((await share(paid.threadId, paid.id, author.token)).Code).toBe(0);
    // A guest group without thread.downloadAttachment: sent to log in.
    const guest = await t.get<{ permissions: string[] }>(
      `/api/group.resource.v2?id=${GroupId.GUEST}&include=permission`,
      t.admin,
    );
    const before = guest.Data.permissions;
    await setGroupPermissions(
      t.current,
      t.admin,
      GroupId.GUEST,
      before.filter((p) => !p.endsWith('thread.downloadAttachment')),
    );
    try {
      expect((await share(threadId, id)).Code).toBe(Code.JUMP_TO_LOGIN);
    } finally {
      await setGroupPermissions(t.current, t.admin, GroupId.GUEST, before);
    }
    for (const bad of ['abc', '0']) {
      const res = await share(threadId, bad, author.token);
      expect(res.Code, bad).toBe(Code.INVALID_PARAMETER);
      expect(res.Message, bad).not.toBe('');
    }
  });
});
