import { useCallback, useState } from 'react';

/** Whether a submit is under way: `run` marks it pending until the work ends (however it ends). */
export function usePending(): { pending: boolean; run: <T>(work: () => Promise<T>) => Promise<T> } {
  const [pending, setPending] = useState(false);
  const run = useCallback(async <T>(work: () => Promise<T>): Promise<T> => {
    setPending(true);
    try {
      return await work();
    } finally {
      setPending(false);
    }
  }, []);
  return { pending, run };
}
