// Logs when this process's event loop was held: a worker whose loop stalls past a workflow task's 10 s
// timeout loses the tasks it had taken, and the log line is how an operator tells that from a lost poll.
const CHECK_EVERY_MS = 500;

/** Starts watching; the returned function stops it. Stalls of `thresholdMs` or more are logged. */
export function watchEventLoopStalls(
  log: (line: string) => void = (line) => console.warn(line),
  thresholdMs = 2_000,
): () => void {
  let expected = Date.now() + CHECK_EVERY_MS;
  const timer = setInterval(() => {
    const now = Date.now();
    const late = now - expected;
    if (late >= thresholdMs) log(`event loop stalled ${late} ms (until ${new Date(now).toISOString()})`);
    expected = now + CHECK_EVERY_MS;
  }, CHECK_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
