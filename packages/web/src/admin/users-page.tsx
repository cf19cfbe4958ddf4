import {
  GroupId,
  REASON_MAX,
  UserStatus,
  type AdminUserItem,
  type GroupData,
  type Page,
  type SigninAnswerItem,
} from '@luntan/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { useSearchParams } from 'react-router';
import { TimeText } from '../components/forum/time-text';
import { Button, PromptDialog, Spinner, TextInput } from '../components/ui';
import { positiveInt } from '../api/forum-queries';
import type { RouteHandle } from '../routing/handle';
import { adminCall, useAdminQuery, useAdminRefresh } from './admin-api';
import { AdminSection } from './admin-ui';
import { AdminTable } from './admin-table';
import { UserWallet } from './user-wallet';
import { adminApi } from '../api/admin-client';

export const handle: RouteHandle = { title: (t) => t('admin.section.users') };

/** The family's user statuses and their text keys. */
const STATUS_KEYS = { 0: 'normal', 1: 'banned', 2: 'review', 3: 'rejected', 4: 'ignored', 10: 'fields' } as const;
const STATUSES = [0, 1, 2, 3, 4, 10] as const;
const statusKey = (status: number) => STATUS_KEYS[status as keyof typeof STATUS_KEYS] ?? 'normal';

const ANSWER_STATUS = ['discarded', 'pending', 'rejected', 'approved'] as const;

/** A user's sign-in answers, to approve or reject (with a remark). */
function UserAnswers({ userId, colSpan }: { userId: number; colSpan: number }) {
  const { t } = useTranslation();
  const refresh = useAdminRefresh();
  const answers = useAdminQuery<SigninAnswerItem[]>(['answers', userId], adminApi.signinFields.ofUser, { userId });
  /** The answer being rejected: its reason is asked in a dialog. */
  const [rejecting, setRejecting] = useState<SigninAnswerItem | null>(null);
  const examine = async (answer: SigninAnswerItem, status: 2 | 3, remark = ''): Promise<boolean> => {
    const body = { data: [{ id: answer.id, status, ...(remark ? { remark } : {}) }] };
    if (!(await adminCall('POST', adminApi.signinFields.examine, body, t('admin.saved')))) return false;
    await refresh('answers');
    await refresh('users');
    return true;
  };
  return (
    <tr>
      <td colSpan={colSpan}>
        {answers.error ? <p className="lt-empty">{answers.error}</p> : null}
        {!answers.data ? <Spinner /> : null}
        {answers.data && answers.data.length === 0 ? (
          <p className="lt-empty--small">{t('admin.signinFields.noAnswers')}</p>
        ) : null}
        {answers.data?.map((answer) => (
          <div key={answer.id} className="lt-toolbar" data-testid="signin-answer">
            <span>
              <strong>{answer.name}</strong>：{Array.isArray(answer.value) ? answer.value.join('、') : answer.value}
              <span className="lt-empty--small">
                {' '}
                · {t(`admin.signinFields.status.${ANSWER_STATUS[answer.status] ?? 'pending'}`)}
              </span>
            </span>
            {answer.status === 1 ? (
              <span className="lt-table__actions">
                <Button size="small" type="primary" onClick={() => void examine(answer, 3)}>
                  {t('admin.signinFields.approve')}
                </Button>
                <Button size="small" type="danger" onClick={() => setRejecting(answer)}>
                  {t('admin.signinFields.reject')}
                </Button>
              </span>
            ) : null}
          </div>
        ))}
        <PromptDialog
          open={rejecting !== null}
          title={t('admin.signinFields.rejectReason', { name: rejecting?.name ?? '' })}
          label={t('admin.reason')}
          confirmText={t('admin.signinFields.reject')}
          cancelText={t('admin.cancel')}
          danger
          maxLength={REASON_MAX}
          onCancel={() => setRejecting(null)}
          onConfirm={async (remark) => {
            if (rejecting && (await examine(rejecting, 2, remark))) setRejecting(null);
          }}
        />
      </td>
    </tr>
  );
}

