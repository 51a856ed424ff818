import { generateKeyBetween } from 'fractional-indexing';
import type { Transaction } from 'kysely';
import type { BlockData } from '../../schema/block';
import { definitionForWireType, type BlockWireType } from '../../schema/blocks';
import { newId } from '../../schema/ids';
import type { Database, PageRow } from '../db/types';
import { insertBlockRows, type InsertBlockInput } from '../repositories/blocks';
import { insertPage, updatePageFields } from '../repositories/pages';
import { nowIso } from '../time';
import type { TemplateBlock, TemplateDefinition, TemplatePage } from './types';

/** A template block as stored: checked against its type's schema and in canonical form (as a block create stores it). */
export function templateBlockData(type: BlockWireType, data: unknown): BlockData {
  const definition = definitionForWireType(type);
  if (!definition) throw new Error(`unknown block type ${type}`);
  return definition.canonicalize(definition.dataSchema.parse(data)) as BlockData;
}

interface CopyInput {
  template: TemplateDefinition;
  workspaceId: string;
  section: 'private' | 'all';
  userId: string;
}

/**
 * Creates the template's page tree at the end of a section with its blocks: the root gets the
 * caller's full grant (as a created section root does), the pages below inherit. Call in a
 * transaction holding the workspace's tree lock, after checking the caller may create pages in
 * that section. Answers the root page.
 */
export async function copyTemplate(trx: Transaction<Database>, input: CopyInput): Promise<{ root: PageRow; pages: PageRow[] }> {
  const now = nowIso();
  const pages: PageRow[] = [];
  const blocks: InsertBlockInput[] = [];

  const addBlocks = (pageId: string, parentId: string | null, list: readonly TemplateBlock[], childPageIds: readonly string[]) => {
    let previousKey: string | null = null;
    const add = (type: BlockWireType, data: BlockData): string => {
      const id = newId();
      previousKey = generateKeyBetween(previousKey, null);
      blocks.push({ id, pageId, parentId, sortKey: previousKey, type, data, userId: input.userId });
      return id;
    };
    for (const block of list) {
      if (block.type === 'subpages') {
        for (const childId of childPageIds) add('document', templateBlockData('document', { pageId: childId }));
        continue;
      }
      const id = add(block.type, templateBlockData(block.type, block.data));
      if (block.children?.length) addBlocks(pageId, id, block.children, childPageIds);
    }
  };

  const copyPage = async (page: TemplatePage, parent: PageRow | null): Promise<PageRow> => {
    const inserted = await insertPage(trx, {
      id: newId(),
      workspaceId: input.workspaceId,
      parent,
      section: parent ? null : input.section,
      type: 'Note',
      title: page.title,
      createdBy: input.userId,
      grantCreatorFull: parent === null,
    });
    const row = await updatePageFields(trx, inserted, { icon: page.icon });
    pages.push(row);
    const children: PageRow[] = [];
    for (const child of page.children ?? []) children.push(await copyPage(child, row));
    addBlocks(
      row.id,
      null,
      page.blocks,
      children.map((c) => c.id),
    );
    return row;
  };

  const root = await copyPage(input.template.root, null);
  await insertBlockRows(trx, blocks, now);
  return { root, pages };
}
