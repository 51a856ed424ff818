import type { Editor } from 'slate';
import { CLIPBOARD_MIME, type PastedContent } from './content';
import { insertPastedContent } from './insertBlocks';
import { parseHtml } from './parseHtml';
import { parseClipboardJson } from './parseJson';
import { parseMarkdown } from './parseMarkdown';
import { copyContent } from './serialize';
import { storableText } from '../../schema/text';
import type { ClipboardData } from '../types';

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
export function withClipboard<E extends Editor>(editor: E): E {
  // Under the web app's editor these are slate-react's: Slate's own fragment format, written on
  // copy and read from a clipboard that holds nothing else. Headless there are none: a copy
  // writes our formats only, and a clipboard with none of them (files only) inserts nothing.
  const { setFragmentData = ignore, insertData = ignore }: Partial<ClipboardData> = editor;

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

const ignore = () => undefined;
