import { prefetchRoute } from '../routing/route-modules';
import { PlainNavLink } from './plain-link';

type PrefetchNavLinkProps = Parameters<typeof PlainNavLink>[0];

/**
 * A navigation link that loads the target page's code when pointed at or focused (unless saving data). A PlainNavLink:
 * the header's links are on every page, and React Router's <NavLink> resolved each against the matched routes.
 */
export function PrefetchNavLink({ to, onMouseEnter, onFocus, ...rest }: PrefetchNavLinkProps) {
  return (
    <PlainNavLink
      {...rest}
      to={to}
      onMouseEnter={(event) => {
        prefetchRoute(to);
        onMouseEnter?.(event);
      }}
      onFocus={(event) => {
        prefetchRoute(to);
        onFocus?.(event);
      }}
    />
  );
}
