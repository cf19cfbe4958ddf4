import { useRef, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import './menu.css';

export interface MenuProps {
  children: ReactNode;
  /** Accessible name of the menu. */
  label?: string;
  className?: string;
}

/** A list of actions (role menu); arrow keys move between items, Home/End jump. */
export function Menu({ children, label, className }: MenuProps) {
  const list = useRef<HTMLUListElement>(null);
  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>): void => {
    const items = Array.from(list.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    if (items.length === 0) return;
    const index = items.indexOf(document.activeElement as HTMLElement);
    let next: number | null = null;
    if (event.key === 'ArrowDown') next = (index + 1) % items.length;
    if (event.key === 'ArrowUp') next = (index - 1 + items.length) % items.length;
    if (event.key === 'Home') next = 0;
    if (event.key === 'End') next = items.length - 1;
    if (next !== null) {
      event.preventDefault();
      items[next]?.focus();
    }
  };
  return (
    <ul
      ref={list}
      role="menu"
      aria-label={label}
      className={['lt-menu', className ?? ''].filter(Boolean).join(' ')}
      onKeyDown={onKeyDown}
    >
      {children}
    </ul>
  );
}

export interface MenuItemProps {
  children: ReactNode;
  icon?: ReactNode;
  /** A navigation: rendered as a real link. */
  to?: string;
  onClick?: (event: MouseEvent<HTMLElement>) => void;
  danger?: boolean;
  disabled?: boolean;
}

export function MenuItem({ children, icon, to, onClick, danger, disabled }: MenuItemProps) {
  const className = ['lt-menu__item', danger ? 'lt-menu__item--danger' : ''].filter(Boolean).join(' ');
  return (
    <li role="none">
      {to && !disabled ? (
        <Link role="menuitem" className={className} to={to} onClick={onClick}>
          {icon}
          <span>{children}</span>
        </Link>
      ) : (
        <button
          type="button"
          role="menuitem"
          className={className}
          disabled={disabled}
          onClick={disabled ? undefined : onClick}
        >
          {icon}
          <span>{children}</span>
        </button>
      )}
    </li>
  );
}

Menu.Item = MenuItem;
