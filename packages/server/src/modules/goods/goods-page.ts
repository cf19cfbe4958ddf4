import { formatMoney, GOODS_PRICE_MAX_CENTS, GOODS_TITLE_MAX } from '@luntan/shared';
import { Parser } from 'htmlparser2';

/*
 * What a product page says about its product, read from its HTML: a schema.org Product in JSON-LD (name, image,
 * offers.price) first, then OpenGraph (og:title, og:image, product:price:amount), then <title>. Pure: no fetching.
 */

/** A product as its page describes it; "" where the page says nothing. */
export interface ProductFacts {
  title: string;
  /** "59.90", or "". */
  price: string;
  /** An absolute http(s) address, or "". */
  imagePath: string;
}

interface Collected {
  meta: Map<string, string>;
  title: string;
  jsonLd: string[];
}

/** Reads the head's facts with a streaming parser (no DOM is built): <meta>, <title>, JSON-LD scripts. */
function collect(html: string): Collected {
  const out: Collected = { meta: new Map(), title: '', jsonLd: [] };
  let inTitle = false;
  let titleSeen = false;
  let script: string[] | null = null;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'meta') {
          const key = (attrs.property ?? attrs.name ?? attrs.itemprop ?? '').trim().toLowerCase();
          if (key && attrs.content !== undefined && !out.meta.has(key)) out.meta.set(key, attrs.content);
        } else if (name === 'title' && !titleSeen) {
          inTitle = true;
        } else if (name === 'script' && (attrs.type ?? '').trim().toLowerCase() === 'application/ld+json') {
          script = [];
        }
      },
      ontext(text) {
        if (inTitle) out.title += text;
        if (script) script.push(text);
      },
      onclosetag(name) {
        if (name === 'title' && inTitle) {
          inTitle = false;
          titleSeen = true;
        } else if (name === 'script' && script) {
          out.jsonLd.push(script.join(''));
          script = null;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return out;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isProduct(node: Record<string, Json>): boolean {
  const type = node['@type'];
  const types = Array.isArray(type) ? type : [type];
  return types.some((t) => typeof t === 'string' && /(^|[/:])(Product|ProductGroup|IndividualProduct)$/.test(t));
}

/** How many JSON-LD nodes findProduct looks at: a page names its product among the first few. */
const MAX_NODES = 500;
/** How deep firstString looks into a value: a name, price or picture is a level or two down (["x"], {url}). */
const MAX_DEPTH = 8;

/** The first schema.org Product among the JSON-LD blocks (top level, in arrays or in @graph). */
function findProduct(blocks: string[]): Record<string, Json> | undefined {
  const queue: Json[] = [];
  for (const block of blocks) {
    try {
      queue.push(JSON.parse(block) as Json);
    } catch {
      // A broken block says nothing.
    }
  }
  for (let i = 0; i < queue.length && i < MAX_NODES; i++) {
    const node = queue[i];
    if (Array.isArray(node)) {
      // One by one, not push(...node): an array of a few hundred thousand items is more arguments than a call takes.
      for (const item of node) {
        if (queue.length >= MAX_NODES) break;
        queue.push(item);
      }
    } else if (isObject(node)) {
      if (isProduct(node)) return node;
      if (node['@graph'] !== undefined) queue.push(node['@graph']);
    }
  }
  return undefined;
}

/** The first string (or number) in a value, at most MAX_DEPTH levels down: a page may nest far deeper than a stack. */
const firstString = (v: Json | undefined, depth = 0): string | undefined => {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (depth >= MAX_DEPTH) return undefined;
  if (Array.isArray(v)) return firstString(v[0], depth + 1);
  if (isObject(v)) return firstString(v.url ?? v.contentUrl ?? v['@id'], depth + 1);
  return undefined;
};

function offerPrice(offers: Json | undefined): string | undefined {
  const list = Array.isArray(offers) ? offers : [offers];
  for (const offer of list) {
    if (!isObject(offer)) continue;
    const price =
      firstString(offer.price) ??
      firstString(offer.lowPrice) ??
      (isObject(offer.priceSpecification) ? firstString(offer.priceSpecification.price) : undefined);
    if (price !== undefined) return price;
  }
  return undefined;
}

/** One line: no control characters, spaces collapsed, at most `max` characters. */
function line(text: string | undefined, max: number): string {
  if (!text) return '';
  const clean = text
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return [...clean].slice(0, max).join('');
}

/** "¥1,299.5" → "1299.50"; "" when it is not a price the card can show. */
export function pagePrice(text: string | undefined): string {
  if (!text) return '';
  const match = /\d+(?:\.\d+)?/.exec(text.replace(/[,\s]/g, ''));
  if (!match) return '';
  const cents = Math.round(Number(match[0]) * 100);
  return Number.isSafeInteger(cents) && cents >= 0 && cents <= GOODS_PRICE_MAX_CENTS ? formatMoney(cents) : '';
}

/** An absolute http(s) address of at most 2000 characters, resolved against the page, or "". */
function absoluteHttp(address: string | undefined, base: string): string {
  if (!address) return '';
  try {
    const url = new URL(address.trim(), base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return '';
    const text = url.toString();
    return text.length <= 2000 && !/\p{Cc}/u.test(text) ? text : '';
  } catch {
    return '';
  }
}

/** The product facts of a page's HTML; `pageUrl` resolves relative picture addresses. */
export function readProductPage(html: string, pageUrl: string): ProductFacts {
  const { meta, title, jsonLd } = collect(html);
  const product = findProduct(jsonLd);
  const name = line(firstString(product?.name), GOODS_TITLE_MAX);
  return {
    title:
      name ||
      line(meta.get('og:title'), GOODS_TITLE_MAX) ||
      line(meta.get('twitter:title'), GOODS_TITLE_MAX) ||
      line(title, GOODS_TITLE_MAX),
    price:
      pagePrice(offerPrice(product?.offers)) ||
      pagePrice(meta.get('product:price:amount')) ||
      pagePrice(meta.get('og:price:amount')),
    imagePath:
      absoluteHttp(firstString(product?.image), pageUrl) ||
      absoluteHttp(meta.get('og:image'), pageUrl) ||
      absoluteHttp(meta.get('og:image:url'), pageUrl) ||
      absoluteHttp(meta.get('twitter:image'), pageUrl),
  };
}

/** The shop of an address, as the family numbers them (PostGoods::$domainName); 99 for any other. */
export function shopType(address: string): number {
  let host: string;
  try {
    host = new URL(address).hostname.toLowerCase();
  } catch {
    return 99;
  }
  const within = (domain: string) => host === domain || host.endsWith(`.${domain}`);
  if (within('tmall.com')) return 1;
  if (within('taobao.com') || within('tb.cn')) return 0;
  if (within('jd.com')) return 2;
  if (within('yangkeduo.com')) return 3;
  if (within('youzan.com')) return 4;
  return 99;
}