function UserRow({ user, groups }: { user: AdminUserItem; groups: GroupData[] }) {
  const { t } = useTranslation();
  const refresh = useAdminRefresh();
  const [showAnswers, setShowAnswers] = useState(false);
  const [showWallet, setShowWallet] = useState(false);
  /** Banning and rejecting ask for a reason (shown to the user) in a dialog. */
  const [asking, setAsking] = useState<'ban' | 'reject' | null>(null);
  // The server refuses to ban an administrator (the viewer's own row among them): no button that can only fail.
  const isAdministrator = user.groups.some((g) => g.id === GroupId.ADMINISTRATOR);
  const update = async (body: Record<string, unknown>, done: string): Promise<boolean> => {
    if (!(await adminCall('POST', adminApi.users.update, { id: user.userId, ...body }, done))) return false;
    await refresh('users');
    return true;
  };
  const examine = async (status: 0 | 3, rejectReason?: string): Promise<boolean> => {
    const body = { data: [{ id: user.userId, status, ...(rejectReason ? { rejectReason } : {}) }] };
    if (!(await adminCall('POST', adminApi.users.examine, body, t('admin.saved')))) return false;
    await refresh('users');
    return true;
  };
  const confirmReason = async (reason: string): Promise<void> => {
    const done =
      asking === 'ban' ? await update({ status: 1, reason }, t('admin.users.banned')) : await examine(3, reason);
    if (done) setAsking(null);
  };
  return (
    <>
      <tr data-testid="user-row" data-user-id={user.userId}>
        <td>{user.userId}</td>
        <td>
          <strong>{user.username}</strong>
          {user.nickname !== user.username ? <div className="lt-empty--small">{user.nickname}</div> : null}
        </td>
        <td>
          <select
            className="lt-select lt-select--small"
            aria-label={t('admin.users.group')}
            value={user.groups[0]?.id ?? 0}
            onChange={(e) => void update({ groupId: Number(e.target.value) }, t('admin.saved'))}
          >
            {groups.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
        </td>
        <td>
          {t(`admin.users.status.${statusKey(user.status)}`)}
          {user.rejectReason ? <div className="lt-empty--small">{user.rejectReason}</div> : null}
        </td>
        <td>{user.threadCount}</td>
        <td>
          <TimeText iso={user.createdAt} />
        </td>
        <td className="lt-table__end">
          <div className="lt-table__actions">
            {user.status === UserStatus.UNDER_REVIEW ? (
              <>
                <Button size="small" type="primary" onClick={() => void examine(0)}>
                  {t('admin.users.approve')}
                </Button>
                <Button size="small" type="danger" onClick={() => setAsking('reject')}>
                  {t('admin.users.reject')}
                </Button>
              </>
            ) : null}
            {user.status === UserStatus.BANNED ? (
              <Button size="small" onClick={() => void update({ status: 0 }, t('admin.users.unbanned'))}>
                {t('admin.users.unban')}
              </Button>
            ) : user.status === UserStatus.NORMAL && !isAdministrator ? (
              <Button size="small" type="danger" onClick={() => setAsking('ban')} data-testid="user-ban">
                {t('admin.users.ban')}
              </Button>
            ) : null}
            <Button size="small" type="text" aria-expanded={showAnswers} onClick={() => setShowAnswers(!showAnswers)}>
              {t('admin.signinFields.answers')}
            </Button>
            <Button
              size="small"
              type="text"
              aria-expanded={showWallet}
              onClick={() => setShowWallet(!showWallet)}
              data-testid="user-wallet-toggle"
            >
              {t('admin.wallet.button')}
            </Button>
          </div>
          <PromptDialog
            open={asking !== null}
            title={t(asking === 'reject' ? 'admin.users.rejectReason' : 'admin.users.banReason', {
              name: user.username,
            })}
            label={t('admin.reason')}
            placeholder={t('admin.users.reasonPlaceholder')}
            confirmText={asking === 'reject' ? t('admin.users.reject') : t('admin.users.ban')}
            cancelText={t('admin.cancel')}
            danger
            maxLength={REASON_MAX}
            onCancel={() => setAsking(null)}
            onConfirm={confirmReason}
          />
        </td>
      </tr>
      {showAnswers ? <UserAnswers userId={user.userId} colSpan={7} /> : null}
      {showWallet ? <UserWallet userId={user.userId} username={user.username} colSpan={7} /> : null}
    </>
  );
}

/** Users: search by name, filter by status, change the group, ban and unban, review registrations. */
export function Component() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const page = positiveInt(search.get('page'), 1);
  const keyword = search.get('keyword') ?? '';
  const status = search.get('status') ?? '';
  const [draft, setDraft] = useState(keyword);
  const filter: Record<string, unknown> = {};
  if (keyword) filter.username = keyword;
  if (status !== '') filter.status = Number(status);
  const list = useAdminQuery<Page<AdminUserItem>>(['users', page, keyword, status], adminApi.users.list, {
    page,
    perPage: 20,
    filter,
  });
  const groups = useAdminQuery<GroupData[]>(['groups'], adminApi.groups.list);

  const apply = (values: { keyword?: string; status?: string }) => {
    const next = new URLSearchParams();
    const k = values.keyword ?? keyword;
    const s = values.status ?? status;
    if (k) next.set('keyword', k);
    if (s !== '') next.set('status', s);
    setSearch(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply({ keyword: draft.trim() });
  };

  return (
    <AdminSection name="users" title={t('admin.section.users')}>
      <form className="lt-toolbar" onSubmit={submit} role="search">
        <TextInput name="keyword" label={t('admin.users.search')} value={draft} onChange={setDraft} maxLength={64} />
        <div className="lt-field">
          <label className="lt-field__label" htmlFor="users-status">
            {t('admin.users.statusLabel')}
          </label>
          <select
            id="users-status"
            className="lt-select"
            value={status}
            onChange={(e) => apply({ status: e.target.value })}
          >
            <option value="">{t('admin.users.allStatuses')}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`admin.users.status.${statusKey(s)}`)}
              </option>
            ))}
          </select>
        </div>
        <Button type="primary" htmlType="submit">
          {t('admin.users.searchButton')}
        </Button>
      </form>
      <AdminTable
        label={t('admin.section.users')}
        columns={[
          { key: 'id', header: 'ID' },
          { key: 'name', header: t('admin.users.name') },
          { key: 'group', header: t('admin.users.group') },
          { key: 'status', header: t('admin.users.statusLabel') },
          { key: 'threads', header: t('admin.users.threads') },
          { key: 'registered', header: t('admin.users.registered') },
          { key: 'actions', header: t('admin.actions'), end: true },
        ]}
        rows={groups.data ? list.data : null}
        error={list.error}
        headWhenEmpty
        row={(user) => (
          <UserRow key={`${user.userId}:${user.status}:${user.groups[0]?.id ?? 0}`} user={user} groups={groups.data!} />
        )}
      />
    </AdminSection>
  );
}
