import { useEffect, useRef, useState } from 'react';
import { Node, Transforms } from 'slate';
import { ReactEditor, useFocused, useReadOnly, useSelected, useSlateStatic, type RenderElementProps } from 'slate-react';
import { CODE_LANGUAGES, DEFAULT_CODE_LANGUAGE, isCodeLanguage } from './block';
import type { CodeElement } from '../../../schema/slate';
import './code.css';
import { blockRootProps, editorT, type BlockViews } from '../../../src/editor/blockView';

/**
 * A code block: monospace text (highlighted by decorateCode through the editor's decorate),
 * with a language picker and a copy button in its corner. While the caret is in it (and the
 * page is editable), a quiet line under the code says how to leave it (plugins/withCodeBlocks).
 */
export function CodeView({ element, attributes, children }: RenderElementProps) {
  const editor = useSlateStatic();
  const readOnly = useReadOnly();
  const selected = useSelected();
  const focused = useFocused();
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const language = element.type === 'codeBlock' && element.language && isCodeLanguage(element.language) ? element.language : DEFAULT_CODE_LANGUAGE;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(Node.string(element));
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), 1500);
    } catch {
      // The clipboard is not available (insecure page, denied): nothing to report beyond no change.
    }
  };

  return (
    <div {...attributes} {...blockRootProps(element, 'block-code')} spellCheck={false}>
      <div className="code-toolbar" contentEditable={false}>
        <select
          className="code-language"
          aria-label={editorT('codeLanguageLabel')}
          value={language}
          disabled={readOnly}
          onChange={(event) => {
            const next = event.target.value;
            if (!isCodeLanguage(next)) return;
            Transforms.setNodes<CodeElement>(editor, { language: next }, { at: ReactEditor.findPath(editor, element) });
          }}
        >
          {CODE_LANGUAGES.map((id) => (
            <option key={id} value={id}>
              {editorT(`codeLanguages.${id}`)}
            </option>
          ))}
        </select>
        <button type="button" className="code-copy" onClick={() => void copy()}>
          {copied ? editorT('codeCopied') : editorT('codeCopy')}
        </button>
      </div>
      <pre className="code-content">
        <code>{children}</code>
      </pre>
      {selected && focused && !readOnly ? (
        <div className="code-hint" contentEditable={false}>
          {editorT('codeLeaveHint')}
        </div>
      ) : null}
    </div>
  );
}

export const blockViews: BlockViews = { codeBlock: CodeView };
