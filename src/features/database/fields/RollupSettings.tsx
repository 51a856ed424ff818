import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAIN_FIELD_ID, ROLLUP_CALCULATIONS, databaseDataSchema, type DatabaseField, type RollupCalculation } from '../../../../schema/blocks/database';
import { formulaFieldsOf, formulaPlanOf } from '../../../../schema/formula/field';
import { rollupFits } from '../../../../schema/formula/rollup';
import type { FormulaType } from '../../../../schema/formula/values';
import { ApiRequestError } from '../../../app/api';
import { showToast } from '../../../ui/Toast';
import { useDatabase } from '../context';
import { refusalText } from './format';

type RollupField = Extract<DatabaseField, { type: 'rollup' }>;
type Fields = Readonly<Record<string, DatabaseField>>;

/** The first relation field of these fields (a new rollup reads through it); undefined: there is none. */
export function firstRelationId(fields: Fields): string | undefined {
  return Object.keys(fields).find((id) => fields[id].type === 'relation');
}

/** The database a relation field names: its own, or this one when it names none. */
const relatedDatabaseOf = (field: DatabaseField | undefined, databaseId: string): string | null =>
  field?.type === 'relation' ? (field.databaseId ?? databaseId) : null;

/** A field as formulas (and so rollups) read it: a formula as the type it gives; unknown: any. */
export function rollupTargetType(fields: Fields | null | undefined, fieldId: string): FormulaType {
  if (!fields || !Object.hasOwn(fields, fieldId)) return 'any';
  return formulaFieldsOf(fields, formulaPlanOf(fields).order)(fieldId)?.type ?? 'any';
}

/** The calculations a rollup of a field of this type offers (those `rollupFits`), in Notion's order. */
export function rollupCalculationsFor(type: FormulaType): RollupCalculation[] {
  return ROLLUP_CALCULATIONS.filter((calculation) => rollupFits(calculation, type));
}

/**
 * The related database's fields: this database's own when the relation names it; another's read
 * once (GET database/{id}). undefined while read, null when it cannot be (no access, gone).
 */
function useRelatedFields(relatedId: string | null): Fields | null | undefined {
  const db = useDatabase();
  const [read, setRead] = useState<{ databaseId: string; fields: Fields | null } | null>(null);
  const other = relatedId !== null && relatedId !== db.databaseId ? relatedId : null;
  useEffect(() => {
    if (other === null) return;
    let live = true;
    db.api.database(other).then(
      ({ block }) => {
        const parsed = databaseDataSchema.safeParse(block.data);
        if (live) setRead({ databaseId: other, fields: parsed.success ? parsed.data.config.fields : null });
      },
      () => live && setRead({ databaseId: other, fields: null }),
    );
    return () => {
      live = false;
    };
  }, [db.api, other]);
  if (relatedId === null) return null;
  if (other === null) return db.config.fields;
  return read?.databaseId === other ? read.fields : undefined;
}

/**
 * A rollup's settings in its column's menu (docs/relations.md «Rollups»): the relation of this
 * database it reads through («Связь»), the field of the related rows («Свойство», the title
 * first) and the calculation («Расчёт», only those that suit the field's type). Each change is
 * saved at once; a refusal (422) shows the server's words.
 */
export function RollupSettings({ fieldId, field }: { fieldId: string; field: RollupField }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const fields = db.config.fields;
  // What was chosen, shown while it is saved (the server's answer brings it into the config).
  const [pending, setPending] = useState<RollupField | null>(null);
  const shown = pending ?? field;

  const relations = Object.keys(fields).filter((id) => fields[id].type === 'relation');
  const relation = fields[shown.relationFieldId];
  const relatedId = relatedDatabaseOf(relation, db.databaseId);
  const related = useRelatedFields(relatedId);
  const sameDatabase = relatedId === db.databaseId;
  // The title first, then the others in their order; not this rollup itself (it would read itself).
  const targets = related
    ? [MAIN_FIELD_ID, ...Object.keys(related).filter((id) => id !== MAIN_FIELD_ID)].filter(
        (id) => Object.hasOwn(related, id) && !(sameDatabase && id === fieldId),
      )
    : [];
  const type = rollupTargetType(related, shown.targetFieldId);
  const calculations = rollupCalculationsFor(type);
  // A calculation saved before that no longer suits stays shown (the server keeps it until changed).
  if (!calculations.includes(shown.calculation)) calculations.push(shown.calculation);

  const save = async (next: RollupField) => {
    setPending(next);
    try {
      const { block } = await db.api.updateField(db.databaseId, fieldId, next);
      db.apply(block);
    } catch (error) {
      showToast(refusalText(error, error instanceof ApiRequestError && error.status === 422 ? error.message : t('database.writeFailed')), 'error');
    } finally {
      // A later choice made meanwhile stays shown until its own answer.
      setPending((current) => (current === next ? null : current));
    }
  };
  /** The calculation kept when it suits the new field, else «Посчитать все». */
  const fitting = (nextType: FormulaType): RollupCalculation => (rollupFits(shown.calculation, nextType) ? shown.calculation : 'countAll');

  const changeRelation = (relationFieldId: string) => {
    if (relationFieldId === shown.relationFieldId) return;
    const nextRelated = relatedDatabaseOf(fields[relationFieldId], db.databaseId);
    // Another database: its title (every database has one); the same: the field stays.
    if (nextRelated === relatedId) void save({ ...shown, relationFieldId });
    else void save({ ...shown, relationFieldId, targetFieldId: MAIN_FIELD_ID, calculation: fitting('text') });
  };
  const changeTarget = (targetFieldId: string) => {
    if (targetFieldId === shown.targetFieldId) return;
    void save({ ...shown, targetFieldId, calculation: fitting(rollupTargetType(related, targetFieldId)) });
  };

  const targetMissing = related !== undefined && related !== null && !Object.hasOwn(related, shown.targetFieldId);
  return (
    <div className="db-rollup">
      <label className="db-menu-row">
        {t('database.rollup.relation')}
        <select value={shown.relationFieldId} onChange={(e) => changeRelation(e.target.value)}>
          {relation?.type !== 'relation' && <option value={shown.relationFieldId}>{t('database.rollup.missingRelation')}</option>}
          {relations.map((id) => (
            <option key={id} value={id}>
              {fields[id].name || t('database.rollup.untitledField')}
            </option>
          ))}
        </select>
      </label>
      <label className="db-menu-row">
        {t('database.rollup.target')}
        <select value={shown.targetFieldId} disabled={!related} onChange={(e) => changeTarget(e.target.value)}>
          {related === undefined && <option value={shown.targetFieldId}>{t('database.rollup.loading')}</option>}
          {related === null && relatedId !== null && <option value={shown.targetFieldId}>{t('database.rollup.unreadable')}</option>}
          {related === null && relatedId === null && <option value={shown.targetFieldId}>{t('database.rollup.missingRelation')}</option>}
          {targetMissing && <option value={shown.targetFieldId}>{t('database.rollup.missingField')}</option>}
          {related &&
            targets.map((id) => (
              <option key={id} value={id}>
                {related[id].name || t('database.rollup.untitledField')}
              </option>
            ))}
        </select>
      </label>
      <label className="db-menu-row">
        {t('database.rollup.calculation')}
        <select
          value={shown.calculation}
          onChange={(e) => {
            const calculation = e.target.value as RollupCalculation;
            if (calculation !== shown.calculation) void save({ ...shown, calculation });
          }}
        >
          {calculations.map((calculation) => (
            <option key={calculation} value={calculation}>
              {t(`database.rollup.calculations.${calculation}`)}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
