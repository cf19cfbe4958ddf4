import { parseMoney, OrderType, type OrderInfo } from '@luntan/shared';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { Button, Dialog, TextInput, toast } from '../ui';
import { createOrder } from './thread-money';
import './thread-money.css';

/** The amounts offered with one tap. */
export const REWARD_PRESETS = ['1.00', '5.00', '10.00'] as const;

/** Chooses a reward (a preset or another amount, optionally anonymous) and makes its order (type 2). */
export function RewardDialog({
  threadId,
  author,
  onOrder,
  onClose,
}: {
  threadId: number;
  author: string;
  onOrder: (order: OrderInfo) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [preset, setPreset] = useState<string | null>(REWARD_PRESETS[0]);
  const [custom, setCustom] = useState('');
  const [anonymous, setAnonymous] = useState(false);
  const [pending, setPending] = useState(false);
  const formId = useId();
  const amount = preset ?? custom;

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const cents = parseMoney(amount);
    if (cents === null || cents <= 0) {
      toast.warning(t('threadMoney.reward.badAmount'));
      return;
    }
    setPending(true);
    try {
      const order = await createOrder({ type: OrderType.REWARD, threadId, amount, isAnonymous: anonymous });
      if (order) onOrder(order);
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog
      open
      title={t('threadMoney.reward.title', { name: author })}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('threadMoney.cancel')}</Button>
          <Button type="primary" htmlType="submit" form={formId} loading={pending} data-testid="reward-next">
            {t('threadMoney.reward.next')}
          </Button>
        </>
      }
    >
      <form id={formId} className="lt-reward" onSubmit={(e) => void submit(e)} data-testid="reward-dialog">
        <div className="lt-reward__presets" role="radiogroup" aria-label={t('threadMoney.reward.amount')}>
          {REWARD_PRESETS.map((value) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={preset === value}
              className={`lt-reward__preset${preset === value ? ' lt-reward__preset--active' : ''}`}
              onClick={() => setPreset(value)}
            >
              ¥{value}
            </button>
          ))}
        </div>
        <TextInput
          label={t('threadMoney.reward.custom')}
          name="rewardAmount"
          mode="number"
          placeholder={t('threadMoney.reward.customPlaceholder')}
          value={custom}
          append="¥"
          appendWidth="32px"
          onFocus={() => setPreset(null)}
          onChange={(value) => {
            setCustom(value);
            setPreset(null);
          }}
        />
        <label className="lt-reward__check">
          <input type="checkbox" checked={anonymous} onChange={(e) => setAnonymous(e.target.checked)} />
          {t('threadMoney.reward.anonymous')}
        </label>
      </form>
    </Dialog>
  );
}
