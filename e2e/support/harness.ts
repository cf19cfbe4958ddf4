import fs from 'node:fs';
import path from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Disposable,
  type Page,
} from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { ApiClient } from './api';
import { DEVICES, type DeviceName } from './devices';
import { REPO_ROOT, startServer, type RunningServer } from './server';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Where screenshots go: `.e2e-artifacts` (gitignored), or E2E_ARTIFACTS (an absolute directory, e.g. under /tmp). */
export const ARTIFACTS = process.env.E2E_ARTIFACTS ?? path.join(REPO_ROOT, '.e2e-artifacts');

/**
 * How long the pages wait for a script (a page chunk, a plugin module) before giving it up. The product's 3800 ms
 * (ASSET_LOAD_TIMEOUT_MS) measures a visitor's network; a renderer starved of CPU by parallel tests can take longer
 * to evaluate a chunk from localhost, and would show the asset error page or leave a plugin out.
 */
const TEST_ASSET_TIMEOUT_MS = 60_000;

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface E2E {
  device: DeviceName;
  server: RunningServer;
  browser: Browser;
  baseUrl: string;
  /**
   * A new browser context for this project's device (extra options override). Its pages give a script up after
   * 60 s, not the product's 3800 ms (see `shippedAssetTimeout`). One made in a test is closed after it (its pages'
   * streams and polls stop); one made outside a test (beforeAll) lasts the file.
   */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** From the next navigation on, the context's pages give a script up after the product's 3800 ms. */
  shippedAssetTimeout(context: BrowserContext): Promise<void>;
  /** A new page in a new context; errors in the page are collected in `errors`. */
  newPage(options?: BrowserContextOptions): Promise<{ page: Page; context: BrowserContext; errors: string[] }>;
  /**
   * The file's shared page, reset for the caller: signed out (no cookies, empty storage), the device's viewport,
   * other tabs closed, no errors recorded. Much cheaper than a new context (the renderer and the HTTP cache stay),
   * so tests use it unless they need a context of their own (fake clock, no JavaScript).
   */
  page(): Promise<{ page: Page; context: BrowserContext; errors: string[] }>;
  screenshot(page: Page, name: string): Promise<void>;
  /** The administrator's API client (logged in once per file). */
  admin(): Promise<ApiClient>;
}

export interface E2EOptions {
  /** Extra environment for the file's server, e.g. `{ PAYMENT_SANDBOX: '1' }`. */
  serverEnv?: Record<string, string>;
}

/** One server and one browser for the whole test file. */
export function useE2E(options: E2EOptions = {}): E2E {
  const device = inject('device');
  const state = {} as E2E;
  state.device = device;
  /** Contexts that last the file (the shared page's, any made in beforeAll), and those of the running test. */
  const contexts: BrowserContext[] = [];
  const testContexts: BrowserContext[] = [];
  let inTest = false;
  const generousAssetTimeouts = new Map<BrowserContext, Disposable>();

  beforeAll(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const [server, browser] = await Promise.all([
      startServer(options.serverEnv),
      chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }),
    ]);
    state.server = server;
    state.browser = browser;
    state.baseUrl = server.baseUrl;
  });

  const close = (context: BrowserContext) => {
    generousAssetTimeouts.delete(context);
    return context.close().catch(() => undefined);
  };

  beforeEach(() => {
    inTest = true;
  });
  // A test's pages would otherwise keep their live streams, polls and plugins running through the rest of the file.
  afterEach(async () => {
    inTest = false;
    await Promise.all(testContexts.splice(0).map(close));
  });

  afterAll(async () => {
    await Promise.all(contexts.map(close));
    await state.browser?.close();
    await state.server?.stop();
  });

  const newContext = async (options: BrowserContextOptions, forTheFile: boolean) => {
    const context = await state.browser.newContext({ ...DEVICES[device], baseURL: state.baseUrl, ...options });
    // Generous: a loaded CI machine is slow, and a retry costs more than waiting.
    context.setDefaultTimeout(30_000);
    context.setDefaultNavigationTimeout(60_000);
    (forTheFile || !inTest ? contexts : testContexts).push(context);
    const script = `window.__LUNTAN_ASSET_TIMEOUT_MS__ = ${TEST_ASSET_TIMEOUT_MS};`;
    generousAssetTimeouts.set(context, await context.addInitScript({ content: script }));
    return context;
  };
  state.newContext = (options = {}) => newContext(options, false);

  state.shippedAssetTimeout = async (context) => {
    await generousAssetTimeouts.get(context)?.dispose();
    generousAssetTimeouts.delete(context);
  };

  const newPage = async (options: BrowserContextOptions, forTheFile: boolean) => {
    const context = await newContext(options, forTheFile);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) errors.push(message.text());
    });
    return { page, context, errors };
  };
  state.newPage = (options = {}) => newPage(options, false);

  let shared: { page: Page; context: BrowserContext; errors: string[] } | null = null;
  state.page = async () => {
    if (!shared) {
      shared = await newPage({}, true);
    } else {
      const { page, context } = shared;
      await Promise.all(
        context
          .pages()
          .filter((p) => p !== page)
          .map((p) => p.close()),
      );
      if (page.url().startsWith(state.baseUrl)) {
        await page.evaluate(() => {
          window.localStorage.clear();
          window.sessionStorage.clear();
        });
      }
      // Leave the previous test's page first: its event stream would otherwise reconnect without the cookie and
      // log the refusal into the next test's errors.
      await page.goto('about:blank');
      await context.clearCookies();
      const viewport = DEVICES[device].viewport;
      if (viewport) await page.setViewportSize(viewport);
      shared.errors.length = 0;
    }
    return shared;
  };

  state.screenshot = async (page, name) => {
    // Not fullPage: Chromium takes those by resizing the viewport for a moment, which can flip the page to the other
    // layout (800 px rule) under the test's hands (a button moved, a header swapped).
    await page.screenshot({ path: path.join(ARTIFACTS, `${device}-${name}.png`) });
  };

  let admin: Promise<ApiClient> | null = null;
  state.admin = () => (admin ??= ApiClient.admin(state.baseUrl));

  return state;
}

/**
 * Opens a path in a fresh page in place of its initial about:blank entry, so the tab's history holds one entry
 * (page.goto would add a second one), as when a visitor opens a link in a new tab.
 */
export async function openAsFirstEntry(page: Page, baseUrl: string, url: string): Promise<void> {
  await page.evaluate((target) => window.location.replace(target), baseUrl + url);
  await page.waitForURL((current) => current.pathname + current.search === url);
}

/**
 * Waits until the page has hydrated (the browser entry marks the document) and, when the server rendered it for the
 * member's groups (`data-viewer="pending"`), has read the member's own data again (`data-viewer="member"`).
 */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(
    () => document.documentElement.dataset.hydrated === 'true' && document.documentElement.dataset.viewer !== 'pending',
  );
}

/**
 * Waits until a signed-in page's live stream is open and has read what happened before it opened
 * (hooks/use-live-updates.ts marks the document): from then on a change made through the API reaches the page.
 */
export async function liveOpen(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.live === 'open');
}
