import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { FinanceStats } from '@luntan/shared';
import { ApiClient, uniqueName } from '../support/api';
import { ARTIFACTS, hydrated, useE2E } from '../support/harness';
import { ADMIN } from '../support/server';

/**
 * Money through the pages: a paid thread posted in the editor, bought through the pay dialog and rewarded; the back
 * office's payment settings, withdrawals review, finance figures and chart, and a member's wallet. One story per
 * project on its own server, so the finance figures at the end are exact.
 */
const e2e = useE2E();
const PASSWORD = 'e2e-Passw0rd';
const PAY_PASSWORD = '135790';
const FREE_PART = '这是免费的开头部分，';
const SECRET = '宝藏在第三棵树下';
const BODY = `${FREE_PART}后面是付费内容：芝麻开门，${SECRET}。`;
/** Screenshots of every state, outside the repository. */
const SHOTS = path.join(os.tmpdir(), 'luntan-money-e2e');

/**
 * The whole page, by making the viewport as tall as the page for the picture. (A fullPage screenshot makes the window
 * narrow for a moment: the app switches to the mobile layout and back, which mounts every page anew and closes an
 * open dialog.)
 */
async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  const viewport = page.viewportSize();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (viewport && height > viewport.height) await page.setViewportSize({ width: viewport.width, height });
  await page.screenshot({ path: path.join(SHOTS, `${e2e.device}-${name}.png`) });
  fs.copyFileSync(
    path.join(SHOTS, `${e2e.device}-${name}.png`),
    path.join(ARTIFACTS, `${e2e.device}-money-${name}.png`),
  );
  if (viewport && height > viewport.height) await page.setViewportSize(viewport);
}

async function signIn(context: BrowserContext, token: string, locale?: 'en'): Promise<void> {
  await context.addCookies([{ name: 'access_token', value: token, url: e2e.baseUrl, httpOnly: true }]);
  if (locale) await context.addCookies([{ name: 'locale', value: locale, url: e2e.baseUrl }]);
}

/**
 * After a full load the page can render itself anew during the first second (its component mounts again: view.count
 * is posted up to three times), which closes a dialog opened meanwhile; wait for it to settle.
 */
async function settle(page: Page): Promise<void> {
  await hydrated(page);
  await page.waitForTimeout(1200);
}

async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await settle(page);
}

async function english(page: Page): Promise<void> {
  await page.context().addCookies([{ name: 'locale', value: 'en', url: e2e.baseUrl }]);
  await page.reload();
  await settle(page);
}

async function adminPage(locale?: 'en') {
  const session = await new ApiClient(e2e.baseUrl).ok<{ accessToken: string }>(
    'POST',
    '/api/v3/users/username.login',
    ADMIN,
  );
  const opened = await e2e.newPage();
  await signIn(opened.context, session.accessToken, locale);
  return opened;
}

/** The story's people and thread, filled in as the tests go. */
const story = {
  author: null as null | { username: string; client: ApiClient & { userId: number }; token: string },
  buyer: null as null | { username: string; client: ApiClient & { userId: number }; token: string },
  threadId: 0,
  cashId: 0,
};

async function member() {
  const username = uniqueName('p');
  const client = await ApiClient.register(e2e.baseUrl, username, PASSWORD);
  return { username, client, token: client.session.accessToken };
}

