import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAIN_FIELD_ID, type CardSize, type DatabaseLayout, type OrderedField } from '../../../../schema/blocks/database';
import type { WireRow } from '../../../../schema/database';
import { coverBackground } from '../../pages/CoverPicker';
import { ActionMenu, MenuItem } from '../../../ui/ActionMenu';
import { PageIcon } from '../../../ui/icons';
import { showToast } from '../../../ui/Toast';
import { coverFile, isEmptyCell } from '../board/boardCards';
import { CellContent, fileHref } from '../cells/cells';
import { useDatabase } from '../context';
import { cellOf, shownOf, type RowStore } from '../rows/rowStore';
import { useViewRows } from '../rows/viewRows';
import { RowTemplateMenu } from '../rows/RowTemplateMenu';
import { fromTemplate, madeFromTemplate, templateFor } from '../rows/rowTemplates';

/*
 * The Gallery and List views (issue 38, docs/api/databases.md «Gallery and list»): the view's rows
 * (its filter, sorts and the search typed) as cards in a grid — a picture on top (the row page's
 * cover, the first picture in its content, a files field's first picture, or none), the title and
 * the fields the view shows — or as compact lines, the title and those fields after it. Both are
 * windowed like the table (a row of cards, a line at a time: 5,000 rows draw what is on screen),
 * and a click or Enter opens the row.
 */

/** A card's width and its picture's height, by the view's card size. */
const CARD_SIZES: Record<CardSize, { width: number; picture: number }> = {
  small: { width: 180, picture: 100 },
  medium: { width: 250, picture: 150 },
  large: { width: 340, picture: 210 },
};
const GAP = 12;
/** A card's title line, and each field's line under it. */
const TITLE_HEIGHT = 38;
const FIELD_HEIGHT = 26;
const CARD_PADDING = 10;
/** A list's line. */
const LINE_HEIGHT = 36;

interface ViewProps {
  layout: DatabaseLayout;
  onStore?(store: RowStore | null): void;
  search?: string;
}

/** The fields a card or line shows (the view's, but the title, which it always shows). */
function useShownFields(layout: DatabaseLayout): OrderedField[] {
  const db = useDatabase();
  return useMemo(
    () => layout.orderedFields.filter((entry) => entry.fieldId !== MAIN_FIELD_ID && db.config.fields[entry.fieldId]),
    [layout.orderedFields, db.config.fields],
  );
}

/** «+ Новая строка» under a gallery or a list: a row made at the end (from the default row template, if any) and opened; «▾» beside it offers the templates. */
function NewRowButton({ store }: { store: RowStore }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  if (!db.editable) return null;
  /** `template`: the row template it starts from (null: none; undefined: the default, if any). */
  const make = async (template?: string | null) => {
    try {
      const templateId = await templateFor(db, template);
      const [row] = await madeFromTemplate(db, templateId, () => db.api.createRows(db.databaseId, [fromTemplate({ title: '' }, templateId)]));
      await store.refresh();
      if (row) db.openRow?.(row.id);
    } catch {
      showToast(t('database.writeFailed'), 'error');
    }
  };
  return (
    <div className="db-add-line db-gallery-add">
      <button type="button" className="db-add-row" onClick={() => void make()}>
        + {t('database.newRow')}
      </button>
      <RowTemplateMenu onCreate={(templateId) => void make(templateId)} />
    </div>
  );
}

/** Enter or Space on a card or line opens its row (a click does too). */
const openOnKey = (open: () => void) => (event: React.KeyboardEvent) => {
  if (event.target !== event.currentTarget || (event.key !== 'Enter' && event.key !== ' ')) return;
  event.preventDefault();
  open();
};

