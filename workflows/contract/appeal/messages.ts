// The appeal phase's message (docs/protocol.md §8): after a panel's tally the Client or the Worker
// appeals or waives; and the first tally standing once nobody may appeal it any more.
import { appealSignal, appealUpdate, type AppealInput } from '../../definitions';
import { appealBond, firstTallyFinal } from '../../rules/appeal';
import { contractAppealEvent } from '../../rules/event-constructors';
import { lockPartyBond } from '../bonds';
import { callerOf } from '../checks';
import { delegationOf } from '../delegation';
import { recheck, untilPanelSettled, type MessageSpec } from '../message-spec';
import type { Contract } from '../state';
import { appealPartyOf, validateAppeal } from './validators';

/** The first tally stands once nobody may appeal it any more: the main loop then settles it. */
export function settleUnappealed(c: Contract): void {
  const window = c.appeal.window;
  if (c.decision !== null || window === null || !firstTallyFinal(window, Date.now())) return;
  c.decide({
    kind: 'resolve',
    source: 'panel-tally',
    criteriaMet: [...window.firstOutcome],
    actor: 'system',
  });
}

/**
 * The Client or the Worker after a panel's tally: a waiver (the tally settles once every party that
 * may appeal has waived), or an appeal — the Appeal Bond locked (appeal-deadline waits meanwhile),
 * `disputed`, an appeal panel drawn by the main loop; the answer names it, or says it is pending.
 */
export const appeal: MessageSpec<AppealInput> = {
  message: 'appeal',
  signal: appealSignal,
  update: appealUpdate,
  validate: validateAppeal,
  run: async (c, input) => {
    recheck(c, input, validateAppeal);
    const party = appealPartyOf(c, input)!;
    const caller = callerOf(input)!;
    if (input.waive === true) {
      c.appeal.waived(party);
      c.record(contractAppealEvent(c.eventContext(caller, delegationOf(input)), { party, appealBond: null }));
      settleUnappealed(c);
      return;
    }
    const amount = appealBond(c.amountAtStake, c.params);
    const bond = await lockPartyBond(c, 'appeal', caller, amount, delegationOf(input));
    c.record(contractAppealEvent(c.eventContext(caller, delegationOf(input)), { party, appealBond: amount }));
    // The first panel is kept, an appeal panel is due; `disputed`.
    c.panel.appealRound(Date.now());
    c.appeal.appealed(party, bond);
    await untilPanelSettled(c);
  },
};
