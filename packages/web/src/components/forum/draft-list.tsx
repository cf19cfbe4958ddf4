import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { Link } from 'react-router';
import { isSuccess } from '../../api/dispatcher';
import { draftsQuery } from '../../api/forum-queries';
import { useAppContext } from '../../app-context';
import { useViewer } from '../../hooks/use-forum';
import { TimeText } from './time-text';
import './forum.css';

/** The viewer's saved drafts, last changed first, each opening in the editor; nothing when there are none. */
export function DraftList() {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const viewer = useViewer();
  const headingId = useId();
  const result = useQuery({ ...draftsQuery(api, viewer?.userId ?? 0), enabled: viewer !== null }).data;
  if (!result || !isSuccess(result) || result.Data.pageData.length === 0) return null;
  const { pageData, totalCount } = result.Data;
  return (
    <section className="lt-card lt-drafts" aria-labelledby={headingId} data-testid="drafts">
      <h2 id={headingId} className="lt-card__title">
        {t('editor.drafts', { count: totalCount })}
      </h2>
      <ul className="lt-drafts__list">
        {pageData.map((draft) => (
          <li key={draft.threadId} className="lt-drafts__item">
            <Link to={`/thread/post?threadId=${draft.threadId}`} className="lt-drafts__title">
              {draft.title || t('editor.draftUntitled')}
            </Link>
            <span className="lt-drafts__meta">
              {draft.categoryName} · <TimeText iso={draft.updatedAt} />
            </span>
          </li>
        ))}
      </ul>
      {totalCount > pageData.length ? (
        <p className="lt-drafts__more">{t('editor.draftsMore', { count: totalCount - pageData.length })}</p>
      ) : null}
    </section>
  );
}
