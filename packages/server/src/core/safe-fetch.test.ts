import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockedAddressError, checkDestination, classifyAddress, FetchRefusedError, safeFetch } from './safe-fetch.js';

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['169.254.169.254', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    // IPv4-mapped IPv6 is judged as the IPv4 address it carries.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    // 6to4 and NAT64 forms may lead anywhere: refused.
    ['2002:7f00:1::1', 'other'],
    ['64:ff9b::7f00:1', 'other'],
    ['not an address', 'other'],
  ])('%s is %s', (address, refusal) => {
    expect(classifyAddress(address)).toBe(refusal);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(classifyAddress(address)).toBeNull();
    },
  );
});

describe('checkDestination', () => {
  it('refuses a private literal, naming it, and a host that resolves to one', async () => {
    await expect(checkDestination('http://10.1.2.3/x', false)).rejects.toThrow(/10\.1\.2\.3/);
    await expect(checkDestination('http://[::1]:8080/', false)).rejects.toBeInstanceOf(BlockedAddressError);
    const err = await checkDestination('http://localhost:9/', false).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockedAddressError);
    expect((err as BlockedAddressError).host).toBe('localhost');
    expect(classifyAddress((err as BlockedAddressError).address)).toBe('loopback');
  });

  it('lets them through with the switch, and refuses other schemes either way', async () => {
    await expect(checkDestination('http://10.1.2.3/x', true)).resolves.toMatchObject({ address: '10.1.2.3' });
    await expect(checkDestination('file:///etc/passwd', true)).rejects.toBeInstanceOf(FetchRefusedError);
  });

  it('takes a public literal without asking DNS', async () => {
    await expect(checkDestination('https://93.184.215.14/', false)).resolves.toMatchObject({ family: 4 });
  });
});

describe('safeFetch', () => {
  let server: http.Server;
  let base: string;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/to-v6-loopback') {
        res.writeHead(307, { location: `http://[::1]:${port}/ok` }).end();
      } else if (req.url === '/loop') {
        res.writeHead(302, { location: '/loop' }).end();
      } else if (req.url === '/to-file') {
        res.writeHead(302, { location: 'file:///etc/passwd' }).end();
      } else if (req.url === '/slow') {
        // Never answers (the test's timeout ends it).
      } else if (req.url === '/big') {
        res.writeHead(200).end(Buffer.alloc(100_000, 'a'));
      } else {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => res.writeHead(200).end(`${req.method} ${body}`));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  // Only this test's receiver (127.0.0.1) may be reached: every other refused address stays refused.
  const onlyReceiver = (address: string) => address === '127.0.0.1';

  it('posts to an allowed address', async () => {
    const res = await safeFetch(`${base}/echo`, { method: 'POST', body: 'hello', allowPrivate: onlyReceiver });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('POST hello');
  });

  it('refuses the receiver itself without the switch', async () => {
    await expect(safeFetch(`${base}/echo`, { allowPrivate: false })).rejects.toBeInstanceOf(BlockedAddressError);
  });

  it('checks every redirect hop', async () => {
    const err = await safeFetch(`${base}/to-v6-loopback`, { allowPrivate: onlyReceiver }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockedAddressError);
    expect((err as BlockedAddressError).address).toBe('::1');
    await expect(safeFetch(`${base}/to-file`, { allowPrivate: true })).rejects.toMatchObject({ reason: 'scheme' });
  });

  it('caps redirects, the time and the response size', async () => {
    await expect(safeFetch(`${base}/loop`, { allowPrivate: true, maxRedirects: 2 })).rejects.toMatchObject({
      reason: 'redirects',
    });
    await expect(safeFetch(`${base}/slow`, { allowPrivate: true, timeoutMs: 200 })).rejects.toMatchObject({
      reason: 'timeout',
    });
    const res = await safeFetch(`${base}/big`, { allowPrivate: true, maxBytes: 1000 });
    expect(res.body.length).toBe(1000);
    expect(res.truncated).toBe(true);
  });
});
