// A stream's wait between two polls that ends early when the client goes away.
import type { SSEStreamingApi } from 'hono/streaming';

/** `pause(ms)` resolves after `ms`, or at once when the client goes away (one abort listener). */
export function pauser(stream: SSEStreamingApi): (ms: number) => Promise<void> {
  let wake: (() => void) | undefined;
  stream.onAbort(() => wake?.());
  return (ms) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
}
