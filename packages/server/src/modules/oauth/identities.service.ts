import { Code, OAUTH_ERRORS, type OauthError } from '@luntan/shared';
import type { Kysely } from 'kysely';
import { AppError, notFound } from '../../core/errors.js';
import { now } from '../../core/time.js';
import type { DB, User } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/errors.js';
import { registerExternal, type ClientInfo } from '../auth/index.js';
import { isSiteClosed, siteClosedError } from '../settings/index.js';
import type { StopWordCache } from '../stop-words/index.js';
import { findUserById } from '../users/index.js';
import { insertGeneratedPassword, stillGeneratedPassword } from '../users/index.js';
import { deleteIdentity, findIdentity, identitiesOfUser, insertIdentity } from './oauth.repository.js';
import { msg } from '../../i18n/index.js';

/**
 * Identities from other services (OpenID Connect providers and WeChat) and the accounts they sign in to: the part
 * both adapters share.
 */

export type IdentityKind = 'oidc' | 'wechat';

export interface OutsideIdentity {
  kind: IdentityKind;
  /** oauth_providers.id; 0 for WeChat. */
  providerId: number;
  subject: string;
  email: string;
  displayName: string;
  /** Names to make a username from, best first (preferred_username, name, the e-mail's local part). */
  usernameHints: string[];
}

const reasonError = (code: (typeof Code)[keyof typeof Code], reason: OauthError, zh: string, en: string) =>
  new AppError(code, { zh, en }, { data: { reason } });

export const linkedElsewhere = () =>
  reasonError(
    Code.RESOURCE_EXIST,
    'linkedElsewhere',
    '这个第三方账号已经关联了另一个用户',
    'This account of the other service is linked to another user',
  );

export const alreadyLinked = () =>
  reasonError(
    Code.RESOURCE_EXIST,
    'alreadyLinked',
    '你的账号已经关联了这个服务的另一个账号，请先解除关联',
    'Your account is already linked to another account of this service: unlink it first',
  );

/**
 * The account an identity signs in to: the one it is linked to, else a new one (first sign-in), which follows the
 * site's rules for new accounts. While the site is closed no account is made (only administrators may sign in).
 */
export async function accountForIdentity(
  db: Kysely<DB>,
  stopWords: StopWordCache,
  identity: OutsideIdentity,
  client: ClientInfo,
): Promise<{ user: User; created: boolean }> {
  const linked = await findIdentity(db, identity.kind, identity.providerId, identity.subject);
  if (linked) {
    const user = await findUserById(db, linked.userId);
    if (user) return { user, created: false };
  }
  if (await isSiteClosed(db)) throw await siteClosedError(db);
  try {
    const user = await registerExternal(
      db,
      stopWords,
      { hints: identity.usernameHints, displayName: identity.displayName },
      client,
      async (trx, userId, passwordHash) => {
        const at = now();
        await insertIdentity(trx, identityRow(identity, userId, at));
        await insertGeneratedPassword(trx, userId, passwordHash, at);
      },
    );
    return { user, created: true };
  } catch (err) {
    // The same identity's first sign-in twice at once: the other one made the account.
    if (!isUniqueViolation(err)) throw err;
    const other = await findIdentity(db, identity.kind, identity.providerId, identity.subject);
    const user = other && (await findUserById(db, other.userId));
    if (!user) throw err;
    return { user, created: false };
  }
}

const identityRow = (identity: OutsideIdentity, userId: number, at: string) => ({
  userId,
  kind: identity.kind,
  providerId: identity.providerId,
  subject: identity.subject,
  email: identity.email.slice(0, 255),
  displayName: identity.displayName.slice(0, 255),
  createdAt: at,
});

/**
 * Links an identity to a signed-in account. Refused when the identity belongs to another account, or when the
 * account already has another identity of the same service (`replace`: that one is swapped for this one, WeChat's
 * rebind). Linking the identity that is already the account's own changes nothing.
 */
export async function linkIdentity(
  db: Kysely<DB>,
  userId: number,
  identity: OutsideIdentity,
  options: { replace?: boolean } = {},
): Promise<void> {
  const owner = await findIdentity(db, identity.kind, identity.providerId, identity.subject);
  if (owner && owner.userId !== userId) throw linkedElsewhere();
  if (owner) return;
  const mine = (await identitiesOfUser(db, userId)).find(
    (i) => i.kind === identity.kind && i.providerId === identity.providerId,
  );
  if (mine && !options.replace) throw alreadyLinked();
  try {
    await db.transaction().execute(async (trx) => {
      if (mine) await deleteIdentity(trx, userId, identity.kind, identity.providerId);
      await insertIdentity(trx, identityRow(identity, userId, now()));
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw linkedElsewhere();
    throw err;
  }
}

/** Whether the account has a password its owner knows: not the random one an outside sign-in gave it. */
export async function hasUsablePassword(db: Kysely<DB>, userId: number): Promise<boolean> {
  return !(await stillGeneratedPassword(db, userId));
}

/**
 * Unlinks one identity. Refused when it is the account's last way to sign in: no other identity and no password
 * its owner knows (an account made by an outside sign-in, until a password is set).
 */
export async function unlinkIdentity(
  db: Kysely<DB>,
  userId: number,
  kind: IdentityKind,
  providerId: number,
): Promise<void> {
  const identities = await identitiesOfUser(db, userId);
  const target = identities.find((i) => i.kind === kind && i.providerId === providerId);
  if (!target) throw notFound(msg('oauth.accountNotLinked'));
  if (identities.length === 1 && !(await hasUsablePassword(db, userId))) {
    throw new AppError(Code.UNAUTHORIZED, msg('oauth.onlyWaySignSet'));
  }
  await deleteIdentity(db, userId, kind, providerId);
}

/**
 * The written reason (a query code the pages translate) for an error at the end of a sign-in with another
 * service; `provider` for anything else (the detail goes to the log).
 */
export function oauthErrorCode(err: unknown): OauthError {
  if (!(err instanceof AppError)) return 'provider';
  const reason = (err.options.data as { reason?: unknown } | undefined)?.reason;
  if (typeof reason === 'string' && (OAUTH_ERRORS as readonly string[]).includes(reason)) return reason as OauthError;
  switch (err.code) {
    case Code.SITE_CLOSED:
      return 'siteClosed';
    case Code.USER_BANNED:
      return 'banned';
    case Code.JUMP_TO_AUDIT:
      return 'review';
    case Code.VALIDATE_REJECT:
    case Code.VALIDATE_IGNORE:
      return 'rejected';
    case Code.CONTENT_BANNED:
      return 'stopWord';
    case Code.JUMP_TO_LOGIN:
      return 'needLogin';
    default:
      return 'provider';
  }
}
