import { DROPDOWN_CLOSE_DELAY_MS, DROPDOWN_OPEN_DELAY_MS } from '@luntan/shared';
import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import './dropdown.css';

export type DropdownTrigger = 'hover' | 'click';
export type DropdownPlacement = 'center' | 'left' | 'right';

export interface DropdownProps {
  /** The popup's content; a function receives `close`. */
  menu: ReactNode | ((close: () => void) => ReactNode);
  /** What the visitor points at or clicks. Rendered inside a button. */
  children: ReactNode;
  /** Default 'hover'. */
  trigger?: DropdownTrigger;
  /** Default 'center' (under the middle of the trigger). */
  placement?: DropdownPlacement;
  /** Accessible name of the trigger button. */
  label?: string;
  disabled?: boolean;
  onVisibleChange?: (visible: boolean) => void;
  className?: string;
  style?: CSSProperties;
  triggerClassName?: string;
}

/**
 * Hover: opens 250 ms after the pointer enters, closes 150 ms after it leaves (the popup counts as inside), so
 * crossing the gap does not flicker. Click: toggles. Keyboard: Enter/Space open (also in hover mode), Escape closes
 * and returns focus to the trigger.
 */
export function Dropdown({
  menu,
  children,
  trigger = 'hover',
  placement = 'center',
  label,
  disabled = false,
  onVisibleChange,
  className,
  style,
  triggerClassName,
}: DropdownProps) {
  const [visible, setVisible] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const popupId = useId();

  const clearTimer = (): void => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  };

  const change = useCallback(
    (next: boolean) => {
      setVisible((previous) => {
        if (previous !== next) onVisibleChange?.(next);
        return next;
      });
    },
    [onVisibleChange],
  );

  const close = useCallback(() => {
    clearTimer();
    change(false);
  }, [change]);

  useEffect(() => clearTimer, []);

  // Click mode (and a keyboard-opened hover dropdown): a press outside closes.
  useEffect(() => {
    if (!visible) return;
    const onPointerDown = (event: Event): void => {
      if (root.current && !root.current.contains(event.target as Node)) close();
    };
    document.addEventListener('mousedown', onPointerDown);
    document.addEventListener('touchstart', onPointerDown);
    return () => {
      document.removeEventListener('mousedown', onPointerDown);
      document.removeEventListener('touchstart', onPointerDown);
    };
  }, [visible, close]);

  const onMouseEnter = (): void => {
    if (trigger !== 'hover' || disabled) return;
    clearTimer();
    timer.current = setTimeout(() => change(true), DROPDOWN_OPEN_DELAY_MS);
  };
  const onMouseLeave = (): void => {
    if (trigger !== 'hover' || disabled) return;
    clearTimer();
    timer.current = setTimeout(() => change(false), DROPDOWN_CLOSE_DELAY_MS);
  };
  const onClick = (): void => {
    if (disabled) return;
    clearTimer();
    if (trigger === 'click') change(!visible);
    else change(true);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.key === 'Escape' && visible) {
      event.stopPropagation();
      close();
      button.current?.focus();
    }
    if (event.key === 'ArrowDown' && !visible && event.target === button.current) {
      event.preventDefault();
      change(true);
    }
  };

  return (
    <div
      ref={root}
      className={['lt-dropdown', visible ? 'lt-dropdown--open' : '', className ?? ''].filter(Boolean).join(' ')}
      style={style}
      onMouseEnter={onMouseEnter}
      onMouseLeave={onMouseLeave}
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        // Focus moving out of the whole dropdown closes it.
        if (visible && root.current && !root.current.contains(event.relatedTarget as Node | null)) {
          if (event.relatedTarget) close();
        }
      }}
      data-trigger={trigger}
      data-placement={placement}
    >
      <button
        ref={button}
        type="button"
        className={['lt-dropdown__trigger', triggerClassName ?? ''].filter(Boolean).join(' ')}
        aria-haspopup="menu"
        aria-expanded={visible}
        aria-controls={visible ? popupId : undefined}
        aria-label={label}
        disabled={disabled}
        onClick={onClick}
      >
        {children}
      </button>
      {visible ? (
        <div
          id={popupId}
          className={`lt-dropdown__popup lt-dropdown__popup--${placement}`}
          data-testid="dropdown-popup"
        >
          {typeof menu === 'function' ? menu(close) : menu}
        </div>
      ) : null}
    </div>
  );
}
