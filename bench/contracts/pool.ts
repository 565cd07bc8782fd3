/** Runs `count` jobs, `concurrency` at a time; returns the wall-clock seconds. */
export async function pool(
  count: number,
  concurrency: number,
  job: (i: number) => Promise<void>,
): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) await job(next++);
    }),
  );
  return (performance.now() - start) / 1000;
}
