import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { DATABASE_LIMITS, MAIN_FIELD_ID } from '../../../../schema/blocks/database';
import { newId } from '../../../../schema/ids';
import { useAppDispatch } from '../../../app/store';
import { Button } from '../../../ui/Button';
import { Dialog } from '../../../ui/Dialog';
import { ProgressBar } from '../../../ui/ProgressBar';
import { pageActionError } from '../../pages/pageErrors';
import { createChildPage, createNote } from '../../pages/pagesSlice';
import { UploadIcon } from '../../../ui/pageTypeIcons';
import { detectColumnType, IMPORT_TYPES, type CellProblem, type ImportType } from '../../../../schema/csvColumns';
import { findDatabaseOfPage, readDatabase, type DatabaseRef } from './databaseCalls';
import { createFields, existingTargets, importableField, matchColumns, sendRows, type ImportProgress, type ImportResult } from './importCsv';
import type { CsvImportTarget } from './openCsvImport';
import { parseCsv, withHeader, type ParsedCsv } from './parseCsv';
import './csvImport.css';
import { FilePicker } from '../../../ui/FilePicker';

/** Rows shown in the preview. */
const PREVIEW_ROWS = 8;
/** Problems listed one by one after an import (the rest are counted). */
const LISTED_PROBLEMS = 100;

type Stage =
  | { name: 'pick'; error?: string }
  | { name: 'reading'; done: number }
  | { name: 'preview'; error?: string }
  | { name: 'importing'; progress: ImportProgress | null }
  | { name: 'done'; result: ImportResult };

/** A count for a plural form, and the same count as Russians write it (50 000). */
const counted = (count: number) => ({ count, n: count.toLocaleString('ru') });

const fileTitle = (name: string) => name.replace(/\.(csv|tsv|txt)$/i, '').slice(0, 200);

/**
 * Import of a CSV file into a new database page or an existing database (docs/web-app.md,
 * «CSV»): pick a file, look at its first rows with each column's type (or field) and change them,
 * import with progress and a way to stop, and see every cell that could not be read.
 */
