import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { usePlatform } from '../../platform/platform-context';
import { Icon, Spinner } from '../ui';
import { insertAt, isUnicodeGroup, readRecentEmoji, rememberEmoji } from './emoji-categories';
import { useEmoji, type EmojiCategory, type PickerEmoji } from './use-emoji';
import './emoji.css';

const SEARCH_MAX = 160;

export interface EmojiPickerProps {
  /** The id of the textarea the emoji goes into, at its caret. */
  targetId: string;
  onChange: (value: string) => void;
  /** Where the panel opens on a wide screen: under the button (default) or above it (a box at the page's foot). */
  placement?: 'down' | 'up';
  /** Which edge of the button the panel lines up with on a wide screen (`end` for a button at the right). */
  align?: 'start' | 'end';
  /** The button's class (the editor's toolbar, a composer's row). */
  buttonClassName?: string;
}

/**
 * A toolbar button opening an emoji panel (a popover on a wide screen, a bottom sheet on a phone): the site's image
 * emoji and the Unicode ones by category, a search, the recently used ones; a pick puts `:code:` at the caret.
 */
export function EmojiPicker({
  targetId,
  onChange,
  placement = 'down',
  align = 'start',
  buttonClassName,
}: EmojiPickerProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const host = useRef<HTMLSpanElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onDown = (event: MouseEvent | TouchEvent): void => {
      if (host.current && !host.current.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('touchstart', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('touchstart', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const pick = (emoji: PickerEmoji): void => {
    const el = document.getElementById(targetId) as HTMLTextAreaElement | null;
    const value = el?.value ?? '';
    const next = insertAt(value, el?.selectionStart ?? value.length, el?.selectionEnd ?? value.length, emoji.code);
    onChange(next.value);
    rememberEmoji(emoji.code);
    setOpen(false);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(next.caret, next.caret);
    });
  };

  return (
    <span className="lt-emoji-picker" ref={host}>
      <button
        ref={button}
        type="button"
        className={buttonClassName ?? 'lt-editor__tool'}
        title={t('emoji.button')}
        aria-label={t('emoji.button')}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        data-testid="emoji-button"
      >
        <Icon name="emoji" />
      </button>
      {open ? <EmojiPanel placement={placement} align={align} onPick={pick} onClose={() => setOpen(false)} /> : null}
    </span>
  );
}

function EmojiGlyph({ emoji }: { emoji: PickerEmoji }) {
  return emoji.url ? (
    <img className="emoji" src={emoji.url} alt={emoji.code} loading="lazy" />
  ) : (
    <span className="lt-emoji-char">{emoji.char}</span>
  );
}

function EmojiPanel({
  placement,
  align,
  onPick,
  onClose,
}: {
  placement: 'down' | 'up';
  align: 'start' | 'end';
  onPick: (emoji: PickerEmoji) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const mobile = usePlatform() === 'h5';
  const data = useEmoji();
  const titleId = useId();
  const [query, setQuery] = useState('');
  const [recent] = useState(readRecentEmoji);
  const categories = useMemo<EmojiCategory[]>(() => {
    const used = recent.map((code) => data.byCode.get(code)).filter((e): e is PickerEmoji => e !== undefined);
    return used.length > 0 ? [{ key: 'recent', emoji: used }, ...data.categories] : data.categories;
  }, [recent, data]);
  const [chosen, setChosen] = useState<string | null>(null);
  const active = categories.find((c) => c.key === chosen) ?? categories[0];

  const label = (c: EmojiCategory): string =>
    c.key === 'recent'
      ? t('emoji.categories.recent')
      : isUnicodeGroup(c.key)
        ? t(`emoji.categories.${c.key}`)
        : (c.label ?? t('emoji.categories.site'));

  const needle = query.trim().toLowerCase();
  const found = useMemo(() => {
    if (!needle) return [];
    const out: PickerEmoji[] = [];
    const seen = new Set<string>();
    for (const c of data.categories) {
      for (const e of c.emoji) {
        if (out.length >= SEARCH_MAX) return out;
        if (seen.has(e.code) || !(e.code.includes(needle) || e.name.toLowerCase().includes(needle))) continue;
        seen.add(e.code);
        out.push(e);
      }
    }
    return out;
  }, [needle, data.categories]);

  const grid = (list: PickerEmoji[]): ReactNode =>
    list.length === 0 ? (
      <p className="lt-emoji-panel__empty">{t('emoji.noResults')}</p>
    ) : (
      <div className="lt-emoji-panel__grid">
        {list.map((e) => (
          <button
            key={e.code}
            type="button"
            className="lt-emoji-panel__item"
            title={`${e.name} ${e.code}`}
            aria-label={e.name}
            data-code={e.code}
            onClick={() => onPick(e)}
          >
            <EmojiGlyph emoji={e} />
          </button>
        ))}
      </div>
    );

  let body: ReactNode;
  if (data.loading) body = <Spinner />;
  else if (data.failed && categories.length === 0)
    body = <p className="lt-emoji-panel__empty">{t('emoji.loadFailed')}</p>;
  else if (needle) body = grid(found);
  else if (active) {
    body = (
      <>
        <h3 className="lt-emoji-panel__heading">{label(active)}</h3>
        {grid(active.emoji)}
      </>
    );
  }

  const panel = (
    <div
      className={`lt-emoji-panel ${mobile ? 'lt-emoji-panel--sheet' : `lt-emoji-panel--${placement} lt-emoji-panel--${align}`}`}
      role="dialog"
      aria-labelledby={titleId}
      data-testid="emoji-panel"
    >
      <div className="lt-emoji-panel__top">
        <span id={titleId} className="lt-visually-hidden">
          {t('emoji.panel')}
        </span>
        <input
          type="search"
          className="lt-emoji-panel__search"
          placeholder={t('emoji.search')}
          aria-label={t('emoji.search')}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          autoFocus={!mobile}
          data-testid="emoji-search"
        />
        {mobile ? (
          <button type="button" className="lt-editor__tool" aria-label={t('emoji.close')} onClick={onClose}>
            <Icon name="close" />
          </button>
        ) : null}
      </div>
      <div className="lt-emoji-panel__body">{body}</div>
      {needle || categories.length === 0 ? null : (
        <div className="lt-emoji-panel__tabs" role="tablist" aria-label={t('emoji.panel')}>
          {categories.map((c) => (
            <button
              key={c.key}
              type="button"
              role="tab"
              aria-selected={c === active}
              className="lt-emoji-panel__tab"
              title={label(c)}
              aria-label={label(c)}
              onClick={() => setChosen(c.key)}
              data-testid={`emoji-tab-${c.key}`}
            >
              {c.emoji[0] ? <EmojiGlyph emoji={c.emoji[0]} /> : null}
            </button>
          ))}
        </div>
      )}
    </div>
  );

  return mobile ? (
    <>
      <div className="lt-emoji-sheet__backdrop" onClick={onClose} aria-hidden="true" />
      {panel}
    </>
  ) : (
    panel
  );
}
