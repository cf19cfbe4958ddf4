import { randomBytes, randomInt } from 'node:crypto';
import {
  ACCESS_TOKEN_TTL_MS,
  Code,
  MOBILE_PATTERN,
  NICKNAME_MAX,
  nicknameSchema,
  USERNAME_MAX,
  USERNAME_MIN,
  UserStatus,
  type RegisterBody,
  type SessionData,
} from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { DB, User } from '../../db/schema.js';
import { AppError, invalidField } from '../../core/errors.js';
import { assertCaptcha } from '../captcha/index.js';
import { acceptInvite, invitationRequired, inviteForRegistration, type AcceptedInvite } from '../invites/index.js';
import { assertEmailFree, emailTaken, isEmailRace, newUserEmail } from '../mail/index.js';
import { inMs, now } from '../../core/time.js';
import { isUniqueViolation } from '../../db/errors.js';
import { addUserToGroup, findDefaultGroup, isAdministrator } from '../groups/index.js';
import { isSiteClosed, readAgreements, readSiteSettings, siteClosedError } from '../settings/index.js';
import { registrationFields } from '../signin-fields/index.js';
import { screenText, wordRefused, type StopWordCache } from '../stop-words/index.js';
import {
  findUserById,
  findUserByMobile,
  findUserByUsername,
  insertUser,
  normalizeUsername,
  updateUser,
} from '../users/index.js';
import { insertGeneratedPassword } from '../users/index.js';
import { isUsernameTaken, usernameTaken } from '../users/index.js';
import { createAccessToken, revokeToken } from '../../access/tokens.repository.js';
import type { ClientInfo } from '../../access/session-cookie.js';
import { statusError } from '../../access/viewer.js';
import { hashPassword, replacePassword, upgradeLegacyPassword, verifyPassword } from '../users/index.js';
import { msg } from '../../i18n/index.js';

export type { ClientInfo } from '../../access/session-cookie.js';

async function issueSession(db: Kysely<DB>, userId: number, status: number, client: ClientInfo): Promise<SessionData> {
  const at = now();
  const accessToken = await createAccessToken(db, {
    userId,
    ip: client.ip,
    userAgent: client.userAgent,
    createdAt: at,
    expiresAt: inMs(ACCESS_TOKEN_TTL_MS),
  });
  return { accessToken, userId, userStatus: status, expiresIn: ACCESS_TOKEN_TTL_MS / 1000 };
}

/**
 * The stop words applied to a new user's names. A username is a login name: any word that would change it refuses
 * it. A nickname takes replacements, and must still be a valid nickname afterwards.
 */
async function screenNames(
  db: Kysely<DB>,
  cache: StopWordCache,
  username: string,
  nickname: string | undefined,
): Promise<string> {
  const name = await screenText(db, cache, 'username', username, 'username');
  if (name.replacedWord !== null) throw wordRefused('username', name.replacedWord);
  const nick = await screenText(
    db,
    cache,
    'nickname',
    nickname ?? username,
    nickname === undefined ? 'username' : 'nickname',
  );
  const checked = nicknameSchema.safeParse(nick.text);
  if (!checked.success) throw wordRefused('nickname', nick.replacedWord ?? '');
  return checked.data;
}

export async function register(
  db: Kysely<DB>,
  cache: StopWordCache,
  body: RegisterBody,
  client: ClientInfo,
): Promise<SessionData> {
  const site = await assertRegistrationOpen(db);
  if (site.registerCaptcha === true) await assertCaptcha(db, body.captcha);
  if ((await readAgreements(db)).registerAgreementOpen && body.agreement !== true) {
    throw invalidField('agreement', msg('auth.readAcceptRegistrationAgreement'));
  }
  const invite = await inviteForRegistration(db, body.inviteCode, site.registerInviteOnly === true);
  const nickname = await screenNames(db, cache, body.username, body.nickname);
  const fields = await registrationFields(db, body.signinFields);
  if (await isUsernameTaken(db, body.username)) throw usernameTaken();
  if (body.email !== undefined) await assertEmailFree(db, body.email);
  const passwordHash = await hashPassword(body.password);
  try {
    return await createMember(
      db,
      site,
      fields,
      { username: body.username, nickname, passwordHash, email: body.email },
      client,
      invite,
    );
  } catch (err) {
    // Two sign-ups for one name (or address) at the same moment: the unique index decides.
    if (await isEmailRace(db, err, body.email)) throw emailTaken();
    if (isUniqueViolation(err)) throw usernameTaken();
    throw err;
  }
}

/** registerClose is on. Data.reason lets a sign-in with another service tell it from other refusals. */
export const registrationClosed = () =>
  new AppError(Code.UNAUTHORIZED, msg('auth.registrationClosed'), { data: { reason: 'registerClosed' } });

type SiteSettings = Awaited<ReturnType<typeof readSiteSettings>>;

/** The site's settings, or -4002 when it takes no new members. */
export async function assertRegistrationOpen(db: Kysely<DB>): Promise<SiteSettings> {
  const site = await readSiteSettings(db);
  if (site.registerClose === true) throw registrationClosed();
  return site;
}

