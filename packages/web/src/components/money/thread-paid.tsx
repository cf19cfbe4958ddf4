import { OrderType, type OrderInfo, type ThreadDetail } from '@luntan/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { useNavigate } from 'react-router';
import { useViewer } from '../../hooks/use-forum';
import { authorOf, UserAvatar } from '../people/user-hover-card';
import { Avatar, Button, Icon } from '../ui';
import { LazyPayDialog as PayDialog } from './lazy-pay-dialog';
import { RewardDialog } from './reward-dialog';
import {
  createOrder,
  isLocked,
  PAYERS_BUYERS,
  PAYERS_REWARDERS,
  useThreadPayers,
  type ThreadMoney,
} from './thread-money';
import './thread-money.css';

// Kept in its own module so lists of threads (the home page) do not load the paywall and the reward dialog.
export { PriceTag } from './price-tag';

type MoneyThread = ThreadDetail & ThreadMoney;

/** After paying: the thread (whole now), its buyers and rewarders, and the wallet are read again. */
function useAfterPaid(threadId: number): () => Promise<void> {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['thread', threadId] }),
      queryClient.invalidateQueries({ queryKey: ['posts', threadId] }),
      queryClient.invalidateQueries({ queryKey: ['wallet'] }),
      queryClient.invalidateQueries({ queryKey: ['threads'], refetchType: 'none' }),
    ]);
  };
}

/** Under the free part of a thread the viewer has not bought: what the rest costs, and the button to buy it. */
export function Paywall({ thread }: { thread: MoneyThread }) {
  const { t } = useTranslation();
  const viewer = useViewer();
  const navigate = useNavigate();
  const afterPaid = useAfterPaid(thread.threadId);
  const [order, setOrder] = useState<OrderInfo | null>(null);
  const [pending, setPending] = useState(false);
  if (!isLocked(thread)) return null;

  const buy = async (): Promise<void> => {
    if (!viewer) {
      await navigate('/user/login');
      return;
    }
    setPending(true);
    try {
      const created = await createOrder({ type: OrderType.THREAD, threadId: thread.threadId });
      if (created) setOrder(created);
    } finally {
      setPending(false);
    }
  };

  return (
    <div className="lt-paywall" data-testid="paywall">
      <Icon name="wallet" size={28} />
      <p className="lt-paywall__text">{t('threadMoney.thread.rest', { amount: thread.price })}</p>
      <Button type="primary" onClick={() => void buy()} loading={pending} data-testid="paywall-buy">
        {viewer ? t('threadMoney.thread.buy', { amount: thread.price }) : t('threadMoney.thread.loginToBuy')}
      </Button>
      <PayDialog
        open={order !== null}
        order={order}
        onClose={() => setOrder(null)}
        onPaid={() => {
          setOrder(null);
          void afterPaid();
        }}
      />
    </div>
  );
}

/** The reward button, for signed-in members other than the author. */
export function RewardButton({ thread }: { thread: MoneyThread }) {
  const { t } = useTranslation();
  const viewer = useViewer();
  const afterPaid = useAfterPaid(thread.threadId);
  const [step, setStep] = useState<'closed' | 'amount' | 'pay'>('closed');
  const [order, setOrder] = useState<OrderInfo | null>(null);
  if (!viewer || viewer.userId === thread.user.userId) return null;
  return (
    <>
      <button
        type="button"
        className="lt-action lt-action--reward"
        onClick={() => setStep('amount')}
        data-testid="thread-reward"
      >
        <Icon name="wallet" />
        <span>{t('threadMoney.reward.button')}</span>
      </button>
      {step === 'amount' ? (
        <RewardDialog
          threadId={thread.threadId}
          author={thread.user.nickname}
          onClose={() => setStep('closed')}
          onOrder={(created) => {
            setOrder(created);
            setStep('pay');
          }}
        />
      ) : null}
      <PayDialog
        open={step === 'pay' && order !== null}
        order={order}
        onClose={() => setStep('closed')}
        onPaid={() => {
          setStep('closed');
          void afterPaid();
        }}
      />
    </>
  );
}

function PayerRow({ threadId, type, count, label }: { threadId: number; type: number; count: number; label: string }) {
  const { users, total } = useThreadPayers(threadId, type, count > 0);
  if (count <= 0) return null;
  return (
    <div className="lt-payers" data-testid={type === PAYERS_BUYERS ? 'thread-buyers' : 'thread-rewarders'}>
      <span className="lt-payers__label">{label}</span>
      <span className="lt-payers__avatars">
        {users.slice(0, 12).map((user, index) =>
          user.userId === null ? (
            <span key={`anonymous:${index}`} title={user.nickname}>
              <Avatar text={user.nickname} alt={user.nickname} size="small" circle />
            </span>
          ) : (
            <UserAvatar
              key={`${user.userId}:${index}`}
              user={authorOf({ ...user, userId: user.userId })}
              size="small"
            />
          ),
        )}
        {Math.max(total, count) > 12 ? <span className="lt-payers__more">+{Math.max(total, count) - 12}</span> : null}
      </span>
    </div>
  );
}

/** Who bought the thread and who rewarded it (the server's counts; avatars from thread.paidusers). */
export function ThreadSupporters({ thread }: { thread: MoneyThread }) {
  const { t } = useTranslation();
  const bought = thread.paidCount ?? 0;
  const rewarded = thread.rewardedCount ?? 0;
  if (bought <= 0 && rewarded <= 0) return null;
  return (
    <div className="lt-supporters">
      <PayerRow
        threadId={thread.threadId}
        type={PAYERS_BUYERS}
        count={bought}
        label={t('threadMoney.thread.buyers', { count: bought })}
      />
      <PayerRow
        threadId={thread.threadId}
        type={PAYERS_REWARDERS}
        count={rewarded}
        label={t('threadMoney.reward.rewarders', { count: rewarded, amount: thread.rewardedAmount ?? '0.00' })}
      />
    </div>
  );
}
