import { Code } from '@luntan/shared';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { Link } from 'react-router';
import { isSuccess } from '../../api/dispatcher';
import { chronological, dialogMessagesQuery, dialogRecordQuery } from '../../api/message-queries';
import { quietUserProfileQuery } from '../../api/people-queries';
import { useAppContext } from '../../app-context';
import { useMarkRead, useSendMessage } from '../../hooks/use-chat-actions';
import { useForum } from '../../hooks/use-forum';
import { userHref } from '../people/user-hover-card';
import { Avatar, Icon, Spinner } from '../ui';
import { ChatComposer } from './chat-composer';
import { ChatHistory } from './chat-history';

export interface ChatProps {
  /** The other member. */
  userId: number;
  /** Their nickname from the address, until their profile arrives. */
  nickname: string;
  /** The phone's layout: the chat fills the page and offers the way back to the list. */
  backTo?: string;
}

/** The private chat with one member: who, the conversation, the box to write in. */
export function Chat({ userId, nickname, backTo }: ChatProps) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const { forum } = useForum();
  const viewer = forum?.user ?? null;
  const viewerId = viewer?.userId ?? 0;
  const profileResult = useQuery(quietUserProfileQuery(api, userId, viewerId)).data;
  const profile = profileResult && isSuccess(profileResult) ? profileResult.Data : null;
  const missing = profileResult?.Code === Code.RESOURCE_NOT_FOUND;
  const record = useQuery(dialogRecordQuery(api, userId, viewerId)).data;
  const dialogId = record && isSuccess(record) ? record.Data.dialogId : null;
  const history = useInfiniteQuery({
    ...dialogMessagesQuery(api, dialogId ?? 0, viewerId),
    enabled: dialogId !== null,
  });
  const messages = useMemo(() => chronological(history.data?.pages), [history.data]);
  const failed = history.data?.pages.find((page) => !isSuccess(page));
  const newestFromOther = messages.findLast((m) => !m.isMine)?.id;
  useMarkRead(dialogId, newestFromOther, viewerId);
  const actions = useSendMessage({ userId, dialogId, viewerId });

  const name = profile?.nickname || nickname || `#${userId}`;
  const avatar = profile?.avatarUrl ?? '';
  const self = userId === viewerId;
  // Without dialog.create the history can still be read (and answered by nobody): say so instead of a box that
  // could only be refused.
  const mayWrite = forum?.other.canCreateDialog ?? false;
  const canWrite = mayWrite && !missing && !self && record !== undefined;

  return (
    <section
      className={`lt-card lt-chat${backTo ? ' lt-chat--full' : ''}`}
      aria-label={t('message.chat.heading', { name })}
      data-testid="chat"
      data-user-id={userId}
    >
      <header className="lt-chat__head">
        {backTo ? (
          <Link to={backTo} className="lt-chat__back" aria-label={t('message.chat.back')} data-testid="chat-back">
            <Icon name="back" size={20} />
          </Link>
        ) : null}
        <Link to={userHref(userId)} className="lt-chat__who">
          <Avatar image={avatar} text={name} size="small" circle alt="" />
          <h2 className="lt-chat__name" data-testid="chat-name">
            {name}
          </h2>
        </Link>
      </header>
      {missing ? (
        <p className="lt-empty lt-chat__notice" role="alert">
          {t('message.chat.userMissing')}
        </p>
      ) : self ? (
        <p className="lt-empty lt-chat__notice">{t('message.chat.self')}</p>
      ) : record === undefined ? (
        <Spinner />
      ) : failed ? (
        <p className="lt-empty lt-chat__notice" role="alert">
          {failed.Message}
        </p>
      ) : (
        <ChatHistory
          messages={messages}
          partner={{ id: userId, nickname: name, avatar }}
          me={{ nickname: viewer?.nickname || viewer?.username || '', avatar: viewer?.avatarUrl ?? '' }}
          loading={dialogId !== null && history.isPending}
          hasOlder={history.hasNextPage}
          loadingOlder={history.isFetchingNextPage}
          loadOlder={() => history.fetchNextPage()}
        />
      )}
      {canWrite ? <ChatComposer {...actions} /> : null}
      {!mayWrite && !missing && !self ? (
        <p className="lt-chat__no-write" data-testid="chat-no-permission">
          {t('message.chat.noPermission')}
        </p>
      ) : null}
    </section>
  );
}
