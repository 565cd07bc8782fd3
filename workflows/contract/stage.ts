// One delivery's way from the work to a settled verdict: the phases after the match, each its own
// state. A contract is one stage today; a contract paid in stages (milestones) keeps one per stage,
// while the match, the escrow and the operator stay the contract's.
import type { Deadlines } from '../rules/deadlines';
import { AppealPhase } from './appeal/state';
import { PanelPhase } from './panel/state';
import type { Pulse, ReadOnly } from './phase';
import { ReviewPhase } from './review/state';
import { SettlementPhase } from './settlement/state';
import { WorkPhase } from './work/state';

export class Stage {
  readonly work: ReadOnly<WorkPhase>;
  readonly review: ReadOnly<ReviewPhase>;
  readonly panel: ReadOnly<PanelPhase>;
  readonly appeal: ReadOnly<AppealPhase>;
  readonly settlement: ReadOnly<SettlementPhase>;

  constructor(pulse: Pulse, deadlines: Readonly<Deadlines>) {
    this.work = new WorkPhase(pulse, deadlines);
    this.review = new ReviewPhase(pulse);
    this.panel = new PanelPhase(pulse);
    this.appeal = new AppealPhase(pulse);
    this.settlement = new SettlementPhase(pulse);
  }
}
