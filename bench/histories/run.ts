// History events per path, read from the saved histories (test/histories), against the goals of the
// performance issue: FDP happy path <= 40, dispute with 3 votes <= 100, auction with 10 bidders <= 150.
// Measures only. `real` leaves out the workflow task a refused Update costs here: the saved histories come from the time-skipping test server, which writes that task;
// the Temporal server drops a refused Update's (speculative) workflow task, so there it costs no event.
// An auction history with fewer than 10 quotes is projected to 10 with what one quote costs in that
// history (its Update, the workflow task that takes it and its upsert; not an event that task also
// took, such as a deadline's timer firing). Run: npx tsx bench/histories/run.ts
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { historyFromFile } from '../../test/histories/format';

const DIR = join(import.meta.dirname, '../../test/histories');
const AUCTION_BIDDERS = 10;

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
const T = temporal.api.enums.v1.EventType;

interface Row {
  path: string;
  events: number;
  refused: number;
  real: number;
  tasks: number;
  activities: number;
  local: number;
  timers: number;
  upserts: number;
  updates: number;
  goal: string;
  verdict: string;
}

const TRIGGERS = new Set([
  T.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED,
  T.EVENT_TYPE_ACTIVITY_TASK_COMPLETED,
  T.EVENT_TYPE_ACTIVITY_TASK_FAILED,
  T.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT,
  T.EVENT_TYPE_TIMER_FIRED,
  T.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED,
  T.EVENT_TYPE_WORKFLOW_TASK_FAILED,
  T.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT,
]);

/**
 * Workflow tasks that a refused Update alone caused: nothing before them triggered a task (no
 * activity result, timer, signal) and nothing came of them (the next event schedules the next task).
 */
function refusedUpdateTasks(events: HistoryEvent[]): number {
  let count = 0;
  for (let i = 0; i + 3 < events.length; i++) {
    if (events[i + 1]!.eventType !== T.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED) continue;
    if (TRIGGERS.has(events[i]!.eventType!)) continue;
    if (events[i + 3]!.eventType !== T.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) continue;
    const after = events[i + 4]?.eventType;
    if (after === undefined || after === T.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED) count++;
  }
  return count;
}

/**
 * Events from the workflow task that takes the first quote to the next task, less what else woke that
 * task (a timer fired, an activity's result): what one more quote costs.
 */
function eventsPerQuote(events: HistoryEvent[]): number | null {
  const accepted = events.findIndex(
    (e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === 'quote',
  );
  if (accepted === -1) return null;
  let start = accepted;
  while (start > 0 && events[start]!.eventType !== T.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED) start--;
  let end = accepted;
  while (end < events.length && events[end]!.eventType !== T.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED) end++;
  return events.slice(start, end).filter((e) => !TRIGGERS.has(e.eventType!)).length;
}

function read(file: string): HistoryEvent[] {
  return historyFromFile(readFileSync(join(DIR, file), 'utf8')).events ?? [];
}

/** The FDP happy path's events: a three-milestone happy path may take at most three times as many. */
const FDP_EVENTS = read('settled-approved.json').length;

function goalOf(
  path: string,
  events: HistoryEvent[],
  real: number,
  updates: Map<string, number>,
): [string, string] {
  const judge = (limit: number, saved: number, onServer: number, note = ''): [string, string] => [
    `<= ${limit}${note}`,
    [saved, onServer].map((n) => (n <= limit ? 'meets' : `misses by ${n - limit}`)).join(' / '),
  ];
  if (path.startsWith('settled-')) return judge(40, events.length, real);
  if (path === 'milestones-approved') return judge(3 * FDP_EVENTS, events.length, real, ' (3 × FDP)');
  if (path.startsWith('dispute-') && (updates.get('vote') ?? 0) === 3) return judge(100, events.length, real);
  if (path.startsWith('auction-')) {
    const quotes = updates.get('quote') ?? 0;
    const extra = Math.max(0, AUCTION_BIDDERS - quotes) * (eventsPerQuote(events) ?? 6);
    return judge(150, events.length + extra, real + extra, ` (+${extra} for ${AUCTION_BIDDERS} quotes)`);
  }
  return ['-', '-'];
}

function measure(file: string): Row {
  const events = read(file);
  const count = (type: keyof typeof T) => events.filter((e) => e.eventType === T[type]).length;
  const updates = new Map<string, number>();
  for (const e of events) {
    const name = e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name;
    if (name) updates.set(name, (updates.get(name) ?? 0) + 1);
  }
  const path = file.replace(/\.json$/, '');
  const refused = refusedUpdateTasks(events);
  const real = events.length - 3 * refused;
  const [goal, verdict] = goalOf(path, events, real, updates);
  return {
    path,
    events: events.length,
    refused,
    real,
    tasks: count('EVENT_TYPE_WORKFLOW_TASK_COMPLETED'),
    activities: count('EVENT_TYPE_ACTIVITY_TASK_SCHEDULED'),
    local: events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length,
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
  ['path', 30],
  ['events', 6],
  ['refused', 7],
  ['real', 4],
  ['tasks', 5],
  ['activities', 10],
  ['local', 5],
  ['timers', 6],
  ['upserts', 7],
  ['updates', 7],
  ['goal', 26],
  ['verdict', 24],
];
const text = new Set<keyof Row>(['path', 'goal', 'verdict']);
const line = (cells: (c: keyof Row, w: number) => string) => columns.map(([c, w]) => cells(c, w)).join(' ');
console.log('history events per path (saved histories in test/histories; verdict: saved / real)');
console.log(line((c, w) => (text.has(c) ? c.padEnd(w) : c.padStart(w))));
for (const row of rows) {
  console.log(line((c, w) => (text.has(c) ? String(row[c]).padEnd(w) : String(row[c]).padStart(w))));
}
const milestones = rows.find((r) => r.path === 'milestones-approved');
const fdp = rows.find((r) => r.path === 'settled-approved');
if (milestones !== undefined && fdp !== undefined) {
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  console.log(
    `three-milestone happy path / FDP happy path: ${ratio(milestones.events, fdp.events)} saved, ` +
      `${ratio(milestones.real, fdp.real)} real (goal <= 3)`,
  );
}
