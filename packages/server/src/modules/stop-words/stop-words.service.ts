import {
  Code,
  formatStopWordLine,
  isStopWordRule,
  parseStopWordLine,
  type Page,
  type StopWordItem,
  type StopWordRule,
  type StopWordsBatchBody,
  type StopWordsBatchResult,
  type StopWordsQuery,
  type StopWordType,
  type TextReplacement,
  describeProblem,
} from '@luntan/shared';
import type { Insertable, Kysely } from 'kysely';
import type { EventBus } from '../../core/events/event-bus.js';
import { bumpCacheVersion, readCacheVersion } from '../../core/cache-versions.js';
import { fieldError, invalidField, notFoundField } from '../../core/errors.js';
import { now } from '../../core/time.js';
import type { DB, StopWord, StopWordsTable } from '../../db/schema.js';
import { foldCase, StopWordMatcher } from './stop-word-matcher.js';
import {
  allStopWords,
  countStopWords,
  deleteStopWords,
  existingStopWords,
  listStopWords,
  upsertStopWords,
} from './stop-words.repository.js';
import { msg } from '../../i18n/index.js';

const VERSION = 'stopWords';

const toRule = (w: StopWord): StopWordRule => w as unknown as StopWordRule;

/**
 * The matcher of this process, rebuilt when the list's version counter moves (see core/cache-versions.ts): any
 * process that changes the list raises the counter in the same transaction, so every process sees the change on
 * its next check.
 */
export class StopWordCache {
  private version = -1;
  private matcher: StopWordMatcher | null = null;
  private loading: { version: number; promise: Promise<StopWordMatcher> } | null = null;

  async get(db: Kysely<DB>): Promise<StopWordMatcher> {
    const version = await readCacheVersion(db, VERSION);
    if (this.matcher && version === this.version) return this.matcher;
    if (this.loading?.version === version) return this.loading.promise;
    const promise = allStopWords(db).then((rows) => {
      const matcher = new StopWordMatcher(rows.map(toRule));
      if (version >= this.version) {
        this.version = version;
        this.matcher = matcher;
      }
      return matcher;
    });
    this.loading = { version, promise };
    try {
      return await promise;
    } finally {
      if (this.loading?.promise === promise) this.loading = null;
    }
  }
}

export interface ScreenedText {
  text: string;
  /** A {MOD} word was found in user content: hold it for review. */
  held: boolean;
  /** The first {REPLACE} word that changed the text, or null. */
  replacedWord: string | null;
}

/** -4006 naming the field in words and quoting the word; `Data: {field, word}` for programs. */
export const wordRefused = (field: string, word: string) =>
  fieldError(Code.CONTENT_BANNED, field, describeProblem(field, { kind: 'stopWord', word }), { word });

/**
 * Applies the stop words of `type` to a text that enters the site: {BANNED} refuses it (-4006 naming the word),
 * {REPLACE} substitutes, {MOD} holds user content (ugc) for review and refuses any other kind of text.
 * `place` puts replacements into the text (Markdown keeps them literal; plain text takes them as they are).
 */
export async function screenText(
  db: Kysely<DB>,
  cache: StopWordCache,
  type: StopWordType,
  text: string,
  field: string,
  place?: (text: string, replacements: readonly TextReplacement[]) => string,
): Promise<ScreenedText> {
  if (text === '') return { text, held: false, replacedWord: null };
  const verdict = (await cache.get(db)).check(text, type, place);
  if (verdict.banned) {
    const word = verdict.banned.find;
    throw fieldError(Code.CONTENT_BANNED, field, describeProblem(field, { kind: 'bannedWord', word }), { word });
  }
  // {MOD} holds user content and private messages for review; a name or a signature cannot wait, so it is refused.
  if (verdict.moderated && type !== 'ugc' && type !== 'dialog') throw wordRefused(field, verdict.moderated.find);
  return { text: verdict.text, held: verdict.moderated !== null, replacedWord: verdict.firstReplaced?.find ?? null };
}

