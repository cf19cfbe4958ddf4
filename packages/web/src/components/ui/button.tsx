import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { PlainLink } from '../plain-link';
import { Spinner } from './spinner';
import './button.css';

export type ButtonVariant = 'primary' | 'default' | 'text' | 'danger';
export type ButtonSize = 'small' | 'middle' | 'large';

interface ButtonLook {
  type?: ButtonVariant;
  size?: ButtonSize;
  /** Full width of its container. */
  full?: boolean;
  icon?: ReactNode;
}

export function buttonClassName({ type = 'default', size = 'middle', full }: ButtonLook, extra?: string): string {
  return ['lt-button', `lt-button--${type}`, `lt-button--${size}`, full ? 'lt-button--full' : '', extra ?? '']
    .filter(Boolean)
    .join(' ');
}

export interface ButtonProps extends ButtonLook, Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> {
  /** The HTML type; default 'button' so a button never submits a form by accident. */
  htmlType?: 'button' | 'submit' | 'reset';
  /** Shows a spinner and blocks clicks. */
  loading?: boolean;
}

export function Button({
  type,
  size,
  full,
  icon,
  htmlType = 'button',
  loading = false,
  disabled,
  className,
  children,
  onClick,
  ...rest
}: ButtonProps) {
  const blocked = Boolean(disabled) || loading;
  return (
    <button
      {...rest}
      type={htmlType}
      className={buttonClassName({ type, size, full }, className)}
      disabled={blocked}
      aria-busy={loading || undefined}
      onClick={blocked ? undefined : onClick}
    >
      {loading ? <Spinner size={14} /> : icon}
      {children !== undefined && children !== null ? <span className="lt-button__text">{children}</span> : null}
    </button>
  );
}

export interface LinkButtonProps extends ButtonLook, Omit<Parameters<typeof PlainLink>[0], 'type'> {}

/**
 * A navigation that looks like a button: a real link, so it works without JavaScript and with a keyboard. A PlainLink
 * (an absolute path of the app): a guest's login button is on every page.
 */
export function LinkButton({ type, size, full, icon, className, children, ...rest }: LinkButtonProps) {
  return (
    <PlainLink {...rest} className={buttonClassName({ type, size, full }, className)}>
      {icon}
      {children !== undefined && children !== null ? <span className="lt-button__text">{children}</span> : null}
    </PlainLink>
  );
}
