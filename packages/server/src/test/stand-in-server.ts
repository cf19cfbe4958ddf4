import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInRequest {
  method: string;
  /** Path with query, as the client sent it. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface StandInAnswer {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

export interface StandIn {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Every request received, oldest first. */
  requests: StandInRequest[];
  close(): Promise<void>;
}

/** A local HTTP server playing a third party (a payment gateway) for tests: one handler answers every request. */
export async function startStandIn(handle: (request: StandInRequest) => StandInAnswer): Promise<StandIn> {
  const requests: StandInRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      let answer: StandInAnswer;
      try {
        answer = handle(request);
      } catch (error) {
        answer = { status: 500, body: String(error) };
      }
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
