//! Exercise kinds: instance → [`Key`] (typed answers and the solver's trace),
//! the key's explanation, and the teaching reason for each kind of mistake.
//! One module per kind; [`KINDS`] is the registry, so a new kind is one
//! module and one line (see docs/adding-a-kind.md).

pub(crate) mod alpha_beta;
mod answer;
mod ao_star;
mod grundy;
mod key;
mod lookahead;
mod minimax;
mod othello;
mod othello_terms;
mod solution_cost;
mod solvable;
mod tictactoe;

use crate::draw::Figure;
use crate::gametree;
pub use crate::instance::{Family, Item};
use crate::instance::{Instance, Model};
use crate::lang::Lang;
use crate::reason::Reason;
pub use answer::{Shape, relation};
pub use ao_star::MAX_REVISIONS as AO_MAX_REVISIONS;
pub use key::{Answer, Key, Trace};

/// A field an exercise can ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The key in answer files, e.g. `pruned`.
    pub name: &'static str,
    /// The shape of its answer.
    pub shape: Shape,
}

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

/// A difference between a student's answer to one field and the key, found
/// by the grader; the kind says why it is one ([`KindDef::teach`]).
#[derive(Clone, Copy, Debug)]
pub enum Mistake<'a> {
    /// A listed item the key does not list.
    Extra(Item),
    /// Items the key lists that the answer lacks (all of one field at once,
    /// so a kind can group them).
    Missed(&'a [Item]),
    /// An order that first differs from the key's at `pos` (0-based).
    Diverges {
        /// Where.
        pos: usize,
        /// The key's item there.
        key: Item,
        /// The student's.
        given: Item,
    },
    /// An order that stops `count` items early, after `last`.
    Short {
        /// How many are missing.
        count: usize,
        /// The last item given.
        last: Option<Item>,
    },
    /// An order that goes on after the search stops, from `given` on.
    Long {
        /// The first item past the key's end.
        given: Item,
    },
    /// A single item that is not the key's.
    WrongOne(Item),
    /// A label that names nothing in the figure.
    Unknown(&'a str),
}

/// The grader's plain wording of a mistake: what kinds without more to
/// teach say, and what the others fall back on.
pub fn plain(ctx: &Context<'_>, field: &str, mistake: Mistake<'_>, hide: bool) -> Vec<Reason> {
    use crate::reason::Phrase;
    let one = |r: Reason| vec![r];
    match mistake {
        Mistake::Extra(item) => one(Reason::new(Phrase::ExtraHidden).with("node", ctx.name(item))),
        Mistake::Missed(_) if hide => one(Reason::new(Phrase::MissingHidden)),
        Mistake::Missed(items) => items
            .iter()
            .map(|&i| Reason::new(Phrase::NodeMissing).with("node", ctx.name(i)))
            .collect(),
        Mistake::Diverges { pos, key, given } => one(Reason::new(Phrase::OrderDiverges)
            .with("pos", (pos + 1).to_string())
            .with("given", ctx.name(given))
            .with("key", ctx.name(key))),
        Mistake::Short { count, last } => one(Reason::new(Phrase::OrderShort)
            .with("count", count.to_string())
            .with("last", last.map(|l| ctx.name(l)).unwrap_or_default())),
        Mistake::Long { given } => {
            one(Reason::new(Phrase::OrderLong).with("given", ctx.name(given)))
        }
        Mistake::WrongOne(given) => one(Reason::new(Phrase::LabelWrong)
            .with(
                "key",
                ctx.key
                    .answer(field)
                    .map(|a| a.to_text(ctx.model))
                    .unwrap_or_default(),
            )
            .with("given", ctx.name(given))),
        Mistake::Unknown(label) => one(ctx.model.unknown(label)),
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
    pub solver: &'static str,
    /// Solves an instance of the kind's family: the key, as data.
    pub solve: fn(&Instance, &Conventions) -> Key,
    /// The key for people: its marked figure, its table and its notes.
    pub explain: fn(&Context<'_>, &Lang) -> Explained,
    /// Why a mistake in `field` is one ("you pruned K, but …"); kinds with
    /// nothing more to teach use [`plain`]. With `hide`, nothing that gives
    /// the key away (the grader never asks about extra or missed items then).
    pub teach: fn(&Context<'_>, &str, Mistake<'_>, bool) -> Vec<Reason>,
    /// Why an instance cannot be used for this kind, if it cannot.
    pub unusable: fn(&Instance) -> Option<String>,
    /// The conventions its key assumes, one line each, as the sheet states them.
    pub conventions: fn(&Instance, &Conventions, &Lang) -> Vec<String>,
    /// What can be counted of a solved exercise (docs/generators.md): the
    /// first is its work (leaves evaluated, expansions, …), which a class set
    /// keeps even across variants. A problem set may bound any of them.
    pub measures: &'static [&'static str],
    /// The values of [`KindDef::measures`], in their order.
    pub measure: fn(&Context<'_>) -> Vec<u64>,
    /// What a generated exercise must meet to make its point, given the
    /// fields it asks (an alpha-beta exercise without a cut is trivial).
    pub point: fn(&[&str]) -> Vec<Limit>,
    /// The key replayed on the sheet's figure: one [`Frame`] per row of
    /// the explanation's table, or none where the sheet's figure is not what
    /// the search walks (a game's board) or there are no steps.
    pub replay: fn(&Context<'_>) -> Vec<Frame>,
}

/// A range a measure must lie in, both ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// The measure's name.
    pub measure: &'static str,
    /// The least value allowed.
    pub lo: u64,
    /// The largest value allowed.
    pub hi: u64,
}

impl Limit {
    /// `measure` at least `lo`.
    pub const fn at_least(measure: &'static str, lo: u64) -> Limit {
        Limit {
            measure,
            lo,
            hi: u64::MAX,
        }
    }

    /// `measure` exactly `v` (a yes/no measure: 0 or 1).
    pub const fn exactly(measure: &'static str, v: u64) -> Limit {
        Limit {
            measure,
            lo: v,
            hi: v,
        }
    }

    /// Whether `value` lies in the range.
    pub fn holds(self, value: u64) -> bool {
        (self.lo..=self.hi).contains(&value)
    }
}

/// As a problem set writes it: `cuts >= 1`, `evaluated = 14..18`, `same_solution = 0`.
impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.lo, self.hi) {
            (lo, hi) if lo == hi => write!(f, "{} = {lo}", self.measure),
            (lo, u64::MAX) => write!(f, "{} >= {lo}", self.measure),
            (0, hi) => write!(f, "{} <= {hi}", self.measure),
            (lo, hi) => write!(f, "{} = {lo}..{hi}", self.measure),
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
        self.measures.iter().copied().zip(values).collect()
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

    /// The shape of the answer to `field`, one of the kind's fields.
    pub fn shape(&self, field: &str) -> Shape {
        self.fields
            .iter()
            .find(|f| f.name == field)
            .expect("asked fields belong to the kind")
            .shape
    }

    /// The asked fields in the kind's order, which sheets and keys list them in.
    pub fn in_field_order(&self, ask: &[&str]) -> Vec<&'static str> {
        self.fields
            .iter()
            .map(|f| f.name)
            .filter(|f| ask.contains(f))
            .collect()
    }

    /// The key of `instance` explained in `lang`: its marked figure, table and notes.
    pub fn explain_key(
        &self,
        instance: &Instance,
        key: &Key,
        conventions: &Conventions,
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
            lang,
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
        key.check_ids(model.nodes(), model.connectors())
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
    &alpha_beta::KIND,
    &solvable::KIND,
    &solution_cost::KIND,
    &ao_star::KIND,
    &tictactoe::KIND,
    &grundy::KIND,
    &othello::KIND,
    &othello_terms::KIND,
];

/// The kind with this name.
pub fn kind(name: &str) -> Option<&'static KindDef> {
    KINDS.iter().copied().find(|k| k.name == name)
}

/// The names of every kind, for messages.
pub fn kind_names() -> Vec<&'static str> {
    KINDS.iter().map(|k| k.name).collect()
}

