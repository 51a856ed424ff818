export { convertBlock, withMarkdownShortcuts, type MarkdownShortcutOptions, type OrderedNumbering } from './withMarkdownShortcuts';
