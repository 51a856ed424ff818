import { Component, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { RenderElementProps } from 'slate-react';
import { MAIN_FIELD_ID } from '../../../schema/blocks/database';
import type { DatabaseElement, DatabaseRowElement } from '../../../schema/slate';
import { useDatabaseHost } from '../../../src/editor/blocks/databaseHost';
import { loadedDatabaseView, prefetchFirstRows, preloadDatabaseView, type DatabaseBlockView } from '../../../src/editor/blocks/databaseRows';
import './database.css';
import { blockRootProps, type BlockViews } from '../../../src/editor/blockView';

/**
 * The live Table view is a chunk of its own (databaseRows.ts), asked for with the first database
 * on a page (as soon as the page's blocks are in). Not React.lazy: a suspended block shows its
 * content no sooner than 300 ms after its fallback appeared, however soon the code comes; the
 * card stands in instead, and the view replaces it the moment the code is there.
 */
function useDatabaseViewCode(): DatabaseBlockView | null {
  const [code, setCode] = useState<DatabaseBlockView | null>(loadedDatabaseView);
  useEffect(() => {
    if (code) return;
    let alive = true;
    preloadDatabaseView().then(
      (view) => alive && setCode(() => view),
      () => undefined,
    );
    return () => {
      alive = false;
    };
  }, [code]);
  return code;
}

/**
 * A database block: the live views of src/features/database (loaded lazily, so a page without a
 * database downloads none of it). Until that code is there — and where there is no page around
 * it to act in (a public view) — a card naming the database's columns stands in. The block is a
 * void element: its data changes only through the database API and the sync queue.
 */
export function DatabaseView({ element, attributes, children }: RenderElementProps) {
  guardDatabaseFields();
  const database = element as DatabaseElement;
  const host = useDatabaseHost();
  // The first rows are asked for now, while the Table view's code loads (it takes this answer).
  if (host?.isSaved(database.uid)) prefetchFirstRows(database.uid, database.config, database.view.layouts[0]);
  const card = <DatabaseCard database={database} />;
  const DatabaseBlock = useDatabaseViewCode();
  return (
    <div {...attributes} {...blockRootProps(element, 'block-void')}>
      {/* Clicks inside stay the database's: a press on a button would put the focus in the page's
          editable (the database's own editors then lose it), and Slate would select the void block. */}
      <div contentEditable={false} className="database-block" onMouseDown={keepFocus} onClick={(event) => event.stopPropagation()}>
        {host && DatabaseBlock ? (
          <Fallback card={card}>
            <DatabaseBlock
              databaseId={database.uid}
              config={database.config}
              view={database.view}
              title={database.title}
              description={database.description}
              defaultTemplate={database.defaultTemplate}
              host={host}
              fill={host.fillDatabaseId === database.uid}
            />
          </Fallback>
        ) : (
          card
        )}
      </div>
      {children}
    </div>
  );
}

let guarded = false;

/**
 * Slate reads every selection change of the document, and one inside a void block with the
 * focus in the page makes it select that block and put the DOM selection back — which takes the
 * focus from the field that has it. A database's own fields (the grid's keyboard target, a filter
 * value, a view's name) are not the page's text: while one of them has the focus, selection
 * changes stop at the window (capture), before Slate's listener on the document hears them.
 */
function guardDatabaseFields(): void {
  // Drawn on the server (src/ssr/pageTop.tsx), there is no window to guard.
  if (guarded || typeof window === 'undefined') return;
  guarded = true;
  window.addEventListener(
    'selectionchange',
    (event) => {
      const active = document.activeElement;
      if (active?.matches('input, textarea, select') && active.closest('.database-block')) event.stopImmediatePropagation();
    },
    true,
  );
}

/** A press on anything but a field (or something dragged: a column's header) leaves the focus where the database's code puts it. */
function keepFocus(event: React.MouseEvent) {
  if (!(event.target as HTMLElement).closest('input, textarea, select, [draggable="true"]')) event.preventDefault();
}

function DatabaseCard({ database }: { database: DatabaseElement }) {
  const { t } = useTranslation('automation');
  const names = Object.entries(database.config.fields)
    .map(([id, field]) => field.name || (id === MAIN_FIELD_ID ? t('database.untitledRow') : id))
    .filter(Boolean);
  return (
    <div className="database-card" role="group" aria-label={t('database.title')}>
      <div className="database-card-title">
        <span aria-hidden>▦</span> {database.title || t('database.title')}
      </div>
      <div className="database-card-columns">{names.length > 0 ? t('database.columns', { names: names.join(', ') }) : t('database.noColumns')}</div>
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

/** The card stays when the view's code cannot be loaded (offline) or fails: the page around it goes on working. */
class Fallback extends Component<{ card: ReactNode; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  render() {
    return this.state.failed ? this.props.card : this.props.children;
  }
}

export const blockViews: BlockViews = { databaseBlock: DatabaseView, databaseRowBlock: DatabaseRowView };
