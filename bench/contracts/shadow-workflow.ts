// The shadow of a contract path, for bench/contracts only: the same Updates in the same order (the
// first sent with the start), a deadline timer started while waiting for each later message and
// cancelled by it, the same number of activities per message and at the end, and a search-attribute
// upsert per message, all with no-op bodies. What it costs is Temporal's share alone.
import {
  condition,
  defineUpdate,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { ShadowActivities } from './shadow-activities';

const { noop } = proxyActivities<ShadowActivities>({ startToCloseTimeout: '1 minute' });
const local = proxyLocalActivities<ShadowActivities>({ startToCloseTimeout: '1 minute' });

export interface ShadowShape {
  /** Activities each Update runs, by Update name. */
  activities: Record<string, number>;
  /** How many Updates the path receives in all (a name may repeat: votes). */
  messages: number;
  /** Activities after the last message (settle, close the panel). */
  finalActivities: number;
  /** Whether the end upserts the status once more. */
  finalUpsert: boolean;
  /** Local activities each Update runs, by Update name (none when absent). */
  localActivities?: Record<string, number>;
  /** A deadline (epoch ms) that ends the contract when no further message came: what it runs then. */
  deadline?: { at: number; localActivities: number; activities: number };
}

/** FDP happy path: created (escrow), accept (stake), deliver, approve; settle at the end. */
export const FDP_SHAPE: ShadowShape = {
  activities: { created: 1, accept: 1, deliver: 0, approve: 0 },
  messages: 4,
  finalActivities: 1,
  finalUpsert: true,
};

/** Dispute with three votes: the dispute locks its bond, lists eligible agents and opens the panel. */
export const DISPUTE_SHAPE: ShadowShape = {
  activities: { created: 1, accept: 1, deliver: 0, dispute: 3, vote: 1 },
  messages: 7,
  finalActivities: 2,
  finalUpsert: false,
};

export const shadowUpdate = (name: string) => defineUpdate<string>(name);
const DEADLINE = '1 hour';

async function run(activities: number, locals = 0): Promise<void> {
  for (let i = 0; i < locals; i++) await local.noop();
  for (let i = 0; i < activities; i++) await noop();
}

export async function shadowContract(shape: ShadowShape): Promise<string> {
  let received = 0;
  for (const [name, activities] of Object.entries(shape.activities)) {
    setHandler(shadowUpdate(name), async () => {
      await run(activities, shape.localActivities?.[name]);
      upsertSearchAttributes({ ContractStatus: [name] });
      received += 1;
      return name;
    });
  }
  await condition(() => received >= 1);
  const { deadline } = shape;
  for (let next = 2; next <= shape.messages; next++) {
    const wait = deadline ? Math.max(0, deadline.at - Date.now()) : DEADLINE;
    if (await condition(() => received >= next, wait)) continue;
    if (!deadline) return 'deadline';
    await run(0, deadline.localActivities);
    upsertSearchAttributes({ ContractStatus: ['deadline'] });
    await run(deadline.activities);
    return 'deadline';
  }
  await run(shape.finalActivities);
  if (shape.finalUpsert) upsertSearchAttributes({ ContractStatus: ['settled'] });
  return 'settled';
}
