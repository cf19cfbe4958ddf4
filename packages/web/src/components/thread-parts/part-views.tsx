import type { ThreadDetail, ThreadItem } from '@luntan/shared';
import { useTranslation } from '../../i18n/use-translation';
import { Icon } from '../ui';
import { partUi } from './registry';
import './thread-parts.css';

/** The thread's parts on its page, below its text, in the order of their types. */
export function ThreadParts({ thread }: { thread: ThreadDetail }) {
  const entries = Object.entries(thread.content.indexes ?? {}).sort(([a], [b]) => Number(a) - Number(b));
  if (entries.length === 0) return null;
  return (
    <div className="lt-thread-parts" data-testid="thread-parts">
      {entries.map(([key, view]) => {
        const ui = partUi(Number(key));
        if (!ui) return null;
        return (
          <section key={key} className="lt-thread-part" data-testid={`thread-part-${key}`}>
            <ui.View body={view.body as never} thread={thread} />
          </section>
        );
      })}
    </div>
  );
}

/** A list's marks of the parts a thread holds (the family's isRedPack, isReward, isVote and the rest). */
export function ThreadPartMarks({ thread }: { thread: ThreadItem }) {
  const { t } = useTranslation();
  const marks = (thread.parts ?? []).map((type) => partUi(type)).filter((ui) => ui !== undefined);
  if (marks.length === 0) return null;
  return (
    <span className="lt-part-marks" data-testid="part-marks">
      {marks.map((ui) => (
        <span key={ui.type} className={`lt-part-mark lt-part-mark--${ui.type}`} data-part={ui.type}>
          <Icon name={ui.icon} title={t(ui.label as never)} />
        </span>
      ))}
    </span>
  );
}
