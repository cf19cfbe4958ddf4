import { randomBytes } from 'node:crypto';
import { PayType, type PayTypeValue } from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.js';
import type { DB } from '../../db/schema.js';
import { decodeSetting } from '../settings/index.js';
import { readTag, writeSettingIfAbsent } from '../settings/index.js';
import {
  createAlipayProvider,
  createWxpayProvider,
  missingAlipayConfig,
  missingWxpayConfig,
  type AlipayConfig,
  type WxpayConfig,
} from './providers/index.js';
import { createSandboxProvider } from './providers/sandbox.js';
import type { PaymentProvider, PayoutRequest, PayoutResult, ProviderName } from './providers/types.js';

/*
 * Which payment providers the site has now, built from the settings on each use (an administrator's change takes
 * effect at once, in every process). The sandbox is on with PAYMENT_SANDBOX=1 or the paySandbox setting.
 */

const SANDBOX_SECRET_KEY = 'paySandboxSecret';
const INTERNAL_TAG = 'internal';

/** The settings of a tag, decoded by their definitions. */
async function readDecoded(db: Kysely<DB>, tag: string): Promise<Record<string, string | number | boolean>> {
  const rows = await readTag(db, tag);
  return Object.fromEntries(rows.map((r) => [r.key, decodeSetting(r.key, tag, r.value)]));
}

/** Makes the sandbox's signing secret if the site has none (the seed calls it at every start). */
export async function ensureSandboxSecret(db: Kysely<DB>): Promise<void> {
  await writeSettingIfAbsent(db, SANDBOX_SECRET_KEY, INTERNAL_TAG, randomBytes(32).toString('hex'));
}

/**
 * The site's own secret for signing sandbox callbacks (kept in the settings table, never shown). Read only: a read
 * of the API never writes (an insert, even one that does nothing, raises the settings version on PostgreSQL and
 * empties every process's settings cache); the seed makes it, and a site that somehow lacks it gets it here once.
 */
export async function sandboxSecret(db: Kysely<DB>): Promise<string> {
  const find = async () => (await readTag(db, INTERNAL_TAG)).find((r) => r.key === SANDBOX_SECRET_KEY)?.value;
  const found = await find();
  if (found) return found;
  await ensureSandboxSecret(db);
  return (await find())!;
}

export async function isSandboxOn(ctx: Pick<AppContext, 'db' | 'config'>): Promise<boolean> {
  if (ctx.config.paymentSandbox) return true;
  const site = await readDecoded(ctx.db, 'default');
  return site.paySandbox === true;
}

/** The enabled providers by name. */
export async function enabledProviders(
  ctx: Pick<AppContext, 'db' | 'config'>,
): Promise<Map<ProviderName, PaymentProvider>> {
  const out = new Map<ProviderName, PaymentProvider>();
  if (await isSandboxOn(ctx)) out.set('sandbox', createSandboxProvider(await sandboxSecret(ctx.db)));
  for (const provider of await configuredProviders(ctx.db)) out.set(provider.name, provider);
  return out;
}

/** Alipay and WeChat Pay, when switched on and completely configured in the back office (tag `pay`). */
async function configuredProviders(db: Kysely<DB>): Promise<PaymentProvider[]> {
  const s = await readDecoded(db, 'pay');
  const text = (key: string) => String(s[key] ?? '').trim();
  const out: PaymentProvider[] = [];
  if (s.alipayEnabled === true) {
    const config: AlipayConfig = {
      appId: text('alipayAppId'),
      privateKey: text('alipayPrivateKey'),
      alipayPublicKey: text('alipayPublicKey'),
      signType: 'RSA2',
      ...(text('alipayGateway') ? { gateway: text('alipayGateway') } : {}),
    };
    if (missingAlipayConfig(config).length === 0) out.push(createAlipayProvider(config));
  }
  if (s.wxpayEnabled === true) {
    const config: WxpayConfig = {
      mchId: text('wxpayMchId'),
      appId: text('wxpayAppId'),
      apiV3Key: text('wxpayApiV3Key'),
      merchantSerialNo: text('wxpaySerialNo'),
      merchantPrivateKey: text('wxpayPrivateKey'),
      platformPublicKey: text('wxpayPublicKey'),
      ...(text('wxpayPublicKeyId') ? { platformPublicKeyId: text('wxpayPublicKeyId') } : {}),
    };
    if (missingWxpayConfig(config).length === 0) out.push(createWxpayProvider(config));
  }
  return out;
}

/** What each provider still lacks (names of empty settings), for the payment settings page. */
export async function providerProblems(db: Kysely<DB>): Promise<{ alipay: string[]; wxpay: string[] }> {
  const s = await readDecoded(db, 'pay');
  const text = (key: string) => String(s[key] ?? '').trim();
  return {
    alipay: missingAlipayConfig({
      appId: text('alipayAppId'),
      privateKey: text('alipayPrivateKey'),
      alipayPublicKey: text('alipayPublicKey'),
    }),
    wxpay: missingWxpayConfig({
      mchId: text('wxpayMchId'),
      appId: text('wxpayAppId'),
      apiV3Key: text('wxpayApiV3Key'),
      merchantSerialNo: text('wxpaySerialNo'),
      merchantPrivateKey: text('wxpayPrivateKey'),
      platformPublicKey: text('wxpayPublicKey'),
    }),
  };
}

export async function providerByName(
  ctx: Pick<AppContext, 'db' | 'config'>,
  name: string,
): Promise<PaymentProvider | undefined> {
  return (await enabledProviders(ctx)).get(name as ProviderName);
}

export async function providerForType(
  ctx: Pick<AppContext, 'db' | 'config'>,
  paymentType: number,
): Promise<PaymentProvider | undefined> {
  for (const provider of (await enabledProviders(ctx)).values()) {
    if ((provider.paymentTypes as readonly number[]).includes(paymentType)) return provider;
  }
  return undefined;
}

/** The provider payment types offered on a platform (desktop: QR and page payments; mobile: H5 and wap). */
export async function offeredTypes(
  ctx: Pick<AppContext, 'db' | 'config'>,
  platform: 'pc' | 'h5',
): Promise<PayTypeValue[]> {
  const wanted: readonly number[] =
    platform === 'pc'
      ? [PayType.WXPAY_NATIVE, PayType.ALIPAY_PAGE, PayType.SANDBOX]
      : [PayType.WXPAY_H5, PayType.ALIPAY_WAP, PayType.SANDBOX];
  const types: PayTypeValue[] = [];
  for (const provider of (await enabledProviders(ctx)).values()) {
    for (const type of provider.paymentTypes) if (wanted.includes(type)) types.push(type as PayTypeValue);
  }
  return types.sort((a, b) => a - b);
}

/** Pays a withdrawal out through the named provider (withdrawals module); a provider that is off refuses. */
export async function payoutThrough(
  ctx: Pick<AppContext, 'db' | 'config'>,
  name: string,
  request: PayoutRequest,
): Promise<PayoutResult> {
  const provider = await providerByName(ctx, name);
  if (!provider) return { ok: false, reason: `payment provider ${name} is not enabled` };
  return provider.payout(request);
}
