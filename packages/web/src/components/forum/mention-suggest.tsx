import { mentionMarkdown, USERNAME_MAX, type UserSearchItem } from '@luntan/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type KeyboardEvent, type ReactNode, type SyntheticEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { isSuccess } from '../../api/dispatcher';
import { mentionQuery } from '../../api/people-queries';
import { useAppContext } from '../../app-context';
import { Avatar } from '../ui';
import './forum.css';

/** How long typing must pause before the names are looked up. */
export const MENTION_DEBOUNCE_MS = 250;

/** The characters of a name (the server's mention rule: letters of any script, digits, _ and -). */
const NAME_CHAR = /[\p{L}\p{N}_-]/u;
/** An @ right after a Latin letter, digit or address character is no mention (a@b.com). */
const BEFORE_MENTION = /[A-Za-z0-9_.@/-]/;

/** The mention being typed at the caret: where its @ is and the name so far (at least one character). */
export function mentionAt(value: string, caret: number): { start: number; query: string } | null {
  const before = [...value.slice(0, caret)];
  let length = 0;
  for (let i = before.length - 1; i >= 0 && length <= USERNAME_MAX; i--) {
    const ch = before[i]!;
    if (ch === '@') {
      if (length === 0) return null;
      const previous = before[i - 1];
      if (previous !== undefined && BEFORE_MENTION.test(previous)) return null;
      const query = before.slice(i + 1).join('');
      return { start: before.slice(0, i).join('').length, query };
    }
    if (!NAME_CHAR.test(ch)) return null;
    length += 1;
  }
  return null;
}

/**
 * Puts the mention of `user` and a space in place of the typed `@name`: `[@nickname](/user/12)`, linked by the id
 * and shown by the nickname (nicknames repeat and may hold spaces; usernames may be generated). Answers the new text
 * and where the caret goes.
 */
export function insertMention(
  value: string,
  mention: { start: number },
  caret: number,
  user: { id: number; nickname: string },
): { value: string; caret: number } {
  const text = `${mentionMarkdown(user)} `;
  const after = value.slice(caret).replace(/^[\p{L}\p{N}_-]*/u, '');
  return { value: value.slice(0, mention.start) + text + after, caret: mention.start + text.length };
}

/** Where the caret is inside a textarea, in pixels from its top left (a hidden copy of it is measured). */
export function caretPoint(el: HTMLTextAreaElement, position: number): { top: number; left: number } {
  const style = window.getComputedStyle(el);
  const mirror = document.createElement('div');
  for (const name of [
    'boxSizing',
    'width',
    'paddingTop',
    'paddingRight',
    'paddingBottom',
    'paddingLeft',
    'borderTopWidth',
    'borderRightWidth',
    'borderBottomWidth',
    'borderLeftWidth',
    'fontFamily',
    'fontSize',
    'fontWeight',
    'lineHeight',
    'letterSpacing',
    'wordSpacing',
    'tabSize',
  ] as const) {
    mirror.style[name] = style[name];
  }
  Object.assign(mirror.style, {
    position: 'absolute',
    visibility: 'hidden',
    top: '0',
    left: '-9999px',
    whiteSpace: 'pre-wrap',
    overflowWrap: 'break-word',
    borderStyle: 'solid',
  });
  mirror.textContent = el.value.slice(0, position);
  const marker = document.createElement('span');
  marker.textContent = '\u200b';
  mirror.appendChild(marker);
  document.body.appendChild(mirror);
  const lineHeight = parseFloat(style.lineHeight) || 25;
  const point = { top: marker.offsetTop + lineHeight - el.scrollTop, left: marker.offsetLeft - el.scrollLeft };
  mirror.remove();
  return point;
}

export interface Mentions {
  /** Spread on the textarea: keys, caret moves and the list's accessibility wiring. */
  textareaProps: {
    onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => void;
    onSelect: (event: SyntheticEvent<HTMLTextAreaElement>) => void;
    onInput: (event: SyntheticEvent<HTMLTextAreaElement>) => void;
    onBlur: () => void;
    'aria-autocomplete': 'list';
    'aria-expanded': boolean;
    'aria-controls': string | undefined;
    'aria-activedescendant': string | undefined;
  };
  /** The suggestion list, placed under the caret; render it next to the textarea inside `.lt-mention-host`. */
  popup: ReactNode;
}

