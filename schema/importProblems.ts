/**
 * What an import could not bring over (docs/import-export.md «Importing»): each problem has a stable
 * code and its parameters — the app says it in Russian (`export.problems.<code>` in
 * src/locales/ru/common.json) — and an English message for the API's other readers.
 */

type Params = Record<string, string | number>;

const MESSAGES = {
  fileMissing: (p: Params) => `the file «${p.name}» is not in the zip`,
  pageTypeChanged: (p: Params) => `a ${p.type} page is imported as a plain page`,
  commentUnfit: () => 'a comment whose content does not fit is left out',
  commentsAdopted: (p: Params) => `${p.count} comments by other people are now the importer's, each starting with its author's name and date`,
  commentCut: (p: Params) => `a comment with its author's name and date before it is longer than ${p.max} characters: its end is cut`,
  databaseWithoutRows: () => 'a database without its rows (an export made before databases were exported) is left out',
  unknownBlock: (p: Params) => `a block of the unknown type «${p.type}» is left out`,
  blockFileMissing: () => 'a picture or file whose file is missing is left out',
  blockUnfit: (p: Params) => `a ${p.type} block whose data does not fit is left out`,
  valueUnfit: (p: Params) => `the value of «${p.field}» is left out: ${p.reason}`,
  peopleNotMembers: (p: Params) => `person fields named ${p.count} people who are not members of this workspace: left out`,
  markdownUnknown: (p: Params) => `a part of Markdown the import does not know («${p.kind}») is left out`,
  pictureMissing: (p: Params) => `a picture not in the import (${p.src}) is left out`,
  pictureInHtml: () => 'a picture held in the HTML itself (a data: address) is left out',
  picturesMisplaced: (p: Params) =>
    `${p.count === 1 ? 'a picture' : `${p.count} pictures`} inside a table cell or a quote (where a picture block cannot be) left out`,
  nothingReadable: () => 'nothing readable in the file: the page is left empty',
  notText: () => 'the file is not HTML text: the page is left empty',
  fileInTwoParts: (p: Params) => `«${p.name}» is in two parts of the export: the first is kept`,
  fileUnused: (p: Params) => `«${p.name}» is left out: no page shows it`,
  moreFilesUnused: (p: Params) => `${p.count} more files no page shows are left out`,
  csvLineBroken: (p: Params) => `line ${p.line} of «${p.file}» cannot be read cleanly (${p.reason}): check that row`,
  tooManyFields: (p: Params) => `a database has at most ${p.max} fields: the columns ${p.columns} are left out`,
  csvLineTooLong: (p: Params) => `line ${p.line} of «${p.file}» has more cells than the CSV has columns: those are left out`,
  relationTooLong: (p: Params) => `«${p.field}»: a relation keeps at most ${p.max} rows a cell`,
  relationElsewhere: (p: Params) =>
    `«${p.field}» links to pages of another database or outside it (relations across databases do not exist here): kept as their titles, in text`,
  cellTooManyOptions: (p: Params) => `«${p.field}» of «${p.row}» is left empty: «${p.text}» — a column has at most ${p.max} options`,
  cellTooLong: (p: Params) => `«${p.field}» of «${p.row}» is left empty: «${p.text}» — longer than ${p.max} characters`,
  cellUnreadable: (p: Params) =>
    `«${p.field}» of «${p.row}» is left empty: «${p.text}» — it is not read as ${p.kind === 'multiSelect' ? 'options' : `a ${p.kind}`}`,
  moreCellsUnfit: (p: Params) => `${p.count} more cells are left empty: they do not fit their columns`,
} satisfies Record<string, (params: Params) => string>;

export type ImportProblemCode = keyof typeof MESSAGES;
export const IMPORT_PROBLEM_CODES = Object.keys(MESSAGES) as ImportProblemCode[];

/** A problem of a file or page, before it is told whose page it is. */
export interface ImportNote {
  code: ImportProblemCode;
  params: Params;
  message: string;
}

/** A problem in an import's answer: the page it concerns ('' for the upload as a whole). */
export interface ImportProblem extends ImportNote {
  page: string;
}

export function importNote(code: ImportProblemCode, params: Params = {}): ImportNote {
  return { code, params, message: MESSAGES[code](params) };
}

export function importProblem(page: string, code: ImportProblemCode, params: Params = {}): ImportProblem {
  return { page, ...importNote(code, params) };
}
