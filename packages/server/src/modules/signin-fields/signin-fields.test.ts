import {
  Code,
  type PublicSigninField,
  type SessionData,
  type SigninAnswerItem,
  type SigninFieldItem,
} from '@luntan/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';

let t: TestServer;
let admin: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login(ADMIN.username, ADMIN.password);
});
afterAll(async () => {
  await t.close();
});

const create = (body: unknown, token = admin) =>
  t.post<SigninFieldItem>('/api/admin/signinfields.create.v2', body, token);
const update = (body: unknown, token = admin) =>
  t.post<SigninFieldItem>('/api/admin/signinfields.update.v2', body, token);
const fields = async () => (await t.get<SigninFieldItem[]>('/api/admin/signinfields.list.v2', admin)).Data;
/** Turns every field off, so that each test starts with the fields it makes. */
const allOff = async () => {
  for (const f of await fields()) if (f.status === 1) expect((await update({ id: f.id, status: -1 })).Code).toBe(0);
};
const register = (body: Record<string, unknown>) =>
  t.post<SessionData>('/api/v3/users/username.register', { password: 'secret1', ...body });

describe('admin sign-in fields', () => {
  afterEach(allOff);

  it('creates, lists by sort, reads and updates fields of every type', async () => {
    const text = await create({ name: '真实姓名', type: 0, sort: 2, required: 1, fieldsDesc: '请填写真实姓名' });
    expect(text).toMatchObject({ Code: 0, Data: { name: '真实姓名', type: 0, sort: 2, required: true, status: 1 } });
    const radio = await create({
      name: '性别',
      type: 2,
      sort: 1,
      fieldsExt: JSON.stringify({ options: [{ value: '男' }, { value: '女' }] }),
    });
    expect(radio.Data.fieldsExt).toEqual({ options: [{ value: '男' }, { value: '女' }] });
    const check = await create({
      name: '兴趣',
      type: 3,
      sort: 3,
      fieldsExt: { options: [{ value: 'a' }, { value: 'b' }] },
    });
    expect(check.Code).toBe(0);
    for (const type of [1, 4, 5]) expect((await create({ name: `t${type}`, type, sort: 9, remark: 7 })).Code).toBe(0);
    const list = await fields();
    const mine = list.filter((f) => [text.Data.id, radio.Data.id, check.Data.id].includes(f.id));
    expect(mine.map((f) => f.name)).toEqual(['性别', '真实姓名', '兴趣']);

    const changed = await update({
      id: radio.Data.id,
      status: -1,
      name: '性别（选填）',
      fieldsExt: { options: [{ value: 'x' }] },
    });
    expect(changed.Data).toMatchObject({ status: -1, name: '性别（选填）', fieldsExt: { options: [{ value: 'x' }] } });
    const read = await t.get<SigninFieldItem>(`/api/admin/signinfields.resource.v2?id=${radio.Data.id}`, admin);
    expect(read.Data).toEqual(changed.Data);
  });

  it.each([
    ['no name', { type: 0, sort: 1 }, 'name'],
    ['no type', { name: 'x', sort: 1 }, 'type'],
    ['no sort', { name: 'x', type: 0 }, 'sort'],
    ['type 6', { name: 'x', type: 6, sort: 1 }, 'type'],
    ['status 0', { name: 'x', type: 0, sort: 1, status: 0 }, 'status'],
    ['a radio without options', { name: 'x', type: 2, sort: 1 }, 'fieldsExt'],
    ['fieldsExt not JSON', { name: 'x', type: 2, sort: 1, fieldsExt: '{oops' }, 'fieldsExt'],
    [
      'the same option twice',
      { name: 'x', type: 3, sort: 1, fieldsExt: { options: [{ value: 'a' }, { value: 'a' }] } },
      'fieldsExt',
    ],
  ])('refuses to create with %s (-4001) and creates nothing', async (_n, body, field) => {
    const before = (await fields()).length;
    const res = await create(body);
    expect(res.Code).toBe(Code.INVALID_PARAMETER);
    expect((res.Data as { field?: string }).field?.startsWith(field)).toBe(true);
    expect((await fields()).length).toBe(before);
  });

  it('refuses updates without id or status, of a missing field, or that leave a radio without options', async () => {
    const f = await create({ name: 'solo', type: 0, sort: 1 });
    expect((await update({ id: f.Data.id })).Code).toBe(Code.INVALID_PARAMETER);
    expect((await update({ status: 1 })).Code).toBe(Code.INVALID_PARAMETER);
    expect((await update({ id: 99999, status: 1 })).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await update({ id: f.Data.id, status: 1, type: 2 })).Code).toBe(Code.INVALID_PARAMETER);
    expect((await t.get(`/api/admin/signinfields.resource.v2?id=${f.Data.id}`, admin)).Data).toMatchObject({ type: 0 });
    expect((await t.get('/api/admin/signinfields.resource.v2?id=x', admin)).Code).toBe(Code.INVALID_PARAMETER);
    expect((await t.get('/api/admin/signinfields.resource.v2?id=99999', admin)).Code).toBe(Code.RESOURCE_NOT_FOUND);
  });
});

