import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api';
import { hydrated, useE2E } from '../support/harness';
import { pluginPackage, type TestPlugin } from '../support/plugin-package';
import { ADMIN } from '../support/server';

/**
 * Plugins installed from the back office and working at once on the running forum: the packages are built here
 * (plugin.json + an ES module, packed as .tgz), uploaded through /admin/plugins, enabled there, and rendered by the
 * pages through the import map (the forum's React: hooks work inside the plugin).
 */
const e2e = useE2E();

/** A component with state (a React hook from the forum's own React) and the render inputs it was given. */
const greeter = (testId: string, text: string) => `
import { useState } from 'react';
import { jsx, jsxs } from 'react/jsx-runtime';
import { SDK_VERSION } from '@luntan/plugin-sdk';
export function Greeter(props) {
  const [count, setCount] = useState(0);
  const greeting = props.plugin.settings.greeting ?? ${JSON.stringify(text)};
  return jsxs('div', { 'data-testid': ${JSON.stringify(testId)}, className: 'e2e-plugin', style: { padding: '12px', border: '1px dashed #888', borderRadius: '8px', background: '#fffbe6' }, children: [
    jsx('strong', { children: greeting }),
    jsx('p', { children: props.siteData.platform + ' · sdk ' + SDK_VERSION + ' · ' + (props.isLogin ? props.userInfo.nickname : 'guest') }),
    jsx('button', { type: 'button', onClick: () => setCount(count + 1), children: 'clicked ' + count }),
  ] });
}
`;

async function signInAdmin(context: BrowserContext): Promise<void> {
  const session = await new ApiClient(e2e.baseUrl).ok<{ accessToken: string }>(
    'POST',
    '/api/v3/users/username.login',
    ADMIN,
  );
  await context.addCookies([{ name: 'access_token', value: session.accessToken, url: e2e.baseUrl, httpOnly: true }]);
}

function pluginCard(page: Page, appid: string) {
  return page.locator(`[data-testid="plugin-row"][data-appid="${appid}"]`);
}

/** Uploads the package on /admin/plugins and enables it there. */
async function installAndEnable(page: Page, plugin: TestPlugin): Promise<void> {
  await page.goto('/admin/plugins');
  await hydrated(page);
  await page.locator('[data-testid="plugin-upload"] input[type=file]').setInputFiles({
    name: `${plugin.appid}.tgz`,
    mimeType: 'application/gzip',
    buffer: pluginPackage(plugin),
  });
  await page.getByTestId('plugin-upload-submit').click();
  await page.getByTestId('plugin-upload-answer').filter({ hasText: plugin.pluginName }).waitFor();
  const card = pluginCard(page, plugin.appid);
  // A retried test finds the plugin installed and enabled already: the toggle would switch it off.
  const status = card.getByTestId('plugin-status');
  await status.waitFor();
  if (!(await status.innerText()).includes('已启用')) await card.getByTestId('plugin-toggle').click();
  await status.filter({ hasText: '已启用' }).waitFor();
}

/** Opens a page and waits until every plugin of the list has loaded or been given up. */
async function openWithPlugins(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await hydrated(page);
  await page.waitForFunction(() => document.documentElement.dataset.plugins === 'ready');
}

