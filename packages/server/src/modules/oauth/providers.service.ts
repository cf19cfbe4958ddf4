import {
  Code,
  type LinkedAccountItem,
  type LinkedAccounts,
  type OauthProviderAdminItem,
  type OauthProviderSaveBody,
  type OauthPublicProviders,
} from '@luntan/shared';
import type { Kysely } from 'kysely';
import { AppError, invalidField, notFoundField } from '../../core/errors.js';
import { now } from '../../core/time.js';
import type { DB, OauthProvider } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/errors.js';
import { hasUsablePassword } from './identities.service.js';
import {
  countIdentitiesByProvider,
  deleteProvider,
  findProviderById,
  identitiesOfUser,
  insertProvider,
  listProviders,
  updateProvider,
} from './oauth.repository.js';
import { msg } from '../../i18n/index.js';

/** The OpenID Connect providers an administrator configured, as the back office, the login page and /my see them. */

export const DEFAULT_SCOPES = 'openid profile email';

/** Scopes always hold openid (an OpenID Connect sign-in), each once. */
export function normalizeScopes(scopes: string | undefined): string {
  const list = (scopes ?? '').split(' ').filter(Boolean);
  const all = list.length === 0 ? DEFAULT_SCOPES.split(' ') : ['openid', ...list];
  return [...new Set(all)].join(' ');
}

/** Where a provider sends the browser back: the address to register with it. */
export const callbackUrl = (siteBase: string, slug: string) => `${siteBase}/api/v3/oauth/${slug}/callback`;

function presentAdmin(p: OauthProvider, identityCount: number, siteBase: string): OauthProviderAdminItem {
  return {
    id: p.id,
    slug: p.slug,
    issuer: p.issuer,
    clientId: p.clientId,
    hasSecret: p.clientSecret !== '',
    labelZh: p.labelZh,
    labelEn: p.labelEn,
    scopes: p.scopes,
    enabled: p.enabled === 1,
    sort: p.sort,
    identityCount,
    callbackUrl: callbackUrl(siteBase, p.slug),
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

export async function listProvidersForAdmin(db: Kysely<DB>, siteBase: string): Promise<OauthProviderAdminItem[]> {
  const [rows, counts] = await Promise.all([listProviders(db, false), countIdentitiesByProvider(db)]);
  return rows.map((p) => presentAdmin(p, counts.get(p.id) ?? 0, siteBase));
}

const providerNotFound = () => notFoundField('id', msg('oauth.noSuchSignProvider'));

export async function saveProvider(
  db: Kysely<DB>,
  body: OauthProviderSaveBody,
  siteBase: string,
): Promise<OauthProviderAdminItem> {
  const at = now();
  const values = {
    slug: body.slug,
    issuer: body.issuer.replace(/\/+$/, ''),
    clientId: body.clientId,
    labelZh: body.labelZh,
    labelEn: body.labelEn,
    scopes: normalizeScopes(body.scopes),
    enabled: body.enabled ? 1 : 0,
    sort: body.sort,
    updatedAt: at,
  };
  const secret = body.clientSecret?.trim() ?? '';
  let id = body.id;
  try {
    if (id === undefined) {
      if (secret === '') {
        throw invalidField('clientSecret', msg('oauth.clientSecretRequired'));
      }
      id = await insertProvider(db, { ...values, clientSecret: secret, createdAt: at });
    } else {
      if (!(await findProviderById(db, id))) throw providerNotFound();
      // An empty secret keeps the stored one: the back office never reads it back.
      await updateProvider(db, id, secret === '' ? values : { ...values, clientSecret: secret });
    }
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw new AppError(Code.RESOURCE_EXIST, msg('oauth.slugTaken', { slug: body.slug }), { data: { field: 'slug' } });
    }
    throw err;
  }
  const saved = (await findProviderById(db, id))!;
  return presentAdmin(saved, (await countIdentitiesByProvider(db)).get(id) ?? 0, siteBase);
}

/**
 * Deletes a provider nobody is linked to. Linked accounts would lose a way to sign in (perhaps their only one):
 * -4005, switch it off instead.
 */
export async function removeProvider(db: Kysely<DB>, id: number): Promise<void> {
  if (!(await findProviderById(db, id))) throw providerNotFound();
  const linked = (await countIdentitiesByProvider(db)).get(id) ?? 0;
  if (linked > 0) {
    throw new AppError(Code.RESOURCE_IN_USE, msg('oauth.accountsLinkedProviderSo', { linked }));
  }
  await deleteProvider(db, id);
}

export async function publicProviders(db: Kysely<DB>, wechat: boolean): Promise<OauthPublicProviders> {
  const rows = await listProviders(db, true);
  return {
    providers: rows.map((p) => ({ id: p.id, slug: p.slug, labelZh: p.labelZh, labelEn: p.labelEn })),
    wechat,
  };
}

const WECHAT_LABEL = { slug: 'wechat', labelZh: '微信', labelEn: 'WeChat' };

/**
 * The viewer's ways to sign in for /my: every enabled provider (and WeChat when it is configured) with whether it
 * is linked, plus linked ones that were switched off since (they may still be unlinked).
 */
export async function linkedAccounts(db: Kysely<DB>, userId: number, wechat: boolean): Promise<LinkedAccounts> {
  const [providers, identities] = await Promise.all([listProviders(db, false), identitiesOfUser(db, userId)]);
  const accounts: LinkedAccountItem[] = [];
  for (const p of providers) {
    const identity = identities.find((i) => i.kind === 'oidc' && i.providerId === p.id);
    if (p.enabled !== 1 && !identity) continue;
    accounts.push({
      kind: 'oidc',
      providerId: p.id,
      slug: p.slug,
      labelZh: p.labelZh,
      labelEn: p.labelEn,
      linked: identity !== undefined,
      email: identity?.email ?? '',
      displayName: identity?.displayName ?? '',
      linkedAt: identity?.createdAt ?? null,
      enabled: p.enabled === 1,
    });
  }
  const wx = identities.find((i) => i.kind === 'wechat');
  if (wechat || wx) {
    accounts.push({
      kind: 'wechat',
      providerId: 0,
      ...WECHAT_LABEL,
      linked: wx !== undefined,
      email: '',
      displayName: wx?.displayName ?? '',
      linkedAt: wx?.createdAt ?? null,
      enabled: wechat,
    });
  }
  return { hasPassword: await hasUsablePassword(db, userId), accounts };
}
