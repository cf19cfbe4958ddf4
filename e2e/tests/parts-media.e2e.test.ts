import fs from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { FilesPart, MediaPart, ThreadDetail } from '@luntan/shared';
import { ApiClient, uniqueName } from '../support/api';
import { hydrated, useE2E } from '../support/harness';

/**
 * Files (part 108) and video (part 103) through the editor: a file and a video are attached, the thread published,
 * and another member downloads the file and plays the video and seeks in it.
 */
const e2e = useE2E();
const PASSWORD = 'e2e-Passw0rd';

async function member() {
  const client = await ApiClient.register(e2e.baseUrl, uniqueName('m'), PASSWORD);
  return { client, token: client.session.accessToken };
}

async function signIn(context: BrowserContext, token: string): Promise<void> {
  await context.addCookies([{ name: 'access_token', value: token, url: e2e.baseUrl, httpOnly: true }]);
}

async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await hydrated(page);
}

/** A small PDF (its first bytes say so). */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n');

/** A two-second WebM (VP8) recorded in the page from a canvas: no binary fixture needed, and well under 100 KB. */
async function recordWebm(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 160;
    canvas.height = 90;
    const g = canvas.getContext('2d')!;
    const stream = canvas.captureStream(15);
    const recorder = new MediaRecorder(stream, { mimeType: 'video/webm;codecs=vp8', videoBitsPerSecond: 100_000 });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (e) => chunks.push(e.data);
    const stopped = new Promise((resolve) => (recorder.onstop = resolve));
    recorder.start(200);
    const started = performance.now();
    await new Promise<void>((resolve) => {
      const draw = () => {
        const t = performance.now() - started;
        g.fillStyle = `hsl(${(t / 10) % 360} 70% 50%)`;
        g.fillRect(0, 0, 160, 90);
        g.fillStyle = '#fff';
        g.font = '20px sans-serif';
        g.fillText((t / 1000).toFixed(1), 50, 55);
        if (t < 2000) requestAnimationFrame(draw);
        else resolve();
      };
      draw();
    });
    recorder.stop();
    await stopped;
    const bytes = new Uint8Array(await new Blob(chunks, { type: 'video/webm' }).arrayBuffer());
    let text = '';
    for (const b of bytes) text += String.fromCharCode(b);
    return btoa(text);
  });
  return Buffer.from(base64, 'base64');
}

describe('files and video parts', () => {
  it('attached in the editor; another member downloads the file, plays the video and seeks', async () => {
    const admin = await e2e.admin();
    // Members may post video on this site (fresh sites let them attach files only).
    const group = await admin.ok<{ permissions: string[] }>('GET', '/api/group.resource.v2?id=10&include=permission');
    if (!group.permissions.includes('thread.insertVideo')) {
      await admin.ok('POST', '/api/permission.v2', {
        groupId: 10,
        permissions: [...group.permissions, 'thread.insertVideo'],
      });
    }
    const author = await member();
    const { page, context, errors } = await e2e.newPage();
    await signIn(context, author.token);
    await open(page, '/thread/post');
    const webm = await recordWebm(page);
    expect(webm.length).toBeGreaterThan(1000);
    expect(webm.length).toBeLessThan(100_000);

    const title = `资料 ${uniqueName('f')}`;
    await page.getByLabel('标题', { exact: true }).fill(title);
    await page.getByLabel('正文', { exact: true }).fill('附件和视频见下。');
    await page.getByTestId('part-add-108').click();
    await page
      .getByTestId('files-upload-input')
      .setInputFiles({ name: '会议纪要.pdf', mimeType: 'application/pdf', buffer: PDF });
    await page.getByTestId('files-editor-item').waitFor();
    // A program renamed .pdf is refused with the server's message.
    const exe = Buffer.concat([
      Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff', 'latin1'),
      Buffer.alloc(200),
    ]);
    await page
      .getByTestId('files-upload-input')
      .setInputFiles({ name: 'tool.pdf', mimeType: 'application/pdf', buffer: exe });
    expect(await page.getByTestId('files-upload-error').textContent()).toContain('.pdf');
    expect(await page.getByTestId('files-editor-item').count()).toBe(1);

    await page.getByTestId('part-add-103').click();
    await page
      .getByTestId('video-upload-input')
      .setInputFiles({ name: 'clip.webm', mimeType: 'video/webm', buffer: webm });
    await page.getByTestId('video-editor-item').waitFor({ timeout: 30_000 });
    await e2e.screenshot(page, 'parts-media-editor');
    await page.getByTestId('publish').click();
    await page.waitForURL((url) => /^\/thread\/\d+$/.test(url.pathname));
    const threadId = Number(new URL(page.url()).pathname.split('/').pop());
    const stored = await author.client.ok<ThreadDetail>('GET', `/api/v3/thread.detail?threadId=${threadId}`);
    const files = stored.content.indexes['108']?.body as FilesPart;
    expect(files.docs.map((d) => d.fileName)).toEqual(['会议纪要.pdf']);
    const video = stored.content.indexes['103']?.body as MediaPart;
    expect(video.mimeType).toBe('video/webm');

    const reader = await member();
    const other = await e2e.newPage({ acceptDownloads: true });
    await signIn(other.context, reader.token);
    const ranged: number[] = [];
    other.page.on('response', (res) => {
      if (res.url().includes('/api/v3/attachment.media')) ranged.push(res.status());
    });
    for (const locale of ['zh', 'en'] as const) {
      await other.context.addCookies([{ name: 'locale', value: locale, url: e2e.baseUrl }]);
      await open(other.page, `/thread/${threadId}`);
      const item = other.page.getByTestId('file-item');
      expect(await item.textContent()).toContain('会议纪要.pdf');
      expect(await other.page.getByTestId('file-download').textContent()).toBe(locale === 'zh' ? '下载' : 'Download');
      await other.page.getByTestId('video-player').waitFor();
      await e2e.screenshot(other.page, `parts-media-thread-${locale}`);
    }
    const [download] = await Promise.all([
      other.page.waitForEvent('download'),
      other.page.getByTestId('file-download').click(),
    ]);
    expect(download.suggestedFilename()).toBe('会议纪要.pdf');
    expect((await fs.readFile((await download.path())!)).equals(PDF)).toBe(true);

    // Play, then seek: the player asks for ranges (206) and reports 'seeked'.
    const player = other.page.getByTestId('video-player');
    const played = await player.evaluate(async (el: HTMLVideoElement) => {
      el.muted = true;
      if (el.readyState < 1) await new Promise((r) => el.addEventListener('loadedmetadata', r, { once: true }));
      await el.play();
      await new Promise((r) => setTimeout(r, 300));
      el.pause();
      const seeked = new Promise((r) => el.addEventListener('seeked', r, { once: true }));
      el.currentTime = 1.2;
      await seeked;
      return { time: el.currentTime, error: el.error?.code ?? 0 };
    });
    expect(played.error).toBe(0);
    expect(played.time).toBeGreaterThan(0.5);
    expect(ranged.length).toBeGreaterThan(0);
    expect(ranged.every((s) => s === 206 || s === 200)).toBe(true);
    expect(errors).toEqual([]);
    expect(other.errors).toEqual([]);
  });
});
