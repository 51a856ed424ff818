import type { BlockElementBase, SlateText } from '../../../schema/slate';
import { z } from 'zod';
import { escapeHtml } from '../../../schema/html';
import { tokensSchema, tokensText, type Token } from '../../../schema/token';
import type { BlockDefinition } from '../../../schema/blocks/definition';

/** Code: plain text with "\n" line breaks; absent `language` is the default one. */
export interface CodeElement extends BlockElementBase {
  type: 'codeBlock';
  language?: CodeLanguage;
}

/** The languages a code block can be highlighted as (prismjs names; `plain` is no highlighting). */
export const CODE_LANGUAGES = [
  'plain',
  'javascript',
  'typescript',
  'python',
  'bash',
  'json',
  'sql',
  'html',
  'css',
  'go',
  'java',
  'c',
  'cpp',
  'rust',
  'yaml',
  'markdown',
] as const;
export type CodeLanguage = (typeof CODE_LANGUAGES)[number];
export const DEFAULT_CODE_LANGUAGE: CodeLanguage = 'javascript';

export function isCodeLanguage(value: string): value is CodeLanguage {
  return (CODE_LANGUAGES as readonly string[]).includes(value);
}

export const codeDataSchema = z.object({ tokens: tokensSchema, language: z.enum(CODE_LANGUAGES) }).strict();
export type CodeData = z.infer<typeof codeDataSchema>;

/** Code is plain text: its canonical tokens are one unmarked token (none when empty). */
export function plainCodeTokens(tokens: readonly (Token | SlateText)[]): Token[] {
  const text = tokensText(tokens as Token[]);
  return text === '' ? [] : [{ text }];
}

/** Names other tools put in `language-…` classes, mapped to ours. */
const LANGUAGE_ALIASES: Record<string, CodeLanguage> = {
  js: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  tsx: 'typescript',
  py: 'python',
  sh: 'bash',
  shell: 'bash',
  zsh: 'bash',
  markup: 'html',
  xml: 'html',
  'c++': 'cpp',
  golang: 'go',
  rs: 'rust',
  yml: 'yaml',
  md: 'markdown',
  text: 'plain',
  plaintext: 'plain',
  txt: 'plain',
};

/** Our language for a name other tools use (`ts`, `py`, a fenced block's info string), if we know it. */
export function codeLanguageNamed(name: string): CodeLanguage | null {
  const id = name.trim().toLowerCase();
  if (isCodeLanguage(id)) return id;
  return Object.hasOwn(LANGUAGE_ALIASES, id) ? LANGUAGE_ALIASES[id] : null;
}

/** The language named by an element's `language-x`/`lang-x` class, if we know it. */
function languageOfClass(element: Element | null): CodeLanguage | null {
  if (!element) return null;
  for (const name of Array.from(element.classList)) {
    const match = /^(?:language|lang)-(.+)$/.exec(name);
    const language = match ? codeLanguageNamed(match[1]) : null;
    if (language) return language;
  }
  return null;
}

/** A code block: plain multi-line text and its language. The slash menu offers it; ``` (```js) then a space or Enter makes one. */
export const codeBlock: BlockDefinition<'code', CodeData, CodeElement> = {
  wireType: 'code',
  slateType: 'codeBlock',
  dataSchema: codeDataSchema,
  shortcuts: [],
  fence: {
    marker: '```',
    fields: (info) => {
      const language = info === '' ? null : codeLanguageNamed(info);
      return language ? { language } : {};
    },
  },
  menuGroup: 'advanced',
  isVoid: false,
  defaultData: () => ({ tokens: [], language: DEFAULT_CODE_LANGUAGE }),
  canonicalize: (data) => ({ ...data, tokens: plainCodeTokens(data.tokens) }),
  toSlateFields: (data) => {
    const tokens = plainCodeTokens(data.tokens);
    return { children: tokens.length > 0 ? tokens : [{ text: '' }], language: data.language };
  },
  // A text block turned into code (slash menu) has no language yet: it gets the default.
  toWireData: (element) => {
    const language = element.type === 'codeBlock' ? element.language : undefined;
    return { tokens: plainCodeTokens(element.children as SlateText[]), language: language && isCodeLanguage(language) ? language : DEFAULT_CODE_LANGUAGE };
  },
  markdown: {
    // A fence longer than any run of backticks in the code.
    serialize: (data) => {
      const code = data.tokens.map((t) => t.text).join('');
      const longest = Math.max(2, ...(code.match(/`+/g) ?? []).map((run) => run.length));
      const fence = '`'.repeat(longest + 1);
      return [`${fence}${data.language !== 'plain' ? data.language : ''}`, ...code.split('\n'), fence];
    },
  },
  html: {
    serialize: (data) => `<pre><code class="language-${data.language}">${escapeHtml(tokensText(data.tokens))}</code></pre>`,
    parse: [
      {
        selector: 'pre',
        read: (element) => {
          const code = element.querySelector('code');
          // Line breaks are kept as they are (htmlToTokens folds whitespace, which code needs).
          const text = (element.innerHTML.includes('<br') ? textWithBreaks(element) : (element.textContent ?? '')).replace(/\n$/, '');
          const language = languageOfClass(code) ?? languageOfClass(element) ?? 'plain';
          return { tokens: text === '' ? [] : [{ text }], language };
        },
      },
    ],
  },
};

function textWithBreaks(root: Element): string {
  let out = '';
  const walk = (node: Node) => {
    if (node.nodeType === 3) out += node.textContent ?? '';
    else if (node.nodeType === 1 && (node as Element).tagName === 'BR') out += '\n';
    else node.childNodes.forEach(walk);
  };
  walk(root);
  return out;
}
