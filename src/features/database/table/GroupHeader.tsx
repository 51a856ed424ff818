import { useTranslation } from 'react-i18next';
import { hasOptions, type DatabaseField, type SelectOption } from '../../../../schema/blocks/database';
import { listKeyIds, type WireGroup } from '../../../../schema/database';
import { ChevronRightIcon } from '../../../ui/icons';
import { OptionChip, PeopleNames } from '../cells/cells';

export interface GroupHeaderProps {
  group: WireGroup | undefined;
  field: DatabaseField | undefined;
  top: number;
  /** Its place among the grid's rows (aria-rowindex: the column headers are 1, then groups and rows as drawn). */
  rowIndex: number;
  width: number;
  members: Array<{ id: string; name: string; email: string }>;
  collapsed: boolean;
  onToggle(): void;
  /** 1: a sub-group's header (indented under its group's). */
  level?: 0 | 1;
}

export function GroupHeader({ group, field, top, rowIndex, width, members, collapsed, onToggle, level = 0 }: GroupHeaderProps) {
  const { t } = useTranslation('automation');
  if (!group || !field) return null;
  let name = t('database.noValue');
  let option: SelectOption | undefined;
  let people: string[] | null = null;
  if (group.label !== undefined) name = group.label;
  else if (group.value !== null) {
    if (hasOptions(field)) {
      option = field.options.find((o) => o.id === group.value);
      name = option ? option.name : String(group.value);
    } else if (field.type === 'checkbox') name = group.value === true ? t('database.yes') : t('database.no');
    else if (field.type === 'person' || field.type === 'createdBy' || field.type === 'editedBy') {
      // A person field's group is the list as kept (`|a|b|`: Анна and Борис together), a creator's one id.
      const ids = field.type === 'person' ? listKeyIds(String(group.value)) : [String(group.value)];
      const known = ids.map((id) => members.find((m) => m.id === id));
      if (known.every(Boolean)) name = known.map((m) => m!.name || m!.email).join(', ');
      else people = ids;
    } else name = String(group.value);
  }
  const toggle = t(collapsed ? 'database.expandGroup' : 'database.collapseGroup', { name });
  return (
    <div className={`db-group${level === 1 ? ' is-sub' : ''}`} role="row" aria-rowindex={rowIndex} style={{ transform: `translateY(${top}px)`, width }}>
      <div className="db-group-label" role="rowheader">
        <button
          type="button"
          className="icon-button db-icon-button db-group-toggle"
          aria-expanded={!collapsed}
          aria-label={toggle}
          title={toggle}
          onClick={onToggle}
        >
          <ChevronRightIcon size={14} />
        </button>
        {option ? <OptionChip option={option} /> : people ? <PeopleNames ids={people} /> : name} <span className="db-group-count">{group.count}</span>
      </div>
    </div>
  );
}
