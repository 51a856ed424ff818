export {
  canConvertBlock,
  convertBlock,
  convertToVariant,
  withMarkdownShortcuts,
  type MarkdownShortcutOptions,
  type OrderedNumbering,
} from './withMarkdownShortcuts';
