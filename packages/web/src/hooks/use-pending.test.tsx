import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { usePending } from './use-pending';

describe('usePending', () => {
  it('is pending while the work runs, and not after it succeeds or fails', async () => {
    const { result } = renderHook(() => usePending());
    expect(result.current.pending).toBe(false);

    let finish!: (value: string) => void;
    let answer: Promise<string> | undefined;
    act(() => {
      answer = result.current.run(() => new Promise<string>((resolve) => (finish = resolve)));
    });
    expect(result.current.pending).toBe(true);
    await act(async () => {
      finish('done');
      await expect(answer).resolves.toBe('done');
    });
    expect(result.current.pending).toBe(false);

    let failing: Promise<unknown> | undefined;
    act(() => {
      failing = result.current.run(() => Promise.reject(new Error('refused')));
    });
    await act(async () => {
      await expect(failing).rejects.toThrow('refused');
    });
    expect(result.current.pending).toBe(false);
  });
});
