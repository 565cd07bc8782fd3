// Infrastructure canary: every Temporal primitive the product relies on, in one small workflow.
import {
  ApplicationFailure,
  condition,
  defineQuery,
  defineSignal,
  defineUpdate,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import { contractStatusKey } from '../../workflows/search-attributes';

export const pokeSignal = defineSignal<[string]>('poke');
export const setLabelUpdate = defineUpdate<string, [string]>('setLabel');
export const stateQuery = defineQuery<{ pokes: string[]; label: string; timerFired: boolean }>('state');

export const THIRTY_DAYS_MS = 30 * 24 * 60 * 60 * 1000;

export async function canaryWorkflow(): Promise<string> {
  const state = { pokes: [] as string[], label: 'created', timerFired: false };
  setHandler(pokeSignal, (who) => void state.pokes.push(who));
  setHandler(
    setLabelUpdate,
    (label) => {
      state.label = label;
      upsertSearchAttributes([{ key: contractStatusKey, value: label }]);
      return label;
    },
    {
      validator: (label) => {
        if (!/^[a-z-]+$/.test(label))
          throw ApplicationFailure.nonRetryable(`invalid label: ${label}`, 'BadInput');
      },
    },
  );
  setHandler(stateQuery, () => state);
  upsertSearchAttributes([{ key: contractStatusKey, value: state.label }]);

  // A durable 30-day timer, cut short by a "done" poke.
  const doneEarly = await condition(() => state.pokes.includes('done'), THIRTY_DAYS_MS);
  state.timerFired = !doneEarly;
  return `${state.label}:${state.pokes.join(',')}:${state.timerFired ? 'timer' : 'signal'}`;
}
