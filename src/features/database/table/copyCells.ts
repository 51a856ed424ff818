import type { DatabaseField, DateRange, RowValue } from '../../../../schema/blocks/database';
import { valueToText, type ValueNames } from '../../../../schema/database';
import { displayText } from '../fields/format';
import { toTsv } from './gridModel';
import { escapeHtml } from '../../../../schema/html';

/*
 * A copied range (docs/web-app.md «Table view», issue 34): `text/plain` is the cells as they show
 * them, in the way a spreadsheet in Russian reads them back — «1 234,5» (a no-break space between
 * thousands, a decimal comma; a plain «3.14» is read there as the 3rd of April), dates as
 * «01.12.2026» or «01.12.2026 14:30» — and `text/html` is the same table with each number's value
 * beside its text (`x:num`), which Excel takes as the number whatever its language. The grid's own
 * paste reads `text/plain` (parseNumber and parseDate take these forms back).
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** One date as «дд.мм.гггг», with « чч:мм» when it has a time: the browser's wall clock, as the grid shows it (the paste reads it back so: `localTime`). */
function dayText(value: string): string {
  const day = value.length === 10;
  const at = new Date(day ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(at.getTime())) return value;
  if (day) return `${pad(at.getUTCDate())}.${pad(at.getUTCMonth() + 1)}.${at.getUTCFullYear()}`;
  return `${pad(at.getDate())}.${pad(at.getMonth() + 1)}.${at.getFullYear()} ${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** A cell as copied into `text/plain`. */
export function copiedText(field: DatabaseField, value: RowValue | undefined, names: ValueNames = {}): string {
  if (value === undefined || value === null) return '';
  switch (field.type) {
    case 'number':
      // As the cell shows it; Intl writes a narrow no-break space between thousands in some engines: spreadsheets know the plain no-break one.
      return displayText(field, value).replace(/[\u202f\u2009]/g, '\u00a0');
    case 'date':
    case 'createdTime':
    case 'editedTime': {
      if (typeof value === 'string') return dayText(value);
      if (typeof value !== 'object' || Array.isArray(value)) return '';
      const range = value as DateRange;
      return range.end ? `${dayText(range.start)} → ${dayText(range.end)}` : dayText(range.start);
    }
    default:
      return valueToText(field, value, names);
  }
}

/** A range of cells (rows of [field, value]) as the clipboard's `text/plain` (TSV) and `text/html` (a table). */
export function copiedRange(rows: ReadonlyArray<ReadonlyArray<[DatabaseField, RowValue | undefined]>>, names: ValueNames = {}): { text: string; html: string } {
  const texts = rows.map((cells) => cells.map(([field, value]) => copiedText(field, value, names)));
  const body = rows
    .map(
      (cells, r) =>
        `<tr>${cells
          .map(([field, value], c) => {
            const number = field.type === 'number' && typeof value === 'number' ? ` x:num="${value}"` : '';
            return `<td${number}>${escapeHtml(texts[r][c]).replace(/\n/g, '<br>')}</td>`;
          })
          .join('')}</tr>`,
    )
    .join('');
  return { text: toTsv(texts), html: `<meta charset="utf-8"><table>${body}</table>` };
}
