import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MAIN_FIELD_ID, type DatabaseLayout, type OrderedField } from '../../../../schema/blocks/database';
import { foldText } from '../../../../schema/database';
import { Popover } from '../../../ui/Popover';
import { useDatabase } from '../context';
import { TYPE_ICONS } from './FieldMenu';
import { movedItem, useReorderable, type DropSide } from '../useReorderable';

/** Past this many fields the panel has a search box. */
const SEARCH_FROM = 6;

/** The view's fields as the panel lists them: those shown, in the view's order, then the hidden ones (the title is not among them: it always shows). */
export function propertiesOf(fieldIds: readonly string[], layout: DatabaseLayout): { shown: OrderedField[]; hidden: string[] } {
  const exists = new Set(fieldIds);
  const shown = layout.orderedFields.filter((entry) => entry.fieldId !== MAIN_FIELD_ID && exists.has(entry.fieldId));
  const listed = new Set(shown.map((entry) => entry.fieldId));
  return { shown, hidden: fieldIds.filter((id) => id !== MAIN_FIELD_ID && !listed.has(id)) };
}

/**
 * What a view shows of its rows (issue 34 §2): «Свойства» in the view's bar opens a panel listing
 * the fields shown (in order: dragged by their handle, or Alt+↑/↓ on one) and those hidden, each
 * shown or hidden by its eye; «Скрыть все» / «Показать все»; a search box when there are many.
 * A table's columns, a board's cards, a calendar's items and a timeline's table all show what
 * their view lists (`orderedFields`). The title always shows. Only an editor sees the button.
 */
export function PropertiesButton({ layout }: { layout: DatabaseLayout }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const { hidden } = propertiesOf(Object.keys(db.config.fields), layout);
  if (!db.editable) return null;
  return (
    <>
      <button
        ref={button}
        type="button"
        className={`db-button${hidden.length ? ' is-on' : ''}`}
        aria-expanded={open}
        aria-haspopup="dialog"
        onClick={() => setOpen((v) => !v)}
      >
        {t('database.properties.button')}
        {hidden.length > 0 && (
          <span className="db-badge" title={t('database.properties.hiddenCount', { count: hidden.length })}>
            {hidden.length}
          </span>
        )}
      </button>
      {open && (
        <Popover
          anchor={button.current}
          onClose={() => setOpen(false)}
          label={t(`database.properties.title.${panelKind(layout)}`)}
          className="menu db-menu db-props"
          align="end"
        >
          <PropertiesList layout={layout} />
        </Popover>
      )}
    </>
  );
}

function panelKind(layout: DatabaseLayout): 'board' | 'calendar' | 'table' {
  // A gallery's cards and a list's lines show fields as a board's cards do.
  return layout.type === 'board' || layout.type === 'gallery' || layout.type === 'list' ? 'board' : layout.type === 'calendar' ? 'calendar' : 'table';
}

