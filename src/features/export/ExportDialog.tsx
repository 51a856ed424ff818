import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExportFormat, WireExportJob } from '../../../schema/exportJob';
import { EXPORT_FORMATS } from '../../../schema/exportJob';
import { formatFileSize } from '../../../plugins/blocks/file/block';
import { rateLimitMessage } from '../../app/errors';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { ProgressBar } from '../../ui/ProgressBar';
import { ChoiceCards } from './ChoiceCards';
import { downloadExport, followExport, recentExports, startExport, type ExportTarget } from './exportJobs';
import './export.css';

/** What is exported: a page (subpages chosen in the dialog) or a whole workspace. */
export type ExportSubject = { kind: 'page'; pageId: string; workspaceId: string | null } | { kind: 'workspace'; workspaceId: string; name: string };

const sameSubject = (job: WireExportJob, subject: ExportSubject) => (subject.kind === 'page' ? job.pageId === subject.pageId : job.pageId === null);

/**
 * «Экспорт» (docs/import-export.md): a format (Markdown, HTML, JSON for a copy that imports back
 * whole) and, for a page, whether subpages go too. The zip is written in the background: the
 * dialog shows its progress and downloads it when done; closed meanwhile, a toast offers it later.
 * An export of the same subject still running (or done in the last day) is shown on opening.
 */
export function ExportDialog({ subject, onClose }: { subject: ExportSubject; onClose(): void }) {
  const { t } = useTranslation();
  const [format, setFormat] = useState<ExportFormat>('markdown');
  const [subpages, setSubpages] = useState(true);
  const [comments, setComments] = useState(false);
  const [job, setJob] = useState<WireExportJob | null>(null);
  const [previous, setPrevious] = useState<WireExportJob | null>(null);
  /** Why the last start failed (false: it did not); a 429 is shown as a calm line with the wait. */
  const [failed, setFailed] = useState<unknown>(false);

  // An export of this subject already under way goes on showing; the last one done can be downloaded again.
  useEffect(() => {
    let live = true;
    if (subject.workspaceId === null) return;
    recentExports(subject.workspaceId)
      .then((jobs) => {
        if (!live) return;
        const mine = jobs.filter((j) => sameSubject(j, subject));
        const running = mine.find((j) => j.status === 'queued' || j.status === 'running');
        if (running) setJob(running);
        setPrevious(mine.find((j) => j.status === 'done') ?? null);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, for the subject the dialog opened with
  }, []);

  // Follows the job shown; when it ends done while the dialog is open, the browser downloads it.
  const jobId = job?.id;
  const jobEnded = job?.status === 'done' || job?.status === 'failed';
  useEffect(() => {
    if (!job || jobEnded) return;
    return followExport(job, (next) => {
      setJob(next);
      if (next.status === 'done') downloadExport(next);
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- follows each job once, by its id
  }, [jobId, jobEnded]);

  const start = async () => {
    setFailed(false);
    const target: ExportTarget =
      subject.kind === 'page' ? { kind: 'page', pageId: subject.pageId, subpages } : { kind: 'workspace', workspaceId: subject.workspaceId };
    try {
      setJob(await startExport(target, format, format === 'json' && comments));
    } catch (error) {
      setFailed(error ?? true);
    }
  };

  const running = job !== null && (job.status === 'queued' || job.status === 'running');
  const title = subject.kind === 'page' ? t('export.title') : t('export.workspaceTitle', { name: subject.name });
  const footer = running ? (
    <Button kind="flat" size="s" onClick={onClose}>
      {t('export.hide')}
    </Button>
  ) : job?.status === 'done' ? (
    <>
      <Button kind="flat" size="s" onClick={onClose}>
        {t('export.close')}
      </Button>
      <Button size="s" onClick={() => downloadExport(job)}>
        {t('export.downloadAgain')}
      </Button>
    </>
  ) : (
    <>
      <Button kind="flat" size="s" onClick={onClose}>
        {t('export.cancel')}
      </Button>
      <Button size="s" onClick={() => void start()}>
        {t('export.download')}
      </Button>
    </>
  );

  return (
    <Dialog title={title} onClose={onClose} className="export-dialog" footer={footer}>
      {job && job.status !== 'failed' ? (
        <div className="export-progress" aria-live="polite">
          {job.status === 'done' ? (
            <p className="export-status">{t('export.done', { size: formatFileSize(job.size ?? 0), count: job.total })}</p>
          ) : (
            <>
              <ProgressBar
                value={job.total > 0 ? job.done / job.total : 0}
                label={job.total > 0 ? t('export.progress', { done: job.done, total: job.total }) : t('export.preparing')}
              />
              <p className="export-hint">{t('export.leaveHint')}</p>
            </>
          )}
        </div>
      ) : (
        <>
          {subject.kind === 'workspace' && <p className="export-hint">{t('export.workspaceHint')}</p>}
          <ChoiceCards
            legend={t('export.format')}
            name="export-format"
            options={EXPORT_FORMATS}
            value={format}
            onChange={setFormat}
            title={(f) => t(`export.formats.${f}`)}
            hint={(f) => t(`export.hints.${f}`)}
          />
          {subject.kind === 'page' && (
            <label className="export-subpages">
              <input type="checkbox" checked={subpages} onChange={(e) => setSubpages(e.target.checked)} />
              {t('export.subpages')}
            </label>
          )}
          {format === 'json' && (
            <label className="export-subpages">
              <input type="checkbox" checked={comments} onChange={(e) => setComments(e.target.checked)} />
              {t('export.comments')}
            </label>
          )}
          {(failed !== false || job?.status === 'failed') && (
            <p className="export-error" role="alert">
              {(failed !== false && rateLimitMessage(t, failed)) || t('export.failed')}
            </p>
          )}
          {previous && (
            <p className="export-previous">
              {t('export.previous', {
                when: new Date(previous.finishedAt ?? previous.createdAt).toLocaleString('ru-RU', {
                  day: 'numeric',
                  month: 'long',
                  hour: '2-digit',
                  minute: '2-digit',
                }),
                size: formatFileSize(previous.size ?? 0),
                format: t(`export.formats.${previous.format}`),
              })}{' '}
              <button type="button" className="export-link" onClick={() => downloadExport(previous)}>
                {t('export.previousDownload')}
              </button>
            </p>
          )}
        </>
      )}
    </Dialog>
  );
}
