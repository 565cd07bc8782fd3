// The dev server's SQLite settings compared by bench/servers/ready.ts and bench/servers/pragmas.ts
// (`--sqlite-pragma`, service/dev-server.ts). None turns `synchronous` off: a commit must survive a
// crash of the server process (NORMAL in WAL mode) or of the machine (FULL).

export const SQLITE_CANDIDATES: ReadonlyArray<{ name: string; pragmas: string[] }> = [
  { name: 'CLI default (rollback journal, synchronous=FULL)', pragmas: [] },
  { name: 'journal_mode=WAL, synchronous=FULL', pragmas: ['journal_mode=wal', 'synchronous=full'] },
  { name: 'journal_mode=WAL, synchronous=NORMAL', pragmas: ['journal_mode=wal', 'synchronous=normal'] },
];
