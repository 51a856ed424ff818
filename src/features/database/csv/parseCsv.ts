import Papa from 'papaparse';
import { unescapeFormula } from '../../../../schema/csvColumns';

/*
 * Reading a CSV file for import (docs/web-app.md, «CSV»): the bytes are decoded (UTF-8 with or
 * without a BOM, else Windows-1251 when UTF-8 gives many broken characters), the delimiter is
 * guessed among comma, semicolon and tab, and the text is parsed in slices with a pause between
 * them, so 50,000 rows never hold the tab up; whether the first row is a header is guessed.
 */

export type CsvEncoding = 'utf-8' | 'windows-1251';
export type CsvDelimiter = ',' | ';' | '\t';

export interface ParsedCsv {
  /** Column names: the first row's cells, or «Столбец N» made by the caller when `hasHeader` is false. */
  header: string[];
  /** The rows after the header (all rows when there is none), each as long as the widest row. */
  rows: string[][];
  hasHeader: boolean;
  delimiter: CsvDelimiter;
  encoding: CsvEncoding;
  /** Lines papaparse could not read cleanly (an unclosed quote…), by its error code: shown, never dropped silently. */
  problems: Array<{ row: number; code: string }>;
}

/** A slice of the text parsed between two pauses (characters). */
const SLICE = 256 * 1024;
const DELIMITERS: CsvDelimiter[] = [',', ';', '\t'];

/** How much of a file is looked at to choose its encoding. */
const SNIFF_BYTES = 256 * 1024;

/**
 * The text of the bytes: UTF-8 (a BOM is dropped) unless that gives broken characters (U+FFFD)
 * where Windows-1251 reads letters, as Excel's «CSV» of a Russian Windows writes.
 */
export function decodeCsvBytes(bytes: Uint8Array): { text: string; encoding: CsvEncoding } {
  const utf8 = new TextDecoder('utf-8');
  const sample = utf8.decode(bytes.subarray(0, SNIFF_BYTES));
  const broken = countOf(sample, '\uFFFD');
  if (broken > 0 && broken * 200 > sample.length) {
    const cp1251 = new TextDecoder('windows-1251');
    const other = cp1251.decode(bytes.subarray(0, SNIFF_BYTES));
    const letters = (other.match(/[А-Яа-яЁё]/g) ?? []).length;
    if (letters >= broken / 2) return { text: cp1251.decode(bytes), encoding: 'windows-1251' };
  }
  return { text: utf8.decode(bytes), encoding: 'utf-8' };
}

function countOf(text: string, char: string): number {
  let n = 0;
  for (let i = text.indexOf(char); i !== -1; i = text.indexOf(char, i + 1)) n += 1;
  return n;
}

/** The delimiter that splits the first lines into the same number of cells (Papa's guess, among the three). */
export function guessDelimiter(text: string): CsvDelimiter {
  const head = text.slice(0, 64 * 1024);
  const result = Papa.parse<string[]>(head, { delimitersToGuess: DELIMITERS, preview: 50, skipEmptyLines: true });
  const found = result.meta.delimiter as CsvDelimiter;
  return DELIMITERS.includes(found) ? found : ',';
}

const looksTyped = (cell: string) => {
  const t = cell.trim();
  return t !== '' && (/^[-+]?[\d\s\u00a0.,]+%?$/.test(t) || /^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}/.test(t));
};

/**
 * Whether the first row names the columns: its cells are filled and differ from one another,
 * and none of them is a number or a date in a column whose other cells are (a header «Сумма» over
 * numbers says yes; a first row «12» over numbers says no).
 */
