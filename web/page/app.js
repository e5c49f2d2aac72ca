// treequiz's practice page: glue between the page and the WebAssembly module,
// which makes, draws and grades every exercise (web/module/src/lib.rs). Nothing here
// solves, scores or words feedback; this file keeps the form and the figure in
// step and lays out what the module answers.
'use strict';

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];
const el = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v; else if (k === 'text') e.textContent = v; else e.setAttribute(k, v);
  }
  e.append(...children.filter(c => c != null));
  return e;
};
const SVG = 'http://www.w3.org/2000/svg';

// ---- the module ----------------------------------------------------------
let tq;
const enc = new TextEncoder(), dec = new TextDecoder();
function call(request) {
  const bytes = enc.encode(JSON.stringify(request));
  const ptr = tq.tq_alloc(bytes.length);
  new Uint8Array(tq.memory.buffer, ptr, bytes.length).set(bytes);
  const out = tq.tq_call(ptr, bytes.length);
  tq.tq_free(ptr, bytes.length);
  const len = new DataView(tq.memory.buffer).getUint32(out, true);
  const answer = JSON.parse(dec.decode(new Uint8Array(tq.memory.buffer, out + 4, len)));
  tq.tq_free(out, 0);
  return answer;
}

// ---- state -----------------------------------------------------------------
const embedded = JSON.parse($('#tq-set').textContent || 'null');  // a teacher's set, or null
// Its fairness plan at its own seed, made by `treequiz practice` (fair.rs): the
// module draws that seed's variant without running the pilot again.
const embeddedPlan = JSON.parse($('#tq-plan').textContent || 'null') || '';
// `shown`: the solution is on screen (until then feedback keeps the key
// back); `last`: the sheet the feedback on screen is about, checked again in
// the other wording when the solution is shown or hidden.
// `hintsTaken`, `hinted` (by question), `seen` (the solution was shown):
// what this exercise's checks count against the mastery streak.
const S = { lang: '', kind: '', size: 'medium', seed: '', options: {}, set: '', page: null, sheets: null, strings: {}, active: {}, replay: {}, shown: false, last: null, hintsTaken: 0, hinted: {}, hintStep: {}, seen: false, sizeByHand: false };
const str = (key, fill = {}) => Object.entries(fill).reduce((s, [k, v]) => s.replaceAll(`{${k}}`, v), S.strings[key] ?? key);

function readHash() {
  const h = new URLSearchParams(location.hash.slice(1));
  const known = ['kind', 'size', 'seed', 'lang'];
  S.kind = h.get('kind') || (embedded ? 'course' : 'alpha-beta');
  S.size = h.get('size') || 'medium';
  // A teacher's set opens at its own seed (empty: the module takes the
  // set's), the variant `treequiz generate SET` prints; a kind at a random one.
  const seed = h.get('seed') || '';
  S.seed = /^\d+$/.test(seed) ? seed : S.kind === 'course' ? '' : String(1 + Math.floor(Math.random() * 9999));
  S.lang = h.get('lang') || S.lang || (embedded ? '' : (navigator.language || '').toLowerCase().startsWith('zh') ? 'zh' : 'en');
  S.options = {};
  for (const [k, v] of h) if (!known.includes(k)) S.options[k] = v;
}
function writeHash() {
  const h = new URLSearchParams();
  h.set('kind', S.kind);
  if (S.kind !== 'course') h.set('size', S.size);
  for (const [k, v] of Object.entries(S.options)) h.set(k, v);
  h.set('seed', S.seed);
  if (S.lang) h.set('lang', S.lang);
  history.replaceState(null, '', '#' + h.toString());
}

function status(text, error = false) {
  const s = $('#status');
  s.textContent = text;
  s.className = error ? 'error' : '';
  s.hidden = !text;
}

// ---- the chrome: pickers and labels ------------------------------------------
// The kinds, sizes and strings in a language: asked once per language.
const starts = {};
const started = lang => (starts[lang] ??= call({ op: 'start', lang }));

function chrome() {
  const start = started(S.lang || S.page?.lang || 'en');
  S.strings = start.strings;
  document.documentElement.lang = S.lang || S.page?.lang || 'en';
  for (const e of $$('[data-s]')) e.textContent = str(e.dataset.s);
  const fill = (select, items, value) => {
    select.replaceChildren(...items.map(([v, t]) => el('option', { value: v, text: t })));
    select.value = value;
  };
  const kinds = start.kinds.map(k => [k.name, k.title]);
  if (embedded) kinds.unshift(['course', str('course_set')]);
  fill($('#kind'), kinds, S.kind);
  fill($('#size'), start.sizes.map(s => [s.name, s.title]), S.size);
  fill($('#lang'), start.languages.map(l => [l.code, l.name]), S.lang || S.page?.lang || 'en');
  $('#size-box').hidden = S.kind === 'course';
  $('#seed').value = S.seed;
}

// ---- drawing an exercise -----------------------------------------------------
function draw() {
  status(str('working'));
  const t0 = performance.now();
  let set = embedded;
  if (S.kind !== 'course') {
    const made = call({ op: 'set', kind: S.kind, size: S.size, options: S.options, lang: S.lang || 'en' });
    if (!made.ok) return fail(made.error);
    set = made.set;
  }
  performance.mark('tq-set');
  const page = call({ op: 'practice', set, seed: S.seed, lang: S.lang, plan: set === embedded ? embeddedPlan : '' });
  performance.mark('tq-practice');
  if (!page.ok) return fail(page.error);
  S.set = set;
  S.page = page;
  S.sheets = null;
  S.seed = page.seed;
  S.active = {};
  S.replay = {};
  S.shown = false;
  S.last = null;
  S.hintsTaken = 0;
  S.hinted = {};
  S.hintStep = {};
  S.seen = false;
  writeHash();
  chrome();
  $('#title').textContent = page.title;
  document.title = page.title;
  $('#questions').replaceChildren(...page.questions.map(question));
  for (const q of page.questions) marks(q.number);
  fit();
  $('#feedback').hidden = true;
  $('#actions').hidden = false;
  $('#foot').hidden = false;
  solution(false);
  downloads();
  showProgress();
  status('');
  document.body.dataset.drawnMs = (performance.now() - t0).toFixed(1);
  // The sheets and the solution once the exercise is on screen, so that a
  // check, a download, a hint or the solution waits for nothing.
  (window.requestIdleCallback || (f => setTimeout(f, 100)))(() => { if (S.page === page) { sheets(); solved(); downloads(); } });
}

