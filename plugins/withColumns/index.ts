export { COLUMN, COLUMN_LIST, canDropBeside, dropBeside, enclosingList, parentIndex, withColumns } from './withColumns';
