import { Code, UserStatus, type SessionData } from '@luntan/shared';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import * as oidc from 'openid-client';
import { AppError } from '../../core/errors.js';
import type { DB, OauthProvider } from '../../db/schema.js';
import { signIn, type ClientInfo } from '../auth/index.js';
import type { StopWordCache } from '../stop-words/index.js';
import { accountForIdentity, linkIdentity, oauthErrorCode, type OutsideIdentity } from './identities.service.js';
import { findProviderById, findProviderBySlug } from './oauth.repository.js';
import { OauthFlowError, saveSignInState, takeSignInState } from './sign-in-flow.js';
import { callbackUrl } from './providers.service.js';

/**
 * Sign-in with an OpenID Connect provider (openid-client): authorization code with PKCE, state and nonce kept in
 * an `oauth_states` row for ten minutes and bound to the browser by a cookie holding the state.
 */

/** A provider's discovered configuration, kept per provider version for ten minutes. */
const configurations = new LRUCache<string, oidc.Configuration>({ max: 100, ttl: 10 * 60_000 });

const isLoopback = (url: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

async function configurationOf(p: OauthProvider): Promise<oidc.Configuration> {
  const key = `${p.id}:${p.updatedAt}`;
  const cached = configurations.get(key);
  if (cached) return cached;
  const issuer = new URL(p.issuer);
  // Plain http only for a provider on this machine (development and tests); anything else must be https.
  const insecure = issuer.protocol === 'http:' && isLoopback(issuer);
  const config = await oidc.discovery(issuer, p.clientId, undefined, oidc.ClientSecretBasic(p.clientSecret), {
    timeout: 10,
    ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
  });
  configurations.set(key, config);
  return config;
}

async function enabledProvider(db: Kysely<DB>, slug: string): Promise<OauthProvider> {
  const p = await findProviderBySlug(db, slug);
  if (!p || p.enabled !== 1) throw new OauthFlowError('unknownProvider');
  return p;
}

/** The provider's authorization address for a new sign-in (or, with `linkUserId`, a link from /my), and its state. */
export async function beginOidc(
  db: Kysely<DB>,
  slug: string,
  options: { redirect: string; linkUserId: number | null; siteBase: string },
): Promise<{ url: string; state: string }> {
  const to = options.linkUserId === null ? 'login' : 'my';
  const p = await enabledProvider(db, slug).catch((err: unknown) => {
    throw err instanceof OauthFlowError ? new OauthFlowError(err.reason, to) : err;
  });
  let config: oidc.Configuration;
  try {
    config = await configurationOf(p);
  } catch {
    throw new OauthFlowError('provider', to);
  }
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  await saveSignInState(db, {
    state,
    kind: 'oidc',
    providerId: p.id,
    purpose: options.linkUserId === null ? 'login' : 'link',
    codeVerifier,
    nonce,
    redirect: options.redirect,
    userId: options.linkUserId,
  });
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: callbackUrl(options.siteBase, p.slug),
    scope: p.scopes,
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  });
  return { url: url.href, state };
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** The claims we use, from the ID token and (for what it lacks) the userinfo endpoint. */
async function identityOf(
  config: oidc.Configuration,
  p: OauthProvider,
  tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>,
): Promise<OutsideIdentity> {
  const claims: Record<string, unknown> = { ...tokens.claims() };
  const sub = text(claims.sub);
  if (!sub) throw new OauthFlowError('provider');
  if (tokens.access_token && config.serverMetadata().userinfo_endpoint) {
    try {
      Object.assign(claims, await oidc.fetchUserInfo(config, tokens.access_token, sub), { sub });
    } catch {
      // The ID token's claims will do.
    }
  }
  const email = text(claims.email);
  const name = text(claims.name) || text(claims.nickname);
  return {
    kind: 'oidc',
    providerId: p.id,
    subject: sub,
    email,
    displayName: name || text(claims.preferred_username),
    usernameHints: [text(claims.preferred_username), name, email.split('@')[0] ?? ''].filter(Boolean),
  };
}

export interface OidcOutcome {
  /** Where the browser goes: the page it started from, /user/supplementary (fields owed) or /my (a link). */
  redirect: string;
  /** A sign-in's session (a link keeps the current one). */
  session: SessionData | null;
}

/**
 * The provider sent the browser back: checks the state (the row and the browser's cookie), exchanges the code
 * (PKCE, nonce, issuer), and signs in, links or creates the account. Every refusal is an OauthFlowError.
 */
export async function finishOidc(
  deps: { db: Kysely<DB>; stopWords: StopWordCache },
  slug: string,
  input: { query: { state?: string | undefined; error?: string | undefined }; rawQuery: string },
  context: { cookieState: string | undefined; siteBase: string; client: ClientInfo },
): Promise<OidcOutcome> {
  const { db } = deps;
  const { state, error } = input.query;
  if (!state || state !== context.cookieState) throw new OauthFlowError('state');
  const row = await takeSignInState(db, state, 'oidc');
  if (!row) throw new OauthFlowError('state');
  const to = row.purpose === 'link' ? 'my' : 'login';
  const p = await findProviderById(db, row.providerId);
  if (!p || p.enabled !== 1 || p.slug !== slug) throw new OauthFlowError(p ? 'state' : 'unknownProvider', to);
  if (error) throw new OauthFlowError(error === 'access_denied' ? 'denied' : 'provider', to);
  let identity: OutsideIdentity;
  try {
    const config = await configurationOf(p);
    const currentUrl = new URL(`${callbackUrl(context.siteBase, p.slug)}?${input.rawQuery}`);
    const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: row.codeVerifier,
      expectedState: row.state,
      expectedNonce: row.nonce,
      idTokenExpected: true,
    });
    identity = await identityOf(config, p, tokens);
  } catch (err) {
    if (err instanceof OauthFlowError) throw new OauthFlowError(err.reason, to);
    if (err instanceof oidc.AuthorizationResponseError && err.error === 'access_denied') {
      throw new OauthFlowError('denied', to);
    }
    throw new OauthFlowError('provider', to);
  }
  try {
    if (row.purpose === 'link') {
      if (row.userId === null) throw new OauthFlowError('state', to);
      await linkIdentity(db, row.userId, identity);
      return { redirect: row.redirect === '/' ? '/my?tab=settings' : row.redirect, session: null };
    }
    const { user } = await accountForIdentity(db, deps.stopWords, identity, context.client);
    const session = await signIn(db, user, context.client);
    const redirect = user.status === UserStatus.NEEDS_SIGNIN_FIELDS ? '/user/supplementary' : row.redirect;
    return { redirect, session };
  } catch (err) {
    if (err instanceof OauthFlowError) throw err;
    const reason = oauthErrorCode(err);
    // A refusal we wrote goes to the page; anything else is a fault of ours, for the log too.
    if (reason === 'provider' && !(err instanceof AppError && err.code === Code.EXTERNAL_API_ERROR)) throw err;
    throw new OauthFlowError(reason, to);
  }
}
