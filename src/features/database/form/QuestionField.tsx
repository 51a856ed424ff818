import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { DATABASE_LIMITS, MAIN_FIELD_ID } from '../../../../schema/blocks/database';
import { LIMITS } from '../../../../schema/constants';
import type { FormQuestion } from '../../../../schema/databaseForm';
import { DateInput, dateProblemText } from '../cells/DateInput';
import type { AnswerProblem, Draft } from './formAnswers';

/*
 * One question of a form: its name (marked «*» when required), an input of its field's type, and
 * why its answer was refused under it. The fill form's and, disabled, the builder's preview.
 */

/** A refused answer in words. */
export function problemText(t: TFunction<'automation'>, problem: AnswerProblem): string {
  switch (problem.kind) {
    case 'missing':
      return t('database.form.answerMissing');
    case 'invalid':
      return t('database.form.answerInvalid');
    case 'notANumber':
      return t('database.form.notANumber');
    case 'date':
      return problem.problem === 'noTime' ? t('database.form.noTime') : dateProblemText(t, problem.problem, problem.text);
  }
}

/** «*» after a required question's name, read as «обязательный». */
function RequiredMark() {
  const { t } = useTranslation('automation');
  return (
    <span className="db-form-required" role="img" aria-label={t('database.form.requiredMark')}>
      *
    </span>
  );
}

export interface QuestionFieldProps {
  question: FormQuestion;
  draft: Draft;
  onDraft(draft: Draft): void;
  problem: AnswerProblem | null;
  /** The builder's preview: shown, not answered. */
  disabled?: boolean;
}

export function QuestionField({ question, draft, onDraft, problem, disabled }: QuestionFieldProps) {
  const { t } = useTranslation('automation');
  const { field, fieldId, required } = question;
  const id = useId();
  const problemId = `${id}-problem`;
  const name = field.name || (fieldId === MAIN_FIELD_ID ? t('database.form.titleQuestion') : t('database.untitledRow'));
  const said = problem ? problemText(t, problem) : null;
  const shared = {
    id,
    disabled,
    'aria-required': required || undefined,
    'aria-invalid': said !== null || undefined,
    'aria-describedby': said !== null ? problemId : undefined,
  };
  const text = typeof draft === 'string' ? draft : '';
  const label = (
    <label className="db-form-label" htmlFor={id}>
      {name}
      {required && <RequiredMark />}
    </label>
  );
  const problemLine = said !== null && (
    <div id={problemId} className="db-form-problem" role="alert">
      {said}
    </div>
  );

  let body;
  switch (field.type) {
    case 'checkbox':
      body = (
        <>
          <label className="db-form-check">
            <input {...shared} type="checkbox" checked={draft === true} onChange={(e) => onDraft(e.target.checked)} />
            <span>
              {name}
              {required && <RequiredMark />}
            </span>
          </label>
          {problemLine}
        </>
      );
      break;
    case 'multiSelect': {
      const chosen = Array.isArray(draft) ? draft : [];
      body = (
        <fieldset
          className="db-form-options"
          disabled={disabled}
          aria-invalid={said !== null || undefined}
          aria-describedby={said !== null ? problemId : undefined}
        >
          <legend className="db-form-label">
            {name}
            {required && <RequiredMark />}
          </legend>
          {field.options.map((option) => (
            <label key={option.id} className="db-form-check">
              <input
                type="checkbox"
                checked={chosen.includes(option.id)}
                onChange={(e) => onDraft(e.target.checked ? [...chosen, option.id] : chosen.filter((o) => o !== option.id))}
              />
              <span>{option.name}</span>
            </label>
          ))}
          {field.options.length === 0 && <div className="db-form-hint">{t('database.form.noOptions')}</div>}
          {problemLine}
        </fieldset>
      );
      break;
    }
    case 'select':
    case 'status':
      body = (
        <>
          {label}
          <select {...shared} className="db-form-input" value={text} onChange={(e) => onDraft(e.target.value)}>
            <option value="">{t('database.form.none')}</option>
            {field.options.map((option) => (
              <option key={option.id} value={option.id}>
                {option.name}
              </option>
            ))}
          </select>
          {problemLine}
        </>
      );
      break;
    case 'date':
      body = (
        <>
          <div className="db-form-label" aria-hidden>
            {name}
            {required && <span className="db-form-required">*</span>}
          </div>
          <DateInput
            text={text}
            onText={onDraft}
            label={required ? `${name} ${t('database.form.requiredMark')}` : name}
            withTime={field.withTime ?? false}
            problem={said}
            popover
            preview
            disabled={disabled}
          />
        </>
      );
      break;
    case 'number':
    case 'url':
    case 'email':
    case 'phone':
      body = (
        <>
          {label}
          <input
            {...shared}
            className="db-form-input"
            type={field.type === 'number' ? 'text' : field.type === 'phone' ? 'tel' : field.type}
            inputMode={field.type === 'number' ? 'decimal' : field.type === 'phone' ? 'tel' : field.type}
            autoComplete={field.type === 'email' ? 'email' : field.type === 'phone' ? 'tel' : field.type === 'url' ? 'url' : 'off'}
            maxLength={DATABASE_LIMITS.textValueLength}
            value={text}
            onChange={(e) => onDraft(e.target.value)}
          />
          {problemLine}
        </>
      );
      break;
    default:
      // The title and a text (a form asks nothing else): lines of text.
      body = (
        <>
          {label}
          <textarea
            {...shared}
            className="db-form-input db-form-text"
            rows={fieldId === MAIN_FIELD_ID ? 2 : 4}
            maxLength={fieldId === MAIN_FIELD_ID ? LIMITS.titleLength : DATABASE_LIMITS.textValueLength}
            value={text}
            onChange={(e) => onDraft(e.target.value)}
          />
          {problemLine}
        </>
      );
  }
  return (
    <div className={`db-form-question${said !== null ? ' is-invalid' : ''}`} data-field-id={fieldId}>
      {body}
    </div>
  );
}
