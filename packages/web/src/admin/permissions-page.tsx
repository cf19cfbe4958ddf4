import { PERMISSIONS, type CategoryItem, type GroupData, type PermissionDefinition } from '@luntan/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Link, useParams } from 'react-router';
import { Button, Spinner } from '../components/ui';
import type { RouteHandle } from '../routing/handle';
import { adminCall, useAdminQuery, useAdminRefresh } from './admin-api';
import { TableScroll } from './admin-ui';
import { usePending } from '../hooks/use-pending';
import { adminApi } from '../api/admin-client';

export const handle: RouteHandle = { title: (t) => t('admin.groups.permissions') };

const GROUP_ORDER: PermissionDefinition['group'][] = ['thread', 'content', 'user', 'finance', 'other'];

/** The key a cell of the matrix stands for: global, or `category<ID>.<key>`. */
export function cellKey(key: string, categoryId: number | null): string {
  return categoryId === null ? key : `category${categoryId}.${key}`;
}

/**
 * A group's permission matrix: every key of the spec, grouped and labelled, globally (first column) and per
 * category. Saving replaces the group's whole list (permission.v2), effective from the next request.
 */
export function Component() {
  const { t, i18n } = useTranslation();
  const groupId = Number(useParams().groupId);
  const refresh = useAdminRefresh();
  const group = useAdminQuery<GroupData>(['group', groupId], adminApi.permissions.resource, {
    id: groupId,
    include: 'permission',
  });
  const categories = useAdminQuery<CategoryItem[]>(['categories'], adminApi.categories.list);
  const [held, setHeld] = useState<Set<string> | null>(null);
  const { pending, run } = usePending();

  useEffect(() => {
    if (group.data) setHeld(new Set(group.data.permissions ?? []));
  }, [group.data]);

  if (group.error) return <p className="lt-card lt-empty">{group.error}</p>;
  if (!group.data || !held || !categories.data) return <Spinner />;
  const columns = categories.data.flatMap((c) => [c, ...c.children]);
  const label = (p: PermissionDefinition) => (i18n.language.startsWith('en') ? p.label.en : p.label.zh);

  const toggle = (key: string, on: boolean) => {
    const next = new Set(held);
    if (on) next.add(key);
    else next.delete(key);
    setHeld(next);
  };
  const save = async () => {
    await run(async () => {
      const body = { groupId, permissions: [...held].sort() };
      if (await adminCall('POST', adminApi.permissions.save, body, t('admin.saved'))) await refresh('group');
    });
  };

  return (
    <section className="lt-card lt-admin-form" aria-labelledby="permissions-title">
      <div className="lt-toolbar">
        <h1 id="permissions-title" className="lt-page__title">
          {t('admin.groups.permissionsOf', { name: group.data.name })}
        </h1>
        <Link to="/admin/groups">{t('admin.groups.back')}</Link>
      </div>
      <TableScroll label={t('admin.groups.permissionsOf', { name: group.data.name })}>
        <table className="lt-table lt-matrix">
          <thead>
            <tr>
              <th>{t('admin.groups.permission')}</th>
              <th>{t('admin.groups.global')}</th>
              {columns.map((c) => (
                <th key={c.categoryId}>{c.name}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {GROUP_ORDER.flatMap((section) => {
              const defs = PERMISSIONS.filter((p) => p.group === section);
              if (defs.length === 0) return [];
              return [
                <tr key={section}>
                  <th className="lt-matrix__group" colSpan={2 + columns.length}>
                    {t(`admin.groups.section.${section}`)}
                  </th>
                </tr>,
                ...defs.map((p) => (
                  <tr key={p.key}>
                    <td title={p.key}>{label(p)}</td>
                    {[null, ...columns.map((c) => c.categoryId)].map((categoryId) => {
                      const key = cellKey(p.key, categoryId);
                      if (categoryId !== null && !p.categoryScoped) return <td key={key} />;
                      const where =
                        categoryId === null
                          ? t('admin.groups.global')
                          : columns.find((c) => c.categoryId === categoryId)?.name;
                      return (
                        <td key={key}>
                          <input
                            type="checkbox"
                            data-permission={key}
                            aria-label={`${label(p)} · ${where ?? ''}`}
                            checked={held.has(key)}
                            onChange={(e) => toggle(key, e.target.checked)}
                          />
                        </td>
                      );
                    })}
                  </tr>
                )),
              ];
            })}
          </tbody>
        </table>
      </TableScroll>
      <div className="lt-admin-form__actions">
        <Button type="primary" onClick={() => void save()} loading={pending} data-testid="permissions-save">
          {t('admin.save')}
        </Button>
      </div>
    </section>
  );
}
