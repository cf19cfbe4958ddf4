import { GroupId, type PostItem, type ThreadDetail } from '@luntan/shared';
import { addUserToGroup } from '../modules/groups/index.js';
import type { TestServer } from './harness.js';

/**
 * Test factories: they go through the API, except where no API exists yet (groups, blocks). `useTestServer()`
 * (fixture.ts) binds them to its server and administrator; these forms take both as arguments.
 */

let serial = 0;

/** A few milliseconds, so that rows written before and after get different times (the lists order by time). */
export const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

export async function buildCategory(
  t: TestServer,
  admin: string,
  values: { name?: string; parentId?: number } = {},
): Promise<number> {
  serial += 1;
  const res = await t.post<{ categoryId: number }>(
    '/api/backAdmin/categories.create',
    { name: values.name ?? `分类${serial}`, ...(values.parentId ? { parentId: values.parentId } : {}) },
    admin,
  );
  if (res.Code !== 0) throw new Error(`buildCategory failed: ${res.Code} ${res.Message}`);
  return res.Data.categoryId;
}

export async function buildThread(
  t: TestServer,
  token: string,
  values: { categoryId?: number; title?: string; text?: string; draft?: boolean } = {},
): Promise<ThreadDetail> {
  serial += 1;
  const res = await t.post<ThreadDetail>(
    '/api/v3/thread.create',
    {
      categoryId: values.categoryId ?? 1,
      title: values.title ?? `Thread ${serial}`,
      content: { text: values.text ?? `Body of thread ${serial}` },
      ...(values.draft !== undefined ? { draft: values.draft } : {}),
    },
    token,
  );
  if (res.Code !== 0) throw new Error(`buildThread failed: ${res.Code} ${res.Message}`);
  return res.Data;
}

export async function buildReply(
  t: TestServer,
  token: string,
  threadId: number,
  values: { text?: string; replyId?: number; commentPostId?: number } = {},
): Promise<PostItem> {
  serial += 1;
  const { text, ...parents } = values;
  const res = await t.post<PostItem>(
    '/api/v3/posts.create',
    { id: threadId, content: text ?? `Reply ${serial}`, ...parents },
    token,
  );
  if (res.Code !== 0) throw new Error(`buildReply failed: ${res.Code} ${res.Message}`);
  return res.Data;
}

/** A new group holding `permissions`, with `members` moved into it (out of the member group). */
export async function buildGroup(
  t: TestServer,
  admin: string,
  permissions: string[],
  members: number[],
): Promise<number> {
  const db = t.server.database.db;
  const at = new Date().toISOString();
  serial += 1;
  const { id } = await db
    .insertInto('groups')
    .values({
      name: `group ${serial}`,
      type: '',
      color: '',
      icon: '',
      isDefault: 0,
      isDisplay: 0,
      isPaid: 0,
      feeCents: 0,
      days: 0,
      scale: 0,
      isSubordinate: 0,
      isCommission: 0,
      createdAt: at,
      updatedAt: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const res = await t.post('/api/permission.v2', { groupId: id, permissions }, admin);
  if (res.Code !== 0) throw new Error(`buildGroup failed: ${res.Code} ${res.Message}`);
  for (const userId of members) {
    await db.deleteFrom('groupUser').where('userId', '=', userId).where('groupId', '=', GroupId.MEMBER).execute();
    await addUserToGroup(db, userId, id);
  }
  return id;
}

/** The member group's permissions, to change them in a test and put them back afterwards. */
export async function memberPermissions(t: TestServer, admin: string): Promise<string[]> {
  const res = await t.get<{ permissions: string[] }>(
    `/api/group.resource.v2?id=${GroupId.MEMBER}&include=permission`,
    admin,
  );
  return res.Data.permissions;
}

export async function setGroupPermissions(
  t: TestServer,
  admin: string,
  groupId: number,
  permissions: string[],
): Promise<void> {
  const res = await t.post('/api/permission.v2', { groupId, permissions }, admin);
  if (res.Code !== 0) throw new Error(`setGroupPermissions failed: ${res.Code} ${res.Message}`);
}

/** `blocker` blocks `blocked` (the block API comes with the social issue). */
export async function block(t: TestServer, blocker: number, blocked: number): Promise<void> {
  await t.server.database.db
    .insertInto('userDenies')
    .values({ userId: blocker, denyUserId: blocked, createdAt: new Date().toISOString() })
    .execute();
}
