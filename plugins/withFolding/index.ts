export * from './withFolding';