describe('registration with sign-in fields', () => {
  let name: SigninFieldItem;
  let gender: SigninFieldItem;
  let hobby: SigninFieldItem;
  beforeAll(async () => {
    await allOff();
    name = (await create({ name: '姓名', type: 0, sort: 1, required: 1 })).Data;
    gender = (
      await create({ name: '性别', type: 2, sort: 2, fieldsExt: { options: [{ value: '男' }, { value: '女' }] } })
    ).Data;
    hobby = (await create({ name: '兴趣', type: 3, sort: 3, fieldsExt: { options: [{ value: 'a' }, { value: 'b' }] } }))
      .Data;
  });
  afterAll(allOff);

  it('lists the enabled fields in order for the registration page, to anyone', async () => {
    const res = await t.get<PublicSigninField[]>('/api/v3/user/signinfields.list');
    expect(res.Data.map((f) => f.name)).toEqual(['姓名', '性别', '兴趣']);
    expect(res.Data[0]).toMatchObject({ required: true, answer: null });
  });

  it('takes the answers in the register body', async () => {
    const res = await register({
      username: 'fields_ok',
      signinFields: [
        { id: name.id, value: '张三' },
        { id: gender.id, value: '男' },
        { id: hobby.id, value: ['a', 'b'] },
      ],
    });
    expect(res).toMatchObject({ Code: 0, Data: { userStatus: 0 } });
    const answers = await t.get<SigninAnswerItem[]>(`/api/user/signinfields.list.v2?userId=${res.Data.userId}`, admin);
    const shown = await t.get<{ signinFields: SigninAnswerItem[] }>(
      `/api/backAdmin/user?userId=${res.Data.userId}`,
      admin,
    );
    expect(shown.Data.signinFields.map((a) => a.value)).toEqual(['张三', '男', ['a', 'b']]);
    expect(answers.Data.map((a) => [a.name, a.value, a.status])).toEqual([
      ['姓名', '张三', 1],
      ['性别', '男', 1],
      ['兴趣', ['a', 'b'], 1],
    ]);
  });

  it.each([
    ['a required field missing', () => [{ id: gender.id, value: '男' }], 'signinFields'],
    ['a required field left empty', () => [{ id: name.id, value: '  ' }], 'signinFields'],
    [
      'an option that does not exist',
      () => [
        { id: name.id, value: 'x' },
        { id: gender.id, value: '其他' },
      ],
      'signinFields.1.value',
    ],
    [
      'text for a checkbox',
      () => [
        { id: name.id, value: 'x' },
        { id: hobby.id, value: 'a' },
      ],
      'signinFields.1.value',
    ],
    [
      'an unknown field',
      () => [
        { id: name.id, value: 'x' },
        { id: 99999, value: 'x' },
      ],
      'signinFields.1.id',
    ],
    ['two lines in a single-line field', () => [{ id: name.id, value: 'a\nb' }], 'signinFields.0.value'],
  ])('refuses registration with %s, creating no user', async (_n, answers, field) => {
    const res = await register({ username: 'fields_bad', signinFields: answers() });
    expect(res.Code).toBe(field.endsWith('.id') ? Code.RESOURCE_NOT_FOUND : Code.INVALID_PARAMETER);
    expect(res.Data).toMatchObject({ field });
    expect((await t.post('/api/v3/users/username.check', { username: 'fields_bad' })).Code).toBe(0);
  });

  it('gives status 10 without answers: -3007 until the fields are answered', async () => {
    const res = await register({ username: 'fields_later' });
    expect(res.Data.userStatus).toBe(10);
    const token = res.Data.accessToken;
    const refused = await t.get('/api/v3/thread.list', token);
    expect(refused.Code).toBe(Code.JUMP_TO_SUPPLEMENTARY);
    expect((await t.get('/api/v3/forum', token)).Code).toBe(0);
    expect((await t.get('/api/siteinfo.v2', token)).Code).toBe(0);
    // Signing in again is allowed, to answer.
    const again = await t.post<SessionData>('/api/v3/users/username.login', {
      username: 'fields_later',
      password: 'secret1',
    });
    expect(again.Data.userStatus).toBe(10);
    const page = await t.get<PublicSigninField[]>('/api/v3/user/signinfields.list', token);
    expect(page.Code).toBe(0);
    // An optional answer alone does not settle what is owed.
    const partial = await t.post<{ userStatus: number }>(
      '/api/v3/user/signinfields.create',
      { data: [{ id: gender.id, value: '女' }] },
      token,
    );
    expect(partial.Data.userStatus).toBe(10);
    expect((await t.get('/api/v3/thread.list', token)).Code).toBe(Code.JUMP_TO_SUPPLEMENTARY);
    const done = await t.post<{ userStatus: number; answers: SigninAnswerItem[] }>(
      '/api/v3/user/signinfields.create',
      { data: [{ id: name.id, value: '李四' }] },
      token,
    );
    expect(done.Data.userStatus).toBe(0);
    expect(done.Data.answers.map((a) => a.name)).toEqual(['姓名', '性别']);
    expect((await t.get('/api/v3/thread.list', token)).Code).toBe(0);
    const mine = await t.get<PublicSigninField[]>('/api/v3/user/signinfields.list', token);
    expect(mine.Data.find((f) => f.id === name.id)?.answer).toMatchObject({ value: '李四', status: 1 });
  });

  it('lets an administrator approve or reject answers; a rejected required answer is owed again', async () => {
    const res = await register({ username: 'fields_rev', signinFields: [{ id: name.id, value: '王五' }] });
    const token = res.Data.accessToken;
    const [answer] = (
      await t.get<SigninAnswerItem[]>(`/api/user/signinfields.list.v2?userId=${res.Data.userId}`, token)
    ).Data;
    const approved = await t.post<SigninAnswerItem[]>(
      '/api/admin/signinfields.examine.v2',
      { data: [{ id: answer!.id, status: 3 }] },
      admin,
    );
    expect(approved.Data[0]!.status).toBe(3);
    const rejected = await t.post<SigninAnswerItem[]>(
      '/api/admin/signinfields.examine.v2',
      { data: [{ id: answer!.id, status: 2, remark: '请填写真名' }] },
      admin,
    );
    expect(rejected.Data[0]).toMatchObject({ status: 2, remark: '请填写真名' });
    expect((await t.get('/api/v3/thread.list', token)).Code).toBe(Code.JUMP_TO_SUPPLEMENTARY);
    const again = await t.post<{ userStatus: number }>(
      '/api/v3/user/signinfields.create',
      { data: [{ id: name.id, value: '王五一' }] },
      token,
    );
    expect(again.Data.userStatus).toBe(0);
    // The replaced answer is discarded and cannot be examined.
    const stale = await t.post('/api/admin/signinfields.examine.v2', { data: [{ id: answer!.id, status: 3 }] }, admin);
    expect(stale.Code).toBe(Code.INVALID_PARAMETER);
    for (const body of [{ data: [{ id: answer!.id, status: 1 }] }, { data: [] }, {}]) {
      expect((await t.post('/api/admin/signinfields.examine.v2', body, admin)).Code).toBe(Code.INVALID_PARAMETER);
    }
    expect(
      (await t.post('/api/admin/signinfields.examine.v2', { data: [{ id: 999999, status: 3 }] }, admin)).Code,
    ).toBe(Code.RESOURCE_NOT_FOUND);
  });

  it("shows a user's answers to that user and administrators only", async () => {
    const owner = await register({ username: 'fields_own', signinFields: [{ id: name.id, value: 'x' }] });
    const other = await buildUser(t);
    const url = `/api/user/signinfields.list.v2?userId=${owner.Data.userId}`;
    expect((await t.get(url, owner.Data.accessToken)).Code).toBe(0);
    expect((await t.get(url, admin)).Code).toBe(0);
    expect((await t.get(url, other.token)).Code).toBe(Code.UNAUTHORIZED);
    expect((await t.get(url)).Code).toBe(Code.JUMP_TO_LOGIN);
    expect((await t.get('/api/user/signinfields.list.v2', admin)).Code).toBe(Code.INVALID_PARAMETER);
    expect((await t.get('/api/user/signinfields.list.v2?userId=99999', admin)).Code).toBe(Code.RESOURCE_NOT_FOUND);
  });

  it('registers without fields when none is required', async () => {
    await update({ id: name.id, status: 1, required: 0 });
    try {
      expect((await register({ username: 'fields_none' })).Data.userStatus).toBe(0);
    } finally {
      await update({ id: name.id, status: 1, required: 1 });
    }
  });
});

describe('guests and members are refused and nothing changes', () => {
  it.each([
    ['GET', '/api/admin/signinfields.list.v2', undefined],
    ['POST', '/api/admin/signinfields.create.v2', { name: 'intruder', type: 0, sort: 1 }],
    ['POST', '/api/admin/signinfields.update.v2', 'UPDATE'],
    ['GET', '/api/admin/signinfields.resource.v2?id=1', undefined],
    ['POST', '/api/admin/signinfields.examine.v2', { data: [{ id: 1, status: 3 }] }],
  ])('%s %s', async (method, url, given) => {
    const target = (await create({ name: 'target', type: 0, sort: 1, status: -1 })).Data;
    const body = given === 'UPDATE' ? { id: target.id, status: 1, name: 'hijacked' } : given;
    const member = await buildUser(t);
    const before = await fields();
    expect((await t.call(method as 'GET', url, { body })).body.Code).toBe(Code.JUMP_TO_LOGIN);
    expect((await t.call(method as 'GET', url, { body, token: member.token })).body.Code).toBe(Code.UNAUTHORIZED);
    expect(await fields()).toEqual(before);
  });
});