describe('money pages', () => {
  it('sets the income split and the withdrawal fee on the payment settings page', async () => {
    const { page, errors } = await adminPage();
    await open(page, '/admin/pay-settings');
    // The browser tests' server runs with PAYMENT_SANDBOX=1: the box shows the sandbox on, set by the environment.
    const sandbox = page.getByLabel('启用沙箱支付（开发和测试用，不产生真实交易）', { exact: true });
    expect(await sandbox.isChecked()).toBe(true);
    expect(await sandbox.isDisabled()).toBe(true);
    expect(await page.getByTestId('pay-env-paySandbox').textContent()).toBe(
      '由服务器环境变量 PAYMENT_SANDBOX 设置，在这里不能修改。',
    );
    await page.getByLabel('作者分成', { exact: true }).fill('8');
    await page.getByLabel('平台分成', { exact: true }).fill('2');
    await page.getByLabel('提现手续费率', { exact: true }).fill('1.00');
    await page
      .getByLabel('应用私钥', { exact: true })
      .fill('-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----');
    await shot(page, 'admin-pay-settings');
    await page.getByTestId('pay-settings-save').click();
    await page.locator('.lt-toast[data-type="success"]').waitFor();
    const admin = await e2e.admin();
    const stored = await admin.ok<Array<{ key: string; tag: string; value: unknown }>>(
      'GET',
      '/api/backAdmin/settings',
    );
    const value = (key: string, tag = 'default') => stored.find((s) => s.key === key && s.tag === tag)?.value;
    expect(Number(value('siteAuthorScale'))).toBe(8);
    expect(Number(value('siteMasterScale'))).toBe(2);
    expect(value('cashRate')).toBe('1.00');
    expect(String(value('alipayPrivateKey', 'pay'))).toContain('BEGIN PRIVATE KEY');
    await english(page);
    await page.getByLabel('Author’s share', { exact: true }).waitFor();
    expect(await page.getByTestId('pay-env-paySandbox').textContent()).toBe(
      "Set by the server's environment (PAYMENT_SANDBOX): it cannot be changed here.",
    );
    expect(await page.getByRole('checkbox', { name: /^Sandbox payments/ }).isChecked()).toBe(true);
    await shot(page, 'admin-pay-settings-en');
    expect(errors).toEqual([]);
  });

  it('an author with insertPay posts a paid thread through the editor', async () => {
    const admin = await e2e.admin();
    const group = await admin.ok<{ permissions: string[] }>('GET', '/api/group.resource.v2?id=10&include=permission');
    await admin.groupPermissions(10, [...new Set([...group.permissions, 'thread.insertPay'])]);
    story.author = await member();
    const { page, context, errors } = await e2e.newPage();
    await signIn(context, story.author.token);
    await open(page, '/thread/post');
    // A fresh server's posting page can render itself anew later still (forum.e2e.test.ts): write until it stays.
    const title = `付费主题 ${uniqueName('t')}`;
    for (let attempt = 0; attempt < 3; attempt++) {
      await page.getByLabel('标题', { exact: true }).fill(title);
      await page.getByLabel('正文', { exact: true }).fill(BODY);
      await page.getByLabel('价格（元，0 为免费）', { exact: true }).fill('3.00');
      // 31% of the body's 32 characters: round(9.92) = the 10 of FREE_PART.
      await page.getByLabel('免费比例（%）', { exact: true }).fill('31');
      await page.waitForTimeout(500);
      if ((await page.getByLabel('免费比例（%）', { exact: true }).inputValue()) === '31') break;
    }
    await shot(page, 'editor-paid');
    await page.getByTestId('publish').click();
    await page.waitForURL((url) => /^\/thread\/\d+$/.test(url.pathname));
    story.threadId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByTestId('thread-price').getByText('付费 ¥3.00').waitFor();
    // The author reads it all, and is offered no paywall and no reward button.
    expect(await page.getByTestId('thread-content').textContent()).toContain(SECRET);
    expect(await page.getByTestId('paywall').count()).toBe(0);
    expect(await page.getByTestId('thread-reward').count()).toBe(0);
    await shot(page, 'thread-author');
    await english(page);
    await open(page, '/thread/post');
    await page.getByLabel('Price (yuan, 0 for free)', { exact: true }).waitFor();
    await page.getByLabel('Free part (% of the body)', { exact: true }).waitFor();
    await shot(page, 'editor-paid-en');
    expect(errors).toEqual([]);
  });

  it('a member sees the free part, buys the rest through the pay dialog, then rewards it', async () => {
    expect(story.threadId).toBeGreaterThan(0);
    const admin = await e2e.admin();
    story.buyer = await member();
    await admin.ok('POST', '/api/backAdmin/users/wallet.update', {
      userId: story.buyer.client.userId,
      operateType: 1,
      operateAmount: '20.00',
      operateReason: 'e2e',
    });
    await story.buyer.client.ok('POST', '/api/v3/users/pay-password/reset', {
      password: PASSWORD,
      payPassword: PAY_PASSWORD,
    });

    const { page, context, errors } = await e2e.newPage();
    await signIn(context, story.buyer.token);
    await open(page, `/thread/${story.threadId}`);
    const content = page.getByTestId('thread-content');
    expect(await content.textContent()).toContain(FREE_PART);
    expect(await content.textContent()).not.toContain(SECRET);
    await page.getByTestId('paywall').getByText('剩余内容需支付 ¥3.00 后查看').waitFor();
    await shot(page, 'thread-paywall');

    await page.getByTestId('paywall-buy').click();
    const dialog = page.getByTestId('pay-dialog');
    await dialog.waitFor();
    await dialog.getByText('¥20.00').waitFor();
    await shot(page, 'pay-dialog');
    // A wrong pay password: the server's words, in the dialog.
    await page.getByTestId('pay-password').fill('000000');
    await page.getByTestId('pay-confirm').click();
    await page.getByTestId('pay-error').waitFor();
    await shot(page, 'pay-dialog-wrong');
    await page.getByTestId('pay-password').fill(PAY_PASSWORD);
    await page.getByTestId('pay-confirm').click();
    await dialog.waitFor({ state: 'detached' });
    await content.getByText(SECRET, { exact: false }).waitFor();
    expect(await page.getByTestId('paywall').count()).toBe(0);
    await page.getByTestId('thread-buyers').getByText('1 人购买了这篇主题').waitFor();
    await shot(page, 'thread-bought');

    await page.getByTestId('thread-reward').click();
    const reward = page.getByTestId('reward-dialog');
    await reward.waitFor();
    await reward.getByRole('radio', { name: '¥1.00' }).click();
    await shot(page, 'reward-dialog');
    await page.getByTestId('reward-next').click();
    await dialog.waitFor();
    await page.getByTestId('pay-password').fill(PAY_PASSWORD);
    await page.getByTestId('pay-confirm').click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('thread-rewarders').getByText('1 人打赏，共 ¥1.00').waitFor();
    await shot(page, 'thread-rewarded');

    await english(page);
    await page.getByTestId('thread-buyers').getByText('1 person bought this thread').waitFor();
    await page.getByTestId('thread-reward').click();
    await page.getByTestId('reward-dialog').waitFor();
    await page.getByLabel('Another amount', { exact: true }).fill('2.50');
    await shot(page, 'reward-dialog-en');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('reward-dialog').waitFor({ state: 'detached' });
    await shot(page, 'thread-rewarded-en');

    // A guest, in English: the free part and the way in.
    const guest = await e2e.newPage({});
    await guest.context.addCookies([{ name: 'locale', value: 'en', url: e2e.baseUrl }]);
    await open(guest.page, `/thread/${story.threadId}`);
    await guest.page.getByTestId('paywall').getByText('The rest of this thread costs ¥3.00').waitFor();
    await guest.page.getByRole('button', { name: 'Log in to buy' }).waitFor();
    expect(await guest.page.getByTestId('thread-content').textContent()).not.toContain(SECRET);
    await shot(guest.page, 'thread-paywall-guest-en');

    // The buyer paid 3.00 + 1.00; the author received 8/10 of each.
    const wallet = await story.buyer.client.ok<{ availableAmount: string }>('GET', '/api/v3/wallet/user');
    expect(wallet.availableAmount).toBe('16.00');
    const authorWallet = await story.author!.client.ok<{ availableAmount: string }>('GET', '/api/v3/wallet/user');
    expect(authorWallet.availableAmount).toBe('3.20');
    expect([...errors, ...guest.errors].filter((e) => !/-10000|-4001/.test(e))).toEqual([]);
  });

  it('the administrator approves a withdrawal, then marks it paid, on the withdrawals page', async () => {
    expect(story.buyer).not.toBeNull();
    const cash = await story.buyer!.client.ok<{ id: number; cashSn: string }>('POST', '/api/v3/wallet/cash', {
      cashApplyAmount: '5.00',
      receiveAccount: 'alipay:e2e@example.com',
      payPassword: PAY_PASSWORD,
    });
    story.cashId = cash.id;
    const { page, errors } = await adminPage();
    await open(page, '/admin/withdrawals');
    const row = page.locator(`[data-testid="cash-row"][data-cash-id="${cash.id}"]`);
    await row.getByText('¥0.05').waitFor();
    await shot(page, 'admin-withdrawals');
    await row.getByRole('button', { name: '通过', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: '通过这笔提现' });
    await dialog.getByLabel('备注').fill('核对无误');
    await shot(page, 'admin-withdrawals-dialog');
    await dialog.getByRole('button', { name: '通过', exact: true }).click();
    await page.getByTestId('cash-outcome').getByText('成功 1 笔').waitFor();
    await row.waitFor({ state: 'detached' });

    // Approved, waiting to be paid out by hand: tick it and mark it paid.
    await page.getByLabel('状态', { exact: true }).selectOption('2');
    await row.waitFor();
    await row.getByRole('checkbox').check();
    await page.getByTestId('cash-bulk-markPaid').click();
    await page.getByRole('dialog', { name: '这笔提现已打款' }).getByRole('button', { name: '标记已打款' }).click();
    await page.getByTestId('cash-outcome').getByText('成功 1 笔').waitFor();
    await page.getByLabel('状态', { exact: true }).selectOption('5');
    await row.getByText('已打款').waitFor();
    await shot(page, 'admin-withdrawals-paid');
    await english(page);
    await row.getByText('Paid', { exact: true }).waitFor();
    await shot(page, 'admin-withdrawals-en');
    expect(errors).toEqual([]);
  });

  it('the finance page shows the figures of the story and draws the chart', async () => {
    const admin = await e2e.admin();
    const stats = await admin.ok<FinanceStats>('GET', '/api/statistic/finance.v2');
    // Sales 3.00 + reward 1.00; the site kept 2/10 of each (0.80) and the 1% fee of the 5.00 withdrawal (0.05).
    const expected: FinanceStats = {
      totalIncome: '4.00',
      totalWithdrawal: '5.00',
      totalWallet: '14.15',
      totalProfit: '0.85',
      withdrawalProfit: '0.05',
      orderRoyalty: '0.80',
      totalRegisterProfit: '0.00',
      orderCount: 2,
    };
    expect(stats).toEqual(expected);
    const { page, errors } = await adminPage();
    await open(page, '/admin/finance');
    for (const [key, value] of Object.entries(expected)) {
      const shown = key === 'orderCount' ? String(value) : `¥${value}`;
      expect(await page.getByTestId(`figure-${key}`).locator('dd').textContent(), key).toBe(shown);
    }
    await page.getByTestId('figure-totalIncome').getByText('总收入', { exact: true }).waitFor();
    const chart = page.getByTestId('finance-chart');
    await chart.locator('canvas').first().waitFor();
    await page.locator('[data-testid="finance-chart"][data-ready="true"]').waitFor();
    const size = await chart.locator('canvas').first().boundingBox();
    expect(size?.width ?? 0).toBeGreaterThan(200);
    await page.waitForTimeout(800);
    await shot(page, 'admin-finance');
    await page.getByRole('button', { name: '按月' }).click();
    await page.waitForTimeout(800);
    await shot(page, 'admin-finance-month');
    await english(page);
    await page.getByTestId('figure-totalIncome').getByText('Total income').waitFor();
    await page.locator('[data-testid="finance-chart"][data-ready="true"]').waitFor();
    await page.waitForTimeout(800);
    await shot(page, 'admin-finance-en');
    expect(errors).toEqual([]);
  });

  it("adds to a member's wallet, freezes it and reads its ledger and orders on the users page", async () => {
    expect(story.buyer).not.toBeNull();
    const { page, errors } = await adminPage();
    await open(page, `/admin/users?keyword=${story.buyer!.username}`);
    const row = page.locator(`[data-testid="user-row"][data-user-id="${story.buyer!.client.userId}"]`);
    await row.getByTestId('user-wallet-toggle').click();
    const wallet = page.getByTestId('user-wallet');
    await wallet.getByTestId('wallet-balance').getByText('可用 ¥10.95 · 冻结 ¥0.00').waitFor();
    await wallet.getByLabel('金额', { exact: true }).fill('2.00');
    await wallet.getByLabel('原因', { exact: true }).fill('活动奖励');
    await wallet.getByTestId('wallet-apply').click();
    await wallet.getByTestId('wallet-balance').getByText('可用 ¥12.95 · 冻结 ¥0.00').waitFor();
    await wallet.getByTestId('wallet-ledger').getByText('活动奖励').waitFor();
    await wallet.getByRole('button', { name: '冻结钱包' }).click();
    await wallet.getByText('已冻结').waitFor();
    await shot(page, 'admin-user-wallet');
    await wallet.getByRole('button', { name: '订单记录' }).click();
    await wallet.getByTestId('wallet-orders').getByText('付费主题', { exact: true }).first().waitFor();
    await shot(page, 'admin-user-wallet-orders');
    const refused = await story.buyer!.client.call('POST', '/api/v3/wallet/cash', {
      cashApplyAmount: '1.00',
      receiveAccount: 'alipay:e2e@example.com',
      payPassword: PAY_PASSWORD,
    });
    expect(refused.Code).not.toBe(0);
    await wallet.getByRole('button', { name: '解冻钱包' }).click();
    await page.locator('.lt-toast[data-type="success"]').last().waitFor();
    await english(page);
    await row.getByTestId('user-wallet-toggle').click();
    await page.getByTestId('user-wallet').getByText('Reward given').waitFor();
    await shot(page, 'admin-user-wallet-en');
    expect(errors).toEqual([]);
  });
});
