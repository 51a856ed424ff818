export * from './withMarks';
