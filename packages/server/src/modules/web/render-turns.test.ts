import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../test/fixture.js';

/*
 * Pages not kept are rendered a few at a time (RENDER_CONCURRENCY), the others waiting in order of arrival
 * (web.routes.ts): seen in the server's own log, where each render says when it starts and when it is done. Needs
 * the web build, as core/page-cache.test.ts does.
 */
const lines: { msg?: string; url?: string }[] = [];
const log = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line));
    done();
  },
});

describe('pages rendered in turn', () => {
  const t = useTestServer({
    env: { GUEST_CACHE_MS: '0', RENDER_CONCURRENCY: '1', LOG_LEVEL: 'debug' },
    logStream: log,
  });

  it('renders one page at a time with RENDER_CONCURRENCY=1, in the order they were asked for, each one whole', async () => {
    const author = await t.buildMember();
    const long = await t.buildThread(author, { title: 'the long thread' });
    const reply = `${'A reply with **some emphasis**, [a link](https://example.com) and more words. '.repeat(20)}\n`;
    for (let i = 0; i < 10; i++) await t.buildReply(author, long.threadId, { text: reply });
    const short = await t.buildThread(author, { title: 'a short thread' });
    const urls = [`/thread/${long.threadId}`, '/thread/999999', `/thread/${short.threadId}`, '/'];

    lines.length = 0;
    const answers = await Promise.all(
      urls.map((url) => t.app.inject({ url, headers: { 'accept-encoding': 'identity' } })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 404, 200, 200]);
    expect(answers[0]!.body).toContain('the long thread');
    expect(answers[0]!.body).toContain('</html>');
    expect(answers[2]!.body).toContain('a short thread');

    const renders = lines
      .filter((l) => l.msg === 'page render started' || l.msg === 'page render done')
      .map((l) => `${l.msg === 'page render started' ? 'start' : 'done'} ${l.url}`);
    expect(renders).toEqual(urls.flatMap((url) => [`start ${url}`, `done ${url}`]));
  });
});
