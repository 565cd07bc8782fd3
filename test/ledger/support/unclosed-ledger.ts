// A process that opens the SQLite ledger on its thread, sends one deposit and never closes the
// ledger: the call in flight must keep the process alive until answered, and the idle thread must
// then let it end. Usage: node --import tsx unclosed-ledger.ts <ledger file>
import { agentOwner, openLedger } from '../../../store/ledger';

void openLedger({ kind: 'sqlite', path: process.argv[2]!, thread: true }).then((ledger) =>
  ledger
    .deposit({ id: 'd1', asset: 'USDC', to: agentOwner('0x' + 'a'.repeat(40)), amount: 5n })
    .then((result) => process.stdout.write(result.replayed ? 'replayed' : 'applied')),
);
