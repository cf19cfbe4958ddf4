import { BEFORE_TOPIC, isTopicName, TOPIC_NAME_MAX, topicKey, type TopicItem } from '@luntan/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type KeyboardEvent, type SyntheticEvent } from 'react';
import { isSuccess } from '../../api/dispatcher';
import { topicSearchQuery } from '../../api/topic-queries';
import { useAppContext } from '../../app-context';
import { useTranslation } from '../../i18n/use-translation';
import { caretPoint, MENTION_DEBOUNCE_MS, useMentions, type Mentions } from './mention-suggest';
import './forum.css';

/**
 * Topic suggestions for a textarea: after `#` and at least one character, the topics whose name holds what is typed
 * (topics.list), and the typed name itself as a new topic when none has it; choosing one writes `#name# `. The rules
 * of a name are the server's (packages/shared/src/topics.ts).
 */

/** The topic being typed at the caret: where its `#` is and the name so far (at least one character, no `#`). */
export function topicAt(value: string, caret: number): { start: number; query: string } | null {
  const before = [...value.slice(0, caret)];
  for (let i = before.length - 1, length = 0; i >= 0 && length <= TOPIC_NAME_MAX; i--, length++) {
    const ch = before[i]!;
    if (ch === '\n') return null;
    if (ch !== '#') continue;
    if (length === 0) return null;
    const previous = before[i - 1];
    if (previous !== undefined && BEFORE_TOPIC.test(previous)) return null;
    const query = before.slice(i + 1).join('');
    // A space right after `#` is no topic (Markdown headings, `# 1`).
    if (!isTopicName(query.trimEnd()) || query !== query.trimStart()) return null;
    return { start: before.slice(0, i).join('').length, query };
  }
  return null;
}

/** Puts `#name# ` in place of the typed `#query`; answers the new text and where the caret goes. */
export function insertTopic(
  value: string,
  topic: { start: number },
  caret: number,
  name: string,
): { value: string; caret: number } {
  const text = `#${name}# `;
  // A closing `#` already typed after the caret is taken over.
  const after = value.slice(caret).replace(/^[^#\s]*#?/u, '');
  return { value: value.slice(0, topic.start) + text + after, caret: topic.start + text.length };
}

/** The suggestion list's options: the topics found, and the typed name as a new one when no topic has it. */
function optionsOf(query: string, found: TopicItem[]): Array<{ name: string; count: number | null }> {
  const options: Array<{ name: string; count: number | null }> = found.map((topic) => ({
    name: topic.content,
    count: topic.threadCount,
  }));
  const name = query.trim();
  if (isTopicName(name) && !found.some((topic) => topicKey(topic.content) === topicKey(name))) {
    options.push({ name, count: null });
  }
  return options;
}

export function useTopics(textareaId: string, value: string, onChange: (value: string) => void): Mentions {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const listId = useId();
  const [caret, setCaret] = useState(0);
  const [closedAt, setClosedAt] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const [keyword, setKeyword] = useState('');
  const topic = topicAt(value, caret);
  const typed = topic && topic.start !== closedAt ? topic.query.trim() : '';

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
    ...topicSearchQuery(api, keyword),
    enabled: keyword !== '',
    placeholderData: (previous) => previous,
  }).data;
  const found = keyword && result && isSuccess(result) ? result.Data.pageData : [];
  const options = keyword ? optionsOf(keyword, found) : [];
  const open = typed !== '' && keyword !== '' && result !== undefined && topic !== null && options.length > 0;

  const element = (): HTMLTextAreaElement | null => document.getElementById(textareaId) as HTMLTextAreaElement | null;

  const choose = (name: string): void => {
    const el = element();
    if (!topic || !el) return;
    const next = insertTopic(el.value, topic, el.selectionEnd, name);
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
      setClosedAt(topic.start);
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + options.length) % options.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      choose(options[Math.min(active, options.length - 1)]!.name);
    }
  };

  const onSelect = (event: SyntheticEvent<HTMLTextAreaElement>): void => {
    const next = event.currentTarget.selectionEnd;
    setCaret(next);
    if (closedAt !== null && topicAt(event.currentTarget.value, next)?.start !== closedAt) setClosedAt(null);
  };

  const optionId = (i: number) => `${listId}-${i}`;
  let popup: Mentions['popup'] = null;
  const el = open && typeof document !== 'undefined' ? element() : null;
  const host = el?.closest('.lt-mention-host');
  if (open && el && host) {
    const point = caretPoint(el, topic.start);
    const box = el.getBoundingClientRect();
    const frame = host.getBoundingClientRect();
    const left = Math.max(0, Math.min(point.left, el.clientWidth - 240));
    popup = (
      <ul
        id={listId}
        className="lt-mention-list"
        role="listbox"
        aria-label={t('topics.suggestions')}
        style={{
          top: Math.round(box.top - frame.top + Math.min(point.top, el.clientHeight) + 4),
          left: Math.round(box.left - frame.left + left),
        }}
        data-testid="topic-list"
      >
        {options.map((option, i) => (
          <li
            key={option.name}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            className={i === active ? 'lt-mention-list__item lt-mention-list__item--active' : 'lt-mention-list__item'}
            onMouseDown={(event) => event.preventDefault()}
            onMouseEnter={() => setActive(i)}
            onClick={() => choose(option.name)}
            data-testid="topic-option"
          >
            <span className="lt-mention-list__name">#{option.name}#</span>
            <span className="lt-mention-list__username">
              {option.count === null ? t('topics.newTopic') : t('topics.threadCount', { count: option.count })}
            </span>
          </li>
        ))}
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
      'aria-activedescendant': open ? optionId(active) : undefined,
    },
    popup,
  };
}

/** @mentions and #topics on one textarea: both hear every key; the open list (one at most) answers it. */
export function useSuggestions(textareaId: string, value: string, onChange: (value: string) => void): Mentions {
  const mentions = useMentions(textareaId, value, onChange);
  const topics = useTopics(textareaId, value, onChange);
  const m = mentions.textareaProps;
  const tp = topics.textareaProps;
  const shown = tp['aria-expanded'] ? tp : m;
  return {
    textareaProps: {
      onKeyDown: (event) => {
        m.onKeyDown(event);
        if (!event.defaultPrevented) tp.onKeyDown(event);
      },
      onSelect: (event) => {
        m.onSelect(event);
        tp.onSelect(event);
      },
      onInput: (event) => {
        m.onInput(event);
        tp.onInput(event);
      },
      onBlur: () => {
        m.onBlur();
        tp.onBlur();
      },
      'aria-autocomplete': 'list',
      'aria-expanded': m['aria-expanded'] || tp['aria-expanded'],
      'aria-controls': shown['aria-controls'],
      'aria-activedescendant': shown['aria-activedescendant'],
    },
    popup: topics.popup ?? mentions.popup,
  };
}
