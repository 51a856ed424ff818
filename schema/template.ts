import { z } from 'zod';

/**
 * Template sets (spec §4 "Templates depend on purpose: a privacy set, a study set, otherwise by
 * company type"): `personal` for a private workspace, `study` for purpose other that is not
 * private, and one set per company type for purpose work.
 */
export const COMPANY_TYPES = ['marketing', 'it', 'sell', 'creativity', 'other'] as const;
export type CompanyType = (typeof COMPANY_TYPES)[number];
export const TEMPLATE_SETS = ['personal', 'study', ...COMPANY_TYPES] as const;
export type TemplateSet = (typeof TEMPLATE_SETS)[number];

/** A template as GET /api/templates lists it: no page content. */
export interface WireTemplate {
  id: string;
  contentType: 'Template';
  title: string;
  description: string;
  icon: string;
  /** The sets it is offered in. */
  sets: TemplateSet[];
  /** How many pages a copy creates (the root and its children). */
  pageCount: number;
}

/** `meta.defaults` of GET /api/templates: the template preselected for each set. */
export type TemplateDefaults = Record<TemplateSet, string>;

/** POST /api/templates/{id}/copy. */
export const copyTemplateBodySchema = z
  .object({
    workspaceId: z.string().min(1).max(64),
    section: z.enum(['private', 'all']),
  })
  .strict();
export type CopyTemplateBody = z.infer<typeof copyTemplateBodySchema>;
