// The module against the command line, in Node: the practice variant of a
// set and the feedback on a sheet must be byte for byte what `treequiz
// generate` and `treequiz check` write. Usage: node test/node.mjs MODULE.wasm TREEQUIZ
import { readFileSync, mkdtempSync, writeFileSync, copyFileSync, mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import assert from 'node:assert/strict';

const [wasmPath, cli] = process.argv.slice(2);
const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), {});
const tq = instance.exports;
const enc = new TextEncoder(), dec = new TextDecoder();

// One request, as the page makes it: JSON in, JSON out.
function call(request) {
  const bytes = enc.encode(JSON.stringify(request));
  const ptr = tq.tq_alloc(bytes.length);
  new Uint8Array(tq.memory.buffer, ptr, bytes.length).set(bytes);
  const out = tq.tq_call(ptr, bytes.length);
  tq.tq_free(ptr, bytes.length);
  const len = new DataView(tq.memory.buffer).getUint32(out, true);
  const json = dec.decode(new Uint8Array(tq.memory.buffer, out + 4, len));
  tq.tq_free(out, 0);
  return JSON.parse(json);
}

const root = new URL('../../', import.meta.url).pathname;
let cases = 0;
for (const [setFile, seed] of [['demo.toml', 2026], ['game-tree-quiz.toml', 7], ['midterm-zh.toml', 5]]) {
  const dir = mkdtempSync(join(tmpdir(), 'tq-web-'));
  copyFileSync(join(root, 'problem-sets', setFile), join(dir, 'set.toml'));
  const setText = readFileSync(join(dir, 'set.toml'), 'utf8');
  const t0 = performance.now();
  const page = call({ op: 'practice', set: setText, seed: String(seed) });
  const made = performance.now() - t0;
  assert.equal(page.ok, true, page.error);
  // The sheets come apart from the exercise on screen, from the one the module kept.
  const sheets = call({ op: 'sheets', set: setText, seed: String(seed) });
  assert.equal(sheets.ok, true, sheets.error);
  // Run from a folder beside the set, as the page's sheet names it: by its
  // file name (the CLI writes a path from the sheet only inside its own folder).
  mkdirSync(join(dir, 'run'));
  execFileSync(cli, ['generate', '../set.toml', '--seed', String(seed), '--out', '../out'], { cwd: join(dir, 'run') });
  for (const [field, file] of [['worksheet_html', 'worksheet.html'], ['answer_sheet', 'answer-sheet.toml'], ['key_html', 'key.html'], ['key_toml', 'key.toml']]) {
    assert.equal(sheets[field], readFileSync(join(dir, 'out', file), 'utf8'), `${setFile}: ${file} differs from generate's`);
    cases++;
  }
  // The key scores full marks; a blank sheet gets the CLI's feedback, word for word.
  for (const [name, sheet] of [['key', sheets.key_toml], ['blank', sheets.answer_sheet]]) {
    // Named as the page names a sheet, so that the feedback's heading agrees.
    writeFileSync(join(dir, 'answer-sheet.toml'), sheet);
    const t1 = performance.now();
    const got = call({ op: 'check', set: setText, seed: String(seed), sheet });
    const checked = performance.now() - t1;
    assert.equal(got.ok, true, got.error);
    let cliText;
    try {
      cliText = execFileSync(cli, ['check', 'answer-sheet.toml', '--set', 'set.toml', '--seed', String(seed), '--format', 'text'], { cwd: dir, encoding: 'utf8' });
    } catch (e) { cliText = e.stdout; }  // exit 1: the sheet needs attention
    assert.equal(got.feedback_text, cliText, `${setFile}: feedback on the ${name} sheet differs from check's`);
    cases++;
    console.log(`${setFile} seed ${seed}: ${name} sheet checked in ${checked.toFixed(1)} ms`);
  }
  console.log(`${setFile} seed ${seed}: variant made and rendered in ${made.toFixed(1)} ms`);
}
console.log(`module ${readFileSync(wasmPath).length} bytes; ${cases} comparisons with the command line, all equal`);
