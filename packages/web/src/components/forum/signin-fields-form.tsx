import {
  SIGNIN_TEXT_MAX,
  SIGNIN_TEXTAREA_MAX,
  SigninFieldType,
  type PublicSigninField,
  type SigninAnswer,
} from '@luntan/shared';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { isSuccess } from '../../api/dispatcher';
import { uploadImage } from '../../api/upload';
import { Spinner, Textarea, TextInput, toast } from '../ui';

export type SigninValues = Record<number, string | string[]>;

/** Whether a field takes a file (which needs a signed-in user to upload). */
export const isUploadField = (field: PublicSigninField): boolean =>
  field.type === SigninFieldType.IMAGE || field.type === SigninFieldType.ATTACHMENT;

/** The answers to send: every field with a value. */
export function answersOf(fields: PublicSigninField[], values: SigninValues): SigninAnswer[] {
  return fields
    .map((field) => ({ id: field.id, value: values[field.id] ?? '' }))
    .filter((a) => (Array.isArray(a.value) ? a.value.length > 0 : a.value.trim() !== ''));
}

/** The first required field left empty (uploads skipped when they cannot be made yet). */
export function missingRequired(fields: PublicSigninField[], values: SigninValues, canUpload: boolean) {
  return fields.find((field) => {
    if (!field.required || (!canUpload && isUploadField(field))) return false;
    const value = values[field.id];
    return value === undefined || (Array.isArray(value) ? value.length === 0 : value.trim() === '');
  });
}

export function initialValues(fields: PublicSigninField[]): SigninValues {
  const values: SigninValues = {};
  for (const field of fields) if (field.answer) values[field.id] = field.answer.value;
  return values;
}

function optionsOf(field: PublicSigninField): string[] {
  return 'options' in field.fieldsExt && field.fieldsExt.options ? field.fieldsExt.options.map((o) => o.value) : [];
}

/** The administrator's sign-in fields as form controls, in their order. */
export function SigninFieldsForm({
  fields,
  values,
  onChange,
  canUpload,
}: {
  fields: PublicSigninField[];
  values: SigninValues;
  onChange: (values: SigninValues) => void;
  canUpload: boolean;
}) {
  const { t } = useTranslation();
  const [uploading, setUploading] = useState<number | null>(null);
  const set = (id: number, value: string | string[]) => onChange({ ...values, [id]: value });
  const label = (field: PublicSigninField) => `${field.name}${field.required ? ' *' : ''}`;

  return (
    <div className="lt-signin-fields" data-testid="signin-fields">
      {fields.map((field) => {
        const value = values[field.id];
        const text = typeof value === 'string' ? value : '';
        const list = Array.isArray(value) ? value : [];
        const rejected = field.answer?.status === 2 ? field.answer.remark || t('signin.rejected') : '';
        let control;
        switch (field.type) {
          case SigninFieldType.TEXT:
            control = (
              <TextInput
                label={label(field)}
                value={text}
                maxLength={SIGNIN_TEXT_MAX}
                onChange={(v) => set(field.id, v)}
              />
            );
            break;
          case SigninFieldType.TEXTAREA:
            control = (
              <Textarea
                label={label(field)}
                value={text}
                maxLength={SIGNIN_TEXTAREA_MAX}
                onChange={(v) => set(field.id, v)}
              />
            );
            break;
          case SigninFieldType.RADIO:
          case SigninFieldType.CHECKBOX: {
            const multiple = field.type === SigninFieldType.CHECKBOX;
            control = (
              <fieldset className="lt-fieldset">
                <legend className="lt-field__label">{label(field)}</legend>
                {optionsOf(field).map((option) => (
                  <label key={option} className="lt-check">
                    <input
                      type={multiple ? 'checkbox' : 'radio'}
                      name={`field-${field.id}`}
                      checked={multiple ? list.includes(option) : text === option}
                      onChange={(e) => {
                        if (!multiple) set(field.id, option);
                        else set(field.id, e.target.checked ? [...list, option] : list.filter((v) => v !== option));
                      }}
                    />
                    {option}
                  </label>
                ))}
              </fieldset>
            );
            break;
          }
          default:
            control = (
              <div className="lt-field">
                <span className="lt-field__label">{label(field)}</span>
                {canUpload ? (
                  <label className="lt-button lt-button--default lt-button--small">
                    {uploading === field.id ? <Spinner size={14} /> : t('signin.upload')}
                    <input
                      type="file"
                      hidden
                      aria-label={field.name}
                      accept={field.type === SigninFieldType.IMAGE ? 'image/*' : undefined}
                      onChange={(event) => {
                        const file = event.target.files?.[0];
                        event.target.value = '';
                        if (!file) return;
                        setUploading(field.id);
                        void uploadImage(file)
                          .then((result) => {
                            if (isSuccess(result)) set(field.id, result.Data.url);
                            else toast.error(result.Message);
                          })
                          .finally(() => setUploading(null));
                      }}
                    />
                  </label>
                ) : (
                  <span className="lt-empty--small">{t('signin.uploadLater')}</span>
                )}
                {text ? <img className="lt-signin-fields__image" src={text} alt={field.name} /> : null}
              </div>
            );
        }
        return (
          <div key={field.id} className="lt-signin-fields__item" data-field-id={field.id}>
            {control}
            {field.fieldsDesc ? <p className="lt-empty--small">{field.fieldsDesc}</p> : null}
            {rejected ? <p className="lt-signin-fields__rejected">{rejected}</p> : null}
          </div>
        );
      })}
    </div>
  );
}
