import { randomBytes } from 'node:crypto';
import {
  Code,
  isLocale,
  isSmtpUrl,
  type EmailBindResult,
  type EmailVerifyResult,
  type Locale,
  type UserProfile,
} from '@luntan/shared';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.js';
import type { MailTransportSettings } from '../../core/mail.js';
import { AppError, fieldError, invalidField } from '../../core/errors.js';
import { AttemptLimiter, type LimiterStore } from '../../core/rate-limit.js';
import { inMs, now } from '../../core/time.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { DB, User } from '../../db/schema.js';
import { hashPassword, replacePassword } from '../users/index.js';
import { hashToken } from '../../access/tokens.repository.js';
import { requireUser, type ViewerContext } from '../../access/viewer.js';
import { readSetting } from '../settings/index.js';
import { readSiteGate, readSiteSettings } from '../settings/index.js';
import { findUserById, findUserByUsername } from '../users/index.js';
import { renderMail, type MailKind } from './mail-templates.js';
import {
  findEmailToken,
  findUserByEmail,
  insertEmailToken,
  normalizeEmail,
  pendingVerification,
  releaseUnverifiedEmail,
  retireEmailTokens,
  setUserEmail,
  useEmailToken,
} from './mail.repository.js';
import { msg } from '../../i18n/index.js';

/** How long a mailed link works. */
export const MAIL_LINK_MINUTES = 30;
/** Links mailed per address, and per account, in an hour. */
export const MAIL_SENDS_PER_HOUR = 5;

/** Sending budgets, counted in the shared limiter store (every process counts the same sends). */
export interface MailLimits {
  address: AttemptLimiter;
  account: AttemptLimiter;
}

const limitsByStore = new WeakMap<LimiterStore, MailLimits>();

/** The app's mail budgets (one pair per limiter store, so the registration and the mail routes share them). */
export function mailLimits(ctx: AppContext): MailLimits {
  const store = ctx.limits.store;
  let limits = limitsByStore.get(store);
  if (!limits) {
    limits = {
      address: new AttemptLimiter(store, 'mail_address', MAIL_SENDS_PER_HOUR, 3600),
      account: new AttemptLimiter(store, 'mail_account', MAIL_SENDS_PER_HOUR, 3600),
    };
    limitsByStore.set(store, limits);
  }
  return limits;
}

/** SMTP settings: the environment's first, else the back office's (tag `mail`); null while the site sends no mail. */
export async function readMailSettings(ctx: AppContext): Promise<MailTransportSettings | null> {
  const stored = async (key: string) => (await readSetting(ctx.db, key, 'mail'))?.value.trim() ?? '';
  const smtpUrl = ctx.config.smtpUrl ?? (await stored('smtpUrl'));
  if (!isSmtpUrl(smtpUrl)) return null;
  let from = ctx.config.mailFrom ?? (await stored('mailFrom'));
  if (!from) {
    const siteUrl = String((await readSiteSettings(ctx.db)).siteUrl ?? '');
    from = `noreply@${siteUrl ? new URL(siteUrl).hostname : 'localhost'}`;
  }
  return { smtpUrl, from };
}

async function requireMailSettings(ctx: AppContext): Promise<MailTransportSettings> {
  const settings = await readMailSettings(ctx);
  if (!settings) {
    throw new AppError(Code.INVALID_PARAMETER, msg('mail.siteDoesNotSend'), { data: { mailEnabled: false } });
  }
  return settings;
}

export const emailTaken = (): AppError => fieldError(Code.RESOURCE_EXIST, 'email', msg('mail.emailAddressAlreadyUsed'));

const linkExpired = () => new AppError(Code.RESOURCE_EXPIRED, msg('mail.linkExpiredAlreadyUsed'));

/** Registration: an address anyone holds (verified or not) is refused. */
export async function assertEmailFree(db: Kysely<DB>, email: string): Promise<void> {
  if (await findUserByEmail(db, email)) throw emailTaken();
}

/** The columns a new member's unverified address fills. */
export function newUserEmail(email: string | undefined): Pick<User, 'email' | 'emailNormalized'> {
  return email === undefined
    ? { email: null, emailNormalized: null }
    : { email, emailNormalized: normalizeEmail(email) };
}

/** Whether an error of a registration's insert was its address taken meanwhile. */
export async function isEmailRace(db: Kysely<DB>, err: unknown, email: string | undefined): Promise<boolean> {
  return email !== undefined && isUniqueViolation(err) && (await findUserByEmail(db, email)) !== undefined;
}

