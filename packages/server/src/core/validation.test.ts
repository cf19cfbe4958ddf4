import { describeIssue, labeled, type Sentence } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/** The issue kinds no route of ours raises today (the HTTP tests cover the others), composed the same way. */
const says = (schema: z.ZodType, input: unknown): Sentence & { field: string } => {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('accepted');
  const { field, message } = describeIssue(result.error.issues[0]!, { schema, input });
  return { field, ...message };
};

describe('describeIssue', () => {
  const code = labeled(z.string().length(6), { zh: '验证码', en: 'Code' });

  it('writes the kinds our routes do not raise yet', () => {
    expect(says(z.object({ code }), { code: '123' })).toEqual({
      field: 'code',
      zh: '验证码必须是 6 个字符',
      en: 'Code must be exactly 6 characters',
    });
    expect(says(z.object({ email: z.email() }), { email: 'x' })).toEqual({
      field: 'email',
      zh: '参数 email 不是有效的邮箱地址',
      en: 'email is not a valid email address',
    });
    expect(says(z.object({}).strict(), { a: 1, b: 2 })).toEqual({
      field: 'body',
      zh: '请求内容包含未知的参数：a、b',
      en: 'The request body holds unknown parameters: a, b',
    });
    expect(says(z.object({ page: z.number().multipleOf(5) }), { page: 7 })).toEqual({
      field: 'page',
      zh: '页码必须是 5 的倍数',
      en: 'Page must be a multiple of 5',
    });
  });

  it('says "required" for a field that is absent, whatever the schema made of the gap', () => {
    const query = z.object({ threadId: z.coerce.number().int() });
    expect(says(query, {})).toEqual({ field: 'threadId', zh: '主题编号不能为空', en: 'Thread ID is required' });
    expect(says(query, { threadId: 'x' })).toMatchObject({ en: 'Thread ID must be a number' });
  });

  it("keeps a label to the schema it was given to, not to others that share a field's schema", () => {
    const shared = z.string().max(3);
    const a = z.object({ name: labeled(shared, { zh: '分类名称', en: 'Category name' }) });
    const b = z.object({ name: shared });
    expect(says(a, { name: 'long' }).en).toBe('Category name must be at most 3 characters');
    expect(says(b, { name: 'long' }).en).toBe('Name must be at most 3 characters');
  });
});
