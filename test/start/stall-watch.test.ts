// A worker process logs when its event loop was held (service/stall-watch.ts), and only then.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { watchEventLoopStalls } from '../../service/stall-watch';

const hold = (ms: number) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy: nothing else of this process runs
  }
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('a loop held past the threshold is logged with how long; a loop that keeps turning logs nothing', async () => {
  const lines: string[] = [];
  const stop = watchEventLoopStalls((line) => lines.push(line), 300);
  try {
    await pause(1_200);
    assert.deepEqual(lines, [], 'an idle loop is not a stall');
    hold(900);
    await pause(700);
    assert.equal(lines.length, 1, lines.join('\n'));
    const held = Number(/stalled (\d+) ms/.exec(lines[0]!)?.[1]);
    assert.ok(held >= 300 && held < 2_000, lines[0]);
  } finally {
    stop();
  }
  hold(900);
  await pause(700);
  assert.equal(lines.length, 1, 'nothing is logged once stopped');
});
