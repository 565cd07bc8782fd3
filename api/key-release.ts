// Who may read which key (SPEC §9): the materials key goes to the matched Worker, the delivery key
// to the Client, and both to the drawn Backup Agents (a panel exists in privacy-preserving mode only
// after a dispute, so "drawn" covers both modes). Nobody else, whatever else they know.
import type { KeyKind } from './vault';
import { roleOf } from './contract-views';
import type { ContractView } from '../workflows/definitions';

export function mayReadKey(view: ContractView, caller: string, kind: KeyKind): boolean {
  const role = roleOf(view, caller);
  if (role === 'backup-agent') return true;
  if (kind === 'materials') return role === 'worker' && view.status !== 'created';
  return role === 'client';
}