export default function CsvImportDialog({ target, onClose }: { target: CsvImportTarget; onClose(): void }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [stage, setStage] = useState<Stage>({ name: 'pick' });
  const [fileName, setFileName] = useState('');
  const [parsed, setParsed] = useState<ParsedCsv | null>(null);
  const [types, setTypes] = useState<Array<ImportType | null>>([]);
  const [mapping, setMapping] = useState<Array<string | null>>([]);
  const [database, setDatabase] = useState<DatabaseRef | null>(null);
  const [databaseError, setDatabaseError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const existing = target.kind === 'existing' ? target : null;

  // An existing database: its fields, to map the columns to.
  useEffect(() => {
    if (!existing) return;
    let live = true;
    (existing.databaseId ? readDatabase(existing.databaseId) : findDatabaseOfPage(existing.page.id)).then(
      (found) => {
        if (!live) return;
        if (found) setDatabase(found);
        else setDatabaseError(t('csvImport.errors.noDatabase'));
      },
      (error: unknown) => live && setDatabaseError(pageActionError(t, error)),
    );
    return () => {
      live = false;
    };
  }, [existing, t]);
  useEffect(() => () => abort.current?.abort(), []);

  const names = useMemo(() => {
    if (!parsed) return [];
    const width = Math.max(parsed.header.length, parsed.rows[0]?.length ?? 0);
    return Array.from({ length: width }, (_, i) => parsed.header[i]?.trim() || t('csvImport.column', { n: i + 1 }));
  }, [parsed, t]);

  const shape = (next: ParsedCsv) => {
    setParsed(next);
    const width = Math.max(next.header.length, next.rows[0]?.length ?? 0);
    setTypes(Array.from({ length: width }, (_, i) => (i === 0 ? 'text' : detectColumnType(next.rows.map((r) => r[i] ?? '')))));
  };
  useEffect(() => {
    if (parsed && database) setMapping(matchColumns(names, database.data));
  }, [parsed, database, names]);

  const read = async (file: File) => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setFileName(file.name);
    setStage({ name: 'reading', done: 0 });
    try {
      const result = await parseCsv(file, (p) => setStage({ name: 'reading', done: p.done }), controller.signal);
      if (result.rows.length === 0 && result.header.length === 0) return setStage({ name: 'pick', error: t('csvImport.errors.empty') });
      shape(result);
      setStage({ name: 'preview' });
    } catch {
      if (!controller.signal.aborted) setStage({ name: 'pick', error: t('csvImport.errors.unreadable') });
    }
  };

  const columnName = (index: number) => names[index] ?? '';
  const rowsToImport = parsed?.rows ?? [];
  const chosenColumns = existing ? mapping.filter(Boolean).length : types.filter(Boolean).length;
  const tooManyColumns = !existing && chosenColumns > DATABASE_LIMITS.fields;

  const run = async () => {
    if (!parsed) return;
    const controller = new AbortController();
    abort.current = controller;
    setStage({ name: 'importing', progress: null });
    const plan = { rows: parsed.rows, names, firstLine: parsed.hasHeader ? 2 : 1 };
    const onProgress = (progress: ImportProgress) => setStage({ name: 'importing', progress });
    try {
      let pageId: string;
      let db: DatabaseRef;
      let targets;
      if (existing) {
        if (!database) return;
        pageId = existing.page.id;
        db = database;
        targets = existingTargets(database, mapping);
      } else {
        pageId = newId();
        const title = fileTitle(fileName);
        const place = target.kind === 'new' ? target.place : { section: 'private' as const };
        if ('section' in place) await dispatch(createNote({ section: place.section, id: pageId, type: 'Database', title })).unwrap();
        else await dispatch(createChildPage({ parentId: place.parentId, id: pageId, type: 'Database', title })).unwrap();
        const found = await findDatabaseOfPage(pageId);
        if (!found) throw new Error('no database block');
        db = found;
        targets = await createFields(db, plan, types, 0, onProgress);
      }
      const result = await sendRows(db, plan, targets, { pageId, signal: controller.signal, onProgress, columnName });
      setStage({ name: 'done', result });
    } catch (error) {
      setStage({
        name: 'preview',
        error: error instanceof Error && error.message === 'no database block' ? t('csvImport.errors.noDatabase') : pageActionError(t, error),
      });
    }
  };

  const close = () => {
    abort.current?.abort();
    onClose();
  };
  const title = existing ? t('csvImport.titleExisting', { title: existing.page.title || t('untitled') }) : t('csvImport.title');

  let body: ReactNode;
  let footer: ReactNode;
  switch (stage.name) {
    case 'pick':
      body = (
        <div
          className="csv-drop"
          onDragOver={(event) => event.preventDefault()}
          onDrop={(event) => {
            event.preventDefault();
            const file = event.dataTransfer.files[0];
            if (file) void read(file);
          }}
        >
          <UploadIcon size={28} />
          <p className="csv-drop-text">{t('csvImport.dropHint')}</p>
          <FilePicker
            accept=".csv,.tsv,.txt,text/csv,text/tab-separated-values,text/plain"
            label={t('csvImport.chooseFile')}
            onFiles={([file]) => void read(file)}
          >
            {(open) => (
              <Button kind="outline" size="s" onClick={open}>
                {t('csvImport.chooseFile')}
              </Button>
            )}
          </FilePicker>
          <p className="csv-note">{t('csvImport.formats')}</p>
          {stage.error && (
            <p className="csv-error" role="alert">
              {stage.error}
            </p>
          )}
          {databaseError && (
            <p className="csv-error" role="alert">
              {databaseError}
            </p>
          )}
        </div>
      );
      break;
    case 'reading':
      body = <ProgressBar value={stage.done} label={t('csvImport.reading', { name: fileName, percent: Math.round(stage.done * 100) })} />;
      footer = (
        <Button
          kind="flat"
          size="s"
          onClick={() => {
            abort.current?.abort();
            setStage({ name: 'pick' });
          }}
        >
          {t('csvImport.cancel')}
        </Button>
      );
      break;
    case 'preview':
      body = parsed && (
        <Preview
          parsed={parsed}
          names={names}
          fileName={fileName}
          types={types}
          onType={(index, type) => setTypes((all) => all.map((v, i) => (i === index ? type : v)))}
          database={existing ? database : null}
          mapping={mapping}
          onMap={(index, fieldId) => setMapping((all) => all.map((v, i) => (i === index ? fieldId : fieldId !== null && v === fieldId ? null : v)))}
          onHeader={(hasHeader) => shape(withHeader(parsed, hasHeader))}
          error={stage.error ?? databaseError ?? (tooManyColumns ? t('csvImport.errors.tooManyColumns', { max: DATABASE_LIMITS.fields }) : undefined)}
        />
      );
      footer = (
        <>
          <Button kind="flat" size="s" onClick={() => setStage({ name: 'pick' })}>
            {t('csvImport.otherFile')}
          </Button>
          <Button
            size="s"
            disabled={rowsToImport.length === 0 || tooManyColumns || (existing !== null && (!database || chosenColumns === 0))}
            onClick={() => void run()}
          >
            {t('csvImport.import', counted(rowsToImport.length))}
          </Button>
        </>
      );
      break;
    case 'importing': {
      const p = stage.progress;
      const label = !p
        ? t('csvImport.preparing')
        : p.stage === 'fields'
          ? t('csvImport.addingFields', { done: p.done, total: p.total })
          : p.waitSeconds !== undefined
            ? t('csvImport.waiting', { done: p.done.toLocaleString('ru'), total: p.total.toLocaleString('ru'), seconds: p.waitSeconds })
            : t('csvImport.importing', { done: p.done.toLocaleString('ru'), total: p.total.toLocaleString('ru') });
      body = <ProgressBar value={p && p.stage === 'rows' ? p.done / Math.max(1, p.total) : 0} label={label} />;
      footer = (
        <Button kind="outline" size="s" onClick={() => abort.current?.abort()}>
          {t('csvImport.stop')}
        </Button>
      );
      break;
    }
    case 'done': {
      const { result } = stage;
      body = <Summary result={result} />;
      footer = (
        <>
          <Button kind="flat" size="s" onClick={close}>
            {t('csvImport.close')}
          </Button>
          {!existing && result.imported > 0 && (
            <Button
              size="s"
              onClick={() => {
                close();
                navigate(`/${result.pageId}`);
              }}
            >
              {t('csvImport.open')}
            </Button>
          )}
        </>
      );
      break;
    }
  }

  return (
    <Dialog title={title} onClose={close} className="csv-dialog" footer={footer}>
      {body}
    </Dialog>
  );
}

