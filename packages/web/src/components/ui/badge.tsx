import { BADGE_CAP, BADGE_MIDDLE_MIN } from '@luntan/shared';
import type { ReactNode } from 'react';
import './badge.css';

/** The notification badge (spec section 4): hidden at 0, '99+' above 99, middle size from 10 to 99. */
export function badgeText(count: number, max: number = BADGE_CAP): string {
  return count > max ? `${max}+` : String(count);
}

export type BadgeSize = 'small' | 'middle' | 'large';

export function badgeSize(count: number, max: number = BADGE_CAP): BadgeSize {
  if (count > max) return 'large';
  if (count >= BADGE_MIDDLE_MIN) return 'middle';
  return 'small';
}

export interface BadgeProps {
  count: number;
  max?: number;
  /** The thing the badge sits on (an icon, a link text). */
  children?: ReactNode;
  /** Accessible description of the count, e.g. "3 unread". */
  label?: string;
  className?: string;
}

export function Badge({ count, max = BADGE_CAP, children, label, className }: BadgeProps) {
  const visible = Number.isFinite(count) && count > 0;
  return (
    <span className={['lt-badge-wrap', className ?? ''].filter(Boolean).join(' ')}>
      {children}
      {visible ? (
        <span
          className={`lt-badge lt-badge--${badgeSize(count, max)}`}
          data-testid="badge"
          aria-label={label}
          title={label}
        >
          {badgeText(count, max)}
        </span>
      ) : null}
    </span>
  );
}
