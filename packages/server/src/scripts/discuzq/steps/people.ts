import {
  formatMoney,
  INVITE_TTL_DAYS,
  NOTIFICATION_TYPES,
  parseStopWordLine,
  SigninFieldStatus,
  SigninFieldType,
  STOP_WORD_ACTIONS,
  STOP_WORD_REPLACEMENT_MAX,
  type NotificationType,
  type StopWordAction,
} from '@luntan/shared';
import { bumpCacheVersion } from '../../../core/cache-versions.js';
import type { Attachment } from '../../../db/schema.js';
import { presentAttachment } from '../../../modules/attachments/index.js';
import { convertDialogMessage } from '../content.js';
import type { DzqRow, DzqValue } from '../source.js';
import { inTransaction, insertChunks, type BatchContext, type FinalStep, type Step, type TableStep } from '../steps.js';
import { cents, int, json, ref, str, time, timeOr } from '../values.js';
import { attachmentKey, messageImageKey } from './content.js';

/*
 * People and messages: follows, blocks, private messages (one dialog per pair), reports, invitations, stop words,
 * registration fields and their answers, recent notifications. Runs after the accounts and content steps (it needs
 * users, groups, threads, posts and attachments) and before the counters.
 */

const DAY_MS = 86_400_000;

/** Plain text of a DZQ HTML or s9e value (notices and messages show plain text). */
const plain = (v: DzqValue | undefined): string =>
  v === null || v === undefined ? '' : convertDialogMessage(String(v), { imageUrl: () => null }).markdown;

const cut = (text: string, max: number) => {
  const chars = [...text];
  return chars.length <= max ? text : chars.slice(0, max).join('');
};

const asRecord = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

const field = (o: Record<string, unknown>, key: string): DzqValue => {
  const v = o[key];
  return typeof v === 'string' || typeof v === 'number' ? v : null;
};

// --- Follows and blocks ---------------------------------------------------------------------------------------------

/** user_follow: one row per direction (a mutual pair is two rows; is_mutual is derived from them, not kept). */
const followsStep: TableStep = {
  kind: 'table',
  table: 'user_follow',
  key: ['id'],
  async write(rows, ctx) {
    const users = await ctx.run.ids('users');
    const values = [];
    for (const r of rows) {
      const from = int(r.from_user_id);
      const to = int(r.to_user_id);
      if (!users.has(from) || !users.has(to)) ctx.skip('user missing');
      else if (from === to) ctx.skip('follows oneself');
      else values.push({ userId: from, toUserId: to, createdAt: timeOr(r.created_at, ctx.run.startedAt) });
    }
    let written = 0;
    await insertChunks(values, async (chunk) => {
      const done = await ctx.db
        .insertInto('userFollows')
        .values(chunk)
        .onConflict((oc) => oc.doNothing())
        .returning('userId')
        .execute();
      written += done.length;
    });
    ctx.wrote(written);
    if (values.length > written) ctx.skip('follow listed twice', values.length - written);
  },
};

const deniesStep: TableStep = {
  kind: 'table',
  table: 'deny_users',
  key: ['user_id', 'deny_user_id'],
  async write(rows, ctx) {
    const users = await ctx.run.ids('users');
    const values = [];
    for (const r of rows) {
      const userId = int(r.user_id);
      const denyUserId = int(r.deny_user_id);
      if (!users.has(userId) || !users.has(denyUserId)) ctx.skip('user missing');
      else if (userId === denyUserId) ctx.skip('blocks oneself');
      else values.push({ userId, denyUserId, createdAt: timeOr(r.created_at, ctx.run.startedAt) });
    }
    let written = 0;
    await insertChunks(values, async (chunk) => {
      const done = await ctx.db
        .insertInto('userDenies')
        .values(chunk)
        .onConflict((oc) => oc.doNothing())
        .returning('userId')
        .execute();
      written += done.length;
    });
    ctx.wrote(written);
    if (values.length > written) ctx.skip('block listed twice', values.length - written);
  },
};

// --- Private messages -----------------------------------------------------------------------------------------------

/**
 * What the messages step needs of an old dialog, kept in the database (legacy_redirects, under a key no request path
 * can take) so a resumed run finds it: our dialog (the pair's, when the old site had several), who sent and who
 * received, and when each read it last and deleted it. Dropped by the final dialogs step.
 */
