import { parseMoney, type BountyPart, type PostItem, type ThreadDetail } from '@luntan/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { isSuccess, request } from '../../api/dispatcher';
import { refreshMoney } from '../../api/money-queries';
import { PayPasswordInput } from '../money/pay-password';
import { dateTimeText, stableTime } from '../forum/time-text';
import { Button, Dialog, Icon, TextInput, toast } from '../ui';

/*
 * A bounty question (part 107, the family's 悬赏): the editor's offer and deadline, the card on the thread page, and
 * on each reply the author's "award" action and the awarded mark. Not the tipping of a thread (打赏, RewardButton).
 */

/** The bounty as the editor holds it: the amount as typed, the deadline as an ISO time. */
export interface BountyDraft {
  price?: string;
  expiredAt?: string;
  type?: number;
}

const DAY = 24 * 60 * 60 * 1000;

/* The editor's and view's props, as registry.ts's PartEditorProps / PartViewProps (not imported: the registry imports
   this file, and a type import back would close an import circle). */
interface EditorProps {
  value: BountyDraft | undefined;
  onChange: (value: BountyDraft | undefined) => void;
}
interface ViewProps {
  body: BountyPart | null;
  thread: ThreadDetail;
}

/** An ISO time as a datetime-local input's value (the viewer's local time, to the minute). */
function localInput(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function BountyEditor({ value, onChange }: EditorProps) {
  const { t } = useTranslation();
  const v = value ?? {};
  const dateId = useId();
  const [min] = useState(() => localInput(new Date(Date.now() + DAY + 60_000).toISOString()));
  const [max] = useState(() => localInput(new Date(Date.now() + 30 * DAY).toISOString()));
  return (
    <div className="lt-bounty-editor" data-testid="bounty-editor">
      <TextInput
        label={t('threadParts.bounty.amount')}
        name="bounty-price"
        mode="number"
        placeholder="0.00"
        append="¥"
        appendWidth="32px"
        value={v.price ?? ''}
        onChange={(text) => onChange({ ...v, price: text, type: 0 })}
      />
      <div className="lt-field lt-input">
        <label className="lt-field__label" htmlFor={dateId}>
          {t('threadParts.bounty.deadline')}
        </label>
        <div className="lt-field__box lt-field__box--inline">
          <input
            id={dateId}
            className="lt-field__control"
            type="datetime-local"
            name="bounty-deadline"
            min={min}
            max={max}
            value={localInput(v.expiredAt)}
            onChange={(e) => {
              const ms = Date.parse(e.target.value);
              onChange({ ...v, type: 0, expiredAt: Number.isFinite(ms) ? new Date(ms).toISOString() : undefined });
            }}
          />
        </div>
      </div>
      <p className="lt-bounty-editor__hint">{t('threadParts.bounty.hint')}</p>
    </div>
  );
}

/** The deadline as a date and time (stable text in the server's HTML, the reader's local form once the page runs). */
function DeadlineText({ iso }: { iso: string }) {
  const { t } = useTranslation();
  const [text, setText] = useState(() => stableTime(iso));
  useEffect(() => {
    const at = Date.parse(iso);
    if (Number.isFinite(at)) {
      setText(dateTimeText(at, t));
    }
  }, [iso, t]);
  return (
    <time dateTime={iso} data-testid="bounty-deadline">
      {text}
    </time>
  );
}

function BountyView({ body, thread }: ViewProps) {
  const { t } = useTranslation();
  if (!body) return null;
  return (
    <div className="lt-bounty-card" data-testid="bounty-card">
      <div className="lt-bounty-card__head">
        <Icon name="reward" />
        <span className="lt-bounty-card__title">{t('threadParts.bounty.title')}</span>
        <span className="lt-bounty-card__amount" data-testid="bounty-amount">
          ¥{body.amount}
        </span>
      </div>
      <dl className="lt-bounty-card__facts">
        <div>
          <dt>{t('threadParts.bounty.remaining')}</dt>
          <dd data-testid="bounty-remaining">¥{body.remaining}</dd>
        </div>
        <div>
          <dt>{body.isExpired ? t('threadParts.bounty.ended') : t('threadParts.bounty.endsAt')}</dt>
          <dd>
            <DeadlineText iso={body.expiredAt} />
          </dd>
        </div>
      </dl>
      {body.awards.length > 0 ? (
        <ul className="lt-bounty-card__awards" data-testid="bounty-awards">
          {body.awards.map((a, i) => (
            <li key={`${a.postId}-${i}`}>
              {t('threadParts.bounty.awardedTo', { name: a.nickname, amount: a.amount })}
            </li>
          ))}
        </ul>
      ) : null}
      {!body.isExpired && thread.ability.canReply ? (
        <p className="lt-bounty-card__hint">{t('threadParts.bounty.answerHint')}</p>
      ) : null}
    </div>
  );
}

/** The author's dialog: how much of what is left goes to this reply, confirmed with the pay password. */
function AwardDialog({
  thread,
  item,
  bounty,
  viewerId,
  onClose,
}: {
  thread: ThreadDetail;
  item: PostItem;
  bounty: BountyPart;
  viewerId: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const formId = useId();
  const [amount, setAmount] = useState('');
  const [payPassword, setPayPassword] = useState('');
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState('');

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const cents = parseMoney(amount);
    if (cents === null || cents <= 0) return setProblem(t('threadParts.bounty.badAmount'));
    if (cents > (parseMoney(bounty.remaining) ?? 0)) {
      return setProblem(t('threadParts.bounty.tooMuch', { remaining: bounty.remaining }));
    }
    setPending(true);
    try {
      const result = await request<BountyPart>({
        url: '/api/v3/posts.reward',
        method: 'POST',
        data: { threadId: thread.threadId, postId: item.id, rewards: amount, payPassword },
      });
      if (!isSuccess(result)) return setProblem(result.Message);
      toast.success(
        t('threadParts.bounty.awarded', {
          name: item.user.nickname,
          amount: result.Data.awards.at(-1)?.amount ?? amount,
        }),
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['thread', thread.threadId] }),
        queryClient.invalidateQueries({ queryKey: ['posts', thread.threadId] }),
        refreshMoney(queryClient, viewerId),
      ]);
      onClose();
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog
      open
      title={t('threadParts.bounty.awardTitle', { name: item.user.nickname })}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('threadParts.bounty.cancel')}</Button>
          <Button type="primary" htmlType="submit" form={formId} loading={pending} data-testid="bounty-award-submit">
            {t('threadParts.bounty.award')}
          </Button>
        </>
      }
    >
      <form id={formId} className="lt-bounty-award" onSubmit={(e) => void submit(e)} data-testid="bounty-award-dialog">
        <p>{t('threadParts.bounty.left', { remaining: bounty.remaining })}</p>
        <TextInput
          label={t('threadParts.bounty.awardAmount')}
          name="bounty-award-amount"
          mode="number"
          placeholder="0.00"
          append="¥"
          appendWidth="32px"
          value={amount}
          onChange={(text) => {
            setAmount(text);
            setProblem('');
          }}
        />
        <PayPasswordInput
          label={t('threadParts.bounty.payPassword')}
          name="bounty-pay-password"
          value={payPassword}
          onChange={(text) => {
            setPayPassword(text);
            setProblem('');
          }}
        />
        {problem ? (
          <p className="lt-bounty-award__problem" role="alert">
            {problem}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}

/** The thread's bounty (part 107), or null when it has none. */
export function bountyOf(thread: ThreadDetail): BountyPart | null {
  return (thread.content.indexes['107']?.body as BountyPart | null | undefined) ?? null;
}

/**
 * On a reply of a bounty question: the mark of what it was awarded, and for the thread's author (not on their own
 * replies, while the bounty runs and something is left) the "award" action. The page reads the thread, its bounty
 * and the viewer once and hands them to every reply (rendered only when the thread has a bounty).
 */
export function BountyReplyAction({
  item,
  thread,
  bounty,
  viewerId,
}: {
  item: PostItem;
  thread: ThreadDetail;
  bounty: BountyPart;
  viewerId: number | null;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (item.isComment || item.isFirst) return null;
  const awarded = bounty.awards.filter((a) => a.postId === item.id);
  const total = awarded.reduce((sum, a) => sum + (parseMoney(a.amount) ?? 0), 0);
  const mayAward =
    viewerId !== null &&
    viewerId === thread.user.userId &&
    item.user.userId !== viewerId &&
    !bounty.isExpired &&
    (parseMoney(bounty.remaining) ?? 0) > 0;
  return (
    <>
      {awarded.length > 0 ? (
        <span className="lt-bounty-mark" data-testid="bounty-awarded-mark">
          <Icon name="reward" /> {t('threadParts.bounty.awardedMark', { amount: (total / 100).toFixed(2) })}
        </span>
      ) : null}
      {mayAward ? (
        <Button size="small" onClick={() => setOpen(true)} data-testid="bounty-award">
          {t('threadParts.bounty.award')}
        </Button>
      ) : null}
      {open && viewerId !== null ? (
        <AwardDialog thread={thread} item={item} bounty={bounty} viewerId={viewerId} onClose={() => setOpen(false)} />
      ) : null}
    </>
  );
}

export const bountyPartUi = {
  type: 107 as const,
  label: 'threadParts.names.107',
  icon: 'reward' as const,
  Editor: BountyEditor,
  View: BountyView,
  fromView: (view: BountyPart | null): BountyDraft =>
    view ? { price: view.amount, expiredAt: view.expiredAt, type: view.type } : {},
  ready: (value: BountyDraft | undefined): boolean => {
    const cents = parseMoney(value?.price ?? '');
    return cents !== null && cents > 0 && Boolean(value?.expiredAt);
  },
};
