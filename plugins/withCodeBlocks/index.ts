export { withCodeBlocks, leaveCodeBlock, CODE_INDENT } from './withCodeBlocks';
