import type { DialogItem, DialogMessageItem, Page } from '@luntan/shared';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { importInto, installDumpWith } from '../../../test/discuzq-fixtures.js';
import { useTestServer } from '../../../test/fixture.js';
import { addslashes, mysqlDate, phpJsonEncode, renderInsert, type SqlRow } from '../fixture-sql.js';
import type { ImportReport } from '../importer.js';
import { accountSteps } from './accounts.js';
import { contentSteps } from './content.js';
import { countersStep } from './counters.js';
import type { TableStep } from '../steps.js';
import { peopleSteps } from './people.js';

/*
 * The people step over a small Discuz! Q site: follows, blocks, private messages (two dialogs of one pair merged, read
 * and deleted state, HTML and s9e texts shown over HTTP to a member signing in with their old password), stop words,
 * registration fields and answers, recent notifications; orphans counted in the report.
 */

const t = useTestServer();

/** Laravel's bcrypt: `$2y$`, which the forum verifies as it is. */
const phpHash = (pw: string) => bcrypt.hashSync(pw, 10).replace(/^\$2[ab]\$/, '$2y$');
/** A site-clock (UTC+8, as the import is told) time `days` ago. */
const ago = (days: number) => mysqlDate(new Date(Date.now() - days * 86_400_000 + 8 * 3_600_000));
/** dialog_message.message_text as v3 writes it. */
const messageText = (html: string | null, imageUrl = '') =>
  addslashes(phpJsonEncode({ message_text: html, image_url: imageUrl }));

const AT = '2021-02-01 10:00:00';
const user = (id: number, username: string): SqlRow => ({
  id,
  username,
  nickname: `N${username}`,
  password: phpHash(`${username}-pass-1`),
  status: 0,
  created_at: AT,
  updated_at: AT,
});
const dialog = (id: number, sender: number, recipient: number, extra: SqlRow = {}): SqlRow => ({
  id,
  dialog_message_id: 0,
  sender_user_id: sender,
  recipient_user_id: recipient,
  created_at: AT,
  updated_at: AT,
  ...extra,
});
const message = (id: number, dialogId: number, userId: number, text: string, at: string): SqlRow => ({
  id,
  dialog_id: dialogId,
  user_id: userId,
  attachment_id: 0,
  message_text: text,
  created_at: at,
  updated_at: at,
  read_status: 1,
  status: 1,
});
const word = (id: number, find: string, action: string, replacement = ''): SqlRow => ({
  id,
  user_id: 2,
  ugc: action,
  username: action,
  nickname: action,
  signature: action,
  dialog: action,
  find,
  replacement,
  created_at: AT,
  updated_at: AT,
});
const options = (checked: string | null) =>
  JSON.stringify({ options: ['风光', '人像'].map((value) => ({ value, checked: value === checked })) });
const fieldRow = (id: number, name: string, type: number, ext: string, status: number): SqlRow => ({
  id,
  name,
  type,
  fields_ext: ext,
  fields_desc: `${name}?`,
  sort: id,
  status,
  required: 1,
  created_at: AT,
  updated_at: AT,
});
const answer = (id: number, userId: number, name: string, type: number, ext: string, status: number, remark = '') => ({
  ...fieldRow(id, name, type, ext, status),
  user_id: userId,
  remark,
});
const notice = (id: number, type: string, userId: number, data: object, days: number): SqlRow => ({
  id,
  type,
  notifiable_type: 'App\\Models\\User',
  notifiable_id: userId,
  data: JSON.stringify(data),
  read_at: null,
  created_at: ago(days),
  updated_at: ago(days),
});

const image = (id: number, userId: number, messageId: number, name: string): SqlRow => ({
  id,
  uuid: `00000000-0000-0000-0000-0000000000${id}`,
  user_id: userId,
  type_id: messageId,
  type: 4,
  attachment: `${name}.png`,
  file_path: 'public/attachments/2021/02/03/',
  file_name: 'photo.png',
  file_size: 100,
  file_type: 'image/png',
  created_at: AT,
  updated_at: AT,
});
const reportRow = (id: number, userId: number, threadId: number, postId: number, type: number, status: number) => ({
  id,
  user_id: userId,
  thread_id: threadId,
  post_id: postId,
  type,
  reason: `理由 ${id}`,
  status,
  created_at: AT,
  updated_at: '2021-02-02 10:00:00',
});
const invite = (id: number, code: string, status: number, toUserId: number, endtime: number, userId = 2) => ({
  id,
  group_id: 10,
  type: 1,
  code,
  dateline: 1610841600,
  endtime,
  user_id: userId,
  to_user_id: toUserId,
  status,
  created_at: AT,
  updated_at: '2021-02-02 10:00:00',
});

