import { z } from 'zod';
import { WORKSPACE_ROLES } from './constants';

/** A workspace on the wire, with the caller's role in it. */
export const wireWorkspaceSchema = z.object({
  id: z.string(),
  name: z.string(),
  avatar: z.string().nullable(),
  alias: z.string().nullable(),
  role: z.enum(WORKSPACE_ROLES),
  private: z.boolean(),
});
export type WireWorkspace = z.infer<typeof wireWorkspaceSchema>;
