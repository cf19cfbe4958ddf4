import { useCallback, useRef, useState, type ReactNode } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';

export interface ConfirmOptions {
  title: string;
  /** The question, saying what will happen. */
  message: ReactNode;
  confirmText: string;
  cancelText: string;
  /** A red confirm button, for what cannot be undone (deleting). */
  danger?: boolean;
}

/**
 * The site's dialog in place of `window.confirm`: `confirm(options)` opens it and resolves true when the confirm
 * button is pressed, false on cancel, Escape or a click on the backdrop. Render `dialog` anywhere in the caller.
 */
export function useConfirm(): { confirm: (options: ConfirmOptions) => Promise<boolean>; dialog: ReactNode } {
  const [asking, setAsking] = useState<ConfirmOptions | null>(null);
  const answer = useRef<((ok: boolean) => void) | null>(null);

  const settle = useCallback((ok: boolean) => {
    answer.current?.(ok);
    answer.current = null;
    setAsking(null);
  }, []);

  const confirm = useCallback(
    (options: ConfirmOptions) =>
      new Promise<boolean>((resolve) => {
        // A second question while one is open answers the first one "no".
        answer.current?.(false);
        answer.current = resolve;
        setAsking(options);
      }),
    [],
  );

  const dialog = (
    <Dialog
      open={asking !== null}
      title={asking?.title ?? ''}
      onClose={() => settle(false)}
      footer={
        <>
          <Button onClick={() => settle(false)} data-testid="confirm-cancel">
            {asking?.cancelText}
          </Button>
          <Button type={asking?.danger ? 'danger' : 'primary'} onClick={() => settle(true)} data-testid="confirm-ok">
            {asking?.confirmText}
          </Button>
        </>
      }
    >
      <p className="lt-dialog__message">{asking?.message}</p>
    </Dialog>
  );
  return { confirm, dialog };
}
