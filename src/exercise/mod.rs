//! Exercise kinds: instance → [`Key`] (typed answers and the solver's trace),
//! the key's explanation, and the teaching reason for each kind of mistake.
//! One module per kind; [`KINDS`] is the registry, so a new kind is one
//! module and one line (see docs/adding-a-kind.md). What kinds are made of
//! lives apart: `field` (what a kind asks), `mistake` (what the grader
//! finds wrong), `limit` (what a generated exercise must meet).

pub(crate) mod alpha_beta;
mod answer;
mod ao_star;
mod budget;
pub mod example;
mod expectiminimax;
mod field;
mod grundy;
mod key;
mod limit;
mod lookahead;
mod minimax;
mod mistake;
mod othello;
mod othello_terms;
mod principal_variation;
mod solution_cost;
mod solvable;
mod tictactoe;

use crate::draw::Figure;
use crate::games::lookahead::Budgets;
use crate::gametree;
pub use crate::instance::{Family, Item};
use crate::instance::{Instance, Model};
use crate::lang::Lang;
use crate::reason::Reason;
pub use answer::relation;
pub use ao_star::{
    MIN_STEPS as AO_MIN_STEPS, STEPS_PER_ITEM as AO_STEPS_PER_ITEM, max_steps as ao_max_steps,
};
pub use field::{Domain, Field, Shape};
pub use key::{Answer, Key, Solver, Trace};
pub use limit::{Limit, Measure};
pub use mistake::{Mistake, plain};

/// A table of the key (alpha-beta steps, AO* cycles): headers and rows of text.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Table {
    /// Column headings.
    pub headers: Vec<String>,
    /// Rows of cells.
    pub rows: Vec<Vec<String>>,
}

/// A key explained for people, in one language: what a key page shows beside the answers.
#[derive(Clone, Debug)]
pub struct Explained {
    /// The drawing with the key's marks.
    pub figure: Figure,
    /// The step-by-step table.
    pub table: Table,
    /// Sentences that explain the answer (cuts and their causes, switches).
    pub notes: Vec<String>,
}

/// Whether a view lays out its figures: a sheet does; `solve`'s text and
/// JSON show none, and laying out a figure of a million nodes costs more
/// than solving it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Figures {
    /// Laid out.
    Drawn,
    /// Left out: an empty figure.
    Left,
}

impl Figures {
    /// The figure `draw` lays out, or an empty one.
    pub fn draw(self, draw: impl FnOnce() -> Figure) -> Figure {
        match self {
            Figures::Drawn => draw(),
            Figures::Left => Figure::default(),
        }
    }
}

/// What the figure shows after one row of a key's step table, for the
/// practice page's replay: labels as the answer sheet writes them.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Frame {
    /// What the row is about (the node searched, the tip expanded): ringed.
    pub focus: Vec<String>,
    /// What is known of each node so far: text beside it (`≥5`, `7`).
    pub values: Vec<(String, String)>,
    /// Roots of the branches cut so far: their edge is crossed.
    pub cut: Vec<String>,
    /// Nodes that will never be examined, as far as the search knows so far.
    pub dim: Vec<String>,
    /// Connectors marked so far (AO*'s current best choices).
    pub marked: Vec<String>,
    /// The bounds in force at the focus (alpha-beta's `α = 3, β = +∞`), written under it.
    pub window: Option<String>,
}

/// One step of the key's own trace, asked as a question and then told:
/// what a stuck student is shown (`check --hint N`, the practice page).
/// Both are reasons, so every language words them from its string table.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Hint {
    /// The step as a question ("What is the window when C is entered?").
    pub question: Reason,
    /// Its answer ("α = 3 from A, β = +∞").
    pub answer: Reason,
    /// The nodes it is about, as the answer sheet writes them (to ring).
    pub nodes: Vec<String>,
}

/// What a kind's explanations read: the instance, its model, its key.
pub struct Context<'a> {
    /// The instance.
    pub instance: &'a Instance,
    /// What its labels name.
    pub model: &'a Model<'a>,
    /// The key.
    pub key: &'a Key,
    /// The set's conventions.
    pub conventions: &'a Conventions,
}

impl Context<'_> {
    /// The label of an item.
    pub fn name(&self, item: Item) -> String {
        self.model.name(item)
    }

    /// The labels of items.
    pub fn names(&self, items: &[Item]) -> Vec<String> {
        items.iter().map(|&i| self.name(i)).collect()
    }
}

/// The conventions a set fixes for its exercises (DESIGN §3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Conventions {
    /// Alpha-beta options.
    pub alpha_beta: gametree::Options,
    /// AO* gives up once the start node's cost exceeds this (`solve --futility`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ao_futility: Option<u64>,
}