/**
 * Where mailed links point: the site's address (siteUrl) when the administrator set it, which production sites
 * should; else the address this request came to.
 */
export async function linkBase(ctx: AppContext, request: FastifyRequest): Promise<string> {
  const siteUrl = String((await readSiteSettings(ctx.db)).siteUrl ?? '');
  return (siteUrl || `${request.protocol}://${request.host}`).replace(/\/+$/, '');
}

/** The recipient's language: the one they chose, else the site's. */
async function mailLocale(ctx: AppContext, user: User): Promise<Locale> {
  if (isLocale(user.locale)) return user.locale;
  return (await readSiteGate(ctx.db)).locale ?? 'zh';
}

/** Stores a new link (only its hash) and retires the member's older ones of the same purpose. */
async function issueLink(
  ctx: AppContext,
  user: User,
  purpose: MailKind,
  email: string,
): Promise<{ token: string; expiresAt: string }> {
  const token = randomBytes(32).toString('base64url');
  const at = now();
  const expiresAt = inMs(MAIL_LINK_MINUTES * 60_000);
  await ctx.db.transaction().execute(async (trx) => {
    await retireEmailTokens(trx, user.id, purpose, at);
    await insertEmailToken(trx, {
      userId: user.id,
      purpose,
      email,
      tokenHash: hashToken(token),
      createdAt: at,
      expiresAt,
    });
  });
  return { token, expiresAt };
}

async function sendLink(
  ctx: AppContext,
  settings: MailTransportSettings,
  user: User,
  kind: MailKind,
  email: string,
  link: string,
): Promise<void> {
  const siteName = String((await readSiteSettings(ctx.db)).siteName ?? '') || 'Luntan';
  const locale = await mailLocale(ctx, user);
  const message = renderMail(kind, locale, email, {
    siteName,
    name: user.nickname || user.username,
    link,
    minutes: MAIL_LINK_MINUTES,
  });
  await ctx.mail.send(settings, message);
}

const verifyLink = (base: string, token: string) => `${base}/user/verify-email?token=${token}`;
const resetLink = (base: string, token: string) => `${base}/user/reset-password?token=${token}`;

/** Counts one send against the address and the account: -4029 when either has used its hour's budget. */
async function countSend(limits: MailLimits, user: User, email: string): Promise<void> {
  await limits.account.assertAllowed(String(user.id));
  await limits.address.assertAllowed(normalizeEmail(email));
  await limits.account.consume(String(user.id));
  await limits.address.consume(normalizeEmail(email));
}

/**
 * POST /api/v3/users/email.bind: mails a link to the address; the address becomes the member's only when the link
 * is opened. An address another member verified is refused (-4003); one they only typed is not theirs yet.
 */
export async function bindEmail(
  ctx: AppContext,
  viewer: ViewerContext,
  email: string,
  base: string,
): Promise<EmailBindResult> {
  const settings = await requireMailSettings(ctx);
  const me = requireUser(viewer);
  const user = (await findUserById(ctx.db, me.id))!;
  const holder = await findUserByEmail(ctx.db, email);
  if (holder && holder.id !== user.id && holder.emailVerifiedAt !== null) throw emailTaken();
  if (holder?.id === user.id && user.emailVerifiedAt !== null) {
    throw invalidField('email', msg('mail.alreadyEmailAddress'));
  }
  await countSend(mailLimits(ctx), user, email);
  const { token, expiresAt } = await issueLink(ctx, user, 'verify', email);
  try {
    await sendLink(ctx, settings, user, 'verify', email, verifyLink(base, token));
  } catch (err) {
    ctx.log.warn({ err }, 'the verification mail could not be sent');
    await retireEmailTokens(ctx.db, user.id, 'verify', now());
    throw new AppError(Code.EXTERNAL_API_ERROR, msg('mail.emailCouldNotSent'));
  }
  return { email, expiresAt };
}

/**
 * After a registration with an address: its verification link, when the site sends mail. The link is stored before
 * the registration answers (the new member's card shows it pending at once); the SMTP conversation happens after,
 * and a failure is only logged (the member can ask again in the personal centre). Never fails the registration.
 */
