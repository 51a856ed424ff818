import type { TemplateDefaults } from '../../../schema/template';
import {
  canProceed,
  initialWizardState,
  isWorkspaceNameValid,
  nextStep,
  previousStep,
  stepsFor,
  templateSetOf,
  wizardReducer,
  type WizardAction,
  type WizardState,
} from './wizardState';

const DEFAULTS: TemplateDefaults = {
  personal: 'journal',
  study: 'study-notes',
  marketing: 'marketing-plan',
  it: 'product-roadmap',
  sell: 'sales-funnel',
  creativity: 'project-plan',
  other: 'meeting-notes',
};

const run = (actions: WizardAction[], from: WizardState = { ...initialWizardState('Анна'), defaults: DEFAULTS }) => actions.reduce(wizardReducer, from);

describe('wizard transitions', () => {
  test('work: selectType → selectSize → aboutCompany → selectTemplates → profileSettings → sharing → finish', () => {
    let s = run([{ type: 'kindChosen', kind: 'work' }]);
    expect(s.config).toMatchObject({ purpose: 'work', isPrivate: false });
    const visited = [s.step];
    s = wizardReducer(s, { type: 'next' });
    visited.push(s.step);
    s = run([{ type: 'sizeChosen', membersCount: 'medium' }, { type: 'next' }], s);
    visited.push(s.step);
    s = run([{ type: 'companyTypeChosen', companyType: 'it' }, { type: 'companyRoleChosen', role: 'manager' }, { type: 'next' }], s);
    visited.push(s.step);
    s = run([{ type: 'next' }], s);
    visited.push(s.step);
    s = run([{ type: 'nameChanged', name: 'Команда' }, { type: 'next' }], s);
    visited.push(s.step);
    expect(visited).toEqual(['selectType', 'selectSize', 'aboutCompany', 'selectTemplates', 'profileSettings', 'sharing']);
    expect(nextStep('sharing', s.config)).toBe('finish');
    // `next` on the last step stays there: finishing is the screen's job.
    expect(wizardReducer(s, { type: 'next' }).step).toBe('sharing');
  });

  test('other purpose, not private («Для учёбы»): no aboutCompany, sharing kept', () => {
    const s = run([{ type: 'kindChosen', kind: 'study' }]);
    expect(s.config).toMatchObject({ purpose: 'other', isPrivate: false });
    expect(stepsFor(s.config)).toEqual(['selectType', 'selectSize', 'selectTemplates', 'profileSettings', 'sharing']);
    expect(nextStep('selectSize', s.config)).toBe('selectTemplates');
    expect(previousStep('selectTemplates', s.config)).toBe('selectSize');
  });

  test('private («Для себя»): no aboutCompany, profileSettings finishes', () => {
    const s = run([{ type: 'kindChosen', kind: 'personal' }]);
    expect(s.config).toMatchObject({ purpose: 'other', isPrivate: true });
    expect(stepsFor(s.config)).toEqual(['selectType', 'selectSize', 'selectTemplates', 'profileSettings']);
    expect(nextStep('profileSettings', s.config)).toBe('finish');
  });

  test('work that is private would skip sharing but keep aboutCompany', () => {
    const config = { ...initialWizardState().config, purpose: 'work' as const, isPrivate: true };
    expect(stepsFor(config)).toEqual(['selectType', 'selectSize', 'aboutCompany', 'selectTemplates', 'profileSettings']);
  });

  test('back goes one step, and not before the first', () => {
    let s = run([{ type: 'kindChosen', kind: 'work' }, { type: 'next' }, { type: 'sizeChosen', membersCount: 'small' }, { type: 'next' }]);
    expect(s.step).toBe('aboutCompany');
    s = wizardReducer(s, { type: 'back' });
    expect(s.step).toBe('selectSize');
    s = wizardReducer(s, { type: 'back' });
    expect(s.step).toBe('selectType');
    expect(wizardReducer(s, { type: 'back' })).toBe(s);
    // Answers are kept when going back.
    expect(s.config.aboutCompany.membersCount).toBe('small');
  });

  test('back from selectTemplates skips aboutCompany once the purpose is no longer work', () => {
    let s = run([{ type: 'kindChosen', kind: 'work' }, { type: 'next' }, { type: 'sizeChosen', membersCount: 'small' }, { type: 'next' }]);
    s = run([{ type: 'back' }, { type: 'back' }, { type: 'kindChosen', kind: 'study' }, { type: 'next' }, { type: 'next' }], s);
    expect(s.step).toBe('selectTemplates');
    expect(wizardReducer(s, { type: 'back' }).step).toBe('selectSize');
  });

  test('a step without its answers does not go on', () => {
    const s = run([]);
    expect(canProceed(s)).toBe(false);
    expect(wizardReducer(s, { type: 'next' }).step).toBe('selectType');
    const size = run([{ type: 'kindChosen', kind: 'work' }, { type: 'next' }]);
    expect(wizardReducer(size, { type: 'next' }).step).toBe('selectSize');
    const about = run([{ type: 'sizeChosen', membersCount: 'big' }, { type: 'next' }, { type: 'companyTypeChosen', companyType: 'sell' }], size);
    expect(about.step).toBe('aboutCompany');
    expect(wizardReducer(about, { type: 'next' }).step).toBe('aboutCompany');
  });

  test('reset cleans the config (keeps the loaded defaults)', () => {
    const s = run([{ type: 'kindChosen', kind: 'work' }, { type: 'next' }, { type: 'reset' }]);
    expect(s.step).toBe('selectType');
    expect(s.config).toEqual(initialWizardState().config);
    expect(s.defaults).toBe(DEFAULTS);
  });
});