function Preview({
  parsed,
  names,
  fileName,
  types,
  onType,
  database,
  mapping,
  onMap,
  onHeader,
  error,
}: {
  parsed: ParsedCsv;
  names: string[];
  fileName: string;
  types: Array<ImportType | null>;
  onType(index: number, type: ImportType | null): void;
  database: DatabaseRef | null;
  mapping: Array<string | null>;
  onMap(index: number, fieldId: string | null): void;
  onHeader(hasHeader: boolean): void;
  error?: string;
}) {
  const { t } = useTranslation();
  const fields = database ? Object.entries(database.data.config.fields).filter(([, field]) => importableField(field)) : [];
  return (
    <div className="csv-preview">
      <p className="csv-note">
        {t('csvImport.fileInfo', {
          name: fileName,
          rows: t('csvImport.rows', counted(parsed.rows.length)),
          delimiter: t(`csvImport.delimiters.${parsed.delimiter === '\t' ? 'tab' : parsed.delimiter === ';' ? 'semicolon' : 'comma'}`),
          encoding: parsed.encoding === 'utf-8' ? 'UTF-8' : 'Windows-1251',
        })}
      </p>
      <label className="csv-check">
        <input type="checkbox" checked={parsed.hasHeader} onChange={(event) => onHeader(event.target.checked)} />
        {t('csvImport.hasHeader')}
      </label>
      {database === null && <p className="csv-note">{t('csvImport.titleColumnHint')}</p>}
      <div className="csv-table-wrap">
        <table className="csv-table">
          <thead>
            <tr>
              {names.map((name, i) => (
                <th key={i} scope="col">
                  <span className="csv-col-name">{name}</span>
                  {database ? (
                    <select
                      className="csv-col-type input-compact"
                      aria-label={t('csvImport.fieldFor', { name })}
                      value={mapping[i] ?? ''}
                      onChange={(event) => onMap(i, event.target.value || null)}
                    >
                      <option value="">{t('csvImport.skip')}</option>
                      {fields.map(([id, field]) => (
                        <option key={id} value={id}>
                          {id === MAIN_FIELD_ID ? t('csvImport.titleField', { name: field.name || t('untitled') }) : field.name || id}
                        </option>
                      ))}
                    </select>
                  ) : i === 0 ? (
                    <span className="csv-col-title">{t('csvImport.titleType')}</span>
                  ) : (
                    <select
                      className="csv-col-type input-compact"
                      aria-label={t('csvImport.typeFor', { name })}
                      value={types[i] ?? ''}
                      onChange={(event) => onType(i, (event.target.value || null) as ImportType | null)}
                    >
                      {IMPORT_TYPES.map((type) => (
                        <option key={type} value={type}>
                          {t(`csvImport.types.${type}`)}
                        </option>
                      ))}
                      <option value="">{t('csvImport.skip')}</option>
                    </select>
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {parsed.rows.slice(0, PREVIEW_ROWS).map((row, r) => (
              <tr key={r}>
                {names.map((_, i) => (
                  <td key={i}>{row[i] ?? ''}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {parsed.rows.length > PREVIEW_ROWS && <p className="csv-note">{t('csvImport.moreRows', counted(parsed.rows.length - PREVIEW_ROWS))}</p>}
      {parsed.problems.length > 0 && (
        <div className="csv-problems" role="status">
          <p className="csv-problems-title">{t('csvImport.parseProblems', counted(parsed.problems.length))}</p>
          <ul>
            {parsed.problems.slice(0, 10).map((p, i) => (
              <li key={i}>
                {t('csvImport.parseProblem', { row: p.row, reason: t(`csvImport.parseCodes.${p.code}`, { defaultValue: t('csvImport.parseCodes.other') }) })}
              </li>
            ))}
          </ul>
        </div>
      )}
      {error && (
        <p className="csv-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function Summary({ result }: { result: ImportResult }) {
  const { t } = useTranslation();
  const problems: CellProblem[] = result.problems;
  return (
    <div className="csv-summary">
      <p className="csv-summary-title" role="status">
        {result.failed
          ? t('csvImport.failedAfter', { done: result.imported.toLocaleString('ru'), total: result.total.toLocaleString('ru') })
          : result.cancelled
            ? t('csvImport.stopped', { done: result.imported.toLocaleString('ru'), total: result.total.toLocaleString('ru') })
            : t('csvImport.imported', counted(result.imported))}
      </p>
      {result.failed !== undefined && <p className="csv-error">{pageActionError(t, result.failed)}</p>}
      {problems.length === 0 ? (
        <p className="csv-note">{t('csvImport.noProblems')}</p>
      ) : (
        <div className="csv-problems">
          <p className="csv-problems-title">{t('csvImport.cellProblems', counted(problems.length))}</p>
          <ul>
            {problems.slice(0, LISTED_PROBLEMS).map((p, i) => (
              <li key={i}>
                {t('csvImport.cellProblem', {
                  line: p.line,
                  column: p.column,
                  text: p.text,
                  reason: t(`csvImport.problems.${p.kind}`, { defaultValue: t('csvImport.problems.other') }),
                })}
              </li>
            ))}
          </ul>
          {problems.length > LISTED_PROBLEMS && <p className="csv-note">{t('csvImport.moreProblems', counted(problems.length - LISTED_PROBLEMS))}</p>}
        </div>
      )}
    </div>
  );
}
