import { NotificationChannel } from '@luntan/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';

/*
 * A site made before a default template changed gets the new text at its next start, unless an administrator edited
 * the template; every template's list of placeholders follows the current one.
 */
let t: TestServer;
afterAll(async () => {
  await t.close();
});

const template = (typeName: string) =>
  t.app.ctx.db
    .selectFrom('notificationTpls')
    .select(['title', 'content', 'vars'])
    .where('typeName', '=', typeName)
    .where('type', '=', NotificationChannel.SITE)
    .executeTakeFirstOrThrow();

describe('default templates of an older site', () => {
  it('moves unedited ones to the current text at the next start, and keeps edited ones', async () => {
    t = await startTestServer();
    const db = t.app.ctx.db;
    const set = (typeName: string, content: string) =>
      db
        .updateTable('notificationTpls')
        .set({ content, vars: JSON.stringify({ '{username}': '用户名', '{amount}': '金额' }) })
        .where('typeName', '=', typeName)
        .execute();
    await set('提现通知', '{username}，你申请的 {amount} 元提现已处理。');
    await set('用户禁用通知', '{username}，你的账号已被禁用，原因：{reason}');
    await set('内容删除通知', '{username}，你的内容没了。');
    const storage = t.storage;
    await t.close({ keep: true });
    t = await startTestServer({ storage });

    expect((await template('提现通知')).content).toBe('{nickname}，你申请的 {amount} 元提现{result}。');
    expect((await template('用户禁用通知')).content).toBe('{nickname}，你的账号已被禁用，原因：{reason}');
    // Edited by an administrator: kept, but its placeholders are today's.
    const edited = await template('内容删除通知');
    expect(edited.content).toBe('{username}，你的内容没了。');
    expect(Object.keys(JSON.parse(edited.vars) as object)).toEqual(
      expect.arrayContaining(['{username}', '{nickname}', '{content}', '{reason}']),
    );
  });
});