function presentStopWord(w: StopWord): StopWordItem {
  const r = toRule(w);
  return {
    id: w.id,
    find: w.find,
    replacement: w.replacement,
    ugc: r.ugc,
    username: r.username,
    signature: r.signature,
    dialog: r.dialog,
    nickname: r.nickname,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
  };
}

export async function listStopWordsPage(db: Kysely<DB>, q: StopWordsQuery): Promise<Page<StopWordItem>> {
  const filter = q.filter ? foldCase(q.filter) : undefined;
  const [totalCount, rows] = await Promise.all([
    countStopWords(db, filter),
    listStopWords(db, filter, (q.page - 1) * q.perPage, q.perPage),
  ]);
  return {
    pageData: rows.map(presentStopWord),
    currentPage: q.page,
    perPage: q.perPage,
    totalCount,
    totalPage: Math.ceil(totalCount / q.perPage),
  };
}

/**
 * Imports lines, all or none (a line that cannot be read refuses the batch, naming it). Blank lines are passed
 * over; a word given twice in one batch counts once, the later lines being skipped.
 */
export async function importStopWords(
  db: Kysely<DB>,
  events: EventBus,
  userId: number,
  body: StopWordsBatchBody,
): Promise<StopWordsBatchResult> {
  const { words, overwrite } = body.data;
  const rules = new Map<string, StopWordRule>();
  let skipped = 0;
  for (const [i, line] of words.entries()) {
    const parsed = parseStopWordLine(line);
    if (parsed === null) continue;
    if (!isStopWordRule(parsed)) {
      throw invalidField(
        `data.words.${i}`,
        msg('stopWords.line', { value: i + 1, parsedZh: parsed.zh, parsedEn: parsed.en }),
      );
    }
    const key = foldCase(parsed.find);
    if (rules.has(key)) skipped += 1;
    else rules.set(key, parsed);
  }
  if (rules.size === 0) throw invalidField('data.words', msg('stopWords.noWordGiven'));
  const at = now();
  return db.transaction().execute(async (trx) => {
    const existing = await existingStopWords(trx, [...rules.keys()]);
    const rows: Insertable<StopWordsTable>[] = [];
    let created = 0;
    let updated = 0;
    for (const [key, rule] of rules) {
      if (existing.has(key)) {
        if (!overwrite) {
          skipped += 1;
          continue;
        }
        updated += 1;
      } else {
        created += 1;
      }
      rows.push({ ...rule, findNormalized: key, userId, createdAt: at, updatedAt: at });
    }
    await upsertStopWords(trx, rows, overwrite);
    if (rows.length > 0) {
      await bumpCacheVersion(trx, VERSION);
      // Posts written before a {REPLACE} word came are rendered again with it (modules/rerender).
      const replaced = rows.filter((r) => r.ugc === '{REPLACE}').map((r) => r.find);
      await events.emit(trx, 'stop_words.changed', { actorId: userId, replaced });
    }
    return { created, updated, skipped };
  });
}

export async function removeStopWords(
  db: Kysely<DB>,
  events: EventBus,
  actorId: number,
  ids: number[],
): Promise<{ deleted: number }> {
  return db.transaction().execute(async (trx) => {
    const deleted = await deleteStopWords(trx, ids);
    if (deleted === 0) throw notFoundField('id', msg('stopWords.noSuchStopWord'));
    await bumpCacheVersion(trx, VERSION);
    // A replacement already made stays: the text it replaced is no longer stored.
    await events.emit(trx, 'stop_words.changed', { actorId, replaced: [] });
    return { deleted };
  });
}

/** Every word as a batch line (the five-part form), oldest first: importing them back gives the same list. */
export async function exportStopWords(db: Kysely<DB>): Promise<{ words: string[]; totalCount: number }> {
  const words = (await allStopWords(db)).map((w) => formatStopWordLine(toRule(w)));
  return { words, totalCount: words.length };
}
