import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { WireElement } from '../../../schema/element';
import { canEdit, canShare } from '../../../schema/policies/page';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { RestoreIcon, TrashIcon } from '../../ui/icons';
import { showToast } from '../../ui/Toast';
import { trashMessage } from './TrashDialog';
import { useDeleteForeverMutation, useRestorePageMutation } from './trashApi';
import './trash.css';

/**
 * Above a page in the trash (opened by its link): «Страница в корзине», with «Восстановить» for
 * those who may (edit or full access, as the server's restore) and «Удалить навсегда» for those
 * with full access (docs/api/pages.md). The page stays read-only until it is restored.
 */
export function TrashedPageBanner({ page }: { page: WireElement }) {
  const { t } = useTranslation();
  const [restorePage] = useRestorePageMutation();
  const [deletePage] = useDeleteForeverMutation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const mayRestore = canEdit(page.accessLevel);
  const mayDelete = canShare(page.accessLevel);

  const restore = async () => {
    setBusy(true);
    try {
      // Back in the tree where it was (trashApi).
      await restorePage(page.id).unwrap();
      showToast(t('trash.restored'));
    } catch (error) {
      showToast(trashMessage(t, error), 'error');
    } finally {
      setBusy(false);
    }
  };

  const removeForever = async () => {
    setConfirming(false);
    setBusy(true);
    try {
      await deletePage(page.id).unwrap();
      showToast(t('trash.deleted'));
      navigate('/', { replace: true });
    } catch (error) {
      showToast(trashMessage(t, error), 'error');
      setBusy(false);
    }
  };

  return (
    <div className="trashed-banner" role="status">
      <TrashIcon size={18} aria-hidden />
      <div className="trashed-banner-text">
        <strong>{t('trash.banner.title')}</strong>
        <span>{mayRestore ? t('trash.banner.text') : t('trash.banner.readOnly')}</span>
      </div>
      {(mayRestore || mayDelete) && (
        <div className="trashed-banner-actions">
          {mayRestore && (
            <Button size="s" disabled={busy} onClick={() => void restore()}>
              <RestoreIcon size={16} aria-hidden />
              {t('trash.restore')}
            </Button>
          )}
          {mayDelete && (
            <Button kind="outline" size="s" className="trashed-banner-delete" disabled={busy} onClick={() => setConfirming(true)}>
              {t('trash.deleteForever')}
            </Button>
          )}
        </div>
      )}
      {confirming && (
        <Dialog
          title={t('trash.confirmTitle')}
          onClose={() => setConfirming(false)}
          className="dialog-small"
          footer={
            <>
              <Button kind="outline" size="s" onClick={() => setConfirming(false)}>
                {t('trash.cancel')}
              </Button>
              <Button size="s" className="button-danger" onClick={() => void removeForever()}>
                {t('trash.deleteForever')}
              </Button>
            </>
          }
        >
          <p className="confirm-text">{t('trash.confirmText', { title: page.title || t('untitled') })}</p>
        </Dialog>
      )}
    </div>
  );
}
