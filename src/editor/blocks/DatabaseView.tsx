import { useTranslation } from 'react-i18next';
import type { RenderElementProps } from 'slate-react';
import { MAIN_FIELD_ID } from '../../../schema/blocks/database';
import type { DatabaseElement, DatabaseRowElement } from '../../../schema/slate';
import { blockRootProps } from '../renderers';
import './database.css';

/**
 * A database and its rows, until the database feature edits them: a card naming the database's
 * columns, and one line per row with its icon and title. Read-only here, and kept as they are
 * (the editor never changes their data), so nothing is lost when the page is edited around them.
 */
export function DatabaseView({ element, attributes, children }: RenderElementProps) {
  const { t } = useTranslation('automation');
  const database = element as DatabaseElement;
  const names = Object.entries(database.config.fields)
    .map(([id, field]) => field.name || (id === MAIN_FIELD_ID ? t('database.untitledRow') : id))
    .filter(Boolean);
  return (
    <div {...attributes} {...blockRootProps(element, 'block-void')}>
      <div contentEditable={false} className="database-card" role="group" aria-label={t('database.title')}>
        <div className="database-card-title">
          <span aria-hidden>▦</span> {t('database.title')}
        </div>
        <div className="database-card-columns">{names.length > 0 ? t('database.columns', { names: names.join(', ') }) : t('database.noColumns')}</div>
        <div className="database-card-note">{t('database.notYet')}</div>
      </div>
      {children}
    </div>
  );
}

export function DatabaseRowView({ element, attributes, children }: RenderElementProps) {
  const { t } = useTranslation('automation');
  const row = element as DatabaseRowElement;
  return (
    <div {...attributes} {...blockRootProps(element, 'block-void')}>
      <div contentEditable={false} className="database-row" title={t('database.row')}>
        <span className="database-row-icon" aria-hidden>
          {row.icon ?? '▫'}
        </span>
        <span className={row.title ? 'database-row-title' : 'database-row-title is-untitled'}>{row.title || t('database.untitledRow')}</span>
      </div>
      {children}
    </div>
  );
}
