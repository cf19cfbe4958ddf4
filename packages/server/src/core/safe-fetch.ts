import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/*
 * The one way the server fetches an address that someone else chose (a webhook's URL): nothing it fetches may reach
 * this machine or the network behind it (loopback, private, link-local, unspecified, carrier-grade NAT, and the
 * IPv6 forms that carry one of those) unless the environment says so (ALLOW_PRIVATE_FETCH=1, for tests and closed
 * networks). The host is resolved here, every address it resolves to is checked, and the connection goes to the
 * checked address (the socket's lookup is pinned to it: no second DNS answer between check and connect). Redirects
 * are followed by hand, each hop checked the same way, at most `maxRedirects`.
 *
 * Ground floor: imports no feature module.
 */

/** Why an address may not be fetched, or null when it is a public unicast address. */
export type AddressRefusal =
  | 'loopback'
  | 'private'
  | 'linkLocal'
  | 'uniqueLocal'
  | 'unspecified'
  | 'carrierGradeNat'
  | 'broadcast'
  | 'multicast'
  | 'reserved'
  | 'other';

const NAMED: ReadonlySet<string> = new Set([
  'loopback',
  'private',
  'linkLocal',
  'uniqueLocal',
  'unspecified',
  'carrierGradeNat',
  'broadcast',
  'multicast',
  'reserved',
]);

/**
 * The class of an IP address that may not be fetched, or null for a public one. IPv4-mapped IPv6 (::ffff:10.0.0.1)
 * is judged as the IPv4 address it carries; every other special IPv6 range (6to4, Teredo, NAT64 ...) is refused,
 * since it may lead to an address of the first kind.
 */
export function classifyAddress(address: string): AddressRefusal | null {
  if (!ipaddr.isValid(address)) return 'other';
  const ip = ipaddr.process(address);
  const range = ip.range();
  if (range === 'unicast') return null;
  return NAMED.has(range) ? (range as AddressRefusal) : 'other';
}

/** A refused destination: the host as written and the address it came to. */
export class BlockedAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
    readonly refusal: AddressRefusal,
  ) {
    super(
      host === address
        ? `${address} is a ${refusal} address and may not be fetched`
        : `${host} resolves to ${address}, a ${refusal} address, and may not be fetched`,
    );
    this.name = 'BlockedAddressError';
  }
}

/** A fetch refused or given up: a scheme other than http(s), an unknown host, too many redirects, no answer in time. */
export class FetchRefusedError extends Error {
  constructor(
    readonly reason: 'scheme' | 'dns' | 'redirects' | 'timeout',
    message: string,
  ) {
    super(message);
    this.name = 'FetchRefusedError';
  }
}

/** A host name without the brackets of an IPv6 literal. */
function bareHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * Whether refused addresses may be reached: true (ALLOW_PRIVATE_FETCH=1), false, or a test of one address (those it
 * accepts may be reached: a closed network's own hosts).
 */
export type PrivatePolicy = boolean | ((address: string) => boolean);

export interface Destination {
  host: string;
  /** The address to connect to. */
  address: string;
  family: 4 | 6;
}

/**
 * Resolves a URL's host and checks every address it resolves to (one refused address refuses the host: which one a
 * client gets is not ours to choose). Throws BlockedAddressError or FetchRefusedError.
 */
export async function checkDestination(rawUrl: string | URL, allowPrivate: PrivatePolicy): Promise<Destination> {
  const url = typeof rawUrl === 'string' ? new URL(rawUrl) : rawUrl;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchRefusedError('scheme', `${url.protocol} addresses may not be fetched`);
  }
  const host = bareHost(url);
  let addresses: { address: string; family: number }[];
  if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }];
  } else {
    try {
      addresses = await dns.lookup(host, { all: true, verbatim: true });
    } catch {
      throw new FetchRefusedError('dns', `${host} could not be resolved`);
    }
    if (addresses.length === 0) throw new FetchRefusedError('dns', `${host} could not be resolved`);
  }
  if (allowPrivate !== true) {
    for (const a of addresses) {
      const refusal = classifyAddress(a.address);
      if (refusal && !(allowPrivate && allowPrivate(a.address)))
        throw new BlockedAddressError(host, a.address, refusal);
    }
  }
  const first = addresses[0]!;
  return { host, address: first.address, family: first.family === 6 ? 6 : 4 };
}

export interface SafeFetchOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  allowPrivate: PrivatePolicy;
  /** For the whole exchange, every hop included. */
  timeoutMs?: number;
  /** Bytes of the response body kept; a longer body is cut (`truncated`), never read to its end. */
  maxBytes?: number;
  maxRedirects?: number;
  signal?: AbortSignal;
}

export interface SafeFetchResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  truncated: boolean;
  /** The last URL requested (after redirects). */
  url: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Fetches a URL that someone else chose, never reaching a refused address (see the top of this file). */
export async function safeFetch(rawUrl: string, options: SafeFetchOptions): Promise<SafeFetchResponse> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 10_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const maxRedirects = options.maxRedirects ?? 3;
  let url = new URL(rawUrl);
  let method = options.method ?? 'GET';
  let body = options.body;
  for (let hop = 0; ; hop++) {
    const destination = await checkDestination(url, options.allowPrivate);
    signal.throwIfAborted();
    let res: SafeFetchResponse;
    try {
      res = await requestOnce(url, destination, { ...options, method, body }, signal);
    } catch (err) {
      // The socket's error says only "aborted": say which limit ran out.
      if (timeout.aborted) throw new FetchRefusedError('timeout', `no answer within ${options.timeoutMs ?? 10_000} ms`);
      throw err;
    }
    if (!REDIRECTS.has(res.status) || !res.headers.location) return res;
    if (hop >= maxRedirects) {
      throw new FetchRefusedError('redirects', `more than ${maxRedirects} redirects`);
    }
    url = new URL(res.headers.location, url);
    // As fetch does: 303, and 301/302 after a POST, continue as a GET without the body.
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
    }
  }
}

function requestOnce(
  url: URL,
  destination: Destination,
  options: SafeFetchOptions & { method: 'GET' | 'POST' },
  signal: AbortSignal,
): Promise<SafeFetchResponse> {
  const maxBytes = options.maxBytes ?? 65_536;
  // The connection goes to the address checked above, whatever DNS would answer now.
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: destination.address, family: destination.family }]);
    else callback(null, destination.address, destination.family);
  };
  const transport = url.protocol === 'https:' ? https : http;
  const headers: Record<string, string | number> = { ...options.headers };
  if (options.body !== undefined) headers['content-length'] = Buffer.byteLength(options.body);
  return new Promise((resolve, reject) => {
    const req = transport.request(url, { method: options.method, headers, lookup, signal, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      const finish = () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          truncated,
          url: url.toString(),
        });
      res.on('data', (chunk: Buffer) => {
        if (truncated) return;
        const room = maxBytes - size;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          size = maxBytes;
          truncated = true;
          finish();
          res.destroy();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', () => {
        if (!truncated) finish();
      });
      res.on('error', (err) => {
        if (!truncated) reject(err);
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
