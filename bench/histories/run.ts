// History events per path, read from the saved histories (test/histories), against the goals of the
// performance issue: FDP happy path <= 40, dispute with 3 votes <= 100, auction with 10 bidders <= 150.
// Measures only. An auction history with fewer than 10 quotes is projected to 10: each further quote
// costs its Update (accepted, completed) and the workflow task that takes it (scheduled, started,
// completed), 5 events, a lower bound. Run: npx tsx bench/histories/run.ts
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { historyFromFile } from '../../test/histories/format';

const DIR = join(import.meta.dirname, '../../test/histories');
const EVENTS_PER_EXTRA_QUOTE = 5;
const AUCTION_BIDDERS = 10;

interface Row {
  path: string;
  events: number;
  tasks: number;
  activities: number;
  timers: number;
  upserts: number;
  updates: number;
  goal: string;
  verdict: string;
}

function goalOf(path: string, events: number, updates: Map<string, number>): [string, string] {
  const judge = (limit: number, count: number, note = '') =>
    [`<= ${limit}${note}`, count <= limit ? 'meets' : `misses by ${count - limit}`] as [string, string];
  if (path.startsWith('settled-')) return judge(40, events);
  if (path.startsWith('dispute-') && (updates.get('vote') ?? 0) === 3) return judge(100, events);
  if (path.startsWith('auction-')) {
    const quotes = updates.get('quote') ?? 0;
    const projected = events + Math.max(0, AUCTION_BIDDERS - quotes) * EVENTS_PER_EXTRA_QUOTE;
    return judge(150, projected, ` (${projected} projected from ${quotes} quotes)`);
  }
  return ['-', '-'];
}

function measure(file: string): Row {
  const { events = [] } = historyFromFile(readFileSync(join(DIR, file), 'utf8'));
  const count = (type: keyof typeof temporal.api.enums.v1.EventType) =>
    events.filter((e) => e.eventType === temporal.api.enums.v1.EventType[type]).length;
  const updates = new Map<string, number>();
  for (const e of events) {
    const name = e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name;
    if (name) updates.set(name, (updates.get(name) ?? 0) + 1);
  }
  const path = file.replace(/\.json$/, '');
  const [goal, verdict] = goalOf(path, events.length, updates);
  return {
    path,
    events: events.length,
    tasks: count('EVENT_TYPE_WORKFLOW_TASK_COMPLETED'),
    activities: count('EVENT_TYPE_ACTIVITY_TASK_SCHEDULED'),
    timers: count('EVENT_TYPE_TIMER_STARTED'),
    upserts: count('EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES'),
    updates: count('EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED'),
    goal,
    verdict,
  };
}

const rows = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map(measure);
const columns: Array<[keyof Row, number]> = [
  ['path', 44],
  ['events', 6],
  ['tasks', 5],
  ['activities', 10],
  ['timers', 6],
  ['upserts', 7],
  ['updates', 7],
  ['goal', 38],
  ['verdict', 14],
];
const line = (cells: (c: keyof Row, w: number) => string) => columns.map(([c, w]) => cells(c, w)).join(' ');
console.log('history events per path (saved histories in test/histories)');
console.log(line((c, w) => (c === 'path' || c === 'goal' || c === 'verdict' ? c.padEnd(w) : c.padStart(w))));
for (const row of rows) {
  console.log(
    line((c, w) => (typeof row[c] === 'number' ? String(row[c]).padStart(w) : String(row[c]).padEnd(w))),
  );
}
