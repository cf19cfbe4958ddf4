import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Button } from './button';
import { TextInput } from './text-input';
import './dialog.css';

export interface DialogProps {
  /** Shown while true (a modal: the page behind is inert). */
  open: boolean;
  /** The dialog's name, as a heading. */
  title: string;
  /** Escape, a click on the backdrop, or the caller's own cancel button. */
  onClose: () => void;
  children: ReactNode;
  /** The buttons, at the bottom right. */
  footer?: ReactNode;
  /** An extra class on the `<dialog>` (a wider dialog for a long form). */
  className?: string;
}

/**
 * A modal dialog on the native `<dialog>` element: the browser keeps focus inside it, makes the page behind inert
 * and closes it on Escape; focus returns to where it was. Rendered into the body, so that no table or card styles
 * reach it, and only while open (nothing in the server's HTML).
 */
export function Dialog({ open, title, onClose, children, footer, className }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!open || !dialog) return;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.showModal();
    return () => {
      dialog.close();
      if (before?.isConnected) before.focus();
    };
  }, [open]);

  if (!open || typeof document === 'undefined') return null;
  return createPortal(
    <dialog
      ref={ref}
      className={className ? `lt-dialog ${className}` : 'lt-dialog'}
      aria-labelledby={titleId}
      onCancel={(event) => {
        // Escape: the caller decides (and its state says closed), rather than the browser closing it behind React.
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        // The dialog itself, not its content, is under the pointer only on the backdrop.
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="lt-dialog__content">
        <h2 id={titleId} className="lt-dialog__title">
          {title}
        </h2>
        {children}
        {footer ? <div className="lt-dialog__footer">{footer}</div> : null}
      </div>
    </dialog>,
    document.body,
  );
}

export interface PromptDialogProps {
  open: boolean;
  title: string;
  /** The field's label. */
  label: string;
  confirmText: string;
  cancelText: string;
  /** A red confirm button, for actions against someone (ban, reject). */
  danger?: boolean;
  maxLength?: number;
  placeholder?: string;
  /** Closes the dialog when it resolves (the caller's state), or leaves it open to try again. */
  onConfirm: (value: string) => Promise<void> | void;
  onCancel: () => void;
}

/**
 * Asks for one line of text (a reason), in place of `window.prompt`. The field is the dialog's first control, so it
 * has the focus on opening; Enter confirms, Escape cancels.
 */
export function PromptDialog({
  open,
  title,
  label,
  confirmText,
  cancelText,
  danger = false,
  maxLength,
  placeholder,
  onConfirm,
  onCancel,
}: PromptDialogProps) {
  const [value, setValue] = useState('');
  const [pending, setPending] = useState(false);
  const formId = useId();
  useEffect(() => {
    if (open) setValue('');
  }, [open]);

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    try {
      await onConfirm(value.trim());
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog
      open={open}
      title={title}
      onClose={onCancel}
      footer={
        <>
          <Button onClick={onCancel}>{cancelText}</Button>
          <Button type={danger ? 'danger' : 'primary'} htmlType="submit" form={formId} loading={pending}>
            {confirmText}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={(event) => void submit(event)}>
        <TextInput
          label={label}
          value={value}
          onChange={setValue}
          maxLength={maxLength}
          showLimit={maxLength !== undefined}
          placeholder={placeholder}
        />
      </form>
    </Dialog>
  );
}
