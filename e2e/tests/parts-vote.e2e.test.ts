import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { GroupId, type ThreadDetail, type ThreadPartView, type VotePart } from '@luntan/shared';
import { ApiClient, uniqueName } from '../support/api';
import { hydrated, useE2E } from '../support/harness';

/** A vote (part 109) through the editor: written by one member, voted on by another who then sees the results. */
const e2e = useE2E();
const PASSWORD = 'e2e-Passw0rd';

async function member() {
  const client = await ApiClient.register(e2e.baseUrl, uniqueName('v'), PASSWORD);
  return { client, token: client.session.accessToken };
}

async function signIn(context: BrowserContext, token: string, locale: 'zh' | 'en' = 'zh'): Promise<void> {
  await context.addCookies([
    { name: 'access_token', value: token, url: e2e.baseUrl, httpOnly: true },
    { name: 'locale', value: locale, url: e2e.baseUrl },
  ]);
}

async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await hydrated(page);
}

beforeAll(async () => {
  // Members may insert votes here (the member group does not hold thread.insertVote by default, as in the family).
  const admin = await ApiClient.admin(e2e.baseUrl);
  const group = await admin.ok<{ permissions: string[] }>(
    'GET',
    `/api/group.resource.v2?id=${GroupId.MEMBER}&include=permission`,
  );
  await admin.groupPermissions(GroupId.MEMBER, [...new Set([...group.permissions, 'thread.insertVote'])]);
});

describe('a vote', () => {
  it('is written in the editor, voted on by another member, who then sees the results', async () => {
    const author = await member();
    const { page, context, errors } = await e2e.newPage();
    await signIn(context, author.token);
    await open(page, '/thread/post');
    const title = `投票 ${uniqueName('t')}`;
    await page.getByLabel('标题', { exact: true }).fill(title);
    await page.getByLabel('正文', { exact: true }).fill('周五团建去哪里？');
    await page.getByTestId('part-add-109').click();
    const editor = page.getByTestId('part-editor-109');
    await editor.getByLabel('投票标题').fill('团建地点');
    await editor.getByLabel('选项 1', { exact: true }).fill('爬山');
    await editor.getByLabel('选项 2', { exact: true }).fill('看电影');
    await editor.getByTestId('vote-add-option').click();
    await editor.getByLabel('选项 3', { exact: true }).fill('吃火锅');
    await editor.getByLabel('多选').check();
    await editor.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await e2e.screenshot(page, 'parts-editor-vote-zh');
    await page.getByTestId('publish').click();
    await page.waitForURL((url) => /^\/thread\/\d+$/.test(url.pathname));
    const threadId = Number(new URL(page.url()).pathname.split('/').pop());
    const stored = await author.client.ok<ThreadDetail>('GET', `/api/v3/thread.detail?threadId=${threadId}`);
    const vote = (stored.content.indexes['109'] as ThreadPartView<VotePart[]>).body[0]!;
    expect(vote).toMatchObject({ voteTitle: '团建地点', choiceType: 2, voteUsers: 0 });
    expect(vote.subitems.map((s) => s.content)).toEqual(['爬山', '看电影', '吃火锅']);

    // The editor in English (not sent).
    const en = await e2e.newPage();
    await signIn(en.context, author.token, 'en');
    await open(en.page, '/thread/post');
    await en.page.getByTestId('part-add-109').click();
    const enEditor = en.page.getByTestId('part-editor-109');
    await enEditor.getByLabel('Vote title').fill('Team outing');
    await enEditor.getByLabel('Option 1', { exact: true }).fill('Hiking');
    await enEditor.getByLabel('Option 2', { exact: true }).fill('A film');
    await enEditor.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await e2e.screenshot(en.page, 'parts-editor-vote-en');

    // Another member: options without results, votes for two, then sees counts and rates.
    const voter = await member();
    const other = await e2e.newPage();
    await signIn(other.context, voter.token);
    await open(other.page, `/thread/${threadId}`);
    const card = other.page.getByTestId('vote-card');
    await card.waitFor();
    expect(await card.getByTestId('vote-count').count()).toBe(0);
    expect(await card.textContent()).toContain('投票后或投票结束后可查看结果');
    await card.getByLabel('爬山').check();
    await card.getByLabel('吃火锅').check();
    await e2e.screenshot(other.page, 'parts-thread-vote-before-zh');
    await card.getByTestId('vote-submit').click();
    await expect.poll(() => card.getByTestId('vote-count').count()).toBe(3);
    expect(await card.getByTestId('vote-count').allTextContents()).toEqual(['1 票 · 50%', '0 票 · 0%', '1 票 · 50%']);
    expect(await card.getByTestId('vote-voters').textContent()).toBe('共 1 人参与');
    expect(await card.getByTestId('vote-submit').count()).toBe(0);
    await e2e.screenshot(other.page, 'parts-thread-vote-zh');

    await other.context.addCookies([{ name: 'locale', value: 'en', url: e2e.baseUrl }]);
    await open(other.page, `/thread/${threadId}`);
    await expect
      .poll(() => other.page.getByTestId('vote-count').allTextContents())
      .toEqual(['1 vote · 50%', '0 votes · 0%', '1 vote · 50%']);
    expect(await other.page.getByTestId('vote-voters').textContent()).toBe('1 voter');
    await e2e.screenshot(other.page, 'parts-thread-vote-en');

    // A guest sees the options and is asked to sign in.
    const guest = await e2e.newPage();
    await open(guest.page, `/thread/${threadId}`);
    await guest.page.getByTestId('vote-sign-in').waitFor();
    expect(await guest.page.getByTestId('vote-submit').count()).toBe(0);

    // The list marks the thread.
    await open(other.page, '/');
    await other.page
      .getByTestId('thread-card')
      .filter({ hasText: title })
      .getByTestId('part-marks')
      .locator('[data-part="109"]')
      .waitFor();
    expect(errors).toEqual([]);
    expect(en.errors).toEqual([]);
    expect(other.errors).toEqual([]);
    expect(guest.errors).toEqual([]);
  });
});