// The exercise on screen, as the module's requests about it name it.
const onScreen = () => ({ set: S.set, seed: S.seed, lang: S.lang, plan: S.set === embedded ? embeddedPlan : '' });

// The exercise's worksheet, blank sheet and key as `treequiz generate` writes
// them, and each question's solution (its key laid out, its hints): made
// after the exercise is drawn, not before it appears (a cold page compiles
// every function it runs), from the exercise the module kept.
function sheets() {
  if (!S.sheets) {
    const r = call({ op: 'sheets', ...onScreen() });
    if (!r.ok) throw new Error(r.error);
    S.sheets = r;
  }
  return S.sheets;
}
function solved() {
  if (!S.page.solved) {
    const r = call({ op: 'solution', ...onScreen() });
    if (!r.ok) throw new Error(r.error);
    for (const k of r.questions) Object.assign(q(k.number), { key: k.key, hints: k.hints });
    S.page.solved = true;
  }
  return S.page.questions;
}

// A figure fits the width it has: up to half again its printed size where
// there is room, scaled down where there is not (a phone). One scaled below
// its printed size gets a button that shows it at that size, scrolling
// sideways from its middle, where a tree's root is (pinch-zoom works too).
function fit() {
  // Every box measured before any is changed: one layout for all the
  // figures, not one for each (nine on a course's sheet).
  const figures = $$('.figure-box svg').map(svg => ({ svg, box: svg.parentElement, zoom: zoomButton(svg.parentElement) }));
  for (const f of figures) f.room = f.box.clientWidth - 10;
  for (const { svg, box, zoom, room } of figures) {
    const natural = parseFloat(svg.getAttribute('width')) * 96 / 25.4;
    zoom.hidden = box.hidden || natural <= room + 1;
    if (room <= 0) continue;  // not on screen: fitted when shown
    const enlarged = box.classList.contains('enlarged') && natural > room + 1;
    const width = enlarged ? natural : Math.min(room, natural * 1.5);
    svg.style.width = `${width}px`;
    box.classList.toggle('scrolls', width > room + 1);
    zoom.textContent = str(enlarged ? 'fit_figure' : 'enlarge');
    zoom.setAttribute('aria-pressed', String(enlarged));
  }
}
function zoomButton(box) {
  if (box.previousElementSibling?.classList.contains('zoom')) return box.previousElementSibling;
  const zoom = el('button', { type: 'button', class: 'zoom' });
  zoom.addEventListener('click', () => {
    box.classList.toggle('enlarged');
    fit();
    box.scrollLeft = (box.scrollWidth - box.clientWidth) / 2;
  });
  box.before(zoom);
  return zoom;
}
addEventListener('resize', () => fit());

function fail(message) {
  status(str('error') + '\n' + message, true);
}

function question(q) {
  const box = el('div', { class: 'figure-box' });
  box.innerHTML = q.figure;
  const svg = $('svg', box);
  // A group, not an image, where its places can be picked: a screen reader
  // then reaches each place (a focusable button with a name), which an
  // image's children hide.
  const picks = q.fields.some(f => f.pick);
  svg.setAttribute('role', picks ? 'group' : 'img');
  svg.setAttribute('aria-label', picks ? `${q.legend} ${str('figure_keys')}` : q.legend);
  svg.append(document.createElementNS(SVG, 'g'));
  svg.lastChild.setAttribute('class', 'marks');
  svg.addEventListener('click', e => {
    const t = e.target.closest('[data-pick]');
    if (t) choose(q.number, t.tagName === 'line' ? nearestLine(svg, t.dataset.pick, e) : t);
  });
  // A box that may scroll (on a phone, enlarged) is reached by keyboard:
  // through its places, or itself where it has none.
  if (picks) keyboard(q.number, svg); else box.tabIndex = 0;
  const fields = q.fields.map(f => field(q, f));
  const section = el('section', { class: 'question', id: `q${q.number}` },
    el('h2', { text: q.heading + ' ' }, el('small', { text: `(${q.points_text})` })),
    el('p', { class: 'prompt', text: q.prompt }),
    el('p', { class: 'legend', text: q.legend }),
    q.conventions.length ? el('ul', { class: 'conventions' }, ...q.conventions.map(c => el('li', { text: c }))) : null,
    el('div', { class: 'work' },
      el('div', {}, box, el('p', { class: 'hint', id: `hint${q.number}` })),
      el('div', { class: 'fields', role: 'group', 'aria-label': str('form') }, ...fields)),
    hintRow(q),
    el('div', { class: 'solution', id: `solution${q.number}`, hidden: '' }));
  const first = q.fields.find(f => f.pick) || q.fields[0];
  S.active[q.number] = first?.name;
  queueMicrotask(() => activate(q.number, S.active[q.number]));
  return section;
}

// ---- hints: the key's trace one step at a time --------------------------------
// Each hint is a step asked as a question, then told (the words `treequiz
// check --hint N` prints); its nodes are ringed on the figure. Every hint
// counts in the feedback and breaks the mastery streak.
function hintRow(q) {
  const button = el('button', { type: 'button', class: 'hint-button', text: str('hint') });
  button.addEventListener('click', () => nextHint(q.number));
  return el('div', { class: 'hint-row' }, button, el('div', { class: 'hints', 'aria-live': 'polite' }));
}

function nextHint(n) {
  solved();
  const hints = q(n).hints, at = S.hintStep[n] ?? 0, i = Math.floor(at / 2);
  const box = $(`#q${n} .hints`), button = $(`#q${n} .hint-button`);
  if (i >= hints.length) {
    box.append(el('p', { class: 'hint-step done', text: str('hints_done') }));
    button.disabled = true;
    return;
  }
  const h = hints[i];
  if (at % 2 === 0) {
    S.hintsTaken++;
    S.hinted[n] = true;
    box.append(el('p', { class: 'hint-step' }, el('strong', { text: h.heading }), el('br'), el('span', { class: 'hint-question', text: h.question })));
    ringHint(n, h.nodes);
    button.textContent = str('hint_tell');
  } else {
    box.lastChild.append(el('br'), el('span', { class: 'hint-answer', text: h.answer }));
    button.textContent = str('hint_next');
  }
  S.hintStep[n] = at + 1;
}

