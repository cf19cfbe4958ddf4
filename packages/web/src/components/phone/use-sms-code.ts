import { Code, type SmsSendData, type SmsType } from '@luntan/shared';
import { useCallback, useEffect, useState } from 'react';
import { isSuccess, request } from '../../api/dispatcher';
import { toast } from '../ui';
import { endpoints } from '../../api/endpoints';

/** The countdown before another code may be asked for, when the server names none. */
export const SMS_COUNTDOWN_SECONDS = 60;

/**
 * Asking for an SMS code: `send` posts users/sms.send, toasts the server's sentence on failure, and starts the
 * countdown (the server's interval, or Retry-After when it said to wait). `seconds` is what is left of it.
 */
export function useSmsCode(type: SmsType): {
  seconds: number;
  sending: boolean;
  send: (mobile?: string) => Promise<boolean>;
} {
  const [seconds, setSeconds] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (seconds <= 0) return;
    const timer = setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [seconds]);

  const send = useCallback(
    async (mobile?: string): Promise<boolean> => {
      setSending(true);
      try {
        const result = await request<SmsSendData>({
          url: endpoints.sms.send,
          method: 'POST',
          data: mobile === undefined ? { type } : { mobile, type },
        });
        if (isSuccess(result)) {
          setSeconds(result.Data.interval > 0 ? result.Data.interval : SMS_COUNTDOWN_SECONDS);
          return true;
        }
        toast.error(result.Message);
        if (result.Code === Code.TOO_MANY_REQUESTS) {
          const wait = (result as { Data?: { retryAfter?: number } }).Data?.retryAfter;
          if (typeof wait === 'number' && wait <= SMS_COUNTDOWN_SECONDS) setSeconds(wait);
        }
        return false;
      } finally {
        setSending(false);
      }
    },
    [type],
  );

  return { seconds, sending, send };
}
