export { withMarkdownShortcuts } from './withMarkdownShortcuts';