/// An exercise kind: its fields, its solver, its explanations.
pub struct KindDef {
    /// The name used in problem sets.
    pub name: &'static str,
    /// The instances it works on.
    pub family: Family,
    /// The fields it can ask for, in the order the sheet lists them.
    pub fields: &'static [Field],
    /// The solver whose trace its keys hold ([`Trace::solver`]).
    pub solver: Solver,
    /// Solves an instance of the kind's family: the key, as data. Like
    /// `explain`, `teach` and `measure`, it is handed only instances its
    /// `unusable` accepts: every caller checks (problem_set and manifest for
    /// fixed instances, fair::draw for generated ones, `solve` by filtering),
    /// so the `unreachable!`s of the kinds name what `unusable` ruled out.
    pub solve: fn(&Instance, &Conventions) -> Key,
    /// The key for people, for the fields asked: its marked figure, its
    /// table and its notes.
    pub explain: fn(&Context<'_>, &[&str], &Lang, Figures) -> Explained,
    /// Why a mistake in `field` is one ("you pruned K, but …"); kinds with
    /// nothing more to teach use [`plain`]. With `hide`, nothing that gives
    /// the key away (the grader never asks about extra or missed items then).
    pub teach: fn(&Context<'_>, &str, Mistake<'_>, bool) -> Vec<Reason>,
    /// Why an instance cannot be used for this kind, if it cannot.
    pub unusable: fn(&Instance) -> Option<String>,
    /// The conventions its key assumes for the fields asked, one line each,
    /// as the sheet states them.
    pub conventions: fn(&Instance, &Conventions, &[&str], &Lang) -> Vec<String>,
    /// What can be counted of a solved exercise (docs/generators.md): the
    /// first is its work (leaves evaluated, expansions, …), which a class set
    /// keeps even across variants. A problem set may bound any of them.
    pub measures: &'static [Measure],
    /// The values of [`KindDef::measures`], in their order.
    pub measure: fn(&Context<'_>) -> Vec<u64>,
    /// What a generated exercise must meet to make its point, given the
    /// fields it asks (an alpha-beta exercise without a cut is trivial).
    pub point: fn(&[&str]) -> Vec<Limit>,
    /// The key replayed on the sheet's figure: one [`Frame`] per row of
    /// the explanation's table, or none where the sheet's figure is not what
    /// the search walks (a game's board) or there are no steps.
    pub replay: fn(&Context<'_>) -> Vec<Frame>,
    /// The key's trace as hints, one step each, in the order a student
    /// works; kinds without steps of their own use [`no_hints`], and
    /// [`KindDef::hints_of`] then tells the key's answers one entry at a time.
    pub hints: fn(&Context<'_>) -> Vec<Hint>,
    /// The node budget a generated instance is searched under when the set
    /// gives none: the key (`budget` or `deepening`) and the range
    /// docs/problem-sets.md documents. It is the only budget key the kind
    /// takes; [`Budgets::NONE`] for kinds that search to a depth.
    pub budgets: Budgets,
    /// The practice page's exercise of the kind in each size.
    pub sizes: Sizes,
}

/// A kind's generated exercise in the practice page's three sizes: the
/// problem-set lines of its generator (as in the shipped sets), each small
/// enough to work by hand and within the family's page size
/// ([`check`] generates them).
#[derive(Clone, Copy, Debug)]
pub struct Sizes {
    /// A first exercise.
    pub small: &'static str,
    /// The size the page opens at.
    pub medium: &'static str,
    /// The largest that stays legible and quick to work.
    pub large: &'static str,
}

impl Sizes {
    /// The sizes' names, smallest first.
    pub const NAMES: [&'static str; 3] = ["small", "medium", "large"];

    /// The generator lines of the size called `name`.
    pub fn get(&self, name: &str) -> Option<&'static str> {
        match name {
            "small" => Some(self.small),
            "medium" => Some(self.medium),
            "large" => Some(self.large),
            _ => None,
        }
    }
}

impl KindDef {
    /// The measures of a solved exercise, by name, in the kind's order.
    pub fn measures_of(
        &self,
        instance: &Instance,
        key: &Key,
        conventions: &Conventions,
    ) -> Vec<(&'static str, u64)> {
        let model = instance.model();
        let values = (self.measure)(&Context {
            instance,
            model: &model,
            key,
            conventions,
        });
        self.measures.iter().map(|m| m.name()).zip(values).collect()
    }

    /// The key of `instance` replayed step by step ([`KindDef::replay`]).
    pub fn replay_key(
        &self,
        instance: &Instance,
        key: &Key,
        conventions: &Conventions,
    ) -> Vec<Frame> {
        let model = instance.model();
        (self.replay)(&Context {
            instance,
            model: &model,
            key,
            conventions,
        })
    }

    /// The hints of `instance`'s key ([`KindDef::hints`]), or, for a kind
    /// without its own, its answers told one entry at a time ([`hints_from_key`]).
    pub fn hints_of(&self, instance: &Instance, key: &Key, conventions: &Conventions) -> Vec<Hint> {
        let model = instance.model();
        let ctx = Context {
            instance,
            model: &model,
            key,
            conventions,
        };
        let own = (self.hints)(&ctx);
        if own.is_empty() {
            hints_from_key(self, &ctx)
        } else {
            own
        }
    }

    /// `field`, one of the kind's fields.
    pub fn field(&self, field: &str) -> &'static Field {
        self.fields
            .iter()
            .find(|f| f.name == field)
            .expect("asked fields belong to the kind")
    }

    /// The shape of the answer to `field`, one of the kind's fields.
    pub fn shape(&self, field: &str) -> Shape {
        self.field(field).shape
    }

    /// A field's wording in Moodle: its own (`moodle_field.*`, where a
    /// choice list or a box makes the sheet's wording read badly) or the
    /// sheet's, the kind's own before the shared one. It carries no colon:
    /// Moodle's line ends with the one colon before the box ([`check`]).
    pub fn moodle_wording(&self, field: &str, lang: &Lang) -> String {
        let keys = [
            format!("moodle_field.{field}_{}", self.name),
            format!("field.{field}_{}", self.name),
            format!("moodle_field.{field}"),
        ];
        match keys.iter().find(|k| lang.has(k)) {
            Some(k) => lang.get(k).to_string(),
            None => lang.for_kind("field", field, self.name).to_string(),
        }
    }

    /// Every field's name, in the kind's order.
    pub fn field_names(&self) -> Vec<&'static str> {
        self.fields.iter().map(|f| f.name).collect()
    }

    /// The asked fields in the kind's order, which sheets and keys list them in.
    pub fn in_field_order(&self, ask: &[&str]) -> Vec<&'static str> {
        self.fields
            .iter()
            .map(|f| f.name)
            .filter(|f| ask.contains(f))
            .collect()
    }

    /// The key of `instance` explained in `lang` for the fields asked: its
    /// marked figure, table and notes.
    pub fn explain_key(
        &self,
        instance: &Instance,
        key: &Key,
        conventions: &Conventions,
        ask: &[&str],
        lang: &Lang,
    ) -> Explained {
        let model = instance.model();
        (self.explain)(
            &Context {
                instance,
                model: &model,
                key,
                conventions,
            },
            ask,
            lang,
            Figures::Drawn,
        )
    }

    /// Checks a key read back from a file: this kind's solver, an answer of
    /// the right shape to every field, ids that the instance's model has.
    pub fn check(&self, key: &Key, model: &Model<'_>) -> Result<(), String> {
        if key.trace.solver() != self.solver {
            return Err(format!(
                "a {} key holds a {} trace",
                self.name,
                key.trace.solver()
            ));
        }
        for f in self.fields {
            let answer = key
                .answer(f.name)
                .ok_or_else(|| format!("the key has no `{}`", f.name))?;
            if !f.shape.admits(answer) {
                return Err(format!("the key's `{}` has the wrong shape", f.name));
            }
        }
        if let Some(extra) = key
            .answers
            .keys()
            .find(|k| !self.fields.iter().any(|f| f.name == k.as_str()))
        {
            return Err(format!("`{extra}` is not a field of {}", self.name));
        }
        key.check_ids(model)
    }
}

impl KindDef {
    /// Whether the instance is one this kind is meant for: its family, and
    /// its search stopped by the kind's own budget key (or by none, for the
    /// kinds without one). A plain game tree is not node-budget's, so that
    /// kind's refusal of it says nothing; othello-budget's refusal of a
    /// position given `budget` does.
    pub fn meant_for(&self, instance: &Instance) -> bool {
        let own = self.budgets.key_and_range().map(|(key, _)| key);
        self.family == instance.family() && own == instance.budget_key()
    }
}

impl std::fmt::Debug for KindDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// Every exercise kind.
pub static KINDS: &[&KindDef] = &[
    &minimax::KIND,
    &principal_variation::KIND,
    &alpha_beta::KIND,
    &expectiminimax::KIND,
    &budget::TREE_BUDGET,
    &budget::TREE_DEEPENING,
    &solvable::KIND,
    &solution_cost::KIND,
    &ao_star::KIND,
    &tictactoe::KIND,
    &grundy::KIND,
    &othello::KIND,
    &othello_terms::KIND,
    &budget::OTHELLO_BUDGET,
    &budget::OTHELLO_DEEPENING,
];

/// The kind with this name.
pub fn kind(name: &str) -> Option<&'static KindDef> {
    KINDS.iter().copied().find(|k| k.name == name)
}

