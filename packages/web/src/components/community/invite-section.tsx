import { GroupId, type GroupData, type InviteLink } from '@luntan/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { Link } from 'react-router';
import { invitedUsersQuery } from '../../api/community-queries';
import { isSuccess, request } from '../../api/dispatcher';
import { useAppContext } from '../../app-context';
import { usePending } from '../../hooks/use-pending';
import { TimeText } from '../forum/time-text';
import { Avatar, Button, toast } from '../ui';
import './community.css';
import { endpoints } from '../../api/endpoints';

/** The groups an administrator may invite into (all but administrators and guests); members: the default only. */
function useInvitableGroups(isAdmin: boolean) {
  const { api } = useAppContext();
  const result = useQuery({
    queryKey: ['admin', 'groups', 'invitable'],
    queryFn: () => api.get<GroupData[]>(endpoints.groups.list),
    enabled: isAdmin,
  }).data;
  if (!isAdmin || !result || !isSuccess(result)) return [];
  return result.Data.filter((g) => g.id !== GroupId.ADMINISTRATOR && g.id !== GroupId.GUEST);
}

/** /my: make an invitation link (into a group the viewer may grant), copy it, and see who joined through one. */
export function InviteSection({ userId, isAdmin }: { userId: number; isAdmin: boolean }) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const groups = useInvitableGroups(isAdmin);
  const [groupId, setGroupId] = useState<number | ''>('');
  const [link, setLink] = useState<InviteLink | null>(null);
  const { pending, run } = usePending();
  const [page, setPage] = useState(1);
  const invited = useQuery(invitedUsersQuery(api, userId, page)).data;
  const list = invited && isSuccess(invited) ? invited.Data : null;

  const create = () =>
    run(async () => {
      const result = await request<InviteLink>({
        url: endpoints.invites.createLink,
        params: groupId === '' ? {} : { groupId },
      });
      if (!isSuccess(result)) {
        toast.error(result.Message);
        return;
      }
      setLink(result.Data);
    });
  const fullLink = link ? `${typeof window === 'undefined' ? '' : window.location.origin}${link.link}` : '';
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(fullLink);
      toast.success(t('community.invite.copied'));
    } catch {
      toast.info(fullLink);
    }
  };

  return (
    <section className="lt-card lt-invite" aria-labelledby="invite-title" data-testid="invite-section">
      <h2 id="invite-title" className="lt-card__title">
        {t('community.invite.title')}
      </h2>
      <p className="lt-empty--small">{t('community.invite.intro')}</p>
      <div className="lt-invite__row">
        {groups.length > 0 ? (
          <div className="lt-field">
            <label className="lt-field__label" htmlFor="invite-group">
              {t('community.invite.group')}
            </label>
            <select
              id="invite-group"
              className="lt-select"
              value={groupId}
              onChange={(e) => setGroupId(e.target.value === '' ? '' : Number(e.target.value))}
            >
              <option value="">—</option>
              {groups.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <Button type="primary" loading={pending} onClick={() => void create()} data-testid="invite-create">
          {t('community.invite.create')}
        </Button>
      </div>
      {link ? (
        <div className="lt-invite__link">
          <div className="lt-field__box">
            <input
              className="lt-field__control"
              readOnly
              value={fullLink}
              aria-label={t('community.invite.title')}
              onFocus={(e) => e.target.select()}
              data-testid="invite-link"
            />
          </div>
          <Button onClick={() => void copy()}>{t('community.invite.copy')}</Button>
          <span className="lt-empty--small">
            {link.groupName} · {t('community.invite.expires', { time: new Date(link.expiresAt).toLocaleDateString() })}
          </span>
        </div>
      ) : null}
      <h3 className="lt-card__title">
        {t('community.invite.invited')}
        {list ? (
          <span className="lt-empty--small"> · {t('community.invite.invitedCount', { count: list.totalCount })}</span>
        ) : null}
      </h3>
      {list && list.pageData.length === 0 ? <p className="lt-empty--small">{t('community.invite.none')}</p> : null}
      {list && list.pageData.length > 0 ? (
        <ul className="lt-invite__list" data-testid="invited-users">
          {list.pageData.map((u) => (
            <li key={u.userId}>
              <Avatar image={u.avatar} text={u.nickname} size="small" circle />
              <Link to={`/user/${u.userId}`}>{u.nickname}</Link>
              <span className="lt-invite__meta">
                {u.groupName} · {t('community.invite.joined')} <TimeText iso={u.joinedAt} />
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {list && list.totalPage > 1 ? (
        <div className="lt-invite__row">
          <Button size="small" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            ‹
          </Button>
          <Button size="small" disabled={page >= list.totalPage} onClick={() => setPage((p) => p + 1)}>
            ›
          </Button>
        </div>
      ) : null}
    </section>
  );
}
