import { useEffect, useId, useReducer, useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { COMPANY_TYPES, type TemplateDefaults, type WireTemplate } from '../../../schema/template';
import { WORKSPACE_NAME_MAX } from '../../../schema/workspace';
import { api } from '../../app/api';
import { errorMessage, type FeatureMessages } from '../../app/errors';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { Button } from '../../ui/Button';
import { useModal } from '../../ui/modal';
import { CheckIcon, CloseIcon } from '../../ui/icons';
import { showToast } from '../../ui/Toast';
import { useIntentParams } from '../../app/intents';
import { loadCurrentUser } from '../auth/authSlice';
import { treeReset } from '../pages/pagesSlice';
import { loadWorkspaces, workspaceSwitched } from '../workspaces/workspacesSlice';
import { PUBLIC_IMAGE_TYPES, uploadPublicImage } from '../../editor/upload';
import { parseInvitees } from '../sharing/invitees';
import { finishWizard } from './finish';
import {
  canProceed,
  COMPANY_ROLES,
  initialWizardState,
  INVITE_ROLES,
  inviteRoleOf,
  isWorkspaceNameValid,
  kindOf,
  MEMBERS_COUNTS,
  nextStep,
  stepsFor,
  templateSetOf,
  wizardReducer,
  WIZARD_STEPS,
  WORKSPACE_KINDS,
  type InviteRole,
  type WizardAction,
  type WizardState,
} from './wizardState';
import './wizard.css';
import { useDocumentTitle } from '../../app/documentTitle';

/** Spec §5: invitee candidates are debounced 150 ms. */
const INVITE_DEBOUNCE_MS = 150;

const KIND_ICONS = { work: '💼', study: '🎓', personal: '🏡' } as const;
const COMPANY_ICONS = { marketing: '📣', it: '💻', sell: '🤝', creativity: '🎨', other: '✨' } as const;

type Templates = { status: 'loading' } | { status: 'ready'; list: WireTemplate[] } | { status: 'failed' };

/** A radio-like option card. */
function Choice({
  selected,
  onSelect,
  icon,
  title,
  description,
  name,
}: {
  selected: boolean;
  onSelect(): void;
  icon?: string;
  title: string;
  description?: string;
  name: string;
}) {
  return (
    <button
      type="button"
      role="radio"
      aria-checked={selected}
      data-choice={name}
      className={selected ? 'wizard-choice is-selected' : 'wizard-choice'}
      onClick={onSelect}
    >
      {icon && (
        <span className="wizard-choice-icon" aria-hidden>
          {icon}
        </span>
      )}
      <span className="wizard-choice-text">
        <span className="wizard-choice-title">{title}</span>
        {description && <span className="wizard-choice-description">{description}</span>}
      </span>
      <span className="wizard-choice-check" aria-hidden>
        {selected && <CheckIcon size={14} />}
      </span>
    </button>
  );
}

function ChoiceGroup({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div role="radiogroup" aria-label={label} className={['wizard-choices', className].filter(Boolean).join(' ')}>
      {children}
    </div>
  );
}

function SelectType({ state, dispatch }: StepProps) {
  const { t } = useTranslation();
  const kind = kindOf(state.config);
  return (
    <ChoiceGroup label={t('wizard.selectType.title')}>
      {WORKSPACE_KINDS.map((k) => (
        <Choice
          key={k}
          name={k}
          selected={kind === k}
          onSelect={() => dispatch({ type: 'kindChosen', kind: k })}
          icon={KIND_ICONS[k]}
          title={t(`wizard.selectType.kinds.${k}.title`)}
          description={t(`wizard.selectType.kinds.${k}.description`)}
        />
      ))}
    </ChoiceGroup>
  );
}

function SelectSize({ state, dispatch }: StepProps) {
  const { t } = useTranslation();
  return (
    <ChoiceGroup label={t('wizard.selectSize.title')} className="wizard-choices-grid">
      {MEMBERS_COUNTS.map((size) => (
        <Choice
          key={size}
          name={size}
          selected={state.config.aboutCompany.membersCount === size}
          onSelect={() => dispatch({ type: 'sizeChosen', membersCount: size })}
          title={t(`wizard.selectSize.sizes.${size}`)}
        />
      ))}
    </ChoiceGroup>
  );
}

function AboutCompany({ state, dispatch }: StepProps) {
  const { t } = useTranslation();
  const { type, role } = state.config.aboutCompany;
  return (
    <>
      <h3 className="wizard-group-label">{t('wizard.aboutCompany.typeLabel')}</h3>
      <ChoiceGroup label={t('wizard.aboutCompany.typeLabel')} className="wizard-choices-grid">
        {COMPANY_TYPES.map((c) => (
          <Choice
            key={c}
            name={c}
            selected={type === c}
            icon={COMPANY_ICONS[c]}
            onSelect={() => dispatch({ type: 'companyTypeChosen', companyType: c })}
            title={t(`wizard.aboutCompany.types.${c}`)}
          />
        ))}
      </ChoiceGroup>
      <h3 className="wizard-group-label">{t('wizard.aboutCompany.roleLabel')}</h3>
      <ChoiceGroup label={t('wizard.aboutCompany.roleLabel')} className="wizard-choices-grid">
        {COMPANY_ROLES.map((r) => (
          <Choice
            key={r}
            name={r}
            selected={role === r}
            onSelect={() => dispatch({ type: 'companyRoleChosen', role: r })}
            title={t(`wizard.aboutCompany.roles.${r}`)}
          />
        ))}
      </ChoiceGroup>
    </>
  );
}

function SelectTemplates({ state, dispatch, templates, retry }: StepProps & { templates: Templates; retry(): void }) {
  const { t } = useTranslation();
  if (templates.status === 'loading') {
    return (
      <div className="wizard-loading" role="status" aria-label={t('loading')}>
        <div className="spinner" />
      </div>
    );
  }
  if (templates.status === 'failed') {
    return (
      <div className="wizard-error-box" role="alert">
        <span>{t('wizard.selectTemplates.loadFailed')}</span>
        <Button kind="outline" size="s" onClick={retry}>
          {t('wizard.selectTemplates.retry')}
        </Button>
      </div>
    );
  }
  const set = templateSetOf(state.config);
  const defaultId = state.defaults?.[set];
  const offered = templates.list.filter((tpl) => tpl.sets.includes(set) || state.config.templates.includes(tpl.id));
  const chosen = state.config.templates;
  return (
    <>
      <div className="wizard-templates" role="group" aria-label={t('wizard.selectTemplates.title')}>
        {offered.map((tpl) => {
          const selected = chosen.includes(tpl.id);
          return (
            <button
              key={tpl.id}
              type="button"
              role="checkbox"
              aria-checked={selected}
              data-template={tpl.id}
              className={selected ? 'wizard-template is-selected' : 'wizard-template'}
              onClick={() => dispatch({ type: 'templateToggled', id: tpl.id })}
            >
              <span className="wizard-template-head">
                <span className="wizard-template-icon" aria-hidden>
                  {tpl.icon}
                </span>
                <span className="wizard-choice-check" aria-hidden>
                  {selected && <CheckIcon size={14} />}
                </span>
              </span>
              <span className="wizard-template-title">{tpl.title}</span>
              <span className="wizard-template-description">{tpl.description}</span>
              <span className="wizard-template-meta">
                <span>{t('wizard.selectTemplates.pages', { count: tpl.pageCount })}</span>
                {tpl.id === defaultId && <span className="wizard-badge">{t('wizard.selectTemplates.default')}</span>}
              </span>
            </button>
          );
        })}
      </div>
      <p className="wizard-note" aria-live="polite">
        {chosen.length > 0 ? t('wizard.selectTemplates.chosen', { count: chosen.length }) : t('wizard.selectTemplates.none')}
      </p>
    </>
  );
}

const AVATAR_MESSAGES: FeatureMessages = {
  network: 'wizard.errors.network',
  payload_too_large: 'wizard.profileSettings.avatarErrors.tooLarge',
  'file.not_an_image': 'wizard.profileSettings.avatarErrors.notAnImage',
  generic: 'wizard.profileSettings.avatarErrors.generic',
};

function avatarError(t: (key: string) => string, error: unknown): string {
  return errorMessage(t, error, AVATAR_MESSAGES);
}

function ProfileSettings({ state, dispatch }: StepProps) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [touched, setTouched] = useState({ name: false, userName: false });
  const [uploadError, setUploadError] = useState<string | null>(null);
  const { name, avatar } = state.config;
  const trimmed = name.trim().length;
  const nameError =
    !touched.name || isWorkspaceNameValid(name)
      ? null
      : trimmed > WORKSPACE_NAME_MAX
        ? t('wizard.profileSettings.nameTooLong')
        : t('wizard.profileSettings.nameTooShort');
  const userNameError = touched.userName && state.userName.trim() === '' ? t('wizard.profileSettings.userNameRequired') : null;

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setUploadError(null);
    if (!(PUBLIC_IMAGE_TYPES as readonly string[]).includes(file.type)) {
      setUploadError(t('wizard.profileSettings.avatarErrors.type'));
      return;
    }
    dispatch({ type: 'avatarUploading', uploading: true });
    try {
      dispatch({ type: 'avatarChanged', avatar: await uploadPublicImage(file) });
    } catch (error) {
      dispatch({ type: 'avatarUploading', uploading: false });
      setUploadError(avatarError(t, error));
    }
  };

  return (
    <div className="wizard-form">
      <div className="wizard-avatar-row">
        <span className="wizard-avatar" aria-hidden>
          {avatar ? <img src={avatar} alt="" /> : (name.trim()[0] ?? '?').toUpperCase()}
          {state.avatarUploading && (
            <span className="wizard-avatar-busy">
              <span className="spinner" />
            </span>
          )}
        </span>
        <div className="wizard-avatar-actions">
          <div className="wizard-avatar-buttons">
            <Button kind="outline" size="s" disabled={state.avatarUploading} onClick={() => input.current?.click()}>
              {state.avatarUploading
                ? t('wizard.profileSettings.uploading')
                : avatar
                  ? t('wizard.profileSettings.changeAvatar')
                  : t('wizard.profileSettings.uploadAvatar')}
            </Button>
            {avatar && !state.avatarUploading && (
              <Button kind="flat" size="s" onClick={() => dispatch({ type: 'avatarChanged', avatar: null })}>
                {t('wizard.profileSettings.removeAvatar')}
              </Button>
            )}
          </div>
          <span className={uploadError ? 'wizard-field-error' : 'wizard-hint'} role={uploadError ? 'alert' : undefined}>
            {uploadError ?? t('wizard.profileSettings.avatarHint')}
          </span>
          <input ref={input} type="file" accept={PUBLIC_IMAGE_TYPES.join(',')} hidden data-testid="wizard-avatar-input" onChange={(e) => void onFile(e)} />
        </div>
      </div>
      <div className="wizard-field">
        <label className="wizard-label" htmlFor={`${id}-name`}>
          {t('wizard.profileSettings.name')}
        </label>
        <input
          id={`${id}-name`}
          className={nameError ? 'input is-invalid' : 'input'}
          value={name}
          maxLength={WORKSPACE_NAME_MAX + 20}
          placeholder={t('wizard.profileSettings.namePlaceholder')}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? `${id}-name-error` : undefined}
          data-autofocus
          onChange={(e) => dispatch({ type: 'nameChanged', name: e.target.value })}
          onBlur={() => setTouched((v) => ({ ...v, name: true }))}
        />
        {nameError && (
          <span id={`${id}-name-error`} className="wizard-field-error">
            {nameError}
          </span>
        )}
      </div>
      <div className="wizard-field">
        <label className="wizard-label" htmlFor={`${id}-user`}>
          {t('wizard.profileSettings.userName')}
        </label>
        <input
          id={`${id}-user`}
          className={userNameError ? 'input is-invalid' : 'input'}
          value={state.userName}
          maxLength={200}
          placeholder={t('wizard.profileSettings.userNamePlaceholder')}
          aria-invalid={userNameError ? true : undefined}
          aria-describedby={userNameError ? `${id}-user-error` : undefined}
          onChange={(e) => dispatch({ type: 'userNameChanged', name: e.target.value })}
          onBlur={() => setTouched((v) => ({ ...v, userName: true }))}
        />
        {userNameError && (
          <span id={`${id}-user-error`} className="wizard-field-error">
            {userNameError}
          </span>
        )}
      </div>
    </div>
  );
}

