import {
  SigninAnswerStatus,
  SigninFieldType,
  SIGNIN_TEXT_MAX,
  UserStatus,
  type PublicSigninField,
  type SigninAnswer,
  type SigninAnswerItem,
  type SigninAnswersExamineBody,
  type SigninFieldCreateBody,
  type SigninFieldItem,
  type SigninFieldOptions,
  type SigninFieldUpdateBody,
} from '@luntan/shared';
import type { Insertable, Kysely, Updateable } from 'kysely';
import { invalidField, notFoundField } from '../../core/errors.js';
import { now } from '../../core/time.js';
import type { DB, SigninField, SigninFieldsTable, UserSigninField, UserSigninFieldsTable } from '../../db/schema.js';
import { readSiteSettings } from '../settings/index.js';
import { findUserById, updateUser } from '../users/index.js';
import {
  findAnswer,
  findField,
  insertField,
  listFields,
  liveAnswers,
  replaceAnswers,
  updateAnswer,
  updateField,
} from './signin-fields.repository.js';
import { msg } from '../../i18n/index.js';

const fieldNotFound = (field = 'id') => notFoundField(field, msg('signinFields.noSuchSignField'));

const parseExt = (ext: string): SigninFieldOptions | Record<string, never> => {
  try {
    return ext ? (JSON.parse(ext) as SigninFieldOptions) : {};
  } catch {
    return {};
  }
};
const optionValues = (ext: string) => (parseExt(ext) as Partial<SigninFieldOptions>).options?.map((o) => o.value) ?? [];
const isChoice = (type: number) => type === SigninFieldType.RADIO || type === SigninFieldType.CHECKBOX;

export function presentField(f: SigninField): SigninFieldItem {
  return {
    id: f.id,
    name: f.name,
    type: f.type,
    fieldsExt: parseExt(f.fieldsExt),
    fieldsDesc: f.fieldsDesc,
    remark: f.remark,
    sort: f.sort,
    status: f.status,
    required: f.required === 1,
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
  };
}

