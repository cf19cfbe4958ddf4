import type { PersonItem, ThreadItem, UserThreadStick } from '@luntan/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { Link } from 'react-router';
import { isSuccess } from '../../api/dispatcher';
import { endpoints } from '../../api/endpoints';
import { post } from '../../api/mutate';
import {
  deniedPeopleQuery,
  peopleQuery,
  profileThreadsQuery,
  type PeopleKind,
  type ProfileThreadList,
} from '../../api/people-queries';
import { useAppContext } from '../../app-context';
import { useViewer } from '../../hooks/use-forum';
import { usePeopleActions } from '../../hooks/use-people-actions';
import { Pager } from '../forum/pager';
import { ThreadCard } from '../forum/thread-card';
import { Button, Spinner } from '../ui';
import { FollowButton } from './user-actions';
import { UserAvatar, userHref } from './user-hover-card';
import '../forum/forum.css';
import './people.css';

/** A member's threads or likes, or the viewer's own drafts, likes or favourites. */
export function ProfileThreads({ list, userId, page }: { list: ProfileThreadList; userId: number; page: number }) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const viewerId = useViewer()?.userId ?? 0;
  const result = useQuery(profileThreadsQuery(api, list, userId, page, viewerId)).data;
  if (!result) return <Spinner />;
  if (!isSuccess(result)) return <p className="lt-empty">{result.Message}</p>;
  const { pageData, currentPage, totalPage } = result.Data;
  if (pageData.length === 0) return <p className="lt-empty">{t(`people.empty.${list}`)}</p>;
  return (
    <>
      <div className="lt-thread-list" data-testid={`list-${list}`}>
        {pageData.map((thread) =>
          list === 'drafts' ? (
            <article key={thread.threadId} className="lt-thread-card" data-testid="thread-card">
              <h3 className="lt-thread-card__title">
                <span className="lt-tag lt-tag--review">{t('forum.draft')}</span>
                <Link to={`/thread/post?threadId=${thread.threadId}`}>{thread.title || t('editor.draftUntitled')}</Link>
              </h3>
              {thread.summary ? <p className="lt-thread-card__summary">{thread.summary}</p> : null}
            </article>
          ) : list === 'threads' ? (
            <ThreadCard
              key={thread.threadId}
              thread={thread}
              profilePin={{ action: userId === viewerId ? <PinButton thread={thread} /> : undefined }}
            />
          ) : (
            <ThreadCard key={thread.threadId} thread={thread} />
          ),
        )}
      </div>
      <Pager current={currentPage} total={totalPage} />
    </>
  );
}

/** The owner's button on their profile: pin the thread to the top of it (replacing the pin), or take it off. */
function PinButton({ thread }: { thread: ThreadItem }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const pinned = thread.userStickStatus;
  const toggle = (): void => {
    setBusy(true);
    post<UserThreadStick>(endpoints.threads.userStick, { threadId: thread.threadId, status: pinned ? 0 : 1 })
      .then((done) => (done ? queryClient.invalidateQueries({ queryKey: ['threads', 'profile'] }) : undefined))
      .catch((error: unknown) => console.error(error))
      .finally(() => setBusy(false));
  };
  return (
    <Button size="small" loading={busy} onClick={toggle} aria-pressed={pinned} data-testid="profile-pin-button">
      {pinned ? t('people.pin.unpin') : t('people.pin.pin')}
    </Button>
  );
}

function PersonRow({ person, action }: { person: PersonItem; action: ReactNode }) {
  const { t } = useTranslation();
  return (
    <li className="lt-person" data-testid="person" data-user-id={person.id}>
      <UserAvatar user={{ id: person.id, nickname: person.nickname, avatar: person.avatarUrl }} />
      <div className="lt-person__who">
        <Link className="lt-person__name" to={userHref(person.id)}>
          {person.nickname}
        </Link>
        <p className="lt-person__meta">
          {t('people.stats', { threads: person.threadCount, fans: person.fansCount })}
          {person.signature ? <span className="lt-person__signature"> · {person.signature}</span> : null}
        </p>
      </div>
      <div className="lt-person__action">{action}</div>
    </li>
  );
}

/** Whom a member follows, or their fans; each with the viewer's own follow button (none on the viewer's row). */
export function PeopleList({ kind, userId, page }: { kind: PeopleKind; userId: number; page: number }) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const viewer = useViewer();
  const viewerId = viewer?.userId ?? 0;
  const result = useQuery(peopleQuery(api, kind, userId, page, viewerId)).data;
  if (!result) return <Spinner />;
  if (!isSuccess(result)) return <p className="lt-empty">{result.Message}</p>;
  const { pageData, currentPage, totalPage } = result.Data;
  if (pageData.length === 0) return <p className="lt-empty">{t(`people.empty.${kind}`)}</p>;
  return (
    <>
      <ul className="lt-people" data-testid={`list-${kind}`}>
        {pageData.map((person) => (
          <PersonRow
            key={person.id}
            person={person}
            action={person.id === viewerId ? null : <FollowButton userId={person.id} follow={person.follow} />}
          />
        ))}
      </ul>
      <Pager current={currentPage} total={totalPage} />
    </>
  );
}

/** One blocked user: unblocking keeps the row (with a button to block again) until the list is next opened. */
function DeniedRow({ person }: { person: PersonItem }) {
  const { t } = useTranslation();
  const actions = usePeopleActions();
  const [denied, setDenied] = useState(true);
  const [busy, setBusy] = useState(false);
  const toggle = (): void => {
    setBusy(true);
    (denied ? actions.unblock(person.id) : actions.block(person.id))
      .then((done) => {
        if (done) setDenied(!denied);
      })
      .catch((error: unknown) => console.error(error))
      .finally(() => setBusy(false));
  };
  return (
    <PersonRow
      person={person}
      action={
        <Button size="small" loading={busy} onClick={toggle} aria-pressed={denied} data-testid="block-button">
          {denied ? t('people.unblock') : t('people.block')}
        </Button>
      }
    />
  );
}

/** The viewer's blocked users. */
export function DeniedList({ page }: { page: number }) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const viewerId = useViewer()?.userId ?? 0;
  const result = useQuery(deniedPeopleQuery(api, page, viewerId)).data;
  if (!result) return <Spinner />;
  if (!isSuccess(result)) return <p className="lt-empty">{result.Message}</p>;
  const { pageData, currentPage, totalPage } = result.Data;
  if (pageData.length === 0) return <p className="lt-empty">{t('people.empty.blocked')}</p>;
  return (
    <>
      <ul className="lt-people" data-testid="list-blocked">
        {pageData.map((person) => (
          <DeniedRow key={person.id} person={person} />
        ))}
      </ul>
      <Pager current={currentPage} total={totalPage} />
    </>
  );
}
