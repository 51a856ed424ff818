import { useTranslation } from 'react-i18next';
import type { SectionId } from '../../../schema/constants';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { Button } from '../../ui/Button';
import { ChevronRightIcon, PlusIcon } from '../../ui/icons';
import { CreatePageMenuButton, type NewPageKind } from '../pageTypes/CreatePageMenu';
import { isRootSection, loadSection, selectSectionIds, selectSectionRead } from '../pages/pagesSlice';
import { treeSectionToggled } from '../settings/uiSettings';
import { useDropPosition, useTree } from './TreeContext';
import { TreeRow } from './TreeRow';

/** A section: its header (collapse, «+» where the caller may create, a drop target in a root section) and its pages' tree. */
export function Section({
  section,
  canCreate,
  onCreate,
  busy,
}: {
  section: SectionId;
  canCreate: boolean;
  onCreate: (kind?: NewPageKind) => void;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const tree = useTree();
  const ids = useAppSelector((state) => selectSectionIds(state, section));
  const status = useAppSelector((state) => state.pages.sectionStatus[section]);
  const read = useAppSelector((state) => selectSectionRead(state, section));
  const expanded = useAppSelector((state) => state.uiSettings.pageTree.sections[section]);
  const title = t(`sidebar.sections.${section}`);
  const movable = isRootSection(section);
  const headerTarget = useDropPosition(`section/${section}`) !== null;

  return (
    <section className="sidebar-section" aria-label={title}>
      <div
        className={headerTarget ? 'sidebar-section-header drop-inside' : 'sidebar-section-header'}
        onDragOver={(event) => {
          if (!movable || !tree.store.getState().draggingId || !tree.mayLandIn(section)) return;
          event.preventDefault();
          event.dataTransfer.dropEffect = 'move';
          if (!headerTarget) tree.store.hover({ key: `section/${section}`, position: 'inside' });
        }}
        onDragLeave={(event) => {
          if (headerTarget && !event.currentTarget.contains(event.relatedTarget as Node | null)) tree.store.hover(null);
        }}
        onDrop={(event) => {
          if (!movable || !headerTarget) return;
          event.preventDefault();
          tree.drop({ section });
        }}
      >
        <button
          type="button"
          className="sidebar-section-toggle"
          aria-expanded={expanded}
          aria-label={t(expanded ? 'sidebar.collapseSection' : 'sidebar.expandSection', { section: title })}
          onClick={() => dispatch(treeSectionToggled({ section }))}
        >
          <span>{title}</span>
          <ChevronRightIcon size={12} className={expanded ? 'section-chevron is-open' : 'section-chevron'} />
        </button>
        {canCreate && (
          <span className="sidebar-section-create">
            <CreatePageMenuButton
              label={t('sidebar.newPageOfType')}
              className="button button-xxs button-flat sidebar-create-more"
              disabled={busy}
              onPick={onCreate}
            />
            <Button kind="flat" size="xxs" aria-label={t('sidebar.newPage')} title={t('sidebar.newPage')} disabled={busy} onClick={() => onCreate()}>
              <PlusIcon size={16} />
            </Button>
          </span>
        )}
      </div>
      {expanded &&
        (status === 'failed' && ids.length === 0 ? (
          <p className="sidebar-empty">
            {t('sidebar.loadFailed')} ·{' '}
            <button type="button" className="link-button" onClick={() => void dispatch(loadSection(section))}>
              {t('sidebar.retry')}
            </button>
          </p>
        ) : !read ? (
          // Not read yet (its read may wait for the live tree's join): not shown as empty before it is known to be.
          <p className="sidebar-empty">{t('sidebar.loading')}</p>
        ) : ids.length === 0 ? (
          <p className="sidebar-empty">{t(`sidebar.sectionHints.${section}`)}</p>
        ) : (
          <ul className="sidebar-pages">
            {ids.map((id) => (
              <TreeRow key={id} id={id} parent={section} depth={0} section={section} movable={movable} />
            ))}
          </ul>
        ))}
    </section>
  );
}
