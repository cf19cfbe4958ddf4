import { useLocation } from 'react-router';
import { useTranslation } from '../../i18n/use-translation';
import { PlainLink } from '../plain-link';
import './forum.css';

/** Page numbers to show: the first, the last, and two around the current one, with gaps as null. */
export function pageWindow(current: number, total: number): Array<number | null> {
  const pages = new Set([1, total, current - 2, current - 1, current, current + 1, current + 2]);
  const sorted = [...pages].filter((p) => p >= 1 && p <= total).sort((a, b) => a - b);
  const out: Array<number | null> = [];
  for (const p of sorted) {
    const last = out[out.length - 1];
    if (typeof last === 'number' && p - last > 1) out.push(null);
    out.push(p);
  }
  return out;
}

/**
 * Paging as real links (`?page=N`, other parameters kept), so the back button returns to the same page. Each is an
 * absolute path: plain links (`PlainLink`), not the router's, which resolve theirs against the matched routes.
 */
export function Pager({ current, total, param = 'page' }: { current: number; total: number; param?: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  if (total <= 1) return null;
  const href = (page: number): string => {
    const params = new URLSearchParams(location.search);
    if (page === 1) params.delete(param);
    else params.set(param, String(page));
    const query = params.toString();
    return `${location.pathname}${query ? `?${query}` : ''}`;
  };
  return (
    <nav className="lt-pager" aria-label={t('forum.pages')}>
      {current > 1 ? (
        <PlainLink className="lt-pager__item" to={href(current - 1)} rel="prev">
          {t('forum.prevPage')}
        </PlainLink>
      ) : null}
      {pageWindow(current, total).map((page, i) =>
        page === null ? (
          <span key={`gap${i}`} className="lt-pager__gap">
            …
          </span>
        ) : (
          <PlainLink
            key={page}
            className={`lt-pager__item${page === current ? ' lt-pager__item--current' : ''}`}
            to={href(page)}
            aria-current={page === current ? 'page' : undefined}
          >
            {page}
          </PlainLink>
        ),
      )}
      {current < total ? (
        <PlainLink className="lt-pager__item" to={href(current + 1)} rel="next">
          {t('forum.nextPage')}
        </PlainLink>
      ) : null}
    </nav>
  );
}
