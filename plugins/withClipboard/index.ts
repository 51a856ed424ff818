export * from './withClipboard';
export { CLIPBOARD_MIME, type PastedContent } from './content';
export { asOneUndoStep, insertPastedContent } from './insertBlocks';
export { parseHtml } from './parseHtml';
export { parseMarkdown } from './parseMarkdown';
export { parseClipboardJson, type ClipboardJson } from './parseJson';
export { copyContent, blocksToHtml, blocksToText, type CopiedContent } from './serialize';
export { escapeMarkdown, tokensToMarkdown } from '../../schema/markdown/write';
export { bareLinkOf, linkBlockChoices, pastedLinkRange, turnPastedLink } from './pastedLink';
