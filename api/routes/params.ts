// GET /params: the protocol parameters in force, in the OPENCONTRACT_PARAMS wire form (docs/protocol.md
// "Parameters"), so an agent learns every stake, bond and window before it acts rather than by a refusal.
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { accessRoute, PUBLIC_ACCESS } from '../http/route-access';
import { paramsToWire } from '../../workflows/rules/params';
import type { ApiContext } from '../deps';
import { json } from '../openapi/schemas';

const bps = z.number().int().openapi({ description: 'basis points (1/10000)' });
const amount = z.string().openapi({ description: 'USDC (OCT for rewards) in minor units, a decimal string' });

export const paramsSchema = z
  .object({
    version: z.number().int(),
    workerStakeBps: bps,
    withdrawalSlashBps: bps,
    absentSlashClientBps: bps,
    disputeBondBps: bps,
    baPanelSize: z.number().int(),
    baEligibilityStake: amount,
    baBond: amount,
    unclearSlashBps: bps,
    rewardPerCriterion: amount,
    unclearRewardBps: bps,
    baVotingWindow: z.number().int().openapi({ description: 'milliseconds' }),
    baRecruitmentWindow: z.number().int().openapi({
      description: 'milliseconds a contract waits for a full panel before the trusted arbiter decides',
    }),
    appealWindow: z
      .number()
      .int()
      .openapi({ description: 'milliseconds after a tally in which the Client or the Worker may appeal' }),
    appealBondBps: bps,
    appealPanelSize: z.number().int(),
    minWorkerStake: amount.openapi({ description: 'the floor of every Worker Stake and bid bond' }),
    maxRevisions: z.number().int().openapi({ description: 'change requests a Client may make per contract' }),
    revisionWindow: z.number().int().openapi({
      description: 'milliseconds: the least time a Worker gets to deliver again after a change request',
    }),
    panelFeePerSeat: amount.openapi({
      description:
        'what bringing in a Backup Agent panel costs per seat (not returned): paid to the seated BAs who vote',
    }),
  })
  .openapi('ProtocolParams');

export function paramsApp(ctx: ApiContext) {
  const app = new OpenAPIHono();
  app.openapi(
    accessRoute(PUBLIC_ACCESS, {
      method: 'get',
      path: '/',
      summary: 'The protocol parameters a new contract snapshots (public)',
      responses: {
        200: json(paramsSchema, 'parameters'),
      },
    }),
    (c) => c.json(paramsToWire(ctx.params), 200),
  );
  return app;
}
