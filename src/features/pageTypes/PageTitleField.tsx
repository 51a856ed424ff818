import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PAGE_RENAME_DEBOUNCE_MS } from '../../../schema/constants';
import { LIMITS } from '../../../schema/constants';

/**
 * The title of a page that has no document (a folder, an embed): a plain field in the title's
 * look. Typing shows at once (`onEdited`: the sidebar and breadcrumbs follow); it is saved 500 ms
 * after the last key (spec §9), and at once when the field is left or the screen closes.
 */
export function PageTitleField({
  title,
  editable,
  onEdited,
  onSave,
}: {
  title: string;
  editable: boolean;
  onEdited(title: string): void;
  onSave(title: string): void;
}) {
  const { t } = useTranslation();
  const [value, setValue] = useState(title);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const pending = useRef<string | null>(null);
  const save = useRef(onSave);
  save.current = onSave;
  const typing = useRef(false);

  // Someone else renamed it: shown unless this person is typing.
  useEffect(() => {
    if (!typing.current) setValue(title);
  }, [title]);

  const flush = () => {
    clearTimeout(timer.current);
    if (pending.current !== null) save.current(pending.current);
    pending.current = null;
    typing.current = false;
  };
  useEffect(() => () => flush(), []);

  if (!editable) return <h1 className="type-page-title">{title || t('untitled')}</h1>;
  return (
    <h1 className="type-page-title">
      <input
        className="type-page-title-input"
        value={value}
        maxLength={LIMITS.titleLength}
        placeholder={t('untitled')}
        aria-label={t('pageTypes.title')}
        onChange={(event) => {
          typing.current = true;
          setValue(event.target.value);
          onEdited(event.target.value);
          pending.current = event.target.value;
          clearTimeout(timer.current);
          timer.current = setTimeout(flush, PAGE_RENAME_DEBOUNCE_MS);
        }}
        onBlur={flush}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            flush();
          }
        }}
      />
    </h1>
  );
}
