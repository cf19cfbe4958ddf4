import {
  STOP_WORD_BATCH_MAX,
  STOP_WORD_TYPES,
  type Page,
  type StopWordItem,
  type StopWordsBatchResult,
} from '@luntan/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { useSearchParams } from 'react-router';
import { isSuccess, request } from '../api/dispatcher';
import { positiveInt } from '../api/forum-queries';
import { Button, Textarea, TextInput, toast } from '../components/ui';
import type { RouteHandle } from '../routing/handle';
import { adminCall, useAdminQuery, useAdminRefresh } from './admin-api';
import { RowCheckbox, useConfirmDelete, useSelection } from './admin-ui';
import { AdminTable } from './admin-table';
import { usePending } from '../hooks/use-pending';
import { adminApi } from '../api/admin-client';

export const handle: RouteHandle = { title: (t) => t('admin.section.stopWords') };

/** The import box's lines: one word rule per line, blank lines dropped. */
export function importLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

function ImportForm() {
  const { t } = useTranslation();
  const refresh = useAdminRefresh();
  const [text, setText] = useState('');
  const [overwrite, setOverwrite] = useState(false);
  const { pending, run } = usePending();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const words = importLines(text);
    if (words.length === 0) return void toast.warning(t('admin.stopWords.nothing'));
    if (words.length > STOP_WORD_BATCH_MAX)
      return void toast.warning(t('admin.stopWords.tooMany', { max: STOP_WORD_BATCH_MAX }));
    await run(async () => {
      const body = { data: { type: 'stop-words', words, overwrite } };
      const result = await adminCall<StopWordsBatchResult>('POST', adminApi.stopWords.batch, body);
      if (result) {
        toast.success(t('admin.stopWords.imported', { ...result }));
        setText('');
        await refresh('stop-words');
      }
    });
  };
  return (
    <form className="lt-card lt-admin-form" onSubmit={(e) => void submit(e)} aria-labelledby="stop-import-title">
      <h2 id="stop-import-title" className="lt-card__title">
        {t('admin.stopWords.import')}
      </h2>
      <p className="lt-empty--small">{t('admin.stopWords.formats')}</p>
      <Textarea name="words" label={t('admin.stopWords.lines')} value={text} onChange={setText} rows={6} />
      <div className="lt-toolbar">
        <label className="lt-check">
          <input type="checkbox" checked={overwrite} onChange={(e) => setOverwrite(e.target.checked)} />
          {t('admin.stopWords.overwrite')}
        </label>
        <Button type="primary" htmlType="submit" loading={pending} data-testid="stop-words-import">
          {t('admin.stopWords.importButton')}
        </Button>
      </div>
    </form>
  );
}

/** Stop words: list with a filter, import in the family's line formats, export, delete one or several. */
export function Component() {
  const { t } = useTranslation();
  const refresh = useAdminRefresh();
  const [search, setSearch] = useSearchParams();
  const page = positiveInt(search.get('page'), 1);
  const filter = search.get('filter') ?? '';
  const [draft, setDraft] = useState(filter);
  const { selected, toggle, clear: clearSelection } = useSelection();
  const { confirmDelete, dialog } = useConfirmDelete();
  const list = useAdminQuery<Page<StopWordItem>>(['stop-words', page, filter], adminApi.stopWords.list, {
    page,
    perPage: 20,
    ...(filter ? { filter } : {}),
  });

  const remove = async (ids: number[]) => {
    if (!(await confirmDelete(t('admin.stopWords.confirmDelete', { count: ids.length })))) return;
    if (await adminCall('DELETE', adminApi.stopWords.delete(ids), undefined, t('admin.deleted'))) {
      clearSelection();
      await refresh('stop-words');
    }
  };
  const exportAll = async () => {
    const result = await request<{ words: string[] }>({ url: adminApi.stopWords.export });
    if (!isSuccess(result)) return void toast.error(result.Message);
    const blob = new Blob([`${result.Data.words.join('\n')}\n`], { type: 'text/plain;charset=utf-8' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = 'stop-words.txt';
    link.click();
    URL.revokeObjectURL(link.href);
  };

  return (
    <>
      <section className="lt-card lt-admin-form" aria-labelledby="stop-title">
        <div className="lt-toolbar">
          <h1 id="stop-title" className="lt-page__title">
            {t('admin.section.stopWords')}
          </h1>
          <Button onClick={() => void exportAll()}>{t('admin.stopWords.export')}</Button>
        </div>
        <form
          className="lt-toolbar"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            setSearch(draft.trim() ? { filter: draft.trim() } : {});
          }}
        >
          <TextInput
            name="filter"
            label={t('admin.stopWords.filter')}
            value={draft}
            onChange={setDraft}
            maxLength={100}
          />
          <Button htmlType="submit">{t('admin.users.searchButton')}</Button>
        </form>
        <AdminTable
          label={t('admin.section.stopWords')}
          columns={[
            { key: 'select', header: <span className="lt-visually-hidden">{t('admin.select')}</span> },
            { key: 'word', header: t('admin.stopWords.word') },
            ...STOP_WORD_TYPES.map((type) => ({ key: type, header: t(`admin.stopWords.type.${type}`) })),
            { key: 'replacement', header: t('admin.stopWords.replacement') },
            { key: 'actions', header: t('admin.actions'), end: true },
          ]}
          rows={list.data}
          error={list.error}
          headWhenEmpty
          row={(word) => (
            <tr key={word.id} data-testid="stop-word-row">
              <td>
                <RowCheckbox
                  label={t('admin.selectOne', { name: word.find })}
                  checked={selected.has(word.id)}
                  onChange={(on) => toggle(word.id, on)}
                />
              </td>
              <td>{word.find}</td>
              {STOP_WORD_TYPES.map((type) => (
                <td key={type}>{t(`admin.stopWords.action.${word[type]}`)}</td>
              ))}
              <td>{word.replacement}</td>
              <td className="lt-table__end">
                <Button size="small" type="text" onClick={() => void remove([word.id])}>
                  {t('admin.delete')}
                </Button>
              </td>
            </tr>
          )}
          footer={
            <Button type="danger" disabled={selected.size === 0} onClick={() => void remove([...selected])}>
              {t('admin.deleteSelected', { count: selected.size })}
            </Button>
          }
        />
      </section>
      <ImportForm />
      {dialog}
    </>
  );
}
