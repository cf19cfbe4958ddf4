import { useState } from 'react';
import { Icon } from '../ui';

/** A button of a post's or thread's row of actions (like, favourite, share, edit, delete ...). */
export function ActionButton({
  icon,
  label,
  active,
  count,
  onClick,
  testId,
}: {
  icon: 'like' | 'star' | 'share' | 'edit' | 'trash' | 'comment' | 'pin';
  label: string;
  active?: boolean;
  count?: number;
  onClick: () => void | Promise<void>;
  testId?: string;
}) {
  const [busy, setBusy] = useState(false);
  const run = (): void => {
    if (busy) return;
    setBusy(true);
    Promise.resolve(onClick())
      .catch((error: unknown) => console.error(error))
      .finally(() => setBusy(false));
  };
  return (
    <button
      type="button"
      className={`lt-action${active ? ' lt-action--active' : ''}`}
      onClick={run}
      aria-pressed={active === undefined ? undefined : active}
      disabled={busy}
      data-testid={testId}
    >
      <Icon name={icon} />
      <span>{label}</span>
      {count !== undefined ? <span className="lt-action__count">{count}</span> : null}
    </button>
  );
}