// A hint's nodes, ringed (dashed) on the question's figure.
function ringHint(n, nodes) {
  const svg = $(`#q${n} .figure-box svg`);
  for (const t of $$('.hinted', svg)) t.classList.remove('hinted');
  for (const t of $$('rect[data-label]', svg)) if (nodes.some(x => same(x, t.dataset.label))) t.classList.add('hinted');
}

function field(q, f) {
  const id = `q${q.number}-${f.name}`;
  const input = el('input', { id, name: id, placeholder: str('example', { example: f.example.replace(/^[^=]*=\s*/, '') }), spellcheck: 'false', autocomplete: 'off' });
  input.addEventListener('focus', () => activate(q.number, f.name));
  input.addEventListener('input', () => { unscore(input.closest('.field')); marks(q.number); });
  const clear = el('button', { type: 'button', class: 'clear', text: str('clear') });
  // By keyboard: this field's answer picked on the figure (Tab to reach the
  // figure would pass through, and activate, the fields between).
  const onFigure = f.pick ? el('button', { type: 'button', class: 'to-figure', text: str('to_figure') }) : null;
  onFigure?.addEventListener('click', () => {
    activate(q.number, f.name);
    const stop = places(q.number)[0];
    if (stop) focusPlace(q.number, stop);
  });
  clear.addEventListener('click', () => { input.value = ''; unscore(box); activate(q.number, f.name); marks(q.number); });
  const box = el('div', { class: 'field', 'data-field': f.name, 'data-shape': f.shape, 'data-pick': f.pick || '' },
    el('label', { for: id }, el('code', { text: f.name }), ' — ' + f.description),
    el('div', { class: 'row' }, input, onFigure, clear),
    el('div', { class: 'state' }));
  box.addEventListener('click', e => { if (e.target === box) activate(q.number, f.name); });
  return box;
}

// A place picked by a click or a key. One the field in focus cannot name
// moves the focus to the first field that can.
function choose(n, t) {
  const f = fieldOf(n, S.active[n]);
  if (!f || f.dataset.pick !== t.dataset.pick) {
    const other = q(n).fields.find(x => x.pick === t.dataset.pick);
    if (!other) return;
    activate(n, other.name);
  }
  pick(n, t);
  describe(n, t);
}

// ---- the figure by keyboard ---------------------------------------------------
// One tab stop per figure (a roving tabindex): the arrow keys move to the
// nearest place in their direction (in a tree, the parent is up, the
// children down, the siblings left and right), Enter or Space picks as a
// click does (a value field opens its box; Enter or Escape there comes
// back). Each place is a button named for a screen reader: what it is and
// what the field in focus has for it.
function places(n) {
  // A node's box, not the edge above it that picks it too; a connector or a
  // move (edges only) is one stop, not k.
  const all = $$(`#q${n} .targets [data-pick]:not(.off)`);
  const boxed = new Set(all.filter(t => t.tagName === 'rect').map(t => `${t.dataset.pick}|${t.dataset.label}`));
  const seen = new Set();
  return all.filter(t => {
    const id = `${t.dataset.pick}|${t.dataset.label}`;
    if (t.tagName === 'line' && boxed.has(id)) return false;
    return !seen.has(`${t.tagName}|${id}`) && seen.add(`${t.tagName}|${id}`);
  }).sort((a, b) => (a.tagName === 'rect' ? 0 : 1) - (b.tagName === 'rect' ? 0 : 1));
}
function keyboard(n, svg) {
  svg.addEventListener('keydown', e => {
    const t = e.target.closest?.('[data-pick]');
    if (!t) return;
    const dir = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[e.key];
    if (dir) {
      e.preventDefault();
      const next = nearest(places(n), t, dir);
      if (next) focusPlace(n, next);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      choose(n, t);
    }
  });
  svg.addEventListener('focusin', e => { const t = e.target.closest?.('[data-pick]'); if (t) describe(n, t); });
}
// Tab stops after the places change (a field activated): the focused or
// first place only.
function roving(n, keep) {
  const all = places(n);
  for (const t of $$(`#q${n} .targets [data-pick]`)) { t.removeAttribute('tabindex'); t.removeAttribute('role'); }
  const stop = all.includes(keep) ? keep : all[0];
  // The field's answer read once for every place's name (each read is a call into the module).
  let v;
  const answer = () => (v ??= current(n, S.active[n]));
  for (const t of all) { t.setAttribute('tabindex', t === stop ? '0' : '-1'); t.setAttribute('role', 'button'); describe(n, t, answer); }
}
function focusPlace(n, t) {
  roving(n, t);
  t.focus();
}
const centre = t => { const b = t.getBBox(); return [b.x + b.width / 2, b.y + b.height / 2]; };
function nearest(all, from, [dx, dy]) {
  const [x0, y0] = centre(from);
  let best = null, score = Infinity;
  for (const t of all) {
    if (t === from) continue;
    const [x, y] = centre(t);
    const along = (x - x0) * dx + (y - y0) * dy, across = Math.abs((x - x0) * dy) + Math.abs((y - y0) * dx);
    if (along <= 0.5) continue;
    const s = along + 2 * across;
    if (s < score) { score = s; best = t; }
  }
  return best;
}
// "node C, in values: 5" / "node C, not in pruned".
function describe(n, t, answer = () => current(n, S.active[n])) {
  const what = str(t.tagName === 'rect' ? 'place_node' : 'place_edge', { label: t.dataset.label });
  const f = fieldOf(n, S.active[n]);
  let has = '';
  if (f && f.dataset.pick === t.dataset.pick) {
    const v = answer(), field = f.dataset.field;
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const k = Object.keys(v).find(k => same(k, t.dataset.label));
      has = k != null ? str('place_has', { field, value: v[k] }) : str('place_not', { field });
    } else {
      const list = Array.isArray(v) ? v : v ? [v] : [];
      const i = list.findIndex(x => same(x, t.dataset.label));
      has = i >= 0 ? str('place_has', { field, value: f.dataset.shape === 'sequence' ? `#${i + 1}` : '✓' }) : str('place_not', { field });
    }
  }
  t.setAttribute('aria-label', has ? `${what}, ${has}` : what);
}

// Where edges cross, the one nearest the pointer (not the one drawn last).
function nearestLine(svg, pickName, e) {
  const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.getScreenCTM().inverse());
  let best, bestD = Infinity;
  for (const t of $$(`line[data-pick="${pickName}"]`, svg)) {
    const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map(k => +t.getAttribute(k));
    const len2 = (x2 - x1) ** 2 + (y2 - y1) ** 2 || 1;
    const u = Math.max(0, Math.min(1, ((p.x - x1) * (x2 - x1) + (p.y - y1) * (y2 - y1)) / len2));
    const d = Math.hypot(p.x - x1 - u * (x2 - x1), p.y - y1 - u * (y2 - y1));
    if (d < bestD) { bestD = d; best = t; }
  }
  return best;
}

