import { z } from 'zod';

/** `{id}` in a path: an id of ours (uuid) or a fixed root id such as a section. */
export const idParams = z.object({ id: z.string().min(1).max(128) });
