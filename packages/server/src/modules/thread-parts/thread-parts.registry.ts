import type { SupportedThreadPartType, ThreadPartInput, ThreadPartType } from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { ViewerContext } from '../../access/viewer.js';

/** The thread a part belongs to, as a part's handler sees it. */
export interface PartThread {
  id: number;
  userId: number;
  categoryId: number;
  /** The first post, which holds the thread's text. */
  postId: number;
  isDraft: boolean;
}

/** What a part's handler is told when the thread's write creates, updates or deletes the part. */
export interface PartWrite {
  viewer: ViewerContext;
  thread: PartThread;
  /** The write's time (ISO-8601 UTC). */
  at: string;
}

/** What a part's handler is told when it presents the part to a viewer. */
export interface PartRead {
  viewer: ViewerContext;
  thread: PartThread;
  /** Whether the viewer reads the thread whole (not a paid thread's free part only). */
  canViewFull: boolean;
}

type BodyOf<T extends SupportedThreadPartType> = NonNullable<Extract<ThreadPartInput, { tomId: `${T}` }>['body']>;

/**
 * A part type's behaviour on the server. Writes run inside the transaction of the thread's write: a handler that
 * throws (an AppError for a refusal) rolls back the thread and every other part, so a refusal stores nothing and
 * moves no money. `value` is what the handler keeps in thread_parts.value (JSON); tables of its own are its business.
 */
export interface ThreadPartHandler<T extends SupportedThreadPartType = SupportedThreadPartType, V = unknown> {
  type: T;
  /**
   * Before the thread's write transaction (optional): a check whose effects must outlive a refusal, such as counting
   * a pay password's wrong tries. `threadId` is null for a new thread. Throws to refuse.
   */
  prepare?(db: Kysely<DB>, viewer: ViewerContext, body: BodyOf<T>, threadId: number | null): Promise<void>;
  /**
   * Whether the thread must stay a draft for now (optional): a part waiting to be paid through a provider, which
   * publishes the thread itself once paid. Asked before the thread's write for every type that has it, with the
   * request's body for the part (null: the request deletes it; undefined: leaves it alone) and the thread (null: new).
   */
  holdsDraft?(db: Kysely<DB>, threadId: number | null, body: BodyOf<T> | null | undefined): Promise<boolean>;
  /** A new part: checks what the schema cannot (settings, ownership, money) and answers the value to keep. */
  create(trx: Kysely<DB>, write: PartWrite, body: BodyOf<T>): Promise<V>;
  /** The thread's author changed the part; the default is to delete it and create it anew. */
  update?(trx: Kysely<DB>, write: PartWrite, body: BodyOf<T>, previous: V): Promise<V>;
  /** The part is being removed from the thread (its row is deleted after this). */
  remove?(trx: Kysely<DB>, write: PartWrite, previous: V): Promise<void>;
  /** The body thread.detail answers this viewer (what a paid part hides, it leaves out). */
  present(db: Kysely<DB>, read: PartRead, value: V): Promise<unknown>;
}

/**
 * The part types this app knows: registered by the assembly (thread-parts.ts at the source root), so that the
 * threads module calls parts without importing any of them.
 */
export class ThreadPartRegistry {
  private readonly handlers = new Map<number, ThreadPartHandler>();

  register<T extends SupportedThreadPartType, V>(handler: ThreadPartHandler<T, V>): void {
    this.handlers.set(handler.type, handler as unknown as ThreadPartHandler);
  }

  get(type: number): ThreadPartHandler | undefined {
    return this.handlers.get(type);
  }

  has(type: ThreadPartType | number): boolean {
    return this.handlers.has(type);
  }

  all(): ThreadPartHandler[] {
    return [...this.handlers.values()];
  }
}