describe('plugins', () => {
  it('are installed and enabled from the back office, show at once, and go away on reload once disabled', async () => {
    const { page, context, errors } = await e2e.page();
    await signInAdmin(context);
    const plugin: TestPlugin = {
      appid: `hello-${e2e.device}`,
      pluginName: 'Hello E2E',
      entries: [{ target: 'plugin_index', hookName: 'right_insert', component: 'Greeter' }],
      settings: [
        { key: 'greeting', type: 'string', label: { zh: '问候语', en: 'Greeting' }, default: 'Hello from a plugin' },
        { key: 'apiKey', type: 'string', label: { zh: '接口密钥', en: 'API key' }, visibility: 'secret' },
      ],
      client: greeter('hello-plugin', 'Hello from a plugin'),
    };
    await installAndEnable(page, plugin);
    const card = pluginCard(page, plugin.appid);
    // Where it shows, in words; the hook's id for its developer in the tooltip.
    await expect(card.textContent()).resolves.toContain('首页：右栏');
    await expect(card.locator('[title="plugin_index · right_insert"]').count()).resolves.toBe(1);

    // Settings: a form from the plugin's schema; the secret one is a password input.
    await card.getByTestId('plugin-settings').click();
    await expect(card.getByLabel('接口密钥').getAttribute('type')).resolves.toBe('password');
    await card.getByLabel('问候语').fill('你好，插件');
    await card.getByTestId('plugin-settings-save').click();
    await page.locator('.lt-toast[data-type="success"]').waitFor();
    await e2e.screenshot(page, 'plugins-admin');

    // The home page, on the same server, without a restart: the component, its settings, its own state.
    await openWithPlugins(page, '/');
    const widget = page.getByTestId('hello-plugin');
    await widget.waitFor();
    await expect(widget.textContent()).resolves.toContain('你好，插件');
    await expect(widget.textContent()).resolves.toContain(e2e.device === 'desktop' ? 'pc · sdk' : 'h5 · sdk');
    await widget.getByRole('button', { name: 'clicked 0' }).click();
    await widget.getByRole('button', { name: 'clicked 1' }).waitFor();
    // The server's HTML holds the slot's default content only (no plugin markup): hydration cannot disagree.
    const raw = await (await fetch(`${e2e.baseUrl}/`)).text();
    expect(raw).not.toContain('hello-plugin');
    expect(raw).toContain('<script type="importmap">');
    await e2e.screenshot(page, 'plugins-home');

    // Disabled in the back office: gone on the next load of the page.
    await page.goto('/admin/plugins');
    await hydrated(page);
    await pluginCard(page, plugin.appid).getByTestId('plugin-toggle').click();
    await pluginCard(page, plugin.appid).getByTestId('plugin-status').filter({ hasText: '已停用' }).waitFor();
    await openWithPlugins(page, '/');
    expect(await page.getByTestId('hello-plugin').count()).toBe(0);

    // Deleted through the confirmation dialog.
    await page.goto('/admin/plugins');
    await hydrated(page);
    await pluginCard(page, plugin.appid).getByTestId('plugin-delete').click();
    await page.getByRole('dialog').getByText('Hello E2E').waitFor();
    await e2e.screenshot(page, 'plugins-delete-dialog');
    await page.getByTestId('plugin-delete-confirm').click();
    await pluginCard(page, plugin.appid).waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it('renders a plugin limited to h5 in the mobile layout only', async () => {
    const { page, context, errors } = await e2e.page();
    await signInAdmin(context);
    await installAndEnable(page, {
      appid: `phone-${e2e.device}`,
      pluginName: 'Phone only',
      platform: ['h5'],
      entries: [{ target: 'plugin_index', hookName: 'header_insert_after', component: 'Greeter' }],
      client: greeter('phone-plugin', 'Only on phones'),
    });
    await openWithPlugins(page, '/');
    if (e2e.device === 'mobile') {
      await page.getByTestId('phone-plugin').waitFor();
      await e2e.screenshot(page, 'plugins-h5-only');
    } else {
      expect(await page.getByTestId('phone-plugin').count()).toBe(0);
      // A narrow window switches to the mobile layout, whose plugin list holds it.
      await page.setViewportSize({ width: 600, height: 860 });
      await page.getByTestId('phone-plugin').waitFor();
    }
    expect(errors).toEqual([]);
  });

  it('keeps the page working when a plugin throws or its module never loads', async () => {
    // A context of its own: the page clock stays in it.
    const { page, context, errors } = await e2e.newPage();
    await signInAdmin(context);
    const slow = `slow-${e2e.device}`;
    await installAndEnable(page, {
      appid: `broken-${e2e.device}`,
      pluginName: 'Broken',
      entries: [
        { target: 'plugin_index', hookName: 'header_replace', component: 'Boom' },
        // Placed where there is no thread: it needs one, so it renders nothing.
        { target: 'plugin_index', hookName: 'header_insert_after', component: 'NeedsThread' },
      ],
      client: [
        "export function Boom() { throw new Error('boom'); }",
        "export function NeedsThread() { return 'needs a thread'; }",
        "NeedsThread.requiredProps = ['threadData'];",
        '',
      ].join('\n'),
    });
    await installAndEnable(page, {
      appid: slow,
      pluginName: 'Slow',
      entries: [{ target: 'plugin_index', hookName: 'header_insert_before', component: 'Greeter' }],
      client: greeter('slow-plugin', 'Slow to load'),
    });
    // Its module never answers: given up after 3800 ms of the page's clock, once every other module is in (the
    // clock's jump would give up any module still on its way).
    await page.route(`**/plugin-assets/${slow}/**`, () => undefined);
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await e2e.shippedAssetTimeout(context);
    await page.clock.install();
    await page.goto('/');
    await hydrated(page);
    await page.waitForFunction((appid) => document.documentElement.dataset.pluginsPending === appid, slow);
    await page.clock.fastForward(4000);
    await page.waitForFunction(() => document.documentElement.dataset.plugins === 'ready');
    // header_replace falls back to the site banner; the rest of the page works.
    await page.locator('[data-plugin-slot="plugin_index:header_replace"] > *').first().waitFor();
    expect(warnings.some((w) => w.includes('[plugin] Broken failed to render'))).toBe(true);
    expect(warnings.some((w) => w.includes('插件必须传入参数'))).toBe(true);
    expect(await page.getByText('needs a thread').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.dataset.pluginAssetErrors)).toBe(slow);
    // Administrators see which plugin did not load.
    await page.getByTestId('plugin-asset-error').filter({ hasText: 'Slow' }).waitFor();
    await e2e.screenshot(page, 'plugins-broken');
    await page.locator('.lt-home').waitFor();
    await page.unroute(`**/plugin-assets/${slow}/**`);
    // Plugin problems are console warnings only (spec section 8): no console error, no page error.
    expect(errors).toEqual([]);
  });

  it('adds a page under /plugin/<appid>/<path> with the trigger name pluginName@path; other paths are not found', async () => {
    const { page, context, errors } = await e2e.page();
    await signInAdmin(context);
    const appid = `page-${e2e.device}`;
    await installAndEnable(page, {
      appid,
      pluginName: 'Help',
      entries: [{ target: 'plugin_system', hookName: 'add_page_hook', component: 'Greeter', path: 'faq' }],
      client: greeter('page-plugin', 'Frequently asked questions'),
    });
    const response = await page.goto(`/plugin/${appid}/faq`);
    expect(response?.status()).toBe(200);
    await hydrated(page);
    await page.getByTestId('page-plugin').waitFor();
    await expect(page.locator('[data-plugin-trigger]').getAttribute('data-plugin-trigger')).resolves.toBe('Help@faq');
    expect(await page.title()).toMatch(/^Help@faq - /);
    await e2e.screenshot(page, 'plugins-page');

    const missing = await page.goto(`/plugin/${appid}/nothing-here`);
    expect(missing?.status()).toBe(404);
    expect(errors).toEqual([]);
  });

  it("reach the thread editor's toolbar and content hooks, and attach their data once the thread exists", async () => {
    const { page, context, errors } = await e2e.page();
    await signInAdmin(context);
    await installAndEnable(page, {
      appid: `editor-${e2e.device}`,
      pluginName: 'Editor helper',
      entries: [
        { target: 'plugin_post', hookName: 'post_extension_entry_hook', component: 'Entry' },
        { target: 'plugin_post', hookName: 'post_extension_content_hook', component: 'Below' },
        { target: 'plugin_detail', hookName: 'thread_extension_display_hook', component: 'Shown' },
      ],
      client: `
import { useEffect } from 'react';
import { jsx } from 'react/jsx-runtime';
export function Entry({ renderData, pluginAction }) {
  const { onThreadCreated, insert } = renderData;
  useEffect(() => onThreadCreated((threadId) => pluginAction.setStore({ created: threadId })), [onThreadCreated, pluginAction]);
  return jsx('button', { type: 'button', 'data-testid': 'entry-plugin', onClick: () => insert('来自插件的一段话'), children: '插入' });
}
Entry.requiredProps = ['renderData'];
export function Below({ renderData }) {
  return jsx('p', { 'data-testid': 'below-plugin', children: 'characters: ' + renderData.content.length });
}
export function Shown({ threadData, pluginStore }) {
  return jsx('p', { 'data-testid': 'detail-plugin', children: (pluginStore.created === threadData.threadId ? 'created here ' : 'other ') + threadData.threadId });
}
Shown.requiredProps = ['threadData'];
`,
    });
    await openWithPlugins(page, '/thread/post');
    await page.locator('input[name="title"]').fill('插件测试主题');
    await page.locator('.lt-editor__tools').getByTestId('entry-plugin').click();
    await expect(page.locator('#post-editor').inputValue()).resolves.toContain('来自插件的一段话');
    await page
      .getByTestId('below-plugin')
      .filter({ hasText: /characters: [1-9]/ })
      .waitFor();
    await e2e.screenshot(page, 'plugins-editor');
    await page.getByTestId('publish').click();
    await page.waitForURL((url) => /^\/thread\/\d+$/.test(url.pathname));
    const threadId = new URL(page.url()).pathname.split('/')[2];
    await page
      .getByTestId('detail-plugin')
      .filter({ hasText: `created here ${threadId}` })
      .waitFor();
    expect(errors).toEqual([]);
  });

  it('has the back office page in English too', async () => {
    // A context of its own: the shared page's live stream of the last test must not see the cookies change.
    const { page, context, errors } = await e2e.newPage();
    await signInAdmin(context);
    await context.addCookies([{ name: 'locale', value: 'en', url: e2e.baseUrl }]);
    await page.goto('/admin/plugins');
    await hydrated(page);
    await page.getByRole('heading', { name: 'Plugins', exact: true }).waitFor();
    await page.getByTestId('plugin-upload-submit').click();
    await page.getByTestId('plugin-upload-answer').filter({ hasText: 'Choose a plugin package first' }).waitFor();

    // A package breaking a rule: the server's written message names it.
    await page.locator('[data-testid="plugin-upload"] input[type=file]').setInputFiles({
      name: 'bad.tgz',
      mimeType: 'application/gzip',
      buffer: pluginPackage({
        appid: 'bad-version',
        pluginName: 'Bad',
        version: '1.0',
        entries: [{ target: 'plugin_index', hookName: 'right_insert', component: 'X' }],
        client: 'export const X = () => null;\n',
      }),
    });
    await page.getByTestId('plugin-upload-submit').click();
    await page.locator('[data-testid="plugin-upload-answer"][role="alert"]').waitFor();
    await e2e.screenshot(page, 'plugins-admin-en');
    // The forum's pages in English, with this file's enabled plugins (the broken one falls back to the banner).
    await openWithPlugins(page, '/');
    await e2e.screenshot(page, 'plugins-home-en');
    expect(errors).toEqual([]);
  });
});