interface OldDialog {
  dialogId: number;
  sender: number;
  recipient: number;
  senderReadAt: string | null;
  recipientReadAt: string | null;
  senderDeletedAt: string | null;
  recipientDeletedAt: string | null;
}

const DIALOG_KEY_PREFIX = 'dzq:dialog:';
const dialogKey = (oldId: number) => `${DIALOG_KEY_PREFIX}${oldId}`;

const dialogsStep: TableStep = {
  kind: 'table',
  table: 'dialog',
  key: ['id'],
  async write(rows, ctx) {
    const [users, ids] = await Promise.all([ctx.run.ids('users'), ctx.run.ids('dialogs')]);
    // The pairs of this batch that already have a dialog (an earlier batch's, or a run before a restart).
    const pairOf = (low: number, high: number) => `${low}:${high}`;
    const byPair = new Map<string, number>();
    const lows = [...new Set(rows.map((r) => Math.min(int(r.sender_user_id), int(r.recipient_user_id))))];
    for (let i = 0; i < lows.length; i += 500) {
      const found = await ctx.db
        .selectFrom('dialogs')
        .select(['id', 'lowUserId', 'highUserId'])
        .where('lowUserId', 'in', lows.slice(i, i + 500))
        .execute();
      for (const d of found) byPair.set(pairOf(d.lowUserId, d.highUserId), d.id);
    }
    const keys: { path: string; target: string }[] = [];
    for (const r of rows) {
      const oldId = int(r.id);
      const sender = int(r.sender_user_id);
      const recipient = int(r.recipient_user_id);
      if (!users.has(sender) || !users.has(recipient)) {
        ctx.skip('user missing');
        continue;
      }
      if (sender === recipient) {
        ctx.skip('dialog with oneself');
        continue;
      }
      const low = Math.min(sender, recipient);
      const high = Math.max(sender, recipient);
      const created = timeOr(r.created_at, ctx.run.startedAt);
      const updated = timeOr(r.updated_at, created);
      let dialogId = byPair.get(pairOf(low, high));
      if (dialogId === undefined) {
        dialogId = oldId;
        await ctx.db
          .insertInto('dialogs')
          .values({
            id: oldId,
            lowUserId: low,
            highUserId: high,
            lastMessageId: null,
            createdAt: created,
            updatedAt: updated,
          })
          .execute();
        await ctx.db
          .insertInto('dialogMembers')
          .values([
            { dialogId: oldId, userId: low, updatedAt: updated },
            { dialogId: oldId, userId: high, updatedAt: updated },
          ])
          .execute();
        byPair.set(pairOf(low, high), oldId);
        ids.add(oldId);
      } else {
        // A second dialog of the same pair (the old site made one per sender at times): its messages join the first.
        await ctx.db
          .updateTable('dialogs')
          .set({ createdAt: created })
          .where('id', '=', dialogId)
          .where('createdAt', '>', created)
          .execute();
      }
      const old: OldDialog = {
        dialogId,
        sender,
        recipient,
        senderReadAt: time(r.sender_read_at),
        recipientReadAt: time(r.recipient_read_at),
        senderDeletedAt: time(r.sender_deleted_at),
        recipientDeletedAt: time(r.recipient_deleted_at),
      };
      keys.push({ path: dialogKey(oldId), target: JSON.stringify(old) });
      ctx.wrote();
    }
    await insertChunks(keys, (chunk) =>
      ctx.db
        .insertInto('legacyRedirects')
        .values(chunk)
        .onConflict((oc) => oc.column('path').doUpdateSet((eb) => ({ target: eb.ref('excluded.target') })))
        .execute(),
    );
  },
};

/** Reads the legacy_redirects rows of these keys as a map of path to target. */
async function readKeys(ctx: BatchContext, paths: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < paths.length; i += 500) {
    const found = await ctx.db
      .selectFrom('legacyRedirects')
      .select(['path', 'target'])
      .where('path', 'in', paths.slice(i, i + 500))
      .execute();
    for (const f of found) out.set(f.path, f.target);
  }
  return out;
}