const q = n => S.page.questions.find(x => x.number === n);
const fieldOf = (n, name) => $(`#q${n} .field[data-field="${CSS.escape(name)}"]`);
const inputOf = (n, name) => $('input', fieldOf(n, name));

// An edited answer's last score no longer holds.
function unscore(box) {
  box.classList.remove('correct', 'partial', 'wrong');
  $('.state', box).textContent = '';
}

function activate(n, name) {
  S.active[n] = name;
  for (const f of $$(`#q${n} .field`)) f.classList.toggle('active', f.dataset.field === name);
  const f = fieldOf(n, name);
  const want = f?.dataset.pick || '';
  const svg = $(`#q${n} .figure-box svg`);
  svg.classList.toggle('picking', !!want);
  // Targets of another kind stay clickable: a click on one moves the focus.
  for (const t of $$('[data-pick]', svg)) t.classList.toggle('off', !q(n).fields.some(x => x.pick === t.dataset.pick));
  roving(n, document.activeElement);
  const how = { labels: 'click_nodes', sequence: 'click_order', label: 'click_node', values: 'click_value', bounds: 'click_value', connectors: 'click_connectors' };
  let hint = want ? how[f.dataset.shape] : 'type_only';
  if (want === 'move') hint = 'click_moves';
  $(`#hint${n}`).textContent = f ? `${str('answer_on')} ${f.querySelector('code').textContent}: ${str(hint)}` : '';
  marks(n);
}

// ---- answers: the form's text is the answer sheet's; the figure edits it -----
const tomlString = s => JSON.stringify(s);
const tomlKey = k => /^[A-Za-z0-9_-]+$/.test(k) ? k : tomlString(k);
const tomlScalar = v => /^-?\d+$/.test(String(v).trim()) ? String(v).trim() : tomlString(String(v).trim());
function toToml(shape, v) {
  if (Array.isArray(v)) return v.length ? `[${v.map(tomlString).join(', ')}]` : '[]';
  if (v && typeof v === 'object') {
    const pairs = Object.entries(v).map(([k, x]) => `${tomlKey(k)} = ${tomlScalar(x)}`);
    return pairs.length ? `{ ${pairs.join(', ')} }` : '{}';
  }
  return v == null || v === '' ? '' : shape === 'label' ? tomlString(v) : tomlScalar(v);
}
// The field's text as data, read by the module as the grader reads a sheet.
function parsed(text) {
  if (!text.trim()) return null;
  const r = call({ op: 'value', text });
  return r.ok ? r.value : undefined;
}
function current(n, name) {
  const f = fieldOf(n, name), v = parsed(inputOf(n, name).value);
  const shape = f.dataset.shape;
  if (['values', 'bounds'].includes(shape)) return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  if (shape === 'label') return typeof v === 'string' ? v : '';
  return Array.isArray(v) ? v.map(String) : typeof v === 'string' && v ? [v] : [];
}
const same = (a, b) => a.toLowerCase() === b.toLowerCase();

function pick(n, target) {
  const name = S.active[n], f = fieldOf(n, name);
  if (!f || !f.dataset.pick) return;
  const label = target.dataset.label, shape = f.dataset.shape;
  let v = current(n, name);
  if (shape === 'values' || shape === 'bounds') return enterValue(n, name, target, v);
  if (shape === 'label') v = same(v, label) ? '' : label;
  else if (shape === 'sequence') {
    if (v.length && same(v[v.length - 1], label)) v.pop();
    else if (!v.some(x => same(x, label))) v.push(label);
  } else {
    const at = v.findIndex(x => same(x, label));
    if (at >= 0) v.splice(at, 1); else v.push(label);
  }
  inputOf(n, name).value = toToml(shape, v);
  unscore(f);
  marks(n);
}

function enterValue(n, name, target, table) {
  const box = target.closest('.figure-box');
  $('.value-entry', box)?.remove();
  const r = target.getBoundingClientRect(), b = box.getBoundingClientRect();
  const label = target.dataset.label;
  const key = Object.keys(table).find(k => same(k, label)) ?? label;
  const entry = el('input', { class: 'value-entry', 'aria-label': str('value_at', { node: label }), placeholder: str('value_at', { node: label }) });
  entry.value = table[key] ?? '';
  // Under the node, clear of it and of its neighbours' labels.
  entry.style.left = `${Math.max(0, r.left - b.left + box.scrollLeft + r.width / 2 - 50)}px`;
  entry.style.top = `${r.bottom - b.top + box.scrollTop + 3}px`;
  let closed = false;
  const done = keep => {
    if (closed) return;
    closed = true;
    if (keep) {
      const v = entry.value.trim();
      if (v) table[key] = v; else delete table[key];
      inputOf(n, name).value = toToml(fieldOf(n, name).dataset.shape, table);
      unscore(fieldOf(n, name));
      marks(n);
    }
    entry.remove();
  };
  // By keyboard, back to the place the value is for.
  entry.addEventListener('keydown', e => {
    if (e.key !== 'Enter' && e.key !== 'Escape') return;
    e.preventDefault();
    done(e.key === 'Enter');
    if (target.getAttribute('tabindex')) { target.focus(); describe(n, target); }
  });
  entry.addEventListener('blur', () => done(true));
  box.append(entry);
  entry.focus();
}

