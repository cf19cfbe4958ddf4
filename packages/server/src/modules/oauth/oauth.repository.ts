import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB, OauthProvidersTable, OauthStatesTable, UserIdentitiesTable } from '../../db/schema.js';

// Providers

export function listProviders(db: Kysely<DB>, enabledOnly: boolean) {
  let q = db.selectFrom('oauthProviders').selectAll();
  if (enabledOnly) q = q.where('enabled', '=', 1);
  return q.orderBy('sort').orderBy('id').execute();
}

export function findProviderById(db: Kysely<DB>, id: number) {
  return db.selectFrom('oauthProviders').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findProviderBySlug(db: Kysely<DB>, slug: string) {
  return db.selectFrom('oauthProviders').selectAll().where('slug', '=', slug).executeTakeFirst();
}

export async function insertProvider(db: Kysely<DB>, values: Insertable<OauthProvidersTable>): Promise<number> {
  const row = await db.insertInto('oauthProviders').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateProvider(db: Kysely<DB>, id: number, changes: Updateable<OauthProvidersTable>) {
  await db.updateTable('oauthProviders').set(changes).where('id', '=', id).execute();
}

export async function deleteProvider(db: Kysely<DB>, id: number): Promise<void> {
  await db.deleteFrom('oauthProviders').where('id', '=', id).execute();
}

/** Linked accounts per provider (OpenID Connect only). */
export async function countIdentitiesByProvider(db: Kysely<DB>): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('userIdentities')
    .select(['providerId', db.fn.countAll<number>().as('n')])
    .where('kind', '=', 'oidc')
    .groupBy('providerId')
    .execute();
  return new Map(rows.map((r) => [r.providerId, Number(r.n)]));
}

// Identities

export function findIdentity(db: Kysely<DB>, kind: string, providerId: number, subject: string) {
  return db
    .selectFrom('userIdentities')
    .selectAll()
    .where('kind', '=', kind)
    .where('providerId', '=', providerId)
    .where('subject', '=', subject)
    .executeTakeFirst();
}

export function identitiesOfUser(db: Kysely<DB>, userId: number) {
  return db.selectFrom('userIdentities').selectAll().where('userId', '=', userId).orderBy('id').execute();
}

export async function insertIdentity(db: Kysely<DB>, values: Insertable<UserIdentitiesTable>): Promise<void> {
  await db.insertInto('userIdentities').values(values).execute();
}

export async function deleteIdentity(db: Kysely<DB>, userId: number, kind: string, providerId: number) {
  const res = await db
    .deleteFrom('userIdentities')
    .where('userId', '=', userId)
    .where('kind', '=', kind)
    .where('providerId', '=', providerId)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

// Sign-ins under way

export async function insertState(db: Kysely<DB>, values: Insertable<OauthStatesTable>, at: string): Promise<void> {
  // Abandoned sign-ins leave rows behind: each new one sweeps the expired.
  await db.deleteFrom('oauthStates').where('expiresAt', '<', at).execute();
  await db.insertInto('oauthStates').values(values).execute();
}

/** Takes a state once: it is deleted as it is read, so a callback cannot be replayed. */
export async function takeState(db: Kysely<DB>, state: string, kind: string, at: string) {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('oauthStates').selectAll().where('state', '=', state).executeTakeFirst();
    if (!row) return undefined;
    const res = await trx.deleteFrom('oauthStates').where('state', '=', state).executeTakeFirst();
    if (Number(res.numDeletedRows) === 0 || row.kind !== kind || row.expiresAt < at) return undefined;
    return row;
  });
}
