import i18next from 'i18next';
import type { ExportFormat, WireExportJob } from '../../../schema/exportJob';
import { api } from '../../app/api';
import { showToast } from '../../ui/Toast';

/*
 * Exports as background jobs (docs/import-export.md «Export jobs»): started here, followed by
 * asking the server every second, downloaded once done. A job is followed once per tab whoever
 * watches it; when it ends with nobody watching (the dialog was closed), a toast offers the zip.
 */

const EXPORTS = '/api/v3/spaces/exports';
const POLL_MS = 1_000;

export type ExportTarget = { kind: 'page'; pageId: string; subpages: boolean } | { kind: 'workspace'; workspaceId: string };

export async function startExport(target: ExportTarget, format: ExportFormat, comments = false): Promise<WireExportJob> {
  const body =
    target.kind === 'page' ? { pageId: target.pageId, subpages: target.subpages, format, comments } : { workspaceId: target.workspaceId, format, comments };
  return (await api<WireExportJob>(EXPORTS, { method: 'POST', body })).data;
}

/** The person's recent exports in a workspace, newest first. */
export async function recentExports(workspaceId: string): Promise<WireExportJob[]> {
  return (await api<WireExportJob[]>(`${EXPORTS}?workspaceId=${encodeURIComponent(JSON.stringify(workspaceId))}`)).data;
}

/** Has the browser download a finished export (the session cookie goes with it). */
export function downloadExport(job: WireExportJob): void {
  if (!job.downloadUrl) return;
  const link = document.createElement('a');
  link.href = job.downloadUrl;
  link.download = '';
  document.body.append(link);
  link.click();
  link.remove();
}

const ended = (job: WireExportJob) => job.status === 'done' || job.status === 'failed';

interface Followed {
  watchers: Set<(job: WireExportJob) => void>;
}
const followed = new Map<string, Followed>();

/**
 * Follows a job until it ends, telling `watch` of each change; answers a function that stops
 * watching (the job is still followed: its end, unwatched, shows a toast with «Скачать»).
 */
export function followExport(job: WireExportJob, watch: (job: WireExportJob) => void): () => void {
  let entry = followed.get(job.id);
  if (!entry) {
    const fresh: Followed = { watchers: new Set() };
    entry = fresh;
    followed.set(job.id, fresh);
    const poll = async (last: WireExportJob) => {
      let next = last;
      try {
        next = (await api<WireExportJob>(`${EXPORTS}/${encodeURIComponent(job.id)}`)).data;
      } catch {
        // A blip of the network: ask again.
      }
      for (const w of fresh.watchers) w(next);
      if (!ended(next)) {
        setTimeout(() => void poll(next), POLL_MS);
        return;
      }
      followed.delete(job.id);
      if (fresh.watchers.size > 0) return;
      if (next.status === 'done')
        showToast(i18next.t('export.readyToast', { title: next.title }), 'info', Infinity, {
          label: i18next.t('export.download'),
          run: () => downloadExport(next),
        });
      else showToast(i18next.t('export.failedToast', { title: next.title }), 'error');
    };
    if (ended(job)) followed.delete(job.id);
    else setTimeout(() => void poll(job), POLL_MS);
  }
  const current = entry;
  current.watchers.add(watch);
  return () => current.watchers.delete(watch);
}
