import {
  formatMoney,
  parseMoney,
  type CheckRedPacketResult,
  type RedPacketPart,
  type ThreadDetail,
} from '@luntan/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { isSuccess, type ApiResult } from '../../api/dispatcher';
import { useAppContext } from '../../app-context';
import { useForum } from '../../hooks/use-forum';
import { useTranslation } from '../../i18n/use-translation';
import { Avatar, Icon, TextInput } from '../ui';
import { UnpaidRedPacket, useOnlinePayment, useRedPacketOf } from './red-packet-pay';

// The registry's PartEditorProps / PartViewProps, written out here: registry.ts imports this file (no import circle).
interface PartEditorProps<B> {
  value: B | undefined;
  onChange: (value: B | undefined) => void;
  categoryId: number;
  threadId: number;
}
interface PartViewProps<V> {
  body: V;
  thread: ThreadDetail;
}

/** The red packet as the editor holds it (the body of part 106; amounts as typed, the server checks them). */
export interface RedPacketDraft {
  rule?: 0 | 1;
  condition?: 0 | 1;
  likenum?: number;
  number?: number;
  price?: string;
  content?: string;
  payPassword?: string;
  /** From the wallet now (the default), or online through the site's provider after posting. */
  payment?: 'wallet' | 'provider';
}

const toInt = (text: string): number | undefined => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : undefined);

function Choice<T extends number | string>({
  name,
  label,
  value,
  options,
  onChange,
}: {
  name: string;
  label: string;
  value: T;
  options: Array<{ value: T; text: string }>;
  onChange: (value: T) => void;
}) {
  return (
    <div className="lt-red-packet-editor__choice" role="radiogroup" aria-label={label}>
      <span className="lt-red-packet-editor__label">{label}</span>
      {options.map((o) => (
        <label key={o.value}>
          <input
            type="radio"
            name={name}
            value={o.value}
            checked={value === o.value}
            onChange={() => onChange(o.value)}
          />{' '}
          {o.text}
        </label>
      ))}
    </div>
  );
}

function RedPacketEditor({ value, onChange, threadId }: PartEditorProps<RedPacketDraft>) {
  const { t } = useTranslation();
  const v: RedPacketDraft = { rule: 0, condition: 0, ...value };
  const set = (patch: Partial<RedPacketDraft>) => onChange({ ...v, ...patch });
  const cents = parseMoney(v.price ?? '');
  const total = cents === null || !v.number ? null : v.rule === 0 ? cents * v.number : cents;
  // A red packet is paid once: afterwards it cannot be changed. One waiting for its order online still can.
  const stored = useRedPacketOf(threadId);
  const paid = stored !== null && !stored.unpaid;
  const onlineOffered = useOnlinePayment();
  const online = !paid && v.payment === 'provider';
  return (
    <div className="lt-red-packet-editor" data-testid="red-packet-editor">
      <Choice
        name="red-packet-rule"
        label={t('threadParts.redPacket.rule')}
        value={v.rule ?? 0}
        options={[
          { value: 0, text: t('threadParts.redPacket.equal') },
          { value: 1, text: t('threadParts.redPacket.random') },
        ]}
        onChange={(rule) => set({ rule })}
      />
      <TextInput
        label={t('threadParts.redPacket.number')}
        name="red-packet-number"
        mode="number"
        value={v.number === undefined ? '' : String(v.number)}
        disabled={paid}
        onChange={(text) => set({ number: toInt(text) })}
      />
      <TextInput
        label={t(v.rule === 0 ? 'threadParts.redPacket.each' : 'threadParts.redPacket.total')}
        name="red-packet-price"
        mode="number"
        placeholder="0.00"
        append="¥"
        appendWidth="32px"
        value={v.price ?? ''}
        disabled={paid}
        onChange={(text) => set({ price: text })}
      />
      <Choice
        name="red-packet-condition"
        label={t('threadParts.redPacket.condition')}
        value={v.condition ?? 0}
        options={[
          { value: 0, text: t('threadParts.redPacket.byReply') },
          { value: 1, text: t('threadParts.redPacket.byLikes') },
        ]}
        onChange={(condition) => set({ condition })}
      />
      {v.condition === 1 ? (
        <TextInput
          label={t('threadParts.redPacket.likenum')}
          name="red-packet-likenum"
          mode="number"
          value={v.likenum === undefined ? '' : String(v.likenum)}
          onChange={(text) => set({ likenum: toInt(text) })}
        />
      ) : null}
      <TextInput
        label={t('threadParts.redPacket.password')}
        name="red-packet-content"
        placeholder={t('threadParts.redPacket.passwordHint')}
        maxLength={50}
        value={v.content ?? ''}
        onChange={(text) => set({ content: text })}
      />
      {!paid && (onlineOffered || online) ? (
        <Choice
          name="red-packet-payment"
          label={t('threadParts.redPacket.payment')}
          value={v.payment ?? 'wallet'}
          options={[
            { value: 'wallet', text: t('threadParts.redPacket.payWallet') },
            { value: 'provider', text: t('threadParts.redPacket.payProvider') },
          ]}
          onChange={(payment) => set({ payment })}
        />
      ) : null}
      {paid || online ? null : (
        <TextInput
          label={t('threadParts.redPacket.payPassword')}
          name="red-packet-pay-password"
          mode="password"
          maxLength={6}
          autoComplete="off"
          value={v.payPassword ?? ''}
          onChange={(text) => set({ payPassword: text })}
        />
      )}
      <p className="lt-red-packet-editor__total" data-testid="red-packet-total">
        {t(online ? 'threadParts.redPacket.payOnline' : 'threadParts.redPacket.pay', {
          amount: total === null ? '0.00' : formatMoney(total),
        })}
      </p>
    </div>
  );
}

