export { createBlockSyncQueue, type BlockSyncApi, type BlockSyncQueue, type SyncStatus, type BlockSyncError } from './blockSyncQueue';
export { withBlockSync, readBlock, replaceWithServerCopy, type BlockSyncHandlers } from './withBlockSync';
