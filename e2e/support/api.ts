import type { Envelope, SessionData } from '@luntan/shared';
import Database from 'better-sqlite3';
import path from 'node:path';
import { ADMIN } from './server';

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

/**
 * Seeds unread notifications straight into the test server's SQLite database, so the real unread endpoint has
 * something to count (the calls that create notifications arrive with later issues).
 */
export function seedUnreadNotifications(dataDir: string, userId: number, count: number, category = 'thread'): void {
  const db = new Database(path.join(dataDir, 'luntan.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    const insert = db.prepare(
      'INSERT INTO notifications (user_id, type, category, title, content, data, read_at, created_at) VALUES (?, ?, ?, ?, ?, ?, NULL, ?)',
    );
    const now = new Date().toISOString();
    db.transaction(() => {
      for (let i = 0; i < count; i++) insert.run(userId, 'system', category, `n${i}`, '', '{}', now);
    })();
  } finally {
    db.close();
  }
}

export function clearNotifications(dataDir: string, userId: number): void {
  const db = new Database(path.join(dataDir, 'luntan.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare('DELETE FROM notifications WHERE user_id = ?').run(userId);
  } finally {
    db.close();
  }
}

/**
 * Makes a member's password the kind an outside sign-in gives an account it creates (random, unknown to its
 * owner), straight in the test server's SQLite database: the account then sets its first password on /my.
 */
export function markPasswordGenerated(dataDir: string, userId: number): void {
  const db = new Database(path.join(dataDir, 'luntan.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare(
      'INSERT INTO user_generated_passwords (user_id, password_hash, created_at) SELECT id, password_hash, ? FROM users WHERE id = ?',
    ).run(new Date().toISOString(), userId);
  } finally {
    db.close();
  }
}
