// `npm run audit -- <base URL> [<sequence>:<hash>]`: the independent auditor (scripts/audit/auditor.ts)
// against a running service; the optional head, printed by an earlier audit, must still be in the log.
// Prints every difference; exits 1 when there is any, 2 when the service cannot be read.
import { audit } from './audit/auditor';

async function main(): Promise<number> {
  const base = process.argv[2];
  if (base === undefined) {
    console.error('usage: npm run audit -- <base URL of the service>');
    return 2;
  }
  const known = process.argv[3]?.match(/^(\d+):([0-9a-f]{64})$/);
  if (process.argv[3] !== undefined && known == null) {
    console.error('the known head is <sequence>:<64 hex>, as an earlier audit printed it');
    return 2;
  }
  const report = await audit(
    base,
    undefined,
    known == null ? undefined : { sequence: Number(known[1]), hash: known[2]! },
  );
  for (const line of report.differences) console.log(`DIFFERENCE ${line}`);
  console.log(`head ${report.head.sequence}:${report.head.hash}`);
  console.log(
    `audited ${report.records} outcome records, ${report.contracts} contracts, ${report.draws} draws, ${report.agents} agents: ${report.differences.length} differences`,
  );
  return report.differences.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`audit failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
