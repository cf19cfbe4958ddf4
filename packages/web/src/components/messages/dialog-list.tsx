import type { DialogItem } from '@luntan/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/use-translation';
import { Link } from 'react-router';
import { isSuccess } from '../../api/dispatcher';
import { dialogListQuery, dialogsKey } from '../../api/message-queries';
import { post } from '../../api/mutate';
import { useAppContext } from '../../app-context';
import { refreshUnread } from '../../hooks/use-unread';
import { Pager } from '../forum/pager';
import { TimeText } from '../forum/time-text';
import { chatHref } from '../people/user-actions';
import { UserAvatar } from '../people/user-hover-card';
import { Badge, Icon, Spinner, toast } from '../ui';
import { endpoints } from '../../api/endpoints';

/** The list's line for the last message: its text, or a word for an image. */
function preview(item: DialogItem, t: (key: 'message.dialogs.imageMessage') => string): string {
  const last = item.lastMessage;
  if (!last) return '';
  return last.messageText || (last.imageUrl ? t('message.dialogs.imageMessage') : '');
}

function DialogRow({ item, active, viewerId }: { item: DialogItem; active: boolean; viewerId: number }) {
  const { t } = useTranslation();
  const ctx = useAppContext();
  const queryClient = useQueryClient();
  const name = item.user.nickname || item.user.username;

  const remove = async (): Promise<void> => {
    if (!window.confirm(t('message.dialogs.confirmDelete', { name }))) return;
    if ((await post(endpoints.dialogs.delete, { dialogId: item.dialogId })) === null) return;
    toast.success(t('message.dialogs.deleted'));
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: [...dialogsKey, viewerId] }),
      refreshUnread(ctx, viewerId),
    ]);
  };

  return (
    <li
      className={`lt-conversation${active ? ' lt-conversation--active' : ''}${item.unreadCount > 0 ? ' lt-conversation--unread' : ''}`}
      data-testid="dialog-item"
      data-dialog-id={item.dialogId}
      data-user-id={item.user.id}
    >
      <UserAvatar user={{ id: item.user.id, nickname: name, avatar: item.user.avatarUrl }} />
      <Link
        className="lt-conversation__main"
        to={chatHref(item.user.id, name)}
        aria-current={active ? 'page' : undefined}
        data-testid="dialog-open"
      >
        <span className="lt-conversation__top">
          <span className="lt-conversation__name">{name}</span>
          {item.lastMessage ? <TimeText iso={item.updatedAt} className="lt-conversation__time" /> : null}
        </span>
        <span className="lt-conversation__bottom">
          <span className="lt-conversation__last" data-testid="dialog-last">
            {preview(item, t)}
          </span>
          <Badge
            count={item.unreadCount}
            label={t('nav.unread', { count: item.unreadCount })}
            className="lt-conversation__badge"
          />
        </span>
      </Link>
      <button
        type="button"
        className="lt-conversation__delete"
        onClick={() => void remove()}
        aria-label={t('message.dialogs.delete', { name })}
        title={t('message.dialogs.delete', { name })}
        data-testid="dialog-delete"
      >
        <Icon name="trash" size={16} />
      </button>
    </li>
  );
}

/** My dialogs, newest activity first: who, the last message, when, how many unread. */
export function DialogList({
  page,
  activeUserId,
  viewerId,
}: {
  page: number;
  activeUserId: number | null;
  viewerId: number;
}) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const result = useQuery(dialogListQuery(api, page, viewerId)).data;
  const list = result && isSuccess(result) ? result.Data : null;
  return (
    <section className="lt-card lt-dialogs" aria-label={t('message.index')} data-testid="dialog-list">
      {!result ? <Spinner /> : null}
      {result && !list ? <p className="lt-empty">{result.Message}</p> : null}
      {list && list.pageData.length === 0 ? <p className="lt-empty">{t('message.dialogs.empty')}</p> : null}
      {list && list.pageData.length > 0 ? (
        <ul className="lt-dialogs__list">
          {list.pageData.map((item) => (
            <DialogRow key={item.dialogId} item={item} active={item.user.id === activeUserId} viewerId={viewerId} />
          ))}
        </ul>
      ) : null}
      {list ? <Pager current={list.currentPage} total={list.totalPage} param="p" /> : null}
    </section>
  );
}