/// For kinds whose steps do not walk the sheet's figure.
fn no_replay(_: &Context<'_>) -> Vec<Frame> {
    Vec::new()
}

fn any_instance(_: &Instance) -> Option<String> {
    None
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
        _ => unreachable!("the problem set checks the family"),
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
fn no_conventions(_: &Instance, _: &Conventions, _: &Lang) -> Vec<String> {
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kind's own strings: its name and prompt, each field's description and
    /// example (its own wording, or the shared one), its family's legends.
    #[test]
    fn every_kind_has_its_strings_in_every_builtin_language() {
        for (code, _) in crate::lang::BUILTIN {
            let lang = Lang::builtin(code).unwrap();
            let has = |key: String| assert!(lang.has(&key), "{code} lacks `{key}`");
            let has_either = |own: String, shared: String| {
                assert!(
                    lang.has(&own) || lang.has(&shared),
                    "{code} lacks `{own}` and `{shared}`"
                );
            };
            for kind in KINDS {
                has(format!("kind.{}", kind.name));
                has(format!("prompt.{}", kind.name));
                for f in kind.fields {
                    for section in ["field", "example"] {
                        has_either(
                            format!("{section}.{}_{}", f.name, kind.name),
                            format!("{section}.{}", f.name),
                        );
                    }
                }
                has_either(format!("sheet.steps_{}", kind.name), "sheet.steps".into());
                let family = kind.family.key_name();
                has(format!("sheet.legend_{family}"));
                has(format!("sheet.legend_key_{family}"));
            }
        }
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
                let e = kind.explain_key(&instance, &key, &conventions, &lang);
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

    /// Every phrase a kind's explanation or conventions use exists: a key
    /// rendered in every language shows no string-table key.
    #[test]
    fn explanations_name_no_missing_string() {
        let instances = [
            "problem-sets/instances/aima-fig-5-2.toml",
            "tests/fixtures/good/and-or.toml",
            "tests/fixtures/good/tictactoe.toml",
            "tests/fixtures/good/othello.toml",
            "tests/fixtures/good/grundy-7.toml",
        ];
        let conventions = Conventions::default();
        for (code, _) in crate::lang::BUILTIN {
            let lang = Lang::builtin(code).unwrap();
            for path in instances {
                let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
                let instance = crate::instance::load(&path).unwrap();
                for kind in KINDS.iter().filter(|k| k.family == instance.family()) {
                    let key = (kind.solve)(&instance, &conventions);
                    let e = kind.explain_key(&instance, &key, &conventions, &lang);
                    let texts = e
                        .notes
                        .iter()
                        .chain(e.table.headers.iter())
                        .chain(e.table.rows.iter().flatten())
                        .cloned()
                        .chain((kind.conventions)(&instance, &conventions, &lang));
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
