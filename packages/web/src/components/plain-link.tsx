import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { useNavigate } from 'react-router';

interface PlainLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** An absolute path of the app, e.g. `/user/12`. */
  to: string;
}

/** A click the browser should handle itself: another button, a modifier key (new tab, window, download). */
function isOwnClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return event.button === 0 && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;
}

/**
 * A link to one of the app's pages by its absolute path, for the links a list repeats (each post's author and avatar):
 * React Router's <Link> resolves its path against the matched routes three times and keeps prefetch state, for every
 * link of every render (about a tenth of a 20-reply page's render on the server); an absolute path needs none of it.
 * A plain click navigates in the app (replacing the history entry when it points at the current address, as <Link>
 * does); any other click is the browser's.
 */
export function PlainLink({ to, onClick, ...rest }: PlainLinkProps) {
  const navigate = useNavigate();
  return (
    <a
      {...rest}
      href={to}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented || !isOwnClick(event)) return;
        event.preventDefault();
        const { pathname, search, hash } = window.location;
        void navigate(to, { replace: pathname + search + hash === to });
      }}
    />
  );
}
