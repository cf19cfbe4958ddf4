import type { PostVersionItem } from '@luntan/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { diffWords, type Change } from 'diff';
import { useState } from 'react';
import { isSuccess } from '../../api/dispatcher';
import { post } from '../../api/mutate';
import { useAppContext } from '../../app-context';
import { useTranslation } from '../../i18n/use-translation';
import { TimeText } from '../forum/time-text';
import { Button, Dialog, Spinner } from '../ui';
import './post-history.css';

export interface PostHistoryDialogProps {
  open: boolean;
  postId: number;
  /** Administrators may hide a version from everyone else. */
  isAdmin: boolean;
  onClose: () => void;
}

/** Words (Chinese ones too, by the browser's word segmenter) added and removed between two texts. */
function changes(before: string, after: string): Change[] {
  const segmenter =
    typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter(undefined, { granularity: 'word' }) : null;
  return diffWords(before, after, segmenter ? { intlSegmenter: segmenter } : {});
}

function DiffText({ before, after, testId }: { before: string; after: string; testId: string }) {
  return (
    <div className="lt-history__diff" data-testid={testId}>
      {changes(before, after).map((part, i) =>
        part.added ? (
          <ins key={i}>{part.value}</ins>
        ) : part.removed ? (
          <del key={i}>{part.value}</del>
        ) : (
          <span key={i}>{part.value}</span>
        ),
      )}
    </div>
  );
}

/**
 * A post's edit history (GET /api/v3/posts.history): its versions, newest first, and what the chosen one changed
 * against the one before it (the first version shown whole). Loaded only when opened (lazy-post-history.tsx).
 */
export function PostHistoryDialog({ open, postId, isAdmin, onClose }: PostHistoryDialogProps) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const queryClient = useQueryClient();
  const key = ['post-history', postId];
  const result = useQuery({
    queryKey: key,
    queryFn: () => api.get<PostVersionItem[]>(`/api/v3/posts.history?postId=${postId}`),
    enabled: open,
  }).data;
  const versions = result && isSuccess(result) ? result.Data : null;
  const [chosen, setChosen] = useState<number | null>(null);
  const index = versions
    ? Math.max(
        0,
        versions.findIndex((v) => v.version === chosen),
      )
    : 0;
  const current = versions?.[index] ?? null;
  const previous = versions?.[index + 1] ?? null;

  const toggleHidden = async (version: PostVersionItem) => {
    if (await post('/api/v3/posts.history.hide', { postId, version: version.version, hidden: !version.hidden })) {
      await queryClient.invalidateQueries({ queryKey: key });
    }
  };

  return (
    <Dialog
      open={open}
      title={t('thread.history.title')}
      onClose={onClose}
      className="lt-history"
      footer={<Button onClick={onClose}>{t('ui.close')}</Button>}
    >
      {!result ? (
        <Spinner />
      ) : !isSuccess(result) ? (
        <p role="alert">{result.Message}</p>
      ) : !versions || versions.length === 0 || !current ? (
        <p>{t('thread.history.none')}</p>
      ) : (
        <div className="lt-history__body">
          <ol className="lt-history__versions" aria-label={t('thread.history.versions')}>
            {versions.map((v, i) => (
              <li key={v.version}>
                <button
                  type="button"
                  className="lt-history__version"
                  aria-current={i === index ? 'true' : undefined}
                  data-testid="history-version"
                  onClick={() => setChosen(v.version)}
                >
                  <strong>{t('thread.history.version', { n: v.version })}</strong>
                  <span>{v.nickname}</span>
                  <TimeText iso={v.createdAt} />
                  {v.hidden ? <span className="lt-tag lt-tag--review">{t('thread.history.hidden')}</span> : null}
                </button>
              </li>
            ))}
          </ol>
          <section className="lt-history__view" aria-live="polite">
            <header className="lt-history__head">
              <span>
                {previous
                  ? t('thread.history.compare', { from: previous.version, to: current.version })
                  : t('thread.history.original')}
              </span>
              {isAdmin ? (
                <Button size="small" onClick={() => void toggleHidden(current)} data-testid="history-hide">
                  {current.hidden ? t('thread.history.show') : t('thread.history.hide')}
                </Button>
              ) : null}
            </header>
            {current.hidden && !current.content ? (
              <p className="lt-history__hidden">{t('thread.history.hiddenText')}</p>
            ) : (
              <>
                {current.title !== undefined ? (
                  <>
                    <h3 className="lt-history__label">{t('thread.history.titleLabel')}</h3>
                    <DiffText before={previous?.title ?? current.title} after={current.title} testId="history-title" />
                  </>
                ) : null}
                <h3 className="lt-history__label">{t('thread.history.contentLabel')}</h3>
                <DiffText before={previous?.content ?? current.content} after={current.content} testId="history-diff" />
              </>
            )}
          </section>
        </div>
      )}
    </Dialog>
  );
}
