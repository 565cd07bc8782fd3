// What a contract's view holds that no message changes any more, remembered from the views the API
// reads, so an Update's answered view (workflows/contract/receipt.ts) can be
// completed without a query of the workflow: the task description and the acceptance criteria (fixed
// at creation), and the quotes (an auction's, once bidding has closed; a fixed-price contract has
// none). Contract IDs are never reused, so an entry never goes stale. Per API process and bounded in
// entries and in characters (a task description may hold 100k): the oldest entries go first; a
// forgotten contract is simply read again.
import type { AnsweredView, ContractView } from '../../workflows/definitions';

const DEFAULT_ENTRIES = 10_000;
const DEFAULT_CHARACTERS = 32_000_000;

interface Facts {
  taskDescription: string;
  acceptanceCriteria: ContractView['acceptanceCriteria'];
  /** Undefined while an auction's bidding is open (its quotes still change). */
  quotes: ContractView['quotes'] | undefined;
  size: number;
}

function quotesIfClosed(view: ContractView): ContractView['quotes'] | undefined {
  return view.contractType === 'auction' && view.status === 'created' ? undefined : view.quotes;
}

function sizeOf(view: ContractView, quotes: ContractView['quotes'] | undefined): number {
  const criteria = view.acceptanceCriteria.reduce((n, c) => n + JSON.stringify(c).length, 0);
  const quoted = (quotes ?? []).reduce((n, q) => n + 100 + (q.message?.length ?? 0), 0);
  return view.taskDescription.length + criteria + quoted;
}

export class ContractFactsMemo {
  private readonly facts = new Map<string, Facts>();
  private characters = 0;

  constructor(
    private readonly maxEntries = DEFAULT_ENTRIES,
    private readonly maxCharacters = DEFAULT_CHARACTERS,
  ) {}

  /** Remembers the facts of a created contract from any view of it (an auction's quotes once closed). */
  remember(view: ContractView): void {
    if (!view.created) return;
    const known = this.facts.get(view.contractId);
    if (known !== undefined && (known.quotes !== undefined || view.status === 'created')) return;
    const quotes = quotesIfClosed(view);
    if (known !== undefined) this.forget(view.contractId, known);
    const size = sizeOf(view, quotes);
    if (size > this.maxCharacters) return;
    while (
      this.facts.size > 0 &&
      (this.facts.size >= this.maxEntries || this.characters + size > this.maxCharacters)
    ) {
      const [oldest, entry] = this.facts.entries().next().value!;
      this.forget(oldest, entry);
    }
    this.facts.set(view.contractId, {
      taskDescription: view.taskDescription,
      acceptanceCriteria: view.acceptanceCriteria,
      quotes,
      size,
    });
    this.characters += size;
  }

  /** The contract's acceptance criteria, if seen before. */
  criteriaOf(contractId: string): ContractView['acceptanceCriteria'] | undefined {
    return this.facts.get(contractId)?.acceptanceCriteria;
  }

  /** The whole view an Update answered, when every left-out field is known; undefined otherwise. */
  complete(answered: AnsweredView): ContractView | undefined {
    const known = this.facts.get(answered.contractId);
    const quotes = answered.contractType === 'auction' ? known?.quotes : [];
    if (known === undefined || quotes === undefined) return undefined;
    // Spread over the answer: each field keeps its place in the view's key order.
    return {
      ...answered,
      taskDescription: known.taskDescription,
      acceptanceCriteria: known.acceptanceCriteria,
      quotes,
    };
  }

  private forget(contractId: string, entry: Facts): void {
    this.facts.delete(contractId);
    this.characters -= entry.size;
  }
}