function presentAnswer(a: UserSigninField): SigninAnswerItem {
  return {
    id: a.id,
    userId: a.userId,
    fieldId: a.fieldId,
    name: a.name,
    type: a.type,
    fieldsExt: parseExt(a.fieldsExt),
    value: a.type === SigninFieldType.CHECKBOX ? (JSON.parse(a.value) as string[]) : a.value,
    status: a.status,
    remark: a.remark,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}

/** A radio or checkbox field needs options; other types keep none. */
function checkOptions(type: number, ext: Partial<SigninFieldOptions> | undefined): string {
  if (!isChoice(type)) return '';
  if (!ext?.options || ext.options.length === 0) {
    throw invalidField('fieldsExt', msg('signinFields.radioCheckboxFieldNeeds'));
  }
  return JSON.stringify({ options: ext.options });
}

export async function createField(db: Kysely<DB>, body: SigninFieldCreateBody): Promise<SigninFieldItem> {
  const at = now();
  const id = await insertField(db, {
    name: body.name,
    type: body.type,
    fieldsExt: checkOptions(body.type, body.fieldsExt),
    fieldsDesc: body.fieldsDesc ?? '',
    remark: body.remark ?? '',
    sort: body.sort,
    status: body.status ?? 1,
    required: body.required ?? 0,
    createdAt: at,
    updatedAt: at,
  });
  return presentField((await findField(db, id))!);
}

export async function updateFieldById(db: Kysely<DB>, body: SigninFieldUpdateBody): Promise<SigninFieldItem> {
  const current = await findField(db, body.id);
  if (!current) throw fieldNotFound();
  const type = body.type ?? current.type;
  const changes: Updateable<SigninFieldsTable> = { status: body.status, updatedAt: now() };
  if (body.name !== undefined) changes.name = body.name;
  if (body.type !== undefined) changes.type = body.type;
  if (body.sort !== undefined) changes.sort = body.sort;
  if (body.fieldsDesc !== undefined) changes.fieldsDesc = body.fieldsDesc;
  if (body.remark !== undefined) changes.remark = body.remark;
  if (body.required !== undefined) changes.required = body.required;
  if (body.fieldsExt !== undefined || body.type !== undefined) {
    changes.fieldsExt = checkOptions(
      type,
      body.fieldsExt ?? (parseExt(current.fieldsExt) as Partial<SigninFieldOptions>),
    );
  }
  await updateField(db, body.id, changes);
  return presentField((await findField(db, body.id))!);
}

export async function readField(db: Kysely<DB>, id: number): Promise<SigninFieldItem> {
  const f = await findField(db, id);
  if (!f) throw fieldNotFound();
  return presentField(f);
}

export async function listAllFields(db: Kysely<DB>): Promise<SigninFieldItem[]> {
  return (await listFields(db, false)).map(presentField);
}

/** The enabled fields in order, each with the viewer's current answer (for the registration and supplementary pages). */
export async function publicFields(db: Kysely<DB>, userId: number | null): Promise<PublicSigninField[]> {
  const fields = await listFields(db, true);
  const answers = userId ? await liveAnswers(db, userId) : [];
  const byField = new Map(answers.map((a) => [a.fieldId, a]));
  return fields.map((f) => {
    const { status: _s, remark: _r, createdAt: _c, updatedAt: _u, ...item } = presentField(f);
    const a = byField.get(f.id);
    const shown = a ? presentAnswer(a) : null;
    return {
      ...item,
      answer: shown ? { id: shown.id, value: shown.value, status: shown.status, remark: shown.remark } : null,
    };
  });
}

export async function answersOf(db: Kysely<DB>, userId: number): Promise<SigninAnswerItem[]> {
  if (!(await findUserById(db, userId))) throw notFoundField('userId', msg('signinFields.noSuchUser'));
  return (await liveAnswers(db, userId)).map(presentAnswer);
}

/** Checks answers against the enabled fields; answers the rows to store. Empty answers are left out. */
function checkAnswers(
  fields: SigninField[],
  answers: readonly SigninAnswer[],
  prefix: string,
  userId: number,
  at: string,
): Insertable<UserSigninFieldsTable>[] {
  const byId = new Map(fields.map((f) => [f.id, f]));
  const seen = new Set<number>();
  const rows: Insertable<UserSigninFieldsTable>[] = [];
  for (const [i, answer] of answers.entries()) {
    const field = byId.get(answer.id);
    const at_ = `${prefix}.${i}`;
    if (!field) throw fieldNotFound(`${at_}.id`);
    if (seen.has(field.id)) {
      throw invalidField(`${at_}.id`, msg('signinFields.answeredTwice', { name: field.name }));
    }
    seen.add(field.id);
    // The sign-in field's own name is the best label of its answer.
    const wrong = (zh: string, en: string) =>
      invalidField(`${at_}.value`, msg('signinFields.answer', { name: field.name, zh, en }));
    let value: string;
    if (field.type === SigninFieldType.CHECKBOX) {
      if (!Array.isArray(answer.value)) throw wrong('必须是选项列表', 'must be a list of options');
      const allowed = optionValues(field.fieldsExt);
      const picked = [...new Set(answer.value)];
      if (picked.some((v) => !allowed.includes(v))) throw wrong('不是可选的选项', 'is not one of its options');
      if (picked.length === 0) continue;
      value = JSON.stringify(picked);
    } else {
      if (typeof answer.value !== 'string') throw wrong('必须是文字', 'must be text');
      value = answer.value.trim();
      if (value === '') continue;
      if (field.type === SigninFieldType.TEXT && ([...value].length > SIGNIN_TEXT_MAX || /[\r\n]/.test(value))) {
        throw wrong(
          `只能是一行，最多 ${SIGNIN_TEXT_MAX} 个字符`,
          `must be one line of at most ${SIGNIN_TEXT_MAX} characters`,
        );
      }
      if (field.type === SigninFieldType.RADIO && !optionValues(field.fieldsExt).includes(value)) {
        throw wrong('不是可选的选项', 'is not one of its options');
      }
      if (
        (field.type === SigninFieldType.IMAGE || field.type === SigninFieldType.ATTACHMENT) &&
        !/^(\/|https?:\/\/)\S{1,500}$/.test(value)
      ) {
        throw wrong('必须是已上传文件的地址', 'must be the address of an uploaded file');
      }
    }
    rows.push({
      userId,
      fieldId: field.id,
      name: field.name,
      type: field.type,
      fieldsExt: field.fieldsExt,
      value,
      status: SigninAnswerStatus.PENDING,
      remark: '',
      createdAt: at,
      updatedAt: at,
    });
  }
  return rows;
}

/** The enabled required fields without a live answer that is not rejected. */
async function owedFields(db: Kysely<DB>, userId: number): Promise<SigninField[]> {
  const answered = new Set(
    (await liveAnswers(db, userId)).filter((a) => a.status !== SigninAnswerStatus.REJECTED).map((a) => a.fieldId),
  );
  return (await listFields(db, true)).filter((f) => f.required === 1 && !answered.has(f.id));
}

/** The status a user has once the fields are answered: under review when registrations are reviewed, else normal. */
async function statusAfterFields(db: Kysely<DB>): Promise<number> {
  return (await readSiteSettings(db)).registerValidate === true ? UserStatus.UNDER_REVIEW : UserStatus.NORMAL;
}

/**
 * At registration, in the registration's transaction. With answers, every enabled required field must be answered
 * (-4001 otherwise); without them while required fields exist, the user owes them (status 10).
 */
export async function registrationFields(
  db: Kysely<DB>,
  answers: readonly SigninAnswer[] | undefined,
): Promise<{ owes: boolean; store: (trx: Kysely<DB>, userId: number) => Promise<void> }> {
  const fields = await listFields(db, true);
  const required = fields.filter((f) => f.required === 1);
  const at = now();
  if (answers === undefined) return { owes: required.length > 0, store: async () => undefined };
  const rows = checkAnswers(fields, answers, 'signinFields', 0, at);
  const answered = new Set(rows.map((r) => r.fieldId));
  const missing = required.find((f) => !answered.has(f.id));
  if (missing) {
    throw invalidField('signinFields', msg('signinFields.requiredFieldNotAnswered', { name: missing.name }));
  }
  return {
    owes: false,
    store: (trx, userId) =>
      replaceAnswers(
        trx,
        userId,
        rows.map((r) => ({ ...r, userId })),
        at,
      ),
  };
}

/** The viewer answers fields; a user who owed fields (status 10) is let in once none is owed. */
export async function submitAnswers(
  db: Kysely<DB>,
  userId: number,
  answers: readonly SigninAnswer[],
): Promise<{ userStatus: number; answers: SigninAnswerItem[] }> {
  const at = now();
  const fields = await listFields(db, true);
  const rows = checkAnswers(fields, answers, 'data', userId, at);
  const afterFields = await statusAfterFields(db);
  const userStatus = await db.transaction().execute(async (trx) => {
    await replaceAnswers(trx, userId, rows, at);
    const user = await findUserById(trx, userId);
    if (user?.status === UserStatus.NEEDS_SIGNIN_FIELDS && (await owedFields(trx, userId)).length === 0) {
      await updateUser(trx, userId, { status: afterFields, updatedAt: at });
      return afterFields;
    }
    return user?.status ?? UserStatus.NORMAL;
  });
  return { userStatus, answers: (await liveAnswers(db, userId)).map(presentAnswer) };
}

/**
 * Approves or rejects answers, all or none. Rejecting the answer to an enabled required field sends its user back
 * to answering (status 10) unless the account is banned, rejected or ignored.
 */
export async function examineAnswers(db: Kysely<DB>, body: SigninAnswersExamineBody): Promise<SigninAnswerItem[]> {
  const at = now();
  await db.transaction().execute(async (trx) => {
    for (const [i, item] of body.data.entries()) {
      const answer = await findAnswer(trx, item.id);
      if (!answer) throw notFoundField(`data.${i}.id`, msg('signinFields.noSuchAnswer'));
      if (answer.status === SigninAnswerStatus.DISCARDED) {
        throw invalidField(`data.${i}.id`, msg('signinFields.answerReplacedNewerOne'));
      }
      await updateAnswer(trx, answer.id, { status: item.status, remark: item.remark ?? '', updatedAt: at });
      if (item.status !== SigninAnswerStatus.REJECTED) continue;
      const field = await findField(trx, answer.fieldId);
      const user = await findUserById(trx, answer.userId);
      const inGoodStanding = user?.status === UserStatus.NORMAL || user?.status === UserStatus.UNDER_REVIEW;
      if (field?.required === 1 && field.status === 1 && inGoodStanding) {
        await updateUser(trx, answer.userId, { status: UserStatus.NEEDS_SIGNIN_FIELDS, updatedAt: at });
      }
    }
  });
  const out: SigninAnswerItem[] = [];
  for (const item of body.data) out.push(presentAnswer((await findAnswer(db, item.id))!));
  return out;
}
