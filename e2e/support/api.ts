import type { Envelope, Page, SessionData } from '@luntan/shared';
import Database from 'better-sqlite3';
import path from 'node:path';
import pg from 'pg';
import { ADMIN, type RunningServer } from './server';

/** Talks to the real API of a test server, as a given user (or a guest). */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly token: string | null = null,
  ) {}

  async call<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<Envelope<T>> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(this.baseUrl + url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await response.json()) as Envelope<T>;
  }

  async ok<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
    const answer = await this.call<T>(method, url, body);
    if (answer.Code !== 0) throw new Error(`${method} ${url}: ${answer.Code} ${answer.Message}`);
    return answer.Data;
  }

  /**
   * Waits until the search finds the thread for `keyword`. The search index follows writes as an after-commit event
   * subscriber, so a search right after a write may not find it yet; a page renders what the server finds when it is
   * opened and does not search again by itself.
   */
  async searchFinds(keyword: string, threadId: number, timeoutMs = 30_000): Promise<void> {
    const url = `/api/v3/thread.list?page=1&perPage=50&filter%5Bsearch%5D=${encodeURIComponent(keyword)}`;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = await this.ok<Page<{ threadId: number }>>('GET', url);
      if (found.pageData.some((t) => t.threadId === threadId)) return;
      if (Date.now() > deadline) throw new Error(`search for ${keyword} did not find thread ${threadId}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  static async login(baseUrl: string, username: string, password: string): Promise<ApiClient & { userId: number }> {
    const guest = new ApiClient(baseUrl);
    const session = await guest.ok<SessionData>('POST', '/api/v3/users/username.login', { username, password });
    return Object.assign(new ApiClient(baseUrl, session.accessToken), { userId: session.userId });
  }

  static admin(baseUrl: string): Promise<ApiClient & { userId: number }> {
    return ApiClient.login(baseUrl, ADMIN.username, ADMIN.password);
  }

  static async register(baseUrl: string, username: string, password: string, nickname?: string) {
    const guest = new ApiClient(baseUrl);
    const body: Record<string, string> = { username, password };
    if (nickname) body.nickname = nickname;
    const session = await guest.ok<SessionData>('POST', '/api/v3/users/username.register', body);
    return Object.assign(new ApiClient(baseUrl, session.accessToken), { userId: session.userId, session });
  }

  /** Administrator: change site settings (tag default). */
  async settings(values: Record<string, string | number | boolean>): Promise<void> {
    await this.ok('POST', '/api/settings.v2', {
      data: Object.entries(values).map(([key, value]) => ({ key, value, tag: 'default' })),
    });
  }

  /** Administrator: replace the permissions of a group. */
  async groupPermissions(groupId: number, permissions: string[]): Promise<void> {
    await this.ok('POST', '/api/permission.v2', { groupId, permissions });
  }
}

let counter = 0;
/** A fresh, valid username for this run (letters and digits, at most 15 characters). */
export function uniqueName(prefix = 'u'): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36).slice(-5)}${counter}${process.pid % 100}`.slice(0, 15);
}

/** Statements (`?` placeholders) run in one transaction on a test server's database: SQLite or PostgreSQL. */
async function writeDatabase(
  server: Pick<RunningServer, 'dataDir' | 'postgres'>,
  statements: Array<{ sql: string; params: unknown[] }>,
): Promise<void> {
  if (server.postgres) {
    const client = new pg.Client({ connectionString: server.postgres.url });
    await client.connect();
    try {
      await client.query(`set search_path to "${server.postgres.schema}"`);
      await client.query('begin');
      for (const { sql, params } of statements) {
        let n = 0;
        await client.query(
          sql.replace(/\?/g, () => `$${(n += 1)}`),
          params,
        );
      }
      await client.query('commit');
    } finally {
      await client.end();
    }
    return;
  }
  const db = new Database(path.join(server.dataDir, 'luntan.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    db.transaction(() => {
      for (const { sql, params } of statements) db.prepare(sql).run(...params);
    })();
  } finally {
    db.close();
  }
}

/**
 * Seeds unread notifications straight into the test server's database, so the real unread endpoint has something to
 * count: the calls that create notices merge a thread's replies into one notice, and 150 of them would take long.
 */
export async function seedUnreadNotifications(
  server: Pick<RunningServer, 'dataDir' | 'postgres'>,
  userId: number,
  count: number,
  category = 'thread',
): Promise<void> {
  const now = new Date().toISOString();
  const sql =
    'INSERT INTO notifications (user_id, type, category, title, content, data, read_at, created_at) VALUES (?, ?, ?, ?, ?, ?, NULL, ?)';
  await writeDatabase(
    server,
    Array.from({ length: count }, (_, i) => ({ sql, params: [userId, 'system', category, `n${i}`, '', '{}', now] })),
  );
}

export async function clearNotifications(
  server: Pick<RunningServer, 'dataDir' | 'postgres'>,
  userId: number,
): Promise<void> {
  await writeDatabase(server, [{ sql: 'DELETE FROM notifications WHERE user_id = ?', params: [userId] }]);
}

/**
 * Makes a member's password the kind an outside sign-in gives an account it creates (random, unknown to its
 * owner), straight in the test server's database (SQLite or PostgreSQL): the account then sets its first password
 * on /my.
 */
export async function markPasswordGenerated(
  server: Pick<RunningServer, 'dataDir' | 'postgres'>,
  userId: number,
): Promise<void> {
  await writeDatabase(server, [
    {
      sql: 'INSERT INTO user_generated_passwords (user_id, password_hash, created_at) SELECT id, password_hash, ? FROM users WHERE id = ?',
      params: [new Date().toISOString(), userId],
    },
  ]);
}
