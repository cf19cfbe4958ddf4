import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** All SQL of the captcha: the used solutions, each kept until its challenge expires. */

/** Records a used solution; false when it was used before. Expired ones are swept on the way. */
export async function markSolutionUsed(db: Kysely<DB>, signature: string, expiresAt: string): Promise<boolean> {
  await db.deleteFrom('captchaUses').where('expiresAt', '<', new Date().toISOString()).execute();
  const inserted = await db
    .insertInto('captchaUses')
    .values({ signature, expiresAt })
    .onConflict((oc) => oc.column('signature').doNothing())
    .returning('signature')
    .executeTakeFirst();
  return inserted !== undefined;
}
