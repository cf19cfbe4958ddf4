import { useEffect, useState } from 'react';
import type { PluginAction, PluginRequiredProp, PluginSiteData } from './host';
import type { PollView } from './rules';
import { site } from './site-styles';
import { texts } from './texts';

export interface PollDisplayProps {
  threadData?: { threadId: number } | null;
  isLogin?: boolean;
  siteData?: PluginSiteData;
  pluginAction?: Pick<PluginAction, 'call'>;
}

type State = { status: 'loading' } | { status: 'ready'; poll: PollView | null } | { status: 'failed' };

const percent = (votes: number, total: number) => (total > 0 ? Math.round((votes * 100) / total) : 0);

/**
 * Under a thread (thread_extension_display_hook): the thread's poll, with a vote form for a signed-in member who has
 * not voted, else the results as bars with counts and percentages. Nothing when the thread has no poll.
 */
export function PollDisplay({ threadData, isLogin = false, siteData, pluginAction }: PollDisplayProps) {
  const t = texts(siteData?.locale);
  const threadId = threadData?.threadId;
  const [state, setState] = useState<State>({ status: 'loading' });
  const [choice, setChoice] = useState<number | null>(null);
  const [sending, setSending] = useState(false);
  const [voteError, setVoteError] = useState<string | null>(null);

  useEffect(() => {
    if (!threadId || !pluginAction) return undefined;
    let live = true;
    pluginAction.call<{ poll: PollView | null }>('get', { method: 'GET', query: { threadId } }).then(
      (answer) => live && setState({ status: 'ready', poll: answer.poll ?? null }),
      () => live && setState({ status: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [threadId, pluginAction, isLogin]);

  if (!threadId || !pluginAction) return null;
  if (state.status === 'loading') return null;
  if (state.status === 'failed') {
    return (
      <p data-plugin="poll" role="alert">
        {t.loadFailed}
      </p>
    );
  }
  const { poll } = state;
  if (!poll) return null;

  const vote = async () => {
    if (choice === null) return;
    setSending(true);
    setVoteError(null);
    try {
      const answer = await pluginAction.call<{ poll: PollView }>('vote', {
        method: 'POST',
        body: { threadId, option: choice },
      });
      setState({ status: 'ready', poll: answer.poll });
    } catch (error) {
      setVoteError(error instanceof Error && error.message ? error.message : t.voteFailed);
    } finally {
      setSending(false);
    }
  };

  const showForm = isLogin && poll.canVote;
  return (
    <section data-plugin="poll" aria-label={t.poll} style={site.card}>
      <h3 style={site.question}>{poll.question}</h3>
      {showForm ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void vote();
          }}
        >
          <div style={site.choices}>
            {poll.options.map((option, i) => (
              <label key={i} className="lt-check">
                <input type="radio" name={`poll-${threadId}`} checked={choice === i} onChange={() => setChoice(i)} />
                {option.text}
              </label>
            ))}
          </div>
          <button
            type="submit"
            className="lt-button lt-button--primary lt-button--small"
            disabled={choice === null || sending}
          >
            {sending ? t.voting : t.vote}
          </button>
          {voteError && (
            <p role="alert" style={site.problem}>
              {voteError}
            </p>
          )}
        </form>
      ) : (
        <>
          <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {poll.options.map((option, i) => {
              const share = percent(option.votes, poll.total);
              return (
                <li key={i} style={{ margin: '8px 0' }} aria-label={option.text}>
                  <div style={{ display: 'flex', justifyContent: 'space-between', fontSize: 14 }}>
                    <span>
                      {option.text}
                      {poll.myVote === i && <strong> ({t.yourVote})</strong>}
                    </span>
                    <span>
                      {t.votes(option.votes)} · {share}%
                    </span>
                  </div>
                  <div style={site.bar}>
                    <div data-share={share} style={{ ...site.share, width: `${share}%` }} />
                  </div>
                </li>
              );
            })}
          </ul>
          <p style={site.muted}>
            {t.total(poll.total)}
            {!isLogin && ` · ${t.signInToVote}`}
          </p>
        </>
      )}
    </section>
  );
}

PollDisplay.requiredProps = ['threadData'] as readonly PluginRequiredProp[];
