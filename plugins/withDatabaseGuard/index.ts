export * from './withDatabaseGuard';