/**
 * The site's settings for a newcomer who brings no invitation: a first sign-in by SMS or with another service (the
 * family's sms.login and WeChat calls carry no invitation code, nor does an OpenID Connect sign-in). -4002 when the
 * site takes no new members; while it takes invited ones only, -4001 inviteCode, as username.register without a code.
 */
export async function assertOpenWithoutInvitation(db: Kysely<DB>): Promise<SiteSettings> {
  const site = await assertRegistrationOpen(db);
  if (site.registerInviteOnly === true) throw invitationRequired();
  return site;
}

/**
 * A new member and their first session, as every way of joining makes them: reviewed when the site says so
 * (registerValidate), owing sign-in fields when there are required ones, in the default group, owing the joining
 * fee on a paid site. `madeUp`: the site made the username and password up (a first SMS sign-in), so the member may
 * choose a username once and set a first password without knowing the random one.
 */
export async function createMember(
  db: Kysely<DB>,
  site: SiteSettings,
  fields: Awaited<ReturnType<typeof registrationFields>>,
  account: {
    username: string;
    nickname: string;
    passwordHash: string;
    mobile?: string;
    email?: string | undefined;
    madeUp?: boolean;
  },
  client: ClientInfo,
  invite?: AcceptedInvite | null,
): Promise<SessionData> {
  const reviewed = site.registerValidate === true ? UserStatus.UNDER_REVIEW : UserStatus.NORMAL;
  const status = fields.owes ? UserStatus.NEEDS_SIGNIN_FIELDS : reviewed;
  return db.transaction().execute(async (trx) => {
    const at = now();
    const userId = await insertUser(trx, {
      username: account.username,
      usernameNormalized: normalizeUsername(account.username),
      nickname: account.nickname,
      passwordHash: account.passwordHash,
      avatar: '',
      signature: '',
      status,
      rejectReason: '',
      registerIp: client.ip,
      lastLoginIp: client.ip,
      lastLoginAt: at,
      createdAt: at,
      updatedAt: at,
      // A paid site: the new member owes the joining fee from now (-3006 until they pay). Members who join a
      // free site keep null and never have to pay, even if the site becomes paid later.
      paidUntil: site.siteMode === 'pay' ? at : null,
      ...(account.mobile ? { mobile: account.mobile } : {}),
      // Unverified until its link is opened (mail module).
      ...newUserEmail(account.email),
      ...(account.madeUp ? { usernameGenerated: 1 } : {}),
    });
    if (account.madeUp) await insertGeneratedPassword(trx, userId, account.passwordHash, at);
    // An invitation puts the newcomer in its group (one the inviter was allowed to grant).
    const group = invite ? { id: invite.groupId } : await findDefaultGroup(trx);
    if (group) await addUserToGroup(trx, userId, group.id);
    if (invite) await acceptInvite(trx, invite, userId);
    await fields.store(trx, userId);
    return issueSession(trx, userId, status, client);
  });
}

/**
 * The accounts a login name may sign in to, in the order they are tried. The name is a username or a bound mobile
 * number, as the family's login took either. New usernames cannot be numbers, but older ones may be, and may be
 * another member's number: then the account of that username comes first, then the account of that number.
 */
export async function accountsOfLoginName(db: Kysely<DB>, name: string): Promise<User[]> {
  const byName = await findUserByUsername(db, name);
  const byNumber = MOBILE_PATTERN.test(name) ? await findUserByMobile(db, name) : undefined;
  const accounts = byNumber && byNumber.id !== byName?.id ? [byName, byNumber] : [byName];
  return accounts.filter((user): user is User => user !== undefined);
}

/**
 * Null when no account of the name (accountsOfLoginName) takes the password (the caller counts the failure): each is
 * tried with it, so two members whose username and number are the same string both sign in with their own password.
 */
export async function login(
  db: Kysely<DB>,
  accounts: readonly User[],
  password: string,
  client: ClientInfo,
): Promise<SessionData | null> {
  for (const user of accounts) {
    if (await verifyPassword(user.passwordHash, password)) {
      // An imported account's bcrypt hash (docs/accounts-oauth.md, "Passwords") becomes ours on its first sign-in.
      await upgradeLegacyPassword(db, user, password);
      return signIn(db, user, client);
    }
  }
  // No such account: as much work as checking a password, so that the answer's timing does not tell.
  if (accounts.length === 0) await verifyPassword('', password);
  return null;
}

/**
 * A session for a user who proved who they are (a password, an SMS code): every way of signing in answers the same.
 * While the site is closed only administrators may sign in (checked after the proof: no hint to guessers).
 */
export async function signIn(db: Kysely<DB>, user: User, client: ClientInfo): Promise<SessionData> {
  if ((await isSiteClosed(db)) && !(await isAdministrator(db, user.id))) throw await siteClosedError(db);
  // A user who still owes sign-in fields signs in (userStatus 10) to answer them.
  const stop = user.status === UserStatus.NEEDS_SIGNIN_FIELDS ? null : statusError(user);
  if (stop) throw stop;
  return db.transaction().execute(async (trx) => {
    await updateUser(trx, user.id, { lastLoginAt: now(), lastLoginIp: client.ip });
    return issueSession(trx, user.id, user.status, client);
  });
}

