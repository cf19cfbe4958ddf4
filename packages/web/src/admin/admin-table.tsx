import type { Page } from '@luntan/shared';
import type { ReactNode } from 'react';
import { Pager } from '../components/forum/pager';
import { Spinner } from '../components/ui';
import { useTranslation } from '../i18n/use-translation';
import { TableScroll } from './admin-ui';

/** One column: its heading (a node, so a hidden "select" label fits) and whether it is the actions column. */
export interface AdminColumn {
  key: string;
  header: ReactNode;
  /** The actions column: kept at the right edge on a narrow screen (`lt-table__end`). */
  end?: boolean;
}

interface AdminTableProps<T> {
  /** The table's name (the scrolling frame is labelled by it). */
  label: string;
  columns: readonly AdminColumn[];
  /** The rows, or a page of them; null while loading (a spinner) or after a failure (then `error`). */
  rows: readonly T[] | Page<T> | null;
  error?: string | null;
  /** Each row, as a `<tr>` with its key. */
  row: (item: T) => ReactNode;
  /** The text shown when there are no rows (default: the back office's "nothing here"; false: none). */
  empty?: ReactNode | false;
  /** With no rows: keep the headings and write the empty text below them (else the text stands alone). */
  headWhenEmpty?: boolean;
  /** Extra classes of the table (`lt-table--compact`, `lt-groups`...). */
  className?: string;
  testId?: string;
  /** Shown above the table once the rows are in (select-all, batch buttons). */
  toolbar?: ReactNode;
  /** Shown after the table, before the pager (batch actions). */
  footer?: ReactNode;
  /** The small empty text (a panel inside a row) instead of the page's. */
  emptySmall?: boolean;
  /** A pager of the caller's own (a panel's previous / next) instead of the page's `?page=N` links. */
  pager?: ReactNode;
  /** A table that stacks its cells on a phone (`lt-table--stack`, cells with `data-label`) instead of scrolling. */
  stack?: boolean;
}

/**
 * The back office's list table: a spinner while loading, the server's message on a failure, an empty state, the
 * headings, the rows, and for a page of rows the pager (`?page=N`). On a phone the table scrolls sideways inside its
 * frame, with the actions column kept in view (see TableScroll), or with `stack` lays each row out as a card.
 */
export function AdminTable<T>({
  label,
  columns,
  rows,
  error,
  row,
  empty,
  headWhenEmpty = false,
  className,
  testId,
  toolbar,
  footer,
  stack = false,
  emptySmall = false,
  pager: ownPager,
}: AdminTableProps<T>) {
  const { t } = useTranslation();
  if (!rows) return error ? <p className="lt-empty">{error}</p> : <Spinner />;
  const page = 'pageData' in rows ? rows : null;
  const items: readonly T[] = page ? page.pageData : (rows as readonly T[]);
  const emptyNote =
    empty === false ? null : <p className={emptySmall ? 'lt-empty--small' : 'lt-empty'}>{empty ?? t('admin.empty')}</p>;
  if (items.length === 0 && !headWhenEmpty) return emptyNote;
  const pager = ownPager ?? (page ? <Pager current={page.currentPage} total={page.totalPage} /> : null);
  const classes = ['lt-table', stack ? 'lt-table--stack' : '', className ?? ''].filter(Boolean).join(' ');
  const table = (
    <table className={classes} data-testid={testId}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.key} className={column.end ? 'lt-table__end' : undefined}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{items.map(row)}</tbody>
    </table>
  );
  return (
    <>
      {error ? <p className="lt-empty">{error}</p> : null}
      {toolbar}
      {stack ? <div className="lt-table-wrap">{table}</div> : <TableScroll label={label}>{table}</TableScroll>}
      {items.length === 0 ? emptyNote : null}
      {footer ? (
        <div className="lt-toolbar">
          {footer}
          {pager}
        </div>
      ) : (
        pager
      )}
    </>
  );
}