/**
 * @mention suggestions for a textarea (by its id): after `@` and at least one character, the names that match
 * (users.list, looked up once typing pauses); up and down choose, Enter, Tab or a click inserts the mention, Escape
 * closes.
 */
export function useMentions(textareaId: string, value: string, onChange: (value: string) => void): Mentions {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const listId = useId();
  const [caret, setCaret] = useState(0);
  const [closedAt, setClosedAt] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const [keyword, setKeyword] = useState('');
  const mention = mentionAt(value, caret);
  const typed = mention && mention.start !== closedAt ? mention.query : '';

  useEffect(() => {
    if (!typed) {
      setKeyword('');
      return;
    }
    const timer = setTimeout(() => setKeyword(typed), MENTION_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  useEffect(() => setActive(0), [keyword]);

  const result = useQuery({
    ...mentionQuery(api, keyword),
    enabled: keyword !== '',
    // The last names stay up while the next ones load, so the list does not blink as one types.
    placeholderData: (previous) => previous,
  }).data;
  const users: UserSearchItem[] = keyword && result && isSuccess(result) ? result.Data.pageData : [];
  const open = typed !== '' && keyword !== '' && result !== undefined && mention !== null;

  const element = (): HTMLTextAreaElement | null => document.getElementById(textareaId) as HTMLTextAreaElement | null;

  const choose = (user: UserSearchItem): void => {
    const el = element();
    if (!mention || !el) return;
    const next = insertMention(el.value, mention, el.selectionEnd, { id: user.userId, nickname: user.nickname });
    onChange(next.value);
    setCaret(next.caret);
    setKeyword('');
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(next.caret, next.caret);
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (!open) return;
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setClosedAt(mention.start);
      return;
    }
    if (users.length === 0) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + users.length) % users.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      choose(users[Math.min(active, users.length - 1)]!);
    }
  };

  const onSelect = (event: SyntheticEvent<HTMLTextAreaElement>): void => {
    const next = event.currentTarget.selectionEnd;
    setCaret(next);
    // Typing a new mention (another @) opens the list again after an Escape.
    if (closedAt !== null && mentionAt(event.currentTarget.value, next)?.start !== closedAt) setClosedAt(null);
  };

  const optionId = (i: number) => `${listId}-${i}`;
  let popup: ReactNode = null;
  const el = open && typeof document !== 'undefined' ? element() : null;
  const host = el?.closest('.lt-mention-host');
  if (open && el && host) {
    const point = caretPoint(el, mention.start);
    const box = el.getBoundingClientRect();
    const frame = host.getBoundingClientRect();
    const left = Math.max(0, Math.min(point.left, el.clientWidth - 240));
    popup = (
      <ul
        id={listId}
        className="lt-mention-list"
        role="listbox"
        aria-label={t('editor.mentions')}
        style={{
          top: Math.round(box.top - frame.top + Math.min(point.top, el.clientHeight) + 4),
          left: Math.round(box.left - frame.left + left),
        }}
        data-testid="mention-list"
      >
        {users.length === 0 ? (
          <li className="lt-mention-list__empty">{t('editor.noMentions')}</li>
        ) : (
          users.map((user, i) => (
            <li
              key={user.userId}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'lt-mention-list__item lt-mention-list__item--active' : 'lt-mention-list__item'}
              onMouseDown={(event) => event.preventDefault()}
              onMouseEnter={() => setActive(i)}
              onClick={() => choose(user)}
              data-testid="mention-option"
            >
              <Avatar image={user.avatar} text={user.nickname} size="small" circle />
              <span className="lt-mention-list__name">{user.nickname}</span>
              {user.nickname !== user.username ? (
                <span className="lt-mention-list__username">@{user.username}</span>
              ) : null}
            </li>
          ))
        )}
      </ul>
    );
  }

  return {
    textareaProps: {
      onKeyDown,
      onSelect,
      onInput: (event) => setCaret(event.currentTarget.selectionEnd),
      onBlur: () => setKeyword(''),
      'aria-autocomplete': 'list',
      'aria-expanded': open,
      'aria-controls': open ? listId : undefined,
      'aria-activedescendant': open && users.length > 0 ? optionId(active) : undefined,
    },
    popup,
  };
}