describe('templates', () => {
  test('the default of the set is preselected, also when the defaults arrive later', () => {
    expect(run([{ type: 'kindChosen', kind: 'personal' }]).config.templates).toEqual(['journal']);
    expect(run([{ type: 'kindChosen', kind: 'study' }]).config.templates).toEqual(['study-notes']);
    expect(run([{ type: 'kindChosen', kind: 'work' }]).config.templates).toEqual(['meeting-notes']);
    const early = run(
      [
        { type: 'kindChosen', kind: 'personal' },
        { type: 'defaultsLoaded', defaults: DEFAULTS },
      ],
      initialWizardState(),
    );
    expect(early.config.templates).toEqual(['journal']);
  });

  test('the set follows purpose, privacy and company type', () => {
    expect(templateSetOf(run([{ type: 'kindChosen', kind: 'personal' }]).config)).toBe('personal');
    expect(templateSetOf(run([{ type: 'kindChosen', kind: 'study' }]).config)).toBe('study');
    expect(
      templateSetOf(
        run([
          { type: 'kindChosen', kind: 'work' },
          { type: 'companyTypeChosen', companyType: 'marketing' },
        ]).config,
      ),
    ).toBe('marketing');
  });

  test('changing the type or the company answers resets the chosen templates to the default', () => {
    let s = run([
      { type: 'kindChosen', kind: 'work' },
      { type: 'companyTypeChosen', companyType: 'it' },
    ]);
    expect(s.config.templates).toEqual(['product-roadmap']);
    s = run(
      [
        { type: 'templateToggled', id: 'wiki' },
        { type: 'templateToggled', id: 'product-roadmap' },
        { type: 'templateToggled', id: 'meeting-notes' },
      ],
      s,
    );
    expect(s.config.templates).toEqual(['wiki', 'meeting-notes']);
    // The same answer again changes nothing.
    expect(wizardReducer(s, { type: 'companyTypeChosen', companyType: 'it' }).config.templates).toEqual(['wiki', 'meeting-notes']);
    expect(wizardReducer(s, { type: 'kindChosen', kind: 'work' }).config.templates).toEqual(['wiki', 'meeting-notes']);
    expect(wizardReducer(s, { type: 'companyTypeChosen', companyType: 'sell' }).config.templates).toEqual(['sales-funnel']);
    expect(wizardReducer(s, { type: 'companyRoleChosen', role: 'freelancer' }).config.templates).toEqual(['product-roadmap']);
    expect(wizardReducer(s, { type: 'kindChosen', kind: 'personal' }).config.templates).toEqual(['journal']);
    // The size is not a company-type answer that picks templates.
    expect(wizardReducer(s, { type: 'sizeChosen', membersCount: 'bigger' }).config.templates).toEqual(['wiki', 'meeting-notes']);
  });
});

describe('profileSettings and sharing rules', () => {
  test('the workspace name needs 3 characters after trimming', () => {
    expect(isWorkspaceNameValid('')).toBe(false);
    expect(isWorkspaceNameValid('  ab  ')).toBe(false);
    expect(isWorkspaceNameValid('abc')).toBe(true);
    expect(isWorkspaceNameValid('Я и ты')).toBe(true);
    expect(isWorkspaceNameValid('x'.repeat(101))).toBe(false);
  });

  test('profileSettings is blocked by a short name, an upload in progress and an empty own name', () => {
    let s = run([
      { type: 'kindChosen', kind: 'personal' },
      { type: 'next' },
      { type: 'sizeChosen', membersCount: 'smallest' },
      { type: 'next' },
      { type: 'next' },
    ]);
    expect(s.step).toBe('profileSettings');
    s = wizardReducer(s, { type: 'nameChanged', name: 'ab' });
    expect(canProceed(s)).toBe(false);
    s = wizardReducer(s, { type: 'nameChanged', name: 'abc' });
    expect(canProceed(s)).toBe(true);
    s = wizardReducer(s, { type: 'avatarUploading', uploading: true });
    expect(canProceed(s)).toBe(false);
    s = wizardReducer(s, { type: 'avatarChanged', avatar: '/api/file/1' });
    expect(canProceed(s)).toBe(true);
    expect(canProceed(wizardReducer(s, { type: 'userNameChanged', name: '  ' }))).toBe(false);
  });

  test('choosing «Для себя» drops what was typed for invitations', () => {
    const s = run([
      { type: 'kindChosen', kind: 'work' },
      { type: 'invitesChanged', text: 'a@b.ru' },
      { type: 'kindChosen', kind: 'personal' },
    ]);
    expect(s.invites).toBe('');
  });
});

describe('a template a link asked for (/new-workspace?template=)', () => {
  test('stays chosen, first, when the kind changes and the defaults are chosen again; it can be taken out by hand', () => {
    let state = wizardReducer({ ...initialWizardState(), defaults: DEFAULTS }, { type: 'templateRequested', id: 'kb' });
    expect(state.config.templates).toEqual(['kb']);
    state = wizardReducer(state, { type: 'kindChosen', kind: 'personal' });
    expect(state.config.templates).toEqual(['kb', DEFAULTS.personal]);
    state = wizardReducer(state, { type: 'kindChosen', kind: 'study' });
    expect(state.config.templates).toEqual(['kb', DEFAULTS.study]);
    state = wizardReducer(state, { type: 'templateToggled', id: 'kb' });
    expect(state.config.templates).toEqual([DEFAULTS.study]);
  });

  test('asked for the default itself: chosen once', () => {
    let state = wizardReducer({ ...initialWizardState(), defaults: DEFAULTS }, { type: 'templateRequested', id: DEFAULTS.personal });
    state = wizardReducer(state, { type: 'kindChosen', kind: 'personal' });
    expect(state.config.templates).toEqual([DEFAULTS.personal]);
  });
});
