// What the agent-feed tests share.
import { setTimeout as sleep } from 'node:timers/promises';

/** Runs `attempt` until it stops throwing (its assertions pass); the last failure after `timeoutMs`. */
export async function until<T>(attempt: () => Promise<T>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await sleep(200);
    }
  }
}
