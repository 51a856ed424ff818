export * from './withUndoWindow';