// The active field's answer drawn on the figure: picked places ringed, an
// order numbered, values written beside their nodes.
function marks(n) {
  const svg = $(`#q${n} .figure-box svg`);
  if (!svg) return;
  const layer = $('.marks', svg);
  layer.replaceChildren();
  for (const t of $$('.on', svg)) t.classList.remove('on');
  const name = S.active[n], f = name && fieldOf(n, name);
  if (!f || !f.dataset.pick) return;
  const shape = f.dataset.shape, v = current(n, name);
  const targets = $$(`[data-pick="${f.dataset.pick}"]`, svg);
  const find = label => targets.filter(t => same(t.dataset.label, label));
  const text = (x, y, s, cls, size) => {
    const t = document.createElementNS(SVG, 'text');
    Object.entries({ x, y, 'font-size': size, class: cls || '', 'dominant-baseline': 'central' }).forEach(([k, val]) => t.setAttribute(k, val));
    t.textContent = s;
    layer.append(t);
  };
  const corner = t => t.tagName === 'line'
    ? [(+t.getAttribute('x1') + +t.getAttribute('x2')) / 2, (+t.getAttribute('y1') + +t.getAttribute('y2')) / 2]
    : [+t.getAttribute('x'), +t.getAttribute('y')];
  if (shape === 'values' || shape === 'bounds') {
    for (const [label, value] of Object.entries(v)) for (const t of find(label).filter(t => t.tagName === 'rect')) {
      t.classList.add('on');
      const shown = String(value).replace('<=', '≤').replace('>=', '≥');
      text(+t.getAttribute('x') + +t.getAttribute('width') + 0.6, +t.getAttribute('y') + 1.2, shown, '', 3.2);
    }
    return;
  }
  const list = shape === 'label' ? (v ? [v] : []) : v;
  list.forEach((label, i) => {
    // A node is ringed (not the edge above it, which picks it too); a
    // connector or a move is only edges.
    const found = find(label), boxes = found.filter(t => t.tagName === 'rect');
    for (const t of boxes.length ? boxes : found) {
      t.classList.add('on');
      if (shape === 'sequence' && t.tagName === 'rect') {
        const [x, y] = corner(t);
        const c = document.createElementNS(SVG, 'circle');
        Object.entries({ cx: x, cy: y, r: 2, class: 'badge' }).forEach(([k, val]) => c.setAttribute(k, val));
        layer.append(c);
        text(x, y, String(i + 1), 'badge-text', 2.4);
        layer.lastChild.setAttribute('text-anchor', 'middle');
      }
    }
  });
}

