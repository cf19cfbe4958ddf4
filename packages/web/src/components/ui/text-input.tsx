import { INPUT_APPEND_WIDTH } from '@luntan/shared';
import {
  useId,
  useRef,
  useState,
  type ChangeEvent,
  type FocusEvent,
  type InputHTMLAttributes,
  type ReactNode,
} from 'react';
import './field.css';

/** Number mode keeps digits, plus signs and dots while typing. */
export function keepNumberCharacters(raw: string): string {
  return raw.replace(/[^\d+.]/g, '');
}

/** On blur a number-mode value becomes a number, or the previous value when it is not one. Empty stays empty. */
export function normaliseNumber(raw: string, previous: string): string {
  if (raw === '') return '';
  if (!/^\+?(\d+\.?\d*|\.\d+)$/.test(raw)) return previous;
  const parsed = Number(raw);
  return Number.isFinite(parsed) ? String(parsed) : previous;
}

/** The trim option removes every whitespace character, not only at the ends. */
export function removeWhitespace(raw: string): string {
  return raw.replace(/\s+/g, '');
}

export type TextInputMode = 'text' | 'number' | 'password' | 'search' | 'email';

export interface TextInputProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'onChange' | 'value' | 'defaultValue' | 'type' | 'prefix'
> {
  value?: string;
  defaultValue?: string;
  onChange?: (value: string, event: ChangeEvent<HTMLInputElement>) => void;
  mode?: TextInputMode;
  trim?: boolean;
  /** Show the "length/maxLength" counter. */
  showLimit?: boolean;
  /** Content at the right end of the box (a unit, a button). */
  append?: ReactNode;
  /** Width of the append area; default 50px. */
  appendWidth?: string;
  /** Content at the left end of the box (an icon). */
  prefix?: ReactNode;
  label?: string;
  /** Hide the label visually but keep it for screen readers. */
  hideLabel?: boolean;
}

export function TextInput({
  value,
  defaultValue = '',
  onChange,
  onBlur,
  onFocus,
  mode = 'text',
  trim = false,
  showLimit = false,
  maxLength,
  append,
  appendWidth = INPUT_APPEND_WIDTH,
  prefix,
  label,
  hideLabel = false,
  disabled,
  id,
  className,
  ...rest
}: TextInputProps) {
  const autoId = useId();
  const fieldId = id ?? autoId;
  const [inner, setInner] = useState(defaultValue);
  const [active, setActive] = useState(false);
  const current = value ?? inner;
  // The last accepted number, restored when a blur finds an invalid one.
  const lastValid = useRef(mode === 'number' ? normaliseNumber(current, '') : current);

  const emit = (next: string, event: ChangeEvent<HTMLInputElement>): void => {
    if (value === undefined) setInner(next);
    onChange?.(next, event);
  };

  const handleChange = (event: ChangeEvent<HTMLInputElement>): void => {
    if (disabled) return;
    let next = event.target.value;
    if (mode === 'number') next = keepNumberCharacters(next);
    if (trim) next = removeWhitespace(next);
    emit(next, event);
  };

  const handleBlur = (event: FocusEvent<HTMLInputElement>): void => {
    setActive(false);
    if (mode === 'number') {
      const normalised = normaliseNumber(current, lastValid.current);
      lastValid.current = normalised;
      if (normalised !== current) emit(normalised, event as unknown as ChangeEvent<HTMLInputElement>);
    }
    onBlur?.(event);
  };

  const htmlType = mode === 'number' ? 'text' : mode;
  return (
    <div
      className={[
        'lt-field',
        'lt-input',
        active ? 'lt-field--active' : '',
        disabled ? 'lt-field--disabled' : '',
        className ?? '',
      ]
        .filter(Boolean)
        .join(' ')}
    >
      {label ? (
        <label className={hideLabel ? 'lt-visually-hidden' : 'lt-field__label'} htmlFor={fieldId}>
          {label}
        </label>
      ) : null}
      <div className="lt-field__box lt-field__box--inline">
        {prefix ? <span className="lt-field__prefix">{prefix}</span> : null}
        <input
          {...rest}
          id={fieldId}
          type={htmlType}
          inputMode={mode === 'number' ? 'decimal' : rest.inputMode}
          className="lt-field__control"
          value={current}
          maxLength={maxLength}
          disabled={disabled}
          onChange={handleChange}
          onFocus={(event) => {
            setActive(true);
            onFocus?.(event);
          }}
          onBlur={handleBlur}
        />
        {showLimit && maxLength !== undefined ? (
          <span className="lt-field__count lt-field__count--inline">
            {current.length}/{maxLength}
          </span>
        ) : null}
        {append !== undefined && append !== null ? (
          <span className="lt-field__append" style={{ width: appendWidth }} data-testid="input-append">
            {append}
          </span>
        ) : null}
      </div>
    </div>
  );
}
