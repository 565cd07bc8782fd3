// The dev server's SQLite settings compared by bench/servers/ready.ts and bench/servers/pragmas.ts
// (`--sqlite-pragma`, service/dev-server.ts). None turns `synchronous` off: a commit must survive a
// crash of the server process (NORMAL in WAL mode) or of the machine (FULL).
import { openSync, readSync, closeSync } from 'node:fs';

export const SQLITE_CANDIDATES: ReadonlyArray<{ name: string; pragmas: string[] }> = [
  { name: 'CLI default (rollback journal, synchronous=FULL)', pragmas: [] },
  { name: 'journal_mode=WAL, synchronous=FULL', pragmas: ['journal_mode=wal', 'synchronous=full'] },
  { name: 'journal_mode=WAL, synchronous=NORMAL', pragmas: ['journal_mode=wal', 'synchronous=normal'] },
];

/** The journal mode a SQLite file is in, from its header (bytes 18-19: 1 rollback, 2 WAL). */
export function journalModeOf(file: string): string {
  const header = Buffer.alloc(2);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, header, 0, 2, 18);
  } finally {
    closeSync(fd);
  }
  return header[0] === 2 ? 'wal' : 'rollback';
}