export async function logout(db: Kysely<DB>, tokenId: number): Promise<void> {
  await revokeToken(db, tokenId, now());
}

/** Sets a new password (a forgotten one, proven by SMS) and signs the user out of every session. */
export async function resetPassword(db: Kysely<DB>, userId: number, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.transaction().execute((trx) => replacePassword(trx, userId, passwordHash, now()));
}

/** Letters of any script, digits, underscore and hyphen: what a username may hold (usernameSchema). */
const usernameChars = (s: string) => [...s.normalize('NFC')].filter((c) => /^[\p{L}\p{N}_-]$/u.test(c));

/**
 * Usernames to try for an account made by another service's sign-in, from the names it gave (preferred username,
 * name, the e-mail's local part): cut to the allowed characters and length, ending with `user`.
 */
function usernameCandidates(hints: readonly string[]): string[] {
  const out: string[] = [];
  for (const hint of [...hints, 'user']) {
    const name = usernameChars(hint).slice(0, USERNAME_MAX).join('');
    // A name that is a mobile number would sign in as that number's member too (login).
    if ([...name].length >= USERNAME_MIN && !MOBILE_PATTERN.test(name) && !out.includes(name)) out.push(name);
  }
  return out;
}

/** `base` with a random number, still at most USERNAME_MAX characters. */
function withSuffix(base: string): string {
  const suffix = `_${randomInt(1000, 1_000_000)}`;
  return [...base].slice(0, USERNAME_MAX - suffix.length).join('') + suffix;
}

/**
 * Picks a free username that the stop words accept, and the nickname to go with it (the service's display name
 * when it is a valid nickname, else the username).
 */
async function pickNames(
  db: Kysely<DB>,
  cache: StopWordCache,
  hints: readonly string[],
  displayName: string,
): Promise<{ username: string; nickname: string }> {
  const nick = [...displayName.trim()].slice(0, NICKNAME_MAX).join('');
  const nickname = nicknameSchema.safeParse(nick).success ? nick : undefined;
  for (const base of usernameCandidates(hints)) {
    for (const username of [base, withSuffix(base), withSuffix(base), withSuffix(base)]) {
      if (await isUsernameTaken(db, username)) continue;
      try {
        return { username, nickname: await screenNames(db, cache, username, nickname) };
      } catch (err) {
        if (!(err instanceof AppError) || err.code !== Code.CONTENT_BANNED) throw err;
        // A stop word in the nickname: the username stands in; in the username: try the next name.
        try {
          return { username, nickname: await screenNames(db, cache, username, undefined) };
        } catch {
          break;
        }
      }
    }
  }
  const username = withSuffix('user');
  return { username, nickname: username };
}

/**
 * Creates the account of someone who signed in with another service for the first time: a username made from the
 * names it gave (made unique), a random password nobody knows, the site's rules for new accounts (registerClose,
 * registerInviteOnly: it brings no invitation, registerValidate, sign-in fields owed: status 10, the default group, a
 * paid site's fee). `link` runs in the same transaction with the new id and the password's hash, to tie the identity
 * to the account.
 */
export async function registerExternal(
  db: Kysely<DB>,
  cache: StopWordCache,
  names: { hints: readonly string[]; displayName: string },
  client: ClientInfo,
  link: (trx: Kysely<DB>, userId: number, passwordHash: string) => Promise<void>,
): Promise<User> {
  const site = await assertOpenWithoutInvitation(db);
  const fields = await registrationFields(db, undefined);
  const reviewed = site.registerValidate === true ? UserStatus.UNDER_REVIEW : UserStatus.NORMAL;
  const status = fields.owes ? UserStatus.NEEDS_SIGNIN_FIELDS : reviewed;
  const passwordHash = await hashPassword(randomBytes(24).toString('base64url'));
  for (let attempt = 0; ; attempt++) {
    const { username, nickname } = await pickNames(db, cache, names.hints, names.displayName);
    try {
      const userId = await db.transaction().execute(async (trx) => {
        const at = now();
        const id = await insertUser(trx, {
          username,
          usernameNormalized: normalizeUsername(username),
          nickname,
          passwordHash,
          avatar: '',
          signature: '',
          status,
          rejectReason: '',
          registerIp: client.ip,
          lastLoginIp: client.ip,
          lastLoginAt: at,
          createdAt: at,
          updatedAt: at,
          paidUntil: site.siteMode === 'pay' ? at : null,
          usernameGenerated: 1,
        });
        const group = await findDefaultGroup(trx);
        if (group) await addUserToGroup(trx, id, group.id);
        await link(trx, id, passwordHash);
        return id;
      });
      return (await findUserById(db, userId))!;
    } catch (err) {
      // Someone took the name at the same moment: pick again (the identity's own unique index is the caller's).
      const nameTaken = isUniqueViolation(err) && (await isUsernameTaken(db, username));
      if (!nameTaken || attempt >= 3) throw err;
    }
  }
}
