import type { TFunction } from 'i18next';
import type { ImportProblem } from '../../../schema/importProblems';

/** A problem of an import said in Russian, by its code (`export.problems.*`); the server's English message where the app has no words for it. */
export function importProblemText(t: TFunction, problem: ImportProblem): string {
  return t(`export.problems.${problem.code}`, { ...problem.params, defaultValue: problem.message });
}
