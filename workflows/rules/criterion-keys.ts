// Criterion keys: the content-free names (`c1` … `c10`) events and views use for the criteria.
export const MAX_CRITERION_KEYS = 10;

/** The content-free name of a criterion: `c1` … `c10` for 0-based indexes 0 … 9. */
export function criterionKey(index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_CRITERION_KEYS) {
    throw new RangeError(
      `criterion index must be an integer in [0, ${MAX_CRITERION_KEYS - 1}], got ${index}`,
    );
  }
  return `c${index + 1}`;
}

export function criterionKeys(count: number): string[] {
  return Array.from({ length: count }, (_, i) => criterionKey(i));
}

/** The 0-based index of a key (`c3` → 2); throws on anything that is not a key. */
export function criterionIndexOfKey(key: string): number {
  const m = /^c([1-9]|10)$/.exec(key);
  if (!m) throw new RangeError(`not a criterion key (c1 … c10): ${JSON.stringify(key)}`);
  return Number(m[1]) - 1;
}
