import { blocksToSlate, wireBlockSchema, type WireBlock } from '../../../schema/block';
import { VOID_SLATE_TYPES } from '../../../schema/blocks/index';
import { syncedBlock, syncedDataSchema } from './block';

const pageId = '0F7A1B2C-3D4E-4F50-8A6B-7C8D9E0F1A2B';

describe('synced block', () => {
  it('names the uuid of its page and nothing else', () => {
    expect(syncedDataSchema.safeParse({ pageId }).success).toBe(true);
    expect(syncedDataSchema.safeParse({ pageId: 'p1' }).success).toBe(false);
    expect(syncedDataSchema.safeParse({ pageId, blocks: [] }).success).toBe(false);
    const block = { id: 'b1', contentType: 'Block', pageId: 'p1', type: 'synced', version: 1, parentId: null, placeAfter: null };
    expect(wireBlockSchema.safeParse({ ...block, data: { pageId } }).success).toBe(true);
    expect(wireBlockSchema.safeParse({ ...block, data: {} }).success).toBe(false);
  });

  it('is void, kept in lower case, and the slash menu offers it though it has no default data (its view makes it)', () => {
    expect(VOID_SLATE_TYPES.has('syncedBlock')).toBe(true);
    expect(syncedBlock.defaultData).toBeUndefined();
    expect(syncedBlock.madeInEditor).toBe(true);
    expect(syncedBlock.canonicalize({ pageId })).toEqual({ pageId: pageId.toLowerCase() });
  });

  it('goes to Slate and back unchanged', () => {
    const wire: WireBlock = { id: 'b1', contentType: 'Block', pageId: 'p1', type: 'synced', version: 3, parentId: null, placeAfter: null, data: { pageId } };
    const [element] = blocksToSlate([wire]);
    expect(element).toMatchObject({ type: 'syncedBlock', uid: 'b1', version: 3, pageId });
    expect(syncedBlock.toWireData(element as never)).toEqual({ pageId });
  });

  it('writes nothing of its own into Markdown: an export writes its blocks in its place', () => {
    expect(syncedBlock.markdown!.serialize({ pageId }, {} as never)).toEqual([]);
  });
});
