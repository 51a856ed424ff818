import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DATABASE_LIMITS } from '../../../schema/blocks/database';
import { LIMITS } from '../../../schema/constants';

export interface DatabaseAbout {
  title?: string;
  description?: string;
}

interface DatabaseHeadingProps extends DatabaseAbout {
  editable: boolean;
  /** Saves a changed title or description (null: none); false when the server refused it. */
  onSave(about: { title?: string | null; description?: string | null }): Promise<boolean>;
}

/**
 * An inline database's title above its view tabs, and its description under it (docs/web-app.md
 * «Table view»). For an editor both are fields: Enter or leaving saves, Escape puts back what was
 * there; a database without a description offers «Добавить описание», shown on hover. A reader
 * sees them as text, and nothing when there is none. A Database page has no such heading: its
 * page's title names it.
 */
export function DatabaseHeading({ title, description, editable, onSave }: DatabaseHeadingProps) {
  const { t } = useTranslation('automation');
  const [addingDescription, setAddingDescription] = useState(false);
  if (!editable) {
    if (!title && !description) return null;
    return (
      <div className="db-heading">
        {title && (
          <div className="db-title" role="heading" aria-level={2}>
            {title}
          </div>
        )}
        {description && <div className="db-description">{description}</div>}
      </div>
    );
  }
  const showDescription = Boolean(description) || addingDescription;
  return (
    <div className="db-heading">
      <TextField
        className="db-title"
        value={title ?? ''}
        label={t('database.heading.title')}
        placeholder={t('database.heading.untitled')}
        maxLength={LIMITS.titleLength}
        onSave={(text) => onSave({ title: text || null })}
      />
      {showDescription ? (
        <TextField
          className="db-description"
          multiline
          autoFocus={addingDescription && !description}
          value={description ?? ''}
          label={t('database.heading.description')}
          placeholder={t('database.heading.descriptionPlaceholder')}
          maxLength={DATABASE_LIMITS.descriptionLength}
          onSave={(text) => onSave({ description: text || null })}
          onDone={() => setAddingDescription(false)}
        />
      ) : (
        <button type="button" className="db-add-description" onClick={() => setAddingDescription(true)}>
          {t('database.heading.addDescription')}
        </button>
      )}
    </div>
  );
}

interface TextFieldProps {
  className: string;
  value: string;
  label: string;
  placeholder: string;
  maxLength: number;
  multiline?: boolean;
  autoFocus?: boolean;
  onSave(text: string): Promise<boolean>;
  /** Left (saved, reverted or refused). */
  onDone?(): void;
}

/** A plain-text field that saves its trimmed text on Enter (a line break: Shift+Enter in a description) or on leaving it, and puts the stored text back on Escape. */
function TextField({ className, value, label, placeholder, maxLength, multiline, autoFocus, onSave, onDone }: TextFieldProps) {
  const [draft, setDraft] = useState(value);
  const focused = useRef(false);
  const reverting = useRef(false);
  // Someone else's change (or the server's answer) shows unless this field is being edited.
  useEffect(() => {
    if (!focused.current) setDraft(value);
  }, [value]);
  const leave = async () => {
    if (!focused.current) return;
    focused.current = false;
    if (reverting.current) {
      reverting.current = false;
      setDraft(value);
      onDone?.();
      return;
    }
    const text = draft.trim();
    if (text !== value) {
      setDraft(text);
      if (!(await onSave(text))) setDraft(value);
    }
    onDone?.();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !(multiline && event.shiftKey)) {
      event.preventDefault();
      event.currentTarget.blur();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      reverting.current = true;
      event.currentTarget.blur();
    }
  };
  const common = {
    className: `${className} db-heading-field`,
    value: draft,
    placeholder,
    maxLength,
    autoFocus,
    'aria-label': label,
    onFocus: () => {
      focused.current = true;
    },
    onBlur: () => void leave(),
    onKeyDown,
  };
  if (multiline) return <textarea {...common} rows={Math.max(1, draft.split('\n').length)} onChange={(event) => setDraft(event.target.value)} />;
  return <input {...common} type="text" onChange={(event) => setDraft(event.target.value)} />;
}
