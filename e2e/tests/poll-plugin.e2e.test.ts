import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, uniqueName } from '../support/api';
import { hydrated, useE2E } from '../support/harness';
import { REPO_ROOT } from '../support/server';

/**
 * The first-party poll plugin, as a site gets it: packed from plugins/poll with `npm run plugin:pack`, uploaded and
 * enabled in the back office of a running forum, then used: a member writes a thread with a poll, another votes,
 * both see the result.
 */
const e2e = useE2E();
let archive: Buffer;

beforeAll(() => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'luntan-poll-'));
  execFileSync(
    path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx'),
    ['--conditions=source', 'packages/plugin-sdk/scripts/pack.ts', 'plugins/poll', '--out', out],
    { cwd: REPO_ROOT, stdio: 'pipe' },
  );
  const file = fs.readdirSync(out).find((name) => name.endsWith('.tgz'));
  if (!file) throw new Error('plugin:pack made no archive');
  archive = fs.readFileSync(path.join(out, file));
}, 120_000);

async function signIn(context: BrowserContext, token: string): Promise<void> {
  await context.addCookies([{ name: 'access_token', value: token, url: e2e.baseUrl, httpOnly: true }]);
}

async function openWithPlugins(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await hydrated(page);
  await page.waitForFunction(() => document.documentElement.dataset.plugins === 'ready');
}

describe('the poll plugin', () => {
  it('is uploaded through the back office; a member writes a thread with a poll, another votes and sees the result', async () => {
    const admin = await ApiClient.admin(e2e.baseUrl);
    const { page, context, errors } = await e2e.page();
    await signIn(context, admin.token!);
    await page.goto('/admin/plugins');
    await hydrated(page);
    await page.locator('[data-testid="plugin-upload"] input[type=file]').setInputFiles({
      name: 'poll.tgz',
      mimeType: 'application/gzip',
      buffer: archive,
    });
    await page.getByTestId('plugin-upload-submit').click();
    await page.getByTestId('plugin-upload-answer').waitFor();
    const card = page.locator('[data-testid="plugin-row"][data-appid="poll"]');
    const status = card.getByTestId('plugin-status');
    await status.waitFor();
    if (!(await status.innerText()).includes('已启用')) await card.getByTestId('plugin-toggle').click();
    await status.filter({ hasText: '已启用' }).waitFor();

    // The author writes a thread with a poll.
    const author = await ApiClient.register(e2e.baseUrl, uniqueName('pa'), 'password-123');
    await context.clearCookies();
    await signIn(context, author.token!);
    await openWithPlugins(page, '/thread/post');
    await page.locator('input[name="title"]').fill('周末去哪里');
    await page.locator('#post-editor').fill('大家投个票吧');
    const entry = page.locator('[data-plugin="poll"]');
    await entry.getByLabel('添加投票').check();
    await entry.getByLabel('投票问题').fill('去爬山还是看电影？');
    await entry.getByLabel('选项 1').fill('爬山');
    await entry.getByLabel('选项 2').fill('看电影');
    await e2e.screenshot(page, 'poll-editor');

    // The switch sits in the toolbar's row, centred like the tool buttons; the form is below the text, and its
    // controls wear the site's styles rather than the browser's.
    const middle = async (selector: string) => {
      const box = (await page.locator(selector).last().boundingBox())!;
      return box.y + box.height / 2;
    };
    const switchMiddle = await middle('.lt-editor__tools [data-plugin="poll"]');
    expect(
      Math.abs((await middle('.lt-editor__tools [data-plugin="poll"] input[type=checkbox]')) - switchMiddle),
    ).toBeLessThan(3);
    if (e2e.device === 'desktop') {
      expect(Math.abs(switchMiddle - (await middle('.lt-editor__tool')))).toBeLessThan(3);
    } else {
      // A phone's toolbar wraps: the switch may take the next line, still inside the toolbar.
      const bar = (await page.locator('.lt-editor__tools').boundingBox())!;
      expect(switchMiddle).toBeGreaterThan(bar.y);
      expect(switchMiddle).toBeLessThan(bar.y + bar.height);
    }
    const textBottom = await page.locator('#post-editor').evaluate((el) => el.getBoundingClientRect().bottom);
    const formTop = await page.locator('fieldset[data-plugin="poll"]').evaluate((el) => el.getBoundingClientRect().top);
    expect(formTop).toBeGreaterThan(textBottom);
    const question = await entry.getByLabel('投票问题').evaluate((el) => {
      const style = getComputedStyle(el);
      return { radius: style.borderRadius, height: style.height, className: el.className };
    });
    expect(question).toEqual({ radius: '8px', height: '40px', className: 'lt-textbox' });
    const add = await entry
      .getByRole('button', { name: '添加选项' })
      .evaluate((el) => getComputedStyle(el).borderRadius);
    expect(add).toBe('8px');
    await page.getByTestId('publish').click();
    await page.waitForURL((url) => /^\/thread\/\d+$/.test(url.pathname));
    const threadPath = new URL(page.url()).pathname;
    await page.getByText('去爬山还是看电影？').waitFor();

    // Another member votes.
    const voter = await ApiClient.register(e2e.baseUrl, uniqueName('pv'), 'password-123');
    await context.clearCookies();
    await signIn(context, voter.token!);
    await openWithPlugins(page, threadPath);
    const poll = page.locator('[data-plugin="poll"]');
    await poll.getByText('去爬山还是看电影？').waitFor();
    await poll.getByLabel('看电影').check();
    await e2e.screenshot(page, 'poll-vote');
    await poll.getByRole('button', { name: '投票' }).click();
    await poll.getByText('共 1 票').waitFor();
    await e2e.screenshot(page, 'poll-result');

    // The vote is kept: after a reload the voter sees the result (with their choice), not the form.
    await openWithPlugins(page, threadPath);
    await page.locator('[data-plugin="poll"]').getByText('共 1 票').waitFor();
    await expect(page.locator('[data-plugin="poll"]').getByRole('button', { name: '投票' }).count()).resolves.toBe(0);

    // In English: the switch and the form speak the page's language.
    await context.addCookies([{ name: 'locale', value: 'en', url: e2e.baseUrl }]);
    await openWithPlugins(page, '/thread/post');
    await page.locator('[data-plugin="poll"]').getByLabel('Add a poll').check();
    await page.locator('fieldset[data-plugin="poll"]').getByLabel('Poll question').waitFor();
    await e2e.screenshot(page, 'poll-editor-en');
    expect(errors).toEqual([]);
  }, 120_000);
});
