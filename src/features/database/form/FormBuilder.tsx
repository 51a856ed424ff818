import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  FORM_ACCESS,
  FORM_FIELD_TYPES,
  MAIN_FIELD_ID,
  type DatabaseLayout,
  type FormAccess,
  type FormConfig,
  type OrderedField,
} from '../../../../schema/blocks/database';
import { formQuestions } from '../../../../schema/databaseForm';
import { useAppSelector } from '../../../app/store';
import { ActionMenu, MenuItem } from '../../../ui/ActionMenu';
import { Switch } from '../../../ui/Switch';
import { showToast } from '../../../ui/Toast';
import { copyText } from '../../pages/pageErrors';
import { useDatabase } from '../context';
import { blankDraft } from './formAnswers';
import { formAddress } from './formApi';
import { FormFill } from './FormFill';
import { QuestionField } from './QuestionField';
import './form.css';

/*
 * A form view in a database block (issue 38, docs/api/databases.md «Forms»). Its editors get the
 * builder: the form as its submitters see it, with its description, its questions (required or
 * not, removed, moved, added from the database's fields a form may ask), who may fill it in, and
 * its link. Each change is the view's layout saved (`orderedFields`, `form`), as every view
 * setting is. A reader who may not change it fills it in; on a published page, only a public form
 * is shown.
 */

export function FormView({ layout, published = false }: { layout: DatabaseLayout; published?: boolean }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  if (published) {
    return (layout.form?.access ?? 'page') === 'public' ? (
      <FormFill databaseId={db.databaseId} viewId={layout.uid} embedded />
    ) : (
      <div className="db-empty db-form-members">{t('database.form.membersOnly')}</div>
    );
  }
  return db.editable ? <FormBuilder layout={layout} /> : <FormFill databaseId={db.databaseId} viewId={layout.uid} embedded />;
}

/** The form's settings as written: a blank description and no required questions left out, who may fill it in always said. */
function formConfig(form: FormConfig): FormConfig {
  return {
    ...(form.description?.trim() ? { description: form.description } : {}),
    ...(form.required?.length ? { required: form.required } : {}),
    access: form.access ?? 'page',
  };
}

export function FormBuilder({ layout }: { layout: DatabaseLayout }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const accessId = useId();
  const form = layout.form ?? {};
  const access = form.access ?? 'page';
  const required = form.required ?? [];
  const data = { config: db.config, view: { layouts: [layout] } };
  const questions = formQuestions(data, layout);
  // Whether the page holding the database is published (unknown: said nothing of it).
  const published = useAppSelector((state) => state.pages.entities[db.pageId]?.isPublic);

  const saveForm = (patch: Partial<FormConfig>, orderedFields?: OrderedField[]) => {
    const next = formConfig({ ...form, ...patch });
    void db.saveView(layout.uid, orderedFields ? { orderedFields, form: next } : { form: next });
  };
  const saveQuestions = (ids: string[]) => {
    const entries = new Map(layout.orderedFields.map((entry) => [entry.fieldId, entry]));
    const orderedFields = ids.map((fieldId) => entries.get(fieldId) ?? { fieldId, isWrap: false });
    // A question removed is no longer required.
    const stillRequired = required.filter((id) => ids.includes(id));
    if (stillRequired.length !== required.length) saveForm({ required: stillRequired }, orderedFields);
    else void db.saveView(layout.uid, { orderedFields });
  };
  const askedIds = questions.map((q) => q.fieldId);
  const move = (fieldId: string, by: -1 | 1) => {
    const at = askedIds.indexOf(fieldId);
    const to = at + by;
    if (at < 0 || to < 0 || to >= askedIds.length) return;
    const ids = [...askedIds];
    [ids[at], ids[to]] = [ids[to], ids[at]];
    saveQuestions(ids);
  };
  const toggleRequired = (fieldId: string, on: boolean) =>
    saveForm({ required: on ? [...required.filter((id) => id !== fieldId), fieldId] : required.filter((id) => id !== fieldId) });

  // The fields not asked yet: those of a type forms ask first, the others shown but not offered.
  const notAsked = Object.entries(db.config.fields)
    .filter(([id]) => !askedIds.includes(id))
    .sort(([a], [b]) => (a === MAIN_FIELD_ID ? -1 : b === MAIN_FIELD_ID ? 1 : 0));
  const askable = notAsked.filter(([, field]) => FORM_FIELD_TYPES.has(field.type));
  const others = notAsked.filter(([, field]) => !FORM_FIELD_TYPES.has(field.type));

  const link = formAddress(db.databaseId, layout.uid, window.location.origin);
  const copyLink = async () => {
    try {
      await copyText(link);
      showToast(t('database.form.linkCopied'));
    } catch {
      showToast(t('database.form.copyFailed'), 'error');
    }
  };

  return (
    <div className="db-form is-embedded is-builder" data-testid="form-builder">
      <div className="db-form-settings">
        <label className="db-form-setting" htmlFor={accessId}>
          <span>{t('database.form.access')}</span>
          <select id={accessId} className="db-form-input" value={access} onChange={(e) => saveForm({ access: e.target.value as FormAccess })}>
            {FORM_ACCESS.map((kind) => (
              <option key={kind} value={kind}>
                {t(`database.form.accessOptions.${kind}`)}
              </option>
            ))}
          </select>
        </label>
        <div className="db-form-links">
          <a className="db-button" href={formAddress(db.databaseId, layout.uid)} target="_blank" rel="noopener noreferrer">
            {t('database.form.open')}
          </a>
          <button type="button" className="db-button" onClick={() => void copyLink()}>
            {t('database.form.copyLink')}
          </button>
        </div>
        {access === 'public' && published === false && (
          <p className="db-form-note" role="note">
            {t('database.form.notPublished')}
          </p>
        )}
      </div>
      <DescriptionEditor description={form.description ?? ''} onSave={(description) => saveForm({ description })} />
      <div className="db-form-questions" role="list" aria-label={t('database.form.questions')}>
        {questions.length === 0 && <p className="db-form-note">{t('database.form.noQuestions')}</p>}
        {questions.map((question, index) => {
          const name = question.field.name || (question.fieldId === MAIN_FIELD_ID ? t('database.form.titleQuestion') : t('database.untitledRow'));
          return (
            <div key={question.fieldId} className="db-form-card" role="listitem" aria-label={name} data-testid="form-question" data-field-id={question.fieldId}>
              <div className="db-form-card-head">
                <span className="db-form-card-type">{t(`database.types.${question.field.type}`)}</span>
                <span className="db-form-card-tools">
                  <button
                    type="button"
                    className="db-button db-form-icon"
                    aria-label={t('database.form.moveUp', { name })}
                    title={t('database.form.moveUp', { name })}
                    disabled={index === 0}
                    onClick={() => move(question.fieldId, -1)}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className="db-button db-form-icon"
                    aria-label={t('database.form.moveDown', { name })}
                    title={t('database.form.moveDown', { name })}
                    disabled={index === questions.length - 1}
                    onClick={() => move(question.fieldId, 1)}
                  >
                    ↓
                  </button>
                </span>
              </div>
              <QuestionField question={question} draft={blankDraft(question.field)} onDraft={() => undefined} problem={null} disabled />
              <div className="db-form-card-foot">
                <RequiredSwitch on={question.required} onChange={(on) => toggleRequired(question.fieldId, on)} />
                <button
                  type="button"
                  className="db-button is-danger"
                  aria-label={t('database.form.removeQuestion', { name })}
                  onClick={() => saveQuestions(askedIds.filter((id) => id !== question.fieldId))}
                >
                  {t('database.form.remove')}
                </button>
              </div>
            </div>
          );
        })}
      </div>
      <ActionMenu
        label={t('database.form.addQuestion')}
        trigger={`+ ${t('database.form.addQuestion')}`}
        iconOnly={false}
        buttonClassName="db-add-row db-form-add"
        menuClassName="db-menu"
        align="start"
      >
        {(close) => (
          <>
            {askable.map(([id, field]) => (
              <MenuItem
                key={id}
                onClick={() => {
                  close();
                  saveQuestions([...askedIds, id]);
                }}
              >
                {field.name || (id === MAIN_FIELD_ID ? t('database.form.titleQuestion') : t('database.untitledRow'))}
              </MenuItem>
            ))}
            {askable.length === 0 && (
              <MenuItem disabled onClick={() => undefined}>
                {t('database.form.allAsked')}
              </MenuItem>
            )}
            {others.length > 0 && (
              <div role="group" aria-label={t('database.form.notAskable')}>
                <div className="menu-separator" role="separator" />
                <div className="db-menu-heading" aria-hidden>
                  {t('database.form.notAskable')}
                </div>
                {others.map(([id, field]) => (
                  <MenuItem key={id} disabled onClick={() => undefined}>
                    {field.name || id} <span className="db-form-menu-type">· {t(`database.types.${field.type}`)}</span>
                  </MenuItem>
                ))}
              </div>
            )}
          </>
        )}
      </ActionMenu>
    </div>
  );
}

