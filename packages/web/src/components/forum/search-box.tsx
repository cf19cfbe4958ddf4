import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { useNavigate, useSearchParams } from 'react-router';
import { Icon } from '../ui';
import './search-box.css';

export interface SearchBoxProps {
  /** `block`: the width of its container (in a page); default: sized for the desktop header. */
  variant?: 'header' | 'block';
}

/**
 * Goes to /search?keyword={text} on Enter or on its icon. Without JavaScript it is a plain GET form. The desktop
 * header has one; the mobile header has no room, so the mobile search and home pages show one.
 */
export function SearchBox({ variant = 'header' }: SearchBoxProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [text, setText] = useState(params.get('keyword') ?? '');
  const id = useId();

  const onSubmit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    void navigate(`/search?keyword=${encodeURIComponent(text.trim())}`);
  };

  return (
    <form
      className={variant === 'block' ? 'lt-search lt-search--block' : 'lt-search'}
      role="search"
      action="/search"
      method="get"
      onSubmit={onSubmit}
    >
      <label className="lt-visually-hidden" htmlFor={id}>
        {t('search.label')}
      </label>
      <input
        id={id}
        className="lt-search__input"
        type="search"
        name="keyword"
        value={text}
        placeholder={t('search.placeholder')}
        autoComplete="off"
        enterKeyHint="search"
        onChange={(event) => setText(event.target.value)}
      />
      <button className="lt-search__button" type="submit" aria-label={t('search.submit')}>
        <Icon name="search" size={18} />
      </button>
    </form>
  );
}
