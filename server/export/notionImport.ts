import path from 'node:path';
import Papa from 'papaparse';
import { DATABASE_LIMITS, databaseFieldSchema, MAIN_FIELD_ID, type DatabaseField, type NumberFormat, type RowValue } from '../../schema/blocks/database';
import { newDatabaseData } from '../../schema/database';
import { convertRows, detectColumnType, fieldFor, unescapeFormula, type CellProblem, type ColumnTarget } from '../../schema/csvColumns';
import { isDateString } from '../../schema/blocks/database';
import { newId } from '../../schema/ids';
import { archiveBudget, foldersUp, ImportError, unzipWithin, type ArchiveBudget } from './archive';
import type { ImportDocument } from './readExport';
import {
  collectFiles,
  databaseViews,
  markdownToDocument,
  pageFiles,
  readMarkdownFile,
  titleOfName,
  withoutDatabaseViews,
  type MarkdownReading,
} from './markdownImport';
import { type ImportNote, type ImportProblem, importNote, importProblem } from '../../schema/importProblems';

/**
 * Notion's «Markdown & CSV» export (issue 18, docs/import-export.md «Notion») as our export's
 * document: the zip (and the zips inside it, `Export-…-Part-1.zip`), pages `Title <32 hex>.md`
 * with their subpages and files in the folder of the same name, databases `Name <32 hex>.csv`
 * (`_all.csv` preferred) with a row `.md` each in theirs. Each database becomes a Database page
 * under the page that holds or links it; its columns' types are guessed as the web app's CSV
 * import guesses them (schema/csvColumns.ts), Notion's own ways of writing dates, numbers and
 * relations read first. Links between the export's pages, rows and databases, and Notion's
 * addresses of them, follow the import. What cannot be imported is reported.
 */

type Problem = ImportProblem;
type DocumentPage = ImportDocument['pages'][number];
type DocumentRow = NonNullable<DocumentPage['databases']>[number]['rows'][number];

/** Notion's id at the end of a file's or folder's name: `Title <32 hex>` (a space or none before it), `_all` after a database's whole CSV. */
const ID_SUFFIX = /\s?([0-9a-f]{32})(?:_all)?(?:\.(?:md|csv))?$/;
/** A Notion id alone (not the end of a longer run of hex digits, as `%20` before it would make). */
const HEX = /(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])/g;
/** A zip at the top of the export: one of the parts Notion splits a big export into. */
const PART = /^[^/]+\.zip$/i;

