export {
  cellAt,
  deleteColumn,
  deleteRow,
  findTable,
  insertColumn,
  insertRow,
  isTableElement,
  setColumnSize,
  toggleHeaderColumn,
  toggleHeaderRow,
  withTables,
} from './withTables';
