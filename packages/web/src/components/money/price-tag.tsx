import { useTranslation } from '../../i18n/use-translation';
import { priceCents, type ThreadMoney } from './thread-money';
import './thread-money.css';

/** A paid thread's price, beside its title. */
export function PriceTag({ thread }: { thread: ThreadMoney }) {
  const { t } = useTranslation();
  if (priceCents(thread) <= 0) return null;
  return (
    <span className="lt-tag lt-tag--price" data-testid="thread-price">
      {t('threadMoney.thread.priceTag', { amount: thread.price })}
    </span>
  );
}
