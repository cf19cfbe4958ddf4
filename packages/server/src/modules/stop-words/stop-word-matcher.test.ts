import type { StopWordAction } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { foldCase, StopWordMatcher, type MatcherWord } from './stop-word-matcher.js';

/** A word acting on ugc only. */
const w = (find: string, action: StopWordAction = '{BANNED}', replacement = '**'): MatcherWord => ({
  find,
  replacement,
  ugc: action,
  username: '{IGNORE}',
  signature: '{IGNORE}',
  dialog: '{IGNORE}',
  nickname: '{IGNORE}',
});
const found = (words: MatcherWord[], text: string) =>
  new StopWordMatcher(words).find(text).map((h) => [h.word.find, text.slice(h.start, h.end)]);

describe('the stop-word matcher', () => {
  it('finds words inside unspaced Chinese text', () => {
    expect(found([w('法轮'), w('赌博')], '我们不谈赌博和别的事')).toEqual([['赌博', '赌博']]);
    expect(found([w('赌博')], '赌博赌博')).toHaveLength(2);
  });

  it('ignores case, and keeps positions of the original text', () => {
    expect(found([w('Viagra')], 'buy VIAGRA now')).toEqual([['Viagra', 'VIAGRA']]);
    expect(found([w('straße')], 'STRASSE Straße')).toEqual([['straße', 'Straße']]);
    // "İ" grows when lower-cased: positions still line up.
    expect(found([w('spam')], 'İİ SPAM')).toEqual([['spam', 'SPAM']]);
    expect(foldCase('İA').length).toBe(2);
  });

  it('finds overlapping words and words that are suffixes of others', () => {
    const hits = found([w('he'), w('she'), w('hers')], 'ushers');
    expect(hits.map((h) => h[0]).sort()).toEqual(['he', 'hers', 'she']);
  });

  it('honours {n} wildcards: up to n characters of anything', () => {
    const words = [w('发{2}票')];
    expect(found(words, '代开发票')).toEqual([['发{2}票', '发票']]);
    expect(found(words, '代开发-票')).toEqual([['发{2}票', '发-票']]);
    expect(found(words, '代开发 x票')).toEqual([['发{2}票', '发 x票']]);
    expect(found(words, '代开发 xy票')).toEqual([]);
    expect(found([w('a{1}b{1}c')], 'a-b-c abc a--bc')).toEqual([
      ['a{1}b{1}c', 'a-b-c'],
      ['a{1}b{1}c', 'abc'],
    ]);
    // Leading and trailing wildcards change nothing; {0} joins.
    expect(found([w('{3}x{0}y{5}')], 'axyb')).toEqual([['{3}x{0}y{5}', 'xy']]);
  });

  it('counts a wildcard in characters, a Chinese character or an emoji being one', () => {
    expect(found([w('a{1}b')], 'a😀b')).toEqual([['a{1}b', 'a😀b']]);
  });

  it('takes regular-expression characters literally', () => {
    expect(found([w('a.b'), w('(x)')], 'axb a.b (x)')).toEqual([
      ['a.b', 'a.b'],
      ['(x)', '(x)'],
    ]);
  });

  it('skips {IGNORE} words', () => {
    expect(found([w('hello', '{IGNORE}')], 'hello')).toEqual([]);
    expect(new StopWordMatcher([w('hello', '{IGNORE}')]).size).toBe(0);
  });

  it('reports the first banned word, which wins over replacement', () => {
    const m = new StopWordMatcher([w('bad', '{REPLACE}'), w('worse'), w('worst')]);
    const v = m.check('bad worst worse', 'ugc');
    expect(v.banned?.find).toBe('worst');
    expect(v.text).toBe('bad worst worse');
  });

  it('reports a {MOD} word and still replaces', () => {
    const m = new StopWordMatcher([w('review', '{MOD}'), w('darn', '{REPLACE}', '**')]);
    expect(m.check('please Review this darn thing', 'ugc')).toEqual({
      banned: null,
      moderated: expect.objectContaining({ find: 'review' }),
      text: 'please Review this ** thing',
      replaced: 1,
      firstReplaced: expect.objectContaining({ find: 'darn' }),
    });
  });

  it('replaces leftmost-longest without overlaps, every occurrence', () => {
    const m = new StopWordMatcher([w('ab', '{REPLACE}', '1'), w('abc', '{REPLACE}', '2'), w('bcd', '{REPLACE}', '3')]);
    expect(m.check('abcd ab AB', 'ugc').text).toBe('2d 1 1');
    const cn = new StopWordMatcher([w('傻{1}瓜', '{REPLACE}', '**')]);
    expect(cn.check('你这个傻 瓜和傻瓜', 'ugc').text).toBe('你这个**和**');
  });

  it('acts per content type with one automaton', () => {
    const m = new StopWordMatcher([
      {
        find: 'boss',
        replacement: 'b*',
        ugc: '{REPLACE}',
        username: '{BANNED}',
        signature: '{IGNORE}',
        dialog: '{MOD}',
        nickname: '{MOD}',
      },
    ]);
    expect(m.check('the Boss', 'ugc')).toMatchObject({ banned: null, text: 'the b*' });
    expect(m.check('the Boss', 'username').banned?.find).toBe('boss');
    expect(m.check('the Boss', 'signature')).toMatchObject({ banned: null, moderated: null, text: 'the Boss' });
    expect(m.check('the Boss', 'dialog').moderated?.find).toBe('boss');
  });

  it('answers an empty list and an empty text', () => {
    expect(new StopWordMatcher([]).check('anything', 'ugc')).toEqual({
      banned: null,
      moderated: null,
      text: 'anything',
      replaced: 0,
      firstReplaced: null,
    });
    expect(new StopWordMatcher([w('x')]).check('', 'ugc').banned).toBeNull();
  });
});