export async function startRegistrationLink(ctx: AppContext, userId: number, base: string): Promise<void> {
  try {
    const settings = await readMailSettings(ctx);
    const user = await findUserById(ctx.db, userId);
    if (!settings || !user?.email) return;
    const email = user.email;
    await countSend(mailLimits(ctx), user, email);
    const { token } = await issueLink(ctx, user, 'verify', email);
    sendLink(ctx, settings, user, 'verify', email, verifyLink(base, token)).catch((err: unknown) =>
      ctx.log.warn({ err, userId }, 'the verification mail of a registration could not be sent'),
    );
  } catch (err) {
    ctx.log.warn({ err, userId }, 'the verification link of a registration could not be made');
  }
}

/**
 * POST /api/v3/users/email.verify: the link's token (no login needed: the link proves the address). The address
 * becomes the member's, verified; members who had only typed it lose it.
 */
export async function verifyEmail(ctx: AppContext, token: string): Promise<EmailVerifyResult> {
  const row = await findEmailToken(ctx.db, hashToken(token), 'verify');
  const at = now();
  if (!row || row.usedAt !== null || row.expiresAt <= at) throw linkExpired();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      if (!(await useEmailToken(trx, row.id, at))) throw linkExpired();
      const holder = await findUserByEmail(trx, row.email);
      if (holder && holder.id !== row.userId && holder.emailVerifiedAt !== null) throw emailTaken();
      await releaseUnverifiedEmail(trx, row.email, row.userId);
      await setUserEmail(trx, row.userId, row.email, at);
      await retireEmailTokens(trx, row.userId, 'verify', at);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
  return { userId: row.userId, email: row.email };
}

/** The member an account names: an e-mail address (verified ones only) or a username. */
async function findAccount(db: Kysely<DB>, account: string): Promise<User | undefined> {
  if (account.includes('@')) {
    const user = await findUserByEmail(db, account);
    return user?.emailVerifiedAt ? user : undefined;
  }
  return findUserByUsername(db, account);
}

/**
 * POST /api/v3/users/password.forgot: answers the same whatever the account (no way to learn who has an account or
 * an address). A member with a verified address gets a reset link, within the sending budgets; the mail goes out
 * after the answer, so the answer's time tells nothing either.
 */
export async function forgotPassword(ctx: AppContext, account: string, base: string): Promise<void> {
  const settings = await requireMailSettings(ctx);
  const user = await findAccount(ctx.db, account);
  if (!user?.email || user.emailVerifiedAt === null) return;
  const email = user.email;
  try {
    await countSend(mailLimits(ctx), user, email);
  } catch (err) {
    if (err instanceof AppError && err.code === Code.TOO_MANY_REQUESTS) {
      ctx.log.info({ userId: user.id }, 'password reset mail not sent: the sending budget is used up');
      return;
    }
    throw err;
  }
  const { token } = await issueLink(ctx, user, 'reset', email);
  sendLink(ctx, settings, user, 'reset', email, resetLink(base, token)).catch((err: unknown) =>
    ctx.log.warn({ err, userId: user.id }, 'the password reset mail could not be sent'),
  );
}

/**
 * POST /api/v3/users/password.reset: a link used once sets the new password and signs the member out of every
 * session. Answers the member (the caller clears their failed sign-ins).
 */
export async function resetPassword(ctx: AppContext, token: string, password: string): Promise<User> {
  const row = await findEmailToken(ctx.db, hashToken(token), 'reset');
  if (!row || row.usedAt !== null || row.expiresAt <= now()) throw linkExpired();
  const passwordHash = await hashPassword(password);
  await ctx.db.transaction().execute(async (trx) => {
    const at = now();
    if (!(await useEmailToken(trx, row.id, at))) throw linkExpired();
    await replacePassword(trx, row.userId, passwordHash, at);
    await retireEmailTokens(trx, row.userId, 'reset', at);
  });
  return (await findUserById(ctx.db, row.userId))!;
}

/** The e-mail fields of one's own profile card (never of anyone else's). */
export async function ownEmail(
  db: Kysely<DB>,
  user: User,
): Promise<Pick<UserProfile, 'email' | 'emailVerified' | 'emailPending'>> {
  const pending = await pendingVerification(db, user.id, now());
  const verified = user.emailVerifiedAt !== null;
  return {
    email: user.email,
    emailVerified: verified,
    emailPending: pending && !(verified && normalizeEmail(pending) === user.emailNormalized) ? pending : null,
  };
}