const idOf = (name: string): string | null => ID_SUFFIX.exec(path.posix.basename(name))?.[1] ?? null;
const withoutDashes = (text: string) => text.replace(/\b([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\b/g, '$1$2$3$4$5');
/** The last Notion id a link names (a path names its folders' ids first). */
function lastId(link: string): string | null {
  let text = link;
  try {
    text = decodeURIComponent(link);
  } catch {
    // as it is written
  }
  return withoutDashes(text).match(HEX)?.pop() ?? null;
}

/** Whether a zip's files look like a Notion export: zips inside it, names ending in Notion's ids, or CSV files beside Markdown. */
export function isNotionExport(names: readonly string[]): boolean {
  return (
    names.some((name) => PART.test(name)) ||
    names.some((name) => name.split('/').some((part) => ID_SUFFIX.test(part))) ||
    (names.some((name) => /\.csv$/i.test(name)) && names.some((name) => /\.md$/i.test(name)))
  );
}

/** The zips at the top of the export unpacked in its place (and those inside them, a few levels down), all within the budget. */
function unpackParts(entries: Map<string, Uint8Array>, budget: ArchiveBudget, problems: Problem[]): void {
  for (let level = 1; ; level += 1) {
    const parts = [...entries.keys()].filter((name) => PART.test(name));
    if (parts.length === 0) return;
    if (level > budget.limits.depth) throw new ImportError(`the zip holds zips nested deeper than ${budget.limits.depth} levels`, true);
    for (const part of parts) {
      let inner: Record<string, Uint8Array>;
      try {
        inner = unzipWithin(entries.get(part)!, budget);
      } catch (error) {
        if (error instanceof ImportError && error.message === 'the zip cannot be read') throw new ImportError(`«${part}» inside the zip cannot be read`);
        throw error;
      }
      entries.delete(part);
      for (const [name, bytes] of Object.entries(inner)) {
        if (entries.has(name) && !name.endsWith('/')) problems.push(importProblem('', 'fileInTwoParts', { name }));
        else entries.set(name, bytes);
      }
    }
  }
}

// ————— Notion's ways of writing values —————

const EN_MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** A Russian month's number from its name (`ноября`, `Ноя`); «март» before «май»/«мая». */
const ruMonth = (name: string) =>
  name.startsWith('мар')
    ? 3
    : name.startsWith('ма')
      ? 5
      : ['янв', 'фев', '', 'апр', '', 'июн', 'июл', 'авг', 'сен', 'окт', 'ноя', 'дек'].findIndex((stem) => stem !== '' && name.startsWith(stem)) + 1;
const TIME = String.raw`(\d{1,2}):(\d{2})(?:\s?([AaPp])\.?[Mm]\.?)?`;
const ZONE = String.raw`(?:\s*\((?:GMT|UTC)(?:([+-]\d{1,2})(?::?(\d{2}))?)?\))?`;
/** `November 26, 2026` (`Nov 26, 2026 10:00 AM`, `… (GMT+3)`) */
const EN_DATE = new RegExp(String.raw`^([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})(?:,?\s+${TIME})?${ZONE}$`);
/** `26 ноября 2026 г.` (`… 10:00`) */
const RU_DATE = new RegExp(String.raw`^(\d{1,2})\s+([А-Яа-яЁё]+)\.?\s+(\d{4})(?:\s*г\.?)?(?:,?\s+${TIME})?${ZONE}$`);
/** `2026/11/26` */
const YMD_DATE = new RegExp(String.raw`^(\d{4})/(\d{1,2})/(\d{1,2})(?:\s+${TIME})?${ZONE}$`);
/** `11/26/2026` or `26/11/2026`: which one is the column's to say. */
const SLASH_DATE = new RegExp(String.raw`^(\d{1,2})/(\d{1,2})/(\d{4})(?:\s+${TIME})?${ZONE}$`);
/** The end of a range on the same day: `10:00 AM → 12:00 PM`. */
const TIME_ONLY = new RegExp(String.raw`^${TIME}${ZONE}$`);

/** A day (and a time, in the zone given or UTC) as our date values are written; null when it is no real day. */
function isoDate(year: string, month: number, day: string, time: Array<string | undefined>): string | null {
  const date = `${year}-${String(month).padStart(2, '0')}-${day.padStart(2, '0')}`;
  if (month < 1 || month > 12 || !isDateString(date)) return null;
  const [hh, mm, half, zoneHours, zoneMinutes] = time;
  if (hh === undefined) return date;
  let hours = Number(hh);
  if (half) hours = (hours % 12) + (half.toLowerCase() === 'p' ? 12 : 0);
  const zone =
    zoneHours === undefined ? 'Z' : `${zoneHours.startsWith('-') ? '-' : '+'}${zoneHours.replace(/^[+-]/, '').padStart(2, '0')}:${zoneMinutes ?? '00'}`;
  const moment = `${date}T${String(hours).padStart(2, '0')}:${mm}:00${zone}`;
  return isDateString(moment) ? moment : null;
}

/** One date as Notion writes it (English or Russian month names, year/month/day, month/day or day/month), as ours; null when it is none of those. */
function notionDate(text: string, order: 'dm' | 'md'): string | null {
  let m = EN_DATE.exec(text);
  if (m) {
    const month = EN_MONTHS.indexOf(m[1].slice(0, 3).toLowerCase()) + 1;
    return month > 0 ? isoDate(m[3], month, m[2], m.slice(4)) : null;
  }
  m = RU_DATE.exec(text);
  if (m) {
    const month = ruMonth(m[2].toLowerCase());
    return month > 0 ? isoDate(m[3], month, m[1], m.slice(4)) : null;
  }
  m = YMD_DATE.exec(text);
  if (m) return isoDate(m[1], Number(m[2]), m[3], m.slice(4));
  m = SLASH_DATE.exec(text);
  if (m) return order === 'md' ? isoDate(m[3], Number(m[1]), m[2], m.slice(4)) : isoDate(m[3], Number(m[2]), m[1], m.slice(4));
  return null;
}

/** A date or a range (`start → end`; an end of the same day may be a time alone) as ours, or null. */
export function notionDateText(text: string, order: 'dm' | 'md' = 'dm'): string | null {
  const [startText, endText, more] = text.trim().split(/\s+→\s+/);
  if (more !== undefined) return null;
  const start = notionDate(startText, order);
  if (start === null || endText === undefined) return start;
  const time = TIME_ONLY.exec(endText);
  const end = time ? isoDate(start.slice(0, 4), Number(start.slice(5, 7)), start.slice(8, 10), time.slice(1)) : notionDate(endText, order);
  return end === null ? null : `${start} → ${end}`;
}

/** A column is a select when it has at most this share of distinct names to cells (the web CSV import: a half): a small database's status column is one. */
const NOTION_OPTION_SHARE = 0.75;

const NOTION_NUMBER = /^([-+]?)([$€£¥₽]?)\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s?(%?)$/;
const SYMBOL_FORMATS: Record<string, NumberFormat> = { $: 'usd', '€': 'eur', '₽': 'rub', '%': 'percent' };

/** A number as Notion writes it (`1,200.50`, `$1,200`, `12%`) as plain digits, with the sign that formats it. */
export function notionNumber(text: string): { text: string; symbol: string } | null {
  const m = NOTION_NUMBER.exec(text.trim());
  return m ? { text: `${m[1]}${m[3].replace(/,/g, '')}${m[4] ?? ''}`, symbol: m[2] || m[5] } : null;
}

/** A relation's cell: `Title (link), …` — the link a row's `.md` or Notion's address of it — or bare `.md` paths; null when the cell is something else. */
export function relationItems(cell: string): Array<{ title: string; id: string; link: string }> | null {
  const id = String.raw`(?:[0-9a-f]{32}|[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12})`;
  const part = String.raw`(?:[^\s()]|\([^\s()]*\))`;
  const titled = new RegExp(String.raw`\s*(.*?)\s*\((${part}*?${id}${part}*)\)\s*(?:,|$)`, 'y');
  const bare = new RegExp(String.raw`\s*([^\s,]*${id}[^\s,]*\.md)\s*(?:,|$)`, 'y');
  const items: Array<{ title: string; id: string; link: string }> = [];
  for (let at = 0; at < cell.length;) {
    titled.lastIndex = at;
    const named = titled.exec(cell);
    const found = named ? lastId(named[2]) : null;
    if (named && found && (/\.md$/i.test(named[2].split(/[?#]/)[0]) || /^https?:\/\/(www\.)?notion\.(so|site)\//i.test(named[2]))) {
      items.push({ title: named[1], id: found, link: named[2] });
      at = titled.lastIndex;
      continue;
    }
    bare.lastIndex = at;
    const plain = bare.exec(cell);
    if (!plain) return cell.slice(at).trim() === '' && items.length > 0 ? items : null;
    let name = path.posix.basename(plain[1]);
    try {
      name = decodeURIComponent(name);
    } catch {
      // the name as it is written
    }
    items.push({ title: titleOfName(name), id: lastId(plain[1])!, link: plain[1] });
    at = bare.lastIndex;
  }
  return items.length > 0 ? items : null;
}

// ————— The export's files —————

interface NotionDatabase {
  key: string;
  /** The CSV's path without `.csv` (and `_all`): its rows' folder. */
  stem: string;
  /** The CSV read (`_all` when there is one), and every CSV of it (links may name either). */
  csv: string;
  csvs: string[];
  id: string | null;
  title: string;
  /** Its rows' `.md` files (in the folder of its name) and the keys they get. */
  rows: Map<string, string>;
  /** Our own export's database page: `X.md` (its title alone) beside `X.csv` is the database's page. */
  ownPage: string | null;
  /** The first page linking to its CSV. */
  linkedFrom: string | null;
  /** Its fields as our export wrote them beside its table (`databaseViews`), unchecked: `knownField` takes only those the app would. */
  fields: Record<string, unknown> | null;
}

/** A row's `.md`: its `# Title`, its fields (`Name: value` lines after the title, or our export's `- **Name**: value`) and the rest, its content. */
export function splitRow(text: string, columns: ReadonlySet<string>): { title: string | null; fields: Map<string, string>; body: string } {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let at = 0;
  while (at < lines.length && lines[at].trim() === '') at += 1;
  let title: string | null = null;
  if (/^# /.test(lines[at] ?? '')) {
    title = lines[at].slice(2).trim();
    at += 1;
  }
  while (at < lines.length && lines[at].trim() === '') at += 1;
  const fields = new Map<string, string>();
  let end = at;
  for (; end < lines.length && lines[end].trim() !== ''; end += 1) {
    const m = /^(?:- \*\*(.+?)\*\*|([^:]+?)):(?:\s(.*))?$/.exec(lines[end]);
    const name = m ? (m[1] ?? m[2]).trim() : '';
    if (!m || !columns.has(name)) break;
    fields.set(name, m[3] ?? '');
  }
  // The fields are the whole paragraph after the title, or there are none.
  const whole = fields.size > 0 && (end === lines.length || lines[end].trim() === '');
  return { title, fields: whole ? fields : new Map(), body: lines.slice(whole ? end : at).join('\n') };
}

/** Why a cell was not read, as a person reads it. */
function cellNote(problem: CellProblem, title: string): ImportNote {
  const text = problem.text.length > 40 ? `${problem.text.slice(0, 40)}…` : problem.text;
  const where = { field: problem.column, row: title || 'Без названия', text };
  if (problem.kind === 'tooManyOptions') return importNote('cellTooManyOptions', { ...where, max: DATABASE_LIMITS.selectOptions });
  if (['text', 'url', 'email', 'phone'].includes(problem.kind)) return importNote('cellTooLong', { ...where, max: DATABASE_LIMITS.textValueLength });
  return importNote('cellUnreadable', { ...where, kind: problem.kind });
}

/**
 * A Notion export's files (a zip's entries, the zips inside them still packed) as our export's
 * document, the files its blocks point into, and what could not be imported.
 */
export function notionToDocument(
  input: ReadonlyMap<string, Uint8Array>,
  budget: ArchiveBudget = archiveBudget(),
): { document: ImportDocument; files: Map<string, Uint8Array>; problems: Problem[] } {
  const problems: Problem[] = [];
  const entries = new Map(input);
  unpackParts(entries, budget, problems);
  const names = [...entries.keys()].filter((name) => !name.endsWith('/') && !name.startsWith('__MACOSX/') && !/(^|\/)\.DS_Store$/.test(name));
  if (!names.some((name) => /\.(md|csv)$/i.test(name))) throw new ImportError('the zip holds neither Markdown nor CSV files');

  // Databases: a CSV each (its `_all` twin preferred), their rows the `.md` files in the folder of its name.
  const csvsOf = new Map<string, string[]>();
  for (const name of names.filter((n) => /\.csv$/i.test(n))) {
    const stem = name.replace(/\.csv$/i, '').replace(/_all$/, '');
    csvsOf.set(stem, [...(csvsOf.get(stem) ?? []), name]);
  }
  const databases: NotionDatabase[] = [...csvsOf.entries()].map(([stem, csvs], i) => ({
    key: `notion-db-${i}`,
    stem,
    csvs,
    csv: csvs.find((name) => /_all\.csv$/i.test(name)) ?? csvs[0],
    id: idOf(stem),
    title: titleOfName(stem),
    rows: new Map(),
    ownPage: null,
    linkedFrom: null,
    fields: null,
  }));
  let rowCount = 0;
  for (const database of databases) {
    for (const name of names) if (/\.md$/i.test(name) && path.posix.dirname(name) === database.stem) database.rows.set(name, `notion-row-${rowCount++}`);
    const own = entries.get(`${database.stem}.md`);
    // Its title alone, or with the database's table and the link to its CSV (our export's).
    const body = own ? splitRow(withoutDatabaseViews(new TextDecoder().decode(own)), new Set()).body.trim() : null;
    const ownLink = body?.match(/^\[[^\]\n]*\]\(([^)\s]+\.csv)\)$/);
    if (body === '' || (ownLink && decodedHref(ownLink[1]) === `${path.posix.basename(database.stem)}.csv`)) database.ownPage = `${database.stem}.md`;
  }
  const rowFiles = new Set(databases.flatMap((d) => [...d.rows.keys()]));
  const pages = pageFiles(entries, rowFiles);
  const byStem = new Map(databases.map((d) => [d.stem, d]));
  const byCsv = new Map(databases.flatMap((d) => d.csvs.map((csv) => [csv, d] as const)));
  const rowKeys = new Map(databases.flatMap((d) => [...d.rows.entries()]));
  const databaseKey = (database: NotionDatabase) => (database.ownPage ? pages.get(database.ownPage)! : database.key);
  // The first page linking to each CSV (the page of a database its folder does not say), and the
  // fields our export wrote beside a database's table.
  const csvOf = (page: string, href: string) => {
    const decoded = decodedHref(href);
    return decoded === null ? null : path.posix.normalize(path.posix.join(path.posix.dirname(page), decoded));
  };
  for (const name of [...pages.keys(), ...databases.flatMap((d) => (d.ownPage ? [d.ownPage] : []))]) {
    for (const [href, fields] of databaseViews(new TextDecoder().decode(entries.get(name)!))) {
      const database = byCsv.get(csvOf(name, href) ?? '');
      if (database && !database.fields) database.fields = fields;
    }
  }
  for (const name of pages.keys()) {
    for (const [, href] of new TextDecoder().decode(entries.get(name)!).matchAll(/\]\(([^)\s]+\.csv)\)/gi)) {
      let target: string;
      try {
        target = path.posix.normalize(path.posix.join(path.posix.dirname(name), decodeURIComponent(href)));
      } catch {
        continue;
      }
      const database = byCsv.get(target);
      if (database && !database.linkedFrom) database.linkedFrom = name;
    }
  }
  // Where a folder's files go: under the page of its name; a database's folder (its rows' subpages) beside the database.
  const folderPage = (dir: string): string | null => {
    for (const at of foldersUp(dir)) {
      const database = byStem.get(at);
      if (database) return holderOf(database);
      if (pages.has(`${at}.md`)) return pages.get(`${at}.md`)!;
    }
    return null;
  };
  const holderOf = (database: NotionDatabase): string | null => {
    const dir = path.posix.dirname(database.stem);
    if (database.ownPage) return dir === '.' ? null : folderPage(dir);
    return (dir === '.' ? null : folderPage(dir)) ?? (database.linkedFrom ? pages.get(database.linkedFrom)! : null);
  };
  // Notion's ids of pages, rows and databases → their keys (links to Notion's addresses of them).
  const byId = new Map<string, string>();
  for (const [name, key] of [...pages.entries(), ...rowKeys.entries()]) if (idOf(name)) byId.set(idOf(name)!, key);
  for (const database of databases) if (database.id) byId.set(database.id, databaseKey(database));
  const target = (resolved: string | null, href: string): string | null => {
    if (resolved !== null) {
      const database = byCsv.get(resolved);
      if (database) return databaseKey(database);
      if (rowKeys.has(resolved)) return rowKeys.get(resolved)!;
      return /\.(md|csv)$/i.test(resolved) ? (byId.get(lastId(resolved) ?? '') ?? null) : null;
    }
    if (!/^https?:\/\/(www\.)?notion\.(so|site)\//i.test(href)) return null;
    return byId.get(lastId(href.split(/[?#]/)[0]) ?? '') ?? null;
  };
  const parentOf = (key: string) => {
    const database = databases.find((d) => d.key === key);
    return database ? holderOf(database) : null;
  };

  const { document, problems: pageProblems, reading } = markdownToDocument(entries, { rows: rowFiles, pages, target, folderPage, parentOf });
  problems.push(...pageProblems);
  const byKey = new Map(document.pages.map((page) => [page.id, page]));
  for (const database of databases) {
    const made = readDatabase(database, entries, reading, rowKeys, problems);
    const block = { id: 'database', type: 'database', data: made.data as unknown as Record<string, unknown>, parentId: null };
    const own = database.ownPage ? byKey.get(pages.get(database.ownPage)!) : undefined;
    if (own) Object.assign(own, { type: 'Database', blocks: [block], databases: [{ blockId: block.id, rows: made.rows }] });
    else
      document.pages.push({
        id: database.key,
        parentId: holderOf(database),
        type: 'Database',
        title: database.title,
        blocks: [block],
        databases: [{ blockId: block.id, rows: made.rows }],
      });
  }
  collectFiles(document, reading);

  // What no page, row or database took.
  const shown = new Set(document.files.map((file) => file.path));
  const unknown = names.filter((name) => !pages.has(name) && !rowFiles.has(name) && !byCsv.has(name) && !shown.has(name));
  for (const name of unknown.slice(0, 20)) problems.push(importProblem('', 'fileUnused', { name }));
  if (unknown.length > 20) problems.push(importProblem('', 'moreFilesUnused', { count: unknown.length - 20 }));
  return { document, files: entries, problems };
}

/** A link's path decoded, or null when it is not a well-formed escape (`%` alone). */
function decodedHref(href: string): string | null {
  try {
    return decodeURIComponent(href);
  } catch {
    return null;
  }
}

/** Types whose cells are text as the CSV writes them: a column guessed as text may be one. */
const TEXT_LIKE: ReadonlySet<string> = new Set(['url', 'email', 'phone', 'select', 'multiSelect']);

/** Types whose cells an import reads (the others are computed: their cells are left out). */
const READ_TYPES: ReadonlySet<string> = new Set(['text', 'number', 'checkbox', 'date', 'url', 'email', 'phone', 'select', 'multiSelect']);

/**
 * The field our export wrote for a column (by its name) instead of the one guessed — its options
 * and colours, its number format, a choice column whose names each came once: kept when its type
 * is one whose cells are read back as written and the guess read them as that type (or as text for
 * an address or choices); else the guess (a person or a relation by name is text here, as a
 * Notion export's).
 */
function knownField(fields: Record<string, unknown> | null, name: string, guessed: DatabaseField, cells: readonly string[]): DatabaseField | null {
  if (!fields) return null;
  // Only a field that is one as the app defines it (what a file says is not trusted), named so.
  const known = Object.values(fields)
    .map((value) => databaseFieldSchema.safeParse(value))
    .find((parsed) => parsed.success && parsed.data.name === name)?.data;
  if (!known || !READ_TYPES.has(known.type)) return null;
  // Numbers, dates and checkboxes only as guessed (their cells were read so); a column of names
  // guessed as text (each once) or as one choice may be choices, an address text.
  const widens = (guessed.type === 'text' && TEXT_LIKE.has(known.type)) || (guessed.type === 'select' && known.type === 'multiSelect');
  if (guessed.type !== known.type && !widens) return null;
  // Choices: every name in the cells one of its options.
  if (known.type === 'select' || known.type === 'multiSelect') {
    const options = new Set(known.options.map((o) => o.name));
    const names = cells.flatMap((cell) => (known.type === 'select' ? [cell.trim()] : cell.split(',').map((n) => n.trim()))).filter(Boolean);
    if (!names.every((n) => options.has(n))) return null;
  }
  return { ...known, name: name.slice(0, DATABASE_LIMITS.nameLength) };
}

/**
 * A database from its CSV and its rows' `.md` files: a field per column (the first is the title),
 * typed as the web CSV import types them once Notion's dates and numbers are read; a column of
 * links to this database's rows is a relation, to anything else text; the rows in the CSV's
 * order, each with the content of its `.md` (rows only in `.md` files come after).
 */
function readDatabase(
  database: NotionDatabase,
  entries: ReadonlyMap<string, Uint8Array>,
  reading: MarkdownReading,
  rowKeys: ReadonlyMap<string, string>,
  problems: Problem[],
): { data: ReturnType<typeof newDatabaseData>; rows: DocumentRow[] } {
  const parsed = Papa.parse<string[]>(new TextDecoder().decode(entries.get(database.csv)!), { delimiter: ',', skipEmptyLines: 'greedy' });
  for (const error of parsed.errors.slice(0, 20))
    problems.push(importProblem(database.title, 'csvLineBroken', { line: (error.row ?? 0) + 1, file: database.csv, reason: error.code }));
  // Our export's CSV put an apostrophe before what a spreadsheet would run (`'=1+2`): taken off again.
  const table = parsed.data.map((cells) => cells.map(unescapeFormula));
  const header = (table[0] ?? []).map((name) => name.trim());
  if (header.length === 0) header.push('Название');
  if (header.length > DATABASE_LIMITS.fields) {
    problems.push(
      importProblem(database.title, 'tooManyFields', {
        max: DATABASE_LIMITS.fields,
        columns: header
          .slice(DATABASE_LIMITS.fields)
          .map((n) => `«${n}»`)
          .join(', '),
      }),
    );
    header.length = DATABASE_LIMITS.fields;
  }
  const lines = table.slice(1);
  for (const [at, cells] of lines.entries()) {
    if (cells.slice(header.length).some((cell) => cell.trim() !== ''))
      problems.push(importProblem(database.title, 'csvLineTooLong', { line: at + 2, file: database.csv }));
  }

  // Each CSV row with its `.md` (found by its title; the first one not taken yet when titles repeat).
  const columns = new Set(header.slice(1));
  const files = [...database.rows.keys()].map((name) => ({
    name,
    nameTitle: titleOfName(name),
    ...splitRow(new TextDecoder().decode(entries.get(name)!), columns),
    taken: false,
  }));
  const fileFor = (title: string) => {
    const found =
      files.find((f) => !f.taken && f.title === title) ??
      files.find((f) => !f.taken && f.nameTitle === title) ??
      files.find((f) => !f.taken && f.nameTitle !== '' && title.startsWith(f.nameTitle));
    if (found) found.taken = true;
    return found ?? null;
  };
  const matrix = lines.map((cells) => header.map((_, i) => cells[i] ?? ''));
  const rowFiles = matrix.map((cells) => fileFor(cells[0].trim()));
  // Rows with a `.md` and no CSV line (a CSV of a filtered view): their fields from the `.md`.
  for (const file of files.filter((f) => !f.taken)) {
    matrix.push([file.title ?? file.nameTitle, ...header.slice(1).map((name) => file.fields.get(name) ?? '')]);
    rowFiles.push(file);
  }
  const keys = rowFiles.map((file) => (file ? rowKeys.get(file.name)! : `notion-row-${newId()}`));
  // This database's rows by Notion's id (their `.md` names) and by title.
  const rowById = new Map(rowFiles.flatMap((file, i) => (file && idOf(file.name) ? [[idOf(file.name)!, keys[i]] as const] : [])));
  const rowsByTitle = new Map<string, string>();
  matrix.forEach((cells, i) => rowsByTitle.set(cells[0].trim(), rowsByTitle.get(cells[0].trim()) ?? keys[i]));

  const data = newDatabaseData(newId());
  data.config.fields[MAIN_FIELD_ID] = { name: header[0].slice(0, DATABASE_LIMITS.nameLength) || 'Название', type: 'text' };
  const targets: ColumnTarget[] = [{ index: 0, fieldId: MAIN_FIELD_ID, field: data.config.fields[MAIN_FIELD_ID] }];
  const relations = new Map<string, string[][]>();
  for (let index = 1; index < header.length; index += 1) {
    const name = header[index] || `Столбец ${index + 1}`;
    const fieldId = `f${index}`;
    const cells = matrix.map((row) => row[index]);
    const filled = cells.filter((cell) => cell.trim() !== '');
    const items = filled.length > 0 ? cells.map((cell) => (cell.trim() === '' ? [] : relationItems(cell))) : [];
    let field: DatabaseField;
    if (items.length > 0 && items.every((list) => list !== null)) {
      // A relation: to this database's own rows it stays one; to other pages or databases it is their titles.
      const found = items.map((list) =>
        list!.map((item) => rowById.get(item.id) ?? (database.id && item.link.includes(database.id) ? rowsByTitle.get(item.title) : undefined)),
      );
      if (found.every((list) => list.every((key) => key !== undefined))) {
        field = { name: name.slice(0, DATABASE_LIMITS.nameLength), type: 'relation' };
        relations.set(
          fieldId,
          found.map((list) => [...new Set(list as string[])]),
        );
        if (found.some((list) => new Set(list).size > DATABASE_LIMITS.listValueLength))
          problems.push(importProblem(database.title, 'relationTooLong', { field: name, max: DATABASE_LIMITS.listValueLength }));
      } else {
        field = { name: name.slice(0, DATABASE_LIMITS.nameLength), type: 'text' };
        items.forEach((list, row) => (matrix[row][index] = list!.map((item) => item.title).join(', ')));
        problems.push(importProblem(database.title, 'relationElsewhere', { field: name }));
      }
    } else {
      // Notion's dates and numbers read first; a column that is neither keeps its text.
      const slashes = filled.map((cell) => /^(\d{1,2})\/(\d{1,2})\//.exec(cell.trim())).filter((m) => m !== null);
      const order = slashes.some((m) => Number(m[2]) > 12) && !slashes.some((m) => Number(m[1]) > 12) ? 'md' : 'dm';
      const read = cells.map((cell) => notionDateText(cell, order) ?? notionNumber(cell)?.text ?? cell);
      const type = detectColumnType(read, { optionShare: NOTION_OPTION_SHARE });
      if (type === 'date' || type === 'number') cells.forEach((_, row) => (matrix[row][index] = read[row]));
      field = fieldFor(
        name,
        type,
        matrix.map((row) => row[index]),
      );
      if (field.type === 'number') {
        const symbols = filled.map((cell) => notionNumber(cell)?.symbol ?? '');
        const symbol = symbols[0];
        if (symbol && SYMBOL_FORMATS[symbol] && symbols.every((s) => s === symbol)) field = { ...field, format: SYMBOL_FORMATS[symbol] };
      }
      if (field.type === 'date' && read.some((cell) => cell.includes('T'))) field = { ...field, withTime: true };
      // Our export named the field's type beside the table: that one, when its cells read so.
      const known = knownField(database.fields, name, field, cells);
      if (known) field = known;
    }
    data.config.fields[fieldId] = field;
    data.view.layouts[0].orderedFields.push({ fieldId, isWrap: false });
    if (field.type !== 'relation') targets.push({ index, fieldId, field });
  }

  const converted = convertRows(matrix, targets, { firstLine: 2, columnName: (index) => header[index] });
  for (const problem of converted.problems.slice(0, 50)) problems.push({ page: database.title, ...cellNote(problem, matrix[problem.line - 2]?.[0] ?? '') });
  if (converted.problems.length > 50) problems.push(importProblem(database.title, 'moreCellsUnfit', { count: converted.problems.length - 50 }));
  const rows = converted.rows.map((row, i): DocumentRow => {
    const values: Record<string, RowValue> = { ...row.values };
    for (const [fieldId, lists] of relations) if (lists[i].length > 0) values[fieldId] = lists[i].slice(0, DATABASE_LIMITS.listValueLength);
    const file = rowFiles[i];
    const content = file ? readMarkdownFile(reading, file.name, file.body, keys[i]) : { blocks: [], problems: [] };
    problems.push(...content.problems.map((note) => ({ page: row.title, ...note })));
    return { id: keys[i], title: row.title, icon: null, values, blocks: content.blocks };
  });
  return { data, rows };
}
