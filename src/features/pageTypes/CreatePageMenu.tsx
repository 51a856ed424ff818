import { useTranslation } from 'react-i18next';
import { Popover } from '../../ui/Popover';
import { PageIcon } from '../../ui/icons';
import { MenuItem, moveMenuFocus, useMenuState } from '../pages/PageMenu';
import type { CreatablePageType } from '../pages/pagesSlice';
import { ChevronDownIcon, FolderIcon, FrameIcon, TableIcon, UploadIcon } from './typeIcons';

/** What the «+» menu makes: a page of a type, or a database from a CSV file. */
export type NewPageKind = CreatablePageType | 'csv';

const TYPES: ReadonlyArray<{ kind: NewPageKind; Icon: typeof PageIcon }> = [
  { kind: 'Note', Icon: PageIcon },
  { kind: 'Database', Icon: TableIcon },
  { kind: 'Space', Icon: FolderIcon },
  { kind: 'Iframe', Icon: FrameIcon },
];

/**
 * The small «⌄» beside a «+» (a section, a page row, a folder): a menu of the page types and
 * «Импорт CSV». The «+» itself keeps making a document in one click.
 */
export function CreatePageMenuButton({
  label,
  onPick,
  disabled,
  className = 'tree-add tree-add-more',
  csv = true,
}: {
  label: string;
  onPick(kind: NewPageKind): void;
  disabled?: boolean;
  className?: string;
  csv?: boolean;
}) {
  const { t } = useTranslation();
  const { anchor, setAnchor, open, setOpen, menu } = useMenuState();
  const pick = (kind: NewPageKind) => () => {
    setOpen(false);
    onPick(kind);
  };
  return (
    <>
      <button
        ref={setAnchor}
        type="button"
        className={className}
        aria-label={label}
        title={label}
        aria-haspopup="menu"
        aria-expanded={open}
        disabled={disabled}
        onClick={() => setOpen((o) => !o)}
      >
        <ChevronDownIcon size={14} />
      </button>
      {open && (
        <Popover anchor={anchor} onClose={() => setOpen(false)} label={t('pageTypes.menu')} className="menu create-page-menu" role="menu">
          <div ref={menu} onKeyDown={(event) => moveMenuFocus(event, menu.current)}>
            {TYPES.map(({ kind, Icon }) => (
              <MenuItem key={kind} icon={<Icon size={16} />} onClick={pick(kind)}>
                {t(`pageTypes.names.${kind}`)}
              </MenuItem>
            ))}
            {csv && (
              <>
                <div className="menu-separator" />
                <MenuItem icon={<UploadIcon size={16} />} onClick={pick('csv')}>
                  {t('csvImport.menu')}
                </MenuItem>
              </>
            )}
          </div>
        </Popover>
      )}
    </>
  );
}
