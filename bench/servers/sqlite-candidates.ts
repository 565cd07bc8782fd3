// The dev server's SQLite settings compared by bench/servers/ready.ts and bench/servers/pragmas.ts
// (`--sqlite-pragma`, service/dev-server.ts). None turns `synchronous` off: a commit must survive a
// crash of the server process (NORMAL in WAL mode) or of the machine (FULL).

import { DEV_SERVER_SQLITE_PRAGMAS } from '../../service/dev-server';

export const SQLITE_CANDIDATES: ReadonlyArray<{ name: string; pragmas: string[] }> = [
  { name: 'CLI default (rollback journal, synchronous=FULL)', pragmas: [] },
  // The service's own setting (service/dev-server.ts).
  { name: 'journal_mode=WAL, synchronous=FULL', pragmas: [...DEV_SERVER_SQLITE_PRAGMAS] },
  { name: 'journal_mode=WAL, synchronous=NORMAL', pragmas: ['journal_mode=wal', 'synchronous=normal'] },
];
