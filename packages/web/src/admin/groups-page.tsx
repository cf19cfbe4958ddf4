import { GroupId, type GroupData } from '@luntan/shared';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Link } from 'react-router';
import { Button, Spinner, TextInput } from '../components/ui';
import type { RouteHandle } from '../routing/handle';
import { adminCall, useAdminQuery, useAdminRefresh } from './admin-api';
import { AdminSection, RowCheckbox, useConfirmDelete, useSelection } from './admin-ui';
import { AdminTable } from './admin-table';
import { adminApi } from '../api/admin-client';

export const handle: RouteHandle = { title: (t) => t('admin.section.groups') };

/** Groups that cannot be deleted: the administrators, the guests and the default group. */
export function isProtectedGroup(group: GroupData): boolean {
  return group.id === GroupId.ADMINISTRATOR || group.id === GroupId.GUEST || group.default;
}

type Row = Pick<GroupData, 'id' | 'name' | 'type' | 'scale' | 'isSubordinate' | 'isCommission'>;

/**
 * What a group is, said in words: the forum's rules go by the group's id (and the default flag), not by its stored
 * type (a key of the family's: admin, guest, ...), which the seeded groups keep as seeded and the page never edits.
 */
type GroupKind = 'administrator' | 'guest' | 'unpaid' | 'trial' | 'member' | 'custom';
const KIND_OF_ID: Record<number, GroupKind> = {
  [GroupId.ADMINISTRATOR]: 'administrator',
  [GroupId.GUEST]: 'guest',
  [GroupId.UNPAID]: 'unpaid',
  [GroupId.FREE_TRIAL]: 'trial',
  [GroupId.MEMBER]: 'member',
};

function GroupKindCell({ group }: { group: GroupData }) {
  const { t } = useTranslation();
  const kind = KIND_OF_ID[group.id] ?? 'custom';
  return (
    <td className="lt-table__wrap lt-group-kind-cell" data-testid="group-kind">
      <span className="lt-group-kind">{t(`admin.groups.kind.${kind}`)}</span>
      <span className="lt-hint">
        {t(`admin.groups.kindHint.${kind}`)}
        {group.default ? t('admin.groups.defaultHint') : null}
      </span>
    </td>
  );
}

/** User groups: create, edit several at once (one save), delete several at once, and open a group's permissions. */
export function Component() {
  const { t } = useTranslation();
  const refresh = useAdminRefresh();
  const list = useAdminQuery<GroupData[]>(['groups'], adminApi.groups.list);
  const [rows, setRows] = useState<Row[]>([]);
  const { selected, toggle, clear: clearSelection } = useSelection();
  const { confirmDelete, dialog } = useConfirmDelete();
  const [name, setName] = useState('');

  useEffect(() => {
    if (list.data)
      setRows(
        list.data.map(({ id, name, type, scale, isSubordinate, isCommission }) => ({
          id,
          name,
          type,
          scale,
          isSubordinate,
          isCommission,
        })),
      );
  }, [list.data]);

  if (list.error) return <p className="lt-card lt-empty">{list.error}</p>;
  if (!list.data) return <Spinner />;
  const groups = list.data;

  const change = (id: number, patch: Partial<Row>) =>
    setRows((all) => all.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (await adminCall('POST', adminApi.groups.create, { name }, t('admin.saved'))) {
      setName('');
      await refresh('groups');
    }
  };
  const saveAll = async () => {
    if (await adminCall('POST', adminApi.groups.update, { data: rows }, t('admin.saved'))) await refresh('groups');
  };
  const removeSelected = async () => {
    const names = groups.filter((g) => selected.has(g.id)).map((g) => g.name);
    if (!(await confirmDelete(t('admin.groups.confirmDelete', { names: names.join(t('admin.listSeparator')) }))))
      return;
    const answer = await adminCall(
      'POST',
      adminApi.groups.delete,
      { ids: [...selected].join(',') },
      t('admin.deleted'),
    );
    if (answer) {
      clearSelection();
      await refresh('groups');
    }
  };

  return (
    <AdminSection name="groups" title={t('admin.section.groups')}>
      <form className="lt-toolbar" onSubmit={(e) => void create(e)}>
        <TextInput name="groupName" label={t('admin.groups.newName')} value={name} onChange={setName} maxLength={30} />
        <Button type="primary" htmlType="submit" data-testid="group-create">
          {t('admin.create')}
        </Button>
      </form>
      <AdminTable
        label={t('admin.section.groups')}
        className="lt-groups"
        columns={[
          { key: 'select', header: <span className="lt-visually-hidden">{t('admin.select')}</span> },
          { key: 'id', header: 'ID' },
          { key: 'name', header: t('admin.groups.name') },
          { key: 'type', header: t('admin.groups.type') },
          { key: 'scale', header: t('admin.groups.scale') },
          { key: 'subordinate', header: t('admin.groups.isSubordinate') },
          { key: 'commission', header: t('admin.groups.isCommission') },
          { key: 'actions', header: t('admin.actions'), end: true },
        ]}
        rows={rows}
        headWhenEmpty
        empty={false}
        row={(row) => {
          const group = groups.find((g) => g.id === row.id);
          const locked = !group || isProtectedGroup(group);
          return (
            <tr key={row.id} data-testid="group-row" data-group-id={row.id}>
              <td>
                <RowCheckbox
                  label={t('admin.selectOne', { name: row.name })}
                  disabled={locked}
                  checked={selected.has(row.id)}
                  onChange={(on) => toggle(row.id, on)}
                />
              </td>
              <td>{row.id}</td>
              <td>
                <input
                  type="text"
                  aria-label={t('admin.groups.name')}
                  value={row.name}
                  maxLength={30}
                  onChange={(e) => change(row.id, { name: e.target.value })}
                />
              </td>
              {group ? <GroupKindCell group={group} /> : <td />}
              <td>
                <input
                  type="number"
                  aria-label={t('admin.groups.scale')}
                  min={0}
                  max={10}
                  value={row.scale}
                  onChange={(e) =>
                    change(row.id, { scale: Math.max(0, Math.min(10, Math.round(Number(e.target.value) || 0))) })
                  }
                />
              </td>
              <td>
                <input
                  type="checkbox"
                  aria-label={t('admin.groups.isSubordinate')}
                  checked={row.isSubordinate}
                  onChange={(e) => change(row.id, { isSubordinate: e.target.checked })}
                />
              </td>
              <td>
                <input
                  type="checkbox"
                  aria-label={t('admin.groups.isCommission')}
                  checked={row.isCommission}
                  onChange={(e) => change(row.id, { isCommission: e.target.checked })}
                />
              </td>
              <td className="lt-table__end">
                {row.id === GroupId.ADMINISTRATOR ? (
                  <span className="lt-empty--small">{t('admin.groups.allPermissions')}</span>
                ) : (
                  <Link to={`/admin/groups/${row.id}/permissions`}>{t('admin.groups.permissions')}</Link>
                )}
              </td>
            </tr>
          );
        }}
      />
      <div className="lt-admin-form__actions">
        <Button
          type="danger"
          disabled={selected.size === 0}
          onClick={() => void removeSelected()}
          data-testid="groups-delete"
        >
          {t('admin.deleteSelected', { count: selected.size })}
        </Button>
        <Button type="primary" onClick={() => void saveAll()} data-testid="groups-save">
          {t('admin.saveAll')}
        </Button>
      </div>
      {dialog}
    </AdminSection>
  );
}
