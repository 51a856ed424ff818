import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WireRowTemplate } from '../../../../schema/database';
import { ActionMenu, MenuItem } from '../../../ui/ActionMenu';
import { Dialog } from '../../../ui/Dialog';
import { PageIcon } from '../../../ui/icons';
import { showToast } from '../../../ui/Toast';
import { useDatabase } from '../context';
import { loadRowTemplates, putRowTemplates, useRowTemplates, withDefault } from './rowTemplates';

const MENU_ITEMS = '[role^="menuitem"]:not(:disabled)';

/**
 * «▾» beside «Новая строка» (issue 38, docs/api/databases.md «Row templates»), for those who may
 * make rows: «Пустая строка», a row from each template (the default marked), each template's
 * actions (change it on its page, make it the default or not, delete it) and «+ Новый шаблон»,
 * which makes one and opens its page to be filled in. `onCreate`: a row made as the view makes
 * its new rows, from that template (null: from none).
 */
export function RowTemplateMenu({ onCreate }: { onCreate(templateId: string | null): void }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const [deleting, setDeleting] = useState<WireRowTemplate | null>(null);
  if (!db.editable) return null;

  const remove = async (template: WireRowTemplate) => {
    setDeleting(null);
    try {
      await db.api.deleteTemplate(db.databaseId, template.id);
      putRowTemplates(db.databaseId, (list) => list.filter((other) => other.id !== template.id));
      showToast(t('database.templates.deleted'));
    } catch {
      showToast(t('database.templates.failed'), 'error');
      void loadRowTemplates(db.api, db.databaseId, true);
    }
  };

  return (
    <>
      <ActionMenu
        label={t('database.templates.menu')}
        trigger={<span aria-hidden>▾</span>}
        buttonClassName="db-add-templates"
        menuClassName="db-menu db-templates-menu"
        onOpenChange={(open) => open && void loadRowTemplates(db.api, db.databaseId, true)}
      >
        {(close) => <TemplateItems close={close} onCreate={onCreate} onDelete={setDeleting} />}
      </ActionMenu>
      {deleting && (
        <Dialog
          title={t('database.templates.deleteTitle', { title: deleting.title || t('database.untitledRow') })}
          onClose={() => setDeleting(null)}
          className="dialog-small"
          footer={
            <>
              <button type="button" className="db-button" onClick={() => setDeleting(null)}>
                {t('database.cancel')}
              </button>
              <button type="button" className="db-button is-danger" onClick={() => void remove(deleting)}>
                {t('database.templates.deleteConfirm')}
              </button>
            </>
          }
        >
          <p>{t('database.templates.deleteNote')}</p>
        </Dialog>
      )}
    </>
  );
}

/** The menu's items: the list, or one template's actions (a step in, «Назад» out). */
function TemplateItems({ close, onCreate, onDelete }: { close(): void; onCreate(templateId: string | null): void; onDelete(template: WireRowTemplate): void }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const { list, loading, failed } = useRowTemplates(db.databaseId);
  const [actionsOf, setActionsOf] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  // Stepping in or out: the focus on the first action, or back on the «⋯» it came from.
  const cameFrom = useRef<string | null>(null);
  useEffect(() => {
    const items = box.current?.querySelectorAll<HTMLElement>(MENU_ITEMS);
    const back =
      cameFrom.current && !actionsOf
        ? [...(box.current?.querySelectorAll<HTMLElement>('[data-template-actions]') ?? [])].find((item) => item.dataset.templateActions === cameFrom.current)
        : undefined;
    (back ?? items?.[0])?.focus();
  }, [actionsOf]);

  const isDefault = (template: WireRowTemplate) => (db.defaultTemplate !== undefined ? template.id === db.defaultTemplate : template.isDefault);
  const name = (template: WireRowTemplate) => template.title || t('database.untitledRow');
  const choose = (act: () => void) => () => {
    close();
    act();
  };
  const failedChange = () => {
    showToast(t('database.templates.failed'), 'error');
    void loadRowTemplates(db.api, db.databaseId, true);
  };

  const setDefault = async (templateId: string | null) => {
    setBusy(true);
    try {
      db.apply(await db.api.setDefaultTemplate(db.databaseId, templateId));
      putRowTemplates(db.databaseId, withDefault(templateId));
      setActionsOf(null);
    } catch {
      failedChange();
    } finally {
      setBusy(false);
    }
  };
  const newTemplate = async () => {
    setBusy(true);
    try {
      const made = await db.api.createTemplate(db.databaseId, { title: t('database.templates.newTitle') });
      putRowTemplates(db.databaseId, (known) => [...known.filter((other) => other.id !== made.id), made]);
      close();
      db.openPage?.(made.id);
    } catch {
      setBusy(false);
      failedChange();
    }
  };

  const shown = actionsOf ? list?.find((template) => template.id === actionsOf) : undefined;
  if (shown) {
    const on = isDefault(shown);
    return (
      <div ref={box} role="group" aria-label={name(shown)}>
        <MenuItem icon={<span aria-hidden>←</span>} onClick={() => setActionsOf(null)}>
          {t('database.templates.back')}
        </MenuItem>
        <div className="db-menu-heading db-template-heading" aria-hidden>
          {shown.icon && <span>{shown.icon} </span>}
          {name(shown)}
        </div>
        {db.openPage && <MenuItem onClick={choose(() => db.openPage?.(shown.id))}>{t('database.templates.edit')}</MenuItem>}
        <MenuItem disabled={busy} onClick={() => void setDefault(on ? null : shown.id)}>
          {t(on ? 'database.templates.unsetDefault' : 'database.templates.makeDefault')}
        </MenuItem>
        <MenuItem danger disabled={busy} onClick={choose(() => onDelete(shown))}>
          {t('database.templates.delete')}
        </MenuItem>
      </div>
    );
  }
  return (
    <div ref={box}>
      <MenuItem onClick={choose(() => onCreate(null))}>{t('database.templates.blank')}</MenuItem>
      <div className="menu-separator" role="separator" />
      {list === null ? (
        <div className="db-menu-note">{loading ? t('database.templates.loading') : failed ? t('database.templates.readFailed') : null}</div>
      ) : list.length === 0 ? (
        <div className="db-menu-note">{t('database.templates.none')}</div>
      ) : (
        list.map((template) => (
          <div key={template.id} className="db-template-line" role="none">
            <button type="button" role="menuitem" className="menu-item db-template-item" onClick={choose(() => onCreate(template.id))}>
              <span className="menu-item-icon" aria-hidden>
                {template.icon ?? <PageIcon size={16} />}
              </span>
              <span className="db-template-title">{name(template)}</span>
              {isDefault(template) && <span className="db-template-default">{t('database.templates.default')}</span>}
            </button>
            <button
              type="button"
              role="menuitem"
              className="menu-item db-template-more"
              aria-label={t('database.templates.actionsOf', { title: name(template) })}
              title={t('database.templates.actionsOf', { title: name(template) })}
              data-template-actions={template.id}
              onClick={() => {
                cameFrom.current = template.id;
                setActionsOf(template.id);
              }}
            >
              <span aria-hidden>⋯</span>
            </button>
          </div>
        ))
      )}
      <div className="menu-separator" role="separator" />
      <MenuItem disabled={busy} onClick={() => void newTemplate()}>
        {t('database.templates.new')}
      </MenuItem>
    </div>
  );
}
