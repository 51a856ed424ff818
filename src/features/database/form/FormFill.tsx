import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import type { WireForm } from '../../../../schema/databaseForm';
import { ApiRequestError } from '../../../app/api';
import { useDocumentTitle } from '../../../app/documentTitle';
import { Button } from '../../../ui/Button';
import { localToday } from '../cells/dateText';
import { blankDrafts, collectAnswers, serverProblems, type AnswerProblem, type Drafts } from './formAnswers';
import { formApi, type FormApi } from './formApi';
import { QuestionField } from './QuestionField';
import './form.css';

/*
 * A form to fill in (issue 38, docs/api/databases.md «Forms»): the fill page (/form/{databaseId}/{viewId},
 * signed in or not), a form view in a database block for a reader who may not change it, a public
 * form on a published page. Its questions are read from the server (who may fill it in is the
 * server's to say: 401, 403, 404 are said here); the answers are checked as the server checks
 * them before they are sent, and what the server refuses is said under its question.
 */

/** Why a form cannot be filled in here. */
type Refusal = 'unauthorized' | 'forbidden' | 'notFound' | 'failed';
type Load = { status: 'loading' } | { status: 'ready'; form: WireForm } | { status: 'refused'; refusal: Refusal };

function refusalOf(error: unknown): Refusal {
  const status = error instanceof ApiRequestError ? error.status : undefined;
  return status === 401 ? 'unauthorized' : status === 403 ? 'forbidden' : status === 404 ? 'notFound' : 'failed';
}

export interface FormFillProps {
  databaseId: string;
  viewId: string;
  /** In a database block: the block and its tab name the form already (no title, no view name). */
  embedded?: boolean;
  api?: FormApi;
}

export function FormFill({ databaseId, viewId, embedded = false, api = formApi }: FormFillProps) {
  const { t } = useTranslation('automation');
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let cancelled = false;
    setLoad({ status: 'loading' });
    api.read(databaseId, viewId).then(
      (form) => !cancelled && setLoad({ status: 'ready', form }),
      (error: unknown) => !cancelled && setLoad({ status: 'refused', refusal: refusalOf(error) }),
    );
    return () => {
      cancelled = true;
    };
  }, [api, databaseId, viewId, attempt]);
  useDocumentTitle(!embedded && load.status === 'ready' ? load.form.title || t('database.untitledRow') : null);

  return (
    <div className={`db-form${embedded ? ' is-embedded' : ''}`} data-testid="form-fill">
      {load.status === 'loading' ? (
        <div className="db-empty">{t('database.loading')}</div>
      ) : load.status === 'refused' ? (
        <FormRefusal refusal={load.refusal} onRetry={() => setAttempt((n) => n + 1)} />
      ) : (
        <FormAnswering key={load.form.viewId} form={load.form} embedded={embedded} api={api} onRefused={(refusal) => setLoad({ status: 'refused', refusal })} />
      )}
    </div>
  );
}

/** Why the form is not shown: sign in (and come back here), no access, no such form, or no answer from the server. */
function FormRefusal({ refusal, onRetry }: { refusal: Refusal; onRetry(): void }) {
  const { t } = useTranslation('automation');
  const location = useLocation();
  const back = `${location.pathname}${location.search}`;
  return (
    <div className="db-form-refusal" role="status">
      <p className="db-form-refusal-text">{t(`database.form.refusals.${refusal}`)}</p>
      {refusal === 'unauthorized' && (
        <Link className="button button-m button-solid" to={`/login?next=${encodeURIComponent(back)}`}>
          {t('database.form.signIn')}
        </Link>
      )}
      {refusal === 'failed' && (
        <Button kind="outline" size="s" onClick={onRetry}>
          {t('database.form.retry')}
        </Button>
      )}
    </div>
  );
}

