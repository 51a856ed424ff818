import { z } from 'zod';

/** Formats of an export (docs/import-export.md). */
export const EXPORT_FORMATS = ['markdown', 'html', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type ExportJobStatus = (typeof EXPORT_JOB_STATUSES)[number];

/** `POST exports`: a page (with its subpages or not), or a whole workspace, in a format. */
export const startExportBodySchema = z
  .object({
    pageId: z.string().min(1).max(128).optional(),
    workspaceId: z.string().min(1).max(128).optional(),
    format: z.enum(EXPORT_FORMATS),
    subpages: z.boolean().optional(),
    /** JSON: the pages' comments too. */
    comments: z.boolean().optional(),
  })
  .strict()
  .refine((body) => (body.pageId === undefined) !== (body.workspaceId === undefined), {
    message: 'name a pageId or a workspaceId, one of them',
    path: ['pageId'],
  });
export type StartExportBody = z.infer<typeof startExportBodySchema>;

/** An export running in the background, as its starter sees it (docs/import-export.md «Export jobs»). */
export interface WireExportJob {
  id: string;
  workspaceId: string;
  /** The page exported; null for the whole workspace. */
  pageId: string | null;
  format: ExportFormat;
  subpages: boolean;
  comments: boolean;
  /** The zip's name without `.zip`. */
  title: string;
  status: ExportJobStatus;
  /** Pages read so far, of how many. */
  done: number;
  total: number;
  /** The zip's size in bytes once done. */
  size: number | null;
  /** Why it failed. */
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  /** Where the zip downloads from once done (the starter's session only). */
  downloadUrl: string | null;
}
