// A Temporal client on a harness's stack, as the API's own, that counts the workflow queries it sends: what a
// read costs the contract's worker.
import { Client } from '@temporalio/client';
import { contractDataConverter } from '../../service/temporal-client';
import type { AppHarness } from './service';

export function queryCountingClient(harness: AppHarness): { temporal: Client; queries(): number } {
  let queries = 0;
  const temporal = new Client({
    connection: harness.env.connection,
    namespace: harness.env.namespace ?? 'default',
    dataConverter: contractDataConverter(harness.settings.payloadCodecKey),
    interceptors: {
      workflow: [
        {
          query: (input, next) => {
            queries += 1;
            return next(input);
          },
        },
      ],
    },
  });
  return { temporal, queries: () => queries };
}
