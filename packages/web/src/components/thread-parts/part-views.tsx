import type { ThreadDetail } from '@luntan/shared';
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
