// Graceful stop of an API process: requests in flight are counted, and once the process stops taking
// requests every new one (on a kept-alive connection; new connections are no longer accepted) is answered
// 503 `shutting_down` with `Connection: close` before anything runs, so its caller retries elsewhere at
// once. A request counts until its handler has answered (an event stream, until its headers: streams are
// long and their clients reconnect).
import { errorBody } from '../api/errors';

/** How long a stopping API waits for its requests in flight (startApiServer's `drainMs` overrides). */
export const DEFAULT_DRAIN_MS = 10_000;

type Fetch = (request: Request, ...rest: never[]) => Response | Promise<Response>;

export class RequestDrain {
  private inFlight = 0;
  private stopping = false;
  private idle: Array<() => void> = [];

  get pending(): number {
    return this.inFlight;
  }

  /** `fetch`, counted, and refused once the drain has begun. */
  wrap<F extends Fetch>(fetch: F): F {
    const counted = async (request: Request, ...rest: never[]) => {
      if (this.stopping) return shuttingDown();
      this.inFlight += 1;
      try {
        return await fetch(request, ...rest);
      } finally {
        this.inFlight -= 1;
        if (this.inFlight === 0) for (const resolve of this.idle.splice(0)) resolve();
      }
    };
    return counted as F;
  }

  /** Stops taking requests; resolves how many were still in flight after `graceMs` (0: all finished). */
  async drain(graceMs: number): Promise<number> {
    this.stopping = true;
    if (this.inFlight > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => this.idle.push(resolve)),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs))),
      ]);
      clearTimeout(timer);
    }
    return this.inFlight;
  }
}

function shuttingDown(): Response {
  return new Response(
    JSON.stringify(errorBody('shutting_down', 'this API process is stopping; retry on another')),
    {
      status: 503,
      headers: { 'Content-Type': 'application/json', 'Retry-After': '1', Connection: 'close' },
    },
  );
}
