import type { SectionId } from '../../../schema/constants';

/** The sections that are the top level of the tree: pages are made and moved there (the others list links to pages). */
export type RootSection = 'private' | 'all';

export const isRootSection = (section: SectionId): section is RootSection => section === 'private' || section === 'all';
