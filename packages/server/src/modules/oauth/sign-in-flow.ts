import type { OauthError } from '@luntan/shared';
import type { Insertable, Kysely } from 'kysely';
import { inMs, now } from '../../core/time.js';
import type { DB, OauthStatesTable } from '../../db/schema.js';
import { insertState, takeState } from './oauth.repository.js';

/** What a browser sign-in with another service keeps between leaving the site and coming back (OIDC and WeChat). */

/** A sign-in must come back within ten minutes. */
export const STATE_TTL_MS = 10 * 60_000;

/** A refusal that ends a sign-in on the login page (or /my) with a written reason the page translates. */
export class OauthFlowError extends Error {
  constructor(
    readonly reason: OauthError,
    readonly to: 'login' | 'my' = 'login',
  ) {
    super(reason);
    this.name = 'OauthFlowError';
  }
}

export async function saveSignInState(
  db: Kysely<DB>,
  values: Omit<Insertable<OauthStatesTable>, 'expiresAt'>,
): Promise<void> {
  await insertState(db, { ...values, expiresAt: inMs(STATE_TTL_MS) }, now());
}

/** The state's row, once (it is deleted as it is read), or undefined when unknown, expired or of another kind. */
export const takeSignInState = (db: Kysely<DB>, state: string, kind: 'oidc' | 'wechat') =>
  takeState(db, state, kind, now());
