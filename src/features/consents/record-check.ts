import type { FieldProblem } from '../../kernel/errors.ts';
import type { ConsentIntake } from './consent.contract.ts';
import type { RecordableRevision } from './recordable-revisions.ts';

/**
 * What a record names that the revision it names did not offer: services (embedding ids) and
 * categories its banner did not have. `necessary` is always allowed: every choice accepts it,
 * whether or not the revision has necessary services. Since a record names each service at most
 * once, it never names more services than the revision has.
 */
export function recordProblems(intake: Pick<ConsentIntake, 'services' | 'categories' | 'choice' | 'signal'>, revision: RecordableRevision): FieldProblem[] {
  const problems: FieldProblem[] = [];
  // A privacy signal is answered with only what is necessary, never more.
  if (intake.signal && intake.choice !== 'necessary') problems.push({ path: '/choice', message: 'must be necessary when the choice came from a privacy signal' });
  intake.services.forEach((id, index) => {
    if (!revision.services.has(id)) problems.push({ path: `/services/${index}`, message: 'must be a service of the configuration revision the record names' });
  });
  intake.categories.forEach((key, index) => {
    if (key !== 'necessary' && !revision.categories.has(key)) {
      problems.push({ path: `/categories/${index}`, message: 'must be a category of the configuration revision the record names' });
    }
  });
  return problems;
}

/** The problem of a record whose revision the domain does not have. */
export const UNKNOWN_REVISION: FieldProblem = { path: '/revision', message: 'must be the content revision of a configuration this domain published' };
