import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Editor, Range, Transforms } from 'slate';
import { ReactEditor, useFocused, useReadOnly, useSelected, useSlateStatic, type RenderElementProps } from 'slate-react';
import { LATEX_FORMULA_MAX_LENGTH } from './block';
import type { LatexElement } from '../../../schema/slate';
import { renderFormula, useKatex } from './katex';
import './latex.css';
import { blockRootProps, editorT, type BlockViews } from '../../../src/editor/blockView';

/** The formula drawn by KaTeX, or a placeholder / loading line. */
function FormulaPreview({ formula }: { formula: string }) {
  const katex = useKatex();
  const result = useMemo(() => (katex && formula.trim() !== '' ? renderFormula(katex, formula) : null), [katex, formula]);
  if (formula.trim() === '') return <div className="latex-placeholder">{editorT('latexPlaceholder')}</div>;
  if (result === null) return <div className="latex-loading">{editorT('latexLoading')}</div>;
  if ('error' in result) {
    return (
      <div className="latex-error" role="alert">
        {result.error}
      </div>
    );
  }
  return <div className="latex-render" dangerouslySetInnerHTML={{ __html: result.html }} />;
}

/**
 * A formula (void). Click it, or press Enter while it is selected, to edit it in a textarea under
 * the rendering with a live preview; Esc, Ctrl/Cmd+Enter or leaving the field saves it.
 */
export function LatexView({ element, attributes, children }: RenderElementProps) {
  const editor = useSlateStatic();
  const readOnly = useReadOnly();
  const selected = useSelected();
  const focused = useFocused();
  const formula = element.type === 'latexBlock' ? (element.formula ?? '') : '';
  const [draft, setDraft] = useState<string | null>(null);
  const editing = draft !== null;
  const committing = useRef(false);

  const open = useCallback(() => {
    if (!readOnly) setDraft(formula);
  }, [readOnly, formula]);

  const commit = (backToEditor: boolean) => {
    if (draft === null || committing.current) return;
    committing.current = true;
    const path = ReactEditor.findPath(editor, element);
    if (draft !== formula) Transforms.setNodes<LatexElement>(editor, { formula: draft }, { at: path });
    setDraft(null);
    if (backToEditor) {
      Transforms.select(editor, Editor.start(editor, path));
      ReactEditor.focus(editor);
    }
    committing.current = false;
  };

  // Enter on the selected formula opens it (before Slate would split the document there).
  useEffect(() => {
    if (!selected || !focused || editing || readOnly) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Enter' || event.shiftKey || event.ctrlKey || event.metaKey || event.altKey) return;
      const { selection } = editor;
      if (!selection || !Range.isCollapsed(selection)) return;
      const entry = Editor.above(editor, { at: selection, match: (n) => n === element });
      if (!entry) return;
      event.preventDefault();
      event.stopPropagation();
      open();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [selected, focused, editing, readOnly, editor, element, open]);

  return (
    <div {...attributes} {...blockRootProps(element, `block-void block-latex${selected && focused ? ' is-selected' : ''}${editing ? ' is-editing' : ''}`)}>
      <div contentEditable={false}>
        <div
          className="latex-view"
          onMouseDown={readOnly ? undefined : (event) => event.preventDefault()}
          onClick={(event) => {
            if (readOnly) return;
            event.stopPropagation();
            open();
          }}
          // Not a button: it takes no focus (Enter on the selected block opens it, docs/web-app.md), and
          // a screen reader reads the formula itself (KaTeX's MathML), not a name over it.
        >
          <FormulaPreview formula={editing ? draft : formula} />
        </div>
        {editing && (
          <div
            className="latex-editor"
            onClick={(event) => event.stopPropagation()}
            onMouseDown={(event) => event.stopPropagation()}
            onMouseUp={(event) => event.stopPropagation()}
          >
            <textarea
              autoFocus
              aria-label={editorT('latexInputLabel')}
              value={draft}
              maxLength={LATEX_FORMULA_MAX_LENGTH}
              spellCheck={false}
              rows={Math.min(10, Math.max(2, draft.split('\n').length))}
              onChange={(event) => setDraft(event.target.value)}
              // The editor no longer has the focus (Slate, which keeps its own flag, may not have
              // heard): Escape's focus() then really gives it back.
              onFocus={() => ReactEditor.blur(editor)}
              onBlur={() => commit(false)}
              onKeyDown={(event) => {
                event.stopPropagation();
                if (event.key === 'Escape' || (event.key === 'Enter' && (event.ctrlKey || event.metaKey))) {
                  event.preventDefault();
                  commit(true);
                }
              }}
            />
            <div className="latex-hint">{editorT('latexHint')}</div>
          </div>
        )}
      </div>
      {children}
    </div>
  );
}

export const blockViews: BlockViews = { latexBlock: LatexView };
