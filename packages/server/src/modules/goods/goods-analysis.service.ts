import { Code, type GoodsAnalysis } from '@luntan/shared';
import { AppError } from '../../core/errors.js';
import type { AttemptLimiter } from '../../core/rate-limit.js';
import {
  BlockedAddressError,
  FetchRefusedError,
  safeFetch,
  type AddressRefusal,
  type PrivatePolicy,
} from '../../core/safe-fetch.js';
import { canAnywhere, requireUser, type ViewerContext } from '../../access/viewer.js';
import { msg } from '../../i18n/index.js';
import { readProductPage, shopType, type ProductFacts } from './goods-page.js';

/** The most of a product page that is read: 1 MB (a longer page is cut; its head is what counts). */
export const GOODS_PAGE_MAX_BYTES = 1024 * 1024;
/** Analyses a member may ask for per hour. */
export const GOODS_ANALYSES_PER_HOUR = 30;

export interface GoodsAnalysisDeps {
  allowPrivate: PrivatePolicy;
  /** How long a page may take to answer, in all (GOODS_FETCH_TIMEOUT_MS, 5 s by default). */
  timeoutMs: number;
  limiter: AttemptLimiter;
}

const REFUSAL_KEYS: Record<AddressRefusal, 'goods.loopback' | 'goods.private' | 'goods.linkLocal' | 'goods.special'> = {
  loopback: 'goods.loopback',
  private: 'goods.private',
  uniqueLocal: 'goods.private',
  carrierGradeNat: 'goods.private',
  linkLocal: 'goods.linkLocal',
  unspecified: 'goods.special',
  broadcast: 'goods.special',
  multicast: 'goods.special',
  reserved: 'goods.special',
  other: 'goods.special',
};

const refused = (text: { zh: string; en: string }, data: Record<string, unknown> = {}) =>
  new AppError(Code.INVALID_PARAMETER, text, { data: { field: 'address', ...data } });
const failed = (text: { zh: string; en: string }) =>
  new AppError(Code.EXTERNAL_API_ERROR, text, { data: { field: 'address' } });

/** The page's text in the charset its answer (or its first bytes' <meta charset>) names; UTF-8 otherwise. */
function decode(body: Buffer, contentType: string): string {
  const named =
    /charset=["']?([\w-]+)/i.exec(contentType)?.[1] ??
    /<meta[^>]+charset=["']?([\w-]+)/i.exec(body.subarray(0, 2048).toString('latin1'))?.[1];
  try {
    return new TextDecoder(named ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/**
 * Reads a product page for the goods card (part 104). A member who may insert goods in some category asks, at most
 * GOODS_ANALYSES_PER_HOUR times an hour; the page is fetched through safeFetch (no private, loopback or link-local
 * address, also after redirects, unless ALLOW_PRIVATE_FETCH=1), within the time limit, at most 1 MB of it, and only
 * an HTML answer is read. Every failure is a sentence the poster reads before typing the fields by hand.
 */
export async function analyseGoods(
  deps: GoodsAnalysisDeps,
  viewer: ViewerContext,
  address: string,
): Promise<GoodsAnalysis> {
  const user = requireUser(viewer);
  if (!canAnywhere(viewer, 'thread.insertGoods')) {
    throw new AppError(Code.UNAUTHORIZED, msg('goods.noPermission'));
  }
  await deps.limiter.consume(`u${user.id}`);
  let res;
  try {
    res = await safeFetch(address, {
      allowPrivate: deps.allowPrivate,
      timeoutMs: deps.timeoutMs,
      maxBytes: GOODS_PAGE_MAX_BYTES,
      maxRedirects: 3,
      headers: {
        accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
        'user-agent': 'Mozilla/5.0 (compatible; Luntan goods card)',
      },
    });
  } catch (err) {
    if (err instanceof BlockedAddressError) {
      throw refused(msg(REFUSAL_KEYS[err.refusal], { address: err.address }), { address: err.address });
    }
    if (err instanceof FetchRefusedError) {
      if (err.reason === 'timeout') throw failed(msg('goods.timeout', { seconds: Math.ceil(deps.timeoutMs / 1000) }));
      if (err.reason === 'scheme') throw refused(msg('goods.onlyHttp'));
      if (err.reason === 'dns') throw refused(msg('goods.hostNotFound', { host: new URL(address).hostname }));
      throw failed(msg('goods.tooManyRedirects'));
    }
    throw failed(msg('goods.unreachable'));
  }
  if (res.status < 200 || res.status >= 300) throw failed(msg('goods.badStatus', { status: res.status }));
  const contentType = String(res.headers['content-type'] ?? '');
  if (!/^\s*(text\/html|application\/xhtml\+xml)\b/i.test(contentType)) {
    throw failed(msg('goods.notHtml', { type: contentType.split(';')[0]?.trim() || '?' }));
  }
  let facts: ProductFacts | undefined;
  try {
    facts = readProductPage(decode(res.body, contentType), res.url);
  } catch {
    // Markup the reader cannot get through (whatever the page does to it) names no product: the poster types it.
    facts = undefined;
  }
  if (!facts?.title) throw failed(msg('goods.nothingFound'));
  return {
    title: facts.title,
    price: facts.price,
    imagePath: facts.imagePath,
    detailContent: address,
    type: shopType(res.url),
    readyContent: address,
    status: 0,
  };
}
