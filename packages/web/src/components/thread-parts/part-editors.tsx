import type { ContentIndexes, ThreadDetail } from '@luntan/shared';
import { useTranslation } from '../../i18n/use-translation';
import { useForum } from '../../hooks/use-forum';
import { Button, Icon } from '../ui';
import { mayInsertPart, partUi, THREAD_PART_UIS } from './registry';
import './thread-parts.css';

/** The parts being written, by type: a body (possibly half-filled), or null for a part the editor took away. */
export type PartDrafts = Record<string, unknown>;

/** The parts of a thread being edited, as bodies the editor can send again. */
export function draftsOf(thread: ThreadDetail | null): PartDrafts {
  const out: PartDrafts = {};
  for (const [key, view] of Object.entries(thread?.content.indexes ?? {})) {
    const ui = partUi(Number(key));
    if (ui) out[key] = ui.fromView(view.body);
  }
  return out;
}

/**
 * What thread.create / thread.update get as content.indexes: each part written, and a delete for each part the
 * thread held that the editor took away.
 */
export function indexesOf(drafts: PartDrafts, before: ThreadDetail | null): ContentIndexes | undefined {
  const out: Record<string, unknown> = {};
  for (const [key, body] of Object.entries(drafts)) {
    if (body !== null && body !== undefined) out[key] = { tomId: key, body };
  }
  for (const key of Object.keys(before?.content.indexes ?? {})) {
    if (!(key in out)) out[key] = { tomId: key, operation: 'delete' };
  }
  return Object.keys(out).length > 0 ? (out as ContentIndexes) : undefined;
}

/** The part types whose editor holds something that cannot be sent yet. */
export function unreadyParts(drafts: PartDrafts): number[] {
  return Object.entries(drafts)
    .filter(([key, body]) => body !== null && partUi(Number(key))?.ready?.(body ?? undefined) === false)
    .map(([key]) => Number(key));
}

/**
 * The editor's parts: a button for each part type the viewer may insert in the category, and the editor panel of
 * each part added (with a button that takes it away).
 */
export function ThreadPartEditors({
  drafts,
  onChange,
  categoryId,
  threadId,
}: {
  drafts: PartDrafts;
  onChange: (drafts: PartDrafts) => void;
  categoryId: number;
  threadId: number;
}) {
  const { t } = useTranslation();
  const { forum } = useForum();
  const offered = THREAD_PART_UIS.filter(
    (ui) => mayInsertPart(forum, ui.type, categoryId) || drafts[String(ui.type)] != null,
  );
  if (offered.length === 0) return null;
  const set = (type: number, body: unknown) => onChange({ ...drafts, [String(type)]: body });
  return (
    <section className="lt-part-editors" aria-label={t('threadParts.title')} data-testid="part-editors">
      <div className="lt-part-editors__bar" role="toolbar" aria-label={t('threadParts.add')}>
        {offered.map((ui) => {
          const added = drafts[String(ui.type)] != null;
          return (
            <button
              key={ui.type}
              type="button"
              className={`lt-part-editors__add${added ? ' is-added' : ''}`}
              aria-pressed={added}
              data-testid={`part-add-${ui.type}`}
              onClick={() => set(ui.type, added ? null : {})}
            >
              <Icon name={ui.icon} />
              <span>{t(ui.label as never)}</span>
            </button>
          );
        })}
      </div>
      {offered
        .filter((ui) => drafts[String(ui.type)] != null)
        .map((ui) => (
          <fieldset key={ui.type} className="lt-part-editor" data-testid={`part-editor-${ui.type}`}>
            <legend className="lt-part-editor__legend">
              <Icon name={ui.icon} /> {t(ui.label as never)}
            </legend>
            <ui.Editor
              value={drafts[String(ui.type)] as never}
              onChange={(body) => set(ui.type, body ?? {})}
              categoryId={categoryId}
              threadId={threadId}
            />
            <Button size="small" onClick={() => set(ui.type, null)} data-testid={`part-remove-${ui.type}`}>
              {t('threadParts.remove')}
            </Button>
          </fieldset>
        ))}
    </section>
  );
}