/// The practice page's course path when a set names none: the chapter's
/// order, minimax to α-β, AND/OR graphs (solvable, cost by sum and by max,
/// AO*), the games, then search under a node budget.
const COURSE_PATH: &[&str] = &[
    "minimax",
    "alpha-beta",
    "and-or-solvable",
    "solution-cost",
    "ao-star",
    "tictactoe",
    "grundy",
    "othello",
    "node-budget",
];

/// [`COURSE_PATH`]'s kinds.
pub fn course_path() -> Vec<&'static KindDef> {
    COURSE_PATH
        .iter()
        .map(|name| kind(name).expect("the course path names kinds of the registry"))
        .collect()
}

/// The names of every kind, for messages.
pub fn kind_names() -> Vec<&'static str> {
    KINDS.iter().map(|k| k.name).collect()
}

/// What the registry promises of every kind, beyond what the types hold:
/// names, fields and measures unique; every limit a kind sets on a measure
/// it has; each practice size a generator table of the family's keys whose
/// instances fit a page and suit the kind; every string a kind's sheet,
/// key and Moodle questions read, in every built-in language, with Moodle's
/// wordings free of colons; hints for each practice size, worded in every
/// built-in language. One line per broken promise.
pub fn check() -> Vec<String> {
    let mut out = Vec::new();
    for (i, kind) in KINDS.iter().enumerate() {
        if KINDS[..i].iter().any(|k| k.name == kind.name) {
            out.push(format!("two kinds are called `{}`", kind.name));
        }
        check_kind(kind, &mut out);
    }
    out
}

fn check_kind(kind: &KindDef, out: &mut Vec<String>) {
    let name = kind.name;
    for (i, f) in kind.fields.iter().enumerate() {
        if kind.fields[..i].iter().any(|g| g.name == f.name) {
            out.push(format!("{name} asks `{}` twice", f.name));
        }
        for other in [f.root_field, f.swaps_with].into_iter().flatten() {
            if !kind.fields.iter().any(|g| g.name == other) {
                out.push(format!(
                    "{name} `{}` names `{other}`, not a field of it",
                    f.name
                ));
            }
        }
        if f.order != crate::scoring::OrderScoring::Lcs && f.shape != Shape::Sequence {
            out.push(format!(
                "{name} `{}` scores an order but is not one",
                f.name
            ));
        }
    }
    // Measures are problem-set keys beside the generator's.
    let keys = kind.family.param_keys();
    if kind.measures.is_empty() {
        out.push(format!("{name} has no measures (the first is its work)"));
    }
    for (i, m) in kind.measures.iter().enumerate() {
        let n = m.name();
        if kind.measures[..i].contains(m) {
            out.push(format!("{name} counts `{n}` twice"));
        }
        if n.is_empty() || !n.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') {
            out.push(format!("{name}'s measure `{n}` is not a snake_case key"));
        }
        if keys.contains(&n) || n == "even" {
            out.push(format!("{name}'s measure `{n}` is a generator key too"));
        }
    }
    // Every choice of fields a set can ask.
    let every = kind.field_names();
    for mask in 1u32..1 << every.len() {
        let ask: Vec<&str> = (0..every.len())
            .filter(|b| mask & 1 << b != 0)
            .map(|b| every[b])
            .collect();
        for limit in (kind.point)(&ask) {
            let line = format!("{name} sets `{limit}` on a measure it does not count");
            if !kind.measures.contains(&limit.measure) && !out.contains(&line) {
                out.push(line);
            }
        }
    }
    for size in Sizes::NAMES {
        let lines = kind.sizes.get(size).expect("every size has lines");
        if let Err(why) = check_size(kind, lines) {
            out.push(format!("{name}'s {size} size: {why}"));
        }
    }
    for code in crate::lang::BUILTIN.iter().map(|b| b.code) {
        let lang = Lang::builtin(code).expect("a built-in language");
        check_strings(kind, &lang, out);
    }
}

/// A practice size reads as a problem set's generator lines would, and its
/// instances fit a page and suit the kind.
fn check_size(kind: &KindDef, lines: &str) -> Result<(), String> {
    let source = crate::input::Source {
        path: format!("{} size", kind.name),
        text: lines.to_string(),
    };
    let error = |e: crate::input::InputError| e.to_string();
    let doc = source.parse().map_err(error)?;
    let r = crate::input::Reader { source: &source };
    let t = r.table(&doc, kind.family.param_keys(), "").map_err(error)?;
    let own = kind.budgets.key_and_range().map(|(k, _)| k);
    for key in ["budget", "deepening"] {
        if t.get(key).is_some() && own != Some(key) {
            return Err(format!("`{key}` is not this kind's budget"));
        }
    }
    let params = kind
        .family
        .read_params(&r, &t, kind.budgets)
        .map_err(error)?;
    let most = crate::instance::MAX_EXERCISE_NODES;
    if let Some((nodes, _)) = params.page_size().filter(|&(n, _)| n > most) {
        return Err(format!("up to {nodes} nodes, more than a page's {most}"));
    }
    for seed in 0..3 {
        let instance = params
            .generate(seed, gametree::Options::default())
            .map_err(|e| format!("seed {seed}: {e}"))?;
        if let Some(why) = (kind.unusable)(&instance) {
            return Err(format!("seed {seed}: {why}"));
        }
        check_hints(kind, &instance).map_err(|why| format!("seed {seed}: {why}"))?;
    }
    Ok(())
}

