import type { Insertable, Kysely } from 'kysely';
import type { DB, InvitesTable } from '../../db/schema.js';

/** All SQL of invitations: the links, and who joined through whose. */

export async function insertInvite(db: Kysely<DB>, values: Insertable<InvitesTable>): Promise<number> {
  const row = await db.insertInto('invites').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function findInviteByCode(db: Kysely<DB>, code: string) {
  return db
    .selectFrom('invites')
    .innerJoin('users', 'users.id', 'invites.userId')
    .innerJoin('groups', 'groups.id', 'invites.groupId')
    .select([
      'invites.id',
      'invites.code',
      'invites.userId',
      'invites.groupId',
      'invites.expiresAt',
      'groups.name as groupName',
      'users.nickname as inviterNickname',
      'users.avatar as inviterAvatar',
    ])
    .where('invites.code', '=', code)
    .executeTakeFirst();
}

/** A newcomer joined through an invitation: counted on the link and remembered with the inviter. */
export async function recordInvitedUser(
  db: Kysely<DB>,
  invite: { id: number; userId: number; groupId: number },
  userId: number,
  at: string,
): Promise<void> {
  await db
    .updateTable('invites')
    .set((eb) => ({ uses: eb('uses', '+', 1) }))
    .where('id', '=', invite.id)
    .execute();
  await db
    .insertInto('invitedUsers')
    .values({ userId, inviterId: invite.userId, inviteId: invite.id, groupId: invite.groupId, createdAt: at })
    .execute();
}

export async function countInvitedUsers(db: Kysely<DB>, inviterId: number): Promise<number> {
  const row = await db
    .selectFrom('invitedUsers')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('inviterId', '=', inviterId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function listInvitedUsers(db: Kysely<DB>, inviterId: number, offset: number, limit: number) {
  return db
    .selectFrom('invitedUsers')
    .innerJoin('users', 'users.id', 'invitedUsers.userId')
    .leftJoin('groups', 'groups.id', 'invitedUsers.groupId')
    .select([
      'users.id',
      'users.username',
      'users.nickname',
      'users.avatar',
      'invitedUsers.groupId',
      'groups.name as groupName',
      'invitedUsers.createdAt',
    ])
    .where('invitedUsers.inviterId', '=', inviterId)
    .orderBy('invitedUsers.createdAt', 'desc')
    .orderBy('users.id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
}
