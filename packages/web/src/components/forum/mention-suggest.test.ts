import { describe, expect, it } from 'vitest';
import { insertMention, mentionAt } from './mention-suggest';

describe('mentionAt (the @name being typed at the caret)', () => {
  it('needs an @ and at least one name character before the caret', () => {
    expect(mentionAt('hi @', 4)).toBeNull();
    expect(mentionAt('hi @b', 5)).toEqual({ start: 3, query: 'b' });
    expect(mentionAt('@张三', 3)).toEqual({ start: 0, query: '张三' });
    expect(mentionAt('你好@张', 4)).toEqual({ start: 2, query: '张' });
  });

  it('is no mention after a Latin letter or a digit (an address), nor across a space', () => {
    expect(mentionAt('mail a@b', 8)).toBeNull();
    expect(mentionAt('@bob smith', 10)).toBeNull();
    expect(mentionAt('@bob, ok', 8)).toBeNull();
  });

  it('looks only at the text before the caret', () => {
    expect(mentionAt('@bobby', 3)).toEqual({ start: 0, query: 'bo' });
  });
});

describe('insertMention', () => {
  const bobby = { id: 12, nickname: '鲍比' };
  it('puts [@nickname](/user/id) and a space in place of what was typed, and the caret after it', () => {
    expect(insertMention('你好 @bo', { start: 3 }, 6, bobby)).toEqual({ value: '你好 [@鲍比](/user/12) ', caret: 19 });
    // The rest of a half-typed name after the caret is replaced too.
    expect(insertMention('@bo|by and', { start: 0 }, 3, bobby)).toEqual({
      value: '[@鲍比](/user/12) |by and',
      caret: 16,
    });
    expect(insertMention('@boXby and', { start: 0 }, 3, bobby)).toEqual({ value: '[@鲍比](/user/12)  and', caret: 16 });
  });

  it('escapes what Markdown would read in a nickname', () => {
    expect(insertMention('@a', { start: 0 }, 2, { id: 3, nickname: 'a_b [c]' }).value).toBe(
      '[@a\\_b \\[c\\]](/user/3) ',
    );
  });
});