function RequiredSwitch({ on, onChange }: { on: boolean; onChange(on: boolean): void }) {
  const { t } = useTranslation('automation');
  const id = useId();
  return (
    <span className="db-form-required-switch">
      <Switch id={id} checked={on} onChange={onChange} />
      <label htmlFor={id}>{t('database.form.required')}</label>
    </span>
  );
}

/** How long after the last keystroke a description is saved. */
const DESCRIPTION_SAVE_MS = 800;

/** The form's description: typed freely, saved a moment after typing stops and when the field is left (when it changed). */
function DescriptionEditor({ description, onSave }: { description: string; onSave(description: string): void }) {
  const { t } = useTranslation('automation');
  const [text, setText] = useState(description);
  const [editing, setEditing] = useState(false);
  const pending = useRef<{ timer: ReturnType<typeof setTimeout>; save: () => void } | null>(null);
  const saved = useRef(description);
  saved.current = description;
  // A save made later than typed merges into the form as it is then (another setting changed meanwhile stays).
  const latestSave = useRef(onSave);
  latestSave.current = onSave;
  const flush = () => {
    if (!pending.current) return;
    clearTimeout(pending.current.timer);
    const { save } = pending.current;
    pending.current = null;
    save();
  };
  // Leaving the view (or the page) while a save waits: it is made now.
  useEffect(() => flush, []);
  // Changed elsewhere (another editor, the server's answer) while not being typed here.
  useEffect(() => {
    if (!editing) setText(description);
  }, [description, editing]);
  const typed = (value: string) => {
    setText(value);
    if (pending.current) clearTimeout(pending.current.timer);
    const save = () => {
      if (value.trim() !== saved.current.trim()) latestSave.current(value.trim());
    };
    pending.current = { save, timer: setTimeout(flush, DESCRIPTION_SAVE_MS) };
  };
  return (
    <textarea
      className="db-form-input db-form-description-input"
      value={text}
      rows={2}
      maxLength={2000}
      placeholder={t('database.form.descriptionPlaceholder')}
      aria-label={t('database.form.description')}
      onFocus={() => setEditing(true)}
      onChange={(e) => typed(e.target.value)}
      onBlur={() => {
        setEditing(false);
        flush();
      }}
    />
  );
}
