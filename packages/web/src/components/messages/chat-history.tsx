import type { DialogMessageItem } from '@luntan/shared';
import { useLayoutEffect, useRef } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { TimeText } from '../forum/time-text';
import { UserAvatar, type AvatarUser } from '../people/user-hover-card';
import { Avatar, Spinner } from '../ui';
import { EmojiText } from '../emoji/emoji-text';

/** Within this distance of the bottom the history follows new messages; this near the top it loads older ones. */
const STICK_PX = 80;
const LOAD_OLDER_PX = 48;

/** The thumbnail (500x500 at most) in the bubble; a click opens the image itself. */
export function chatThumbnail(url: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}level=100`;
}

function ReadMark({ message }: { message: DialogMessageItem }) {
  const { t } = useTranslation();
  if (!message.isApproved) {
    return (
      <span className="lt-chat-msg__mark lt-chat-msg__mark--pending" title={t('message.chat.pendingHint')}>
        {t('message.chat.pending')}
      </span>
    );
  }
  return (
    <span className={`lt-chat-msg__mark${message.isRead ? '' : ' lt-chat-msg__mark--unread'}`} data-testid="read-mark">
      {message.isRead ? t('message.chat.read') : t('message.chat.unread')}
    </span>
  );
}

function ChatMessage({
  message,
  partner,
  me,
  onImageLoad,
}: {
  message: DialogMessageItem;
  partner: AvatarUser;
  me: { nickname: string; avatar: string };
  onImageLoad: () => void;
}) {
  const { t } = useTranslation();
  const mine = message.isMine;
  return (
    <div
      className={`lt-chat-msg${mine ? ' lt-chat-msg--mine' : ''}${message.isApproved ? '' : ' lt-chat-msg--pending'}`}
      data-testid="chat-message"
      data-message-id={message.id}
      data-mine={mine}
    >
      {mine ? (
        <Avatar image={me.avatar} text={me.nickname} size="primary" circle alt={me.nickname} />
      ) : (
        <UserAvatar user={partner} />
      )}
      <div className="lt-chat-msg__body">
        {message.messageText ? (
          <p className="lt-chat-msg__bubble" data-testid="chat-text">
            <EmojiText text={message.messageText} />
          </p>
        ) : null}
        {message.imageUrl ? (
          <a className="lt-chat-msg__image" href={message.imageUrl} target="_blank" rel="noopener noreferrer">
            <img
              src={chatThumbnail(message.imageUrl)}
              alt={t('message.chat.image')}
              onLoad={onImageLoad}
              data-testid="chat-image"
            />
          </a>
        ) : null}
        <p className="lt-chat-msg__meta">
          <TimeText iso={message.createdAt} />
          {mine ? <ReadMark message={message} /> : null}
        </p>
      </div>
    </div>
  );
}

export interface ChatHistoryProps {
  messages: DialogMessageItem[];
  partner: AvatarUser;
  me: { nickname: string; avatar: string };
  loading: boolean;
  hasOlder: boolean;
  loadingOlder: boolean;
  loadOlder: () => Promise<unknown>;
}

/**
 * The conversation, oldest at the top and newest at the bottom. It opens at the bottom and follows new messages while
 * the reader is there (always after their own); scrolling to the top (or the button there) loads the page before,
 * keeping the reader's place.
 */
export function ChatHistory({ messages, partner, me, loading, hasOlder, loadingOlder, loadOlder }: ChatHistoryProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const keepPlace = useRef<{ height: number; top: number } | null>(null);
  const edges = useRef<{ first?: number; last?: number }>({});

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const first = messages[0]?.id;
    const newest = messages[messages.length - 1];
    const before = edges.current;
    if (keepPlace.current && first !== before.first) {
      // Older messages went in on top: stay on the message that was in view.
      el.scrollTop = el.scrollHeight - keepPlace.current.height + keepPlace.current.top;
      keepPlace.current = null;
    }
    if (newest?.id !== before.last && (before.last === undefined || atBottom.current || newest?.isMine)) {
      el.scrollTop = el.scrollHeight;
      atBottom.current = true;
    }
    edges.current = { first, last: newest?.id };
  }, [messages]);

  // The fetch answers before React shows its page: the place is given up only once the list has settled.
  useLayoutEffect(() => {
    if (!loadingOlder) keepPlace.current = null;
  }, [loadingOlder, messages]);

  const older = (): void => {
    const el = ref.current;
    if (!el || !hasOlder || loadingOlder || keepPlace.current) return;
    keepPlace.current = { height: el.scrollHeight, top: el.scrollTop };
    void loadOlder();
  };

  const onScroll = (): void => {
    const el = ref.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
    if (el.scrollTop < LOAD_OLDER_PX) older();
  };

  // An image that finished loading grows its message: keep the newest in view if the reader was there.
  const onImageLoad = (): void => {
    const el = ref.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  };

  return (
    <div
      ref={ref}
      className="lt-chat__history"
      role="log"
      aria-label={t('message.chat.history')}
      onScroll={onScroll}
      data-testid="chat-history"
    >
      {hasOlder ? (
        <button type="button" className="lt-chat__older" onClick={older} data-testid="chat-older">
          {loadingOlder ? <Spinner size={14} /> : null}
          {t('message.chat.older')}
        </button>
      ) : messages.length > 0 ? (
        <p className="lt-chat__start">{t('message.chat.start')}</p>
      ) : null}
      {loading ? <Spinner /> : null}
      {!loading && messages.length === 0 ? <p className="lt-empty">{t('message.chat.empty')}</p> : null}
      {messages.map((message) => (
        <ChatMessage key={message.id} message={message} partner={partner} me={me} onImageLoad={onImageLoad} />
      ))}
    </div>
  );
}
