import { SIGNIN_FIELD_NAME_MAX, SigninFieldStatus, type SigninFieldItem } from '@luntan/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Button, Textarea, TextInput } from '../components/ui';
import type { RouteHandle } from '../routing/handle';
import { adminCall, useAdminQuery, useAdminRefresh } from './admin-api';
import { AdminSection } from './admin-ui';
import { AdminTable } from './admin-table';
import { adminApi } from '../api/admin-client';

export const handle: RouteHandle = { title: (t) => t('admin.section.signinFields') };

const TYPES = [0, 1, 2, 3, 4, 5] as const;
const TYPE_KEYS = ['text', 'textarea', 'radio', 'checkbox', 'image', 'attachment'] as const;
const hasOptions = (type: number) => type === 2 || type === 3;

/** Options typed one per line, as fieldsExt. */
export function optionsFromLines(text: string): { options: Array<{ value: string }> } {
  const values = [
    ...new Set(
      text
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean),
    ),
  ];
  return { options: values.map((value) => ({ value })) };
}

function FieldRow({ field }: { field: SigninFieldItem }) {
  const { t } = useTranslation();
  const refresh = useAdminRefresh();
  const on = field.status === SigninFieldStatus.ON;
  const update = async (changes: Record<string, unknown>) => {
    const body = { id: field.id, status: field.status, ...changes };
    if (await adminCall('POST', adminApi.signinFields.update, body, t('admin.saved'))) await refresh('signin-fields');
  };
  const options =
    'options' in field.fieldsExt && field.fieldsExt.options ? field.fieldsExt.options.map((o) => o.value) : [];
  return (
    <tr data-testid="signin-field-row" data-field-id={field.id}>
      <td>{field.sort}</td>
      <td>
        <strong>{field.name}</strong>
        {field.fieldsDesc ? <div className="lt-empty--small">{field.fieldsDesc}</div> : null}
      </td>
      <td>
        {t(`admin.signinFields.type.${TYPE_KEYS[field.type] ?? 'text'}`)}
        {options.length > 0 ? <div className="lt-empty--small">{options.join(' / ')}</div> : null}
      </td>
      <td>
        <label className="lt-check">
          <input
            type="checkbox"
            checked={field.required}
            onChange={(e) => void update({ required: e.target.checked ? 1 : 0 })}
          />
          {t('admin.signinFields.required')}
        </label>
      </td>
      <td className="lt-table__end">
        <Button
          size="small"
          type={on ? 'default' : 'primary'}
          onClick={() => void update({ status: on ? SigninFieldStatus.OFF : SigninFieldStatus.ON })}
          data-testid="signin-field-toggle"
        >
          {on ? t('admin.signinFields.turnOff') : t('admin.signinFields.turnOn')}
        </Button>
      </td>
    </tr>
  );
}

/** Sign-in fields: what registration asks for, in order; switched on and off, required or not. */
export function Component() {
  const { t } = useTranslation();
  const refresh = useAdminRefresh();
  const list = useAdminQuery<SigninFieldItem[]>(['signin-fields'], adminApi.signinFields.list);
  const [name, setName] = useState('');
  const [type, setType] = useState(0);
  const [sort, setSort] = useState('0');
  const [description, setDescription] = useState('');
  const [options, setOptions] = useState('');
  const [required, setRequired] = useState(false);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const body = {
      name,
      type,
      sort: Number(sort) || 0,
      fieldsDesc: description,
      status: SigninFieldStatus.ON,
      required: required ? 1 : 0,
      ...(hasOptions(type) ? { fieldsExt: optionsFromLines(options) } : {}),
    };
    if (await adminCall('POST', adminApi.signinFields.create, body, t('admin.saved'))) {
      setName('');
      setDescription('');
      setOptions('');
      await refresh('signin-fields');
    }
  };

  return (
    <>
      <AdminSection name="signin" title={t('admin.section.signinFields')}>
        <AdminTable
          label={t('admin.section.signinFields')}
          columns={[
            { key: 'sort', header: t('admin.categories.sort') },
            { key: 'name', header: t('admin.signinFields.name') },
            { key: 'type', header: t('admin.signinFields.typeLabel') },
            { key: 'required', header: t('admin.signinFields.required') },
            { key: 'actions', header: t('admin.actions'), end: true },
          ]}
          rows={list.data}
          error={list.error}
          row={(field) => <FieldRow key={`${field.id}:${field.updatedAt}`} field={field} />}
        />
      </AdminSection>
      <form className="lt-card lt-admin-form" onSubmit={(e) => void create(e)} aria-labelledby="signin-new-title">
        <h2 id="signin-new-title" className="lt-card__title">
          {t('admin.signinFields.new')}
        </h2>
        <div className="lt-admin-form__row">
          <TextInput
            name="fieldName"
            label={t('admin.signinFields.name')}
            value={name}
            onChange={setName}
            maxLength={SIGNIN_FIELD_NAME_MAX}
          />
          <div className="lt-field">
            <label className="lt-field__label" htmlFor="signin-type">
              {t('admin.signinFields.typeLabel')}
            </label>
            <select
              id="signin-type"
              className="lt-select"
              value={type}
              onChange={(e) => setType(Number(e.target.value))}
            >
              {TYPES.map((value) => (
                <option key={value} value={value}>
                  {t(`admin.signinFields.type.${TYPE_KEYS[value]}`)}
                </option>
              ))}
            </select>
          </div>
          <TextInput
            name="fieldSort"
            label={t('admin.categories.sort')}
            mode="number"
            value={sort}
            onChange={setSort}
          />
        </div>
        <TextInput
          name="fieldDesc"
          label={t('admin.signinFields.description')}
          value={description}
          onChange={setDescription}
          maxLength={500}
        />
        {hasOptions(type) ? (
          <Textarea
            name="fieldOptions"
            label={t('admin.signinFields.options')}
            value={options}
            onChange={setOptions}
            rows={4}
          />
        ) : null}
        <div className="lt-toolbar">
          <label className="lt-check">
            <input type="checkbox" checked={required} onChange={(e) => setRequired(e.target.checked)} />
            {t('admin.signinFields.required')}
          </label>
          <Button type="primary" htmlType="submit" data-testid="signin-field-create">
            {t('admin.create')}
          </Button>
        </div>
      </form>
    </>
  );
}
