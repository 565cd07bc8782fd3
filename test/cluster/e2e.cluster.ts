// `npm run test:cluster`: the end-to-end suites and SQL visibility in one process on one cluster profile
// (OPENCONTRACT_E2E_TARGET=cluster). Each file's useServiceHarness() gets the same cluster, started once
// (a start is PostgreSQL, the schemas, the Temporal server, two workers and two APIs): the suites run
// unchanged, their agents alternating between the two APIs and the two workers sharing the task queue.
// Then the independent auditor runs against that instance (audit.cluster.ts).
import '../e2e/contracts.test';
import '../e2e/open-tender-race.test';
import '../e2e/dispute.test';
import '../e2e/auction.test';
import './visibility.cluster';
// Last: the auditor over everything the suites above left in the outcome log.
import './audit.cluster';
