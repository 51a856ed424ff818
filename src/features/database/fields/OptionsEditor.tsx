import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  OPTION_COLORS,
  STATUS_GROUPS,
  type DatabaseField,
  type OptionColor,
  type OptionField,
  type SelectOption,
  type StatusGroup,
} from '../../../../schema/blocks/database';
import { newId } from '../../../../schema/ids';
import { DragHandleIcon } from '../../../ui/icons';
import { movedItem, useReorderable, type DropSide } from '../useReorderable';

type Option = SelectOption & { group?: StatusGroup };

/**
 * The options of a select, multi-select or status field in its menu: renamed (on Enter or when
 * the input is left), recoloured from the palette, moved by dragging their handle (or Alt+↑/↓ in
 * the name), given a status group, and deleted after a second click — a deleted option leaves
 * the cells that held it empty (the server clears them; docs/api/databases.md). Every change is
 * one save of the field.
 */
export function OptionsEditor({ field, onSave }: { field: OptionField; onSave(field: DatabaseField): Promise<boolean> }) {
  const { t } = useTranslation('automation');
  const options = field.options as readonly Option[];
  const [palette, setPalette] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const save = (next: Option[]) => onSave({ ...field, options: next } as DatabaseField);
  const change = (id: string, patch: Partial<Option>) => save(options.map((o) => (o.id === id ? { ...o, ...patch } : o)));
  const add = () => {
    const name = nextName(options, t('database.newOption'));
    const option: Option =
      field.type === 'status'
        ? { id: newId(), name, color: 'default', group: 'todo' }
        : { id: newId(), name, color: OPTION_COLORS[(options.length % (OPTION_COLORS.length - 1)) + 1] };
    void save([...options, option]);
  };
  return (
    <div className="db-options" role="group" aria-label={t('database.options')}>
      <div className="db-options-title">{t('database.options')}</div>
      {options.map((option, index) => (
        <OptionRow
          key={option.id}
          option={option}
          status={field.type === 'status'}
          paletteOpen={palette === option.id}
          confirming={confirming === option.id}
          onPalette={() => setPalette((open) => (open === option.id ? null : option.id))}
          onColor={(color) => {
            setPalette(null);
            void change(option.id, { color });
          }}
          onRename={(name) => void change(option.id, { name })}
          onGroup={(group) => void change(option.id, { group })}
          onDrop={(id, side) => void save(movedItem(options, id, option.id, side))}
          onStep={(step) => {
            const target = options[index + step];
            if (target) void save(movedItem(options, option.id, target.id, step < 0 ? 'before' : 'after'));
          }}
          onDelete={() => {
            if (confirming !== option.id) return setConfirming(option.id);
            setConfirming(null);
            void save(options.filter((o) => o.id !== option.id));
          }}
        />
      ))}
      <button type="button" className="menu-item" onClick={add}>
        <span className="menu-item-icon" aria-hidden>
          +
        </span>
        {t('database.addOption')}
      </button>
    </div>
  );
}

/** «Вариант», or «Вариант 2», … : a name no option has yet. */
function nextName(options: readonly Option[], base: string): string {
  const taken = new Set(options.map((o) => o.name));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base} ${n}`)) return `${base} ${n}`;
}

interface OptionRowProps {
  option: Option;
  status: boolean;
  paletteOpen: boolean;
  confirming: boolean;
  onPalette(): void;
  onColor(color: OptionColor): void;
  onRename(name: string): void;
  onGroup(group: StatusGroup): void;
  /** An option (by id) dropped on this row: above it, or below it. */
  onDrop(id: string, side: DropSide): void;
  onStep(step: -1 | 1): void;
  onDelete(): void;
}

function OptionRow({ option, status, paletteOpen, confirming, onPalette, onColor, onRename, onGroup, onDrop, onStep, onDelete }: OptionRowProps) {
  const { t } = useTranslation('automation');
  const row = useRef<HTMLDivElement>(null);
  const handle = useRef<HTMLSpanElement>(null);
  const [name, setName] = useState(option.name);
  // Someone's rename (or ours, answered) shows unless this input is being typed into.
  useEffect(() => {
    if (document.activeElement?.getAttribute('data-option') !== option.id) setName(option.name);
  }, [option.name, option.id]);
  const over = useReorderable(row, { kind: 'db-option', scope: 'options', id: option.id }, 'y', onDrop, { handle });
  const commit = () => {
    const trimmed = name.trim();
    if (trimmed === '' || trimmed === option.name) setName(option.name);
    else onRename(trimmed);
  };
  return (
    <>
      <div ref={row} className={['db-option', over ? `is-drop-${over}` : ''].filter(Boolean).join(' ')} data-option-row={option.id}>
        <span ref={handle} className="db-option-handle" aria-hidden title={t('database.dragOption')}>
          <DragHandleIcon size={14} />
        </span>
        <button
          type="button"
          className="db-option-color db-chip"
          data-color={option.color ?? 'default'}
          aria-label={t('database.optionColor', { name: option.name })}
          aria-expanded={paletteOpen}
          onClick={onPalette}
        />
        <input
          className="db-option-name"
          value={name}
          data-option={option.id}
          aria-label={t('database.optionName')}
          maxLength={200}
          onChange={(e) => setName(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              commit();
            } else if (e.key === 'Escape') setName(option.name);
            else if (e.altKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
              e.preventDefault();
              onStep(e.key === 'ArrowUp' ? -1 : 1);
            }
          }}
        />
        {status && (
          <select
            className="db-option-group"
            value={option.group ?? 'todo'}
            aria-label={t('database.statusGroup', { name: option.name })}
            onChange={(e) => onGroup(e.target.value as StatusGroup)}
          >
            {STATUS_GROUPS.map((group) => (
              <option key={group} value={group}>
                {t(`database.statusGroups.${group}`)}
              </option>
            ))}
          </select>
        )}
        <button
          type="button"
          className={confirming ? 'db-option-delete is-confirming' : 'db-option-delete'}
          aria-label={t('database.deleteOption', { name: option.name })}
          onClick={onDelete}
        >
          {confirming ? t('database.deleteOptionConfirm') : '✕'}
        </button>
      </div>
      {paletteOpen && (
        <div className="db-option-palette" role="group" aria-label={t('database.optionColor', { name: option.name })}>
          {OPTION_COLORS.map((color) => (
            <button
              key={color}
              type="button"
              className="db-chip"
              data-color={color}
              aria-pressed={color === (option.color ?? 'default')}
              aria-label={t(`database.colors.${color}`)}
              title={t(`database.colors.${color}`)}
              onClick={() => onColor(color)}
            />
          ))}
        </div>
      )}
    </>
  );
}
