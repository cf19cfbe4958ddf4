import { HOVER_CARD_CLOSE_DELAY_MS } from '@luntan/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  lazy,
  Suspense,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type CSSProperties,
  type ReactNode,
  type RefObject,
} from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from '../../i18n/use-translation';
import { quietUserProfileQuery } from '../../api/people-queries';
import { useAppContext } from '../../app-context';
import { useForum } from '../../hooks/use-forum';
import { usePlatform } from '../../platform/platform-context';
import { PlainLink } from '../plain-link';
import { Avatar, Spinner, type AvatarSize } from '../ui';
import { userHref, type AvatarUser, type CardPhase } from './user-link';
import './people.css';

// What the lazily loaded card (user-card-content.tsx) shares with this file lives in user-link.ts, so neither imports
// the other back.
export { authorOf, userHref, type AvatarUser } from './user-link';

/** Room between the avatar and the card, and the card's distance from the window's edges. */
const GAP = 8;
const EDGE = 8;

/** Under the avatar (above it when there is no room below), kept inside the window; measured again as it fills. */
function usePlacement(anchor: HTMLElement | null, card: HTMLElement | null, content: unknown): CSSProperties {
  const [style, setStyle] = useState<CSSProperties>({ visibility: 'hidden', top: 0, left: 0 });
  useLayoutEffect(() => {
    if (!anchor || !card) return;
    const a = anchor.getBoundingClientRect();
    const width = card.offsetWidth;
    const height = card.offsetHeight;
    const viewWidth = document.documentElement.clientWidth;
    const left = Math.min(Math.max(a.left + a.width / 2 - width / 2, EDGE), Math.max(EDGE, viewWidth - width - EDGE));
    const below = a.bottom + GAP + height <= window.innerHeight || a.top - GAP - height < 0;
    const top = below ? a.bottom + GAP : a.top - GAP - height;
    const next = { top: Math.round(top + window.scrollY), left: Math.round(left + window.scrollX) };
    setStyle((old) => (old.top === next.top && old.left === next.left && old.visibility !== 'hidden' ? old : next));
  }, [anchor, card, content]);
  return style;
}

// What the card shows (the profile, its counts and buttons): loaded when a card first opens, not with every list.
const loadCardContent = () => import('./user-card-content');
const CardContent = lazy(() => loadCardContent().then((module) => ({ default: module.CardContent })));

function CardLoading() {
  return (
    <div className="lt-hover-card__loading">
      <Spinner showLabel />
    </div>
  );
}

/**
 * The hover card (spec sections 2 and 4): opens when the pointer enters the avatar, loading first, then the
 * profile; closes 200 ms after the pointer leaves both the avatar and the card, and starts from loading again next
 * time. The card sits in a portal, so no list's overflow clips it.
 */
export function UserHoverCard({ user, children }: { user: AvatarUser; children: ReactNode }) {
  // The card's machinery (queries, timers, placement) comes with the first pointer: a page of threads renders
  // dozens of avatars, on the server too, and most are never pointed at.
  const [anchor, setAnchor] = useState<HTMLSpanElement | null>(null);
  const [armed, setArmed] = useState(false);
  const card = useRef<CardControls | null>(null);
  return (
    <span
      ref={setAnchor}
      className="lt-hover-card-anchor"
      onMouseEnter={() => (armed ? card.current?.open() : setArmed(true))}
      onMouseLeave={() => card.current?.closeLater()}
    >
      {children}
      {armed && anchor ? <HoverCard user={user} anchor={anchor} controls={card} /> : null}
    </span>
  );
}

/** What the anchor's pointer events do to its card. */
interface CardControls {
  open(): void;
  closeLater(): void;
}

/** The card of an avatar that has been pointed at: made when the pointer first enters, so it opens at once. */
function HoverCard({
  user,
  anchor,
  controls,
}: {
  user: AvatarUser;
  anchor: HTMLSpanElement;
  controls: RefObject<CardControls | null>;
}) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const queryClient = useQueryClient();
  const { forum } = useForum();
  const viewerId = forum?.user?.userId ?? 0;
  // A guest without user.view gets no profile (the server would answer -3001): the card offers the buttons, which
  // ask them to log in.
  const guest = !forum?.user && !forum?.other.canViewUser;
  const [phase, setPhase] = useState<CardPhase>('closed');
  const phaseRef = useRef<CardPhase>('closed');
  const opening = useRef(0);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [card, setCard] = useState<HTMLDivElement | null>(null);
  const query = quietUserProfileQuery(api, user.id, viewerId);
  const result = useQuery({ ...query, enabled: phase !== 'closed' && !guest }).data;
  const style = usePlacement(anchor, card, phase === 'loading' ? null : result);

  const go = (next: CardPhase): void => {
    phaseRef.current = next;
    setPhase(next);
  };
  const cancelClose = (): void => {
    if (closeTimer.current !== null) clearTimeout(closeTimer.current);
    closeTimer.current = null;
  };
  const open = (): void => {
    cancelClose();
    if (phaseRef.current !== 'closed') return;
    const n = ++opening.current;
    if (guest) {
      // Shown once what it shows has arrived (at once after the first time).
      go('loading');
      void loadCardContent().then(() => {
        if (opening.current === n && phaseRef.current === 'loading') go('shown');
      });
      return;
    }
    go('loading');
    void Promise.all([queryClient.fetchQuery({ ...query, staleTime: 0 }).catch(() => undefined), loadCardContent()])
      .catch(() => undefined)
      .then(() => {
        if (opening.current === n && phaseRef.current === 'loading') go('shown');
      });
  };
  const closeLater = (): void => {
    cancelClose();
    closeTimer.current = setTimeout(() => {
      closeTimer.current = null;
      opening.current += 1;
      go('closed');
    }, HOVER_CARD_CLOSE_DELAY_MS);
  };

  // The latest handlers for the anchor's events; the card is made by the pointer's first entering: open now.
  useLayoutEffect(() => {
    controls.current = { open, closeLater };
  });
  useEffect(() => {
    controls.current?.open();
    return cancelClose;
  }, [controls]);

  return phase !== 'closed'
    ? createPortal(
        <div
          ref={setCard}
          className="lt-hover-card"
          style={style}
          role="dialog"
          aria-label={t('people.card', { name: user.nickname })}
          aria-busy={phase === 'loading'}
          data-testid="user-card"
          data-state={phase}
          data-user-id={user.id}
          onMouseEnter={open}
          onMouseLeave={closeLater}
        >
          <Suspense fallback={<CardLoading />}>
            <CardContent user={user} phase={phase} result={result} guest={guest} />
          </Suspense>
        </div>,
        document.body,
      )
    : null;
}

export interface UserAvatarProps {
  user: AvatarUser;
  size?: AvatarSize;
  className?: string;
}

/**
 * Every avatar of a member: a link to their page. With a mouse (the desktop layout) pointing at it opens the hover
 * card; on a touch screen (the mobile layout) a tap simply opens the page.
 */
export function UserAvatar({ user, size = 'primary', className }: UserAvatarProps) {
  const platform = usePlatform();
  const link = (
    <PlainLink
      to={userHref(user.id)}
      className={['lt-user-avatar', className ?? ''].filter(Boolean).join(' ')}
      aria-label={user.nickname}
      data-testid="user-avatar"
      data-user-id={user.id}
    >
      <Avatar image={user.avatar} text={user.nickname} size={size} circle alt={user.nickname} />
    </PlainLink>
  );
  if (platform === 'h5') return link;
  return <UserHoverCard user={user}>{link}</UserHoverCard>;
}
