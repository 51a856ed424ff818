import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WireElement } from '../../../schema/element';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import './export.css';

const FORMATS = ['markdown', 'html', 'json'] as const;
type Format = (typeof FORMATS)[number];

/** The address of a page's export (docs/import-export.md): the browser downloads it (the session cookie goes with it). */
export function exportUrl(pageId: string, format: Format, subpages: boolean): string {
  const params = new URLSearchParams({ format: JSON.stringify(format), subpages: JSON.stringify(subpages) });
  return `/api/v3/spaces/element/${encodeURIComponent(pageId)}/export?${params}`;
}

/** «Экспорт»: a format (Markdown, HTML, JSON for a copy that imports back whole) and whether subpages go too; «Скачать» downloads the zip. */
export function ExportDialog({ page, onClose }: { page: WireElement; onClose(): void }) {
  const { t } = useTranslation();
  const [format, setFormat] = useState<Format>('markdown');
  const [subpages, setSubpages] = useState(true);
  const download = () => {
    const link = document.createElement('a');
    link.href = exportUrl(page.id, format, subpages);
    link.download = '';
    document.body.append(link);
    link.click();
    link.remove();
    onClose();
  };
  return (
    <Dialog
      title={t('export.title')}
      onClose={onClose}
      className="export-dialog"
      footer={
        <>
          <Button kind="flat" size="s" onClick={onClose}>
            {t('export.cancel')}
          </Button>
          <Button size="s" onClick={download}>
            {t('export.download')}
          </Button>
        </>
      }
    >
      <fieldset className="export-formats">
        <legend>{t('export.format')}</legend>
        {FORMATS.map((f) => (
          <label key={f} className="export-format">
            <input type="radio" name="export-format" value={f} checked={format === f} onChange={() => setFormat(f)} />
            <span>
              <strong>{t(`export.formats.${f}`)}</strong>
              <small>{t(`export.hints.${f}`)}</small>
            </span>
          </label>
        ))}
      </fieldset>
      <label className="export-subpages">
        <input type="checkbox" checked={subpages} onChange={(e) => setSubpages(e.target.checked)} />
        {t('export.subpages')}
      </label>
    </Dialog>
  );
}
