export { createBlockSyncQueue, REFUSAL_NOTICE_MS, type BlockSyncApi, type BlockSyncQueue, type SyncStatus, type BlockSyncError } from './blockSyncQueue';
export { worstStatus } from './status';
export {
  withBlockSync,
  readBlock,
  replaceWithServerCopy,
  revertRefusedBlock,
  applyRemoteBlock,
  applyRemoteTitle,
  removeRemoteBlocks,
  type BlockSyncHandlers,
} from './withBlockSync';