function Sharing({ state, dispatch }: StepProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(state.invites);
  useEffect(() => {
    const timer = setTimeout(() => dispatch({ type: 'invitesChanged', text }), INVITE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, dispatch]);
  const { valid, invalid } = parseInvitees(state.invites);
  const remove = (email: string) => {
    const next = parseInvitees(text)
      .valid.filter((e) => e !== email)
      .join(', ');
    setText(next);
    dispatch({ type: 'invitesChanged', text: next });
  };
  return (
    <div className="wizard-form">
      <label className="wizard-field">
        <span className="wizard-label">{t('wizard.sharing.label')}</span>
        <textarea
          className="input wizard-textarea"
          value={text}
          rows={4}
          placeholder={t('wizard.sharing.placeholder')}
          data-autofocus
          onChange={(e) => setText(e.target.value)}
          onBlur={() => dispatch({ type: 'invitesChanged', text })}
        />
      </label>
      {valid.length > 0 && (
        <div className="wizard-invitees" aria-label={t('wizard.sharing.willInvite', { count: valid.length })}>
          <span className="wizard-hint">{t('wizard.sharing.willInvite', { count: valid.length })}</span>
          <ul className="wizard-chips">
            {valid.map((email) => (
              <li key={email} className="wizard-chip">
                <span>{email}</span>
                <select
                  className="wizard-chip-role"
                  aria-label={t('wizard.sharing.roleOf', { email })}
                  value={inviteRoleOf(state, email)}
                  onChange={(e) => dispatch({ type: 'inviteRoleChosen', email, role: e.target.value as InviteRole })}
                >
                  {INVITE_ROLES.map((role) => (
                    <option key={role} value={role}>
                      {t(`workspaceSettings.roles.${role}`)}
                    </option>
                  ))}
                </select>
                <button type="button" aria-label={t('wizard.sharing.removeInvitee', { email })} onClick={() => remove(email)}>
                  <CloseIcon size={12} />
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {invalid.length > 0 && <span className="wizard-field-error">{t('wizard.sharing.invalid', { list: invalid.join(', ') })}</span>}
      <p className="wizard-note">{t('wizard.sharing.adminNote')}</p>
    </div>
  );
}

interface StepProps {
  state: WizardState;
  dispatch(action: WizardAction): void;
}

const CREATE_MESSAGES: FeatureMessages = {
  network: 'wizard.errors.network',
  validation_failed: 'wizard.errors.invalid',
  generic: 'wizard.errors.create',
};

function createError(t: (key: string) => string, error: unknown): string {
  return errorMessage(t, error, CREATE_MESSAGES);
}

/**
 * /new-workspace: the start-workspace wizard (spec §2, §4) as a full-screen flow. Its config lives
 * in this screen only, so closing it (or finishing) resets it.
 */
export function WizardScreen() {
  const { t } = useTranslation();
  const appDispatch = useAppDispatch();
  const navigate = useNavigate();
  const user = useAppSelector((s) => s.auth.user);
  const [state, dispatch] = useReducer(wizardReducer, user?.name ?? '', initialWizardState);
  const [templates, setTemplates] = useState<Templates>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useDocumentTitle(t('wizard.title'));
  const { params: intentParams, done: intentDone } = useIntentParams();

  useEffect(() => {
    let cancelled = false;
    setTemplates({ status: 'loading' });
    api<WireTemplate[]>('/api/templates')
      .then(({ data, meta }) => {
        if (cancelled) return;
        setTemplates({ status: 'ready', list: data });
        dispatch({ type: 'defaultsLoaded', defaults: meta.defaults as TemplateDefaults });
      })
      .catch(() => !cancelled && setTemplates({ status: 'failed' }));
    return () => {
      cancelled = true;
    };
  }, [attempt]);

  // `/new-workspace?template=` (docs/intents.md): that template is chosen from the start.
  const requestedTemplate = intentParams.get('template');
  useEffect(() => {
    if (!requestedTemplate || templates.status !== 'ready') return;
    if (templates.list.some((tpl) => tpl.id === requestedTemplate)) dispatch({ type: 'templateRequested', id: requestedTemplate });
    else showToast(t('intents.unknownTemplate'), 'error');
    intentDone('template');
  }, [requestedTemplate, templates, intentDone, t]);

  // A new step puts the focus on its first field, else on its title (a screen reader announces the step).
  useEffect(() => {
    const field = document.querySelector<HTMLElement>('.wizard [data-autofocus]');
    (field ?? heading.current)?.focus();
    setError(null);
  }, [state.step]);

  const close = () => {
    dispatch({ type: 'reset' });
    navigate('/');
  };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !busy) {
        dispatch({ type: 'reset' });
        navigate('/');
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [busy, navigate]);

  const finish = async () => {
    setBusy(true);
    setError(null);
    try {
      const result = await finishWizard(state, user ? { id: user.id, name: user.name } : null);
      await appDispatch(loadWorkspaces());
      appDispatch(treeReset());
      appDispatch(workspaceSwitched(result.workspace.id));
      if (result.profileFailed) showToast(t('wizard.errors.profile'), 'error');
      else if (state.userName.trim() !== (user?.name ?? '')) void appDispatch(loadCurrentUser());
      if (result.invitesFailed) showToast(result.invitesFailed.status === 429 ? t('wizard.errors.invitesRateLimited') : t('wizard.errors.invites'), 'error');
      dispatch({ type: 'reset' });
      if (result.templatesFailed) {
        // Spec §4: a failed template copy during creation leads home.
        showToast(t('wizard.errors.templates'), 'error');
        navigate('/', { replace: true });
        return;
      }
      showToast(t('wizard.created', { name: result.workspace.name }));
      navigate(result.firstPageId ? `/${result.firstPageId}` : '/', { replace: true });
    } catch (failure) {
      setError(createError(t, failure));
      setBusy(false);
    }
  };

  const steps = stepsFor(state.config);
  const index = steps.indexOf(state.step);
  const isLast = nextStep(state.step, state.config) === 'finish';
  const ready = canProceed(state) && !busy;
  const onNext = () => {
    if (!ready) return;
    if (isLast) void finish();
    else dispatch({ type: 'next' });
  };
  const props = { state, dispatch };
  const step = state.step;
  // The first answer decides how many steps follow (4 to 6): until it is given, no total, so
  // the total shown never changes (docs/web-app.md).
  const pathKnown = step !== WIZARD_STEPS[0];
  const progress = pathKnown ? t('wizard.progress', { current: index + 1, total: steps.length }) : t('wizard.progressFirst');

  return (
    <WizardModal label={t('wizard.title')}>
      <header className="wizard-top">
        <span className="wizard-brand">{t('wizard.title')}</span>
        <ol className="wizard-progress" aria-label={progress}>
          {(pathKnown ? steps : [step]).map((s, i) => (
            <li key={s} className={i < index ? 'is-done' : i === index ? 'is-current' : undefined} />
          ))}
        </ol>
        <Button kind="flat" size="xs" className="wizard-close" aria-label={t('wizard.close')} title={t('wizard.close')} disabled={busy} onClick={close}>
          <CloseIcon size={18} />
        </Button>
      </header>
      <form
        className="wizard-body"
        onSubmit={(event) => {
          event.preventDefault();
          onNext();
        }}
      >
        <div className="wizard-card" data-step={step}>
          <p className="wizard-step-count">{progress}</p>
          <h1 className="wizard-title" tabIndex={-1} ref={heading}>
            {t(`wizard.${step}.title`)}
          </h1>
          <p className="wizard-subtitle">{t(`wizard.${step}.subtitle`)}</p>
          <div className="wizard-content">
            {step === 'selectType' && <SelectType {...props} />}
            {step === 'selectSize' && <SelectSize {...props} />}
            {step === 'aboutCompany' && <AboutCompany {...props} />}
            {step === 'selectTemplates' && <SelectTemplates {...props} templates={templates} retry={() => setAttempt((n) => n + 1)} />}
            {step === 'profileSettings' && <ProfileSettings {...props} />}
            {step === 'sharing' && <Sharing {...props} />}
          </div>
          {error && (
            <p className="wizard-error" role="alert">
              {error}
            </p>
          )}
          <footer className="wizard-actions">
            {index > 0 ? (
              <Button kind="flat" size="m" disabled={busy} onClick={() => dispatch({ type: 'back' })}>
                {t('wizard.back')}
              </Button>
            ) : (
              <span />
            )}
            <Button type="submit" kind="solid" size="m" disabled={!ready} aria-busy={busy || undefined}>
              {busy ? t('wizard.creating') : isLast ? t('wizard.create') : t('wizard.next')}
            </Button>
          </footer>
        </div>
      </form>
    </WizardModal>
  );
}

/** The wizard covers the app: a modal over it (focus held inside, the app behind inert). */
function WizardModal({ label, children }: { label: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  useModal(box);
  return createPortal(
    <div ref={box} className="wizard" role="dialog" aria-modal="true" aria-label={label}>
      {children}
    </div>,
    document.body,
  );
}

export default WizardScreen;
