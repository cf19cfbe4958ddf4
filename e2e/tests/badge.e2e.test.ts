import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ApiClient, clearNotifications, seedUnreadNotifications, uniqueName } from '../support/api';
import { hydrated, liveOpen, useE2E } from '../support/harness';

/** The unread badge on Message, fed by the real unread endpoint. */
const e2e = useE2E();

async function signedInContext(): Promise<{ context: BrowserContext; userId: number }> {
  const user = await ApiClient.register(e2e.baseUrl, uniqueName('b'), 'e2e-Passw0rd');
  const context = await e2e.newContext();
  await context.addCookies([
    { name: 'access_token', value: user.session.accessToken, url: e2e.baseUrl, httpOnly: true },
  ]);
  return { context, userId: user.userId };
}

describe('unread badge', () => {
  it('hides at 0, shows the count, the middle size from 10 to 99 and 99+ above 99', async () => {
    const { context, userId } = await signedInContext();
    const page = await context.newPage();
    const message = page.locator('header').getByTestId('nav-message');
    const badge = message.getByTestId('badge');

    await page.goto('/');
    await hydrated(page);
    expect(await badge.count()).toBe(0);

    // 1 to 9 (small) is seen in the polling test below; the boundaries 10 and 99 are unit-tested.
    for (const [count, text, size] of [
      [42, '42', 'middle'],
      [150, '99+', 'large'],
    ] as const) {
      await clearNotifications(e2e.server, userId);
      await seedUnreadNotifications(e2e.server, userId, count);
      await page.reload();
      await hydrated(page);
      expect(await badge.textContent(), String(count)).toBe(text);
      expect(await badge.getAttribute('class')).toContain(`lt-badge--${size}`);
    }
    await e2e.screenshot(page, 'badge-99-plus');

    await page.goto('/message');
    await hydrated(page);
    expect(await page.getByTestId('message-tab-thread').getByTestId('badge').textContent()).toBe('99+');
    await e2e.screenshot(page, 'message-with-unread');
  });

  it('is fetched at once and then every 60 s while signed in', async () => {
    const { context, userId } = await signedInContext();
    const page = await context.newPage();
    await page.clock.install();
    let calls = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/v3/unreadnotification')) calls += 1;
    });
    await seedUnreadNotifications(e2e.server, userId, 2);
    await page.goto('/');
    await hydrated(page);
    // The live stream's opening reads the counters once more (what happened since the render), unless that read
    // joins the first one still under way: only then do the calls stop for the minute.
    await liveOpen(page);
    expect([1, 2]).toContain(calls);
    const badge = page.locator('header').getByTestId('nav-message').getByTestId('badge');
    expect(await badge.textContent()).toBe('2');
    expect(await badge.getAttribute('class')).toContain('lt-badge--small');

    await seedUnreadNotifications(e2e.server, userId, 10);
    // Stop the page's time, then let exactly one minute pass: the interval fires exactly once, whenever (within
    // that minute) it was set up. Timers only run on runFor while paused, so resume to let the page re-render.
    await page.clock.pauseAt(Date.now() + 1000);
    const before = calls;
    await page.clock.runFor(60_000);
    await expect.poll(() => calls, { timeout: 30_000 }).toBe(before + 1);
    await page.clock.resume();
    await expect.poll(() => badge.textContent(), { timeout: 30_000 }).toBe('12');
    expect(await badge.getAttribute('class')).toContain('lt-badge--middle');
  });

  it('is not fetched for a guest', async () => {
    const context = await e2e.newContext();
    const page = await context.newPage();
    await page.clock.install();
    let calls = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/v3/unreadnotification')) calls += 1;
    });
    await page.goto('/');
    await hydrated(page);
    await page.clock.fastForward(180_000);
    await page.waitForTimeout(200);
    expect(calls).toBe(0);
    expect(await page.locator('header').getByTestId('badge').count()).toBe(0);
  });
});
