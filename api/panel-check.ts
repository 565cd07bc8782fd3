// docs/protocol.md §8: an agent drawn on a panel keeps its eligibility stake until that panel is tallied. The
// contract workflow seats a drawn panel in the ledger database's panel registry and frees it at the
// tally (activities/panel-activities.ts), so the API reads it here without asking Temporal.
import type { Ledger } from '../activities/ledger';
import type { EligibilityUnlockCheck } from './deps';
import { conflict } from './errors';

export function notOnOpenPanel(ledger: Ledger): EligibilityUnlockCheck {
  return async (address) => {
    const contracts = await ledger.panels.openPanelsOf(address);
    if (contracts.length > 0) {
      throw conflict(
        'the eligibility stake stays locked while its agent sits on an open panel',
        { contracts },
        'on_open_panel',
      );
    }
  };
}
