import { createContext, useContext, useEffect } from 'react';
import type { RouteHandle } from './handle';

/**
 * In the browser, an error boundary tells the shell which page it shows in place of the matched one (the not-found
 * page for a refused back office), so the document title follows what is on screen. The server reads the router's
 * errors instead (`shownMatches`).
 */
export const ShownPageContext = createContext<(handle: RouteHandle | null) => void>(() => undefined);

/** Reports `handle` as the page on screen while the calling component is mounted (null: the matched page). */
export function useShownPage(handle: RouteHandle | null): void {
  const report = useContext(ShownPageContext);
  useEffect(() => {
    report(handle);
    return () => report(null);
  }, [report, handle]);
}
