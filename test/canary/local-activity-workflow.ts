// A contract's shape in miniature, for the worker-slots test: each Update waits on a local activity
// (as a ledger posting does) inside the workflow task that took it, then writes its read model through a
// second local activity before it answers (as workflows/contract/read-model.ts does). Readers read that
// store; the query stays registered for operators only.
import {
  allHandlersFinished,
  condition,
  defineQuery,
  defineUpdate,
  proxyLocalActivities,
  setHandler,
} from '@temporalio/workflow';

export const postUpdate = defineUpdate<number, [number]>('post');
export const postedQuery = defineQuery<number>('posted');

export interface PostingActivities {
  post(ms: number): Promise<void>;
  /** Keeps `posted` for the workflow's id when `version` is above the stored one. */
  writeView(view: { workflowId: string; version: number; posted: number }): Promise<void>;
}

const { post, writeView } = proxyLocalActivities<PostingActivities>({ startToCloseTimeout: '10 seconds' });

export async function postingWorkflow(workflowId: string, postingMs: number, posts: number): Promise<number> {
  let posted = 0;
  let version = 0;
  const write = () => writeView({ workflowId, version: ++version, posted });
  setHandler(postUpdate, async (amount) => {
    await post(postingMs);
    posted += amount;
    await write();
    return posted;
  });
  setHandler(postedQuery, () => posted);
  await condition(() => posted >= posts);
  await condition(allHandlersFinished);
  return posted;
}
