import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/*
 * Link cards (Discourse's onebox): a link alone on its line in a post becomes a card (title, description, image, the
 * site's name) once its preview is known (modules/link-previews fetches it after the post is written, then renders
 * the post again). Found in the sanitised HTML: an external link whose text is its address, between the start of a
 * paragraph or a line break and the end of the paragraph or a line break. Everything in a card is escaped here; its
 * image is the forum's own copy (/uploads/previews/...), never the third party's address.
 */

/** What a card shows (a row of link_previews whose fetch succeeded). */
export interface LinkCard {
  url: string;
  title: string;
  description: string;
  siteName: string;
  /** The forum's copy of the page's image, or ''. */
  image: string;
}

const LONE_LINK =
  /(<p>|<br>\n?)<a href="(https?:\/\/[^"]{1,2000})" target="_blank" rel="nofollow noopener noreferrer ugc">([^<]{1,2000})<\/a>(?=<br>|<\/p>)/g;

const decode = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, e: string) =>
    e === 'amp' ? '&' : e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : "'",
  );

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Whether a link's text is its address (markdown-it writes the address percent-encoded, the text as typed). */
function textIsAddress(text: string, href: string): boolean {
  if (text === href) return true;
  try {
    return new URL(text).href === new URL(href).href;
  } catch {
    return false;
  }
}

/** The addresses of the links alone on their line, in order, without repeats (at most `max`). */
export function loneLinkUrls(html: string, max = 10): string[] {
  const urls = new Set<string>();
  for (const match of html.matchAll(LONE_LINK)) {
    const href = decode(match[2]!);
    if (!textIsAddress(decode(match[3]!), href)) continue;
    urls.add(href);
    if (urls.size >= max) break;
  }
  return [...urls];
}

function cardHtml(card: LinkCard): string {
  const href = escape(card.url);
  const host = (() => {
    try {
      return new URL(card.url).host;
    } catch {
      return '';
    }
  })();
  return (
    `<a class="lt-onebox" href="${href}" target="_blank" rel="nofollow noopener noreferrer ugc">` +
    '<span class="lt-onebox__text">' +
    `<span class="lt-onebox__site">${escape(card.siteName || host)}</span>` +
    `<strong class="lt-onebox__title">${escape(card.title)}</strong>` +
    (card.description ? `<span class="lt-onebox__description">${escape(card.description)}</span>` : '') +
    '</span>' +
    (card.image ? `<img class="lt-onebox__image" src="${escape(card.image)}" alt="" loading="lazy">` : '') +
    '</a>'
  );
}

/** The HTML with each lone link that has a card shown as that card. */
export function withLinkCards(html: string, cards: ReadonlyMap<string, LinkCard>): string {
  if (cards.size === 0) return html;
  return html.replace(LONE_LINK, (whole, before: string, href: string, text: string) => {
    const url = decode(href);
    const card = textIsAddress(decode(text), url) ? cards.get(url) : undefined;
    return card ? `${before}${cardHtml(card)}` : whole;
  });
}

/** The known previews of these addresses (those fetched successfully). */
export async function linkCardsFor(db: Kysely<DB>, urls: readonly string[]): Promise<Map<string, LinkCard>> {
  const cards = new Map<string, LinkCard>();
  if (urls.length === 0) return cards;
  const rows = await db
    .selectFrom('linkPreviews')
    .select(['url', 'title', 'description', 'siteName', 'image'])
    .where('url', 'in', urls)
    .where('status', '=', 'ok')
    .execute();
  for (const r of rows) cards.set(r.url, r);
  return cards;
}
