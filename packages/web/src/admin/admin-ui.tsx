import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useConfirm } from '../components/ui';
import { useTranslation } from '../i18n/use-translation';

/** A back-office card with its heading (the card is labelled by it). */
export function AdminSection({ name, title, children }: { name: string; title: ReactNode; children: ReactNode }) {
  return (
    <section className="lt-card lt-admin-form" aria-labelledby={`${name}-title`}>
      <h1 id={`${name}-title`} className="lt-page__title">
        {title}
      </h1>
      {children}
    </section>
  );
}

/** The rows ticked in a back-office table (for batch actions). */
export function useSelection() {
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  return {
    selected,
    toggle: (id: number, on: boolean) =>
      setSelected((current) => {
        const next = new Set(current);
        if (on) next.add(id);
        else next.delete(id);
        return next;
      }),
    clear: () => setSelected(new Set()),
  };
}

/** The tick box of one table row. */
export function RowCheckbox({
  label,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <input
      type="checkbox"
      aria-label={label}
      disabled={disabled}
      checked={checked}
      onChange={(e) => onChange(e.target.checked)}
    />
  );
}

/**
 * Asks before deleting, in the site's dialog: `confirmDelete(message)` resolves true once the administrator presses
 * Delete. Render `dialog` in the component.
 */
export function useConfirmDelete(): { confirmDelete: (message: string) => Promise<boolean>; dialog: ReactNode } {
  const { t } = useTranslation();
  const { confirm, dialog } = useConfirm();
  const confirmDelete = (message: string) =>
    confirm({
      title: t('admin.confirmDeleteTitle'),
      message,
      confirmText: t('admin.delete'),
      cancelText: t('admin.cancel'),
      danger: true,
    });
  return { confirmDelete, dialog };
}

/**
 * A table wider than the screen scrolls sideways inside this frame (a phone). While it does, a line says so and the
 * edge that has more is shaded; an actions column marked `lt-table__end` stays at the right edge on a narrow screen,
 * so a row's first button is always in view.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ start: false, end: false });

  useEffect(() => {
    const element = box.current;
    if (!element) return undefined;
    const measure = () => {
      const start = element.scrollLeft > 1;
      const end = element.scrollLeft < element.scrollWidth - element.clientWidth - 1;
      setMore((was) => (was.start === start && was.end === end ? was : { start, end }));
    };
    measure();
    element.addEventListener('scroll', measure, { passive: true });
    // The table changes width as its rows arrive and the window turns.
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(element);
    if (element.firstElementChild) observer?.observe(element.firstElementChild);
    return () => {
      element.removeEventListener('scroll', measure);
      observer?.disconnect();
    };
  }, []);

  return (
    <div className="lt-table-scroll" data-more-start={more.start} data-more-end={more.end}>
      {more.start || more.end ? (
        <p className="lt-table-scroll__hint" data-testid="table-scroll-hint">
          {t('admin.tableScrollHint')}
        </p>
      ) : null}
      <div className="lt-table-scroll__frame">
        {/* Focusable, so that the keyboard scrolls it too. */}
        <div ref={box} className="lt-table-wrap" role="region" aria-label={label} tabIndex={0}>
          {children}
        </div>
      </div>
    </div>
  );
}
