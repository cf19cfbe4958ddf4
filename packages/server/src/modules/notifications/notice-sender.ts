import { AsyncLocalStorage } from 'node:async_hooks';
import type { AppContext } from '../../context.js';
import { now } from '../../core/time.js';
import { renderNotice } from '../notification-templates/index.js';
import { readSiteInfo } from '../settings/index.js';
import {
  findOpenSubjectNotice,
  findPerson,
  hasBlocked,
  hasSubjectNotice,
  insertNotification,
  updateNotification,
} from './notifications.repository.js';

/*
 * How one notice is made: the rules every notice keeps (nobody is told about their own action, nobody hears from a
 * user they blocked, though what a moderator does is told as the site's word, a template switched off sends nothing,
 * a subject is told once or merged), its text from the template, and the word to the user's open pages. The verbs
 * that decide who is told what: notifications.service.ts.
 */

/**
 * The domain event being turned into notices (set by notifications.subscriber.ts). A notice that has no subject of
 * its own is told once per event and template, so an event delivered again (its process died after making some of
 * its notices, or a later notice failed) does not tell anyone twice.
 */
export const noticeEvent = new AsyncLocalStorage<number>();

/** Likes (and follows) of one subject within this time after the first merge into one unread notice. */
export const MERGE_WINDOW_MS = 30 * 60 * 1000;
/** How many of a merged notice's actors it remembers (to count each only once). */
const MERGED_ACTORS_KEPT = 50;
/** How much of a post's text a notice quotes. */
export const QUOTE_CHARS = 80;
/** notifications.title is varchar(255): a long placeholder value is cut. */
const TITLE_MAX = 255;

export interface Notice {
  /** The template's code key ('post.replied'). */
  key: string;
  userId: number;
  /** Who acted: never told themselves; a user who blocked them is not told when the notice shows them (showActor). */
  actorId: number | null;
  /**
   * Shown as the notice's fromUser (interactions: yes; what administrators do: no, it is the site speaking, so a
   * member who blocked the moderator is still told that their thread was deleted or their account banned).
   */
  showActor: boolean;
  vars?: Record<string, string | number>;
  threadId?: number | null;
  postId?: number | null;
  replyPostId?: number | null;
  /**
   * once: the subject is told once (a reply, a mention: an edit or approval does not tell it again);
   * merge: a new actor joins the open notice of the subject (likes, follows).
   */
  subject?: { key: string; mode: 'once' | 'merge' };
}

interface MergeData {
  actorIds: number[];
  actorCount: number;
}

/** Runs one notification job (named for the stack of a failure, which the event bus logs). */
export async function safely(_ctx: AppContext, _event: string, job: () => Promise<void>): Promise<void> {
  await job();
}

export const cut = (text: string, max: number) => {
  const chars = [...text];
  return chars.length <= max ? text : chars.slice(0, max).join('');
};

/** "张三等 3 人" / "Ann and 2 others": the actors of a merged notice, in the site's language (as the templates are). */
function actorsPhrase(latest: string, count: number, locale: string): string {
  if (count <= 1) return latest;
  if (locale === 'en') return `${latest} and ${count - 1} ${count === 2 ? 'other' : 'others'}`;
  return `${latest}等 ${count} 人`;
}

function parseMergeData(data: string): MergeData {
  try {
    const parsed = JSON.parse(data) as Partial<MergeData>;
    const actorIds = Array.isArray(parsed.actorIds) ? parsed.actorIds.filter((id) => typeof id === 'number') : [];
    return { actorIds, actorCount: typeof parsed.actorCount === 'number' ? parsed.actorCount : actorIds.length };
  } catch {
    return { actorIds: [], actorCount: 0 };
  }
}

/** Makes (or merges) one notice and tells the user's open pages. Answers whether anything was sent. */
export async function send(ctx: AppContext, asked: Notice): Promise<boolean> {
  const { db } = ctx;
  const eventId = noticeEvent.getStore();
  const n: Notice =
    asked.subject === undefined && eventId !== undefined
      ? { ...asked, subject: { key: `event:${eventId}:${asked.key}`, mode: 'once' } }
      : asked;
  if (n.actorId !== null && n.actorId === n.userId) return false;
  const recipient = await findPerson(db, n.userId);
  if (!recipient) return false;
  if (n.actorId !== null && n.showActor && (await hasBlocked(db, n.userId, n.actorId))) return false;
  if (n.subject?.mode === 'once' && (await hasSubjectNotice(db, n.userId, n.subject.key))) return false;
  const actor = n.actorId !== null ? await findPerson(db, n.actorId) : undefined;
  const site = await readSiteInfo(db);

  const open =
    n.subject?.mode === 'merge' && actor
      ? await findOpenSubjectNotice(db, n.userId, n.subject.key, new Date(Date.now() - MERGE_WINDOW_MS).toISOString())
      : undefined;
  const merged = open ? parseMergeData(open.data) : { actorIds: [], actorCount: 0 };
  // The same actor again (a like taken back and given again) adds nothing to the open notice.
  if (open && actor && merged.actorIds.includes(actor.id)) return false;
  const count = merged.actorCount + 1;

  const notice = await renderNotice(db, n.key, {
    username: recipient.username,
    nickname: recipient.nickname || recipient.username,
    sitename: site.siteName,
    actor: actor ? actorsPhrase(actor.nickname, count, site.siteLocale) : '',
    ...n.vars,
  });
  if (!notice) return false;
  const text = { title: cut(notice.title, TITLE_MAX), content: notice.content };
  const fromUserId = n.showActor && actor ? actor.id : null;
  const data: MergeData | Record<string, never> =
    n.subject?.mode === 'merge' && actor
      ? { actorIds: [actor.id, ...merged.actorIds].slice(0, MERGED_ACTORS_KEPT), actorCount: count }
      : {};

  let notificationId: number;
  if (open) {
    await updateNotification(db, open.id, { ...text, fromUserId, data: JSON.stringify(data) });
    notificationId = open.id;
  } else {
    notificationId = await insertNotification(db, {
      userId: n.userId,
      type: notice.type,
      category: notice.category,
      ...text,
      data: JSON.stringify(data),
      readAt: null,
      createdAt: now(),
      threadId: n.threadId ?? null,
      postId: n.postId ?? null,
      replyPostId: n.replyPostId ?? null,
      fromUserId,
      subjectKey: n.subject?.key ?? null,
    });
  }
  // What modules/push sends on to the member's devices. Not in one transaction with the notice: this runs inside an
  // event's delivery, where a transaction held across the outbox writes would make two apps sharing one SQLite file
  // in one process wait on each other; a push lost to a crash between the two writes is a push, the notice stays.
  await ctx.events.emit(db, 'notification.created', { notificationId, userId: n.userId });
  await ctx.live.publish(n.userId, { kind: 'notification', category: notice.category });
  return true;
}
