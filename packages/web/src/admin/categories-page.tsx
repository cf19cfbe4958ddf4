import { CATEGORY_DESCRIPTION_MAX, CATEGORY_NAME_MAX, type CategoryItem } from '@luntan/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Button, Spinner, TextInput } from '../components/ui';
import type { RouteHandle } from '../routing/handle';
import { adminCall, useAdminQuery, useAdminRefresh } from './admin-api';
import { AdminSection, useConfirmDelete } from './admin-ui';
import { AdminTable } from './admin-table';
import { adminApi } from '../api/admin-client';

export const handle: RouteHandle = { title: (t) => t('admin.section.categories') };

interface Draft {
  name: string;
  description: string;
  sort: string;
}

function CategoryRow({ category, all, depth }: { category: CategoryItem; all: CategoryItem[]; depth: number }) {
  const { t } = useTranslation();
  const refresh = useAdminRefresh();
  const [draft, setDraft] = useState<Draft>({
    name: category.name,
    description: category.description,
    sort: String(category.sort),
  });
  const [moveTo, setMoveTo] = useState(0);
  const { confirmDelete, dialog } = useConfirmDelete();
  const targets = all.filter((c) => c.categoryId !== category.categoryId);
  const changed =
    draft.name !== category.name || draft.description !== category.description || draft.sort !== String(category.sort);

  const save = async () => {
    const body = {
      id: category.categoryId,
      name: draft.name,
      description: draft.description,
      sort: Number(draft.sort) || 0,
    };
    if (await adminCall('POST', adminApi.categories.update, body, t('admin.saved'))) await refresh('categories');
  };
  const remove = async () => {
    const needsMove = category.threadCount > 0;
    const message = needsMove
      ? t('admin.categories.confirmMove', { name: category.name, count: category.threadCount })
      : t('admin.categories.confirmDelete', { name: category.name });
    if (!(await confirmDelete(message))) return;
    const body = needsMove && moveTo ? { id: category.categoryId, moveThreadsTo: moveTo } : { id: category.categoryId };
    if (await adminCall('POST', adminApi.categories.delete, body, t('admin.deleted'))) await refresh('categories');
  };

  return (
    <tr data-testid="category-row" data-category-id={category.categoryId}>
      <td>
        <input
          type="text"
          aria-label={t('admin.categories.name')}
          value={draft.name}
          maxLength={CATEGORY_NAME_MAX}
          style={{ marginLeft: depth * 16 }}
          onChange={(e) => setDraft({ ...draft, name: e.target.value })}
        />
      </td>
      <td>
        <input
          type="text"
          aria-label={t('admin.categories.description')}
          value={draft.description}
          maxLength={CATEGORY_DESCRIPTION_MAX}
          onChange={(e) => setDraft({ ...draft, description: e.target.value })}
        />
      </td>
      <td>
        <input
          type="number"
          aria-label={t('admin.categories.sort')}
          value={draft.sort}
          onChange={(e) => setDraft({ ...draft, sort: e.target.value })}
        />
      </td>
      <td>{category.threadCount}</td>
      <td className="lt-table__end">
        <div className="lt-table__actions">
          <Button size="small" type="primary" disabled={!changed} onClick={() => void save()}>
            {t('admin.save')}
          </Button>
          {category.threadCount > 0 ? (
            <select
              className="lt-select lt-select--small"
              aria-label={t('admin.categories.moveTo')}
              value={moveTo}
              onChange={(e) => setMoveTo(Number(e.target.value))}
            >
              <option value={0}>{t('admin.categories.moveTo')}</option>
              {targets.map((c) => (
                <option key={c.categoryId} value={c.categoryId}>
                  {c.name}
                </option>
              ))}
            </select>
          ) : null}
          <Button
            size="small"
            type="danger"
            onClick={() => void remove()}
            disabled={category.threadCount > 0 && !moveTo}
          >
            {t('admin.delete')}
          </Button>
        </div>
        {dialog}
      </td>
    </tr>
  );
}

/** Categories: create (top level or under one), rename, describe, sort, and delete (empty, or moving its threads). */
export function Component() {
  const { t } = useTranslation();
  const refresh = useAdminRefresh();
  const list = useAdminQuery<CategoryItem[]>(['categories'], adminApi.categories.list);
  const [name, setName] = useState('');
  const [parentId, setParentId] = useState(0);

  if (list.error) return <p className="lt-card lt-empty">{list.error}</p>;
  if (!list.data) return <Spinner />;
  const all = list.data.flatMap((c) => [c, ...c.children]);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const body = { name, ...(parentId ? { parentId } : {}) };
    if (await adminCall('POST', adminApi.categories.create, body, t('admin.saved'))) {
      setName('');
      await refresh('categories');
    }
  };

  return (
    <AdminSection name="categories" title={t('admin.section.categories')}>
      <form className="lt-toolbar" onSubmit={(e) => void create(e)}>
        <TextInput
          name="name"
          label={t('admin.categories.newName')}
          value={name}
          onChange={setName}
          maxLength={CATEGORY_NAME_MAX}
        />
        <div className="lt-field">
          <label className="lt-field__label" htmlFor="category-parent">
            {t('admin.categories.parent')}
          </label>
          <select
            id="category-parent"
            className="lt-select"
            value={parentId}
            onChange={(e) => setParentId(Number(e.target.value))}
          >
            <option value={0}>{t('admin.categories.topLevel')}</option>
            {list.data.map((c) => (
              <option key={c.categoryId} value={c.categoryId}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <Button type="primary" htmlType="submit" data-testid="category-create">
          {t('admin.create')}
        </Button>
      </form>
      <AdminTable
        label={t('admin.section.categories')}
        columns={[
          { key: 'name', header: t('admin.categories.name') },
          { key: 'description', header: t('admin.categories.description') },
          { key: 'sort', header: t('admin.categories.sort') },
          { key: 'threads', header: t('admin.categories.threads') },
          { key: 'actions', header: t('admin.actions'), end: true },
        ]}
        rows={list.data.flatMap((c) => [
          { category: c, depth: 0 },
          ...c.children.map((child) => ({ category: child, depth: 1 })),
        ])}
        headWhenEmpty
        empty={false}
        row={({ category, depth }) => (
          <CategoryRow
            key={`${category.categoryId}:${category.name}:${category.sort}`}
            category={category}
            all={all}
            depth={depth}
          />
        )}
      />
    </AdminSection>
  );
}
