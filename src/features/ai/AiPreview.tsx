import { useMemo, type ReactNode } from 'react';
import { Node } from 'slate';
import { parseMarkdown } from '../../../plugins';
import { depthOf, type BlockElement } from '../../../schema/slate';
import type { Token } from '../../../schema/token';

function TokenText({ token }: { token: Token }) {
  let out: ReactNode = token.text;
  if (token.code) out = <code>{out}</code>;
  if (token.bold) out = <strong>{out}</strong>;
  if (token.italic) out = <em>{out}</em>;
  if (token.underline) out = <u>{out}</u>;
  if (token.struckOut) out = <s>{out}</s>;
  if (token.link) out = <span className="ai-preview-link">{out}</span>;
  return <>{out}</>;
}

function Tokens({ tokens }: { tokens: readonly Token[] }) {
  return (
    <>
      {tokens.map((token, i) => (
        <TokenText key={i} token={token} />
      ))}
    </>
  );
}

const TEXT_CLASS: Partial<Record<BlockElement['type'], string>> = {
  heading1Block: 'ai-preview-h1',
  heading2Block: 'ai-preview-h2',
  heading3Block: 'ai-preview-h3',
  quoteBlock: 'ai-preview-quote',
  calloutBlock: 'ai-preview-quote',
};

/** One block of the preview, drawn as the editor would show it (without the editor). */
function PreviewBlock({ block, number, tail }: { block: BlockElement; number: number; tail?: ReactNode }) {
  const depth = depthOf(block);
  const style = depth > 0 ? { marginLeft: depth * 22 } : undefined;
  if (block.type === 'dividerBlock') {
    return (
      <>
        <hr className="ai-preview-divider" />
        {tail}
      </>
    );
  }
  if (block.type === 'codeBlock' || block.type === 'tableBlock') {
    return (
      <pre className={block.type === 'codeBlock' ? 'ai-preview-code' : 'ai-preview-p'} style={style}>
        {Node.string(block)}
        {tail}
      </pre>
    );
  }
  const tokens = (block.children as unknown as Token[]).filter((child) => typeof child.text === 'string' && child.text !== '');
  const marker =
    block.type === 'bulletListBlock'
      ? '•'
      : block.type === 'orderedListBlock'
        ? `${number}.`
        : block.type === 'checkboxBlock'
          ? block.checked
            ? '☑'
            : '☐'
          : null;
  if (marker) {
    return (
      <div className="ai-preview-item" style={style}>
        <span className="ai-preview-marker" aria-hidden>
          {marker}
        </span>
        <span>
          <Tokens tokens={tokens} />
          {tail}
        </span>
      </div>
    );
  }
  return (
    <p className={`ai-preview-p ${TEXT_CLASS[block.type] ?? ''}`} style={style}>
      <Tokens tokens={tokens} />
      {tail}
    </p>
  );
}

/** The numbers of ordered list items (per depth, restarted by anything else at that depth). */
function itemNumbers(blocks: readonly BlockElement[]): number[] {
  const counters: number[] = [];
  return blocks.map((block) => {
    const depth = depthOf(block);
    counters.length = depth + 1;
    if (block.type !== 'orderedListBlock') {
      counters[depth] = 0;
      return 0;
    }
    counters[depth] = block.forcedOrder ?? (counters[depth] ?? 0) + 1;
    return counters[depth];
  });
}

/**
 * The assistant's text as it will look once inserted: read by the same markdown parser as a paste
 * (headings, lists, quotes, code…), as it streams in.
 */
export function AiPreview({ text, streaming }: { text: string; streaming?: boolean }) {
  const content = useMemo(() => parseMarkdown(text), [text]);
  const caret = streaming ? <span className="ai-preview-caret" aria-hidden /> : null;
  if (!content) return <div className="ai-preview">{caret}</div>;
  if (content.kind === 'inline') {
    return (
      <div className="ai-preview">
        <p className="ai-preview-p">
          <Tokens tokens={content.tokens} />
          {caret}
        </p>
      </div>
    );
  }
  const numbers = itemNumbers(content.blocks);
  return (
    <div className="ai-preview">
      {content.blocks.map((block, i) => (
        // The caret at the end of the text that is still coming.
        <PreviewBlock key={i} block={block} number={numbers[i]} tail={i === content.blocks.length - 1 ? caret : null} />
      ))}
    </div>
  );
}
