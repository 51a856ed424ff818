export * from './blockActions';
export * from './withBlockActions';
