export { withVoidBlocks } from './withVoidBlocks';
