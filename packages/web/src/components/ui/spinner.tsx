import { useTranslation } from '../../i18n/use-translation';
import { Icon } from './icon';
import './spinner.css';

export interface SpinnerProps {
  /** Pixels; default 20. */
  size?: number;
  /** Accessible text; defaults to the translated "Loading". */
  label?: string;
  /** Show the label next to the wheel. */
  showLabel?: boolean;
  className?: string;
}

export function Spinner({ size = 20, label, showLabel = false, className }: SpinnerProps) {
  const { t } = useTranslation();
  const text = label ?? t('ui.loading');
  return (
    <span className={['lt-spinner', className ?? ''].filter(Boolean).join(' ')} role="status" aria-label={text}>
      <Icon name="loading" size={size} spin />
      {showLabel ? <span className="lt-spinner__label">{text}</span> : null}
    </span>
  );
}