const SITE = [
  renderInsert('users', [user(2, 'alice'), user(3, 'bob'), user(4, 'carol')]),
  renderInsert(
    'group_user',
    [2, 3, 4].map((id) => ({ group_id: 10, user_id: id })),
  ),
  renderInsert('threads', [
    {
      id: 1,
      user_id: 2,
      category_id: 1,
      title: '夜景',
      is_approved: 1,
      address: '',
      location: '',
      created_at: AT,
      updated_at: AT,
    },
  ]),
  renderInsert('posts', [
    {
      id: 1,
      user_id: 2,
      thread_id: 1,
      content: '<p>正文</p>',
      is_first: 1,
      is_approved: 1,
      created_at: AT,
      updated_at: AT,
    },
    {
      id: 2,
      user_id: 3,
      thread_id: 1,
      content: '<p>回复</p>',
      is_first: 0,
      is_approved: 1,
      created_at: AT,
      updated_at: AT,
    },
  ]),
  renderInsert('attachments', [
    // A message picture named by the message's attachment_id, and one named only by its type_id and old address.
    image(11, 2, 7, 'a'.repeat(40)),
    image(12, 3, 8, 'b'.repeat(40)),
  ]),
  renderInsert('reports', [
    reportRow(1, 3, 1, 0, 1, 0),
    reportRow(2, 2, 1, 2, 2, 1),
    reportRow(3, 3, 1, 0, 1, 0),
    reportRow(4, 3, 999, 0, 1, 0),
  ]),
  renderInsert('invites', [
    invite(1, 'c'.repeat(32), 1, 0, Math.floor(Date.now() / 1000) + 86_400),
    invite(2, 'd'.repeat(32), 2, 3, 1611446400),
    invite(3, 'e'.repeat(32), 1, 0, 0, 99),
  ]),
  renderInsert('user_follow', [
    { id: 1, from_user_id: 2, to_user_id: 3, is_mutual: 1, created_at: AT, updated_at: AT },
    { id: 2, from_user_id: 3, to_user_id: 2, is_mutual: 1, created_at: AT, updated_at: AT },
    { id: 3, from_user_id: 2, to_user_id: 99, is_mutual: 0, created_at: AT, updated_at: AT },
  ]),
  renderInsert('deny_users', [
    { user_id: 3, deny_user_id: 4, created_at: AT },
    { user_id: 99, deny_user_id: 2, created_at: AT },
  ]),
  renderInsert('dialog', [
    // Bob read dialog 1 up to 4 Feb; Alice read dialog 2 (Bob's, of the same pair) up to 3 Feb noon.
    dialog(1, 2, 3, { recipient_read_at: '2021-02-04 10:00:00', sender_read_at: '2021-02-05 10:00:00' }),
    dialog(2, 3, 2, { recipient_read_at: '2021-02-03 12:00:00' }),
    dialog(3, 4, 99),
    // Carol deleted her side of dialog 4 on 4 Feb.
    dialog(4, 2, 4, { recipient_deleted_at: '2021-02-04 00:00:00' }),
  ]),
  renderInsert('dialog_message', [
    message(
      1,
      1,
      2,
      messageText('<p>你好 <strong>Bob</strong>，参数&amp;设置</p><p>第二行</p>'),
      '2021-02-03 10:00:00',
    ),
    message(
      2,
      2,
      3,
      messageText('<r>收到<E>:weixiao:</E> <USERMENTION id="2">@alice</USERMENTION></r>'),
      '2021-02-03 11:00:00',
    ),
    message(3, 1, 2, messageText('<t>还在吗？</t>'), '2021-02-05 09:00:00'),
    message(4, 3, 4, messageText('<t>orphan</t>'), '2021-02-03 10:00:00'),
    message(5, 4, 2, messageText('<t>给 Carol</t>'), '2021-02-03 10:00:00'),
    message(6, 1, 2, messageText(null), '2021-02-05 09:30:00'),
    { ...message(7, 4, 2, messageText(null), '2021-02-05 10:00:00'), attachment_id: 11 },
    message(
      8,
      4,
      4,
      messageText(null, `https://old.example.com/storage/attachments/2021/02/03/${'b'.repeat(40)}.png`),
      '2021-02-05 11:00:00',
    ),
  ]),
  renderInsert('stop_words', [
    word(1, '代开发票', '{MOD}'),
    word(2, '赌博', '{BANNED}'),
    word(3, 'Silly', '{REPLACE}', '**'),
    word(4, 'SILLY', '{BANNED}'),
  ]),
  renderInsert('admin_sign_in_fields', [
    fieldRow(1, '真实姓名', 0, '', 1),
    fieldRow(2, '题材', 2, options(null), 1),
    fieldRow(3, '旧字段', 0, '', 0),
  ]),
  renderInsert('user_sign_in_fields', [
    answer(1, 2, '真实姓名', 0, '王大卫', 3),
    answer(2, 2, '题材', 2, options('人像'), 2, '请选别的'),
    answer(3, 99, '真实姓名', 0, '无名', 1),
  ]),
  renderInsert('notifications', [
    notice(
      1,
      'replied',
      2,
      { user_id: 3, thread_id: 1, post_id: 2, post_content: '<p>欢迎<strong>欢迎</strong></p>' },
      10,
    ),
    notice(2, 'liked', 2, { user_id: 3, post_id: 0, post_content: '旧的' }, 200),
    notice(3, 'App\\Notifications\\System', 3, { title: '审核通过', content: '你的注册已通过' }, 5),
    notice(4, 'App\\Notifications\\Unheard', 3, {}, 5),
    notice(5, 'replied', 99, { user_id: 3 }, 5),
  ]),
].join('\n');

