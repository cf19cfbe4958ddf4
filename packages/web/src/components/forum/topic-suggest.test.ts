import { describe, expect, it } from 'vitest';
import { insertTopic, topicAt } from './topic-suggest';

describe('topicAt (the #name being typed at the caret)', () => {
  it('needs a # and at least one name character before the caret', () => {
    expect(topicAt('去 #', 3)).toBeNull();
    expect(topicAt('去 #旅', 4)).toEqual({ start: 2, query: '旅' });
    expect(topicAt('#旅行', 3)).toEqual({ start: 0, query: '旅行' });
    expect(topicAt('杭州#旅行', 5)).toEqual({ start: 2, query: '旅行' });
  });

  it('is no topic after a Latin letter or a digit, after a space, across a line or past 20 characters', () => {
    expect(topicAt('C#abc', 5)).toBeNull();
    expect(topicAt('# heading', 9)).toBeNull();
    expect(topicAt('#旅\n行', 4)).toBeNull();
    expect(topicAt(`#${'一'.repeat(21)}`, 22)).toBeNull();
  });

  it('keeps a space inside the name', () => {
    expect(topicAt('#New York', 9)).toEqual({ start: 0, query: 'New York' });
  });
});

describe('insertTopic', () => {
  it('writes #name# and a space in place of the typed #query, and takes over a closing # typed after it', () => {
    expect(insertTopic('去 #旅 玩', { start: 2 }, 4, '旅行')).toEqual({ value: '去 #旅行#  玩', caret: 7 });
    expect(insertTopic('去 #旅#', { start: 2 }, 4, '旅行')).toEqual({ value: '去 #旅行# ', caret: 7 });
  });
});
