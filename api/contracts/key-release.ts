// Who may read which key (docs/protocol.md §9): the workflow's view names them (`keyReaders`): the materials key
// goes to the matched Worker, the delivery key to the Client, and both to the drawn Backup Agents —
// in standard mode from the draw at delivery, in privacy-preserving mode only once the Client
// disputed (no panel exists before). Nobody else, whatever else they know.
import type { KeyKind } from '../../store/vault/sqlite';
import type { ContractView } from '../../workflows/definitions';

export function mayReadKey(view: ContractView, caller: string, kind: KeyKind): boolean {
  return (view.keyReaders[kind] as readonly string[]).includes(caller);
}
