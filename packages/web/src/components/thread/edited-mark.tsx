import { lazy, Suspense, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { stableTime } from '../forum/time-text';
import './post-history.css';

const HistoryChunk = lazy(() =>
  import('./post-history-dialog').then((module) => ({ default: module.PostHistoryDialog })),
);

/**
 * "已编辑" beside an edited post's time. For whoever may read its history (the author, moderators, administrators:
 * the server decides, posts.history) it opens the history dialog, loaded the first time (the diff library stays out
 * of the page's scripts until then).
 */
export function EditedMark({
  postId,
  editedAt,
  canOpen,
  isAdmin,
}: {
  postId: number;
  editedAt: string | null;
  canOpen: boolean;
  isAdmin: boolean;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  if (!editedAt) return null;
  const title = t('thread.history.editedAt', { time: stableTime(editedAt) });
  if (!canOpen) {
    return (
      <span className="lt-edited" title={title} data-testid="edited-mark">
        {t('thread.history.edited')}
      </span>
    );
  }
  return (
    <>
      <button
        type="button"
        className="lt-edited lt-edited--button"
        title={title}
        data-testid="edited-mark"
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        {t('thread.history.edited')}
      </button>
      {used ? (
        <Suspense fallback={null}>
          <HistoryChunk open={open} postId={postId} isAdmin={isAdmin} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
