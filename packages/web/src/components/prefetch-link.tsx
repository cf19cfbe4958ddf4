import { NavLink, type NavLinkProps } from 'react-router';
import { prefetchRoute } from '../routing/route-modules';

/** A navigation link that loads the target page's code when pointed at or focused (unless saving data). */
export function PrefetchNavLink({ to, onMouseEnter, onFocus, ...rest }: NavLinkProps) {
  const target = typeof to === 'string' ? to : (to.pathname ?? '/');
  return (
    <NavLink
      {...rest}
      to={to}
      onMouseEnter={(event) => {
        prefetchRoute(target);
        onMouseEnter?.(event);
      }}
      onFocus={(event) => {
        prefetchRoute(target);
        onFocus?.(event);
      }}
    />
  );
}
