import type { PostItem, ThreadDetail } from '@luntan/shared';
import { afterAll, beforeAll } from 'vitest';
import { buildCategory, buildGroup, buildReply, buildThread } from './factories.js';
import { ADMIN, buildUser, startTestServer, type TestServer } from './harness.js';

type Member = Awaited<ReturnType<typeof buildUser>>;
/** Who writes: a member from `buildMember()` or a bare token. */
type Author = Member | string;

/** A test file's server, its signed-in administrator and the factories bound to both. */
export interface TestFixture extends TestServer {
  /** The administrator's token, signed in once for the file. */
  readonly admin: string;
  /** The TestServer itself, for helpers that take one. */
  readonly current: TestServer;
  buildMember(overrides?: Parameters<typeof buildUser>[1]): Promise<Member>;
  /** A category made by the administrator. */
  buildCategory(values?: Parameters<typeof buildCategory>[2]): Promise<number>;
  /** A thread by `author` (a new member when left out). */
  buildThread(author?: Author, values?: Parameters<typeof buildThread>[2]): Promise<ThreadDetail>;
  /** A reply by `author` to `threadId`. */
  buildReply(author: Author, threadId: number, values?: Parameters<typeof buildReply>[3]): Promise<PostItem>;
  /** A group holding `permissions`, with `members` moved into it. */
  buildGroup(permissions: string[], members?: Array<Member | number>): Promise<number>;
}

const tokenOf = (author: Author) => (typeof author === 'string' ? author : author.token);

/**
 * Starts a server for the test file (beforeAll), signs the administrator in, and closes it afterwards (afterAll),
 * as Outline's getTestServer(): `const t = useTestServer();` then `t.post(...)`, `t.admin`, `t.buildMember()`.
 * Call it at the top of a file or of a describe block; the object is usable once beforeAll has run.
 */
export function useTestServer(options: Parameters<typeof startTestServer>[0] = {}): TestFixture {
  let server: TestServer | undefined;
  let admin: string | undefined;
  const current = (): TestServer => {
    if (!server) throw new Error('useTestServer(): the server starts in beforeAll; use it inside a test or hook');
    return server;
  };

  beforeAll(async () => {
    server = await startTestServer(options);
    admin = await server.login(ADMIN.username, ADMIN.password);
  });
  afterAll(async () => {
    await server?.close();
    server = undefined;
  });

  const fixture: TestFixture = {
    get server() {
      return current().server;
    },
    get app() {
      return current().app;
    },
    get storage() {
      return current().storage;
    },
    get current() {
      return current();
    },
    get admin() {
      current();
      return admin as string;
    },
    call: (...args) => current().call(...args),
    get: (...args) => current().get(...args),
    post: (...args) => current().post(...args),
    login: (...args) => current().login(...args),
    close: (...args) => current().close(...args),
    buildMember: (overrides) => buildUser(current(), overrides),
    buildCategory: (values) => buildCategory(current(), fixture.admin, values),
    async buildThread(author, values) {
      return buildThread(current(), tokenOf(author ?? (await buildUser(current()))), values);
    },
    buildReply: (author, threadId, values) => buildReply(current(), tokenOf(author), threadId, values),
    buildGroup: (permissions, members = []) =>
      buildGroup(
        current(),
        fixture.admin,
        permissions,
        members.map((m) => (typeof m === 'number' ? m : m.id)),
      ),
  };
  return fixture;
}