function PropertiesList({ layout }: { layout: DatabaseLayout }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const [query, setQuery] = useState('');
  const fieldIds = Object.keys(db.config.fields);
  const { shown, hidden } = propertiesOf(fieldIds, layout);
  const title = layout.orderedFields.find((entry) => entry.fieldId === MAIN_FIELD_ID);
  const save = (next: OrderedField[]) => void db.saveView(layout.uid, { orderedFields: title ? [title, ...next] : next });
  const matches = useMemo(() => {
    const q = foldText(query.trim());
    return (id: string) => !q || foldText(db.config.fields[id]?.name ?? '').includes(q);
  }, [query, db.config.fields]);
  const show = (fieldId: string) => save([...shown, { fieldId, isWrap: false }]);
  const hide = (fieldId: string) => save(shown.filter((entry) => entry.fieldId !== fieldId));
  const move = (fieldId: string, target: string, side: DropSide) => {
    const moved = movedItem(
      shown.map((entry) => ({ id: entry.fieldId, entry })),
      fieldId,
      target,
      side,
    );
    save(moved.map(({ entry }) => entry));
  };
  const step = (fieldId: string, by: -1 | 1) => {
    const at = shown.findIndex((entry) => entry.fieldId === fieldId);
    const target = shown[at + by];
    if (target) move(fieldId, target.fieldId, by < 0 ? 'before' : 'after');
  };
  const visible = shown.filter((entry) => matches(entry.fieldId));
  const notShown = hidden.filter(matches);
  return (
    <div className="db-props-body">
      {fieldIds.length > SEARCH_FROM && (
        <input
          className="db-menu-name"
          type="search"
          value={query}
          autoFocus
          placeholder={t('database.properties.search')}
          aria-label={t('database.properties.search')}
          onChange={(e) => setQuery(e.target.value)}
        />
      )}
      <div className="db-props-head">
        <span>{t('database.properties.shown')}</span>
        {shown.length > 0 && (
          <button type="button" className="db-link-button" onClick={() => save([])}>
            {t('database.properties.hideAll')}
          </button>
        )}
      </div>
      <ul className="db-props-list" aria-label={t('database.properties.shown')}>
        <li className="db-props-item is-fixed" title={t('database.properties.titleAlways')}>
          <span className="db-props-icon" aria-hidden>
            {TYPE_ICONS[db.config.fields[MAIN_FIELD_ID]?.type ?? 'text']}
          </span>
          <span className="db-props-name">{db.config.fields[MAIN_FIELD_ID]?.name ?? ''}</span>
          <span className="db-props-note">{t('database.properties.always')}</span>
        </li>
        {visible.map((entry) => (
          <ShownProperty key={entry.fieldId} scope={layout.uid} fieldId={entry.fieldId} onHide={hide} onMove={move} onStep={step} />
        ))}
      </ul>
      <div className="db-props-head">
        <span>{t('database.properties.hidden')}</span>
        {hidden.length > 0 && (
          <button type="button" className="db-link-button" onClick={() => save([...shown, ...hidden.map((fieldId) => ({ fieldId, isWrap: false }))])}>
            {t('database.properties.showAll')}
          </button>
        )}
      </div>
      <ul className="db-props-list" aria-label={t('database.properties.hidden')}>
        {notShown.map((fieldId) => (
          <li key={fieldId} className="db-props-item is-hidden">
            <span className="db-props-icon" aria-hidden>
              {TYPE_ICONS[db.config.fields[fieldId].type]}
            </span>
            <span className="db-props-name">{db.config.fields[fieldId].name}</span>
            <EyeButton shown={false} name={db.config.fields[fieldId].name} onClick={() => show(fieldId)} />
          </li>
        ))}
        {hidden.length === 0 && <li className="db-props-empty">{t('database.properties.noneHidden')}</li>}
        {hidden.length > 0 && notShown.length === 0 && visible.length === 0 && <li className="db-props-empty">{t('database.properties.noMatch')}</li>}
      </ul>
    </div>
  );
}

function ShownProperty({
  scope,
  fieldId,
  onHide,
  onMove,
  onStep,
}: {
  scope: string;
  fieldId: string;
  onHide(fieldId: string): void;
  onMove(fieldId: string, target: string, side: DropSide): void;
  onStep(fieldId: string, by: -1 | 1): void;
}) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const element = useRef<HTMLLIElement>(null);
  const handle = useRef<HTMLSpanElement>(null);
  const field = db.config.fields[fieldId];
  const side = useReorderable(element, { kind: 'db-prop', scope, id: fieldId }, 'y', (id, where) => onMove(id, fieldId, where), { handle });
  const onKeyDown = (event: KeyboardEvent) => {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    event.preventDefault();
    onStep(fieldId, event.key === 'ArrowUp' ? -1 : 1);
  };
  return (
    <li ref={element} className={`db-props-item${side ? ` is-drop-${side}` : ''}`} data-field-id={fieldId} onKeyDown={onKeyDown}>
      <span ref={handle} className="db-props-drag" title={t('database.properties.drag')} aria-hidden>
        ⋮⋮
      </span>
      <span className="db-props-icon" aria-hidden>
        {TYPE_ICONS[field.type]}
      </span>
      <span className="db-props-name">{field.name}</span>
      <EyeButton shown name={field.name} onClick={() => onHide(fieldId)} keyshortcuts="Alt+ArrowUp Alt+ArrowDown" />
    </li>
  );
}

function EyeButton({ shown, name, onClick, keyshortcuts }: { shown: boolean; name: string; onClick(): void; keyshortcuts?: string }) {
  const { t } = useTranslation('automation');
  const label = t(shown ? 'database.properties.hideOne' : 'database.properties.showOne', { name });
  return (
    <button
      type="button"
      className={`db-props-eye${shown ? ' is-shown' : ''}`}
      aria-label={label}
      title={label}
      aria-keyshortcuts={keyshortcuts}
      onClick={onClick}
    >
      <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden>
        <path d="M1 8s2.6-5 7-5 7 5 7 5-2.6 5-7 5-7-5-7-5z" fill="none" stroke="currentColor" strokeWidth="1.3" />
        <circle cx="8" cy="8" r="2.2" fill={shown ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="1.3" />
        {!shown && <path d="M2 14L14 2" stroke="currentColor" strokeWidth="1.3" />}
      </svg>
    </button>
  );
}