/// A practice exercise has hints, and each is worded in every built-in
/// language: every string it names is there and fills all its `{name}`s.
fn check_hints(kind: &KindDef, instance: &Instance) -> Result<(), String> {
    fn keys(r: &Reason, out: &mut Vec<&'static str>) {
        out.push(r.phrase.key());
        for (_, arg) in &r.args {
            match arg {
                crate::reason::Arg::Term(k) => out.push(k),
                crate::reason::Arg::Reason(r) => keys(r, out),
                crate::reason::Arg::Text(_) => {}
            }
        }
    }
    let conventions = Conventions::default();
    let key = (kind.solve)(instance, &conventions);
    let hints = kind.hints_of(instance, &key, &conventions);
    if hints.is_empty() {
        return Err("no hints".into());
    }
    for code in crate::lang::BUILTIN.iter().map(|b| b.code) {
        let lang = Lang::builtin(code).expect("a built-in language");
        for r in hints.iter().flat_map(|h| [&h.question, &h.answer]) {
            let mut names = Vec::new();
            keys(r, &mut names);
            if let Some(k) = names.iter().find(|k| !lang.has(k)) {
                return Err(format!("{code} lacks the hint's `{k}`"));
            }
            let text = r.render(&lang, false);
            if text.contains('{') {
                return Err(format!(
                    "{code} leaves a `{{name}}` unfilled in the hint `{text}`"
                ));
            }
        }
    }
    Ok(())
}

/// A kind's own strings: its name and prompt, each field's description (its
/// own wording, or the shared one), its family's legends. Examples are made
/// per variant ([`example`]), not worded.
fn check_strings(kind: &KindDef, lang: &Lang, out: &mut Vec<String>) {
    let name = kind.name;
    let code = &lang.code;
    let mut need = |keys: &[String]| {
        if !keys.iter().any(|k| lang.has(k)) {
            out.push(format!("{code} lacks `{}`", keys.join("` and `")));
        }
    };
    need(&[format!("kind.{name}")]);
    need(&[format!("prompt.{name}")]);
    for f in kind.fields {
        need(&[
            format!("field.{}_{name}", f.name),
            format!("field.{}", f.name),
        ]);
    }
    need(&[format!("sheet.steps_{name}"), "sheet.steps".into()]);
    let family = kind.family.key_name();
    need(&[format!("sheet.legend_{family}")]);
    need(&[format!("sheet.legend_key_{family}")]);
    // A game's key without cuts (`pruned` not asked) has its own legend.
    if kind.solver == Solver::Lookahead && kind.fields.iter().any(|f| f.name == "pruned") {
        need(&[
            format!("sheet.legend_key_{family}_nocuts_{name}"),
            format!("sheet.legend_key_{family}_nocuts"),
        ]);
    }
    // Moodle asks no table of bounds (docs/moodle.md).
    for f in kind.fields.iter().filter(|f| f.shape != Shape::Bounds) {
        let wording = kind.moodle_wording(f.name, lang);
        if wording.contains([':', '：']) {
            out.push(format!(
                "{code} {name} `{}`: Moodle's wording `{wording}` has a colon, and Moodle's line ends with the one before its box",
                f.name
            ));
        }
    }
}

/// For kinds with no steps of their own to hint: [`KindDef::hints_of`]
/// falls back on [`hints_from_key`].
fn no_hints(_: &Context<'_>) -> Vec<Hint> {
    Vec::new()
}

/// The key's answers as hints, in the kind's field order: one per entry of
/// a list of values (each node's) and per item of a list, one per other field. Fields are named as
/// the answer sheet writes them, the same in every language.
pub fn hints_from_key(kind: &KindDef, ctx: &Context<'_>) -> Vec<Hint> {
    use crate::reason::Phrase::Own;
    let mut out = Vec::new();
    let entry = |field: &str, item: Item, value: String| Hint {
        question: Reason::new(Own("hint.entry_q"))
            .with("field", field)
            .with("node", ctx.name(item)),
        answer: Reason::new(Own("hint.entry_a"))
            .with("field", field)
            .with("node", ctx.name(item))
            .with("value", value),
        nodes: vec![ctx.name(item)],
    };
    for f in kind.fields {
        let Some(answer) = ctx.key.answer(f.name) else {
            continue;
        };
        let (value, nodes) = match answer {
            Answer::Values(p) => {
                out.extend(p.iter().map(|(i, v)| entry(f.name, *i, v.to_string())));
                continue;
            }
            Answer::Bounds(p) => {
                out.extend(p.iter().map(|(i, b)| entry(f.name, *i, b.to_string())));
                continue;
            }
            Answer::Fractions(p) => {
                out.extend(p.iter().map(|(i, r)| entry(f.name, *i, r.to_string())));
                continue;
            }
            Answer::Value(v) => (v.to_string(), Vec::new()),
            Answer::Cost(c) => (c.to_string(), Vec::new()),
            // Tied answers are all right; the key's own first is told.
            Answer::One(items) => {
                let names = ctx.names(&items[..items.len().min(1)]);
                (names.join(", "), names)
            }
            // A list one item at a time (none: the field, told empty).
            Answer::Set(items) | Answer::Sequence(items) if !items.is_empty() => {
                let count = items.len().to_string();
                out.extend(items.iter().enumerate().map(|(i, &item)| {
                    Hint {
                        question: Reason::new(Own("hint.item_q"))
                            .with("field", f.name)
                            .with("n", (i + 1).to_string())
                            .with("count", count.clone()),
                        answer: Reason::new(Own("hint.item_a"))
                            .with("field", f.name)
                            .with("n", (i + 1).to_string())
                            .with("node", ctx.name(item)),
                        nodes: vec![ctx.name(item)],
                    }
                }));
                continue;
            }
            Answer::Set(_) | Answer::Sequence(_) => (String::new(), Vec::new()),
        };
        let value = if value.is_empty() {
            "—".to_string()
        } else {
            value
        };
        out.push(Hint {
            question: Reason::new(Own("hint.field_q")).with("field", f.name),
            answer: Reason::new(Own("hint.field_a"))
                .with("field", f.name)
                .with("value", value),
            nodes,
        });
    }
    out
}

/// For kinds whose steps do not walk the sheet's figure.
fn no_replay(_: &Context<'_>) -> Vec<Frame> {
    Vec::new()
}

