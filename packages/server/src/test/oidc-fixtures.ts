import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import type { TestServer } from './harness.js';

/**
 * A certified OpenID provider (oidc-provider) on 127.0.0.1 for tests, with its development interactions (any login
 * name signs in as that subject), and a browser stand-in that drives a sign-in over HTTP: our start call, the
 * provider's login and consent forms, back to our callback.
 */

export const FORUM_ORIGIN = 'http://forum.test';
export const CLIENT = { id: 'luntan', secret: 'luntan-secret-value' };

export interface TestAccount {
  sub: string;
  preferred_username?: string;
  name?: string;
  email?: string;
}

export interface TestIdp {
  issuer: string;
  /** The subjects the provider knows, by login name (unknown names sign in with only a `sub`). */
  accounts: Map<string, TestAccount>;
  close(): Promise<void>;
}

export async function startTestIdp(redirectUris: string[]): Promise<TestIdp> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = new Map<string, TestAccount>();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'] },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ ...(accounts.get(sub) ?? {}), sub }),
    }),
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['test-cookie-key'] },
    // Given, so that the provider does not log a notice for each default.
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
  });
  // Quiet: the provider reports aborted interactions and bad requests as events.
  provider.on('server_error', () => undefined);
  server.on('request', provider.callback());
  return {
    issuer,
    accounts,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Cookies by name, as a browser keeps them for one host (paths ignored: enough for one sign-in at a time). */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  take(setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const gone = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /expires=thu, 01 jan 1970/i.test(a));
      if (gone || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

const setCookiesOf = (headers: Record<string, unknown>): string[] => {
  const v = headers['set-cookie'];
  return Array.isArray(v) ? (v as string[]) : typeof v === 'string' ? [v] : [];
};

export interface SignInResult {
  /** Where our callback sent the browser (path and query). */
  location: string;
  /** The session cookie it set, if any. */
  accessToken: string | undefined;
}

/**
 * Drives a sign-in as a browser would: our start call (signed in with `token` when given), the provider's pages
 * (log in as `login`, consent), our callback. `deny` presses the provider's abort instead of logging in;
 * `tamper` changes the callback's request first.
 */
export async function signInWithIdp(
  t: TestServer,
  slug: string,
  login: string,
  options: {
    token?: string;
    link?: boolean;
    redirect?: string;
    deny?: boolean;
    tamper?: (callback: { url: string; cookie: string }) => { url: string; cookie: string };
  } = {},
): Promise<SignInResult> {
  const ours = new CookieJar();
  const query = new URLSearchParams();
  if (options.redirect) query.set('redirect', options.redirect);
  if (options.link) query.set('link', '1');
  const start = await t.app.inject({
    method: 'GET',
    url: `/api/v3/oauth/${slug}/start?${query.toString()}`,
    headers: options.token ? { cookie: `access_token=${options.token}` } : {},
  });
  ours.take(setCookiesOf(start.headers));
  let location = String(start.headers.location ?? '');
  if (start.statusCode !== 302) throw new Error(`start answered ${start.statusCode}: ${start.body}`);
  // A refusal before leaving the site.
  if (location.startsWith('/')) return { location, accessToken: undefined };

  const idp = new CookieJar();
  for (let hop = 0; hop < 20 && !location.startsWith(FORUM_ORIGIN); hop++) {
    const url = new URL(location);
    let res = await fetch(url, { redirect: 'manual', headers: { cookie: idp.header() } });
    idp.take(res.headers.getSetCookie());
    if (/^\/interaction\/[^/]+$/.test(url.pathname) && res.status === 200) {
      const page = await res.text();
      const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
      if (options.deny) {
        const abort = new URL(`${url.pathname}/abort`, url);
        res = await fetch(abort, { redirect: 'manual', headers: { cookie: idp.header() } });
      } else {
        const form: Record<string, string> =
          prompt === 'login' ? { prompt, login, password: 'any' } : { prompt: 'consent' };
        res = await fetch(url, {
          method: 'POST',
          redirect: 'manual',
          headers: { cookie: idp.header(), 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(form).toString(),
        });
      }
      idp.take(res.headers.getSetCookie());
    }
    const next = res.headers.get('location');
    if (!next) throw new Error(`the provider answered ${res.status} at ${url.pathname}: ${await res.text()}`);
    location = new URL(next, url).href;
  }

  let callback = {
    url: location.slice(FORUM_ORIGIN.length),
    cookie: [ours.header(), options.token ? `access_token=${options.token}` : ''].filter(Boolean).join('; '),
  };
  if (options.tamper) callback = options.tamper(callback);
  const res = await t.app.inject({ method: 'GET', url: callback.url, headers: { cookie: callback.cookie } });
  if (res.statusCode !== 302) throw new Error(`callback answered ${res.statusCode}: ${res.body}`);
  const jar = new CookieJar();
  jar.take(setCookiesOf(res.headers));
  return { location: String(res.headers.location), accessToken: jar.cookies.get('access_token') };
}
