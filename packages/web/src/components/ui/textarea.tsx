import { TEXTAREA_ROW_HEIGHT_PX } from '@luntan/shared';
import { useId, useState, type ChangeEvent, type FocusEvent, type TextareaHTMLAttributes } from 'react';
import './field.css';

export interface TextareaProps extends Omit<
  TextareaHTMLAttributes<HTMLTextAreaElement>,
  'onChange' | 'value' | 'defaultValue' | 'rows'
> {
  value?: string;
  defaultValue?: string;
  onChange?: (value: string, event: ChangeEvent<HTMLTextAreaElement>) => void;
  /** Show the "length/limit" counter (needs maxLength). */
  showLimit?: boolean;
  /** Visible rows; the height is 25 px per row. Default 3. */
  rows?: number;
  /** The visible label; without one, pass aria-label. */
  label?: string;
}

export function Textarea({
  value,
  defaultValue = '',
  onChange,
  showLimit = false,
  maxLength,
  rows = 3,
  disabled = false,
  label,
  id,
  className,
  style,
  onFocus,
  onBlur,
  ...rest
}: TextareaProps) {
  const autoId = useId();
  const fieldId = id ?? autoId;
  const [inner, setInner] = useState(defaultValue);
  const [active, setActive] = useState(false);
  const current = value ?? inner;

  const handleChange = (event: ChangeEvent<HTMLTextAreaElement>): void => {
    // Disabled blocks input, even if an event slips through.
    if (disabled) return;
    const next = event.target.value;
    if (value === undefined) setInner(next);
    onChange?.(next, event);
  };

  return (
    <div
      className={[
        'lt-field',
        'lt-textarea',
        active ? 'lt-field--active' : '',
        disabled ? 'lt-field--disabled' : '',
        className ?? '',
      ]
        .filter(Boolean)
        .join(' ')}
    >
      {label ? (
        <label className="lt-field__label" htmlFor={fieldId}>
          {label}
        </label>
      ) : null}
      <div className="lt-field__box">
        <textarea
          {...rest}
          id={fieldId}
          className="lt-field__control"
          value={current}
          maxLength={maxLength}
          disabled={disabled}
          readOnly={disabled || rest.readOnly}
          rows={rows}
          style={{ height: rows * TEXTAREA_ROW_HEIGHT_PX, ...style }}
          onChange={handleChange}
          onFocus={(event: FocusEvent<HTMLTextAreaElement>) => {
            setActive(true);
            onFocus?.(event);
          }}
          onBlur={(event: FocusEvent<HTMLTextAreaElement>) => {
            setActive(false);
            onBlur?.(event);
          }}
        />
        {showLimit && maxLength !== undefined ? (
          <span className="lt-field__count" aria-live="polite">
            {current.length}/{maxLength}
          </span>
        ) : null}
      </div>
    </div>
  );
}
