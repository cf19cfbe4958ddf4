import { OrderStatus, PayType, type OrderInfo, type TradePayResult } from '@luntan/shared';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { isSuccess, request } from '../../api/dispatcher';
import { orderDetailQuery } from '../../api/money-queries';
import { useAppContext } from '../../app-context';
import { useViewer } from '../../hooks/use-forum';
import type { Platform } from '../../platform/platform';
import { orderStatusLabel } from './money-format';
import { endpoints } from '../../api/endpoints';

/** How often a shown QR code asks whether its order was paid. */
export const PAY_POLL_MS = 2_000;

/**
 * The providers to offer on this layout: the server lists the types it takes; WeChat and Alipay each have a desktop
 * and a phone flavour, of which the one for this layout is shown (the other only when it is the only one).
 */
export function providerChoices(types: readonly number[], platform: Platform): number[] {
  const prefer = (desktop: number, mobile: number): number | null => {
    const hasDesktop = types.includes(desktop);
    const hasMobile = types.includes(mobile);
    if (hasDesktop && hasMobile) return platform === 'h5' ? mobile : desktop;
    return hasDesktop ? desktop : hasMobile ? mobile : null;
  };
  const out: number[] = [];
  const wechat = prefer(PayType.WXPAY_NATIVE, PayType.WXPAY_H5);
  const alipay = prefer(PayType.ALIPAY_PAGE, PayType.ALIPAY_WAP);
  if (wechat !== null) out.push(wechat);
  if (alipay !== null) out.push(alipay);
  if (types.includes(PayType.SANDBOX)) out.push(PayType.SANDBOX);
  return out;
}

/** Goes to a provider's page (a full page load: it is another site, or the sandbox checkout). */
export function openPayUrl(url: string): void {
  window.location.assign(url);
}

export interface ProviderPay {
  /** The text of the QR code to show, while one is. */
  qrCode: string | null;
  /** On the way to the provider's page. */
  redirecting: boolean;
  /** The server's refusal, or what became of the order (failed, expired). */
  error: string;
  pending: boolean;
  /** Starts paying an order through a provider; `returnPath` is where its page sends the payer back. */
  start: (orderSn: string, paymentType: number, returnPath: string) => Promise<void>;
  reset: () => void;
}

/**
 * Paying through a provider (POST /api/v3/trade/pay/order): a `payUrl` is opened, a `qrCode` is shown and its order
 * asked about every 2 s until it is paid (then `onPaid`), or failed or expired (then said).
 */
export function useProviderPay(onPaid: (order: OrderInfo) => void): ProviderPay {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const viewerId = useViewer()?.userId ?? 0;
  const [qr, setQr] = useState<{ orderSn: string; text: string } | null>(null);
  const [redirecting, setRedirecting] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState('');
  const paidOnce = useRef<string | null>(null);
  const onPaidRef = useRef(onPaid);
  onPaidRef.current = onPaid;

  const polled = useQuery({
    ...orderDetailQuery(api, viewerId, qr?.orderSn ?? ''),
    enabled: qr !== null,
    refetchInterval: PAY_POLL_MS,
    refetchIntervalInBackground: true,
    staleTime: 0,
  }).data;

  useEffect(() => {
    if (!qr || !polled || !isSuccess(polled) || polled.Data.orderSn !== qr.orderSn) return;
    const order = polled.Data;
    if (order.status === OrderStatus.PAID) {
      if (paidOnce.current === order.orderSn) return;
      paidOnce.current = order.orderSn;
      setQr(null);
      onPaidRef.current(order);
    } else if (order.status !== OrderStatus.PENDING) {
      setQr(null);
      setError(t('money.pay.notPending', { status: orderStatusLabel(t, order.status) }));
    }
  }, [polled, qr, t]);

  const start = useCallback(async (orderSn: string, paymentType: number, returnPath: string): Promise<void> => {
    setPending(true);
    setError('');
    try {
      const result = await request<TradePayResult>({
        url: endpoints.pay.order,
        method: 'POST',
        // Where the provider's page (the sandbox checkout) sends the payer back: a same-site path.
        data: { orderSn, paymentType, returnPath },
      });
      if (!isSuccess(result)) {
        setError(result.Message);
        return;
      }
      const answer = result.Data;
      if (answer.payUrl) {
        setRedirecting(true);
        openPayUrl(answer.payUrl);
      } else if (answer.qrCode) {
        setQr({ orderSn, text: answer.qrCode });
      } else if (answer.status === OrderStatus.PAID) {
        setQr({ orderSn, text: '' });
      }
    } finally {
      setPending(false);
    }
  }, []);

  const reset = useCallback(() => {
    setQr(null);
    setError('');
    setRedirecting(false);
  }, []);

  return { qrCode: qr?.text || null, redirecting, error, pending, start, reset };
}