export function GalleryView({ layout, onStore, search = '' }: ViewProps) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const store = useViewRows(layout, search, 'gallery', onStore);
  const shown = useShownFields(layout);
  const size = CARD_SIZES[layout.cardSize ?? 'medium'];
  const preview = layout.cardPreview ?? 'pageContent';
  const coverId = preview === 'files' && layout.cover && db.config.fields[layout.cover.fieldId]?.type === 'files' ? layout.cover.fieldId : null;
  const pictured = preview === 'pageContent' || preview === 'pageCover' || coverId !== null;
  // Every card of the view is as tall: its picture, its title and a line per field shown.
  const cardHeight = (pictured ? size.picture : 0) + TITLE_HEIGHT + shown.length * FIELD_HEIGHT + CARD_PADDING;

  const scroller = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(960);
  useLayoutEffect(() => {
    const node = scroller.current;
    if (!node) return;
    setWidth(node.clientWidth);
    const observer = new ResizeObserver(() => setWidth(node.clientWidth));
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  const perLine = Math.max(1, Math.floor((width - GAP + GAP) / (size.width + GAP)));
  const count = store.count ?? 0;
  const lines = Math.ceil(count / perLine);
  const virtualizer = useVirtualizer({
    count: lines,
    getScrollElement: () => scroller.current,
    estimateSize: () => cardHeight + GAP,
    overscan: 2,
    initialRect: { width: 960, height: 700 },
  });
  useEffect(() => virtualizer.measure(), [virtualizer, cardHeight, perLine]);
  const items = virtualizer.getVirtualItems();
  const first = (items[0]?.index ?? 0) * perLine;
  const last = Math.min(count - 1, ((items[items.length - 1]?.index ?? 0) + 1) * perLine - 1);
  useEffect(() => store.setVisible(first, Math.max(first, last)), [store, first, last]);

  return (
    <div className="db-gallery-wrap" aria-busy={store.count === null || undefined}>
      <div ref={scroller} className="db-gallery" role="list" aria-label={t('database.gallery.cards')}>
        {count === 0 && store.count !== null && <div className="db-empty">{t('database.noRows')}</div>}
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => (
            <div
              key={item.key}
              className="db-gallery-line"
              style={{ transform: `translateY(${item.start}px)`, gridTemplateColumns: `repeat(${perLine}, ${size.width}px)`, height: cardHeight }}
            >
              {Array.from({ length: perLine }, (_, k) => {
                const index = item.index * perLine + k;
                if (index >= count) return null;
                const row = store.rowAt(index);
                return row ? (
                  <GalleryCard key={row.id} row={row} shown={shown} preview={preview} coverId={coverId} pictureHeight={size.picture} />
                ) : (
                  <div key={`loading-${index}`} className="db-card db-gallery-card is-loading" style={{ height: cardHeight }} />
                );
              })}
            </div>
          ))}
        </div>
      </div>
      <NewRowButton store={store} />
    </div>
  );
}

const GalleryCard = memo(function GalleryCard({
  row,
  shown,
  preview,
  coverId,
  pictureHeight,
}: {
  row: WireRow;
  shown: OrderedField[];
  preview: string;
  coverId: string | null;
  pictureHeight: number;
}) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const title = row.data.title || t('database.untitledRow');
  // A picture that cannot be read (a published page's reader may not read the row's files) is not shown broken.
  const [broken, setBroken] = useState<string | null>(null);
  const file = coverId ? coverFile(cellOf(row, coverId)) : null;
  const src = file ? fileHref(file.id) : row.preview && 'fileId' in row.preview ? fileHref(row.preview.fileId) : null;
  const open = () => db.openRow?.(row.id);
  return (
    <div className="db-card db-gallery-card" role="listitem" tabIndex={0} aria-label={title} data-row-id={row.id} onClick={open} onKeyDown={openOnKey(open)}>
      {preview !== 'none' && (coverId !== null || preview !== 'files') && (
        <div className="db-gallery-picture" style={{ height: pictureHeight }}>
          {row.preview && 'cover' in row.preview ? (
            <div className="db-gallery-cover" style={{ backgroundImage: coverBackground(row.preview.cover, row.id) }} />
          ) : src && broken !== src ? (
            <img src={src} alt="" loading="lazy" draggable={false} onError={() => setBroken(src)} />
          ) : null}
        </div>
      )}
      <div className="db-card-title">
        {row.data.icon && <span aria-hidden>{row.data.icon} </span>}
        {title}
      </div>
      {shown.map(({ fieldId }) => {
        const value = shownOf(row, fieldId, db.config.fields[fieldId]);
        return (
          <div key={fieldId} className="db-card-field">
            {isEmptyCell(value) ? null : <CellContent field={db.config.fields[fieldId]} fieldId={fieldId} value={value} databaseId={db.databaseId} />}
          </div>
        );
      })}
    </div>
  );
});

