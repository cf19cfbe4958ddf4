import type { Page, ThreadItem } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import { buildThread } from '../../test/forum-fixtures.js';
import { cjkGrams } from './search-terms.js';

/** One- and two-character CJK words, answered from the grams index, must find exactly what a substring search finds. */

let t: TestServer;
const th = { cache: 0, split: 0, kana: 0, latin: 0 };

const search = async (keyword: string) => {
  const res = await t.get<Page<ThreadItem>>(
    `/api/v3/thread.list?perPage=50&filter[search]=${encodeURIComponent(keyword)}`,
  );
  if (res.Code !== 0) throw new Error(`${res.Code} ${res.Message}`);
  return res.Data.pageData.map((d) => d.threadId).sort((a, b) => a - b);
};

beforeAll(async () => {
  t = await startTestServer();
  const { token } = await buildUser(t);
  th.cache = (await buildThread(t, token, { title: '性能', text: '加了一层缓存以后，接口快了很多。' })).threadId;
  // "数" ends the title and "据" starts the text: "数据" is in neither.
  th.split = (await buildThread(t, token, { title: '关于数', text: '据说很快' })).threadId;
  th.kana = (await buildThread(t, token, { title: 'メモ', text: 'キャッシュを使う' })).threadId;
  th.latin = (await buildThread(t, token, { title: 'Kysely tips', text: 'Use it with Node.js' })).threadId;
});
afterAll(async () => {
  await t.close();
});

describe('short CJK search terms', () => {
  it('lists the characters and adjacent pairs of CJK runs only', () => {
    expect(cjkGrams('数据库 ok 缓存', '说').sort()).toEqual(
      ['数', '据', '库', '数据', '据库', '缓', '存', '缓存', '说'].sort(),
    );
    expect(cjkGrams('hello world')).toEqual([]);
  });

  it('finds one- and two-character words inside unspaced sentences', async () => {
    expect(await search('缓存')).toEqual([th.cache]);
    expect(await search('缓')).toEqual([th.cache]);
    expect(await search('接口 缓存')).toEqual([th.cache]);
    expect(await search('キャ')).toEqual([th.kana]);
    expect(await search('存以')).toEqual([th.cache]);
  });

  it('does not join the title and the text into a word', async () => {
    expect(await search('数据')).toEqual([]);
    expect(await search('据说')).toEqual([th.split]);
    expect(await search('数')).toEqual([th.split]);
  });

  it('keeps substring matching for short Latin terms and mixed queries', async () => {
    expect(await search('ky')).toEqual([th.latin]);
    expect(await search('js')).toEqual([th.latin]);
    expect(await search('kysely 缓存')).toEqual([]);
    expect(await search('一层缓存 快')).toEqual([th.cache]);
  });
});
