// The per-contract draw secret (docs/protocol.md §8, docs/security.md): 32 random bytes the service draws at
// creation. The workflow publishes only its sha256 until the panel is drawn, then reveals it in the
// draw record. The answer is an object so the payload codec seals it (bare strings stay readable).
import { randomBytes } from 'node:crypto';
import type { DrawActivities } from '../workflows/activity-interfaces';

export function createDrawActivities(): DrawActivities {
  return {
    async newDrawSecret(): Promise<{ secret: string }> {
      return { secret: randomBytes(32).toString('hex') };
    },
  };
}
