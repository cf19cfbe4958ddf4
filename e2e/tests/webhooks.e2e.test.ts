import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api';
import { hydrated, useE2E } from '../support/harness';
import { ADMIN } from '../support/server';

/**
 * The back office's Webhooks page (docs/webhooks.md): adding a hook in its dialog, sending the test event to a
 * receiver started here (private addresses allowed for this server), its delivery listed as delivered, deleting
 * through the site's dialog; in Chinese and English, on both layouts.
 */
const e2e = useE2E({ serverEnv: { ALLOW_PRIVATE_FETCH: '1' } });

const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
let receiver: Server;
let receiverUrl: string;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(() => new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve())));

async function asAdmin(locale: 'zh' | 'en'): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
  const { page, context, errors } = await e2e.newPage();
  const session = await new ApiClient(e2e.baseUrl).ok<{ accessToken: string }>(
    'POST',
    '/api/v3/users/username.login',
    ADMIN,
  );
  await context.addCookies([
    { name: 'access_token', value: session.accessToken, url: e2e.baseUrl, httpOnly: true },
    { name: 'locale', value: locale, url: e2e.baseUrl },
  ]);
  page.on('dialog', (dialog) => {
    errors.push(`browser dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return { page, context, errors };
}

describe('webhooks page', () => {
  for (const locale of ['zh', 'en'] as const) {
    const text =
      locale === 'zh'
        ? { add: '添加 Webhook', save: '保存', deliveries: '投递记录', delivered: '成功', del: '删除', close: '关闭' }
        : {
            add: 'Add webhook',
            save: 'Save',
            deliveries: 'Deliveries',
            delivered: 'Delivered',
            del: 'Delete',
            close: 'Close',
          };

    it(`adds a hook, sends the test event and lists its delivery, deletes it (${locale})`, async () => {
      const { page, errors } = await asAdmin(locale);
      await page.goto('/admin/webhooks');
      await hydrated(page);
      await page.getByTestId('webhook-add').click();
      const dialog = page.locator('dialog.lt-dialog');
      await dialog.getByRole('heading', { name: text.add }).waitFor();
      const url = `${receiverUrl}?${locale}-${e2e.device}`;
      await dialog.locator('input[name="url"]').fill(url);
      await dialog.locator('input[name="secret"]').fill('a-secret-of-some-length');
      await dialog.locator('input[value="report.handled"]').check();
      await e2e.screenshot(page, `admin-webhooks-dialog-${locale}`);
      await dialog.getByTestId('webhook-save').click();
      await dialog.waitFor({ state: 'detached' });

      const row = page.getByTestId('webhook-row').filter({ hasText: url });
      await row.waitFor();
      const before = received.length;
      await row.getByTestId('webhook-ping').click();
      await expect.poll(() => received.slice(before).some((r) => r.headers['x-luntan-event'] === 'ping')).toBe(true);
      // The row's status comes from the server once the attempt is written.
      await expect
        .poll(async () => {
          await page.reload();
          await hydrated(page);
          return row.locator('[data-status]').getAttribute('data-status');
        })
        .toBe('delivered');

      await row.getByTestId('webhook-deliveries-button').click();
      const deliveries = page.locator('dialog.lt-dialog');
      await deliveries.getByTestId('webhook-delivery-row').first().waitFor();
      await expect(deliveries.getByTestId('webhook-delivery-row').first().innerText()).resolves.toContain(
        text.delivered,
      );
      await e2e.screenshot(page, `admin-webhooks-deliveries-${locale}`);
      await deliveries.getByRole('button', { name: text.close }).click();
      await deliveries.waitFor({ state: 'detached' });
      await e2e.screenshot(page, `admin-webhooks-${locale}`);

      await row.getByTestId('webhook-delete').click();
      const confirm = page.locator('dialog.lt-dialog');
      await confirm.getByRole('button', { name: text.del }).click();
      await row.waitFor({ state: 'detached' });
      expect(errors).toEqual([]);
    });
  }
});
