import { useEffect, useRef, useState } from 'react';
import type { PluginAction, PluginRequiredProp, PluginSiteData } from './host';
import { OPTION_MAX, OPTIONS_MAX, OPTIONS_MIN, pollProblem, QUESTION_MAX, type PollProblem } from './rules';
import { texts, type Texts } from './texts';

/** What the editor hands this slot (the runtime's PostRenderData, the part this plugin reads). */
export interface PollEntryRenderData {
  /**
   * Runs `callback` once a new thread has been created (published or saved as a draft); the editor waits for it.
   * Answers a function that removes the callback.
   */
  onThreadCreated(
    callback: (threadId: number, thread: { threadId: number; isDraft: boolean }) => void | Promise<void>,
  ): () => void;
}

export interface PollEntryProps {
  renderData?: PollEntryRenderData;
  siteData?: PluginSiteData;
  pluginAction?: PluginAction;
}

interface Draft {
  enabled: boolean;
  question: string;
  options: string[];
}

/** What would be sent: trimmed, blank options left out. */
function submission(draft: Draft): { question: string; options: string[] } {
  return { question: draft.question.trim(), options: draft.options.map((o) => o.trim()).filter(Boolean) };
}

function describe(problem: PollProblem, t: Texts): string {
  switch (problem) {
    case 'noQuestion':
    case 'longQuestion':
      return t.needQuestion;
    case 'sameOptions':
      return t.sameOptions;
    default:
      return t.needOptions(OPTIONS_MIN);
  }
}

/**
 * The editor's part (post_extension_entry_hook): a question and 2 to 10 options. The poll is created through the
 * plugin's `create` route once the editor reports the new thread's id.
 */
export function PollEntry({ renderData, siteData, pluginAction }: PollEntryProps) {
  const t = texts(siteData?.locale);
  const [draft, setDraft] = useState<Draft>({ enabled: false, question: '', options: ['', ''] });
  // The callback runs after the thread is created, long after this render: it reads the newest draft from here.
  const latest = useRef(draft);
  useEffect(() => {
    latest.current = draft;
  }, [draft]);

  const onThreadCreated = renderData?.onThreadCreated;
  useEffect(() => {
    if (!onThreadCreated || !pluginAction) return undefined;
    return onThreadCreated(async (threadId) => {
      const current = latest.current;
      if (!current.enabled) return;
      const poll = submission(current);
      const problem = pollProblem(poll.question, poll.options);
      if (problem) throw new Error(`poll: ${describe(problem, t)}`);
      await pluginAction.call('create', { method: 'POST', body: { threadId, ...poll } });
    });
  }, [onThreadCreated, pluginAction, t]);

  if (!onThreadCreated || !pluginAction) return null;

  const update = (change: Partial<Draft>) => setDraft((previous) => ({ ...previous, ...change }));
  const setOption = (index: number, value: string) =>
    update({ options: draft.options.map((option, i) => (i === index ? value : option)) });
  const current = submission(draft);
  const problem = draft.enabled ? pollProblem(current.question, current.options) : null;

  return (
    <section data-plugin="poll" aria-label={t.poll}>
      <label>
        <input type="checkbox" checked={draft.enabled} onChange={(e) => update({ enabled: e.target.checked })} />{' '}
        {t.addPoll}
      </label>
      {draft.enabled && (
        <div>
          <input
            type="text"
            aria-label={t.question}
            placeholder={t.questionPlaceholder}
            maxLength={QUESTION_MAX}
            value={draft.question}
            onChange={(e) => update({ question: e.target.value })}
            style={{ display: 'block', width: '100%', margin: '8px 0' }}
          />
          <ol style={{ margin: 0, paddingLeft: 20 }}>
            {draft.options.map((option, i) => (
              <li key={i} style={{ margin: '4px 0' }}>
                <input
                  type="text"
                  aria-label={t.option(i + 1)}
                  maxLength={OPTION_MAX}
                  value={option}
                  onChange={(e) => setOption(i, e.target.value)}
                />
                {draft.options.length > OPTIONS_MIN && (
                  <button
                    type="button"
                    aria-label={t.removeOption(i + 1)}
                    onClick={() => update({ options: draft.options.filter((_, j) => j !== i) })}
                  >
                    ×
                  </button>
                )}
              </li>
            ))}
          </ol>
          {draft.options.length < OPTIONS_MAX && (
            <button type="button" onClick={() => update({ options: [...draft.options, ''] })}>
              {t.addOption}
            </button>
          )}
          {problem && <p style={{ color: '#b42318', fontSize: 13 }}>{describe(problem, t)}</p>}
        </div>
      )}
    </section>
  );
}

PollEntry.requiredProps = ['renderData'] as readonly PluginRequiredProp[];
