import {
  VOTE_OPTION_MAX,
  VOTE_OPTIONS_MAX,
  VOTE_OPTIONS_MIN,
  VOTE_TITLE_MAX,
  type VoteChoiceType,
  type VotePart,
} from '@luntan/shared';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { post } from '../../api/mutate';
import { useTranslation } from '../../i18n/use-translation';
import { useViewer } from '../../hooks/use-forum';
import { useRefresh } from '../thread/thread-hooks';
import { dateTimeText } from '../forum/time-text';
import { Button, Icon, TextInput } from '../ui';
import type { PartEditorProps, PartViewProps, ThreadPartUi } from './types';
import './vote-part.css';

/** The vote as the editor holds it (the body of part 109; the server checks it). */
export interface VoteDraft {
  voteTitle?: string;
  choiceType?: VoteChoiceType;
  /** ISO-8601 UTC. */
  expiredAt?: string;
  subitems?: { id?: number; content: string }[];
}

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** An ISO time as a datetime-local input's value, in the reader's own zone. */
function toLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

function fromLocalInput(text: string): string | undefined {
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}

/** A new vote's starting point: single choice, two empty options, ending in a week (on the hour). */
function freshVote(): VoteDraft {
  const end = new Date(Date.now() + WEEK_MS);
  end.setMinutes(0, 0, 0);
  return { voteTitle: '', choiceType: 1, expiredAt: end.toISOString(), subitems: [{ content: '' }, { content: '' }] };
}

function VoteEditor({ value, onChange }: PartEditorProps<VoteDraft>) {
  const { t } = useTranslation();
  const empty = value?.subitems === undefined;
  useEffect(() => {
    if (empty) onChange({ ...freshVote(), ...value });
  }, [empty, value, onChange]);
  const v: VoteDraft = value ?? {};
  const options = v.subitems ?? [];
  const setOptions = (subitems: VoteDraft['subitems']) => onChange({ ...v, subitems });
  return (
    <div className="lt-vote-editor" data-testid="vote-editor">
      <TextInput
        label={t('threadParts.vote.title')}
        name="vote-title"
        value={v.voteTitle ?? ''}
        maxLength={VOTE_TITLE_MAX}
        onChange={(text) => onChange({ ...v, voteTitle: text })}
      />
      <fieldset className="lt-vote-editor__group">
        <legend className="lt-vote-editor__label">{t('threadParts.vote.options')}</legend>
        {options.map((option, i) => (
          <div key={option.id ?? `new-${i}`} className="lt-vote-editor__option">
            <TextInput
              aria-label={t('threadParts.vote.option', { n: i + 1 })}
              name={`vote-option-${i + 1}`}
              placeholder={t('threadParts.vote.option', { n: i + 1 })}
              value={option.content}
              maxLength={VOTE_OPTION_MAX}
              onChange={(text) => setOptions(options.map((o, j) => (j === i ? { ...o, content: text } : o)))}
            />
            <button
              type="button"
              className="lt-vote-editor__remove"
              aria-label={t('threadParts.vote.removeOption', { n: i + 1 })}
              disabled={options.length <= VOTE_OPTIONS_MIN}
              onClick={() => setOptions(options.filter((_, j) => j !== i))}
            >
              <Icon name="close" />
            </button>
          </div>
        ))}
        <div className="lt-vote-editor__row">
          <Button
            size="small"
            disabled={options.length >= VOTE_OPTIONS_MAX}
            onClick={() => setOptions([...options, { content: '' }])}
            data-testid="vote-add-option"
          >
            {t('threadParts.vote.addOption')}
          </Button>
          <span className="lt-vote-editor__hint">
            {t('threadParts.vote.limits', { min: VOTE_OPTIONS_MIN, max: VOTE_OPTIONS_MAX, chars: VOTE_OPTION_MAX })}
          </span>
        </div>
      </fieldset>
      <fieldset className="lt-vote-editor__group lt-vote-editor__choice">
        <legend className="lt-vote-editor__label">{t('threadParts.vote.choiceType')}</legend>
        {([1, 2] as const).map((type) => (
          <label key={type} className="lt-check">
            <input
              type="radio"
              name="vote-choice"
              checked={(v.choiceType ?? 1) === type}
              onChange={() => onChange({ ...v, choiceType: type })}
            />
            {t(type === 1 ? 'threadParts.vote.single' : 'threadParts.vote.multiple')}
          </label>
        ))}
      </fieldset>
      <label className="lt-vote-editor__group">
        <span className="lt-vote-editor__label">{t('threadParts.vote.endsAt')}</span>
        <input
          type="datetime-local"
          className="lt-textbox"
          name="vote-end"
          value={toLocalInput(v.expiredAt)}
          onChange={(event) => {
            const expiredAt = fromLocalInput(event.target.value);
            onChange({ ...v, ...(expiredAt ? { expiredAt } : {}) });
          }}
        />
      </label>
    </div>
  );
}

