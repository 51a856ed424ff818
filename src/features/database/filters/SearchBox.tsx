import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** How long typing pauses before the rows are asked for again. */
export const SEARCH_DELAY_MS = 250;

/**
 * «Поиск» in a database's toolbar: a click opens a field; what is typed finds rows by their
 * title (the rows query's `search`, on the server), shortly after typing pauses. Escape, or
 * leaving it empty, closes it. The search is not saved to the view.
 */
export function SearchBox({ onSearch }: { onSearch(search: string): void }) {
  const { t } = useTranslation('automation');
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const onSearchRef = useRef(onSearch);
  onSearchRef.current = onSearch;
  useEffect(() => {
    const timer = setTimeout(() => onSearchRef.current(text.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  if (!open) {
    return (
      <button type="button" className="db-button" aria-label={t('database.search')} title={t('database.search')} onClick={() => setOpen(true)}>
        ⌕
      </button>
    );
  }
  return (
    <input
      className="db-search input-compact"
      type="search"
      value={text}
      autoFocus
      placeholder={t('database.searchPlaceholder')}
      aria-label={t('database.search')}
      onChange={(e) => setText(e.target.value)}
      onBlur={() => text === '' && setOpen(false)}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.preventDefault();
        setText('');
        setOpen(false);
      }}
    />
  );
}
