import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';

/**
 * The "bare Fastify ceiling" of `npm run bench`: what this machine, this Node and Fastify can answer at most with a
 * page like the forum's, so that the forum's rates read as a share of it measured in the same run. A tiny Fastify
 * server in a process of its own (forked from this file) answers every request with the bytes and headers the forum
 * sent for one page (fetched once, body as encoded on the wire), from memory: no routing beyond one route, no hooks,
 * no database, no render.
 */

/** A page's answer as the server sent it. */
export interface RawAnswer {
  status: number;
  /** Every header but those about the connection and the body's framing, which the ceiling's own server writes. */
  headers: Record<string, string | string[]>;
  /** The body as encoded on the wire (br, gzip or none, as negotiated). */
  body: Buffer;
  /** Bytes of the status line and every header as received (framing included), to compare with the ceiling's. */
  headBytes: number;
}

const FRAMING = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date']);

/** The size of a response head: `HTTP/1.1 200 OK\r\n`, each `name: value\r\n`, and the empty line. */
export function headBytes(statusLine: string, rawHeaders: string[]): number {
  let n = Buffer.byteLength(`${statusLine}\r\n\r\n`);
  for (let i = 0; i + 1 < rawHeaders.length; i += 2)
    n += Buffer.byteLength(`${rawHeaders[i]}: ${rawHeaders[i + 1]}\r\n`);
  return n;
}

/** GETs `url` without decoding the body (fetch would undo the content encoding). */
export function fetchRaw(url: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const kept: RawAnswer['headers'] = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined && !FRAMING.has(name)) kept[name] = value;
        }
        resolve({
          status: res.statusCode ?? 0,
          headers: kept,
          body: Buffer.concat(chunks),
          headBytes: headBytes(`HTTP/${res.httpVersion} ${res.statusCode} ${res.statusMessage}`, res.rawHeaders),
        });
      });
    });
    req.on('error', reject);
  });
}

const CHILD = 'LUNTAN_BENCH_CEILING';

/** In the forked process: serves the answer handed over, then says on which port. */
async function serve(answer: Omit<RawAnswer, 'headBytes'>): Promise<void> {
  const app = Fastify({ logger: false });
  const body = Buffer.from(answer.body);
  app.get('/*', (_request, reply) => reply.code(answer.status).headers(answer.headers).send(body));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  process.send!({ port: typeof address === 'object' && address ? address.port : 0 });
}

if (process.env[CHILD] === '1' && process.send) {
  process.once('message', (answer: Omit<RawAnswer, 'headBytes'>) => {
    serve(answer).catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
  });
}

/**
 * Forks the ceiling server (its own process group, as the forum's server: stop it the same way) with `answer`, and
 * resolves once it listens.
 */
export async function startCeiling(answer: RawAnswer): Promise<{ baseUrl: string; child: ChildProcess }> {
  // The same Node flags as this process (tsx's loader when run by `npm run bench`), so this very file runs as is.
  const child = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, [CHILD]: '1' },
    serialization: 'advanced',
    detached: true,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (m: { port: number }) => resolve(m.port));
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the ceiling server exited with code ${code}`)));
      child.send({ status: answer.status, headers: answer.headers, body: answer.body });
    });
    return { baseUrl: `http://127.0.0.1:${port}`, child };
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
}
