import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PAGE_RENAME_DEBOUNCE_MS } from '../../../schema/constants';
import type { Cover, WireElement } from '../../../schema/element';
import { useAppDispatch } from '../../app/store';
import { ImageIcon, SmileIcon } from '../../ui/icons';
import { showToast } from '../../ui/Toast';
import { CoverPicker, coverBackground } from '../pages/CoverPicker';
import { IconPicker } from './IconPicker';
import { pageActionError } from '../pages/pageErrors';
import { pageLoaded, patchPage } from '../pages/pagesSlice';

/** The cover change is debounced (spec §9: 500 ms, like renaming); the last one wins. */
function useCoverSaver(page: WireElement) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const before = useRef<WireElement | null>(null);
  const latest = useRef(page);
  const pending = useRef<Cover | null>(null);
  latest.current = page;
  const flush = useRef<() => void>(() => undefined);
  flush.current = () => {
    const previous = before.current;
    before.current = null;
    if (!previous) return;
    dispatch(patchPage({ id: previous.id, patch: { cover: pending.current }, previous }))
      .unwrap()
      .catch((error: unknown) => showToast(pageActionError(t, error), 'error'));
  };
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      flush.current();
    },
    [],
  );
  return (cover: Cover | null) => {
    before.current ??= latest.current;
    pending.current = cover;
    dispatch(pageLoaded({ ...latest.current, cover }));
    clearTimeout(timer.current);
    timer.current = setTimeout(() => flush.current(), PAGE_RENAME_DEBOUNCE_MS);
  };
}

/** Icon and cover above the title, as in Notion; editable only with edit or full access. */
export function PageHeader({
  page,
  editable,
  openCover = false,
}: {
  page: WireElement;
  editable: boolean;
  /** Opens the cover picker once (a link's `?action=cover`). */ openCover?: boolean;
}) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [iconAnchor, setIconAnchor] = useState<HTMLElement | null>(null);
  const [coverAnchor, setCoverAnchor] = useState<HTMLElement | null>(null);
  const [repositioning, setRepositioning] = useState(false);
  const saveCover = useCoverSaver(page);
  const coverBox = useRef<HTMLDivElement>(null);
  const headerInner = useRef<HTMLDivElement>(null);
  const coverOpened = useRef(false);
  useEffect(() => {
    if (!openCover || !editable || !headerInner.current || coverOpened.current) return;
    coverOpened.current = true;
    setCoverAnchor(headerInner.current);
  }, [openCover, editable]);
  const drag = useRef<{ y: number; position: number } | null>(null);

  const setIcon = async (icon: string | null) => {
    setIconAnchor(null);
    try {
      await dispatch(patchPage({ id: page.id, patch: { icon }, previous: page })).unwrap();
    } catch (error) {
      showToast(pageActionError(t, error), 'error');
    }
  };
  const pickCover = (cover: Cover | null) => {
    setCoverAnchor(null);
    saveCover(cover);
  };

  const onPointerDown = (event: React.PointerEvent) => {
    if (!repositioning || !page.cover) return;
    event.preventDefault();
    (event.target as HTMLElement).setPointerCapture?.(event.pointerId);
    drag.current = { y: event.clientY, position: page.cover.position };
  };
  const onPointerMove = (event: React.PointerEvent) => {
    if (!drag.current || !page.cover) return;
    const height = coverBox.current?.offsetHeight || 200;
    // Dragging the picture down shows more of its top: the position goes towards 0.
    const position = Math.round(Math.max(0, Math.min(100, drag.current.position - ((event.clientY - drag.current.y) / height) * 100)));
    if (position !== page.cover.position) saveCover({ ...page.cover, position });
  };
  const onPointerUp = () => {
    drag.current = null;
  };

  const cover = page.cover;
  return (
    <div className={['page-header', cover ? 'has-cover' : '', page.icon ? 'has-icon' : ''].filter(Boolean).join(' ')}>
      {cover && (
        <div
          ref={coverBox}
          className={repositioning ? 'page-cover is-repositioning' : 'page-cover'}
          data-testid="page-cover"
          style={{ backgroundImage: coverBackground(cover, page.id), backgroundPosition: `center ${cover.position}%` }}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
        >
          {repositioning && <span className="page-cover-hint">{t('page.repositionHint')}</span>}
          {editable && (
            <div className="page-cover-actions">
              {repositioning ? (
                <button type="button" className="cover-action" onClick={() => setRepositioning(false)}>
                  {t('page.repositionDone')}
                </button>
              ) : (
                <>
                  <button type="button" className="cover-action" onClick={(e) => setCoverAnchor(e.currentTarget)}>
                    {t('page.changeCover')}
                  </button>
                  {cover.contentType !== 'LibraryCover' && (
                    <button type="button" className="cover-action" onClick={() => setRepositioning(true)}>
                      {t('page.reposition')}
                    </button>
                  )}
                  <button type="button" className="cover-action" onClick={() => pickCover(null)}>
                    {t('page.removeCover')}
                  </button>
                </>
              )}
            </div>
          )}
        </div>
      )}
      <div className="page-header-inner" ref={headerInner}>
        {page.icon &&
          (editable ? (
            <button
              type="button"
              className="page-icon"
              aria-label={t('page.changeIcon')}
              title={t('page.changeIcon')}
              onClick={(e) => setIconAnchor(e.currentTarget)}
            >
              {page.icon}
            </button>
          ) : (
            <span className="page-icon" role="img" aria-label={page.icon}>
              {page.icon}
            </span>
          ))}
        {editable && (!page.icon || !cover) && (
          <div className="page-header-add">
            {!page.icon && (
              <button type="button" className="page-header-add-button" onClick={(e) => setIconAnchor(e.currentTarget)}>
                <SmileIcon size={16} />
                {t('page.addIcon')}
              </button>
            )}
            {!cover && (
              <button type="button" className="page-header-add-button" onClick={(e) => setCoverAnchor(e.currentTarget)}>
                <ImageIcon size={16} />
                {t('page.addCover')}
              </button>
            )}
          </div>
        )}
      </div>
      {iconAnchor && (
        <IconPicker
          anchor={iconAnchor}
          canRemove={!!page.icon}
          onPick={(icon) => void setIcon(icon)}
          onRemove={() => void setIcon(null)}
          onClose={() => setIconAnchor(null)}
        />
      )}
      {coverAnchor && (
        <CoverPicker
          anchor={coverAnchor}
          pageId={page.id}
          hasCover={!!cover}
          onPick={pickCover}
          onRemove={() => pickCover(null)}
          onClose={() => setCoverAnchor(null)}
        />
      )}
    </div>
  );
}