// ---- the answer sheet, checking, dropping a sheet ------------------------------
// A one-value box (winner, best_move) takes a bare word as that word: `MIN`
// is "MIN". Anything the grader can read already is left as typed.
function asTyped(n, name, text) {
  const f = fieldOf(n, name);
  return f && f.dataset.shape === 'label' && parsed(text) === undefined && !/["'\[\]{}=]/.test(text)
    ? tomlString(text) : text;
}

// The blank sheet with the form's answers in place of its "" — the file a
// student would hand in, read by the same grader as `treequiz check`.
function filledSheet() {
  let section = 0;
  return sheets().answer_sheet.split('\n').map(line => {
    const head = line.match(/^\[q(\d+)\]$/);
    if (head) section = +head[1];
    const m = section && line.match(/^([A-Za-z0-9_]+) = ""$/);
    if (!m) return line;
    const input = inputOf(section, m[1]);
    return input && input.value.trim() ? `${m[1]} = ${asTyped(section, m[1], input.value.trim())}` : line;
  }).join('\n');
}

// Until the solution is shown, the feedback is worded as `treequiz grade
// --hide-key` words it: it says what is wrong without giving the key away.
// An exam sheet comes with its answer form (`form`: form.json's text and
// name) and is checked as `treequiz check` checks it, with no key.
function check(sheet, file, form = null) {
  const t0 = performance.now();
  const grade = () => call({ op: 'check', ...onScreen(), sheet, file, form: form?.text ?? '', form_file: form?.file ?? '', hide_key: !S.shown, hints: S.hintsTaken });
  let r = grade();
  if (!r.ok) { showFeedbackError(r.error); return r; }
  if (r.exam) { examFeedback(r); return r; }
  // A sheet of another seed: that exercise, drawn with its solution hidden.
  if (r.seed !== S.seed) { S.seed = r.seed; draw(); r = grade(); }
  S.last = { sheet, file };
  r.sheet = sheet;
  feedback(r);
  // Graded and its feedback built: what a student waits for.
  document.body.dataset.checkMs = (performance.now() - t0).toFixed(1);
  return r;
}

// "Try again": the same exercise with the answers as they are, no verdicts,
// no feedback and the solution put away.
function tryAgain() {
  S.last = null;
  $('#feedback').hidden = true;
  for (const box of $$('.field')) unscore(box);
  solution(false);
  const first = $('.field input');
  first?.scrollIntoView({ block: 'center' });
  first?.focus({ preventScroll: true });
}

function showFeedbackError(message) {
  const fb = $('#feedback');
  fb.hidden = false;
  fb.replaceChildren(el('h2', { text: str('feedback') }), el('pre', { class: 'error-text', text: message }));
  fb.scrollIntoView({ block: 'nearest' });
}

function feedback(r) {
  const v = r.feedback, fb = $('#feedback');
  fb.hidden = false;
  const parts = [el('h2', { text: `${str('feedback')} · ${str('total', { total: v.total, max: v.max })}` })];
  if (v.row.reason) parts.push(el('p', { text: `${v.status}: ${v.row.reason}` }));
  if (v.hints_taken) parts.push(el('p', { class: 'hints-taken', text: v.hints_taken }));
  for (const [i, q] of v.questions.entries()) {
    parts.push(el('h3', { text: `${q.heading} (${q.earned} / ${q.max})` }));
    // Each cell names its column, for narrow screens where rows stack.
    // The key's column only once the solution is shown (the view says which).
    const h = r.headers.filter((_, j) => j !== 3 || !v.hide_key);
    const rows = q.fields.map(f => el('tr', { class: 'fb-row' },
      el('td', { 'data-h': h[0] }, el('code', { text: f.field })),
      el('td', { 'data-h': h[1], text: `${f.earned} / ${f.max} · ${f.state}` }),
      el('td', { 'data-h': h[2], text: f.given }),
      v.hide_key ? null : el('td', { 'data-h': h[3], text: f.key }),
      el('td', { 'data-h': h.at(-1) }, ...[f.tally, ...f.reasons].filter(Boolean).flatMap(s => [s, el('br')]))));
    parts.push(el('div', { class: 'table-box', tabindex: '0' }, el('table', { class: 'fb' }, el('tr', {}, ...h.map(x => el('th', { text: x }))), ...rows)));
    const number = S.page.questions[i]?.number;
    for (const f of q.fields) {
      const box = number && fieldOf(number, f.field);
      if (!box) continue;
      box.classList.remove('correct', 'partial', 'wrong');
      box.classList.add(f.earned === f.max ? 'correct' : +f.earned === 0 ? 'wrong' : 'partial');
      $('.state', box).textContent = `${f.earned} / ${f.max} · ${f.state}`;
    }
  }
  if (v.row.problems?.length) parts.push(el('ul', {}, ...v.row.problems.map(p => el('li', { text: p }))));
  const again = el('button', { type: 'button', class: 'again', text: str('try_again') });
  again.addEventListener('click', tryAgain);
  parts.push(el('p', {}, again));
  // The words of the command that gives them: `check` prints the key, a
  // teacher's `grade --hide-key` writes feedback/*.md without it.
  parts.push(v.hide_key
    ? el('details', {}, el('summary', { text: 'treequiz grade --hide-key' }), el('pre', { class: 'feedback-md', text: r.feedback_md }))
    : el('details', {}, el('summary', { text: 'treequiz check' }), el('pre', { class: 'feedback-text', text: r.feedback_text })));
  // Messages name lines of the sheet checked: here it is, numbered.
  const numbered = r.sheet.split('\n').map((l, i) => `${String(i + 1).padStart(3)}  ${l}`).join('\n');
  parts.push(el('details', {}, el('summary', { text: str('sheet_checked') }), el('pre', { class: 'sheet-text', text: numbered })));
  fb.replaceChildren(...parts);
}

// What `treequiz check` prints for an exam sheet: what the grader will
// read, field by field; nothing on screen changes but the feedback.
function examFeedback(r) {
  S.last = null;
  const fb = $('#feedback');
  fb.hidden = false;
  fb.replaceChildren(el('h2', { text: str('exam_checked') }), el('pre', { class: 'exam-text', text: r.text }));
  fb.scrollIntoView({ block: 'nearest' });
}

// Files dropped or chosen: a sheet, and an exam sheet's form.json with it.
async function dropped(files) {
  const form = files.find(f => /\.json$/i.test(f.name));
  const sheet = files.find(f => f !== form);
  if (!sheet) return showFeedbackError(str('sheet_alone'));
  learn(check(await sheet.text(), sheet.name, form ? { text: await form.text(), file: form.name } : null));
}

// ---- the solution and its replay ------------------------------------------------
function solution(show) {
  if (show) solved();
  for (const q of S.page.questions) {
    const box = $(`#solution${q.number}`);
    box.hidden = !show;
    if (!show || box.childElementCount) continue;
    const k = q.key;
    const fig = el('div', { class: 'figure-box key-figure', tabindex: '0' });
    fig.innerHTML = k.figure;
    const answers = el('table', {}, ...k.answers.map(a => el('tr', {}, el('td', {}, el('code', { text: a.field }), ' — ' + a.description), el('td', { text: a.text }))));
    const parts = [el('h3', { text: str('solution') }), el('p', { class: 'legend', text: k.legend }), fig, el('div', { class: 'table-box', tabindex: '0' }, answers)];
    if (k.notes.length) parts.push(el('ul', {}, ...k.notes.map(n => el('li', { text: n }))));
    if (k.steps.length) {
      const table = el('table', { class: 'steps' }, el('tr', {}, ...k.headers.map(h => el('th', { text: h }))),
        ...k.steps.map(s => el('tr', {}, ...s.cells.map(c => el('td', { text: c })))));
      const back = el('button', { type: 'button', class: 'back', text: '◀ ' + str('back') });
      const next = el('button', { type: 'button', class: 'next', text: str('next') + ' ▶' });
      const play = el('button', { type: 'button', class: 'play', text: str('replay') });
      const caption = el('p', { class: 'caption', 'aria-live': 'polite' });
      const stage = el('div', { class: 'figure-box replay-figure', tabindex: '0', hidden: '' });
      stage.innerHTML = q.figure;
      play.addEventListener('click', () => replay(q.number, 0));
      back.addEventListener('click', () => replay(q.number, (S.replay[q.number] ?? 0) - 1));
      next.addEventListener('click', () => replay(q.number, (S.replay[q.number] ?? -1) + 1));
      parts.push(el('h3', { text: k.table_title }), el('div', { class: 'replay' }, play, back, next), stage, caption, el('div', { class: 'table-box', tabindex: '0' }, table));
    }
    box.replaceChildren(...parts);
  }
  if (show) fit();
  $('#solution').textContent = str(show ? 'hide_solution' : 'solution');
  if (S.shown === show) return;
  S.shown = show;
  if (show) S.seen = true;
  // The feedback on screen, in the wording that now applies.
  if (S.last && !$('#feedback').hidden) check(S.last.sheet, S.last.file);
}

// Step i of the key's table: its row, and the nodes it names ringed on the
// question's figure beside the caption; past the last step, the key's figure.
function replay(n, i) {
  const q = solved().find(x => x.number === n), steps = q.key.steps;
  i = Math.max(0, Math.min(i, steps.length));
  S.replay[n] = i;
  const box = $(`#solution${n}`), stage = $('.replay-figure', box), svg = $('svg', stage);
  for (const t of $$('.step', svg)) t.classList.remove('step');
  $$('tr', $('.steps', box)).forEach((tr, r) => tr.classList.toggle('now', r === i + 1));
  const caption = $('.caption', box), key = $('.key-figure', box);
  const last = i === steps.length;
  const walks = steps.some(x => x.frame || x.labels.length);
  stage.hidden = last || !walks;
  key.hidden = !last;
  fit();
  if (last) {
    caption.textContent = str('final');
    key.scrollIntoView({ block: 'nearest' });
    return;
  }
  const s = steps[i];
  $('.frame', svg)?.remove();
  if (s.frame) frame(svg, s.frame);
  else for (const label of s.labels) for (const t of $$('rect[data-label]', svg)) if (t.dataset.label === label) t.classList.add('step');
  caption.textContent = `${str('step', { n: i + 1, total: steps.length })} ` + s.cells.map((c, j) => c.trim() && `${q.key.headers[j]}: ${c}`).filter(Boolean).join('; ');
  stage.scrollIntoView({ block: 'nearest' });
}

// A kind's frame drawn over the figure: the step's node ringed, what is
// known of each node beside it, cut edges crossed, skipped nodes greyed,
// marked connectors thick.
function frame(svg, f) {
  const layer = document.createElementNS(SVG, 'g');
  layer.setAttribute('class', 'frame');
  svg.append(layer);
  const at = (label, tag) => $$(`${tag}[data-label]`, svg).filter(t => t.dataset.label === label);
  const add = (tag, attrs, text) => {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text != null) e.textContent = text;
    layer.append(e);
  };
  for (const label of f.focus) for (const t of at(label, 'rect')) t.classList.add('step');
  for (const label of f.dim) for (const t of at(label, 'rect')) {
    add('rect', { x: t.getAttribute('x'), y: t.getAttribute('y'), width: t.getAttribute('width'), height: t.getAttribute('height'), class: 'dim' });
  }
  for (const label of f.marked) for (const t of at(label, 'line')) {
    add('line', { x1: t.getAttribute('x1'), y1: t.getAttribute('y1'), x2: t.getAttribute('x2'), y2: t.getAttribute('y2'), class: 'marked' });
  }
  for (const label of f.cut) for (const t of at(label, 'line')) {
    const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map(k => +t.getAttribute(k));
    const [mx, my] = [(x1 + x2) / 2, (y1 + y2) / 2], len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
    for (const shift of [-0.6, 0.6]) {
      const [cx, cy] = [mx + ux * shift, my + uy * shift];
      add('line', { x1: cx - uy * 1.6 - ux * 0.8, y1: cy + ux * 1.6 - uy * 0.8, x2: cx + uy * 1.6 + ux * 0.8, y2: cy - ux * 1.6 + uy * 0.8, class: 'cut' });
    }
  }
  if (f.window) for (const label of f.focus) for (const t of at(label, 'rect')) {
    add('text', { x: +t.getAttribute('x') + +t.getAttribute('width') / 2, y: +t.getAttribute('y') - 2, 'font-size': 3, 'text-anchor': 'middle', class: 'window' }, f.window);
  }
  for (const [label, text] of f.values) for (const t of at(label, 'rect')) {
    const [x, y, w, h] = ['x', 'y', 'width', 'height'].map(k => +t.getAttribute(k));
    // Beside a tree's node; above a graph's wide box, whose neighbours sit close beside it.
    const wide = w > h * 1.3;
    add('text', { x: wide ? x + w : x + w + 0.6, y: wide ? y - 1.4 : y + 1.2, 'font-size': 3.2, 'text-anchor': wide ? 'end' : 'start', 'dominant-baseline': 'central', class: 'known' }, text);
  }
}

