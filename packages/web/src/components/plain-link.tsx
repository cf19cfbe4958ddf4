import {
  createContext,
  createElement,
  useContext,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { useLocation, useNavigate, type NavigateFunction } from 'react-router';

interface PlainLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** An absolute path of the app, e.g. `/user/12`. */
  to: string;
  /** Keep the scroll position (a tab of the same page), as <Link preventScrollReset>. */
  preventScrollReset?: boolean;
}

/** A click the browser should handle itself: another button, a modifier key (new tab, window, download). */
function isOwnClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return event.button === 0 && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;
}

/** The router's navigation, read once for the whole app (PlainLinkNavigator) instead of once per link. */
const PlainNavigate = createContext<NavigateFunction | null>(null);

/**
 * Gives the links below it the router's navigation: one `useNavigate` for the app, not one per link (a home page has
 * about sixty). Placed inside the router (layouts/app-shell.tsx); a link outside one is followed by the browser.
 */
export function PlainLinkNavigator({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  return <PlainNavigate.Provider value={navigate}>{children}</PlainNavigate.Provider>;
}

/**
 * A link to one of the app's pages by its absolute path, for the links a page repeats (each post's author and avatar,
 * the header's): React Router's <Link> resolves its path against the matched routes three times and keeps prefetch
 * state, for every link of every render (about a tenth of a 20-reply page's render on the server); an absolute path
 * needs none of it. A plain click navigates in the app (replacing the history entry when it points at the current
 * address, as <Link> does); any other click is the browser's.
 */
export function PlainLink(props: PlainLinkProps) {
  const { to, onClick, preventScrollReset } = props;
  const navigate = useContext(PlainNavigate);
  const anchor = anchorAttributes(props);
  anchor.href = to;
  anchor.onClick = (event) => {
    onClick?.(event);
    if (!navigate || event.defaultPrevented || !isOwnClick(event)) return;
    event.preventDefault();
    const { pathname, search, hash } = window.location;
    void navigate(to, { replace: pathname + search + hash === to, preventScrollReset });
  };
  return createElement('a', anchor);
}

/**
 * The anchor's own attributes: the link's props without `to`, `onClick` and `preventScrollReset`. Copied by a loop,
 * not a rest pattern and a spread: V8 makes a rest object and a spread of objects of many shapes on its slow path
 * (about 1.5 µs a link on the bench machine against 0.1 here), and a home page renders about a hundred links.
 */
function anchorAttributes(props: PlainLinkProps): AnchorHTMLAttributes<HTMLAnchorElement> {
  const anchor: Record<string, unknown> = {};
  for (const name in props) {
    if (name !== 'to' && name !== 'onClick' && name !== 'preventScrollReset') {
      anchor[name] = props[name as keyof PlainLinkProps];
    }
  }
  return anchor;
}

interface PlainNavLinkProps extends Omit<PlainLinkProps, 'className'> {
  /** Active only on the path itself, not below it (for `/`). */
  end?: boolean;
  className: (state: { isActive: boolean }) => string;
}

/** Whether `to` is the page shown, as <NavLink> decides it (a trailing slash ignored; below it too unless `end`). */
export function isActivePath(pathname: string, to: string, end = false): boolean {
  const shown = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  return shown === to || (!end && to !== '/' && shown.startsWith(`${to}/`));
}

/**
 * A PlainLink that knows when it points at the page shown, as <NavLink>: its class from `className({ isActive })` and
 * `aria-current="page"` while active.
 */
export function PlainNavLink({ to, end, className, ...rest }: PlainNavLinkProps) {
  const isActive = isActivePath(useLocation().pathname, to, end);
  return (
    <PlainLink {...rest} to={to} className={className({ isActive })} aria-current={isActive ? 'page' : undefined} />
  );
}
