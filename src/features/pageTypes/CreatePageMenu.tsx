import { useTranslation } from 'react-i18next';
import { PageIcon } from '../../ui/icons';
import { ActionMenu, MenuItem } from '../../ui/ActionMenu';
import type { CreatablePageType } from '../pages/pagesSlice';
import { ChevronDownIcon, FolderIcon, FrameIcon, TableIcon, UploadIcon } from '../../ui/pageTypeIcons';

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
  className = 'icon-button tree-add tree-add-more',
  csv = true,
}: {
  label: string;
  onPick(kind: NewPageKind): void;
  disabled?: boolean;
  className?: string;
  csv?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <ActionMenu
      label={label}
      menuLabel={t('pageTypes.menu')}
      trigger={<ChevronDownIcon size={14} />}
      buttonClassName={className}
      menuClassName="create-page-menu"
      align="start"
      disabled={disabled}
    >
      {(close) => {
        const pick = (kind: NewPageKind) => () => {
          close();
          onPick(kind);
        };
        return (
          <>
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
          </>
        );
      }}
    </ActionMenu>
  );
}
