export * from './withStructure';
