/** @jest-environment jsdom */
import { toSlate, toWire, type WireBlock } from '../../../schema/block';
import type { BlockElement } from '../../../schema/slate';
import { CODE_LANGUAGES, codeBlock } from './block';
import { parseWith, roundTripHtml } from '../../../schema/blocks/htmlTestUtil';

const source = 'const a = 1;\nif (a < 2) {\n  log("&");\n}';

describe('code', () => {
  test('the languages: ~15 common ones with plain text, javascript by default', () => {
    expect(CODE_LANGUAGES).toEqual(
      expect.arrayContaining([
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
      ]),
    );
    expect(codeBlock.defaultData!()).toEqual({ tokens: [], language: 'javascript' });
    expect(codeBlock.dataSchema.safeParse({ tokens: [], language: 'cobol' }).success).toBe(false);
    expect(codeBlock.dataSchema.safeParse({ tokens: [] }).success).toBe(false);
  });

  test('code is plain text: marks are dropped and tokens joined', () => {
    expect(codeBlock.canonicalize({ tokens: [{ text: 'a', bold: true }, { text: 'b' }], language: 'go' })).toEqual({
      tokens: [{ text: 'ab' }],
      language: 'go',
    });
    expect(codeBlock.canonicalize({ tokens: [], language: 'go' })).toEqual({ tokens: [], language: 'go' });
  });

  test('round-trips through Slate; a block turned into code gets the default language', () => {
    const wire: WireBlock = {
      id: 'b',
      contentType: 'Block',
      pageId: 'p',
      type: 'code',
      version: 1,
      parentId: null,
      placeAfter: null,
      data: { tokens: [{ text: source }], language: 'python' },
    };
    const element = toSlate(wire);
    expect(element).toEqual({ type: 'codeBlock', uid: 'b', version: 1, language: 'python', children: [{ text: source }] });
    expect(toWire(element, wire)).toStrictEqual(wire);
    const converted = { type: 'codeBlock', uid: 'c', version: 1, children: [{ text: 'x', italic: true }, { text: 'y' }] } as BlockElement;
    expect(toWire(converted, wire).data).toStrictEqual({ tokens: [{ text: 'xy' }], language: 'javascript' });
  });

  test('HTML: <pre><code class="language-x">, text escaped, line breaks kept', () => {
    const html = codeBlock.html!.serialize({ tokens: [{ text: source }], language: 'typescript' }, '');
    expect(html).toBe('<pre><code class="language-typescript">const a = 1;\nif (a &lt; 2) {\n  log(&quot;&amp;&quot;);\n}</code></pre>');
    expect(roundTripHtml(codeBlock, { tokens: [{ text: source }], language: 'typescript' }, '')).toEqual({
      tokens: [{ text: source }],
      language: 'typescript',
    });
  });

  test('HTML from elsewhere: aliases, unknown languages as plain text, <br> lines', () => {
    expect(parseWith(codeBlock, '<pre><code class="lang-py">x = 1</code></pre>')).toEqual({ tokens: [{ text: 'x = 1' }], language: 'python' });
    expect(parseWith(codeBlock, '<pre class="language-yml">a: 1\n</pre>')).toEqual({ tokens: [{ text: 'a: 1' }], language: 'yaml' });
    expect(parseWith(codeBlock, '<pre><code class="language-cobol">X</code></pre>')).toEqual({ tokens: [{ text: 'X' }], language: 'plain' });
    expect(parseWith(codeBlock, '<pre>a<br>b</pre>')).toEqual({ tokens: [{ text: 'a\nb' }], language: 'plain' });
    expect(parseWith(codeBlock, '<p>a</p>')).toBeNull();
  });
});
