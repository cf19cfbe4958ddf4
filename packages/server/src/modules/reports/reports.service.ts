import {
  Code,
  ReportType,
  UserStatus,
  type Page,
  type ReportBatchBody,
  type ReportBatchResult,
  type ReportCreateBody,
  type ReportItem,
  type ReportListQuery,
  type ReportPerson,
  type ReportTypeValue,
} from '@luntan/shared';
import type { AppContext } from '../../context.js';
import { AppError, invalidField, notFoundField } from '../../core/errors.js';
import { now } from '../../core/time.js';
import { isUniqueViolation } from '../../db/errors.js';
import { requireUser, type ViewerContext } from '../../access/viewer.js';
import { plainText, summarize } from '../content/index.js';
import { assertCanReadThread, postExistsFor, postNotFound } from '../threads/index.js';
import {
  countReports,
  decideReports,
  findReportedPost,
  findReportedThread,
  findReportedUser,
  insertReport,
  listReports,
  postsByIds,
  threadsByIds,
  usersByIds,
} from './reports.repository.js';
import { msg, type Message } from '../../i18n/index.js';

/** How much of a reported post the back office shows. */
const EXCERPT_CHARS = 120;

interface Target {
  targetId: number;
  threadId: number | null;
  postId: number | null;
  reportedUserId: number | null;
}

const required = (field: string, text: Message) => invalidField(field, text);

/** The target of a report, which must exist and be visible to the reporter (else -4004, or -4002 for a thread). */
async function resolveTarget(ctx: AppContext, viewer: ViewerContext, body: ReportCreateBody): Promise<Target> {
  const { db } = ctx;
  if (body.type === ReportType.USER) {
    if (body.userId === undefined) throw required('userId', msg('reports.sayWhichUser'));
    const user = await findReportedUser(db, body.userId);
    if (!user || user.status === UserStatus.REJECTED) {
      throw notFoundField('userId', msg('reports.noSuchUser'));
    }
    return { targetId: user.id, threadId: null, postId: null, reportedUserId: user.id };
  }
  if (body.type === ReportType.THREAD) {
    if (body.threadId === undefined) throw required('threadId', msg('reports.sayWhichThread'));
    const thread = await findReportedThread(db, body.threadId);
    assertCanReadThread(viewer, thread);
    return { targetId: thread.id, threadId: thread.id, postId: null, reportedUserId: thread.userId };
  }
  if (body.postId === undefined) throw required('postId', msg('reports.sayWhichReply'));
  const post = await findReportedPost(db, body.postId);
  // A thread's first post is reported as the thread (type 1).
  if (!post || post.isFirst === 1 || !postExistsFor(viewer, post)) throw postNotFound();
  if (body.threadId !== undefined && body.threadId !== post.threadId) throw postNotFound();
  assertCanReadThread(viewer, await findReportedThread(db, post.threadId));
  return { targetId: post.id, threadId: post.threadId, postId: post.id, reportedUserId: post.userId };
}

/** POST /api/v3/reports: one open report per reporter and target; a second is -4003. */
export async function createReport(
  ctx: AppContext,
  viewer: ViewerContext,
  body: ReportCreateBody,
): Promise<{ id: number }> {
  const me = requireUser(viewer);
  const target = await resolveTarget(ctx, viewer, body);
  if (target.reportedUserId === me.id) {
    throw body.type === ReportType.USER
      ? invalidField('userId', msg('reports.cannotReportYourself'))
      : invalidField('type', msg('reports.cannotReportYourPost'));
  }
  try {
    const id = await insertReport(ctx.db, {
      userId: me.id,
      type: body.type,
      ...target,
      reason: body.reason,
      handlerId: null,
      handledAt: null,
      createdAt: now(),
    });
    return { id };
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw new AppError(Code.RESOURCE_EXIST, msg('reports.youAlreadyReportedAdministrator'));
    }
    throw err;
  }
}

