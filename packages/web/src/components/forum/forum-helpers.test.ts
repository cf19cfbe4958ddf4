import { describe, expect, it } from 'vitest';
import { threadListRequest } from '../../api/forum-queries';
import { splitMatches } from './highlight';
import { imageMarkdown, insertBlock, wrapSelection } from './markdown-editor';
import { matchedPostHref } from './matched-post';
import { pageWindow } from './pager';
import { shareText, SHARE_TEXT_MAX } from './share-text';
import { createI18n } from '../../i18n';
import { dateTimeText, friendlyTime, stableTime } from './time-text';

describe('shareText (spec: images, line breaks, paragraph tags and whitespace removed, cut to 17)', () => {
  it('strips and cuts', () => {
    expect(shareText('<p>周末 读书会</p><br/>![图](/a.png)<img src="x">\n第二行')).toBe('周末读书会第二行');
    const long = '一二三四五六七八九十一二三四五六七八九十';
    expect(shareText(long)).toHaveLength(SHARE_TEXT_MAX);
    expect(SHARE_TEXT_MAX).toBe(17);
    expect([...shareText('😀'.repeat(20))]).toHaveLength(17);
  });
});

describe('splitMatches', () => {
  it('marks every word of the keyword, case-insensitively, inside Chinese text', () => {
    expect(splitMatches('分布式数据库与 SQLite', '数据库 sqlite')).toEqual([
      { text: '分布式', match: false },
      { text: '数据库', match: true },
      { text: '与 ', match: false },
      { text: 'SQLite', match: true },
    ]);
    expect(splitMatches('a+b (c)', '+b (')).toEqual([
      { text: 'a', match: false },
      { text: '+b', match: true },
      { text: ' ', match: false },
      { text: '(', match: true },
      { text: 'c)', match: false },
    ]);
  });
});

describe('pageWindow', () => {
  it('shows the first, the last and two around the current page, with gaps', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(5, 10)).toEqual([1, null, 3, 4, 5, 6, 7, null, 10]);
    expect(pageWindow(2, 4)).toEqual([1, 2, 3, 4]);
  });
});

describe('editor helpers', () => {
  it('wraps the selection or a placeholder, and writes image Markdown', () => {
    expect(wrapSelection('abc', 1, 2, { before: '**', after: '**', placeholder: 'x' })).toBe('a**b**c');
    expect(wrapSelection('abc', 3, 3, { before: '_', after: '_', placeholder: 'x' })).toBe('abc_x_');
    expect(imageMarkdown('photo [1].png', '/api/v3/attachments/k.png')).toBe('![photo 1](/api/v3/attachments/k.png)');
  });

  it('inserts an image as a paragraph of its own, never inside the list item or paragraph above', () => {
    const img = '![a](/a.png)';
    expect(insertBlock('', 0, img)).toBe(`${img}\n\n`);
    expect(insertBlock('- one\n- two', 11, img)).toBe(`- one\n- two\n\n${img}\n\n`);
    expect(insertBlock('- one\n', 6, img)).toBe(`- one\n\n${img}\n\n`);
    expect(insertBlock('text\n\n', 6, img)).toBe(`text\n\n${img}\n\n`);
    // In the middle of a paragraph: split it; before a following line or paragraph: one blank line between.
    expect(insertBlock('ab', 1, img)).toBe(`a\n\n${img}\n\nb`);
    expect(insertBlock('a\nb', 1, img)).toBe(`a\n\n${img}\n\nb`);
    expect(insertBlock('a\n\nb', 1, img)).toBe(`a\n\n${img}\n\nb`);
  });
});

