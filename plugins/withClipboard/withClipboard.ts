import type { Editor } from 'slate';
import type { ReactEditor } from 'slate-react';
import { CLIPBOARD_MIME, type PastedContent } from './content';
import { insertPastedContent } from './insertBlocks';
import { parseHtml } from './parseHtml';
import { parseClipboardJson } from './parseJson';
import { parseMarkdown } from './parseMarkdown';
import { copyContent } from './serialize';
import { storableText } from '../../schema/text';

/**
 * What a paste brings, in the spec's order: the editor's own JSON, then HTML (sanitized), then
 * plain text read as markdown. Null when the clipboard has none of them (files only: left to
 * the editor's default and to the upload code; pasted images are not turned into text).
 */
export function readClipboard(clipboard: Pick<DataTransfer, 'getData'>): PastedContent | null {
  const data = storableClipboard(clipboard);
  const json = data.getData(CLIPBOARD_MIME);
  if (json) {
    const content = parseClipboardJson(json);
    if (content) return content;
  }
  const html = data.getData('text/html');
  if (html && html.trim() !== '') {
    const content = parseHtml(html);
    if (content) return content;
  }
  const text = data.getData('text/plain');
  return text ? parseMarkdown(text) : null;
}

/** A clipboard whose text can be stored: NUL characters left out, lone surrogates replaced (schema/text.ts) — the server would refuse the paste's writes, and it would be undone. */
function storableClipboard(data: Pick<DataTransfer, 'getData'>): Pick<DataTransfer, 'getData'> {
  return { getData: (type) => storableText(data.getData(type)) };
}

/**
 * Copy and paste (spec: "Paste tries editor JSON, then HTML, then plain text with markdown").
 * Copy keeps Slate's own fragment and sets CLIPBOARD_MIME (JSON), text/html and text/plain;
 * paste reads the first format that gives content and inserts it (insertPastedContent).
 */
export function withClipboard<E extends Editor & Pick<ReactEditor, 'setFragmentData' | 'insertData'>>(editor: E): E {
  const { setFragmentData, insertData } = editor;

  editor.setFragmentData = (data, originEvent) => {
    setFragmentData(data, originEvent);
    const copied = copyContent(editor);
    if (!copied) return;
    data.setData(CLIPBOARD_MIME, JSON.stringify(copied.json));
    data.setData('text/html', copied.html);
    data.setData('text/plain', copied.text);
  };

  editor.insertData = (data) => {
    const content = readClipboard(data);
    if (!content) {
      insertData(data);
      return;
    }
    const text = storableText(data.getData('text/plain'));
    insertPastedContent(editor, content, text || undefined);
  };

  return editor;
}
