import { describe, expect, it } from 'vitest';
import { definePluginMessages } from './messages.js';

describe('definePluginMessages', () => {
  const m = definePluginMessages(
    { poll: { vote: '投票', votes: '{{count}} 票' }, errors: { closed: '投票已结束' } },
    { poll: { vote: 'Vote', votes: '{{count}} votes' }, errors: { closed: 'The poll is closed' } },
  );

  it("gives the page's language, Chinese by default, values filled", () => {
    expect(m.t('en', 'poll.vote')).toBe('Vote');
    expect(m.t('zh', 'poll.votes', { count: 3 })).toBe('3 票');
    expect(m.t(undefined, 'errors.closed')).toBe('投票已结束');
    expect(m.both('poll.votes', { count: 2 })).toEqual({ zh: '2 票', en: '2 votes' });
  });

  it('types the English catalogue by the Chinese one', () => {
    // @ts-expect-error: English lacks a key of the Chinese catalogue.
    definePluginMessages({ poll: { vote: '投票' } }, { poll: {} });
    // @ts-expect-error: not a key of the catalogue.
    expect(() => m.t('en', 'poll.missing')).toThrow();
  });
});
