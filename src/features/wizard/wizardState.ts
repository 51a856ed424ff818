import type { CompanyType, TemplateDefaults, TemplateSet } from '../../../schema/template';
import { WORKSPACE_NAME_MAX, WORKSPACE_NAME_MIN } from '../../../schema/workspace';

/** The wizard's steps (spec §2), in their longest order. */
export const WIZARD_STEPS = ['selectType', 'selectSize', 'aboutCompany', 'selectTemplates', 'profileSettings', 'sharing'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

/**
 * The choices of the first step, like Notion's onboarding, and how they map to the spec's
 * config (purpose work | other, isPrivate):
 * - «Для работы» (work): purpose work, not private — a team space; company questions follow, templates by company type;
 * - «Для учёбы» (study): purpose other, not private — classmates can be invited; the study template set;
 * - «Для себя» (personal): purpose other, private — nobody is invited (no sharing step); the privacy template set.
 */
export const WORKSPACE_KINDS = ['work', 'study', 'personal'] as const;
export type WorkspaceKind = (typeof WORKSPACE_KINDS)[number];

export const MEMBERS_COUNTS = ['smallest', 'small', 'medium', 'big', 'bigger', 'biggest'] as const;
export type MembersCount = (typeof MEMBERS_COUNTS)[number];
export const COMPANY_ROLES = ['lead', 'manager', 'member', 'freelancer', 'myself'] as const;
export type CompanyRole = (typeof COMPANY_ROLES)[number];

/** Spec §3 "Workspace config (wizard)". */
export interface WizardConfig {
  name: string;
  avatar: string | null;
  purpose: 'work' | 'other' | null;
  isPrivate: boolean;
  aboutCompany: { type: CompanyType | null; role: CompanyRole | null; membersCount: MembersCount | null };
  /** Template ids; the default of the current set is preselected. */
  templates: string[];
}

/** The roles an invitee may be given (a member by default). */
export const INVITE_ROLES = ['admin', 'participant', 'guest'] as const;
export type InviteRole = (typeof INVITE_ROLES)[number];

/** The role an invitee joins with: the one chosen, else a member. */
export const inviteRoleOf = (state: Pick<WizardState, 'inviteRoles'>, email: string): InviteRole => state.inviteRoles[email] ?? 'participant';

export interface WizardState {
  step: WizardStep;
  config: WizardConfig;
  /** The signed-in user's own name (profileSettings). */
  userName: string;
  /** What was typed into the invite field (sharing). */
  invites: string;
  /** The role chosen for an invitee (by address); one not named here joins as a member. */
  inviteRoles: Record<string, InviteRole>;
  avatarUploading: boolean;
  /** From GET /api/templates; null until loaded. */
  defaults: TemplateDefaults | null;
  /** A template a link asked for (`/new-workspace?template=`): chosen whatever the defaults are. */
  requestedTemplate?: string | null;
}

export type WizardAction =
  | { type: 'kindChosen'; kind: WorkspaceKind }
  | { type: 'sizeChosen'; membersCount: MembersCount }
  | { type: 'companyTypeChosen'; companyType: CompanyType }
  | { type: 'companyRoleChosen'; role: CompanyRole }
  | { type: 'defaultsLoaded'; defaults: TemplateDefaults }
  | { type: 'templateToggled'; id: string }
  | { type: 'templateRequested'; id: string }
  | { type: 'nameChanged'; name: string }
  | { type: 'userNameChanged'; name: string }
  | { type: 'avatarUploading'; uploading: boolean }
  | { type: 'avatarChanged'; avatar: string | null }
  | { type: 'invitesChanged'; text: string }
  | { type: 'inviteRoleChosen'; email: string; role: InviteRole }
  | { type: 'next' }
  | { type: 'back' }
  | { type: 'reset'; userName?: string };

export function initialWizardState(userName = ''): WizardState {
  return {
    step: 'selectType',
    config: { name: '', avatar: null, purpose: null, isPrivate: false, aboutCompany: { type: null, role: null, membersCount: null }, templates: [] },
    userName,
    invites: '',
    inviteRoles: {},
    avatarUploading: false,
    defaults: null,
  };
}

/** The kind the config stands for (null before the first answer). */
export function kindOf(config: WizardConfig): WorkspaceKind | null {
  if (config.purpose === null) return null;
  if (config.purpose === 'work') return 'work';
  return config.isPrivate ? 'personal' : 'study';
}

/** Spec §4: templates depend on purpose: a privacy set, a study set, otherwise by company type. */
export function templateSetOf(config: WizardConfig): TemplateSet {
  if (config.isPrivate) return 'personal';
  if (config.purpose !== 'work') return 'study';
  return config.aboutCompany.type ?? 'other';
}

/** The steps this config goes through: aboutCompany only for purpose work, sharing only when not private. */
export function stepsFor(config: WizardConfig): WizardStep[] {
  return WIZARD_STEPS.filter((step) => (step === 'aboutCompany' ? config.purpose === 'work' : step === 'sharing' ? !config.isPrivate : true));
}

/** The step after this one, or 'finish' when the workspace is to be created. */
export function nextStep(step: WizardStep, config: WizardConfig): WizardStep | 'finish' {
  const steps = stepsFor(config);
  return steps[steps.indexOf(step) + 1] ?? 'finish';
}

/** The step before (back goes one step); null on the first. */
export function previousStep(step: WizardStep, config: WizardConfig): WizardStep | null {
  const steps = stepsFor(config);
  const index = steps.indexOf(step);
  return index > 0 ? steps[index - 1] : null;
}

/** Spec §5: longer than 2 characters (minimum 3), at most 100, after trimming. */
export function isWorkspaceNameValid(name: string): boolean {
  const length = name.trim().length;
  return length >= WORKSPACE_NAME_MIN && length <= WORKSPACE_NAME_MAX;
}

/** May the wizard go on from its current step? */
export function canProceed(state: WizardState): boolean {
  const { config } = state;
  switch (state.step) {
    case 'selectType':
      return config.purpose !== null;
    case 'selectSize':
      return config.aboutCompany.membersCount !== null;
    case 'aboutCompany':
      return config.aboutCompany.type !== null && config.aboutCompany.role !== null;
    case 'selectTemplates':
      return true;
    case 'profileSettings':
      return isWorkspaceNameValid(config.name) && !state.avatarUploading && state.userName.trim() !== '';
    case 'sharing':
      return true;
  }
}

/** The chosen templates back to the one default of the config's set (spec §4). */
function withDefaultTemplates(state: WizardState, config: WizardConfig): WizardState {
  const defaultId = state.defaults?.[templateSetOf(config)];
  const chosen = [...(state.requestedTemplate ? [state.requestedTemplate] : []), ...(defaultId && defaultId !== state.requestedTemplate ? [defaultId] : [])];
  return { ...state, config: { ...config, templates: chosen } };
}

const KIND_CONFIG: Record<WorkspaceKind, Pick<WizardConfig, 'purpose' | 'isPrivate'>> = {
  work: { purpose: 'work', isPrivate: false },
  study: { purpose: 'other', isPrivate: false },
  personal: { purpose: 'other', isPrivate: true },
};

/** The wizard's transitions, as a pure function (used with useReducer). */
export function wizardReducer(state: WizardState, action: WizardAction): WizardState {
  const { config } = state;
  switch (action.type) {
    case 'kindChosen': {
      if (kindOf(config) === action.kind) return state;
      const next = { ...config, ...KIND_CONFIG[action.kind] };
      // A private workspace is one person's: nobody is invited.
      return { ...withDefaultTemplates(state, next), invites: next.isPrivate ? '' : state.invites };
    }
    case 'sizeChosen':
      return { ...state, config: { ...config, aboutCompany: { ...config.aboutCompany, membersCount: action.membersCount } } };
    case 'companyTypeChosen':
      if (config.aboutCompany.type === action.companyType) return state;
      return withDefaultTemplates(state, { ...config, aboutCompany: { ...config.aboutCompany, type: action.companyType } });
    case 'companyRoleChosen':
      if (config.aboutCompany.role === action.role) return state;
      return withDefaultTemplates(state, { ...config, aboutCompany: { ...config.aboutCompany, role: action.role } });
    case 'defaultsLoaded': {
      const loaded = { ...state, defaults: action.defaults };
      return config.templates.length === 0 && config.purpose !== null ? withDefaultTemplates(loaded, config) : loaded;
    }
    case 'templateRequested':
      return {
        ...state,
        requestedTemplate: action.id,
        config: { ...config, templates: config.templates.includes(action.id) ? config.templates : [action.id, ...config.templates] },
      };
    case 'templateToggled': {
      const chosen = config.templates.includes(action.id) ? config.templates.filter((id) => id !== action.id) : [...config.templates, action.id];
      return { ...state, config: { ...config, templates: chosen } };
    }
    case 'nameChanged':
      return { ...state, config: { ...config, name: action.name } };
    case 'userNameChanged':
      return { ...state, userName: action.name };
    case 'avatarUploading':
      return { ...state, avatarUploading: action.uploading };
    case 'avatarChanged':
      return { ...state, avatarUploading: false, config: { ...config, avatar: action.avatar } };
    case 'invitesChanged':
      return { ...state, invites: action.text };
    case 'inviteRoleChosen':
      return { ...state, inviteRoles: { ...state.inviteRoles, [action.email]: action.role } };
    case 'next': {
      if (!canProceed(state)) return state;
      const step = nextStep(state.step, config);
      return step === 'finish' ? state : { ...state, step };
    }
    case 'back': {
      const step = previousStep(state.step, config);
      return step ? { ...state, step } : state;
    }
    case 'reset':
      return { ...initialWizardState(action.userName ?? state.userName), defaults: state.defaults };
  }
}
