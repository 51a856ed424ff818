export * from './withPageLinks';
