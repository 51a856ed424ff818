import { memo, useEffect, useId, useRef, useState, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DATABASE_FIELD_TYPES,
  DATABASE_LIMITS,
  MAIN_FIELD_ID,
  NUMBER_DECIMALS_MAX,
  NUMBER_FORMATS,
  FILTER_CONDITIONS,
  hasOptions,
  type DatabaseField,
  type DatabaseFieldType,
  type DatabaseLayout,
  type NumberFormat,
  type SelectOption,
} from '../../../../schema/blocks/database';
import type { DatabaseChoice, RetypeReport } from '../../../../schema/database';
import { newId } from '../../../../schema/ids';
import { PaperclipIcon } from '../../../ui/icons';
import { Dialog } from '../../../ui/Dialog';
import { FormulaEditor } from './FormulaEditor';
import { Popover } from '../../../ui/Popover';
import { showToast } from '../../../ui/Toast';
import type { GridColumn } from './columns';
import { withOrderedField } from './columns';
import { useDatabase } from '../context';
import { refusalText } from './format';
import { OptionsEditor } from './OptionsEditor';
import { firstRelationId, RollupSettings } from './RollupSettings';

/** A short sign of each field type, before its name in the header (an icon where the fonts have no fitting sign). */
export const TYPE_ICONS: Record<DatabaseFieldType, ReactNode> = {
  text: 'Aa',
  number: '#',
  checkbox: '☑',
  select: '▾',
  multiSelect: '☰',
  status: '◔',
  date: '▦',
  person: '☺',
  relation: '⇄',
  url: '↗',
  email: '@',
  phone: '☎',
  files: <PaperclipIcon size={13} />,
  createdTime: '◷',
  formula: 'ƒ',
  createdBy: '☺',
  editedTime: '◷',
  editedBy: '☺',
  uniqueId: '№',
  rollup: '∑',
};

/** Types a field can be made of, or turned into (all of them). */
export const FIELD_TYPES = DATABASE_FIELD_TYPES;

/**
 * A field of another type, keeping its name (and its options when both types have them). `fields`:
 * the database's other fields — a rollup reads through the first relation among them (the
 * type is offered only when there is one: `unavailableTypes`).
 */
export function retyped(field: DatabaseField, type: DatabaseFieldType, fields: Readonly<Record<string, DatabaseField>> = {}): DatabaseField {
  const options: SelectOption[] = hasOptions(field) ? field.options.map(({ id, name, color }) => (color ? { id, name, color } : { id, name })) : [];
  switch (type) {
    case 'select':
    case 'multiSelect':
      return { name: field.name, type, options };
    case 'status':
      return { name: field.name, type, options: options.map((o) => ({ ...o, group: 'todo' as const })) };
    case 'number':
      return { name: field.name, type, format: 'plain' };
    case 'date':
      return { name: field.name, type, withTime: false };
    case 'formula':
      // Written in the column's dialog (FormulaEditor): no values until then.
      return { name: field.name, type, expression: '' };
    case 'rollup':
      // Its relation, field and calculation chosen in the column's menu (RollupSettings) afterwards.
      return { name: field.name, type, relationFieldId: firstRelationId(fields) ?? '', targetFieldId: MAIN_FIELD_ID, calculation: 'countAll' };
    default:
      return { name: field.name, type } as DatabaseField;
  }
}

/** A new field of a type with a name (`fields`: the database's, as `retyped` takes them). */
export function newField(name: string, type: DatabaseFieldType, fields: Readonly<Record<string, DatabaseField>> = {}): DatabaseField {
  if (type === 'status') {
    return {
      name,
      type,
      options: [
        { id: newId(), name: 'Не начато', color: 'gray', group: 'todo' },
        { id: newId(), name: 'В работе', color: 'blue', group: 'inProgress' },
        { id: newId(), name: 'Готово', color: 'green', group: 'done' },
      ],
    };
  }
  return retyped({ name, type: 'text' }, type, fields);
}

/** The database's fields but one (a field being retyped is not a relation a rollup of it can read through). */
function fieldsBut(fields: Readonly<Record<string, DatabaseField>>, fieldId: string): Record<string, DatabaseField> {
  const { [fieldId]: _, ...rest } = fields;
  return rest;
}

/** Types that cannot be chosen with these fields, each with why: a rollup needs a relation to read through. */
export function unavailableTypes(fields: Readonly<Record<string, DatabaseField>>): Partial<Record<DatabaseFieldType, 'needsRelation'>> {
  return firstRelationId(fields) === undefined ? { rollup: 'needsRelation' } : {};
}