describe('threadListRequest', () => {
  it('maps the home tabs to thread.list sorts and filters', () => {
    expect(threadListRequest({ page: 1 })).toEqual({ page: 1, perPage: 20, filter: { sort: 2 } });
    expect(threadListRequest({ page: 2, tab: 'newest', categoryId: 3 }).filter).toEqual({ sort: 1, categoryids: [3] });
    expect(threadListRequest({ page: 1, tab: 'hot' }).filter).toEqual({ sort: 3 });
    expect(threadListRequest({ page: 1, tab: 'essence' }).filter).toEqual({ sort: 2, essence: 1 });
    expect(threadListRequest({ page: 1, search: '数据库' }).filter).toEqual({ sort: 2, search: '数据库' });
  });
});

describe('times', () => {
  const zh = createI18n('zh').t;
  const en = createI18n('en').t;

  it('renders a stable UTC text for hydration and a friendly one afterwards', () => {
    expect(stableTime('2026-11-21T08:05:09.123Z')).toBe('2026-11-21 08:05');
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(friendlyTime('2026-11-21T09:59:30Z', en, now)).toBe('just now');
    expect(friendlyTime('2026-11-21T09:59:30Z', zh, now)).toBe('刚刚');
    expect(friendlyTime('2026-11-21T09:57:00Z', en, now)).toBe('3 minutes ago');
    expect(friendlyTime('2026-11-21T09:59:00Z', en, now)).toBe('1 minute ago');
    expect(friendlyTime('2026-11-21T07:00:00Z', zh, now)).toBe('3小时前');
    expect(friendlyTime('2026-11-21T09:57:00Z', zh, now)).toBe('3分钟前');
    expect(friendlyTime('2026-11-20T09:00:00Z', en, now)).toBe('yesterday');
    expect(friendlyTime('2026-11-20T09:00:00Z', zh, now)).toBe('昨天');
    expect(friendlyTime('2026-11-18T09:00:00Z', en, now)).toBe('3 days ago');
    expect(friendlyTime('2026-11-18T09:00:00Z', zh, now)).toBe('3天前');
  });

  it("formats an older time as the language's date and time, in the reader's zone, as Intl's medium style reads", () => {
    for (const iso of [
      '2026-10-01T08:05:00Z',
      '2026-03-09T00:00:00Z',
      '2026-12-31T12:30:00Z',
      '2026-07-04T23:59:00Z',
    ]) {
      const at = Date.parse(iso);
      for (const [locale, t] of [
        ['en', en],
        ['zh', zh],
      ] as const) {
        const intl = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
        // ICU writes a narrow no-break space before AM/PM; the catalogue a plain one.
        expect(dateTimeText(at, t), `${locale} ${iso}`).toBe(intl.replace(/\u202f/g, ' '));
        expect(friendlyTime(iso, t, at + 30 * 24 * 3600_000)).toBe(dateTimeText(at, t));
      }
    }
    expect(dateTimeText(Date.parse('2026-10-01T08:05:00Z'), en)).not.toBe(
      dateTimeText(Date.parse('2026-10-01T08:05:00Z'), zh),
    );
  });
});

describe('matchedPostHref', () => {
  const post = {
    postId: 40,
    isComment: false,
    replyPostId: null,
    user: { userId: 2, nickname: 'b', avatar: '' },
    createdAt: '2026-11-25T08:00:00.000Z',
    excerpt: '',
    position: 1,
    commentPosition: null,
  };
  it('opens the page of the reply (20 a page) at its anchor; a comment beyond the first ten at its reply', () => {
    expect(matchedPostHref(7, post)).toBe('/thread/7#post-40');
    expect(matchedPostHref(7, { ...post, position: 20 })).toBe('/thread/7#post-40');
    expect(matchedPostHref(7, { ...post, position: 21 })).toBe('/thread/7?page=2#post-40');
    const comment = { ...post, isComment: true, replyPostId: 30, position: 45, commentPosition: 10 };
    expect(matchedPostHref(7, comment)).toBe('/thread/7?page=3#post-40');
    expect(matchedPostHref(7, { ...comment, commentPosition: 11 })).toBe('/thread/7?page=3#post-30');
  });
});