const person = (u: { id: number; username: string; nickname: string; avatar: string } | undefined) =>
  u ? ({ userId: u.id, username: u.username, nickname: u.nickname, avatar: u.avatar } satisfies ReportPerson) : null;

/** GET /api/backAdmin/reports: newest first, with what each is about. */
export async function listReportsForAdmin(ctx: AppContext, q: ReportListQuery): Promise<Page<ReportItem>> {
  const { db } = ctx;
  const filter = { status: q.filter.status, type: q.filter.type };
  const [totalCount, rows] = await Promise.all([
    countReports(db, filter),
    listReports(db, filter, (q.page - 1) * q.perPage, q.perPage),
  ]);
  const userIds = new Set<number>();
  for (const r of rows) {
    userIds.add(r.userId);
    if (r.reportedUserId !== null) userIds.add(r.reportedUserId);
    if (r.handlerId !== null) userIds.add(r.handlerId);
  }
  const threadIds = [...new Set(rows.flatMap((r) => (r.threadId === null ? [] : [r.threadId])))];
  const postIds = [...new Set(rows.flatMap((r) => (r.postId === null ? [] : [r.postId])))];
  const [users, threads, posts] = await Promise.all([
    usersByIds(db, [...userIds]),
    threadsByIds(db, threadIds),
    postsByIds(db, postIds),
  ]);
  const userOf = new Map(users.map((u) => [u.id, u]));
  const threadOf = new Map(threads.map((t) => [t.id, t]));
  const postOf = new Map(posts.map((p) => [p.id, p]));
  const pageData = rows.map((r): ReportItem => {
    const reported = r.reportedUserId === null ? undefined : userOf.get(r.reportedUserId);
    const thread = r.threadId === null ? undefined : threadOf.get(r.threadId);
    const post = r.postId === null ? undefined : postOf.get(r.postId);
    const html = r.type === ReportType.POST ? post?.contentHtml : thread?.contentHtml;
    return {
      id: r.id,
      type: r.type as ReportTypeValue,
      status: r.status,
      reason: r.reason,
      remark: r.remark,
      reporter: person(userOf.get(r.userId)),
      target: {
        userId: r.reportedUserId,
        username: reported?.username ?? '',
        nickname: reported?.nickname ?? '',
        threadId: r.threadId,
        postId: r.postId,
        title: thread?.title ?? '',
        excerpt: html ? summarize(plainText(html), EXCERPT_CHARS) : '',
        deleted:
          r.type === ReportType.POST
            ? (post?.deletedAt ?? null) !== null || (thread?.deletedAt ?? null) !== null
            : r.type === ReportType.THREAD && (thread?.deletedAt ?? null) !== null,
      },
      handler: r.handlerId === null ? null : person(userOf.get(r.handlerId)),
      handledAt: r.handledAt,
      createdAt: r.createdAt,
    };
  });
  return {
    pageData,
    currentPage: q.page,
    perPage: q.perPage,
    totalCount,
    totalPage: Math.ceil(totalCount / q.perPage),
  };
}

/** POST /api/backAdmin/reports/batch: each open report is decided once; its reporter is told the outcome. */
export async function decideReportsBatch(
  ctx: AppContext,
  viewer: ViewerContext,
  body: ReportBatchBody,
): Promise<ReportBatchResult> {
  const me = requireUser(viewer);
  const ids = body.ids;
  const decided = await ctx.db.transaction().execute(async (trx) => {
    const rows = await decideReports(trx, ids, {
      status: body.status,
      handlerId: me.id,
      handledAt: now(),
      remark: body.remark ?? '',
    });
    for (const r of rows) {
      await ctx.events.emit(trx, 'report.handled', {
        reportId: r.id,
        userId: r.userId,
        actorId: me.id,
        type: r.type,
        targetId: r.targetId,
        status: r.status,
        remark: r.remark,
      });
    }
    return rows;
  });
  return { updated: decided.map((r) => r.id).sort((a, b) => a - b) };
}