let report: ImportReport;
const skipped = (table: string) => report.tables.find((r) => r.table === table)?.skipped ?? {};

beforeAll(async () => {
  const storageDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dzq-storage-'));
  const dir = path.join(storageDir, 'app/public/attachments/2021/02/03');
  await fs.mkdir(dir, { recursive: true });
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c00' } })
    .png()
    .toBuffer();
  for (const name of ['a', 'b']) await fs.writeFile(path.join(dir, `${name.repeat(40)}.png`), png);
  const file = await installDumpWith(SITE);
  report = await importInto(t, file, {
    storageDir,
    steps: [...accountSteps, ...contentSteps, ...peopleSteps, countersStep],
  });
}, 20_000);

describe('Discuz! Q import: people', () => {
  it('keeps both rows of a mutual follow and the block, and counts orphans', async () => {
    const db = t.app.ctx.db;
    const follows = await db.selectFrom('userFollows').select(['userId', 'toUserId']).orderBy('userId').execute();
    expect(follows).toEqual([
      { userId: 2, toUserId: 3 },
      { userId: 3, toUserId: 2 },
    ]);
    expect(await db.selectFrom('userDenies').select(['userId', 'denyUserId']).execute()).toEqual([
      { userId: 3, denyUserId: 4 },
    ]);
    expect(skipped('user_follow')).toEqual({ 'user missing': 1 });
    expect(skipped('deny_users')).toEqual({ 'user missing': 1 });
    expect(skipped('dialog')).toEqual({ 'user missing': 1 });
    expect(skipped('dialog_message')).toEqual({ 'dialog missing': 1, 'empty message': 1 });
    expect(skipped('user_sign_in_fields')).toEqual({ 'user missing': 1 });
  });

  it('merges two dialogs of one pair, with read and deleted state', async () => {
    const db = t.app.ctx.db;
    const dialogs = await db.selectFrom('dialogs').selectAll().orderBy('id').execute();
    expect(dialogs.map((d) => [d.id, d.lowUserId, d.highUserId, d.lastMessageId])).toEqual([
      [1, 2, 3, 3],
      [4, 2, 4, 8],
    ]);
    const messages = await db.selectFrom('dialogMessages').select(['id', 'dialogId']).orderBy('id').execute();
    expect(messages).toEqual([
      { id: 1, dialogId: 1 },
      { id: 2, dialogId: 1 },
      { id: 3, dialogId: 1 },
      { id: 5, dialogId: 4 },
      { id: 7, dialogId: 4 },
      { id: 8, dialogId: 4 },
    ]);
    const members = await db
      .selectFrom('dialogMembers')
      .select(['dialogId', 'userId', 'readMessageId', 'clearedMessageId'])
      .orderBy('dialogId')
      .orderBy('userId')
      .execute();
    expect(members).toEqual([
      { dialogId: 1, userId: 2, readMessageId: 3, clearedMessageId: 0 },
      // Bob's own message 2 and Alice's message 1 (before his last reading); message 3 came after.
      { dialogId: 1, userId: 3, readMessageId: 2, clearedMessageId: 0 },
      { dialogId: 4, userId: 2, readMessageId: 7, clearedMessageId: 0 },
      { dialogId: 4, userId: 4, readMessageId: 8, clearedMessageId: 5 },
    ]);
    // The importer's own keys of old dialogs are gone once the messages are in.
    const keys = await db.selectFrom('legacyRedirects').select('path').where('path', 'like', 'dzq:dialog:%').execute();
    expect(keys).toEqual([]);
  });

  it("shows the messages' text over HTTP to a member signing in with the old password", async () => {
    const alice = await t.login('alice', 'alice-pass-1');
    const page = await t.get<Page<DialogMessageItem>>('/api/v3/dialog/message?dialogId=1&page=1&perPage=20', alice);
    expect(page.Code).toBe(0);
    expect(page.Data.pageData.map((m) => [m.id, m.messageText, m.isMine])).toEqual([
      [3, '还在吗？', true],
      [2, '收到:weixiao: @alice', false],
      [1, '你好 Bob，参数&设置\n第二行', true],
    ]);
    // Bob has read up to message 2: Alice's message 3 is unread for him.
    const bob = await t.login('bob', 'bob-pass-1');
    const list = await t.get<Page<DialogItem>>('/api/v3/dialog?page=1&perPage=20', bob);
    expect(list.Data.pageData.map((d) => [d.dialogId, d.unreadCount])).toEqual([[1, 1]]);
    // Carol deleted her side before messages 7 and 8: message 5 is gone for her.
    const carol = await t.login('carol', 'carol-pass-1');
    const hers = await t.get<Page<DialogMessageItem>>('/api/v3/dialog/message?dialogId=4&page=1&perPage=20', carol);
    expect(hers.Data.pageData.map((m) => m.id)).toEqual([8, 7]);
  });

  it('stores image messages as the forum does: the attachment and its address', async () => {
    const db = t.app.ctx.db;
    const rows = await db
      .selectFrom('dialogMessages')
      .innerJoin('attachments', 'attachments.id', 'dialogMessages.attachmentId')
      .select(['dialogMessages.id', 'dialogMessages.attachmentId', 'dialogMessages.imageUrl', 'attachments.fileKey'])
      .orderBy('dialogMessages.id')
      .execute();
    expect(rows.map((r) => [r.id, r.attachmentId])).toEqual([
      [7, 11],
      [8, 12],
    ]);
    for (const r of rows) expect(r.imageUrl).toBe(`/api/v3/attachments/${r.fileKey}.png`);
    const alice = await t.login('alice', 'alice-pass-1');
    const page = await t.get<Page<DialogMessageItem>>('/api/v3/dialog/message?dialogId=4&page=1&perPage=20', alice);
    expect(page.Data.pageData.find((m) => m.id === 8)?.imageUrl).toBe(rows[1]!.imageUrl);
  });

  it('brings reports (one open per target) and invitations with who came through them', async () => {
    const db = t.app.ctx.db;
    const reports = await db
      .selectFrom('reports')
      .select(['id', 'userId', 'type', 'targetId', 'threadId', 'postId', 'reportedUserId', 'status'])
      .orderBy('id')
      .execute();
    expect(reports).toEqual([
      { id: 1, userId: 3, type: 1, targetId: 1, threadId: 1, postId: null, reportedUserId: 2, status: 0 },
      { id: 2, userId: 2, type: 2, targetId: 2, threadId: 1, postId: 2, reportedUserId: 3, status: 1 },
    ]);
    expect(skipped('reports')).toEqual({ 'open report of the same target': 1, 'thread missing': 1 });
    const invites = await db.selectFrom('invites').select(['id', 'uses', 'expiresAt']).orderBy('id').execute();
    expect(invites.map((i) => [i.id, i.uses, i.expiresAt > new Date().toISOString()])).toEqual([
      [1, 0, true],
      [2, 1, false],
    ]);
    expect(await db.selectFrom('invitedUsers').select(['userId', 'inviterId', 'inviteId']).execute()).toEqual([
      { userId: 3, inviterId: 2, inviteId: 2 },
    ]);
    expect(skipped('invites')).toEqual({ 'user missing': 1 });
  });

  it('brings stop words with their action per kind, one per word without regard to case', async () => {
    const words = await t.app.ctx.db
      .selectFrom('stopWords')
      .select(['find', 'findNormalized', 'replacement', 'ugc', 'username', 'signature', 'dialog', 'nickname'])
      .orderBy('id')
      .execute();
    expect(words).toEqual([
      { find: '代开发票', findNormalized: '代开发票', replacement: '', ...all('{MOD}') },
      { find: '赌博', findNormalized: '赌博', replacement: '', ...all('{BANNED}') },
      { find: 'Silly', findNormalized: 'silly', replacement: '**', ...all('{REPLACE}') },
    ]);
    expect(skipped('stop_words')).toEqual({ 'word listed twice': 1 });
  });

  it('brings registration fields and answers, with their review state', async () => {
    const db = t.app.ctx.db;
    const fields = await db.selectFrom('signinFields').select(['id', 'name', 'type', 'fieldsExt', 'status']).execute();
    expect(fields).toEqual([
      { id: 1, name: '真实姓名', type: 0, fieldsExt: '', status: 1 },
      { id: 2, name: '题材', type: 2, fieldsExt: '{"options":[{"value":"风光"},{"value":"人像"}]}', status: 1 },
    ]);
    const answers = await db
      .selectFrom('userSigninFields')
      .select(['id', 'userId', 'fieldId', 'value', 'status', 'remark'])
      .orderBy('id')
      .execute();
    expect(answers).toEqual([
      { id: 1, userId: 2, fieldId: 1, value: '王大卫', status: 3, remark: '' },
      { id: 2, userId: 2, fieldId: 2, value: '人像', status: 2, remark: '请选别的' },
    ]);
  });

  it('keeps recent notifications only, typed as ours', async () => {
    const rows = await t.app.ctx.db
      .selectFrom('notifications')
      .select(['id', 'userId', 'type', 'category', 'title', 'content', 'fromUserId', 'readAt', 'threadId', 'postId'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      {
        id: 1,
        userId: 2,
        type: 'replied',
        category: 'thread',
        title: '',
        content: '欢迎欢迎',
        fromUserId: 3,
        readAt: null,
        threadId: 1,
        postId: 2,
      },
      {
        id: 3,
        userId: 3,
        type: 'system',
        category: 'account',
        title: '审核通过',
        content: '你的注册已通过',
        fromUserId: null,
        readAt: null,
        threadId: null,
        postId: null,
      },
    ]);
    expect(skipped('notifications')).toEqual({
      'older than 90 days': 1,
      'unknown notification type': 1,
      'user missing': 1,
    });
  });
});

