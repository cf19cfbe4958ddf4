import type { DialogReviewItem, Page, ReviewPostItem, ReviewThreadItem } from '@luntan/shared';
import { useTranslation } from '../i18n/use-translation';
import { Link, useSearchParams } from 'react-router';
import { positiveInt } from '../api/forum-queries';
import { Pager } from '../components/forum/pager';
import { TimeText } from '../components/forum/time-text';
import { Button, Spinner } from '../components/ui';
import type { RouteHandle } from '../routing/handle';
import { adminCall, useAdminQuery, useAdminRefresh } from './admin-api';
import { AdminSection, useConfirmDelete, useSelection } from './admin-ui';
import { adminApi } from '../api/admin-client';

export const handle: RouteHandle = { title: (t) => t('admin.section.review') };

type Kind = 'thread' | 'post' | 'dialog';
const KINDS: readonly Kind[] = ['thread', 'post', 'dialog'];
type Action = 'approve' | 'ignore' | 'delete';

interface Held {
  id: number;
  title: string;
  link: string;
  author: string;
  /** Rendered post content (already sanitised by the server), or null for a private message's plain text. */
  html: string | null;
  text: string;
  imageUrl: string;
  createdAt: string;
}

type HeldItem = ReviewThreadItem | ReviewPostItem | DialogReviewItem;

const LIST_URL: Record<Kind, string> = {
  thread: adminApi.review.threads,
  post: adminApi.review.posts,
  dialog: adminApi.review.dialogMessages,
};

function toHeld(kind: Kind, item: HeldItem): Held {
  if (kind === 'dialog') {
    const message = item as DialogReviewItem;
    return {
      id: message.id,
      title: `${message.sender.nickname} → ${message.recipient.nickname}`,
      link: `/user/${message.sender.id}`,
      author: message.sender.nickname,
      html: null,
      text: message.messageText,
      imageUrl: message.imageUrl,
      createdAt: message.createdAt,
    };
  }
  if (kind === 'thread') {
    const thread = item as ReviewThreadItem;
    return {
      id: thread.threadId,
      title: thread.title,
      link: `/thread/${thread.threadId}`,
      author: thread.user.nickname,
      html: thread.content.html,
      text: '',
      imageUrl: '',
      createdAt: thread.createdAt,
    };
  }
  const post = item as ReviewPostItem;
  return {
    id: post.id,
    title: post.threadTitle,
    link: `/thread/${post.threadId}`,
    author: post.user.nickname,
    html: post.content.html,
    text: '',
    imageUrl: '',
    createdAt: post.createdAt,
  };
}

/** The review queue: threads and replies held by a {MOD} stop word, approved, ignored or deleted, singly or in bulk. */
export function Component() {
  const { t } = useTranslation();
  const refresh = useAdminRefresh();
  const [search, setSearch] = useSearchParams();
  const kind: Kind = KINDS.find((k) => k === search.get('type')) ?? 'thread';
  const state = search.get('state') === '2' ? '2' : '0';
  const page = positiveInt(search.get('page'), 1);
  const list = useAdminQuery<Page<HeldItem>>(['review', kind, state, page], LIST_URL[kind], {
    page,
    perPage: 20,
    filter: { isApproved: state },
  });
  const { selected, toggle, clear: clearSelection } = useSelection();
  const { confirmDelete, dialog } = useConfirmDelete();

  const submit = async (ids: number[], action: Action) => {
    if (action === 'delete' && !(await confirmDelete(t('admin.review.confirmDelete', { count: ids.length })))) return;
    const [url, body] =
      kind === 'dialog'
        ? [adminApi.review.dialogReview, { ids, action }]
        : [adminApi.review.submit, { type: kind, ids, action }];
    if (await adminCall('POST', url, body, t(`admin.review.done.${action}`))) {
      clearSelection();
      await refresh('review');
    }
  };
  const go = (values: { type?: Kind; state?: string }) => {
    const next = new URLSearchParams();
    const type = values.type ?? kind;
    const s = values.state ?? state;
    if (type !== 'thread') next.set('type', type);
    if (s === '2') next.set('state', '2');
    clearSelection();
    setSearch(next);
  };
  const items = list.data ? list.data.pageData.map((item) => toHeld(kind, item)) : [];

  return (
    <AdminSection name="review" title={t('admin.section.review')}>
      <div className="lt-toolbar">
        <nav className="lt-tabs" aria-label={t('admin.review.kinds')}>
          {KINDS.map((type) => (
            <button
              key={type}
              type="button"
              className={`lt-tab${type === kind ? ' lt-tab--active' : ''}`}
              aria-pressed={type === kind}
              onClick={() => go({ type })}
            >
              {t(`admin.review.kind.${type}`)}
            </button>
          ))}
        </nav>
        <select
          className="lt-select lt-select--small"
          aria-label={t('admin.review.state')}
          value={state}
          onChange={(e) => go({ state: e.target.value })}
        >
          <option value="0">{t('admin.review.pending')}</option>
          <option value="2">{t('admin.review.ignored')}</option>
        </select>
      </div>
      {list.error ? <p className="lt-empty">{list.error}</p> : null}
      {!list.data ? <Spinner /> : null}
      {list.data && items.length === 0 ? <p className="lt-empty">{t('admin.review.empty')}</p> : null}
      {items.map((item) => (
        <article key={item.id} className="lt-review-item" data-testid="review-item" data-id={item.id}>
          <header className="lt-toolbar">
            <label className="lt-check">
              <input
                type="checkbox"
                checked={selected.has(item.id)}
                onChange={(e) => toggle(item.id, e.target.checked)}
              />
              <Link to={item.link}>{item.title}</Link>
            </label>
            <span className="lt-empty--small">
              {item.author} · <TimeText iso={item.createdAt} />
            </span>
          </header>
          {item.html !== null ? (
            <div className="lt-prose lt-prose--post" dangerouslySetInnerHTML={{ __html: item.html }} />
          ) : (
            <div className="lt-prose lt-prose--post">
              {item.text ? <p style={{ whiteSpace: 'pre-line' }}>{item.text}</p> : null}
              {item.imageUrl ? <img src={item.imageUrl} alt="" loading="lazy" /> : null}
            </div>
          )}
          <div className="lt-table__actions">
            <Button size="small" type="primary" onClick={() => void submit([item.id], 'approve')}>
              {t('admin.review.approve')}
            </Button>
            {state === '0' ? (
              <Button size="small" onClick={() => void submit([item.id], 'ignore')}>
                {t('admin.review.ignore')}
              </Button>
            ) : null}
            <Button size="small" type="danger" onClick={() => void submit([item.id], 'delete')}>
              {t('admin.delete')}
            </Button>
          </div>
        </article>
      ))}
      {items.length > 0 ? (
        <div className="lt-toolbar">
          <div className="lt-table__actions">
            <Button
              type="primary"
              disabled={selected.size === 0}
              onClick={() => void submit([...selected], 'approve')}
              data-testid="review-approve-selected"
            >
              {t('admin.review.approveSelected', { count: selected.size })}
            </Button>
            <Button type="danger" disabled={selected.size === 0} onClick={() => void submit([...selected], 'delete')}>
              {t('admin.deleteSelected', { count: selected.size })}
            </Button>
          </div>
          {list.data ? <Pager current={list.data.currentPage} total={list.data.totalPage} /> : null}
        </div>
      ) : null}
      {dialog}
    </AdminSection>
  );
}
