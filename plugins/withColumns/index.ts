export { COLUMN, COLUMN_LIST, enclosingList, parentIndex, withColumns } from './withColumns';
