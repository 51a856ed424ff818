import { render } from '@testing-library/react';
import type { Descendant } from 'slate';
import { Editable, Slate } from 'slate-react';
import '../../app/i18n';
import { createPageEditor } from '../pageEditor';
import type { BlockElement } from '../../../schema/slate';
import { useCodeDecorate } from './code/decorate';
import { BlockElementView, TokenLeaf } from '../renderers';

function TestEditable({ readOnly }: { readOnly: boolean }) {
  const decorate = useCodeDecorate();
  return <Editable readOnly={readOnly} renderElement={BlockElementView} renderLeaf={TokenLeaf} decorate={decorate} />;
}

/** Test helper: the page editor's Slate setup (plugins, views, leaves, code decorations) over some blocks. */
export function renderBlocks(blocks: BlockElement[], { readOnly = false } = {}) {
  const editor = createPageEditor();
  const value = [{ type: 'pageHeadingBlock', uid: 'pageHeading_p', version: 1, children: [{ text: 'Страница' }] }, ...blocks] as Descendant[];
  const result = render(
    <Slate editor={editor} initialValue={value}>
      <TestEditable readOnly={readOnly} />
    </Slate>,
  );
  return { editor, ...result };
}
