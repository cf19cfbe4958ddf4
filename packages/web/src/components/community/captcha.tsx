import type { CaptchaChallenge } from '@luntan/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { isSuccess, request } from '../../api/dispatcher';
import { Icon, Spinner } from '../ui';
import './community.css';
import { endpoints } from '../../api/endpoints';

type State = 'idle' | 'solving' | 'ready' | 'failed';

/**
 * Asks the server for a challenge and solves it in the browser (ALTCHA v2 proof of work with Web Crypto). The solver
 * is loaded only here, the first time a page needs a captcha.
 */
async function solveCaptcha(): Promise<string | null> {
  const result = await request<CaptchaChallenge>({ url: endpoints.captcha.challenge, handleError: false });
  if (!isSuccess(result)) return null;
  const [{ solveChallenge }, { deriveKey }] = await Promise.all([
    import('altcha-lib'),
    import('altcha-lib/algorithms/web/sha'),
  ]);
  const solution = await solveChallenge({ challenge: result.Data, deriveKey });
  if (!solution) return null;
  return btoa(JSON.stringify({ challenge: result.Data, solution }));
}

/**
 * The captcha of a form: while `active`, a solution is worked out at once (and again after each use, since one
 * works once); `take()` gives the solution for the call (waiting for it when needed). `element` shows the state.
 */
export function useCaptcha(active: boolean) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>('idle');
  const pending = useRef<Promise<string | null> | null>(null);

  const start = useCallback(() => {
    setState('solving');
    const job = solveCaptcha().catch((error: unknown) => {
      console.error(error);
      return null;
    });
    pending.current = job;
    void job.then((payload) => {
      if (pending.current === job) setState(payload ? 'ready' : 'failed');
    });
  }, []);

  useEffect(() => {
    if (active && !pending.current) start();
  }, [active, start]);

  const take = useCallback(async (): Promise<string | undefined> => {
    if (!active) return undefined;
    const payload = (await pending.current) ?? null;
    start();
    return payload ?? undefined;
  }, [active, start]);

  const element = active ? (
    <div className={`lt-captcha lt-captcha--${state}`} role="status" data-testid="captcha" data-state={state}>
      {state === 'ready' ? <Icon name="success" size={18} /> : null}
      {state === 'failed' ? <Icon name="error" size={18} /> : null}
      {state === 'solving' || state === 'idle' ? <Spinner size={16} /> : null}
      <span className="lt-captcha__label">{t('community.captcha.label')}</span>
      <span>
        {state === 'ready'
          ? t('community.captcha.ready')
          : state === 'failed'
            ? t('community.captcha.failed')
            : t('community.captcha.solving')}
      </span>
      {state === 'failed' ? (
        <button type="button" className="lt-captcha__retry" onClick={start}>
          {t('community.captcha.retry')}
        </button>
      ) : null}
    </div>
  ) : null;

  return { take, element };
}

/** Whether a failed call asks for a captcha (-4001 with Data.field captcha). */
export function asksForCaptcha(result: { Code: number; Data: unknown }): boolean {
  const data = result.Data as { field?: unknown } | null;
  return result.Code === -4001 && typeof data === 'object' && data !== null && data.field === 'captcha';
}
