export { canConvertBlock, convertBlock, withMarkdownShortcuts, type MarkdownShortcutOptions, type OrderedNumbering } from './withMarkdownShortcuts';