interface ColumnHeaderProps {
  column: GridColumn;
  layout: DatabaseLayout;
  width: number;
  pinnedLeft?: number;
  onResizeStart(fieldId: string, event: React.MouseEvent | React.TouchEvent): void;
  dragRef?: Ref<HTMLDivElement>;
  dropSide?: 'left' | 'right';
  /** Its column's position in the grid (aria-colindex: the grid draws some columns only). */
  colIndex?: number;
}

/** A column's header: its type and name; a click opens the field's menu (editors only). Memoized: scrolling the rows does not draw the header again. */
export const ColumnHeader = memo(function ColumnHeader({ column, layout, width, pinnedLeft, onResizeStart, dragRef, dropSide, colIndex }: ColumnHeaderProps) {
  const { editable } = useDatabase();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const className = ['db-hcell', pinnedLeft !== undefined ? 'db-pin' : '', dropSide ? `is-drop-${dropSide}` : ''].filter(Boolean).join(' ');
  return (
    <div className={className} role="columnheader" aria-colindex={colIndex} style={{ width, left: pinnedLeft }} ref={dragRef} data-field={column.fieldId}>
      <button ref={button} type="button" className="db-hcell-button" disabled={!editable} onClick={() => setOpen(true)} title={column.field.name}>
        <span className="db-type-icon" aria-hidden>
          {TYPE_ICONS[column.field.type]}
        </span>
        <span className="db-hcell-name">{column.field.name}</span>
      </button>
      {editable && (
        <div
          className="db-resize"
          role="separator"
          aria-orientation="vertical"
          onMouseDown={(e) => onResizeStart(column.fieldId, e)}
          onTouchStart={(e) => onResizeStart(column.fieldId, e)}
        />
      )}
      {open && <FieldMenu column={column} layout={layout} anchor={button.current} onClose={() => setOpen(false)} />}
    </div>
  );
});

/**
 * The field types to pick from, each with its icon (a field's «Тип» submenu, a new field's menu);
 * one that cannot be chosen now is shown disabled with why («Сводка — Сначала добавьте связь»).
 */
function FieldTypeItems({
  types,
  unavailable = {},
  onPick,
}: {
  types: readonly DatabaseFieldType[];
  unavailable?: Partial<Record<DatabaseFieldType, 'needsRelation'>>;
  onPick(type: DatabaseFieldType): void;
}) {
  const { t } = useTranslation('automation');
  return (
    <div className="db-menu-types" role="group" aria-label={t('database.fieldType')}>
      {types.map((type) => {
        const why = unavailable[type];
        return (
          <button key={type} type="button" className="menu-item" disabled={why !== undefined} onClick={() => onPick(type)}>
            <span className="menu-item-icon" aria-hidden>
              {TYPE_ICONS[type]}
            </span>
            {t(`database.types.${type}`)}
            {why === 'needsRelation' && <span className="db-type-hint">{t('database.rollup.needsRelation')}</span>}
          </button>
        );
      })}
    </div>
  );
}

