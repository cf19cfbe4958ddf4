import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { useNavigate } from 'react-router';
import { isSuccess } from '../api/dispatcher';
import { signinFieldsQuery } from '../api/forum-queries';
import { post } from '../api/mutate';
import { forumKey } from '../api/queries';
import { useAppContext, type AppContext } from '../app-context';
import {
  answersOf,
  initialValues,
  missingRequired,
  SigninFieldsForm,
  type SigninValues,
} from '../components/forum/signin-fields-form';
import { Button, Spinner, toast } from '../components/ui';
import type { RouteHandle } from '../routing/handle';
import './auth.css';
import { usePending } from '../hooks/use-pending';
import { endpoints } from '../api/endpoints';

export const handle: RouteHandle = { title: (t) => t('signin.title') };

export async function loader(ctx: AppContext): Promise<null> {
  await ctx.queryClient.fetchQuery({ ...signinFieldsQuery(ctx.api), staleTime: 0 });
  return null;
}

/** /user/supplementary: the sign-in fields a user still owes (status 10), or wants to change. */
export function Component() {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const result = useQuery(signinFieldsQuery(api)).data;
  const fields = result && isSuccess(result) ? result.Data : null;
  const [values, setValues] = useState<SigninValues>({});
  const { pending, run } = usePending();
  useEffect(() => {
    if (fields) setValues(initialValues(fields));
  }, [fields]);

  if (!fields) return <Spinner />;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing = missingRequired(fields, values, true);
    if (missing) return void toast.warning(t('signin.required', { name: missing.name }));
    const data = answersOf(fields, values);
    if (data.length === 0) return void toast.warning(t('signin.nothing'));
    await run(async () => {
      if (!(await post(endpoints.users.signinFieldsCreate, { data }))) return;
      toast.success(t('signin.saved'));
      await queryClient.invalidateQueries({ queryKey: forumKey });
      await queryClient.invalidateQueries({ queryKey: ['signin-fields'] });
      await navigate('/', { replace: true });
    });
  };
  return (
    <form
      className="lt-card lt-auth__form lt-supplementary"
      onSubmit={(e) => void submit(e)}
      aria-labelledby="supplementary-title"
    >
      <h1 id="supplementary-title" className="lt-page__title">
        {t('signin.title')}
      </h1>
      <p className="lt-empty--small">{t('signin.intro')}</p>
      {fields.length === 0 ? <p className="lt-empty">{t('signin.none')}</p> : null}
      <SigninFieldsForm fields={fields} values={values} onChange={setValues} canUpload />
      <Button type="primary" htmlType="submit" loading={pending} full data-testid="supplementary-submit">
        {t('signin.submit')}
      </Button>
    </form>
  );
}
