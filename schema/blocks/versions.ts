import type { BlockDefinition } from './definition';

/*
 * Versions of a block type's data (docs/api/blocks.md, «Data versions»). A type's data has a shape
 * at a version: 1 + the number of its named upgrade steps (`BlockDefinition.upgrades`). The web
 * app writes data at the version it was built with (`dataVersion` in a create or update; absent:
 * the current one), and the server takes older data up to the current shape before it validates
 * and stores it: a tab opened before a deploy that changed a shape keeps saving. Data newer than
 * the server knows is refused (422), never stored half understood.
 */

/** The current version of a type's data. */
export function dataVersionOf(definition: Pick<BlockDefinition, 'upgrades'>): number {
  return 1 + (definition.upgrades?.length ?? 0);
}

/**
 * Data at version `from` (absent: the current one) taken up to the current version by the type's
 * steps, in order; an error for a version it does not know, or data a step cannot take.
 */
export function upgradeData(
  definition: Pick<BlockDefinition, 'upgrades' | 'wireType'>,
  data: Record<string, unknown>,
  from = dataVersionOf(definition),
): { data: Record<string, unknown> } | { error: string } {
  const current = dataVersionOf(definition);
  if (!Number.isInteger(from) || from < 1) return { error: `data version ${from} is not a version` };
  if (from > current) return { error: `data version ${from} of ${definition.wireType} is newer than this server's (${current}): reload the app` };
  // Every write of today's web app: nothing to take up.
  if (from === current) return { data };
  let upgraded = data;
  for (const step of definition.upgrades?.slice(from - 1) ?? []) {
    try {
      upgraded = step.up(upgraded);
    } catch (error) {
      return {
        error: `data version ${from} of ${definition.wireType} could not be taken up («${step.name}»): ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }
  return { data: upgraded };
}
