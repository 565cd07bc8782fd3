// A contract's shape in miniature, for the worker-slots test: each Update waits on a local activity
// (as a ledger posting does) inside the workflow task that took it, and a query reads the state.
import { condition, defineQuery, defineUpdate, proxyLocalActivities, setHandler } from '@temporalio/workflow';

export const postUpdate = defineUpdate<number, [number]>('post');
export const postedQuery = defineQuery<number>('posted');

export interface PostingActivities {
  post(ms: number): Promise<void>;
}

const { post } = proxyLocalActivities<PostingActivities>({ startToCloseTimeout: '10 seconds' });

export async function postingWorkflow(postingMs: number, posts: number): Promise<number> {
  let posted = 0;
  setHandler(postUpdate, async (amount) => {
    await post(postingMs);
    posted += amount;
    return posted;
  });
  setHandler(postedQuery, () => posted);
  await condition(() => posted >= posts);
  return posted;
}
