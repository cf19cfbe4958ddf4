import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { backoffMs } from '../../core/events/event-bus.js';
import { buildReply, buildThread } from '../../test/forum-fixtures.js';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import { manifest, operate, pluginFiles, tgz, uploadPlugin } from '../../test/plugin-fixtures.js';

/*
 * Plugins hear domain events through ctx.events.on (@luntan/plugin-sdk/server): the handlers of every enabled plugin
 * are called once per event after commit; one that throws is tried again later, without calling the plugins that
 * finished a second time; a disabled plugin hears nothing.
 */

/** Records what it hears in its store (readable through its route); its post.created handler fails once per event. */
const LISTENER_JS = (appid: string, failFirst: boolean) => `
export default function register(router, ctx) {
  ctx.events.on(['thread.created', 'post.created'], async (event) => {
    if (${failFirst} && event.name === 'post.created' && event.attempt === 1) throw new Error('not yet');
    await ctx.store.set('heard:' + String(event.id).padStart(8, '0'), {
      name: event.name, payload: event.payload, attempt: event.attempt,
    });
    await ctx.store.increment('calls');
  });
  router.get('heard', async () => ({
    heard: (await ctx.store.list('heard:')).map((e) => e.value),
    calls: (await ctx.store.get('calls')) ?? 0,
  }));
}
`;

const install = async (t: TestServer, admin: string, appid: string, failFirst: boolean) => {
  const files = pluginFiles(manifest({ appid, pluginName: appid, server: 'server.js' }), {
    'server.js': LISTENER_JS(appid, failFirst),
  });
  expect((await uploadPlugin(t, admin, await tgz(files))).Code).toBe(0);
  expect((await operate(t, admin, appid, 'enable')).Code).toBe(0);
};

interface Heard {
  heard: Array<{ name: string; payload: Record<string, number>; attempt: number }>;
  calls: number;
}
const heard = async (t: TestServer, appid: string) => (await t.get<Heard>(`/api/plugin/${appid}/heard`)).Data;

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login(ADMIN.username, ADMIN.password);
  await install(t, admin, 'steady', false);
  await install(t, admin, 'flaky', true);
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('plugins hearing events', () => {
  it('hear what they asked for, with the typed payload; a failing one is retried alone', async () => {
    const member = await buildUser(t);
    const thread = await buildThread(t, member.token);
    expect((await heard(t, 'steady')).heard).toEqual([
      {
        name: 'thread.created',
        payload: expect.objectContaining({ threadId: thread.threadId, userId: member.id }),
        attempt: 1,
      },
    ]);
    vi.useFakeTimers({ toFake: ['Date'] });
    const reply = await buildReply(t, member.token, thread.threadId);
    const post = { name: 'post.created', payload: { postId: reply.id, threadId: thread.threadId, userId: member.id } };
    // The steady plugin heard the reply; the flaky one threw on its first attempt (the reply stands).
    expect((await heard(t, 'steady')).heard[1]).toEqual({ ...post, attempt: 1 });
    expect((await heard(t, 'flaky')).heard.map((e) => e.name)).toEqual(['thread.created']);
    // After the retry's wait, the flaky plugin hears it (attempt 2); the steady one is not called again.
    vi.setSystemTime(Date.now() + backoffMs(1) + 100);
    await t.app.ctx.events.drain();
    expect((await heard(t, 'flaky')).heard[1]).toEqual({ ...post, attempt: 2 });
    expect(await heard(t, 'steady')).toMatchObject({ calls: 2 });
    expect((await heard(t, 'flaky')).calls).toBe(2);
  });

  it('a disabled plugin hears nothing; enabled again, it hears what follows', async () => {
    const member = await buildUser(t);
    expect((await operate(t, admin, 'steady', 'disable')).Code).toBe(0);
    await buildThread(t, member.token);
    expect((await operate(t, admin, 'steady', 'enable')).Code).toBe(0);
    expect((await heard(t, 'steady')).calls).toBe(2);
    const thread = await buildThread(t, member.token);
    const last = (await heard(t, 'steady')).heard.at(-1);
    expect(last).toMatchObject({ name: 'thread.created', payload: { threadId: thread.threadId } });
  });

  it('a server module asking for an event that does not exist is refused at load, and says so', async () => {
    const files = pluginFiles(manifest({ appid: 'typo', server: 'server.js' }), {
      'server.js': "export default function (router, ctx) { ctx.events.on('post.made', () => {}); }\n",
    });
    expect((await uploadPlugin(t, admin, await tgz(files))).Code).toBe(0);
    await operate(t, admin, 'typo', 'enable');
    const list = await t.get<Array<{ appid: string; enabled: boolean; serverError?: string }>>(
      '/api/backAdmin/plugin/list',
      admin,
    );
    expect(list.Data.find((p) => p.appid === 'typo')).toMatchObject({
      enabled: false,
      serverError: expect.stringContaining('post.made'),
    });
  });
});
