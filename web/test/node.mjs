// The module against the command line, in Node: the practice variant of a
// set and the feedback on a sheet must be byte for byte what `treequiz
// generate` and `treequiz check` write. Usage: node test/node.mjs MODULE.wasm TREEQUIZ
import { readFileSync, mkdtempSync, writeFileSync, copyFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import assert from 'node:assert/strict';

const [wasmPath, cli] = process.argv.slice(2);
const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), {});
const tq = instance.exports;
const enc = new TextEncoder(), dec = new TextDecoder();

function put(text) {
  const bytes = enc.encode(text);
  const ptr = tq.tq_alloc(bytes.length);
  new Uint8Array(tq.memory.buffer, ptr, bytes.length).set(bytes);
  return [ptr, bytes.length];
}
function take(ptr) {
  const len = new DataView(tq.memory.buffer).getUint32(ptr, true);
  const json = dec.decode(new Uint8Array(tq.memory.buffer, ptr + 4, len));
  tq.tq_free(ptr, 0);
  return JSON.parse(json);
}
function call(fn, ...texts_and_numbers) {
  const args = [], owned = [];
  for (const a of texts_and_numbers) {
    if (typeof a === 'string') { const [p, n] = put(a); args.push(p, n); owned.push([p, n]); }
    else args.push(a);
  }
  const out = take(fn(...args));
  for (const [p, n] of owned) tq.tq_free(p, n);
  return out;
}

const root = new URL('../../', import.meta.url).pathname;
let cases = 0;
for (const [setFile, seed] of [['demo.toml', 2026n], ['game-tree-quiz.toml', 7n], ['midterm-zh.toml', 5n]]) {
  const dir = mkdtempSync(join(tmpdir(), 'tq-web-'));
  copyFileSync(join(root, 'problem-sets', setFile), join(dir, 'set.toml'));
  const setText = readFileSync(join(dir, 'set.toml'), 'utf8');
  const t0 = performance.now();
  const page = call(tq.tq_practice, setText, seed);
  const made = performance.now() - t0;
  assert.equal(page.ok, true, page.error);
  execFileSync(cli, ['generate', 'set.toml', '--seed', String(seed), '--out', 'out'], { cwd: dir });
  for (const [field, file] of [['worksheet_html', 'worksheet.html'], ['answer_sheet', 'answer-sheet.toml'], ['key_html', 'key.html'], ['key_toml', 'key.toml']]) {
    assert.equal(page[field], readFileSync(join(dir, 'out', file), 'utf8'), `${setFile}: ${file} differs from generate's`);
    cases++;
  }
  // The key scores full marks; a blank sheet gets the CLI's feedback, word for word.
  for (const [name, sheet] of [['key', page.key_toml], ['blank', page.answer_sheet]]) {
    // Named as the page names a sheet, so that the feedback's heading agrees.
    writeFileSync(join(dir, 'answer-sheet.toml'), sheet);
    const t1 = performance.now();
    const got = call(tq.tq_check, setText, seed, sheet);
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
