import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { buildDzqFixture, writeDumpFile, type DzqFixture } from '../../packages/server/src/scripts/discuzq/fixture';
import { ApiClient } from '../support/api';
import { hydrated, useE2E } from '../support/harness';
import { REPO_ROOT } from '../support/server';

/**
 * A Discuz! Q site moved over with `npm run import:discuzq` (the realistic fixture: the real install database plus
 * its members, threads, files, messages and money): an old member signs in with the old password and finds their
 * thread with its picture, mention, topic and emoji, their wallet and their messages.
 */
const e2e = useE2E();
let dir: string;
let fixture: DzqFixture;

function runImport(args: string[]): Promise<string> {
  const { server } = e2e;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=source', 'packages/server/src/scripts/import-discuzq.ts', ...args],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        DATA_DIR: server.dataDir,
        DATABASE_URL: server.postgres?.url ?? '',
        DATABASE_SCHEMA: server.postgres?.schema ?? '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`import exited ${code}:\n${output}`)))),
  );
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dzq-e2e-'));
  fixture = await buildDzqFixture(dir);
  const dump = path.join(dir, 'site.sql.gz');
  await writeDumpFile(dump, fixture.sql, true);
  const output = await runImport([
    '--from',
    dump,
    '--storage',
    fixture.storageDir,
    '--report',
    path.join(dir, 'report.txt'),
  ]);
  expect(output).toContain('posts');
}, 180_000);

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/user/login');
  await hydrated(page);
  await page.getByLabel('用户名', { exact: true }).fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登录' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/user/login'));
}

describe('a member of an imported Discuz! Q site', () => {
  it('signs in with the old password and finds their thread, wallet and messages', async () => {
    const { alice, bob } = fixture.expect.users;
    const { page, errors } = await e2e.page();
    await signIn(page, alice.username, alice.password);

    // The old site was paid and alice's membership ran out in 2022: as there, she is asked to pay to come back in.
    await page.goto('/thread/1');
    await hydrated(page);
    await page.getByRole('button', { name: '支付并加入' }).waitFor();
    // Its administrator, with the old password too, opens the site to everyone.
    const admin = await ApiClient.login(
      e2e.baseUrl,
      fixture.expect.users.admin.username,
      fixture.expect.users.admin.password,
    );
    await admin.settings({ siteMode: 'public' });
    // A retry starts where the import left the site: paid.
    onTestFailed(() => admin.settings({ siteMode: 'pay' }));

    // Their first thread: the picture is the imported file, the mention and the topic link as ours, the emoji shows.
    await page.goto('/thread/1');
    await hydrated(page);
    const body = page.getByTestId('thread-content');
    await body.waitFor();
    await expect.poll(() => body.locator('img[src^="/api/v3/attachments/"]').count()).toBe(1);
    expect(await body.locator(`a[href="/user/${bob.id}"]`).textContent()).toBe(`@${bob.nickname}`);
    expect(await body.locator('a[href="/topic/1"]').textContent()).toBe('#新人报到#');
    expect(await body.locator('img[src="/uploads/emoji/qq/weixiao.gif"]').count()).toBe(1);
    // Loaded, not just present: the file is served (the first image after a start loads the image library first).
    const picture = body.locator('img[src^="/api/v3/attachments/"]');
    await picture.scrollIntoViewIfNeeded();
    await expect
      .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    await e2e.screenshot(page, 'discuzq-imported-thread');

    // Their wallet: the old balance, to the cent.
    await page.goto('/wallet');
    await hydrated(page);
    const available = fixture.expect.wallets.byUser[alice.id]!.availableCents;
    const yuan = `¥${Math.trunc(available / 100)}.${String(available % 100).padStart(2, '0')}`;
    await expect
      .poll(async () => (await page.getByTestId('wallet-available').first().textContent())?.trim())
      .toBe(yuan);
    await e2e.screenshot(page, 'discuzq-imported-wallet');

    // Their messages: the dialog with bob, its last message converted from the old JSON around s9e XML.
    await page.goto('/message');
    await hydrated(page);
    const row = page.locator(`[data-testid="dialog-item"][data-user-id="${bob.id}"]`);
    await row.waitFor();
    expect(await row.getByTestId('dialog-last').textContent()).toContain('收到，谢谢');
    await e2e.screenshot(page, 'discuzq-imported-messages');
    expect(errors).toEqual([]);
  });
});