function FieldMenu({ column, layout, anchor, onClose }: { column: GridColumn; layout: DatabaseLayout; anchor: HTMLElement | null; onClose(): void }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const { fieldId, field } = column;
  const [name, setName] = useState(field.name);
  const [types, setTypes] = useState(false);
  const [report, setReport] = useState<{ type: DatabaseFieldType; report: RetypeReport } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const main = fieldId === MAIN_FIELD_ID;
  const others = fieldsBut(db.config.fields, fieldId);

  const rename = async () => {
    if (name.trim() === field.name || name.trim() === '') return;
    await db.saveField(fieldId, { ...field, name: name.trim() });
  };
  const retype = async (type: DatabaseFieldType) => {
    if (type === field.type) return;
    const next = retyped({ ...field, name: name.trim() || field.name }, type, others);
    try {
      const dry = await db.api.retypeReport(db.databaseId, fieldId, next);
      if (dry.dropped > 0) {
        setReport({ type, report: dry });
        return;
      }
      await applyRetype(type);
    } catch {
      showToast(t('database.writeFailed'), 'error');
    }
  };
  const applyRetype = async (type: DatabaseFieldType) => {
    try {
      const { block } = await db.api.updateField(db.databaseId, fieldId, retyped({ ...field, name: name.trim() || field.name }, type, others));
      db.apply(block);
      onClose();
    } catch (error) {
      showToast(refusalText(error, t('database.writeFailed')), 'error');
    }
  };
  const remove = async () => {
    try {
      db.apply(await db.api.deleteField(db.databaseId, fieldId));
      onClose();
    } catch (error) {
      showToast(refusalText(error, t('database.writeFailed')), 'error');
    }
  };
  const view = (patch: Partial<DatabaseLayout>) => {
    void db.saveView(layout.uid, patch);
    onClose();
  };
  const sort = (direction: 'asc' | 'desc') => view({ sorts: [...(layout.sorts ?? []).filter((s) => s.fieldId !== fieldId), { fieldId, direction }] });
  const filter = () => {
    const condition = FILTER_CONDITIONS[field.type][0];
    view({ filter: { op: layout.filter?.op ?? 'and', rules: [...(layout.filter?.rules ?? []), { fieldId, condition }] } });
  };

  if (report) {
    const { dropped, droppedExamples } = report.report;
    return (
      <Dialog
        title={t('database.retypeTitle', { name: field.name, type: t(`database.types.${report.type}`) })}
        onClose={() => {
          setReport(null);
          onClose();
        }}
        footer={
          <>
            <button
              type="button"
              className="db-button"
              onClick={() => {
                setReport(null);
                onClose();
              }}
            >
              {t('database.cancel')}
            </button>
            <button type="button" className="db-button is-danger" onClick={() => void applyRetype(report.type)}>
              {t('database.retypeConfirm')}
            </button>
          </>
        }
      >
        <p className="db-retype-note">{t('database.retypeDrops', { count: dropped, examples: droppedExamples.map((e) => `«${e}»`).join(', ') })}</p>
      </Dialog>
    );
  }
  if (confirmDelete) {
    return (
      <Dialog
        title={t('database.deleteFieldTitle', { name: field.name })}
        onClose={onClose}
        footer={
          <>
            <button type="button" className="db-button" onClick={onClose}>
              {t('database.cancel')}
            </button>
            <button type="button" className="db-button is-danger" onClick={() => void remove()}>
              {t('database.deleteField')}
            </button>
          </>
        }
      >
        <p>{t('database.deleteFieldNote')}</p>
      </Dialog>
    );
  }
  return (
    // A dialog (not a menu): it holds fields — the name, formats, options — and its actions are buttons.
    <Popover anchor={anchor} onClose={() => void rename().then(onClose)} label={t('database.fieldMenu')} className="menu db-menu">
      <input
        className="db-menu-name"
        value={name}
        aria-label={t('database.fieldName')}
        autoFocus
        onChange={(e) => setName(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') void rename().then(onClose);
        }}
      />
      {!main && (
        <button type="button" className="menu-item" aria-expanded={types} onClick={() => setTypes((v) => !v)}>
          <span className="menu-item-icon" aria-hidden>
            {TYPE_ICONS[field.type]}
          </span>
          {t('database.fieldType')}: {t(`database.types.${field.type}`)}
        </button>
      )}
      {types && (
        <FieldTypeItems types={FIELD_TYPES.filter((type) => type !== field.type)} unavailable={unavailableTypes(others)} onPick={(type) => void retype(type)} />
      )}
      {field.type === 'formula' && <FormulaEditor fieldId={fieldId} field={field} />}
      {field.type === 'uniqueId' && <PrefixEditor fieldId={fieldId} field={field} />}
      {field.type === 'relation' && <RelationSettings fieldId={fieldId} field={field} />}
      {field.type === 'rollup' && <RollupSettings fieldId={fieldId} field={field} />}
      {field.type === 'number' && (
        <label className="db-menu-row">
          {t('database.numberFormat')}
          <select value={field.format ?? 'plain'} onChange={(e) => void db.saveField(fieldId, { ...field, format: e.target.value as NumberFormat })}>
            {NUMBER_FORMATS.map((f) => (
              <option key={f} value={f}>
                {t(`database.formats.${f}`)}
              </option>
            ))}
          </select>
        </label>
      )}
      {field.type === 'number' && (
        <label className="db-menu-row">
          {t('database.numberDecimals')}
          <select
            value={field.decimals ?? ''}
            onChange={(e) => {
              const { decimals: _, ...rest } = field;
              void db.saveField(fieldId, e.target.value === '' ? rest : { ...rest, decimals: Number(e.target.value) });
            }}
          >
            <option value="">{t('database.decimalsAuto')}</option>
            {Array.from({ length: NUMBER_DECIMALS_MAX + 1 }, (_, n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
      )}
      {field.type === 'date' && (
        <label className="db-menu-row">
          <input type="checkbox" checked={!!field.withTime} onChange={(e) => void db.saveField(fieldId, { ...field, withTime: e.target.checked })} />{' '}
          {t('database.withTime')}
        </label>
      )}
      {hasOptions(field) && <OptionsEditor field={field} onSave={(next) => db.saveField(fieldId, next)} />}
      <div className="menu-separator" />
      <button type="button" className="menu-item" onClick={() => sort('asc')}>
        <span className="menu-item-icon" aria-hidden>
          ↑
        </span>
        {t('database.sortAsc')}
      </button>
      <button type="button" className="menu-item" onClick={() => sort('desc')}>
        <span className="menu-item-icon" aria-hidden>
          ↓
        </span>
        {t('database.sortDesc')}
      </button>
      <button type="button" className="menu-item" onClick={filter}>
        <span className="menu-item-icon" aria-hidden>
          ⚲
        </span>
        {t('database.addFilter')}
      </button>
      <button type="button" className="menu-item" onClick={() => view({ orderedFields: withOrderedField(layout, fieldId, { isWrap: !column.isWrap }) })}>
        <span className="menu-item-icon" aria-hidden>
          ↵
        </span>
        {column.isWrap ? t('database.unwrap') : t('database.wrap')}
      </button>
      {!main && (
        <>
          <button
            type="button"
            className="menu-item"
            onClick={() => view({ orderedFields: layout.orderedFields.filter((entry) => entry.fieldId !== fieldId) })}
          >
            <span className="menu-item-icon" aria-hidden>
              ◌
            </span>
            {t('database.hideField')}
          </button>
          <div className="menu-separator" />
          <button type="button" className="menu-item is-danger" onClick={() => setConfirmDelete(true)}>
            <span className="menu-item-icon" aria-hidden>
              ✕
            </span>
            {t('database.deleteField')}
          </button>
        </>
      )}
    </Popover>
  );
}

/** «+» at the end of the header: a new field of a chosen type, shown in every view (memoized: the grid renders on every scrolled frame). */
export const AddFieldButton = memo(function AddFieldButton({ layout, width, colIndex }: { layout: DatabaseLayout; width: number; colIndex?: number }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const button = useRef<HTMLButtonElement>(null);
  const add = async (type: DatabaseFieldType) => {
    const fallback = t(`database.types.${type}`);
    try {
      const last = layout.orderedFields[layout.orderedFields.length - 1]?.fieldId;
      db.apply(
        await db.api.addField(db.databaseId, newField(name.trim() || fallback, type, db.config.fields), { id: newId(), ...(last ? { placeAfter: last } : {}) }),
      );
      setOpen(false);
      setName('');
    } catch {
      showToast(t('database.writeFailed'), 'error');
    }
  };
  return (
    // A header cell of the grid's last column (a grid's row holds cells alone).
    <div className="db-hcell db-add-field" role="columnheader" aria-colindex={colIndex} style={{ width }}>
      <button
        ref={button}
        type="button"
        className="db-hcell-button"
        aria-label={t('database.addField')}
        title={t('database.addField')}
        onClick={() => setOpen(true)}
      >
        +
      </button>
      {open && (
        <Popover anchor={button.current} onClose={() => setOpen(false)} label={t('database.addField')} className="menu db-menu" align="end">
          <input
            className="db-menu-name"
            value={name}
            placeholder={t('database.fieldName')}
            aria-label={t('database.fieldName')}
            autoFocus
            onChange={(e) => setName(e.target.value)}
          />
          <FieldTypeItems types={FIELD_TYPES} unavailable={unavailableTypes(db.config.fields)} onPick={(type) => void add(type)} />
        </Popover>
      )}
    </div>
  );
});

/**
 * A relation's database (this one, or another of the workspace the user can read) and its limit
 * (docs/relations.md). Another database clears the cells (they named rows of the one before): the
 * change asks first when some cells hold rows.
 */
function RelationSettings({ fieldId, field }: { fieldId: string; field: Extract<DatabaseField, { type: 'relation' }> }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const [choices, setChoices] = useState<DatabaseChoice[] | null>(null);
  const [pending, setPending] = useState<{ next: DatabaseField; dropped: number } | null>(null);
  // What was chosen, shown (and built on by the next choice) while it is saved: the server's answer brings it into the config.
  const [saving, setSaving] = useState<Extract<DatabaseField, { type: 'relation' }> | null>(null);
  const current = saving ?? field;
  const save = async (next: DatabaseField) => {
    const chosen = next as Extract<DatabaseField, { type: 'relation' }>;
    setSaving(chosen);
    try {
      await db.saveField(fieldId, next);
    } finally {
      setSaving((now) => (now === chosen ? null : now));
    }
  };
  useEffect(() => {
    let live = true;
    db.api.relatable(db.databaseId).then(
      (found) => live && setChoices(found.filter((choice) => choice.id !== db.databaseId)),
      () => live && setChoices([]),
    );
    return () => {
      live = false;
    };
  }, [db.api, db.databaseId]);
  const target = current.databaseId ?? '';
  const retarget = async (databaseId: string) => {
    const { databaseId: _, ...rest } = current;
    const next = (databaseId ? { ...rest, databaseId } : rest) as Extract<DatabaseField, { type: 'relation' }>;
    // Shown at once, and what a choice made meanwhile builds on (the dry run first, then the save).
    setSaving(next);
    const unsaved = () => setSaving((now) => (now === next ? null : now));
    try {
      const report = await db.api.retypeReport(db.databaseId, fieldId, next);
      if (report.dropped > 0) {
        unsaved();
        setPending({ next, dropped: report.dropped });
      } else await save(next);
    } catch {
      unsaved();
      showToast(t('database.writeFailed'), 'error');
    }
  };
  // The database named may be one this user cannot read (someone else's relation): shown as such, kept until changed.
  const unknownTarget = target !== '' && choices !== null && !choices.some((choice) => choice.id === target);
  return (
    <>
      <label className="db-menu-row">
        {t('database.relation.database')}
        <select value={target} disabled={choices === null} onChange={(e) => void retarget(e.target.value)}>
          <option value="">{t('database.relation.thisDatabase')}</option>
          {unknownTarget && <option value={target}>{t('database.relation.unreadable')}</option>}
          {(choices ?? []).map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.icon ? `${choice.icon} ` : ''}
              {choice.title || t('database.relation.untitled')}
            </option>
          ))}
        </select>
      </label>
      {target !== '' && (
        <label className="db-menu-row db-menu-check">
          <input
            type="checkbox"
            checked={!!current.twoWay}
            onChange={(e) => {
              const { twoWay: _, limit: _limit, ...rest } = current;
              // The mirror is a new field of the other database (its id made here).
              void save(e.target.checked ? { ...rest, twoWay: { fieldId: newId().replace(/-/g, '').slice(0, 12) } } : rest);
            }}
          />
          {t('database.relation.twoWay', { name: choices?.find((choice) => choice.id === target)?.title || t('database.relation.untitled') })}
        </label>
      )}
      <label className="db-menu-row">
        {t('database.relation.limit')}
        <select
          value={current.limit ?? ''}
          disabled={!!current.twoWay}
          onChange={(e) => {
            const { limit: _, ...rest } = current;
            void save(e.target.value === 'one' ? { ...rest, limit: 'one' } : rest);
          }}
        >
          <option value="">{t('database.relation.many')}</option>
          <option value="one">{t('database.relation.one')}</option>
        </select>
      </label>
      {pending && (
        <div className="db-menu-row db-relation-confirm" role="alert">
          <span>{t('database.relation.clears', { count: pending.dropped })}</span>
          <button type="button" className="db-button" onClick={() => setPending(null)}>
            {t('database.cancel')}
          </button>
          <button
            type="button"
            className="db-button is-danger"
            onClick={() => {
              void save(pending.next);
              setPending(null);
            }}
          >
            {t('database.relation.change')}
          </button>
        </div>
      )}
    </>
  );
}

