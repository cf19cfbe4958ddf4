import { isPluginError } from '@luntan/plugin-sdk/server';
import { describe, expect, it } from 'vitest';
import { memoryStore, mountServer, viewer } from './fake-host';
import type { PollView } from './rules';
import poll from './server';

const author = viewer(1);
const create = { threadId: 10, question: '  Tea or coffee? ', options: [' Tea', 'Coffee ', 'Water'] };

/** The code of the PluginError the call throws. */
async function codeOf(promise: Promise<unknown>): Promise<number> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isPluginError(error)) throw new Error(`expected a PluginError, got ${String(error)}`);
  return error.code;
}

async function mount() {
  const server = await mountServer(poll, memoryStore());
  return {
    ...server,
    /** The `poll` of a route's answer. */
    poll: async (...args: Parameters<typeof server.call>) =>
      ((await server.call(...args)) as { poll: PollView | null }).poll,
  };
}

describe('the poll server module', () => {
  it('registers get, create and vote', async () => {
    const server = await mount();
    expect([...server.routes.keys()].sort()).toEqual(['GET get', 'POST create', 'POST vote']);
  });

  it('creates a poll (trimmed) owned by the viewer, and answers a null poll for a thread without one', async () => {
    const server = await mount();
    expect(await server.call('GET get', { query: { threadId: '10' } })).toEqual({ poll: null });
    expect(await server.poll('POST create', { body: create, viewer: author })).toEqual({
      threadId: 10,
      question: 'Tea or coffee?',
      options: [
        { text: 'Tea', votes: 0 },
        { text: 'Coffee', votes: 0 },
        { text: 'Water', votes: 0 },
      ],
      total: 0,
      myVote: null,
      canVote: true,
    });
    expect(await server.poll('GET get', { query: { threadId: '10' } })).toMatchObject({ question: 'Tea or coffee?' });
    expect(server.logged).toEqual(['info poll created']);
  });

  it('accepts only the first poll of a thread, even when two race', async () => {
    const server = await mount();
    const raced = await Promise.allSettled([
      server.call('POST create', { body: create, viewer: author }),
      server.call('POST create', { body: { ...create, question: 'Other?' }, viewer: viewer(2) }),
    ]);
    expect(raced.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(await codeOf(server.call('POST create', { body: create, viewer: author }))).toBe(-4003);
    expect(await server.poll('GET get', { query: { threadId: '10' } })).toMatchObject({ question: 'Tea or coffee?' });
  });

  it('refuses guests and bad polls', async () => {
    const server = await mount();
    expect(await codeOf(server.call('POST create', { body: create }))).toBe(-4002);
    const bad = [
      { ...create, threadId: 0 },
      { ...create, threadId: 'x' },
      { ...create, question: ' ' },
      { ...create, question: 'q'.repeat(201) },
      { ...create, options: ['only one'] },
      { ...create, options: Array.from({ length: 11 }, (_, i) => `o${i}`) },
      { ...create, options: ['a', ' '] },
      { ...create, options: ['a', 'a '] },
      { ...create, options: ['a', 'b'.repeat(101)] },
      { ...create, options: 'a,b' },
      'not an object',
      null,
    ];
    for (const body of bad) expect(await codeOf(server.call('POST create', { body, viewer: author }))).toBe(-4001);
    expect(await server.poll('GET get', { query: { threadId: '10' } })).toBeNull();
  });

  it('counts one vote per member and shows each their own choice', async () => {
    const server = await mount();
    await server.call('POST create', { body: create, viewer: author });
    const first = await server.poll('POST vote', { body: { threadId: 10, option: 1 }, viewer: viewer(2) });
    expect(first).toMatchObject({ myVote: 1, canVote: false, total: 1 });
    await server.call('POST vote', { body: { threadId: 10, option: 1 }, viewer: viewer(3) });
    await server.call('POST vote', { body: { threadId: 10, option: 0 }, viewer: viewer(4) });
    expect(await codeOf(server.call('POST vote', { body: { threadId: 10, option: 0 }, viewer: viewer(2) }))).toBe(
      -4003,
    );

    const seen = await server.poll('GET get', { query: { threadId: '10' }, viewer: viewer(4) });
    expect(seen!.options.map((o) => o.votes)).toEqual([1, 2, 0]);
    expect(seen).toMatchObject({ total: 3, myVote: 0, canVote: false });
    expect(await server.poll('GET get', { query: { threadId: '10' } })).toMatchObject({
      total: 3,
      myVote: null,
      canVote: false,
    });
    expect(await server.poll('GET get', { query: { threadId: '10' }, viewer: viewer(9) })).toMatchObject({
      myVote: null,
      canVote: true,
    });
  });

  it("counts one of a member's racing votes", async () => {
    const server = await mount();
    await server.call('POST create', { body: create, viewer: author });
    const results = await Promise.allSettled(
      [0, 1, 2].map((option) => server.call('POST vote', { body: { threadId: 10, option }, viewer: viewer(5) })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((await server.poll('GET get', { query: { threadId: '10' } }))!.total).toBe(1);
  });

  it('refuses votes from guests, on threads without a poll and for options that do not exist', async () => {
    const server = await mount();
    await server.call('POST create', { body: create, viewer: author });
    expect(await codeOf(server.call('POST vote', { body: { threadId: 10, option: 0 } }))).toBe(-4002);
    expect(await codeOf(server.call('POST vote', { body: { threadId: 11, option: 0 }, viewer: viewer(2) }))).toBe(
      -4004,
    );
    for (const option of [-1, 3, 1.5, '1', null]) {
      expect(await codeOf(server.call('POST vote', { body: { threadId: 10, option }, viewer: viewer(2) }))).toBe(-4001);
    }
    expect(await codeOf(server.call('GET get', { query: {} }))).toBe(-4001);
  });
});
