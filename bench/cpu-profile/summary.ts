// The self time of a node --cpu-prof profile by function and by package, largest first: where a
// benchmark's process spends its CPU. Run: npx tsx bench/cpu-profile/summary.ts <file.cpuprofile> [rows]
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, rowsArg] = process.argv.slice(2);
if (!file) throw new Error('usage: summary.ts <file.cpuprofile> [rows]');
const rows = Number(rowsArg ?? 20);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));

/** node_modules/<pkg> (scoped too), the project's own top folder, or the node internal / native. */
function area(url: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node internals';
  const own = /\/(api|activities|service|workflows|bench|test)\//.exec(url);
  if (own) return `project ${own[1]}/`;
  return url === '' ? '(native, gc, idle)' : url;
}

const byFunction = new Map<string, number>();
const byArea = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
  const us = profile.timeDeltas[i] ?? 0;
  const fn = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  byArea.set(area(url), (byArea.get(area(url)) ?? 0) + us);
  total += us;
});

const print = (title: string, table: Map<string, number>) => {
  console.log(title);
  for (const [name, us] of [...table].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    console.log(
      `${(us / 1000).toFixed(0).padStart(8)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${name}`,
    );
  }
};
console.log(`profile ${file}: ${(total / 1e6).toFixed(1)} s sampled`);
print('by package or area', byArea);
print('by function (self time)', byFunction);
