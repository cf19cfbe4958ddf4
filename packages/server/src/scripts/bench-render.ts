import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Envelope } from '@luntan/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { loadConfig } from '../config.js';
import { pageApi, type PageApi } from '../modules/web/index.js';
import { createServer } from '../server.js';

/**
 * What a thread page of 20 posts costs to render in process, in milliseconds of CPU (issue 25: at most 5 ms "to
 * render from data"). On a fresh SQLite forum of its own: a thread with 20 replies, rendered as a guest on a
 * desktop by the built server bundle (packages/web/dist/server/entry-server.js) many times, each time twice:
 * - with the page's API (modules/web/page-api.ts: the services called in process, as web.routes.ts does): the whole
 *   render, its loaders' reads included;
 * - with the answers of those reads already at hand (recorded from the first render): the render from data alone
 *   (route matching, loaders over a filled cache, renderToString, dehydration and the document).
 * The loaders' share is the difference. Medians of every render after a warm-up.
 *
 * `npx tsx --conditions=source packages/server/src/scripts/bench-render.ts [--renders N] [--entry path]`;
 * `npm run bench` runs it too (its "render a 20-post thread page" target).
 */

export const RENDER_POSTS = 20;

interface RenderInput {
  url: string;
  headers: Record<string, string>;
  api: PageApi;
}
interface Renderer {
  render(input: RenderInput): Promise<{ status: number; html: string }>;
  warmUp?: () => Promise<void>;
}

export interface RenderBenchResult {
  renders: number;
  /** Medians, in ms of CPU per render. */
  totalMs: number;
  fromDataMs: number;
  loadersMs: number;
  /** The page (HTML, boot state and router state included). */
  html: string;
}

const DESKTOP_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** Replies of the kinds a forum has: paragraphs, emphasis, a link, a list, a quote, some code. */
function replyText(i: number): string {
  return [
    `Reply ${i + 1}: I tried this on **my own server** and it worked after changing the _second_ setting.`,
    `See [the notes](https://example.com/notes/${i}) for the details; \`npm run build\` first.`,
    '- one point\n- another point with a longer line of text to wrap in the layout',
    '> what the thread said, quoted back',
    '这一段是中文，论坛的回复多半是这样的长度，再加上一些标点符号。',
  ].join('\n\n');
}

function webServerEntry(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@luntan/web/package.json')), 'dist', 'server', 'entry-server.js');
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** CPU ms (user and system, every thread of the process) that `work` took. */
async function cpuMs(work: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

async function post<T>(app: FastifyInstance, url: string, body: object, token?: string): Promise<T> {
  const res = await app.inject({
    method: 'POST',
    url,
    payload: body,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const answer = res.json<Envelope<T>>();
  if (answer.Code !== 0) throw new Error(`${url}: ${answer.Code} ${answer.Message}`);
  return answer.Data;
}

/** A thread of `RENDER_POSTS` replies by two members; its id. */
async function buildThreadPage(app: FastifyInstance): Promise<number> {
  const tokens: string[] = [];
  for (const name of ['benchauthor', 'benchreader']) {
    const user = await post<{ accessToken: string }>(app, '/api/v3/users/username.register', {
      username: name,
      password: 'password-123',
    });
    tokens.push(user.accessToken);
  }
  const thread = await post<{ threadId: number }>(
    app,
    '/api/v3/thread.create',
    { categoryId: 1, title: 'A thread of twenty replies', content: { text: replyText(-1) } },
    tokens[0],
  );
  for (let i = 0; i < RENDER_POSTS; i += 1) {
    await post(app, '/api/v3/posts.create', { id: thread.threadId, content: replyText(i) }, tokens[i % 2]);
  }
  await app.ctx.events.drain();
  return thread.threadId;
}

/** The page request as web.routes.ts hands it to pageApi: a guest's (only headers and cookies are read). */
const guestRequest = (headers: Record<string, string>) => ({ headers, cookies: {} }) as unknown as FastifyRequest;

export async function runRenderBench(
  options: { renders?: number; warmup?: number; entry?: string } = {},
): Promise<RenderBenchResult> {
  const renders = options.renders ?? 200;
  const warmup = options.warmup ?? 50;
  const entry = options.entry ?? webServerEntry();
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: npm run build first`);
  const renderer = (await import(pathToFileURL(entry).href)) as Renderer;
  await renderer.warmUp?.();

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'luntan-bench-render-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD: 'admin-password-1',
    RATE_LIMIT_REGISTER: '1000',
  });
  const server = await createServer(config);
  try {
    const { app } = server;
    const threadId = await buildThreadPage(app);
    const headers = { host: 'forum.example', 'user-agent': DESKTOP_UA };
    const url = `/thread/${threadId}`;
    const liveApi = (): PageApi => pageApi(app, guestRequest(headers), null);

    // The reads of one render, kept: the render from data is answered from them.
    const answers = new Map<string, Envelope<unknown>>();
    const recording: PageApi = async <T>(method: 'GET' | 'POST', p: string, body?: unknown) => {
      const answer = await liveApi()<T>(method, p, body);
      answers.set(`${method} ${p}`, answer);
      return answer;
    };
    const first = await renderer.render({ url, headers, api: recording });
    if (first.status !== 200 || !first.html.includes(`Reply ${RENDER_POSTS}:`)) {
      throw new Error(`the thread page did not render its ${RENDER_POSTS} replies (status ${first.status})`);
    }
    const fromData: PageApi = async <T>(method: 'GET' | 'POST', p: string) => {
      const answer = answers.get(`${method} ${p}`);
      if (!answer) throw new Error(`the render read ${method} ${p}, which the first render did not`);
      return answer as Envelope<T>;
    };

    const totals: number[] = [];
    const renderings: number[] = [];
    const loaders: number[] = [];
    for (let i = 0; i < warmup + renders; i += 1) {
      const total = await cpuMs(() => renderer.render({ url, headers, api: liveApi() }));
      const data = await cpuMs(() => renderer.render({ url, headers, api: fromData }));
      if (i < warmup) continue;
      totals.push(total);
      renderings.push(data);
      loaders.push(total - data);
    }
    return {
      renders,
      totalMs: median(totals),
      fromDataMs: median(renderings),
      loadersMs: median(loaders),
      html: first.html,
    };
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      renders: { type: 'string' },
      warmup: { type: 'string' },
      entry: { type: 'string' },
      // Writes the page rendered, to look at what it carries.
      html: { type: 'string' },
    },
  });
  const r = await runRenderBench({
    ...(values.renders ? { renders: Number(values.renders) } : {}),
    ...(values.warmup ? { warmup: Number(values.warmup) } : {}),
    ...(values.entry ? { entry: path.resolve(values.entry) } : {}),
  });
  console.log(
    `thread page of ${RENDER_POSTS} replies, median of ${r.renders} renders, ms of CPU: ` +
      `from data ${r.fromDataMs.toFixed(2)}, loaders ${r.loadersMs.toFixed(2)}, whole ${r.totalMs.toFixed(2)}; ` +
      `${(Buffer.byteLength(r.html) / 1000).toFixed(1)} kB of HTML`,
  );
  if (values.html) fs.writeFileSync(values.html, r.html);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