const OUR_ATTACHMENT_URL = /^\/api\/v3\/attachments\/([A-Za-z0-9_-]{16,64})\.[a-z0-9]+$/;

/** The old site's file address as the attachments step keyed it (/storage/attachments/…), or null. */
function storagePath(url: string): string | null {
  try {
    const { pathname } = new URL(url, 'http://old.site');
    return pathname.startsWith('/storage/') ? decodeURIComponent(pathname).slice(0, 500) : null;
  } catch {
    return null;
  }
}

interface MessageImage {
  attachmentId: number | null;
  imageUrl: string;
}

/**
 * The images of a batch of messages, as modules/dialogs stores an image message (attachment_id and its URL): by
 * attachment_id, by the type-4 attachment that names the message, or by the old address in the message's JSON
 * (the attachments step keyed every copied file's old address). A file kept remote (COS) keeps its address.
 */
async function messageImages(ctx: BatchContext, rows: DzqRow[], urls: string[]): Promise<Map<number, MessageImage>> {
  const attachmentIds = await ctx.run.ids('attachments');
  const typed = await readKeys(
    ctx,
    rows.map((r) => messageImageKey(int(r.id))),
  );
  const wanted = new Map<number, number | string>();
  for (const [i, r] of rows.entries()) {
    const id = int(r.id);
    const byTypeId = typed.get(messageImageKey(id));
    const attachment = ref(r.attachment_id) ?? (byTypeId !== undefined ? ref(byTypeId) : null);
    if (attachment !== null) wanted.set(id, attachment);
    else if (urls[i]) wanted.set(id, urls[i]!);
  }
  // An attachment by its id's key, an old address by its path: both were written by the attachments step.
  const keyOf = (w: number | string) => (typeof w === 'number' ? attachmentKey(w) : (storagePath(w) ?? ''));
  const keys = await readKeys(ctx, [...wanted.values()].map(keyOf));
  const fileKeys = new Set<string>();
  const localIds = new Set<number>();
  for (const w of wanted.values()) {
    if (typeof w === 'number' && attachmentIds.has(w)) localIds.add(w);
    else {
      const target = keys.get(keyOf(w));
      const match = target ? OUR_ATTACHMENT_URL.exec(target) : null;
      if (match) fileKeys.add(match[1]!);
    }
  }
  const found: Attachment[] = [];
  if (localIds.size > 0) {
    found.push(
      ...(await ctx.db
        .selectFrom('attachments')
        .selectAll()
        .where('id', 'in', [...localIds])
        .execute()),
    );
  }
  if (fileKeys.size > 0) {
    found.push(
      ...(await ctx.db
        .selectFrom('attachments')
        .selectAll()
        .where('fileKey', 'in', [...fileKeys])
        .execute()),
    );
  }
  const byId = new Map(found.map((a) => [a.id, a]));
  const byKey = new Map(found.map((a) => [a.fileKey, a]));
  const out = new Map<number, MessageImage>();
  for (const [messageId, w] of wanted) {
    let attachment = typeof w === 'number' ? byId.get(w) : undefined;
    const target = keys.get(keyOf(w));
    if (!attachment && target) {
      const match = OUR_ATTACHMENT_URL.exec(target);
      if (match) attachment = byKey.get(match[1]!);
    }
    if (attachment) out.set(messageId, { attachmentId: attachment.id, imageUrl: presentAttachment(attachment).url });
    else if (target && /^https?:\/\//.test(target)) out.set(messageId, { attachmentId: null, imageUrl: target });
  }
  return out;
}

const messagesStep: TableStep = {
  kind: 'table',
  table: 'dialog_message',
  key: ['id'],
  async write(rows, ctx) {
    const [users, ids] = await Promise.all([ctx.run.ids('users'), ctx.run.ids('dialogMessages')]);
    const olds = await readKeys(ctx, [...new Set(rows.map((r) => dialogKey(int(r.dialog_id))))]);
    const converted = rows.map((r) => convertDialogMessage(str(r.message_text), { imageUrl: () => null }));
    const images = await messageImages(
      ctx,
      rows,
      converted.map((c) => c.imageUrl),
    );
    const values = [];
    // Per member of a dialog: the newest message they had read, and the newest they had deleted.
    const read = new Map<string, number>();
    const cleared = new Map<string, number>();
    const raise = (marks: Map<string, number>, dialogId: number, userId: number, id: number) => {
      const key = `${dialogId}:${userId}`;
      if ((marks.get(key) ?? 0) < id) marks.set(key, id);
    };
    for (const [i, r] of rows.entries()) {
      const id = int(r.id);
      const target = olds.get(dialogKey(int(r.dialog_id)));
      if (!target) {
        ctx.skip('dialog missing');
        continue;
      }
      const old = JSON.parse(target) as OldDialog;
      const userId = int(r.user_id);
      if (!users.has(userId)) {
        ctx.skip('user missing');
        continue;
      }
      if (userId !== old.sender && userId !== old.recipient) {
        ctx.skip('sender not in the dialog');
        continue;
      }
      const image = images.get(id);
      let imageUrl = image?.imageUrl ?? '';
      // The old address when nothing of ours holds the picture: it shows while the old site (or its CDN) does.
      if (imageUrl === '' && converted[i]!.imageUrl !== '') imageUrl = converted[i]!.imageUrl;
      const text = converted[i]!.markdown;
      if (text === '' && imageUrl === '') {
        ctx.skip('empty message');
        continue;
      }
      const created = timeOr(r.created_at, ctx.run.startedAt);
      values.push({
        id,
        dialogId: old.dialogId,
        userId,
        messageText: text,
        imageUrl,
        attachmentId: image?.attachmentId ?? null,
        isApproved: 1,
        createdAt: created,
      });
      for (const [member, readAt, deletedAt] of [
        [old.sender, old.senderReadAt, old.senderDeletedAt],
        [old.recipient, old.recipientReadAt, old.recipientDeletedAt],
      ] as const) {
        // One's own message is read; the other's is when it came before their last reading (or their deleting).
        if (member === userId || (readAt !== null && created <= readAt)) raise(read, old.dialogId, member, id);
        if (deletedAt !== null && created <= deletedAt) {
          raise(cleared, old.dialogId, member, id);
          raise(read, old.dialogId, member, id);
        }
      }
    }
    await insertChunks(values, (chunk) => ctx.db.insertInto('dialogMessages').values(chunk).execute());
    for (const [marks, column] of [
      [read, 'readMessageId'],
      [cleared, 'clearedMessageId'],
    ] as const) {
      for (const [key, messageId] of marks) {
        const [dialogId, userId] = key.split(':').map(Number) as [number, number];
        await ctx.db
          .updateTable('dialogMembers')
          .set({ [column]: messageId })
          .where('dialogId', '=', dialogId)
          .where('userId', '=', userId)
          .where(column, '<', messageId)
          .execute();
      }
    }
    for (const v of values) ids.add(v.id);
    ctx.wrote(values.length);
  },
};

/** Each dialog's last message and time, once all messages are in; the old dialogs' keys are dropped. */
const dialogsFinal: FinalStep = {
  kind: 'final',
  name: 'dialogs',
  async run(db, run) {
    let merged = 0;
    await inTransaction(db, async (trx) => {
      const keys = await trx
        .selectFrom('legacyRedirects')
        .select(['path', 'target'])
        .where('path', 'like', `${DIALOG_KEY_PREFIX}%`)
        .execute();
      for (const k of keys) {
        if ((JSON.parse(k.target) as OldDialog).dialogId !== Number(k.path.slice(DIALOG_KEY_PREFIX.length)))
          merged += 1;
      }
      await trx
        .updateTable('dialogs')
        .set((eb) => ({
          lastMessageId: eb
            .selectFrom('dialogMessages')
            .select((m) => m.fn.max('dialogMessages.id').as('m'))
            .whereRef('dialogMessages.dialogId', '=', 'dialogs.id')
            .where('dialogMessages.isApproved', '=', 1),
          updatedAt: eb.fn.coalesce(
            eb
              .selectFrom('dialogMessages')
              .select((m) => m.fn.max('dialogMessages.createdAt').as('c'))
              .whereRef('dialogMessages.dialogId', '=', 'dialogs.id'),
            eb.ref('dialogs.updatedAt'),
          ),
        }))
        .execute();
      await trx.deleteFrom('legacyRedirects').where('path', 'like', `${DIALOG_KEY_PREFIX}%`).execute();
    });
    if (merged > 0)
      run.note(`Private messages: old dialogs merged into the dialog of the same two members: ${merged}.`);
  },
};

// --- Reports ---------------------------------------------------------------------------------------------------------

const reportsStep: TableStep = {
  kind: 'table',
  table: 'reports',
  key: ['id'],
  optional: true,
  async write(rows, ctx) {
    const [users, threads, posts] = await Promise.all([
      ctx.run.ids('users'),
      ctx.run.ids('threads'),
      ctx.run.ids('posts'),
    ]);
    const threadIds = rows.map((r) => int(r.thread_id)).filter((id) => threads.has(id));
    const postIds = rows.map((r) => int(r.post_id)).filter((id) => posts.has(id));
    const threadAuthor = new Map<number, number>();
    const post = new Map<number, { userId: number; threadId: number }>();
    if (threadIds.length > 0) {
      const found = await ctx.db.selectFrom('threads').select(['id', 'userId']).where('id', 'in', threadIds).execute();
      for (const t of found) threadAuthor.set(t.id, t.userId);
    }
    if (postIds.length > 0) {
      const found = await ctx.db
        .selectFrom('posts')
        .select(['id', 'userId', 'threadId'])
        .where('id', 'in', postIds)
        .execute();
      for (const p of found) post.set(p.id, p);
    }
    let written = 0;
    for (const r of rows) {
      const userId = int(r.user_id);
      const type = int(r.type);
      const threadId = int(r.thread_id);
      if (!users.has(userId)) {
        ctx.skip('user missing');
        continue;
      }
      let target: { targetId: number; threadId: number | null; postId: number | null; reportedUserId: number };
      const author = threadAuthor.get(threadId);
      if (type === 2) {
        const p = post.get(int(r.post_id));
        if (!p) {
          ctx.skip('post missing');
          continue;
        }
        target = { targetId: int(r.post_id), threadId: p.threadId, postId: int(r.post_id), reportedUserId: p.userId };
      } else if (type === 1 || type === 0) {
        if (author === undefined) {
          ctx.skip('thread missing');
          continue;
        }
        // A report from a member's page (type 0) names the thread it was made beside: its author is the one reported.
        target =
          type === 1
            ? { targetId: threadId, threadId, postId: null, reportedUserId: author }
            : { targetId: author, threadId: null, postId: null, reportedUserId: author };
      } else {
        ctx.skip('unknown report type');
        continue;
      }
      const status = int(r.status) === 1 ? 1 : 0;
      const created = timeOr(r.created_at, ctx.run.startedAt);
      const done = await ctx.db
        .insertInto('reports')
        .values({
          id: int(r.id),
          userId,
          type,
          ...target,
          reason: cut(str(r.reason).trim(), 255),
          status,
          handlerId: null,
          handledAt: status === 1 ? timeOr(r.updated_at, created) : null,
          createdAt: created,
        })
        // One open report per reporter and target: a second open one is dropped.
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .execute();
      if (done.length === 0) ctx.skip('open report of the same target');
      else written += 1;
    }
    ctx.wrote(written);
  },
};

// --- Invitations -----------------------------------------------------------------------------------------------------

/** DZQ invites.status: 0 void, 1 unused, 2 used, 3 expired. */
const INVITE_UNUSED = 1;
const INVITE_USED = 2;

const unixTime = (v: DzqValue | undefined): string | null => {
  const n = int(v);
  return n > 0 ? new Date(n * 1000).toISOString() : null;
};

const invitesStep: TableStep = {
  kind: 'table',
  table: 'invites',
  key: ['id'],
  optional: true,
  async write(rows, ctx) {
    const [users, groups] = await Promise.all([ctx.run.ids('users'), ctx.run.ids('groups')]);
    const invites = [];
    const invited = [];
    for (const r of rows) {
      const id = int(r.id);
      const userId = int(r.user_id);
      const groupId = int(r.group_id);
      const code = str(r.code).trim();
      if (!users.has(userId)) {
        ctx.skip('user missing');
        continue;
      }
      if (!groups.has(groupId)) {
        ctx.skip('group missing');
        continue;
      }
      if (!/^[A-Za-z0-9]{16,64}$/.test(code)) {
        ctx.skip('code not valid');
        continue;
      }
      const status = int(r.status);
      const created = timeOr(r.created_at, ctx.run.startedAt);
      const changed = timeOr(r.updated_at, created);
      const end = unixTime(r.endtime) ?? new Date(Date.parse(created) + INVITE_TTL_DAYS * DAY_MS).toISOString();
      // A code the old site no longer took (used once, voided, expired) ends when it stopped working.
      const expiresAt = status === INVITE_UNUSED ? end : end < changed ? end : changed;
      const toUserId = ref(r.to_user_id);
      const used = status === INVITE_USED && toUserId !== null && users.has(toUserId);
      invites.push({ id, code, userId, groupId, uses: used ? 1 : 0, createdAt: created, expiresAt });
      if (used) invited.push({ userId: toUserId, inviterId: userId, inviteId: id, groupId, createdAt: changed });
    }
    await insertChunks(invites, (chunk) =>
      ctx.db
        .insertInto('invites')
        .values(chunk)
        .onConflict((oc) => oc.doNothing())
        .execute(),
    );
    await insertChunks(invited, (chunk) =>
      ctx.db
        .insertInto('invitedUsers')
        .values(chunk)
        .onConflict((oc) => oc.doNothing())
        .execute(),
    );
    ctx.wrote(invites.length);
  },
};

// --- Stop words ------------------------------------------------------------------------------------------------------

const ACTIONS = new Map<string, StopWordAction>(STOP_WORD_ACTIONS.map((a) => [a.toLowerCase(), a]));
const action = (v: DzqValue | undefined): StopWordAction => ACTIONS.get(str(v).trim().toLowerCase()) ?? '{IGNORE}';

/** Lower-cased per character, as the stop-words module folds a word (so words unique without case stay so). */
function foldCase(text: string): string {
  let out = '';
  for (const ch of text) {
    const l = ch.toLowerCase();
    out += l.length === ch.length ? l : ch;
  }
  return out;
}

const stopWordsStep: TableStep = {
  kind: 'table',
  table: 'stop_words',
  key: ['id'],
  async write(rows, ctx) {
    const users = await ctx.run.ids('users');
    let written = 0;
    for (const r of rows) {
      const find = str(r.find).trim();
      // The word checked as a batch line would be ('=' stands for itself in a stored word, not for the actions).
      const checked = parseStopWordLine(`${find.replace(/=/g, '_')}={IGNORE}`);
      if (checked === null || !('find' in checked)) {
        ctx.skip('word not valid');
        continue;
      }
      const userId = ref(r.user_id);
      const created = timeOr(r.created_at, ctx.run.startedAt);
      const done = await ctx.db
        .insertInto('stopWords')
        .values({
          id: int(r.id),
          find,
          findNormalized: foldCase(find),
          replacement: cut(str(r.replacement), STOP_WORD_REPLACEMENT_MAX),
          ugc: action(r.ugc),
          username: action(r.username),
          signature: action(r.signature),
          dialog: action(r.dialog),
          nickname: action(r.nickname),
          userId: userId !== null && users.has(userId) ? userId : null,
          createdAt: created,
          updatedAt: timeOr(r.updated_at, created),
        })
        .onConflict((oc) => oc.column('findNormalized').doNothing())
        .returning('id')
        .execute();
      if (done.length === 0) ctx.skip('word listed twice');
      else written += 1;
    }
    // The running forum's matchers read the words again.
    if (written > 0) await bumpCacheVersion(ctx.db, 'stopWords');
    ctx.wrote(written);
  },
};

// --- Registration fields ---------------------------------------------------------------------------------------------

/** A field's options as ours ({options:[{value}]}); '' for fields that have none. */
function optionsOf(ext: DzqValue | undefined): { values: string[]; checked: string[]; text: string } {
  const parsed = asRecord(json(ext));
  const list = Array.isArray(parsed.options) ? parsed.options : [];
  const values: string[] = [];
  const checked: string[] = [];
  for (const o of list) {
    const option = asRecord(o);
    const value = str(field(option, 'value')).trim();
    if (value === '' || values.includes(value)) continue;
    values.push(cut(value, 100));
    if (option.checked === true) checked.push(cut(value, 100));
  }
  return {
    values,
    checked,
    text: values.length > 0 ? JSON.stringify({ options: values.map((value) => ({ value })) }) : '',
  };
}

const FIELD_DELETED = 0;

const signinFieldsStep: TableStep = {
  kind: 'table',
  table: 'admin_sign_in_fields',
  key: ['id'],
  optional: true,
  async write(rows, ctx) {
    const values = [];
    for (const r of rows) {
      const status = int(r.status);
      if (status === FIELD_DELETED) {
        ctx.skip('field deleted');
        continue;
      }
      const type = int(r.type);
      if (type < SigninFieldType.TEXT || type > SigninFieldType.ATTACHMENT) {
        ctx.skip('unknown field type');
        continue;
      }
      const created = timeOr(r.created_at, ctx.run.startedAt);
      const isChoice = type === SigninFieldType.RADIO || type === SigninFieldType.CHECKBOX;
      values.push({
        id: int(r.id),
        name: cut(str(r.name).trim(), 50),
        type,
        fieldsExt: isChoice ? optionsOf(r.fields_ext).text : '',
        fieldsDesc: str(r.fields_desc),
        remark: '',
        sort: int(r.sort),
        status: status === SigninFieldStatus.ON ? SigninFieldStatus.ON : SigninFieldStatus.OFF,
        required: int(r.required) === 1 ? 1 : 0,
        createdAt: created,
        updatedAt: timeOr(r.updated_at, created),
      });
    }
    await insertChunks(values, (chunk) => ctx.db.insertInto('signinFields').values(chunk).execute());
    ctx.wrote(values.length);
  },
};

/** An answer as our user_signin_fields.value: text, the chosen option, a JSON list of chosen options, or an address. */
function answerOf(type: number, ext: DzqValue | undefined): string {
  if (type === SigninFieldType.RADIO) return optionsOf(ext).checked[0] ?? '';
  if (type === SigninFieldType.CHECKBOX) {
    const { checked } = optionsOf(ext);
    return checked.length > 0 ? JSON.stringify(checked) : '';
  }
  if (type === SigninFieldType.IMAGE || type === SigninFieldType.ATTACHMENT) {
    // An upload answer is its address, alone or in the uploader's JSON ([{url: …}]).
    const parsed = json(ext);
    const first: unknown = Array.isArray(parsed) ? parsed[0] : parsed;
    const url = first !== null && typeof first === 'object' ? str(field(asRecord(first), 'url')) : str(ext);
    return /^(\/|https?:\/\/)\S{1,500}$/.test(url.trim()) ? url.trim() : '';
  }
  return str(ext).trim();
}

const userSigninFieldsStep: TableStep = {
  kind: 'table',
  table: 'user_sign_in_fields',
  key: ['id'],
  optional: true,
  async write(rows, ctx) {
    const users = await ctx.run.ids('users');
    // The old answer copies its field (name, type, options) instead of naming it: it is matched by name and type.
    const fields = await ctx.db
      .selectFrom('signinFields')
      .select(['id', 'name', 'type', 'fieldsExt'])
      .orderBy('id')
      .execute();
    const fieldOf = new Map<string, (typeof fields)[number]>();
    for (const f of fields) if (!fieldOf.has(`${f.type}:${f.name}`)) fieldOf.set(`${f.type}:${f.name}`, f);
    const values = [];
    for (const r of rows) {
      const userId = int(r.user_id);
      if (!users.has(userId)) {
        ctx.skip('user missing');
        continue;
      }
      const type = int(r.type);
      const f = fieldOf.get(`${type}:${cut(str(r.name).trim(), 50)}`);
      if (!f) {
        ctx.skip('field missing');
        continue;
      }
      const value = answerOf(type, r.fields_ext);
      if (value === '') {
        ctx.skip('empty answer');
        continue;
      }
      const status = int(r.status);
      const created = timeOr(r.created_at, ctx.run.startedAt);
      values.push({
        id: int(r.id),
        userId,
        fieldId: f.id,
        name: f.name,
        type,
        fieldsExt: f.fieldsExt,
        value,
        status: status >= 0 && status <= 3 ? status : 0,
        remark: cut(str(r.remark), 200),
        createdAt: created,
        updatedAt: timeOr(r.updated_at, created),
      });
    }
    await insertChunks(values, (chunk) => ctx.db.insertInto('userSigninFields').values(chunk).execute());
    ctx.wrote(values.length);
  },
};

// --- Notifications ---------------------------------------------------------------------------------------------------

const isNotificationType = (s: string): s is NotificationType => Object.hasOwn(NOTIFICATION_TYPES, s);

/** 'replied', or Laravel's class name 'App\Notifications\Replied': our type names are the family's. */
const notificationType = (v: DzqValue | undefined): string => str(v).replace(/^.*\\/, '').trim().toLowerCase();

/** What a notice is about, as our live notices key it (so a later edit of the post does not tell it again). */
function subjectKeyOf(type: NotificationType, postId: number | null): string | null {
  if (postId === null) return null;
  if (type === 'replied') return `replied:post:${postId}`;
  if (type === 'related') return `related:post:${postId}`;
  if (type === 'liked') return `liked:post:${postId}`;
  return null;
}

const notificationsStep: TableStep = {
  kind: 'table',
  table: 'notifications',
  key: ['id'],
  optional: true,
  async write(rows, ctx) {
    const [users, threads, posts] = await Promise.all([
      ctx.run.ids('users'),
      ctx.run.ids('threads'),
      ctx.run.ids('posts'),
    ]);
    const days = ctx.run.options.notificationDays;
    const since = new Date(Date.parse(ctx.run.startedAt) - days * DAY_MS).toISOString();
    const known = (set: Set<number>, v: DzqValue) => {
      const n = ref(v);
      return n !== null && set.has(n) ? n : null;
    };
    const values = [];
    for (const r of rows) {
      const created = timeOr(r.created_at, ctx.run.startedAt);
      if (created < since) {
        ctx.skip(`older than ${days} days`);
        continue;
      }
      const userId = int(r.notifiable_id);
      if (!users.has(userId)) {
        ctx.skip('user missing');
        continue;
      }
      const type = notificationType(r.type);
      if (!isNotificationType(type)) {
        ctx.skip('unknown notification type');
        continue;
      }
      const data = asRecord(json(r.data));
      const raw = asRecord(data.raw);
      const system = type === 'system';
      const threadId = known(threads, field(data, 'thread_id') ?? field(raw, 'thread_id'));
      const postId = known(posts, field(data, 'post_id') ?? field(raw, 'post_id'));
      const fromUserId = system ? null : known(users, field(data, 'user_id'));
      const title = system ? plain(field(data, 'title')) : plain(field(data, 'thread_title'));
      let content = plain(
        field(data, 'content') ?? field(data, 'post_content') ?? field(data, 'answer_content') ?? field(data, 'remark'),
      );
      // A money notice says how much (the amount in yuan, as the family's list showed it).
      const amount = field(data, 'amount') ?? field(data, 'cash_apply_amount');
      if (NOTIFICATION_TYPES[type] === 'financial' && amount !== null) {
        content = `${formatMoney(cents(amount))}${content === '' ? '' : ` ${content}`}`;
      }
      const id = int(r.id);
      values.push({
        ...(id > 0 ? { id } : {}),
        userId,
        type,
        category: NOTIFICATION_TYPES[type],
        title: cut(title, 255),
        content,
        data:
          type === 'liked' && fromUserId !== null ? JSON.stringify({ actorIds: [fromUserId], actorCount: 1 }) : '{}',
        readAt: time(r.read_at),
        createdAt: created,
        threadId,
        postId,
        replyPostId: known(posts, field(data, 'reply_post_id')),
        fromUserId,
        subjectKey: subjectKeyOf(type, postId),
      });
    }
    await insertChunks(values, (chunk) => ctx.db.insertInto('notifications').values(chunk).execute());
    ctx.wrote(values.length);
  },
};

/** Run after contentSteps (users, groups, threads, posts, attachments are in) and before the counters. */
export const peopleSteps: Step[] = [
  followsStep,
  deniesStep,
  dialogsStep,
  messagesStep,
  dialogsFinal,
  reportsStep,
  invitesStep,
  stopWordsStep,
  signinFieldsStep,
  userSigninFieldsStep,
  notificationsStep,
];
