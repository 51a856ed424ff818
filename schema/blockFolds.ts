import { z } from 'zod';
import { definitionForWireType } from './blocks';

/*
 * Toggle folds per person (issue 39, docs/api/blocks.md «Toggle folds (per person)»): whether a
 * toggle block is open is each person's own state, kept by the server; nothing stored is folded.
 */

/** Whether a block of this wire type folds what is nested under them (its definition's `folds`: the toggles). */
export function isFoldingWireType(type: string): boolean {
  return definitionForWireType(type)?.folds === true;
}

/** `PUT block/{id}/fold`: open (true) or fold (false) the toggle, for the caller alone. */
export const blockFoldBodySchema = z.object({ open: z.boolean() }).strict();
export type BlockFoldBody = z.infer<typeof blockFoldBodySchema>;

/** The answer of `PUT block/{id}/fold`: the caller's state of that toggle now. */
export interface WireBlockFold {
  blockId: string;
  open: boolean;
}

/** The answer of `GET note/{id}/folds`: the ids of the page's toggles the caller has open (any order). */
export interface WirePageFolds {
  open: string[];
}
