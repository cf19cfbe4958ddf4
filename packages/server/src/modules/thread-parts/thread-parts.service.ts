import { THREAD_PART_PERMISSIONS, type ContentIndexes, type ThreadPartType, type ThreadPartView } from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { can, type ViewerContext } from '../../access/viewer.js';
import { forbidden, invalidField } from '../../core/errors.js';
import { msg, type MessageKey } from '../../i18n/index.js';
import type { PartRead, PartWrite, ThreadPartRegistry } from './thread-parts.registry.js';
import {
  deletePart,
  insertPart,
  partRows,
  partTypesByThread,
  updatePartValue,
  type PartRow,
} from './thread-parts.repository.js';

const PART_NAMES: Readonly<Record<ThreadPartType, MessageKey>> = {
  101: 'threadParts.images',
  102: 'threadParts.audio',
  103: 'threadParts.video',
  104: 'threadParts.goods',
  106: 'threadParts.redPacket',
  107: 'threadParts.reward',
  108: 'threadParts.files',
  109: 'threadParts.vote',
};

/** The part's name in both languages (for messages). */
function partName(type: number): { zh: string; en: string } {
  const key = PART_NAMES[type as ThreadPartType];
  return key ? msg(key as 'threadParts.images') : { zh: String(type), en: String(type) };
}

const entries = (indexes: ContentIndexes | undefined) =>
  Object.entries(indexes ?? {}).map(([key, part]) => ({ key, part, type: Number(part.tomId) }));

/**
 * Before anything is written: every part the request creates or changes is one this app knows, and the viewer's
 * group holds its permission in the thread's category (administrators hold every permission). Deleting a part needs
 * only the right to edit the thread.
 */
export function assertMayWriteParts(
  registry: ThreadPartRegistry,
  viewer: ViewerContext,
  categoryId: number,
  indexes: ContentIndexes | undefined,
): void {
  for (const { key, part, type } of entries(indexes)) {
    if (!registry.has(type)) throw invalidField(`content.indexes.${key}.tomId`, msg('threadParts.notSupported'));
    if (part.operation === 'delete') continue;
    const permission = THREAD_PART_PERMISSIONS[type as ThreadPartType];
    if (!can(viewer, permission, categoryId)) {
      const name = partName(type);
      throw forbidden({
        zh: msg('threadParts.noPermission', { part: name.zh }).zh,
        en: msg('threadParts.noPermission', { part: name.en }).en,
      });
    }
  }
}

/** Runs the parts' `prepare` checks before the thread's write transaction (see ThreadPartHandler.prepare). */
export async function prepareThreadParts(
  db: Kysely<DB>,
  registry: ThreadPartRegistry,
  viewer: ViewerContext,
  indexes: ContentIndexes | undefined,
  threadId: number | null,
): Promise<void> {
  for (const { part, type } of entries(indexes)) {
    if (part.operation === 'delete' || part.body === undefined) continue;
    await registry.get(type)?.prepare?.(db, viewer, part.body as never, threadId);
  }
}

/**
 * Whether the thread's parts keep it a draft for now (see ThreadPartHandler.holdsDraft): asked before the write, with
 * what the request does to each part. A thread held so is stored (or stays) a draft whatever the request asked.
 */
export async function partsHoldDraft(
  db: Kysely<DB>,
  registry: ThreadPartRegistry,
  indexes: ContentIndexes | undefined,
  threadId: number | null,
): Promise<boolean> {
  const asked = entries(indexes);
  for (const handler of registry.all()) {
    if (!handler.holdsDraft) continue;
    const entry = asked.find((e) => e.type === handler.type);
    const body = entry === undefined ? undefined : entry.part.operation === 'delete' ? null : entry.part.body;
    if (await handler.holdsDraft(db, threadId, body as never)) return true;
  }
  return false;
}

/**
 * Creates, updates or deletes the parts a request carries, in the transaction of the thread's write. Without an
 * operation (or with one that does not fit what the thread holds) a part is created when the thread does not hold
 * one of its type yet, else updated, as the family decides it.
 */
export async function applyThreadParts(
  trx: Kysely<DB>,
  registry: ThreadPartRegistry,
  write: PartWrite,
  indexes: ContentIndexes | undefined,
): Promise<void> {
  const parts = entries(indexes);
  if (parts.length === 0) return;
  const existing = new Map((await partRows(trx, [write.thread.id])).map((row) => [row.type, row]));
  for (const { part, type } of parts) {
    const handler = registry.get(type)!;
    const previous = existing.get(type);
    if (part.operation === 'delete') {
      if (!previous) continue;
      await handler.remove?.(trx, write, previous.value);
      await deletePart(trx, write.thread.id, type);
      continue;
    }
    const body = part.body as never;
    if (!previous) {
      const value = await handler.create(trx, write, body);
      await insertPart(trx, { threadId: write.thread.id, type, value, at: write.at });
      continue;
    }
    let value: unknown;
    if (handler.update) {
      value = await handler.update(trx, write, body, previous.value);
    } else {
      await handler.remove?.(trx, write, previous.value);
      value = await handler.create(trx, write, body);
    }
    await updatePartValue(trx, write.thread.id, type, value, write.at);
  }
}

/** The rows of a thread's parts, as `presentThreadParts` reads them (ordered by type). */
export function threadPartRows(db: Kysely<DB>, threadId: number): Promise<PartRow[]> {
  return partRows(db, [threadId]);
}

/**
 * The thread's parts as this viewer may see them, keyed by type (thread.detail's `content.indexes`); `rows`: its
 * part rows when already read (threadPartRows).
 */
export async function presentThreadParts(
  db: Kysely<DB>,
  registry: ThreadPartRegistry,
  read: PartRead,
  rows?: readonly PartRow[],
): Promise<Record<string, ThreadPartView>> {
  const out: Record<string, ThreadPartView> = {};
  for (const row of rows ?? (await partRows(db, [read.thread.id]))) {
    const handler = registry.get(row.type);
    if (!handler) continue;
    out[String(row.type)] = {
      tomId: String(row.type),
      operation: 'select',
      threadId: read.thread.id,
      body: await handler.present(db, read, row.value),
    };
  }
  return out;
}

export { partTypesByThread };
