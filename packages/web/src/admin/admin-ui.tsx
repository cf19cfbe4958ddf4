import { useState, type ReactNode } from 'react';

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
