// The activity that appends a contract's (or a milestone's) outcome records to the public log
// (docs/reputation.md §1). Idempotent: the store writes each party's record once.
import type { OutcomeLog } from '../store/outcomes';
import type { OutcomeActivities } from '../workflows/activity-interfaces';

export function createOutcomeActivities({ outcomes }: { outcomes: OutcomeLog }): OutcomeActivities {
  return {
    appendOutcomes: (append) => outcomes.append(append),
  };
}