// ---- mastery: a level per kind, kept in this browser only ----------------------
// The rule (docs/web.md, "Levels"; after ASSISTments' three in a row and
// Khan Academy's levels): each exercise counts once, the first time it is
// checked; the first check of a kind makes it practising; three in a row
// with full marks, no hint and the solution unseen make it proficient; one
// more on a later day makes it mastered. Anything less breaks the row; a
// level once reached stays.
const LEVELS = ['new', 'practising', 'proficient', 'mastered'];
const SIZE_OF = { new: 'small', practising: 'small', proficient: 'medium', mastered: 'large' };
const STORE = 'treequiz-progress', FORMAT = 'treequiz-progress', VERSION = 1;
const today = () => new Date(Date.now()).toISOString().slice(0, 10);
const blank = () => ({ format: FORMAT, version: VERSION, kinds: {} });

// Why `p` is not progress this page wrote (empty: it is).
function invalid(p) {
  if (!p || typeof p !== 'object' || p.format !== FORMAT) return 'not a progress file';
  if (p.version !== VERSION) return `version ${p.version}, not ${VERSION}`;
  if (!p.kinds || typeof p.kinds !== 'object' || Array.isArray(p.kinds)) return 'no kinds';
  for (const [name, k] of Object.entries(p.kinds)) {
    if (!LEVELS.includes(k?.level)) return `${name}: no level`;
    if (!Number.isInteger(k.streak) || k.streak < 0) return `${name}: no streak`;
    if (!Array.isArray(k.counted) || k.counted.some(x => typeof x !== 'string')) return `${name}: no exercises counted`;
    if (k.proficient_on != null && !/^\d{4}-\d{2}-\d{2}$/.test(k.proficient_on)) return `${name}: a bad date`;
  }
  return '';
}
function progress() {
  try {
    const p = JSON.parse(localStorage.getItem(STORE));
    return invalid(p) ? blank() : p;
  } catch {
    return blank();
  }
}
function save(p) {
  try { localStorage.setItem(STORE, JSON.stringify(p)); } catch { /* storage off: progress lives as long as the page */ }
}
const levelOf = kind => progress().kinds[kind]?.level ?? 'new';

// One exercise of `kind` checked: `id` names it, `full` is full marks,
// `helped` a hint taken or the solution seen. The note it leaves.
function count(p, kind, id, full, helped) {
  const k = p.kinds[kind] ??= { level: 'new', streak: 0, counted: [], proficient_on: null };
  if (k.counted.includes(id)) return null;
  k.counted.push(id);
  if (k.counted.length > 500) k.counted.shift();
  const before = k.level;
  if (k.level === 'new') k.level = 'practising';
  if (full && !helped) {
    k.streak++;
    if (k.level === 'practising' && k.streak >= 3) { k.level = 'proficient'; k.proficient_on = today(); }
    else if (k.level === 'proficient' && today() > k.proficient_on) k.level = 'mastered';
  } else {
    k.streak = 0;
  }
  const title = kindTitle(kind);
  return k.level !== before
    ? str('level_up', { kind: title, level: str('level_' + k.level) })
    : str('counted', { kind: title, streak: k.level === 'practising' ? str('streak', { n: k.streak }) : str('level_' + k.level) });
}

// A check's questions counted, each as an exercise of its kind; the notes
// go under the feedback.
function learn(r) {
  if (!r?.ok || r.exam || !S.page) return;
  const p = progress(), notes = [];
  r.feedback.questions.forEach((fq, i) => {
    const pq = S.page.questions[i];
    if (!pq) return;
    const note = count(p, pq.kind, `${S.page.variant}/${S.kind === 'course' ? 'course' : S.size}/${S.seed}/q${pq.number}`,
      +fq.earned === +fq.max, S.seen || !!S.hinted[pq.number]);
    notes.push(note ?? str('not_counted'));
  });
  save(p);
  $('#feedback h2')?.after(...notes.map(t => el('p', { class: 'level-note', text: t })));
  showProgress();
}

const kindTitle = kind => started(S.lang || S.page?.lang || 'en').kinds.find(k => k.name === kind)?.title ?? kind;
// The set's course path (`[practice] path`; the chapter's order by default).
const path = () => S.page.path;

