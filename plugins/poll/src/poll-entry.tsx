import { useEffect, useRef } from 'react';
import type { PluginAction, PluginRequiredProp, PluginSiteData } from './host';
import { OPTION_MAX, OPTIONS_MAX, OPTIONS_MIN, pollProblem, QUESTION_MAX, type PollProblem } from './rules';
import { site } from './site-styles';
import { texts, type Texts } from './texts';

/** What the editor hands its slots (the runtime's PostRenderData, the part this plugin reads). */
export interface PollEntryRenderData {
  /** The thread being edited, or 0 for a new one: a poll is added to new threads only. */
  threadId?: number;
  /**
   * Runs `callback` once a new thread has been created (published or saved as a draft); the editor waits for it.
   * Answers a function that removes the callback.
   */
  onThreadCreated(
    callback: (threadId: number, thread: { threadId: number; isDraft: boolean }) => void | Promise<void>,
  ): () => void;
}

/** The poll being written: in the plugin's store, which the toolbar's switch and the form below the text share. */
export interface PollDraft {
  enabled: boolean;
  question: string;
  options: string[];
}

export interface PollStore {
  draft?: PollDraft;
}

export interface PollEntryProps {
  renderData?: PollEntryRenderData;
  siteData?: PluginSiteData;
  pluginStore?: PollStore;
  pluginAction?: PluginAction<PollStore>;
}

export const EMPTY_DRAFT: PollDraft = { enabled: false, question: '', options: ['', ''] };

/** What would be sent: trimmed, blank options left out. */
function submission(draft: PollDraft): { question: string; options: string[] } {
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

/** The slot's draft and a way to change it; null where a poll cannot be added (no editor, an existing thread). */
function draftOf({ renderData, pluginStore, pluginAction }: PollEntryProps) {
  if (!renderData?.onThreadCreated || !pluginAction || (renderData.threadId ?? 0) > 0) return null;
  const draft = pluginStore?.draft ?? EMPTY_DRAFT;
  return { draft, update: (change: Partial<PollDraft>) => pluginAction.setStore({ draft: { ...draft, ...change } }) };
}

/** In the editor's toolbar (post_extension_entry_hook): the switch that adds a poll to the new thread. */
export function PollEntry(props: PollEntryProps) {
  const t = texts(props.siteData?.locale);
  const state = draftOf(props);
  if (!state) return null;
  return (
    <label data-plugin="poll" className="lt-check" style={site.toolbarSwitch}>
      <input
        type="checkbox"
        checked={state.draft.enabled}
        onChange={(e) => state.update({ enabled: e.target.checked })}
      />
      {t.addPoll}
    </label>
  );
}

PollEntry.requiredProps = ['renderData'] as readonly PluginRequiredProp[];

/**
 * Below the text (post_extension_content_hook), once the switch is on: the question and 2 to 10 options. The poll
 * is created through the plugin's `create` route when the editor reports the new thread's id.
 */
export function PollComposer(props: PollEntryProps) {
  const t = texts(props.siteData?.locale);
  const state = draftOf(props);
  // The callback runs after the thread is created, long after this render: it reads the newest draft from here.
  const latest = useRef(state?.draft ?? EMPTY_DRAFT);
  const draftNow = state?.draft ?? EMPTY_DRAFT;
  useEffect(() => {
    latest.current = draftNow;
  }, [draftNow]);

  const { renderData, pluginAction } = props;
  const onThreadCreated = state ? renderData?.onThreadCreated : undefined;
  useEffect(() => {
    if (!onThreadCreated || !pluginAction) return undefined;
    return onThreadCreated(async (threadId) => {
      const current = latest.current;
      if (!current.enabled) return;
      const poll = submission(current);
      const problem = pollProblem(poll.question, poll.options);
      if (problem) throw new Error(`poll: ${describe(problem, t)}`);
      await pluginAction.call('create', { method: 'POST', body: { threadId, ...poll } });
      // Kept for the session otherwise: the next new thread starts without it.
      pluginAction.setStore({ draft: EMPTY_DRAFT });
    });
  }, [onThreadCreated, pluginAction, t]);

  if (!state || !state.draft.enabled) return null;
  const { draft, update } = state;
  const setOption = (index: number, value: string) =>
    update({ options: draft.options.map((option, i) => (i === index ? value : option)) });
  const current = submission(draft);
  const problem = pollProblem(current.question, current.options);

  return (
    <fieldset data-plugin="poll" style={site.panel}>
      <legend style={site.legend}>{t.poll}</legend>
      <input
        type="text"
        className="lt-textbox"
        aria-label={t.question}
        placeholder={t.questionPlaceholder}
        maxLength={QUESTION_MAX}
        value={draft.question}
        onChange={(e) => update({ question: e.target.value })}
      />
      <ol style={site.options}>
        {draft.options.map((option, i) => (
          <li key={i} style={site.option}>
            <span aria-hidden="true" style={site.optionNumber}>
              {i + 1}.
            </span>
            <input
              type="text"
              className="lt-textbox"
              aria-label={t.option(i + 1)}
              placeholder={t.option(i + 1)}
              maxLength={OPTION_MAX}
              value={option}
              onChange={(e) => setOption(i, e.target.value)}
            />
            {draft.options.length > OPTIONS_MIN && (
              <button
                type="button"
                className="lt-button lt-button--text"
                aria-label={t.removeOption(i + 1)}
                title={t.removeOption(i + 1)}
                onClick={() => update({ options: draft.options.filter((_, j) => j !== i) })}
              >
                ×
              </button>
            )}
          </li>
        ))}
      </ol>
      <div style={site.row}>
        {draft.options.length < OPTIONS_MAX && (
          <button
            type="button"
            className="lt-button lt-button--small"
            onClick={() => update({ options: [...draft.options, ''] })}
          >
            {t.addOption}
          </button>
        )}
        {problem && <p style={site.problem}>{describe(problem, t)}</p>}
      </div>
    </fieldset>
  );
}

PollComposer.requiredProps = ['renderData'] as readonly PluginRequiredProp[];
