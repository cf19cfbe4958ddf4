import type { CSSProperties } from 'react';
import { Avatar, type AvatarSize } from './avatar';

export interface AvatarGroupItem {
  image?: string | null;
  text?: string;
  className?: string;
  style?: CSSProperties;
}

export interface AvatarGroupProps {
  items: AvatarGroupItem[];
  size?: AvatarSize;
  circle?: boolean;
  /** Show at most this many; the rest is summed up as "+n". */
  max?: number;
  className?: string;
  style?: CSSProperties;
}

export function AvatarGroup({ items, size = 'small', circle = true, max, className, style }: AvatarGroupProps) {
  const shown = max !== undefined ? items.slice(0, max) : items;
  const rest = items.length - shown.length;
  return (
    <span className={['lt-avatar-group', className ?? ''].filter(Boolean).join(' ')} style={style}>
      {shown.map((item, index) => (
        <Avatar
          key={index}
          image={item.image}
          text={item.text}
          className={item.className}
          style={item.style}
          size={size}
          circle={circle}
        />
      ))}
      {rest > 0 ? <span className="lt-avatar-group__more">+{rest}</span> : null}
    </span>
  );
}
