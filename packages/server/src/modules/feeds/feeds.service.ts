import { ThreadSort, type Locale, type PostItem, type ThreadItem } from '@luntan/shared';
import { Feed } from 'feed';
import type { AppContext } from '../../context.js';
import { AppError, type LocalizedText } from '../../core/errors.js';
import { localize } from '../../core/i18n.js';
import { resolveViewer, type ViewerContext } from '../../access/viewer.js';
import { listCategories } from '../categories/index.js';
import { listPosts } from '../posts/index.js';
import { readSiteSettings } from '../settings/index.js';
import { listThreadsFor, threadDetail } from '../threads/index.js';

/** Items per feed: the newest threads of the site or a category, the newest replies of a thread. */
export const FEED_ITEMS = 30;

/** What a feed is of. */
export type FeedTarget = { kind: 'latest' } | { kind: 'category'; id: number } | { kind: 'thread'; id: number };

/** A feed that cannot be made for a guest: the thread or category is unknown, hidden or not readable. */
export class FeedNotFound extends Error {}

const TEXT = {
  latest: { zh: '最新主题', en: 'Latest threads' },
  latestDescription: { zh: '最新发布的主题', en: 'The newest threads' },
  categoryDescription: { zh: '分类中最新发布的主题', en: 'The newest threads of this category' },
  threadDescription: { zh: '这个主题的最新回复', en: 'The newest replies to this thread' },
  reply: { zh: '回复：', en: 'Re: ' },
  untitled: { zh: '无标题', en: 'Untitled' },
  siteName: { zh: '论坛', en: 'Forum' },
} satisfies Record<string, LocalizedText>;

/** Root-relative addresses in post HTML (images, links, mentions) made absolute: a reader has no page to resolve them. */
function absolutize(html: string, base: string): string {
  return html.replace(/(\s(?:src|href|poster)=")\/(?!\/)/g, `$1${base}/`);
}

/** The first words of post HTML as plain text (a reader's list line). */
function excerpt(html: string, length = 200): string {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(lt|gt|quot|#39|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e]!)
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > length ? `${text.slice(0, length)}…` : text;
}

function newest(dates: string[]): Date {
  const max = dates.reduce((a, b) => (a > b ? a : b), '');
  return max ? new Date(max) : new Date(0);
}

interface FeedSite {
  base: string;
  locale: Locale;
  name: string;
  logo: string;
}

function newFeed(site: FeedSite, self: string, title: string, description: string, link: string, updated: Date) {
  return new Feed({
    title,
    description,
    id: link,
    link,
    language: site.locale === 'zh' ? 'zh-CN' : 'en',
    ...(site.logo ? { image: site.logo.startsWith('/') ? site.base + site.logo : site.logo } : {}),
    copyright: '',
    // The newest item's time, not the moment it was made: the same threads make the same bytes (and ETag).
    updated,
    generator: 'Luntan',
    feedLinks: { rss: `${site.base}${self}` },
  });
}

function creator(name: string) {
  return [{ name: 'dc:creator', objects: { _cdata: name } }];
}

function threadItem(feed: Feed, site: FeedSite, thread: ThreadItem): void {
  const link = `${site.base}/thread/${thread.threadId}`;
  feed.addItem({
    title: thread.title || thread.summary.slice(0, 50) || localize(TEXT.untitled, site.locale),
    id: link,
    link,
    // The list's summary: plain text, of the free part only for a paid thread (threads.presenter.ts).
    description: thread.summary,
    date: new Date(thread.createdAt),
    category: [{ name: thread.categoryName }],
    extensions: creator(thread.user.nickname),
  });
}

function replyItem(feed: Feed, site: FeedSite, thread: { threadId: number; title: string }, reply: PostItem): void {
  const link = `${site.base}/thread/${thread.threadId}#post-${reply.id}`;
  feed.addItem({
    title: `${localize(TEXT.reply, site.locale)}${thread.title || localize(TEXT.untitled, site.locale)}`,
    id: link,
    link,
    description: excerpt(reply.content.html),
    content: absolutize(reply.content.html, site.base),
    date: new Date(reply.createdAt),
    extensions: creator(reply.user.nickname),
  });
}

/** Whether a refusal of the services means "not for a guest" (not found, no permission): a 404 for a feed. */
function refusedToGuest(error: unknown): boolean {
  return error instanceof AppError;
}

/**
 * The RSS 2.0 document of `target` as a guest sees it (the services a guest's page calls, so paid threads show their
 * free part, anonymous authors stay anonymous, hidden categories stay out). Throws FeedNotFound for an unknown,
 * hidden or unreadable category or thread.
 */
export async function buildFeed(ctx: AppContext, target: FeedTarget, origin: string): Promise<string> {
  const guest: ViewerContext = await resolveViewer(ctx.db, null, ctx.viewers);
  const settings = await readSiteSettings(ctx.db);
  const gate = await ctx.siteGate.get();
  const locale: Locale = gate.locale ?? 'zh';
  const configured = String(settings.siteUrl ?? '').replace(/\/+$/, '');
  const site: FeedSite = {
    base: configured || origin,
    locale,
    name: String(settings.siteName || settings.siteTitle || '') || localize(TEXT.siteName, locale),
    logo: String(settings.siteLogo ?? ''),
  };
  const viewer = { ...guest, locale };
  try {
    if (target.kind === 'thread') {
      const thread = await threadDetail(ctx, viewer, target.id);
      const replies = await listPosts(ctx, viewer, {
        threadId: target.id,
        page: 1,
        perPage: FEED_ITEMS,
        sort: '-createdAt',
      });
      const link = `${site.base}/thread/${target.id}`;
      const feed = newFeed(
        site,
        `/rss/thread/${target.id}.xml`,
        `${thread.title || localize(TEXT.untitled, locale)} - ${site.name}`,
        thread.summary || localize(TEXT.threadDescription, locale),
        link,
        newest([thread.createdAt, ...replies.pageData.map((r) => r.createdAt)]),
      );
      for (const reply of replies.pageData) replyItem(feed, site, thread, reply);
      return feed.rss2();
    }
    const categoryId = target.kind === 'category' ? target.id : null;
    let categoryName: string | null = null;
    if (categoryId !== null) {
      const category = (await listCategories(ctx.db)).find((c) => c.id === categoryId);
      if (!category) throw new FeedNotFound();
      categoryName = category.name;
    }
    const list = await listThreadsFor(
      ctx,
      viewer,
      {
        page: 1,
        perPage: FEED_ITEMS,
        filter: {
          sort: ThreadSort.CREATED,
          ...(categoryId !== null ? { categoryids: [categoryId] } : {}),
        },
      },
      { stickyFirst: false },
    );
    const feed = newFeed(
      site,
      categoryId !== null ? `/rss/category/${categoryId}.xml` : '/rss/latest.xml',
      categoryName ? `${categoryName} - ${site.name}` : `${localize(TEXT.latest, locale)} - ${site.name}`,
      localize(categoryName ? TEXT.categoryDescription : TEXT.latestDescription, locale),
      categoryId !== null ? `${site.base}/?categoryId=${categoryId}` : `${site.base}/`,
      newest(list.pageData.map((t) => t.createdAt)),
    );
    for (const thread of list.pageData) threadItem(feed, site, thread);
    return feed.rss2();
  } catch (error) {
    if (error instanceof FeedNotFound || refusedToGuest(error)) throw new FeedNotFound();
    throw error;
  }
}
