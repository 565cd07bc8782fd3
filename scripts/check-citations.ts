// Fails when a tracked source or doc file cites an issue number or the product spec by section: the
// code and docs say what a rule is, or point at the project's own doc (docs/protocol.md §N). Run by
// `npm run lint`. The dated run logs under docs/performance-log/ are kept as they were written.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
// Written so that this file does not match itself.
const CITATION = new RegExp(String.raw`\b[Ii]ssue #?\d+\b|SPEC\u0020§`);
const TEXT = /\.(ts|mts|cts|js|mjs|cjs|md|ya?ml)$/;

/** Paths left out; each entry is a prefix of a repository-relative path. */
const EXCLUDED = ['docs/performance-log/'];

const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((f) => TEXT.test(f) && !EXCLUDED.some((prefix) => f.startsWith(prefix)));

const hits: string[] = [];
for (const file of files) {
  let text: string;
  try {
    text = readFileSync(path.join(root, file), 'utf8');
  } catch {
    continue; // deleted in the work tree, not yet in the index
  }
  text.split('\n').forEach((line, i) => {
    if (CITATION.test(line)) hits.push(`${file}:${i + 1}: ${line.trim()}`);
  });
}

if (hits.length > 0) {
  console.error(
    'Citations of an issue number or of the spec by section (say what the rule is, or cite docs/):',
  );
  for (const hit of hits) console.error(`  ${hit}`);
  process.exit(1);
}
