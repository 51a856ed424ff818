import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { IMPORT_ACCEPT, importFailureText, importInto, pickFile, type ImportAnswer } from './importPages';
import { importProblemText } from './importProblems';
import { ChoiceCards } from './ChoiceCards';
import './export.css';

type Section = 'private' | 'all';

/**
 * «Импорт» from the sidebar (`sections`: those the person may make pages in) (docs/import-export.md «Importing»): what can be imported, a section
 * of the workspace to put it in (the shared one for its admins), the browser's file picker; then
 * what was made and, listed, what could not be — never silently dropped — and «Открыть».
 */
export function ImportDialog({ workspaceId, sections, onClose }: { workspaceId: string; sections: readonly Section[]; onClose(): void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [section, setSection] = useState<Section>(sections[0] ?? 'private');
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<ImportAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);

  const choose = async () => {
    const file = await pickFile(IMPORT_ACCEPT);
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      setAnswer(await importInto({ section, workspaceId }, file));
    } catch (e) {
      setError(importFailureText(t, e));
    } finally {
      setBusy(false);
    }
  };

  const open = () => {
    if (answer?.page) navigate(`/${answer.page.id}`);
    onClose();
  };

  const footer = answer ? (
    <>
      <Button kind="flat" size="s" onClick={onClose}>
        {t('export.close')}
      </Button>
      {answer.page && (
        <Button size="s" onClick={open}>
          {t('export.open')}
        </Button>
      )}
    </>
  ) : (
    <>
      <Button kind="flat" size="s" onClick={onClose}>
        {t('export.cancel')}
      </Button>
      <Button size="s" disabled={busy || sections.length === 0} onClick={() => void choose()}>
        {t('export.chooseFile')}
      </Button>
    </>
  );

  return (
    <Dialog title={t('export.importTitle')} onClose={onClose} className="export-dialog" footer={footer}>
      {answer ? (
        <div className="import-result" aria-live="polite">
          <p className="export-status">{t('export.imported', { count: answer.pages })}</p>
          {answer.problems.length > 0 && (
            <>
              <p className="export-hint">{t('export.importProblems')}:</p>
              <ul className="import-problems">
                {answer.problems.slice(0, 100).map((p, i) => (
                  <li key={i}>
                    {p.page && <strong>{p.page}: </strong>}
                    {importProblemText(t, p)}
                  </li>
                ))}
                {answer.problems.length > 100 && <li>{t('export.importMoreProblems', { count: answer.problems.length - 100 })}</li>}
              </ul>
            </>
          )}
        </div>
      ) : (
        <>
          <p className="export-hint">{t('export.importWhat')}</p>
          <ul className="import-kinds">
            {(['markdown', 'html', 'json'] as const).map((kind) => (
              <li key={kind}>{t(`export.importKinds.${kind}`)}</li>
            ))}
          </ul>
          {sections.length === 0 ? (
            <p className="export-error">{t('export.importNowhere')}</p>
          ) : (
            <ChoiceCards
              legend={t('export.importWhere')}
              name="import-section"
              options={sections}
              value={section}
              onChange={setSection}
              title={(s) => t(`sidebar.sections.${s}`)}
              hint={(s) => t(`export.importSections.${s}`)}
            />
          )}
          {busy && (
            <p className="export-status" role="status">
              {t('export.importing')}
            </p>
          )}
          {error && (
            <p className="export-error" role="alert">
              {error}
            </p>
          )}
        </>
      )}
    </Dialog>
  );
}