/** Whether the viewer got a packet; asked again every few seconds after a reply until the answer comes. */
function useMyPacket(threadId: number, enabled: boolean) {
  const { api } = useAppContext();
  return useQuery({
    queryKey: ['thread', threadId, 'redpacket'] as const,
    queryFn: (): Promise<ApiResult<CheckRedPacketResult>> =>
      api.get<CheckRedPacketResult>('/api/v3/check.user.get.redpacket', { threadId }, { handleError: false }),
    enabled,
    refetchInterval: (query) => {
      const data = query.state.data;
      return data && isSuccess(data) && data.Data.status ? false : 4000;
    },
  });
}

function RedPacketView({ body, thread }: PartViewProps<RedPacketPart>) {
  const { t } = useTranslation();
  const { forum } = useForum();
  const queryClient = useQueryClient();
  const viewerId = forum?.user?.userId;
  const mayGet =
    viewerId !== undefined && viewerId !== thread.user.userId && !body.mine && !body.isDone && !body.unpaid;
  const check = useMyPacket(thread.threadId, mayGet);
  const got = check.data && isSuccess(check.data) && check.data.Data.status ? check.data.Data : null;
  useEffect(() => {
    if (got && !body.mine) void queryClient.invalidateQueries({ queryKey: ['thread', thread.threadId], exact: true });
  }, [got, body.mine, queryClient, thread.threadId]);
  const mine = body.mine?.amount ?? got?.amount;
  const hint =
    body.condition === 1
      ? t('threadParts.redPacket.hintLikes', { count: body.likenum })
      : t('threadParts.redPacket.hintReply');
  return (
    <section className="lt-red-packet" data-testid="red-packet-card" aria-label={t('threadParts.names.106' as never)}>
      <header className="lt-red-packet__head">
        <Icon name="redPacket" />
        <span className="lt-red-packet__title">{t('threadParts.names.106' as never)}</span>
        <span className="lt-red-packet__rule">
          {t(body.rule === 0 ? 'threadParts.redPacket.equal' : 'threadParts.redPacket.random')}
        </span>
      </header>
      <p className="lt-red-packet__left" data-testid="red-packet-left">
        {t('threadParts.redPacket.left', {
          remain: body.remainNumber,
          number: body.number,
          remainMoney: body.remainMoney,
          money: body.money,
        })}
      </p>
      {body.unpaid ? (
        <UnpaidRedPacket body={body} thread={thread} />
      ) : mine ? (
        <p className="lt-red-packet__mine" data-testid="red-packet-mine">
          {t('threadParts.redPacket.mine', { amount: mine })}
        </p>
      ) : body.isExpired ? (
        <p className="lt-red-packet__state">{t('threadParts.redPacket.expired')}</p>
      ) : body.isDone ? (
        <p className="lt-red-packet__state">{t('threadParts.redPacket.done')}</p>
      ) : (
        <p className="lt-red-packet__hint" data-testid="red-packet-hint">
          {hint}
          {body.content ? ` ${t('threadParts.redPacket.withPassword', { password: body.content })}` : ''}
        </p>
      )}
      {body.receivers.length > 0 ? (
        <ul className="lt-red-packet__receivers" data-testid="red-packet-receivers">
          {body.receivers.map((r) => (
            <li key={r.userId}>
              <Avatar size="small" image={r.avatar} text={r.nickname} />
              <span className="lt-red-packet__name">{r.nickname}</span>
              <span className="lt-red-packet__amount">¥{r.amount}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

export const redPacketPartUi = {
  type: 106 as const,
  label: 'threadParts.names.106',
  icon: 'redPacket' as const,
  Editor: RedPacketEditor,
  View: RedPacketView,
  fromView: (view: RedPacketPart): RedPacketDraft => ({
    rule: view.rule === 1 ? 1 : 0,
    condition: view.condition === 1 ? 1 : 0,
    number: view.number,
    price: view.price,
    ...(view.condition === 1 ? { likenum: view.likenum } : {}),
    ...(view.content ? { content: view.content } : {}),
    // Not paid yet: sent again as it is, it keeps (or renews) its order.
    ...(view.unpaid ? { payment: 'provider' as const } : {}),
  }),
  ready: (value: RedPacketDraft | undefined): boolean => {
    const cents = parseMoney(value?.price ?? '');
    return Boolean(
      value?.number &&
      value.number >= 1 &&
      cents !== null &&
      cents > 0 &&
      (value.condition !== 1 || (value.likenum ?? 0) >= 1),
    );
  },
};
