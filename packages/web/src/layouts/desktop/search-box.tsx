import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { Icon } from '../../components/ui';

/** Goes to /search?keyword={text} on Enter or on its icon. Without JavaScript it is a plain GET form. */
export function SearchBox() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [text, setText] = useState(params.get('keyword') ?? '');

  const onSubmit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    void navigate(`/search?keyword=${encodeURIComponent(text.trim())}`);
  };

  return (
    <form className="lt-search" role="search" action="/search" method="get" onSubmit={onSubmit}>
      <label className="lt-visually-hidden" htmlFor="header-search">
        {t('search.label')}
      </label>
      <input
        id="header-search"
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
