import { z } from 'zod';
import { bodyId, queryId } from './categories.js';
import { CONTROL_CHARS, noControlCharsInLines } from './common.js';
import { labeled } from './field-labels.js';
import { problem } from '../validation-messages.js';

/** Sign-in field types: 0 single line, 1 multi-line, 2 radio, 3 checkbox, 4 image, 5 attachment. */
export const SigninFieldType = {
  TEXT: 0,
  TEXTAREA: 1,
  RADIO: 2,
  CHECKBOX: 3,
  IMAGE: 4,
  ATTACHMENT: 5,
} as const;
/** A field is on (1) or off (-1). */
export const SigninFieldStatus = { OFF: -1, ON: 1 } as const;
/** A user's answer: 0 discarded (answered again), 1 pending, 2 rejected, 3 approved. */
export const SigninAnswerStatus = { DISCARDED: 0, PENDING: 1, REJECTED: 2, APPROVED: 3 } as const;

export const SIGNIN_FIELD_NAME_MAX = 50;
export const SIGNIN_FIELD_OPTIONS_MAX = 50;
export const SIGNIN_TEXT_MAX = 200;
export const SIGNIN_TEXTAREA_MAX = 2000;

const text = (max: number, min = 0) => z.string().trim().min(min).max(max).refine(noControlCharsInLines, CONTROL_CHARS);
const flag01 = z.union([z.literal(0), z.literal(1), z.boolean()]).transform((v) => (v === true || v === 1 ? 1 : 0));

const optionsSchema = z.object({
  options: labeled(
    z
      .array(
        z.object({
          value: labeled(text(100, 1), { zh: '选项', en: 'Option' }),
          checked: z.boolean().optional(),
        }),
      )
      .max(SIGNIN_FIELD_OPTIONS_MAX)
      .refine((o) => new Set(o.map((x) => x.value)).size === o.length, problem({ kind: 'distinct' })),
    { zh: '选项', en: 'Options' },
  ),
});
export type SigninFieldOptions = z.infer<typeof optionsSchema>;

/**
 * fieldsExt: the options of a radio or checkbox field, `{"options":[{"value":"A"},...]}`, given as that JSON text
 * (as the family's client sent it) or as the object itself.
 */
export const fieldsExtSchema = labeled(
  z
    .union([z.string().max(20_000), z.record(z.string(), z.unknown())])
    .transform((v, ctx) => {
      if (typeof v !== 'string') return v;
      if (v.trim() === '') return {};
      try {
        return JSON.parse(v) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', ...problem({ kind: 'json' }) });
        return z.NEVER;
      }
    })
    .pipe(optionsSchema.partial()),
  { zh: '选项', en: 'Options' },
);

const fieldFields = {
  name: labeled(text(SIGNIN_FIELD_NAME_MAX, 1), { zh: '字段名称', en: 'Field name' }),
  type: labeled(z.number().int().min(0).max(5), { zh: '字段类型', en: 'Field type' }),
  sort: z.number().int().min(-1_000_000).max(1_000_000),
  fieldsDesc: labeled(text(500), { zh: '字段说明', en: 'Field description' }),
  fieldsExt: fieldsExtSchema,
  /** The spec lists it as a number; text is kept too. */
  remark: z.union([text(500), z.number().finite()]).transform(String),
  status: z.union([z.literal(-1), z.literal(1)]),
  required: labeled(flag01, { zh: '必填', en: 'Required' }),
};

/** POST /api/admin/signinfields.create.v2 */
export const signinFieldCreateBody = z.object({
  name: fieldFields.name,
  type: fieldFields.type,
  sort: fieldFields.sort,
  fieldsDesc: fieldFields.fieldsDesc.optional(),
  fieldsExt: fieldFields.fieldsExt.optional(),
  remark: fieldFields.remark.optional(),
  status: fieldFields.status.optional(),
  required: fieldFields.required.optional(),
});
export type SigninFieldCreateBody = z.infer<typeof signinFieldCreateBody>;

/** POST /api/admin/signinfields.update.v2: id and status, plus any field to change. */
export const signinFieldUpdateBody = z.object({
  id: bodyId,
  status: fieldFields.status,
  name: fieldFields.name.optional(),
  type: fieldFields.type.optional(),
  sort: fieldFields.sort.optional(),
  fieldsDesc: fieldFields.fieldsDesc.optional(),
  fieldsExt: fieldFields.fieldsExt.optional(),
  remark: fieldFields.remark.optional(),
  required: fieldFields.required.optional(),
});
export type SigninFieldUpdateBody = z.infer<typeof signinFieldUpdateBody>;

/** GET /api/admin/signinfields.resource.v2 */
export const signinFieldResourceQuery = z.object({ id: queryId });

/** GET /api/user/signinfields.list.v2: a user's answers (the user and administrators only). */
export const userSigninFieldsQuery = z.object({ userId: queryId });

/** One answer: text, one option of a radio, options of a checkbox, the URL of an uploaded image or file. */
export const signinAnswer = z.object({
  /** The field's id. */
  id: bodyId,
  value: labeled(
    z.union([z.string().max(SIGNIN_TEXTAREA_MAX), z.array(z.string().max(100)).max(SIGNIN_FIELD_OPTIONS_MAX)]),
    { zh: '回答', en: 'Answer' },
  ),
});
export type SigninAnswer = z.infer<typeof signinAnswer>;
const ANSWERS = { zh: '注册扩展信息', en: 'The sign-in fields' };
export const signinAnswers = labeled(z.array(signinAnswer).max(100), ANSWERS);

/** POST /api/v3/user/signinfields.create: the viewer's answers (answering a field again replaces the answer). */
export const userSigninFieldsCreateBody = z.object({ data: labeled(signinAnswers.min(1), ANSWERS) });

/** POST /api/admin/signinfields.examine.v2: approve (3) or reject (2, with a remark) answers. */
export const signinAnswersExamineBody = z.object({
  data: z
    .array(z.object({ id: bodyId, status: z.union([z.literal(2), z.literal(3)]), remark: text(500).optional() }))
    .min(1)
    .max(100),
});
export type SigninAnswersExamineBody = z.infer<typeof signinAnswersExamineBody>;

export interface SigninFieldItem {
  id: number;
  name: string;
  type: number;
  fieldsExt: SigninFieldOptions | Record<string, never>;
  fieldsDesc: string;
  remark: string;
  sort: number;
  status: number;
  required: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface SigninAnswerItem {
  id: number;
  userId: number;
  fieldId: number;
  name: string;
  type: number;
  fieldsExt: SigninFieldOptions | Record<string, never>;
  value: string | string[];
  status: number;
  remark: string;
  createdAt: string;
  updatedAt: string;
}

/** The public list for the registration and supplementary pages: enabled fields, and the viewer's answer. */
export type PublicSigninField = Omit<SigninFieldItem, 'status' | 'remark' | 'createdAt' | 'updatedAt'> & {
  answer: Pick<SigninAnswerItem, 'id' | 'value' | 'status' | 'remark'> | null;
};