/** A unique ID's prefix (ЗАДАЧА in ЗАДАЧА-42), saved on Enter or when the field is left; letters, digits and _ only. */
function PrefixEditor({ fieldId, field }: { fieldId: string; field: Extract<DatabaseField, { type: 'uniqueId' }> }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const [prefix, setPrefix] = useState(field.prefix ?? '');
  const id = useId();
  const valid = /^[\p{L}\p{N}_]*$/u.test(prefix.trim()) && prefix.trim().length <= DATABASE_LIMITS.uniqueIdPrefix;
  const save = () => {
    const next = prefix.trim();
    if (!valid || next === (field.prefix ?? '')) return;
    const { prefix: _, ...rest } = field;
    void db.saveField(fieldId, next ? { ...rest, prefix: next } : rest);
  };
  return (
    <label className="db-menu-row db-prefix">
      {t('database.uniqueId.prefix')}
      <input
        value={prefix}
        maxLength={DATABASE_LIMITS.uniqueIdPrefix}
        placeholder="ЗАДАЧА"
        aria-invalid={valid ? undefined : true}
        aria-describedby={`${id}-hint`}
        onChange={(e) => setPrefix(e.target.value)}
        onBlur={save}
        onKeyDown={(e) => {
          if (e.key === 'Enter') save();
        }}
      />
      <span id={`${id}-hint`} className={valid ? 'db-prefix-hint' : 'db-prefix-hint is-invalid'} role={valid ? undefined : 'alert'}>
        {valid ? t('database.uniqueId.prefixHint') : t('database.uniqueId.prefixInvalid')}
      </span>
    </label>
  );
}