fn any_instance(_: &Instance) -> Option<String> {
    None
}

/// Why a game-tree kind that searches the whole tree cannot use a tree
/// searched under a node budget.
fn whole_tree(instance: &Instance) -> Option<String> {
    matches!(instance, Instance::BudgetTree(_)).then(|| {
        "this tree is searched under a node budget (it gives `estimates` and `budget` or `deepening`): ask node-budget or iterative-deepening of it, or remove those keys".to_string()
    })
}

/// The game tree of a tree-searching kind's model.
fn tree<'a>(ctx: &'a Context<'_>) -> &'a gametree::Tree {
    ctx.model.tree().expect("the problem set checks the family")
}

/// The graph of an AND/OR kind's model.
fn graph<'a>(ctx: &'a Context<'_>) -> &'a crate::andor::Graph {
    ctx.model
        .graph()
        .expect("the problem set checks the family")
}

/// The game tree of a game-tree instance (solvers read the instance).
fn instance_tree(instance: &Instance) -> &gametree::Tree {
    match instance {
        Instance::GameTree(t) => t,
        // minimax's and alpha-beta's `unusable` (whole_tree) refuse a budgeted tree.
        _ => unreachable!("unusable accepts only a plain game tree"),
    }
}

/// The graph of an AND/OR instance.
fn instance_graph(instance: &Instance) -> &crate::andor::Graph {
    match instance {
        Instance::AndOr(g) => g,
        _ => unreachable!("the problem set checks the family"),
    }
}

/// The alpha-beta conventions a search states: the preset they are (or that
/// they are none), child order, then when a cut happens.
fn search_conventions(c: &Conventions, lang: &Lang) -> Vec<String> {
    let c = c.alpha_beta;
    let preset = match gametree::Preset::of(c) {
        Some(p) => lang.fill(
            "convention.preset",
            &[
                ("name", p.name()),
                ("source", lang.get(&format!("preset.{}", p.name()))),
            ],
        ),
        None => lang.get("convention.no_preset").to_string(),
    };
    let mut lines = vec![
        preset,
        lang.get(if c.order == gametree::Order::LeftToRight {
            "convention.order_ltr"
        } else {
            "convention.order_rtl"
        })
        .to_string(),
        lang.get(if c.prune_on_equal {
            "convention.prune_on_equal"
        } else {
            "convention.prune_strict"
        })
        .to_string(),
    ];
    // Under the strict rule nothing passes ±∞: the initial window never cuts.
    if c.prune_on_equal {
        lines.push(
            lang.get(if c.initial_window_counts {
                "convention.window_counts"
            } else {
                "convention.window_ancestors"
            })
            .to_string(),
        );
    }
    lines
}

/// Which player the tree's root is.
fn root_convention(instance: &Instance, lang: &Lang) -> String {
    let t = instance_tree(instance);
    lang.get(if t.root_player() == gametree::Player::Max {
        "convention.root_max"
    } else {
        "convention.root_min"
    })
    .to_string()
}

/// For kinds whose key assumes nothing beyond their rules.
/// A game's alpha-beta conventions, when the exercise asks what alpha-beta
/// prunes (a sheet that asks only values and moves does not state them).
fn pruning_conventions(c: &Conventions, ask: &[&str], lang: &Lang) -> Vec<String> {
    if ask.contains(&"pruned") {
        search_conventions(c, lang)
    } else {
        Vec::new()
    }
}