/** The end time: stable text in the server's HTML, the reader's local form once the page runs. */
function useEndText(iso: string): string {
  const { t } = useTranslation();
  const [text, setText] = useState(() => `${iso.slice(0, 16).replace('T', ' ')} UTC`);
  useEffect(() => {
    setText(dateTimeText(Date.parse(iso), t));
  }, [iso, t]);
  return text;
}

function VoteCard({ vote, threadId }: { vote: VotePart; threadId: number }) {
  const { t } = useTranslation();
  const refresh = useRefresh(threadId);
  const [chosen, setChosen] = useState<number[]>([]);
  const [sending, setSending] = useState(false);
  const multiple = vote.choiceType === 2;
  const endText = useEndText(vote.expiredAt);
  const toggle = (id: number) =>
    setChosen((now) => (multiple ? (now.includes(id) ? now.filter((x) => x !== id) : [...now, id]) : [id]));
  const submit = async () => {
    setSending(true);
    const done = await post('/api/v3/vote.thread', { threadId, vote: { id: vote.voteId, subitemIds: chosen } });
    if (done) await refresh();
    setSending(false);
  };
  return (
    <div className="lt-vote" data-testid="vote-card" data-vote-id={vote.voteId}>
      <div className="lt-vote__head">
        <Icon name="vote" />
        <strong className="lt-vote__title">{vote.voteTitle}</strong>
        <span className="lt-vote__tag">{t(multiple ? 'threadParts.vote.multiple' : 'threadParts.vote.single')}</span>
        {vote.isExpired ? (
          <span className="lt-vote__tag lt-vote__tag--ended" data-testid="vote-ended">
            {t('threadParts.vote.ended')}
          </span>
        ) : null}
      </div>
      <ul className="lt-vote__options" role={vote.canVote ? 'group' : undefined} aria-label={vote.voteTitle}>
        {vote.subitems.map((option) => (
          <li
            key={option.id}
            className={`lt-vote__option${option.isVoted ? ' is-mine' : ''}`}
            data-testid="vote-option"
          >
            {vote.canVote ? (
              <label className="lt-check">
                <input
                  type={multiple ? 'checkbox' : 'radio'}
                  name={`vote-${vote.voteId}`}
                  checked={chosen.includes(option.id)}
                  onChange={() => toggle(option.id)}
                />
                {option.content}
              </label>
            ) : (
              <span className="lt-vote__content">
                {option.content}
                {option.isVoted ? <span className="lt-vote__mine">{t('threadParts.vote.mine')}</span> : null}
              </span>
            )}
            {vote.showResults && option.voteCount !== null ? (
              <div className="lt-vote__result">
                <span className="lt-vote__bar" aria-hidden="true">
                  <span className="lt-vote__fill" style={{ width: option.voteRate ?? '0%' }} />
                </span>
                <span className="lt-vote__count" data-testid="vote-count">
                  {t('threadParts.vote.votes', { count: option.voteCount })} · {option.voteRate}
                </span>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      <div className="lt-vote__foot">
        {vote.canVote ? (
          <Button
            type="primary"
            size="small"
            disabled={chosen.length === 0 || sending}
            onClick={submit}
            data-testid="vote-submit"
          >
            {t('threadParts.vote.submit')}
          </Button>
        ) : null}
        {vote.isVoted ? <span className="lt-vote__tag">{t('threadParts.vote.voted')}</span> : null}
        <span data-testid="vote-voters">{t('threadParts.vote.voters', { count: vote.voteUsers })}</span>
        {vote.isExpired ? null : <time dateTime={vote.expiredAt}>{t('threadParts.vote.ends', { time: endText })}</time>}
      </div>
      {!vote.showResults ? <p className="lt-vote__hint">{t('threadParts.vote.hidden')}</p> : null}
    </div>
  );
}

function VoteView({ body, thread }: PartViewProps<VotePart[]>) {
  const { t } = useTranslation();
  const guest = useViewer() === null;
  return (
    <>
      {body.map((vote) => (
        <VoteCard key={vote.voteId} vote={vote} threadId={thread.threadId} />
      ))}
      {guest && body.some((v) => !v.isExpired && !v.isVoted) ? (
        <Link className="lt-vote__signin" to="/user/login" data-testid="vote-sign-in">
          {t('threadParts.vote.signIn')}
        </Link>
      ) : null}
    </>
  );
}

export const votePartUi: ThreadPartUi<VoteDraft, VotePart[]> = {
  type: 109,
  label: 'threadParts.names.109',
  icon: 'vote',
  Editor: VoteEditor,
  View: VoteView,
  fromView: (view) => {
    const vote = view[0];
    if (!vote) return {};
    return {
      voteTitle: vote.voteTitle,
      choiceType: vote.choiceType,
      expiredAt: vote.expiredAt,
      subitems: vote.subitems.map((s) => ({ id: s.id, content: s.content })),
    };
  },
  ready: (value) => {
    const options = value?.subitems ?? [];
    return Boolean(
      value?.voteTitle?.trim() &&
      value.expiredAt &&
      options.length >= VOTE_OPTIONS_MIN &&
      options.every((o) => o.content.trim() !== ''),
    );
  },
};
