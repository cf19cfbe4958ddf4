import { AVATAR_DEFAULT_QUALITY_LEVEL } from '@luntan/shared';
import type { CSSProperties, MouseEventHandler } from 'react';
import { Icon } from './icon';
import './avatar.css';

export type AvatarSize = 'large' | 'primary' | 'small' | 'big';

/** Box size of each avatar size, and the spec's icon size of the fallback icon (36, 12, 14, 60). */
export const AVATAR_PIXELS: Record<AvatarSize, number> = { small: 24, primary: 40, large: 64, big: 100 };
export const AVATAR_ICON_SIZES: Record<AvatarSize, number> = { large: 36, primary: 12, small: 14, big: 60 };

/**
 * Image quality by level (spec section 9): levels lie between 70 and 10, lower quality for larger indices; wider
 * screens (above 667 px, and again at 1080 px) move one step further since they show more pixels.
 */
const QUALITY_STEPS = [70, 65, 60, 55, 50, 45, 40, 35, 30, 25, 20, 15, 10] as const;
export const THUMBNAIL_LEVEL = 100;

export function imageQuality(level: number, screenWidth: number): number {
  let index = Math.round(level);
  if (screenWidth > 667) index += 1;
  if (screenWidth >= 1080) index += 1;
  index = Math.min(Math.max(index, 0), QUALITY_STEPS.length - 1);
  return QUALITY_STEPS[index]!;
}

function isGif(url: string): boolean {
  return /\.gif$/i.test(url.split(/[?#]/)[0] ?? '');
}

/**
 * A gif stays a gif; any other image is asked for as a png with a quality level (the server or a CDN in front of
 * it may honour `format`/`quality`; a plain file server ignores them). data: and blob: URLs are left alone.
 */
export function avatarImageUrl(
  url: string,
  level: number = AVATAR_DEFAULT_QUALITY_LEVEL,
  screenWidth: number = typeof window === 'undefined' ? 0 : window.innerWidth,
): { url: string; kind: 'gif' | 'png' } {
  if (!url) return { url, kind: 'png' };
  if (isGif(url)) return { url, kind: 'gif' };
  if (/^(data|blob):/i.test(url)) return { url, kind: 'png' };
  const [base = '', hash] = url.split('#', 2);
  const params =
    level === THUMBNAIL_LEVEL
      ? 'format=png&thumbnail=500x500'
      : `format=png&quality=${imageQuality(level, screenWidth)}`;
  const joined = base + (base.includes('?') ? '&' : '?') + params;
  return { url: hash === undefined ? joined : `${joined}#${hash}`, kind: 'png' };
}

export interface AvatarProps {
  image?: string | null;
  /** Fallback when there is no image: its first character is shown. */
  text?: string;
  /** Default 'primary'. */
  size?: AvatarSize;
  /** Default false (rounded square). */
  circle?: boolean;
  /** Image quality level, default 6. */
  level?: number;
  alt?: string;
  className?: string;
  style?: CSSProperties;
  onClick?: MouseEventHandler<HTMLSpanElement>;
}

export function Avatar({
  image,
  text,
  size = 'primary',
  circle = false,
  level = AVATAR_DEFAULT_QUALITY_LEVEL,
  alt,
  className,
  style,
  onClick,
}: AvatarProps) {
  const classes = ['lt-avatar', `lt-avatar--${size}`, circle ? 'lt-avatar--circle' : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  const pixels = AVATAR_PIXELS[size];
  const initial = text ? Array.from(text.trim())[0]?.toUpperCase() : undefined;
  return (
    <span
      className={classes}
      style={{ width: pixels, height: pixels, ...style }}
      onClick={onClick}
      data-size={size}
      data-circle={circle}
    >
      {image ? (
        // Server and browser must agree on the first render: quality by width is applied from level only (width 0).
        <img src={avatarImageUrl(image, level, 0).url} alt={alt ?? text ?? ''} loading="lazy" decoding="async" />
      ) : initial ? (
        <span className="lt-avatar__text" aria-label={alt ?? text}>
          {initial}
        </span>
      ) : (
        <Icon name="user" size={AVATAR_ICON_SIZES[size]} title={alt} />
      )}
    </span>
  );
}