export function detectHeader(rows: readonly string[][]): boolean {
  const first = rows[0];
  if (!first || rows.length < 2) return rows.length === 1;
  const cells = first.map((c) => c.trim());
  if (cells.some((c) => c === '')) return false;
  if (new Set(cells.map((c) => c.toLowerCase())).size !== cells.length) return false;
  const rest = rows.slice(1, 51);
  let typedBelow = false;
  for (let col = 0; col < cells.length; col += 1) {
    const below = rest.map((r) => r[col] ?? '').filter((c) => c.trim() !== '');
    if (below.length === 0 || !below.every(looksTyped)) continue;
    if (looksTyped(cells[col])) return false;
    typedBelow = true;
  }
  // All text: a first row whose cells appear again below is data, not names.
  if (!typedBelow) return !cells.some((c, col) => rest.some((r) => (r[col] ?? '').trim() === c));
  return true;
}

export interface ParseProgress {
  /** 0…1 of the text read. */
  done: number;
  rows: number;
}

/** Parses CSV text in slices, yielding to the browser between them; `signal` stops it. */
export function parseCsvText(
  text: string,
  options: { onProgress?(progress: ParseProgress): void; signal?: AbortSignal; delimiter?: CsvDelimiter } = {},
): Promise<Omit<ParsedCsv, 'encoding'>> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const delimiter = options.delimiter ?? guessDelimiter(body);
  const all: string[][] = [];
  const problems: ParsedCsv['problems'] = [];
  return new Promise((resolve, reject) => {
    const aborted = () => reject(options.signal?.reason ?? new DOMException('aborted', 'AbortError'));
    if (options.signal?.aborted) return aborted();
    Papa.parse<string[]>(body, {
      delimiter,
      skipEmptyLines: 'greedy',
      chunkSize: SLICE,
      chunk: (results: Papa.ParseResult<string[]>, parser: Papa.Parser) => {
        for (const error of results.errors) problems.push({ row: all.length + (error.row ?? 0) + 1, code: error.code });
        // Our CSV export put an apostrophe before what a spreadsheet would run (`'=1+2`): taken off again.
        for (const row of results.data) all.push(row.map(unescapeFormula));
        options.onProgress?.({ done: Math.min(1, results.meta.cursor / Math.max(1, body.length)), rows: all.length });
        parser.pause();
        setTimeout(() => {
          if (options.signal?.aborted) {
            parser.abort();
            aborted();
          } else parser.resume();
        }, 0);
      },
      complete: () => {
        if (options.signal?.aborted) return;
        const width = all.reduce((max, row) => Math.max(max, row.length), 0);
        const square = all.map((row) => (row.length === width ? row : [...row, ...Array<string>(width - row.length).fill('')]));
        const hasHeader = detectHeader(square);
        resolve({ header: hasHeader ? square[0].map((c) => c.trim()) : [], rows: hasHeader ? square.slice(1) : square, hasHeader, delimiter, problems });
      },
      error: (error: Error) => reject(error),
    });
  });
}

/** The bytes of a file (FileReader where Blob has no arrayBuffer(), as in older engines). */
function readBytes(file: Blob): Promise<Uint8Array> {
  if (typeof file.arrayBuffer === 'function') return file.arrayBuffer().then((buffer) => new Uint8Array(buffer));
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsArrayBuffer(file);
  });
}

/** A CSV file: decoded, its delimiter and header guessed, parsed in slices with progress. */
export async function parseCsv(file: Blob, onProgress?: (progress: ParseProgress) => void, signal?: AbortSignal): Promise<ParsedCsv> {
  const { text, encoding } = decodeCsvBytes(await readBytes(file));
  const parsed = await parseCsvText(text, { onProgress, signal });
  return { ...parsed, encoding };
}

/** The same rows with or without the first row as the header (the dialog's «Первая строка — заголовки»). */
export function withHeader<T extends Omit<ParsedCsv, 'encoding'>>(parsed: T, hasHeader: boolean): T {
  if (parsed.hasHeader === hasHeader) return parsed;
  if (hasHeader) return { ...parsed, hasHeader, header: (parsed.rows[0] ?? []).map((c) => c.trim()), rows: parsed.rows.slice(1) };
  return { ...parsed, hasHeader, header: [], rows: [parsed.header, ...parsed.rows] };
}