function all(action: string) {
  return { ugc: action, username: action, signature: action, dialog: action, nickname: action };
}

describe('Discuz! Q import: people, resumed after a stop', () => {
  const s = useTestServer();

  it('maps messages to the merged dialog from what the stopped run left in the database', async () => {
    const file = await installDumpWith(SITE);
    const before = [...accountSteps, ...contentSteps];
    const at = peopleSteps.findIndex((step) => step.kind === 'table' && step.table === 'dialog_message');
    const stop: TableStep = {
      kind: 'table',
      table: 'dialog_message',
      key: ['id'],
      write: () => Promise.reject(new Error('killed')),
    };
    const stopped = [...before, ...peopleSteps.slice(0, at), stop];
    await expect(importInto(s, file, { steps: stopped })).rejects.toThrow('killed');
    const resumed = await importInto(s, file, { steps: [...before, ...peopleSteps, countersStep] });
    expect(resumed.resumed).toBe(true);
    const messages = await s.app.ctx.db.selectFrom('dialogMessages').select(['id', 'dialogId']).orderBy('id').execute();
    expect(messages.slice(0, 3)).toEqual([
      { id: 1, dialogId: 1 },
      { id: 2, dialogId: 1 },
      { id: 3, dialogId: 1 },
    ]);
    expect(resumed.notes).toContain('Private messages: old dialogs merged into the dialog of the same two members: 1.');
  });
});