function FormAnswering({ form, embedded, api, onRefused }: { form: WireForm; embedded: boolean; api: FormApi; onRefused(refusal: Refusal): void }) {
  const { t } = useTranslation('automation');
  const [drafts, setDrafts] = useState<Drafts>(() => blankDrafts(form.questions));
  const [problems, setProblems] = useState<Record<string, AnswerProblem>>({});
  const [notice, setNotice] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<{ rowId: string | null } | null>(null);
  const box = useRef<HTMLFormElement>(null);

  /** The first question refused: the focus goes to its input. */
  const focusFirst = (refused: Record<string, AnswerProblem>) => {
    const first = form.questions.find((q) => refused[q.fieldId]);
    if (!first) return;
    requestAnimationFrame(() =>
      box.current?.querySelector<HTMLElement>(`[data-field-id="${first.fieldId}"] :is(input, textarea, select):not(:disabled)`)?.focus(),
    );
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    const { values, problems: found } = collectAnswers(form.questions, drafts, localToday());
    setProblems(found);
    setNotice(null);
    if (Object.keys(found).length > 0) {
      focusFirst(found);
      return;
    }
    setSending(true);
    try {
      setSent(await api.submit(form.databaseId, form.viewId, values));
    } catch (error) {
      const status = error instanceof ApiRequestError ? error.status : undefined;
      if (status === 401 || status === 403 || status === 404) onRefused(refusalOf(error));
      else if (status === 422) {
        const said = serverProblems((error as ApiRequestError).details, form.questions);
        setProblems(said.problems);
        if (said.other) setNotice(t('database.form.formChanged'));
        focusFirst(said.problems);
      } else if (status === 429) {
        const seconds = Number(((error as ApiRequestError).details as { retryAfter?: unknown } | undefined)?.retryAfter);
        setNotice(t('database.form.rateLimited', { minutes: Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds / 60) : 60 }));
      } else setNotice(t('database.form.failed'));
    } finally {
      setSending(false);
    }
  };

  const again = () => {
    setDrafts(blankDrafts(form.questions));
    setProblems({});
    setNotice(null);
    setSent(null);
  };

  if (sent) {
    return (
      <div className="db-form-sent" role="status" data-testid="form-sent">
        <p className="db-form-sent-title">{t('database.form.sent')}</p>
        <div className="db-form-sent-actions">
          <Button kind="outline" size="s" onClick={again}>
            {t('database.form.sendAnother')}
          </Button>
          {sent.rowId && (
            <Link className="db-form-link" to={`/${sent.rowId}`}>
              {t('database.form.openRow')}
            </Link>
          )}
        </div>
      </div>
    );
  }

  return (
    <form ref={box} className="db-form-body" noValidate aria-label={form.name || form.title || t('database.layouts.form')} onSubmit={(e) => void submit(e)}>
      {!embedded && (
        <header className="db-form-header">
          <h1 className="db-form-title">{form.title || t('database.untitledRow')}</h1>
          {form.name && <p className="db-form-name">{form.name}</p>}
        </header>
      )}
      {form.description && <p className="db-form-description">{form.description}</p>}
      {form.anonymous && <p className="db-form-note">{t('database.form.anonymous')}</p>}
      {form.questions.length === 0 && <p className="db-form-note">{t('database.form.noQuestionsYet')}</p>}
      {form.questions.map((question) => (
        <QuestionField
          key={question.fieldId}
          question={question}
          draft={drafts[question.fieldId]}
          problem={problems[question.fieldId] ?? null}
          onDraft={(draft) => {
            setDrafts((was) => ({ ...was, [question.fieldId]: draft }));
            // A refused answer changed: its word goes until the next sending.
            setProblems((was) => {
              if (!was[question.fieldId]) return was;
              const rest = { ...was };
              delete rest[question.fieldId];
              return rest;
            });
          }}
        />
      ))}
      {notice && (
        <p className="db-form-notice" role="alert">
          {notice}
        </p>
      )}
      <div className="db-form-actions">
        <Button type="submit" size="m" disabled={sending || form.questions.length === 0} aria-busy={sending || undefined}>
          {t('database.form.submit')}
        </Button>
      </div>
    </form>
  );
}
