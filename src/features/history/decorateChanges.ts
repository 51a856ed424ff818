import { Element, type NodeEntry, type Range } from 'slate';
import { blockPoints } from '../../../plugins/blocks/code/decorate';
import type { DiffSpan } from './textChanges';

/** A decoration of the version view: `diff` marks a run removed or added (read by TokenLeaf). */
export type DiffRange = Range & { diff: DiffSpan['kind'] };

const NONE: Range[] = [];

/** Decorations for the version view's editor: the runs of `spans` (by block id) in their blocks' text. */
export function decorateChanges(spans: ReadonlyMap<string, readonly DiffSpan[]>): (entry: NodeEntry) => Range[] {
  return ([node, path]) => {
    if (path.length !== 1 || !Element.isElement(node) || !('uid' in node)) return NONE;
    const runs = spans.get(node.uid as string);
    if (!runs) return NONE;
    const pointAt = blockPoints(node, path);
    return runs.map((run) => ({ anchor: pointAt(run.start, false), focus: pointAt(run.end, true), diff: run.kind }) as DiffRange);
  };
}
