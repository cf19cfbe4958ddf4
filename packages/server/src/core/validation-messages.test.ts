import { Code } from '@luntan/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildThread } from '../test/factories.js';
import { buildUser } from '../test/harness.js';
import { useTestServer } from '../test/fixture.js';

/**
 * What people read when their input is refused: a written sentence naming the field in words, in the page's
 * language (here chosen with the locale cookie), never zod's own text. The field's path is in Data for programs.
 */
const t = useTestServer();
let member: string;
let threadId: number;

beforeAll(async () => {
  member = (await buildUser(t)).token;
  threadId = (await buildThread(t, member)).threadId;
  const words = await t.post(
    '/api/stop-words/batch.v2',
    { data: { type: 'stop-words', words: ['坏词', '赌博={BANNED}'] } },
    t.admin,
  );
  expect(words.Code).toBe(0);
});

type Who = 'guest' | 'member' | 'admin';

async function answer(method: 'GET' | 'POST', url: string, given: unknown, who: Who) {
  // Bodies that need the data made in beforeAll are given as functions.
  const body: unknown = typeof given === 'function' ? (given as () => unknown)() : given;
  const token = who === 'admin' ? t.admin : who === 'member' ? member : undefined;
  const call = (locale: string) =>
    t.call<{ field?: string }>(method, url, {
      token,
      headers: { cookie: `locale=${locale}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const [zh, en] = [(await call('zh')).body, (await call('en')).body];
  expect(en.Code).toBe(zh.Code);
  return { code: zh.Code, field: zh.Data.field, zh: zh.Message, en: en.Message };
}

const REGISTER = '/api/v3/users/username.register';
const group = (extra: object) => ({ id: 10, name: '会员', type: '', scale: 0, ...extra });

// [what, method, url, body, who, field, zh, en]
const CASES: [string, 'GET' | 'POST', string, unknown, Who, string, string, string][] = [
  // The two texts of the issue.
  [
    'too short',
    'POST',
    REGISTER,
    { username: 'abcd', password: '12345' },
    'guest',
    'password',
    '密码至少 6 位',
    'Password must be at least 6 characters',
  ],
  ['required', 'POST', REGISTER, { username: 'abcd' }, 'guest', 'password', '密码不能为空', 'Password is required'],
  [
    'too short, counted in characters',
    'POST',
    REGISTER,
    { username: '张', password: 'secret1' },
    'guest',
    'username',
    '用户名至少 2 个字符',
    'Username must be at least 2 characters',
  ],
  [
    'too long, counted in characters',
    'POST',
    REGISTER,
    { username: '张'.repeat(16), password: 'secret1' },
    'guest',
    'username',
    '用户名最多 15 个字符',
    'Username must be at most 15 characters',
  ],
  [
    'characters not allowed',
    'POST',
    REGISTER,
    { username: 'a b', password: 'secret1' },
    'guest',
    'username',
    '用户名只能包含文字、数字、下划线和连字符',
    'Username may hold letters, digits, underscores and hyphens only',
  ],
  [
    'wrong type',
    'POST',
    REGISTER,
    { username: 12345, password: 'secret1' },
    'guest',
    'username',
    '用户名必须是文字',
    'Username must be text',
  ],
  [
    'empty after trimming',
    'POST',
    '/api/v3/users/username.login',
    { username: '  ', password: 'x' },
    'guest',
    'username',
    '用户名不能为空',
    'Username must not be empty',
  ],
  [
    'a title too long',
    'POST',
    '/api/v3/thread.create',
    { categoryId: 1, title: '题'.repeat(101), content: { text: 'x' } },
    'member',
    'title',
    '标题最多 100 个字符',
    'Title must be at most 100 characters',
  ],
  [
    'an empty thread body',
    'POST',
    '/api/v3/thread.create',
    { categoryId: 1, title: 'x', content: { text: ' ' } },
    'member',
    'content.text',
    '内容不能为空',
    'Content must not be empty',
  ],
  [
    'a missing category',
    'POST',
    '/api/v3/thread.create',
    { title: 'x', content: { text: 'x' } },
    'member',
    'categoryId',
    '分类不能为空',
    'Category is required',
  ],
  [
    'nothing to change',
    'POST',
    '/api/v3/thread.update',
    () => ({ threadId }),
    'member',
    'title',
    '没有要修改的内容',
    'Nothing to change',
  ],
  [
    'an empty reply',
    'POST',
    '/api/v3/posts.create',
    () => ({ id: threadId, content: '' }),
    'member',
    'content',
    '内容不能为空',
    'Content must not be empty',
  ],
  [
    'a reply too long',
    'POST',
    '/api/v3/posts.create',
    () => ({ id: threadId, content: '字'.repeat(50_001) }),
    'member',
    'content',
    '内容最多 50000 个字符',
    'Content must be at most 50000 characters',
  ],
  [
    'a search too long',
    'GET',
    `/api/v3/thread.list?filter[search]=${'x'.repeat(101)}`,
    undefined,
    'guest',
    'filter.search',
    '搜索词最多 100 个字符',
    'Search words must be at most 100 characters',
  ],
  [
    'a number too big',
    'GET',
    '/api/v3/thread.list?perPage=51',
    undefined,
    'guest',
    'perPage',
    '每页条数不能大于 50',
    'Items per page must be at most 50',
  ],
  [
    'a query field required',
    'GET',
    '/api/v3/thread.detail',
    undefined,
    'guest',
    'threadId',
    '主题编号不能为空',
    'Thread ID is required',
  ],
  [
    'not a number',
    'GET',
    '/api/v3/thread.detail?threadId=abc',
    undefined,
    'guest',
    'threadId',
    '主题编号必须是数字',
    'Thread ID must be a number',
  ],
  [
    'not a whole number',
    'POST',
    '/api/groups.create.v2',
    { name: 'g', days: 1.5 },
    'admin',
    'days',
    '有效天数必须是整数',
    'Days of validity must be a whole number',
  ],
  [
    'a number too small',
    'POST',
    '/api/groups.create.v2',
    { name: 'g', fee: -1 },
    'admin',
    'fee',
    '费用不能小于 0',
    'Fee must be at least 0',
  ],
  [
    'too many decimals',
    'POST',
    '/api/groups.create.v2',
    { name: 'g', fee: 1.234 },
    'admin',
    'fee',
    '费用最多 2 位小数',
    'Fee may have at most 2 decimals',
  ],
  [
    'a group name too long',
    'POST',
    '/api/groups.create.v2',
    { name: '组'.repeat(31) },
    'admin',
    'name',
    '用户组名称最多 30 个字符',
    'Group name must be at most 30 characters',
  ],
  [
    'an empty list',
    'POST',
    '/api/groups/batchupdate.v2',
    { data: [] },
    'admin',
    'data',
    '用户组至少要有一项',
    'The group list needs at least one item',
  ],
  [
    'an item of a list',
    'POST',
    '/api/groups/batchupdate.v2',
    { data: [group({}), group({ id: 6, name: '' })] },
    'admin',
    'data.1.name',
    '用户组名称（第 2 项）不能为空',
    'Group name (item 2) must not be empty',
  ],
  [
    'not numbers separated by commas',
    'POST',
    '/api/groups.batchdelete.v2',
    { ids: 'a,b' },
    'admin',
    'ids',
    '用户组编号应为用逗号分隔的数字，例如 3,4',
    'Group IDs must be numbers separated by commas, e.g. 3,4',
  ],
  [
    'control characters',
    'POST',
    '/api/backAdmin/categories.create',
    { name: 'a\u0007b' },
    'admin',
    'name',
    '分类名称不能包含控制字符',
    'Category name must not contain control characters',
  ],
  [
    'an empty category name',
    'POST',
    '/api/backAdmin/categories.create',
    { name: '' },
    'admin',
    'name',
    '分类名称不能为空',
    'Category name must not be empty',
  ],
  [
    'not one of the values',
    'POST',
    '/api/settings/delete.logo.v2',
    { type: 'banner' },
    'admin',
    'type',
    '图片类型只能是以下之一：logo、header_logo、background_image、watermark_image、favicon',
    'Image type must be one of: logo, header_logo, background_image, watermark_image, favicon',
  ],
  [
    'true or false',
    'POST',
    '/api/v3/threads/operate',
    () => ({ id: threadId, isSticky: 'yes' }),
    'admin',
    'isSticky',
    '置顶只能是以下之一：true、false、0、1',
    'Sticky must be one of: true, false, 0, 1',
  ],
  [
    'a setting key too long',
    'POST',
    '/api/settings.v2',
    { data: [{ key: 'k'.repeat(101), value: 'v', tag: 'default' }] },
    'admin',
    'data.0.key',
    '设置项（第 1 项）最多 100 个字符',
    'Setting key (item 1) must be at most 100 characters',
  ],
  [
    'a stop-word line too long',
    'POST',
    '/api/stop-words/batch.v2',
    { data: { type: 'stop-words', words: ['ok', 'x'.repeat(1001)] } },
    'admin',
    'data.words.1',
    '敏感词（第 2 项）最多 1000 个字符',
    'Stop word (item 2) must be at most 1000 characters',
  ],
  [
    'options not JSON',
    'POST',
    '/api/admin/signinfields.create.v2',
    { name: '学校', type: 2, sort: 1, fieldsExt: '{' },
    'admin',
    'fieldsExt',
    '选项必须是 JSON',
    'Options must be JSON',
  ],
  [
    'a template title too long',
    'POST',
    '/api/backAdmin/notification/tpl/update',
    { id: 1, title: 't'.repeat(101) },
    'admin',
    'title',
    '标题最多 100 个字符',
    'Title must be at most 100 characters',
  ],
  [
    'a ban reason too long',
    'POST',
    '/api/backAdmin/users/update.user',
    { id: 2, status: 1, reason: 'r'.repeat(201) },
    'admin',
    'reason',
    '原因最多 200 个字符',
    'Reason must be at most 200 characters',
  ],
  [
    'a field only programs send',
    'GET',
    `/api/group.resource.v2?id=1&include=${'x'.repeat(101)}`,
    undefined,
    'admin',
    'include',
    '参数 include 最多 100 个字符',
    'include must be at most 100 characters',
  ],
  [
    'a body that is no object',
    'POST',
    '/api/v3/thread.create',
    [],
    'member',
    'body',
    '请求内容格式不正确',
    'The request body is not in the right form',
  ],
];

describe('-4001 messages', () => {
  it.each(CASES)('%s', async (_what, method, url, body, who, field, zh, en) => {
    const res = await answer(method, url, body, who);
    expect(res).toEqual({ code: Code.INVALID_PARAMETER, field, zh, en });
  });
});

describe('stop words that refuse a name or a text', () => {
  it('names the field in words and quotes the word', async () => {
    expect(await answer('POST', REGISTER, { username: '坏词', password: 'secret1' }, 'guest')).toEqual({
      code: Code.CONTENT_BANNED,
      field: 'username',
      zh: '用户名不能包含「坏词」',
      en: 'Username may not contain "坏词"',
    });
    const thread = { categoryId: 1, title: '标题', content: { text: '不谈赌博' } };
    expect(await answer('POST', '/api/v3/thread.create', thread, 'member')).toEqual({
      code: Code.CONTENT_BANNED,
      field: 'content.text',
      zh: '内容包含违禁词「赌博」',
      en: 'Content holds the banned word "赌博"',
    });
  });
});
