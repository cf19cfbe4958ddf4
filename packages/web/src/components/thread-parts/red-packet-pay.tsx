import { OrderStatus, type OrderInfo, type RedPacketPart, type ThreadDetail } from '@luntan/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { isSuccess } from '../../api/dispatcher';
import { threadDetailQuery } from '../../api/forum-queries';
import { payMethodsQuery } from '../../api/money-queries';
import { useAppContext } from '../../app-context';
import { useTranslation } from '../../i18n/use-translation';
import { usePlatform } from '../../platform/platform-context';
import { LazyPayDialog } from '../money/lazy-pay-dialog';
import { providerChoices } from '../money/provider-pay';
import { Button, Spinner } from '../ui';

/*
 * A red packet paid through one of the site's providers (payment 'provider', an order of type 9): the thread waits as
 * its author's draft until the order is paid, then the server publishes it (docs/thread-parts.md). Here: whether the
 * site takes such payments, the pay dialog after posting, and the unpaid red packet on its thread page.
 */

/** Whether the site takes a provider's payment on this layout (the editor offers "pay online" only then). */
export function useOnlinePayment(): boolean {
  const { api } = useAppContext();
  const platform = usePlatform();
  const methods = useQuery(payMethodsQuery(api, platform)).data;
  return methods !== undefined && isSuccess(methods) && providerChoices(methods.Data.types, platform).length > 0;
}

/** The red packet of a thread being edited, as thread.detail answered it (null for a new thread or none). */
export function useRedPacketOf(threadId: number): RedPacketPart | null {
  const { api } = useAppContext();
  const detail = useQuery({ ...threadDetailQuery(api, threadId), enabled: threadId > 0 }).data;
  if (!detail || !isSuccess(detail)) return null;
  return (detail.Data.content.indexes['106']?.body as RedPacketPart | undefined) ?? null;
}

const payableOrder = (body: RedPacketPart | undefined): OrderInfo | null =>
  body?.unpaid && body.order?.status === OrderStatus.PENDING ? body.order : null;

/**
 * After posting: a thread whose red packet waits for its order opens the pay dialog (providers only) instead of the
 * thread; paid or closed, `onDone` goes on to the thread (its author reads the draft there, with a pay button).
 * `start(answer)` answers whether it took over.
 */
export function useRedPacketCheckout(onDone: (threadId: number) => void): {
  start: (thread: ThreadDetail) => boolean;
  dialog: ReactNode;
} {
  const [pending, setPending] = useState<{ threadId: number; title: string; order: OrderInfo } | null>(null);
  const start = (thread: ThreadDetail): boolean => {
    const order = payableOrder(thread.content.indexes['106']?.body as RedPacketPart | undefined);
    if (!order) return false;
    setPending({ threadId: thread.threadId, title: thread.title, order });
    return true;
  };
  const finish = (): void => {
    if (!pending) return;
    setPending(null);
    onDone(pending.threadId);
  };
  const dialog = (
    <LazyPayDialog
      open={pending !== null}
      order={pending?.order ?? null}
      providersOnly
      title={pending?.title}
      returnPath={pending ? `/thread/${pending.threadId}` : undefined}
      onPaid={finish}
      onClose={finish}
    />
  );
  return { start, dialog };
}

/**
 * A red packet waiting for its order, on its thread (a draft: only its author sees it): a button to pay it, or, when
 * its order lapsed, the way to a new one (publishing the draft again). Once paid, the thread is asked for again
 * until the server has published it.
 */
export function UnpaidRedPacket({ body, thread }: { body: RedPacketPart; thread: ThreadDetail }) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [paidHere, setPaidHere] = useState(false);
  const order = body.order;
  const settling = paidHere || order?.status === OrderStatus.PAID;
  useQuery({ ...threadDetailQuery(api, thread.threadId), enabled: settling, refetchInterval: 2000 });
  const payable = payableOrder(body);
  return (
    <div className="lt-red-packet__unpaid" data-testid="red-packet-unpaid">
      <p className="lt-red-packet__state">{t('threadParts.redPacket.unpaid')}</p>
      {settling ? (
        <Spinner size={16} />
      ) : payable ? (
        <Button type="primary" size="small" onClick={() => setOpen(true)} data-testid="red-packet-pay">
          {t('threadParts.redPacket.payNow')}
        </Button>
      ) : order ? (
        <p className="lt-red-packet__state">
          {t('threadParts.redPacket.orderLapsed')}{' '}
          <Link to={`/thread/post?threadId=${thread.threadId}`}>{t('threadParts.redPacket.edit')}</Link>
        </p>
      ) : null}
      <LazyPayDialog
        open={open}
        order={payable}
        providersOnly
        title={thread.title}
        returnPath={`/thread/${thread.threadId}`}
        onClose={() => setOpen(false)}
        onPaid={() => {
          setOpen(false);
          setPaidHere(true);
          void queryClient.invalidateQueries({ queryKey: ['thread', thread.threadId] });
        }}
      />
    </div>
  );
}