export function ListView({ layout, onStore, search = '' }: ViewProps) {
  const { t } = useTranslation('automation');
  const store = useViewRows(layout, search, 'list', onStore);
  const shown = useShownFields(layout);
  const scroller = useRef<HTMLDivElement>(null);
  const count = store.count ?? 0;
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => LINE_HEIGHT,
    overscan: 8,
    initialRect: { width: 960, height: 700 },
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  useEffect(() => store.setVisible(first, Math.max(first, last)), [store, first, last]);
  return (
    <div className="db-list-wrap" aria-busy={store.count === null || undefined}>
      <div ref={scroller} className="db-list" role="list" aria-label={t('database.list.rows')}>
        {count === 0 && store.count !== null && <div className="db-empty">{t('database.noRows')}</div>}
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const row = store.rowAt(item.index);
            return (
              <div key={item.key} className="db-list-slot" style={{ transform: `translateY(${item.start}px)`, height: LINE_HEIGHT }}>
                {row ? <ListLine row={row} shown={shown} /> : <div className="db-list-line is-loading" />}
              </div>
            );
          })}
        </div>
      </div>
      <NewRowButton store={store} />
    </div>
  );
}

const ListLine = memo(function ListLine({ row, shown }: { row: WireRow; shown: OrderedField[] }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const title = row.data.title || t('database.untitledRow');
  const open = () => db.openRow?.(row.id);
  return (
    <div className="db-list-line" role="listitem" tabIndex={0} aria-label={title} data-row-id={row.id} onClick={open} onKeyDown={openOnKey(open)}>
      <span className="db-list-title">
        <span className="db-list-icon" aria-hidden>
          {row.data.icon ?? <PageIcon size={14} />}
        </span>
        {title}
      </span>
      <span className="db-list-fields">
        {shown.map(({ fieldId }) => {
          const value = shownOf(row, fieldId, db.config.fields[fieldId]);
          if (isEmptyCell(value)) return null;
          return (
            <span key={fieldId} className="db-list-field">
              <CellContent field={db.config.fields[fieldId]} fieldId={fieldId} value={value} databaseId={db.databaseId} />
            </span>
          );
        })}
      </span>
    </div>
  );
});

/** A gallery's cards: what tops them and how big they are (the view's settings, beside «Свойства»). */
export function CardsButton({ layout }: { layout: DatabaseLayout }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const preview = layout.cardPreview ?? 'pageContent';
  const files = Object.entries(db.config.fields).filter(([, field]) => field.type === 'files');
  const size = layout.cardSize ?? 'medium';
  return (
    <ActionMenu label={t('database.gallery.settings')} trigger={t('database.gallery.settings')} buttonClassName="db-button" menuClassName="db-menu" align="end">
      {(close) => [
        <div key="preview-title" className="db-menu-heading">
          {t('database.gallery.preview')}
        </div>,
        ...(['pageContent', 'pageCover', 'none'] as const).map((kind) => (
          <MenuItem
            key={kind}
            role="menuitemradio"
            checked={preview === kind}
            onClick={() => {
              close();
              void db.saveView(layout.uid, { cardPreview: kind });
            }}
          >
            {t(`database.gallery.previews.${kind}`)}
          </MenuItem>
        )),
        ...files.map(([id, field]) => (
          <MenuItem
            key={`files-${id}`}
            role="menuitemradio"
            checked={preview === 'files' && layout.cover?.fieldId === id}
            onClick={() => {
              close();
              void db.saveView(layout.uid, { cardPreview: 'files', cover: { fieldId: id } });
            }}
          >
            {field.name}
          </MenuItem>
        )),
        <div key="size-title" className="db-menu-heading">
          {t('database.gallery.size')}
        </div>,
        ...(['small', 'medium', 'large'] as const).map((kind) => (
          <MenuItem
            key={kind}
            role="menuitemradio"
            checked={size === kind}
            onClick={() => {
              close();
              void db.saveView(layout.uid, { cardSize: kind });
            }}
          >
            {t(`database.gallery.sizes.${kind}`)}
          </MenuItem>
        )),
      ]}
    </ActionMenu>
  );
}
