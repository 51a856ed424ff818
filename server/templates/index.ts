import { TEMPLATE_SETS, type TemplateDefaults, type TemplateSet, type WireTemplate } from '../../schema/template';
import { journal } from './journal';
import { marketingPlan } from './marketingPlan';
import { meetingNotes } from './meetingNotes';
import { productRoadmap } from './productRoadmap';
import { projectPlan } from './projectPlan';
import { salesFunnel } from './salesFunnel';
import { studyNotes } from './studyNotes';
import { todoList } from './todoList';
import type { TemplateDefinition, TemplatePage } from './types';
import { wiki } from './wiki';

/** Every template, in the order the wizard lists them. */
export const TEMPLATES: readonly TemplateDefinition[] = [
  meetingNotes,
  projectPlan,
  wiki,
  studyNotes,
  journal,
  todoList,
  marketingPlan,
  productRoadmap,
  salesFunnel,
];

/** The template preselected for each set (spec §3: one default preselected). */
export const TEMPLATE_DEFAULTS: TemplateDefaults = {
  personal: journal.id,
  study: studyNotes.id,
  marketing: marketingPlan.id,
  it: productRoadmap.id,
  sell: salesFunnel.id,
  creativity: projectPlan.id,
  other: meetingNotes.id,
};

export function findTemplate(id: string): TemplateDefinition | undefined {
  return TEMPLATES.find((template) => template.id === id);
}

export function countPages(page: TemplatePage): number {
  return 1 + (page.children ?? []).reduce((sum, child) => sum + countPages(child), 0);
}

export function presentTemplate(template: TemplateDefinition): WireTemplate {
  return {
    id: template.id,
    contentType: 'Template',
    title: template.title,
    description: template.description,
    icon: template.icon,
    sets: [...template.sets],
    pageCount: countPages(template.root),
  };
}

/** The templates offered in a set, in list order. */
export function templatesOfSet(set: TemplateSet): TemplateDefinition[] {
  return TEMPLATES.filter((template) => template.sets.includes(set));
}

export { TEMPLATE_SETS };
