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

describe.each([
  { store: 'with increment', increment: true },
  { store: 'without increment (tallied from the vote records)', increment: false },
])('the poll server module, store $store', ({ increment }) => {
  const mount = () => mountServer(poll, memoryStore({ increment }));

  it('registers get, create and vote', async () => {
    const server = await mount();
    expect([...server.routes.keys()].sort()).toEqual(['GET get', 'POST create', 'POST vote']);
  });

  it('creates a poll (trimmed) owned by the viewer, and answers null for a thread without one', async () => {
    const server = await mount();
    expect(await server.call('GET get', { query: { threadId: '10' } })).toBeNull();
    const created = (await server.call('POST create', { body: create, viewer: author })) as PollView;
    expect(created).toEqual({
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
    expect(await server.call('GET get', { query: { threadId: '10' } })).toMatchObject({ question: 'Tea or coffee?' });
    expect(server.logged).toEqual(['info poll created']);
  });

  it('accepts only the first poll of a thread', async () => {
    const server = await mount();
    await server.call('POST create', { body: create, viewer: author });
    expect(await codeOf(server.call('POST create', { body: create, viewer: author }))).toBe(-4003);
    expect(await codeOf(server.call('POST create', { body: create, viewer: viewer(2) }))).toBe(-4003);
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
    ];
    for (const body of bad) expect(await codeOf(server.call('POST create', { body, viewer: author }))).toBe(-4001);
    expect(await server.call('GET get', { query: { threadId: '10' } })).toBeNull();
  });

  it('counts one vote per member and shows each their own choice', async () => {
    const server = await mount();
    await server.call('POST create', { body: create, viewer: author });
    const first = (await server.call('POST vote', {
      body: { threadId: 10, option: 1 },
      viewer: viewer(2),
    })) as PollView;
    expect(first).toMatchObject({ myVote: 1, canVote: false, total: 1 });
    await server.call('POST vote', { body: { threadId: 10, option: 1 }, viewer: viewer(3) });
    await server.call('POST vote', { body: { threadId: 10, option: 0 }, viewer: viewer(4) });
    expect(await codeOf(server.call('POST vote', { body: { threadId: 10, option: 0 }, viewer: viewer(2) }))).toBe(
      -4003,
    );

    const seen = (await server.call('GET get', { query: { threadId: '10' }, viewer: viewer(4) })) as PollView;
    expect(seen.options.map((o) => o.votes)).toEqual([1, 2, 0]);
    expect(seen).toMatchObject({ total: 3, myVote: 0, canVote: false });
    const guest = (await server.call('GET get', { query: { threadId: '10' } })) as PollView;
    expect(guest).toMatchObject({ total: 3, myVote: null, canVote: false });
    const other = (await server.call('GET get', { query: { threadId: '10' }, viewer: viewer(9) })) as PollView;
    expect(other).toMatchObject({ myVote: null, canVote: true });
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

describe('the poll server module with increment', () => {
  it('decides racing votes of one member atomically: one counts', async () => {
    const store = memoryStore({ increment: true });
    const server = await mountServer(poll, store);
    await server.call('POST create', { body: create, viewer: author });
    const results = await Promise.allSettled(
      [0, 1, 2].map((option) => server.call('POST vote', { body: { threadId: 10, option }, viewer: viewer(5) })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const view = (await server.call('GET get', { query: { threadId: '10' } })) as PollView;
    expect(view.total).toBe(1);
  });
});
