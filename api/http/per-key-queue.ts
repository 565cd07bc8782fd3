// One operation at a time per key in this process (api/routes/eligibility.ts: per agent): an agent's concurrent eligibility locks and
// unlocks read its holds and change them, so run together they would race for the same holds. Across
// API processes the ledger itself refuses the loser (a hold already resolved), answered as a 409.
export class PerKeyQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(work, work);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