function showProgress() {
  const box = $('#progress'), p = progress();
  box.hidden = false;
  const level = kind => p.kinds[kind]?.level ?? 'new';
  const here = S.kind === 'course' ? S.page.questions[0]?.kind : S.kind;
  $('#progress-now').textContent = str('progress_kind', { kind: kindTitle(here), level: str('level_' + level(here)) });
  $('#path').replaceChildren(...path().map(kind => {
    const k = p.kinds[kind], lv = level(kind);
    const go = el('button', { type: 'button', class: 'path-kind', text: kindTitle(kind) });
    if (kind === S.kind) go.setAttribute('aria-current', 'true');
    go.addEventListener('click', () => practise(kind));
    const streak = lv === 'practising' && k.streak ? ` · ${str('streak', { n: k.streak })}` : '';
    return el('li', { 'data-kind': kind, 'data-level': lv }, go, ' ', el('span', { class: `level level-${lv}`, text: str('level_' + lv) + streak }));
  }));
  const next = path().find(kind => LEVELS.indexOf(level(kind)) < 2);
  const line = $('#path-next');
  line.replaceChildren(next ? str('path_next', { kind: kindTitle(next) }) : str('path_done'));
  if (next && next !== S.kind) {
    const go = el('button', { type: 'button', class: 'practise', text: str('practise') });
    go.addEventListener('click', () => practise(next));
    line.append(' ', go);
  }
  const link = $('#progress-export');
  if (link.href.startsWith('blob:')) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([JSON.stringify(p, null, 2) + '\n'], { type: 'application/json' }));
}

// A fresh exercise of `kind` at its level's size (unless one was picked).
function practise(kind) {
  S.kind = kind;
  S.options = {};
  if (!S.sizeByHand) S.size = SIZE_OF[levelOf(kind)];
  S.seed = String(1 + Math.floor(Math.random() * 9999));
  draw();
}

function importProgress(file) {
  file.text().then(text => {
    let p, why;
    try { p = JSON.parse(text); why = invalid(p); } catch (e) { why = 'not JSON'; }
    if (why) return progressNote(str('import_bad', { file: file.name, why }));
    save(p);
    showProgress();
    progressNote(str('imported', { file: file.name }));
  });
}
function progressNote(text) { $('#progress-note').textContent = text; }

// ---- downloads and the command line ---------------------------------------------
function downloads() {
  const url = (text, type) => URL.createObjectURL(new Blob([text], { type }));
  // A sheet's link takes its file when clicked (the answers typed so far),
  // and has it beforehand once the sheets have come, after the draw.
  const link = (a, file) => { a.href = S.sheets ? file() : '#'; a.onclick = () => { a.href = file(); }; };
  link($('#dl-sheet'), () => url(filledSheet(), 'text/plain'));
  $('#dl-set').href = url(S.set, 'text/plain');
  link($('#worksheet'), () => url(sheets().worksheet_html, 'text/html'));
  $('#command').textContent = `treequiz generate set.toml --seed ${S.seed} --out practice && treequiz check practice/answer-sheet.toml`;
}

// ---- wiring -------------------------------------------------------------------
function wire() {
  $('#new').addEventListener('click', () => {
    if (S.kind !== 'course' && !S.sizeByHand) S.size = SIZE_OF[levelOf(S.kind)];
    S.seed = String(1 + Math.floor(Math.random() * 9999));
    draw();
  });
  $('#kind').addEventListener('change', e => { S.kind = e.target.value; S.options = {}; draw(); });
  $('#size').addEventListener('change', e => { S.size = e.target.value; S.sizeByHand = true; S.options = {}; draw(); });
  $('#progress-file').addEventListener('change', e => { if (e.target.files[0]) importProgress(e.target.files[0]); e.target.value = ''; });
  $('#progress-reset').addEventListener('click', () => {
    if (!confirm(str('reset_confirm'))) return;
    try { localStorage.removeItem(STORE); } catch { /* nothing kept */ }
    showProgress();
    progressNote(str('reset_done'));
  });
  $('#seed').addEventListener('change', e => { if (/^\d+$/.test(e.target.value.trim())) { S.seed = e.target.value.trim(); draw(); } });
  $('#lang').addEventListener('change', e => { S.lang = e.target.value; keepAnswers(draw); });
  $('#check').addEventListener('click', () => learn(check(filledSheet(), 'answer-sheet.toml')));
  $('#solution').addEventListener('click', () => solution(!S.shown));
  $('#file').addEventListener('change', e => { if (e.target.files.length) dropped([...e.target.files]); e.target.value = ''; });
  addEventListener('dragover', e => { e.preventDefault(); document.body.classList.add('dragging'); });
  addEventListener('dragleave', e => { if (!e.relatedTarget) document.body.classList.remove('dragging'); });
  addEventListener('drop', e => {
    e.preventDefault();
    document.body.classList.remove('dragging');
    if (e.dataTransfer.files.length) dropped([...e.dataTransfer.files]);
  });
  addEventListener('hashchange', () => { readHash(); draw(); });
}

// Switching language redraws the same exercise; the answers typed so far stay.
function keepAnswers(redraw) {
  const kept = $$('.field input').map(i => [i.id, i.value]);
  redraw();
  for (const [id, value] of kept) { const i = document.getElementById(id); if (i) i.value = value; }
  for (const q of S.page.questions) marks(q.number);
}

// The module is in the page deflated and in base64 (`treequiz practice`):
// the browser unpacks it as a stream and compiles it as the bytes arrive.
async function load() {
  const text = $('#tq-module').textContent.trim();
  let packed;
  if (Uint8Array.fromBase64) packed = Uint8Array.fromBase64(text);
  else {
    const raw = atob(text);
    packed = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) packed[i] = raw.charCodeAt(i);
  }
  performance.mark('tq-decoded');
  const wasm = new Blob([packed]).stream().pipeThrough(new DecompressionStream('deflate'));
  const { instance } = await WebAssembly.instantiateStreaming(new Response(wasm, { headers: { 'content-type': 'application/wasm' } }), {});
  return instance.exports;
}

// The page's own timer (performance marks, from the moment the page was
// opened): the browser test prints them and docs/web.md gives them.
async function main() {
  performance.mark('tq-script');
  try {
    tq = await load();
  } catch (e) {
    return status('The WebAssembly module could not be loaded: ' + e, true);
  }
  performance.mark('tq-instantiated');
  readHash();
  S.strings = started(S.lang || 'en').strings;
  wire();
  draw();
  performance.mark('tq-drawn');
  document.body.dataset.firstMs = performance.now().toFixed(1);
  document.body.dataset.ready = '1';
}
main();
