import { TOAST_DEFAULT_DURATION_MS } from '@luntan/shared';
import { useSyncExternalStore, type CSSProperties, type ReactNode } from 'react';
import { Icon, type IconName } from './icon';
import './toast.css';

export type ToastType = 'info' | 'success' | 'warning' | 'error' | 'loading';
export type ToastPosition = 'top' | 'center' | 'bottom';

/** The spec's toast options. */
export interface ToastOptions {
  type?: ToastType;
  /** Replaces the type's icon; `null` shows none. */
  icon?: ReactNode;
  content: ReactNode;
  /** Milliseconds shown before fading out; default 1500. 0 keeps it until hidden or replaced. */
  duration?: number;
  /** Covers the page and blocks clicks while shown. */
  hasMask?: boolean;
  position?: ToastPosition;
  className?: string;
  style?: CSSProperties;
  onClose?: () => void;
}

export type ToastPhase = 'entering' | 'shown' | 'leaving';

interface ToastState extends ToastOptions {
  id: number;
  phase: ToastPhase;
}

/** Fade-out length; the fade-in is a CSS transition that starts one tick after mounting. */
export const TOAST_FADE_MS = 200;
const ENTER_TICK_MS = 20;

/** Success, error, loading and warning have an icon; info has none. */
const TYPE_ICONS: Partial<Record<ToastType, IconName>> = {
  success: 'success',
  error: 'error',
  warning: 'warning',
  loading: 'loading',
};

/**
 * Only one toast at a time: showing a new one replaces the current one. Each fades in, stays `duration` ms, fades
 * out, then closes (calling onClose).
 */
class ToastStore {
  private current: ToastState | null = null;
  private nextId = 1;
  private timers: Array<ReturnType<typeof setTimeout>> = [];
  private listeners = new Set<() => void>();

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = (): ToastState | null => this.current;

  private emit(): void {
    for (const listener of this.listeners) listener();
  }

  private clearTimers(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
  }

  private later(ms: number, run: () => void): void {
    this.timers.push(setTimeout(run, ms));
  }

  show(options: ToastOptions): number {
    this.clearTimers();
    const replaced = this.current;
    const id = this.nextId++;
    this.current = { ...options, type: options.type ?? 'info', id, phase: 'entering' };
    replaced?.onClose?.();
    this.emit();
    this.later(ENTER_TICK_MS, () => this.setPhase(id, 'shown'));
    const duration = options.duration ?? TOAST_DEFAULT_DURATION_MS;
    if (duration > 0) this.later(duration, () => this.hide(id));
    return id;
  }

  private setPhase(id: number, phase: ToastPhase): void {
    if (!this.current || this.current.id !== id) return;
    this.current = { ...this.current, phase };
    this.emit();
  }

  /** Fades the toast out (the given one, or whichever is shown) and then closes it. */
  hide(id?: number): void {
    const shown = this.current;
    if (!shown || (id !== undefined && shown.id !== id) || shown.phase === 'leaving') return;
    this.clearTimers();
    this.setPhase(shown.id, 'leaving');
    this.later(TOAST_FADE_MS, () => {
      if (this.current?.id !== shown.id) return;
      this.current = null;
      this.emit();
      shown.onClose?.();
    });
  }

  /** Closes at once, without the fade (tests, route changes). */
  reset(): void {
    this.clearTimers();
    this.current = null;
    this.emit();
  }
}

export const toastStore = new ToastStore();

type Shorthand = (content: ReactNode | Omit<ToastOptions, 'type'>, duration?: number) => number;

const shorthand =
  (type: ToastType): Shorthand =>
  (content, duration) => {
    const options: Omit<ToastOptions, 'type'> =
      typeof content === 'object' && content !== null && 'content' in content
        ? content
        : { content: content as ReactNode };
    return toastStore.show({ ...options, type, duration: duration ?? options.duration });
  };

export const toast = {
  show: (options: ToastOptions): number => toastStore.show(options),
  info: shorthand('info'),
  success: shorthand('success'),
  warning: shorthand('warning'),
  error: shorthand('error'),
  loading: shorthand('loading'),
  hide: (id?: number): void => toastStore.hide(id),
};

/** Renders the current toast; mount once near the root. */
export function ToastHost() {
  const current = useSyncExternalStore(toastStore.subscribe, toastStore.snapshot, () => null);
  if (!current) return null;
  const type = current.type ?? 'info';
  const iconName = TYPE_ICONS[type];
  const icon =
    current.icon !== undefined ? (
      current.icon
    ) : iconName ? (
      <Icon name={iconName} size={28} spin={type === 'loading'} />
    ) : null;
  const position = current.position ?? 'center';
  return (
    <div
      className={['lt-toast-layer', `lt-toast-layer--${position}`, current.hasMask ? 'lt-toast-layer--mask' : '']
        .filter(Boolean)
        .join(' ')}
      data-testid="toast-layer"
    >
      <div
        key={current.id}
        className={[
          'lt-toast',
          `lt-toast--${type}`,
          `lt-toast--${current.phase}`,
          icon ? 'lt-toast--with-icon' : '',
          current.className ?? '',
        ]
          .filter(Boolean)
          .join(' ')}
        style={current.style}
        role={type === 'error' || type === 'warning' ? 'alert' : 'status'}
        aria-live={type === 'error' || type === 'warning' ? 'assertive' : 'polite'}
        data-type={type}
        data-phase={current.phase}
      >
        {icon ? <span className="lt-toast__icon">{icon}</span> : null}
        <span className="lt-toast__content">{current.content}</span>
      </div>
    </div>
  );
}