fn no_conventions(_: &Instance, _: &Conventions, _: &[&str], _: &Lang) -> Vec<String> {
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind keeps the registry's promises ([`check`]).
    #[test]
    fn every_kind_checks() {
        assert_eq!(check(), Vec::<String>::new());
    }

    /// A replay has a frame per row of the key's table, and its last frame
    /// is the key's own figure: alpha-beta's values, cuts and unexamined
    /// nodes; AO*'s final costs and marks.
    #[test]
    fn a_replay_ends_where_the_key_does() {
        let conventions = Conventions::default();
        for seed in 0..200 {
            for (kind, family) in [("alpha-beta", Family::GameTree), ("ao-star", Family::AndOr)] {
                let kind = super::kind(kind).unwrap();
                let instance = match family {
                    Family::GameTree => Instance::GameTree(
                        crate::gametree::generate::generate(&Default::default(), seed).unwrap(),
                    ),
                    _ => Instance::AndOr(
                        crate::andor::generate::generate(&Default::default(), seed).unwrap(),
                    ),
                };
                let key = (kind.solve)(&instance, &conventions);
                let frames = kind.replay_key(&instance, &key, &conventions);
                let lang = Lang::builtin("en").unwrap();
                let e = kind.explain_key(&instance, &key, &conventions, &kind.field_names(), &lang);
                assert_eq!(
                    frames.len(),
                    e.table.rows.len(),
                    "{} seed {seed}",
                    kind.name
                );
                let last = frames.last().unwrap();
                let model = instance.model();
                if let Some(t) = model.tree() {
                    let ab = key.alpha_beta().unwrap();
                    let unexamined: Vec<String> = t
                        .ids()
                        .filter(|&id| !ab.examined(id))
                        .map(|id| t.label(id).into_owned())
                        .collect();
                    let mut dim = last.dim.clone();
                    dim.sort();
                    let mut want = unexamined.clone();
                    want.sort();
                    assert_eq!(dim, want, "seed {seed}: the dimmed nodes");
                    let values: Vec<(String, String)> = t
                        .ids()
                        .filter(|&id| t.leaf(id).is_none())
                        .filter_map(|id| {
                            let b = ab.bound(id)?;
                            Some((t.label(id).into_owned(), alpha_beta::bound_text(b)))
                        })
                        .collect();
                    assert_eq!(last.values, values, "seed {seed}: the values");
                } else {
                    let g = model.graph().unwrap();
                    let Trace::AoStar(run) = &key.trace else {
                        unreachable!()
                    };
                    for (n, c) in g.ids().zip(&run.costs) {
                        let shown = last.values.iter().find(|(l, _)| l == g.label(n));
                        assert_eq!(
                            shown.map(|(_, v)| v.trim_end_matches(" ✓").to_string()),
                            c.map(|c| c.to_string()),
                            "seed {seed}: the cost of {}",
                            g.label(n)
                        );
                    }
                }
            }
        }
    }

    /// The kinds that can use a fixture (an Othello position searched by
    /// depth is not one a node budget searches).
    fn usable_kinds(instance: &Instance) -> Vec<&'static KindDef> {
        KINDS
            .iter()
            .copied()
            .filter(|k| k.family == instance.family() && (k.unusable)(instance).is_none())
            .collect()
    }

    /// A random tree with uneven depth, one to four children, ties and ±∞
    /// leaves (so that the initial window cuts where the conventions let it).
    fn ragged_tree(seed: u64) -> gametree::Tree {
        use crate::value::Value;
        let mut rng = crate::rng::Rng::from_seed(seed);
        let root = if rng.percent(50) {
            gametree::Player::Max
        } else {
            gametree::Player::Min
        };
        gametree::Tree::build_levels(root, |depth| {
            if depth == 0 || (depth < 4 && rng.percent(75)) {
                gametree::Grow::Children(rng.between(1, 4) as u32)
            } else {
                gametree::Grow::Leaf(match rng.below(12) {
                    0 => Value::PosInf,
                    1 => Value::NegInf,
                    _ => Value::Finite(rng.between(0, 6)),
                })
            }
        })
        .unwrap()
    }

    /// Every item a key names lies in its field's domain, which never
    /// depends on the key: alpha-beta's pruned roots and cut nodes under
    /// every preset and both child orders, on ragged trees; the other kinds'
    /// labels and connectors on their fixtures.
    #[test]
    fn keys_name_only_items_of_their_fields_domains() {
        let within = |kind: &KindDef, instance: &Instance, conventions: &Conventions| {
            let key = (kind.solve)(instance, conventions);
            let model = instance.model();
            for f in kind.fields {
                let items = match key.answer(f.name).unwrap() {
                    Answer::One(items) | Answer::Set(items) => items,
                    _ => continue,
                };
                if f.domain == Domain::Squares {
                    continue;
                }
                let domain = f
                    .domain
                    .items(&model, f.shape, conventions.alpha_beta.order);
                for i in items {
                    assert!(
                        domain.contains(i),
                        "{} `{}`: {} is outside its domain",
                        kind.name,
                        f.name,
                        model.name(*i)
                    );
                }
            }
        };
        let ab = super::kind("alpha-beta").unwrap();
        let mut cuts = [0usize; 2];
        for seed in 0..1500 {
            let instance = Instance::GameTree(ragged_tree(seed));
            for preset in gametree::Preset::ALL {
                for order in [gametree::Order::LeftToRight, gametree::Order::RightToLeft] {
                    let conventions = Conventions {
                        alpha_beta: gametree::Options {
                            order,
                            ..preset.options()
                        },
                        ..Conventions::default()
                    };
                    within(ab, &instance, &conventions);
                    let key = (ab.solve)(&instance, &conventions);
                    let ab_trace = key.alpha_beta().unwrap();
                    cuts[usize::from(order == gametree::Order::RightToLeft)] += ab_trace.cuts.len();
                }
            }
        }
        assert!(cuts.iter().all(|&c| c > 1000), "the trees cut: {cuts:?}");
        for path in [
            "problem-sets/instances/aima-fig-5-2.toml",
            "tests/fixtures/good/and-or.toml",
            "tests/fixtures/good/tictactoe.toml",
            "tests/fixtures/good/othello.toml",
            "tests/fixtures/good/othello-budget.toml",
            "tests/fixtures/good/othello-deepening.toml",
            "tests/fixtures/good/node-budget.toml",
            "tests/fixtures/good/iterative-deepening.toml",
            "tests/fixtures/good/grundy-7.toml",
        ] {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
            let instance = crate::instance::load(&path).unwrap();
            for kind in usable_kinds(&instance) {
                within(kind, &instance, &Conventions::default());
            }
        }
    }

    /// A field's `root_field` asks, on its own, that field's entry for the
    /// root: it comes earlier in the kind's order and the keys agree
    /// (minimax's `value` is the root's row of `values`; Grundy's `winner`
    /// is MAX exactly when the start is among `max_wins`).
    #[test]
    fn a_root_field_asks_the_root_entry() {
        let mut pairs = 0;
        for kind in KINDS {
            for (i, f) in kind.fields.iter().enumerate() {
                let Some(r) = f.root_field else { continue };
                pairs += 1;
                let j = kind.fields.iter().position(|g| g.name == r);
                assert!(j.is_some_and(|j| j < i), "{} `{}`", kind.name, f.name);
            }
        }
        assert_eq!(pairs, 2, "minimax's values and Grundy's max_wins");
        let check = |kind: &KindDef, instance: &Instance| {
            let key = (kind.solve)(instance, &Conventions::default());
            let root = instance.model().root();
            for f in kind.fields {
                let Some(r) = f.root_field else { continue };
                match (key.answer(r).unwrap(), key.answer(f.name).unwrap()) {
                    (Answer::Value(v), Answer::Values(rows)) => {
                        assert!(rows.contains(&(root, *v)), "{}", kind.name)
                    }
                    (Answer::One(winner), Answer::Set(states)) => assert_eq!(
                        winner == &[Item::Player(gametree::Player::Max)],
                        states.contains(&root),
                        "{}",
                        kind.name
                    ),
                    _ => panic!("{} `{}`: no rule for this pair", kind.name, f.name),
                }
            }
        };
        let minimax = super::kind("minimax").unwrap();
        for seed in 0..300 {
            check(minimax, &Instance::GameTree(ragged_tree(seed)));
        }
        let grundy = super::kind("grundy").unwrap();
        for coins in 3..=crate::games::grundy::MAX_EXERCISE_COINS {
            for first in [gametree::Player::Max, gametree::Player::Min] {
                check(grundy, &Instance::Grundy { coins, first });
            }
        }
    }

    /// Grundy's replay solves every state once, bottom up: each state's
    /// winner is written only after the winners of the states it moves to.
    #[test]
    fn grundy_is_replayed_from_the_bottom() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/good/grundy-7.toml");
        let instance = crate::instance::load(&path).unwrap();
        let kind = super::kind("grundy").unwrap();
        let conventions = Conventions::default();
        let key = (kind.solve)(&instance, &conventions);
        let frames = kind.replay_key(&instance, &key, &conventions);
        let model = instance.model();
        let g = model.grundy().unwrap();
        assert_eq!(frames.len(), g.states.len());
        for (i, f) in frames.iter().enumerate() {
            let s = g
                .states
                .iter()
                .position(|st| st.name() == f.focus[0])
                .unwrap();
            for &next in &g.moves[s] {
                let name = g.states[next].name();
                assert!(
                    frames[..i].iter().any(|e| e.focus[0] == name),
                    "{} is solved before {name}",
                    f.focus[0]
                );
            }
        }
        assert_eq!(frames.last().unwrap().values.len(), g.states.len());
    }

    /// A game's sheet states the alpha-beta conventions only when it asks
    /// what alpha-beta prunes.
    #[test]
    fn pruning_conventions_only_where_pruning_is_asked() {
        let lang = Lang::builtin("en").unwrap();
        let conventions = Conventions::default();
        let preset = lang.fill(
            "convention.preset",
            &[
                ("name", "textbook"),
                ("source", lang.get("preset.textbook")),
            ],
        );
        for (path, kind) in [
            ("tests/fixtures/good/tictactoe.toml", "tictactoe"),
            ("tests/fixtures/good/othello.toml", "othello"),
            ("tests/fixtures/good/othello-budget.toml", "othello-budget"),
            ("tests/fixtures/good/node-budget.toml", "node-budget"),
        ] {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
            let instance = crate::instance::load(&path).unwrap();
            let kind = super::kind(kind).unwrap();
            let lines = |ask: &[&str]| (kind.conventions)(&instance, &conventions, ask, &lang);
            assert!(
                lines(&["best_move", "pruned"]).contains(&preset),
                "{}",
                kind.name
            );
            let without = lines(&["move_values", "best_move"]);
            assert!(
                !without.is_empty() && !without.contains(&preset),
                "{}",
                kind.name
            );
        }
    }

    /// Every phrase a kind's explanation or conventions use exists: a key
    /// rendered in every language shows no string-table key.
    /// Every sentence a kind teaches, shared or its own ([`Phrase::Own`]),
    /// has its string in every built-in language, with the key shown and
    /// hidden, and in the teacher's summary: each field of each kind usable
    /// on the fixtures is taught each mistake its answer's form can have.
    #[test]
    fn every_kind_teaches_in_strings_it_has() {
        use crate::gametree::Bound;
        use crate::value::{Ratio, Value};
        let chance = crate::instance::parse(&crate::input::Source {
            path: "chance.toml".into(),
            text: "kind = \"chance-tree\"\ntree = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]\n".into(),
        })
        .unwrap();
        let mut instances = vec![chance];
        for path in [
            "problem-sets/instances/aima-fig-5-2.toml",
            "tests/fixtures/good/and-or.toml",
            "tests/fixtures/good/tictactoe.toml",
            "tests/fixtures/good/othello.toml",
            "tests/fixtures/good/othello-budget.toml",
            "tests/fixtures/good/node-budget.toml",
            "tests/fixtures/good/grundy-7.toml",
        ] {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
            instances.push(crate::instance::load(&path).unwrap());
        }
        let conventions = Conventions::default();
        let langs: Vec<Lang> = crate::lang::BUILTIN
            .iter()
            .map(|b| Lang::builtin(b.code).unwrap())
            .collect();
        let mut taught = 0;
        for instance in &instances {
            let model = instance.model();
            for kind in usable_kinds(instance) {
                let key = (kind.solve)(instance, &conventions);
                let ctx = Context {
                    instance,
                    model: &model,
                    key: &key,
                    conventions: &conventions,
                };
                for field in kind.fields {
                    let Some(answer) = key.answer(field.name) else {
                        continue;
                    };
                    // An item of the figure other than `item`.
                    let other = |item: Item| match item {
                        Item::Node(n) => Item::Node(if n == 0 { 1 } else { 0 }),
                        other => other,
                    };
                    let mistakes: Vec<Mistake<'_>> = match answer {
                        Answer::Set(k) | Answer::Sequence(k) if !k.is_empty() => vec![
                            Mistake::Extra(other(k[0])),
                            Mistake::Missed(&k[..1]),
                            Mistake::Diverges {
                                pos: 0,
                                key: k[0],
                                given: other(k[0]),
                            },
                            Mistake::Short {
                                count: 1,
                                last: Some(k[0]),
                            },
                            Mistake::Long {
                                given: k[k.len() - 1],
                            },
                            Mistake::Unknown("Z9"),
                        ],
                        Answer::One(k) if !k.is_empty() => {
                            vec![Mistake::WrongOne(other(k[0])), Mistake::Unknown("Z9")]
                        }
                        Answer::Value(v) => vec![Mistake::Number {
                            key: *v,
                            given: Value::Finite(999),
                        }],
                        Answer::Values(p) if !p.is_empty() => vec![Mistake::Value {
                            item: p[0].0,
                            key: Bound::Exact(p[0].1),
                            given: Bound::Exact(Value::Finite(999)),
                        }],
                        Answer::Bounds(p) if !p.is_empty() => vec![Mistake::Value {
                            item: p[0].0,
                            key: p[0].1,
                            given: Bound::Exact(Value::Finite(999)),
                        }],
                        Answer::Fractions(p) if !p.is_empty() => vec![Mistake::Fraction {
                            item: p[0].0,
                            key: p[0].1,
                            given: Ratio::integer(999),
                        }],
                        _ => Vec::new(),
                    };
                    for mistake in mistakes {
                        for hide in [false, true] {
                            for reason in (kind.teach)(&ctx, field.name, mistake, hide) {
                                taught += 1;
                                for lang in &langs {
                                    for text in
                                        [reason.render(lang, hide), reason.render_mistake(lang)]
                                    {
                                        assert!(
                                            !text.contains("grade.") && !text.contains("mistake."),
                                            "{} {} {:?}: `{text}` ({})",
                                            kind.name,
                                            field.name,
                                            reason.phrase,
                                            lang.code
                                        );
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(taught > 200, "only {taught} reasons taught");
    }

    #[test]
    fn explanations_name_no_missing_string() {
        let instances = [
            "problem-sets/instances/aima-fig-5-2.toml",
            "tests/fixtures/good/and-or.toml",
            "tests/fixtures/good/tictactoe.toml",
            "tests/fixtures/good/othello.toml",
            "tests/fixtures/good/othello-budget.toml",
            "tests/fixtures/good/othello-deepening.toml",
            "tests/fixtures/good/node-budget.toml",
            "tests/fixtures/good/iterative-deepening.toml",
            "tests/fixtures/good/grundy-7.toml",
        ];
        let conventions = Conventions::default();
        for code in crate::lang::BUILTIN.iter().map(|b| b.code) {
            let lang = Lang::builtin(code).unwrap();
            for path in instances {
                let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
                let instance = crate::instance::load(&path).unwrap();
                for kind in usable_kinds(&instance) {
                    let key = (kind.solve)(&instance, &conventions);
                    let e =
                        kind.explain_key(&instance, &key, &conventions, &kind.field_names(), &lang);
                    let every = kind.field_names();
                    let texts = e
                        .notes
                        .iter()
                        .chain(e.table.headers.iter())
                        .chain(e.table.rows.iter().flatten())
                        .cloned()
                        .chain((kind.conventions)(&instance, &conventions, &every, &lang));
                    for text in texts {
                        for section in [
                            "note.",
                            "table.",
                            "step.",
                            "convention.",
                            "model.",
                            "preset.",
                        ] {
                            assert!(
                                !text.contains(section),
                                "{code} {}: `{text}` names a missing string",
                                kind.name
                            );
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod hint_tests {
    use super::*;

    /// `path`'s instance, solved by `kind`: its hints in `lang`, a line each.
    pub(super) fn hints_text(path: &str, kind: &str, lang: &str) -> Vec<String> {
        let instance = if path.ends_with(".toml") {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
            crate::instance::load(&path).unwrap()
        } else {
            crate::instance::parse(&crate::input::Source {
                path: "inline.toml".into(),
                text: path.into(),
            })
            .unwrap()
        };
        let kind = super::kind(kind).unwrap();
        let conventions = Conventions::default();
        let key = (kind.solve)(&instance, &conventions);
        let lang = Lang::builtin(lang).unwrap();
        kind.hints_of(&instance, &key, &conventions)
            .iter()
            .map(|h| {
                format!(
                    "{} → {}",
                    h.question.render(&lang, false),
                    h.answer.render(&lang, false)
                )
            })
            .collect()
    }

    const FIG_5_2: &str = "problem-sets/instances/aima-fig-5-2.toml";
    const AND_OR: &str = "tests/fixtures/good/and-or.toml";

    /// Minimax backs up the inner nodes bottom up, left to right (AIMA fig 5.2).
    #[test]
    fn minimax_hints_back_up_one_node_at_a_time() {
        assert_eq!(
            hints_text(FIG_5_2, "minimax", "en"),
            [
                "What is the value of B? → B = min(3, 12, 8) = 3",
                "What is the value of C? → C = min(2, 4, 6) = 2",
                "What is the value of D? → D = min(14, 5, 2) = 2",
                "What is the value of A? → A = max(3, 2, 2) = 3",
            ]
        );
        assert_eq!(
            hints_text(FIG_5_2, "minimax", "zh")[0],
            "B 的值是多少？ → B = min(3, 12, 8) = 3"
        );
    }

    /// Alpha-beta's hints: the window each node is entered with, whose bound
    /// it is, and what is cut below it.
    #[test]
    fn alpha_beta_hints_give_the_window_and_the_cut() {
        assert_eq!(
            hints_text(FIG_5_2, "alpha-beta", "en"),
            [
                "What is the window when B is entered? → α = −∞, β = +∞",
                "Is anything cut below B? → No: every child of B is searched.",
                "What is the window when C is entered? → α = 3 from A, β = +∞",
                "Is anything cut below C? → α-cut at C: β(C) = 2 ≤ α(A) = 3; pruned: I, J.",
                "What is the window when D is entered? → α = 3 from A, β = +∞",
                "Is anything cut below D? → No: every child of D is searched.",
            ]
        );
        assert_eq!(
            hints_text(FIG_5_2, "alpha-beta", "zh")[2],
            "进入 C 时的窗口是什么？ → α = 3（来自 A），β = +∞"
        );
    }

    #[test]
    fn principal_variation_hints_give_the_next_move() {
        assert_eq!(
            hints_text(FIG_5_2, "principal-variation", "en"),
            [
                "Where does MAX move at A? → A → B: max(3, 2, 2) = 3",
                "Where does MIN move at B? → B → E: min(3, 12, 8) = 3",
            ]
        );
    }

    /// AO*: which tip each cycle expands, then why that one.
    #[test]
    fn ao_star_hints_give_the_tip_then_why() {
        assert_eq!(
            hints_text(AND_OR, "ao-star", "en")[..4],
            [
                "Which tip does cycle 1 expand? → Cycle 1 expands S.",
                "Why does cycle 1 expand S? → the first cycle expands the start node",
                "Which tip does cycle 2 expand? → Cycle 2 expands A.",
                "Why does cycle 2 expand A? → after cycle 1 the marked connectors from the start lead to the unsolved tip A first (start cost 3)",
            ]
        );
        assert_eq!(
            hints_text(AND_OR, "ao-star", "zh")[2],
            "第 2 轮扩展哪个端结点？ → 第 2 轮扩展 A。"
        );
    }

    /// Node budget: the budget of each next position, from its parent's.
    #[test]
    fn budget_hints_give_the_next_childs_budget() {
        let hints = hints_text("tests/fixtures/good/node-budget.toml", "node-budget", "en");
        assert_eq!(
            hints[0],
            "What is the budget of B? → B: budget 2 = A's 7 ÷ 3 (A's number of moves), rounded down; a node with a budget above 0 is expanded, not evaluated"
        );
        // B's moves come next, before C's siblings' own.
        assert_eq!(
            hints[3],
            "What is the budget of E? → E: budget 1 = B's 2 ÷ 2 (B's number of moves), rounded down; a node with a budget above 0 is expanded, not evaluated"
        );
    }

    #[test]
    fn expectiminimax_hints_give_a_chance_nodes_mean() {
        let tree = "kind = \"chance-tree\"\ntree = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]\n";
        let hints = hints_text(tree, "expectiminimax", "en");
        assert_eq!(
            hints[0],
            "What is the value of B? → B is a chance node, the probability-weighted mean of its children's values: B = (3 + 12 + 8) / 3 = 23/3"
        );
        assert_eq!(
            hints[3],
            "What is the value of A? → A = max(23/3, 4, 7) = 23/3"
        );
    }

    /// A kind without hints of its own tells its key one entry at a time.
    #[test]
    fn a_kind_without_its_own_hints_tells_its_answers() {
        assert_eq!(
            hints_text(AND_OR, "and-or-solvable", "en")[..2],
            [
                "Which is item 1 of the 8 in `solvable`? → item 1 of `solvable`: S",
                "Which is item 2 of the 8 in `solvable`? → item 2 of `solvable`: A",
            ]
        );
    }
}
