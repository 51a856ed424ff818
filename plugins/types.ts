import type { BaseEditor } from 'slate';
import type { HistoryEditor } from 'slate-history';
import type { ReactEditor } from 'slate-react';
import type { BlockElement, SlateText } from '../schema/slate';

export type WorkspaceEditor = BaseEditor & ReactEditor & HistoryEditor;

declare module 'slate' {
  interface CustomTypes {
    Editor: WorkspaceEditor;
    Element: BlockElement;
    Text: SlateText;
  }
}
