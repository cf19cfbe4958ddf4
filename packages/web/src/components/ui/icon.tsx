import type { CSSProperties, ReactElement } from 'react';
import './icon.css';

/**
 * Inline SVG icons (stroke icons on a 24-unit grid), so no icon font or extra request is needed. How they are drawn
 * (no fill, a 1.8-unit round stroke in the text's colour) is icon.css's, not five attributes on every icon: the home
 * page's sixty icons were a third of its markup (docs/performance.md, "sixth part").
 */
const PATHS = {
  home: (
    <>
      <path d="M3 10.5 12 3l9 7.5" />
      <path d="M5 9.5V20a1 1 0 0 0 1 1h4v-6h4v6h4a1 1 0 0 0 1-1V9.5" />
    </>
  ),
  message: (
    <>
      <path d="M4 5h16a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H9l-5 4V6a1 1 0 0 1 1-1Z" />
      <path d="M8 10h8M8 13h5" />
    </>
  ),
  discover: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="m15.5 8.5-2 5-5 2 2-5 5-2Z" />
    </>
  ),
  user: (
    <>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21c0-4 3.6-7 8-7s8 3 8 7" />
    </>
  ),
  search: (
    <>
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-4-4" />
    </>
  ),
  back: <path d="M15 5 8 12l7 7" />,
  down: <path d="m6 9 6 6 6-6" />,
  logout: (
    <>
      <path d="M14 4H6a1 1 0 0 0-1 1v14a1 1 0 0 0 1 1h8" />
      <path d="m16 8 4 4-4 4M20 12H10" />
    </>
  ),
  success: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="m8 12 3 3 5-6" />
    </>
  ),
  error: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="m9 9 6 6M15 9l-6 6" />
    </>
  ),
  warning: (
    <>
      <path d="M12 3 2 20h20L12 3Z" />
      <path d="M12 10v4M12 17v.5" />
    </>
  ),
  info: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 11v6M12 7.5V8" />
    </>
  ),
  loading: <path d="M12 3a9 9 0 1 0 9 9" />,
  close: <path d="m6 6 12 12M18 6 6 18" />,
  reload: (
    <>
      <path d="M20 11a8 8 0 1 0-2.3 5.7" />
      <path d="M20 4v7h-7" />
    </>
  ),
  mail: (
    <>
      <rect x="3" y="5" width="18" height="14" rx="1" />
      <path d="m3 7 9 6 9-6" />
    </>
  ),
  wallet: (
    <>
      <rect x="3" y="6" width="18" height="14" rx="2" />
      <path d="M16 13h2M3 10h18M6 6l9-3 1 3" />
    </>
  ),
  bell: (
    <>
      <path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4l2-2Z" />
      <path d="M10 20a2 2 0 0 0 4 0" />
    </>
  ),
  like: <path d="M12 20s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.6-7 10-7 10Z" />,
  star: <path d="m12 3 2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1-4.4-4.3 6.1-.9L12 3Z" />,
  share: (
    <>
      <circle cx="18" cy="5" r="2.5" />
      <circle cx="6" cy="12" r="2.5" />
      <circle cx="18" cy="19" r="2.5" />
      <path d="m8.2 10.8 7.6-4.6M8.2 13.2l7.6 4.6" />
    </>
  ),
  edit: <path d="M4 20h4L19 9l-4-4L4 16v4ZM13.5 6.5l4 4" />,
  trash: <path d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13" />,
  eye: (
    <>
      <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z" />
      <circle cx="12" cy="12" r="3" />
    </>
  ),
  comment: <path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12Z" />,
  image: (
    <>
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <circle cx="9" cy="10" r="2" />
      <path d="m21 16-5-5-9 9" />
    </>
  ),
  flag: <path d="M5 21V4h11l-2 4 2 4H5" />,
  pin: <path d="M9 3h6l-1 6 4 4H6l4-4-1-6ZM12 13v8" />,
  plus: <path d="M12 5v14M5 12h14" />,
  bold: <path d="M7 4h6a4 4 0 0 1 0 8H7zM7 12h7a4 4 0 0 1 0 8H7z" />,
  italic: <path d="M10 4h8M6 20h8M14 4 10 20" />,
  link: <path d="M10 14a4 4 0 0 0 6 0l3-3a4 4 0 0 0-6-6l-1 1M14 10a4 4 0 0 0-6 0l-3 3a4 4 0 0 0 6 6l1-1" />,
  quote: <path d="M7 7h4v6H5V9a2 2 0 0 1 2-2ZM15 7h4v6h-6V9a2 2 0 0 1 2-2ZM9 13c0 2-1 4-4 4M17 13c0 2-1 4-4 4" />,
  code: <path d="m8 8-4 4 4 4M16 8l4 4-4 4M14 5l-4 14" />,
  // Thread parts (components/thread-parts).
  goods: <path d="M3 4h2l2.4 11h10.2L20 7H6.2M9 20a1 1 0 1 0 0-.1M17 20a1 1 0 1 0 0-.1" />,
  redPacket: (
    <>
      <rect x="5" y="3" width="14" height="18" rx="2" />
      <path d="M5 8c4 3 10 3 14 0" />
      <circle cx="12" cy="11" r="2" />
    </>
  ),
  reward: (
    <>
      <circle cx="12" cy="12" r="8" />
      <path d="M9 8l3 4 3-4M9 13h6M9 16h6M12 12v6" />
    </>
  ),
  vote: <path d="M4 20V10M10 20V4M16 20v-7M22 20H2" />,
  file: <path d="M20 11.5 12.4 19a5 5 0 0 1-7-7l8-8a3.5 3.5 0 0 1 5 5l-8 8a2 2 0 0 1-2.9-2.9l7.3-7.3" />,
  audio: <path d="M9 18V5l11-2v13M9 18a3 3 0 1 1-3-3 3 3 0 0 1 3 3ZM20 16a3 3 0 1 1-3-3 3 3 0 0 1 3 3Z" />,
  video: (
    <>
      <rect x="2" y="6" width="14" height="12" rx="2" />
      <path d="m16 10 6-3v10l-6-3" />
    </>
  ),
  position: (
    <>
      <path d="M12 21s-7-6.2-7-11a7 7 0 0 1 14 0c0 4.8-7 11-7 11Z" />
      <circle cx="12" cy="10" r="2.5" />
    </>
  ),
  topic: <path d="M9 3 7 21M17 3l-2 18M4 8h17M3 16h17" />,
  emoji: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M8 14a5 5 0 0 0 8 0M9 9.5v.5M15 9.5v.5" />
    </>
  ),
} satisfies Record<string, ReactElement>;

export type IconName = keyof typeof PATHS;
export interface IconProps {
  name: IconName;
  /** Pixels; default 16. */
  size?: number;
  color?: string;
  /** An accessible name; without it the icon is decorative and hidden from assistive technology. */
  title?: string;
  className?: string;
  style?: CSSProperties;
  spin?: boolean;
}

export function Icon({ name, size = 16, color, title, className, style, spin }: IconProps) {
  const classes = ['lt-icon', `lt-icon--${name}`, spin ? 'lt-icon--spin' : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  return (
    <svg
      className={classes}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      style={color ? { color, ...style } : style}
      role={title ? 'img' : undefined}
      aria-label={title}
      aria-hidden={title ? undefined : true}
      data-icon={name}
    >
      {title ? <title>{title}</title> : null}
      {PATHS[name]}
    </svg>
  );
}
