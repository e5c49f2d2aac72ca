//! Alpha-beta against the published procedures, transcribed literally: Knuth
//! & Moore's F1 (fail-hard) and F2 (fail-soft, AIMA's ALPHA-BETA-SEARCH),
//! with `≥` or `>` as the cut test, with or without the initial window as a
//! bound (docs/conventions.md gives the pseudocode). The reference passes
//! the window down as the pseudocode does and keeps an explicit list of
//! ancestors: their α and β are the textbook's "compare with every ancestor",
//! and they name the cause of each cut. Every statement of a key is compared:
//! the leaves evaluated, each cut (where, which kind, by whom, both bounds,
//! what is skipped), each node's backed-up value, each step's α and β.

use treequiz::gametree::{
    Bound, CutKind, Event, NodeId, Options, Order, Player, Preset, Shape, Tree, ValueMode,
    alpha_beta, alpha_beta_summary,
};
use treequiz::rng::Rng;
use treequiz::value::Value;

use super::gametree_oracle::random_shape;

/// An ancestor on the reference's stack: its α (MAX) or β (MIN), `None`
/// until a child has backed up a value.
struct Ancestor {
    node: NodeId,
    max: bool,
    own: Option<Value>,
}

/// One cut as the reference sees it.
#[derive(Debug, PartialEq)]
struct RefCut {
    at: NodeId,
    kind: CutKind,
    by: Option<NodeId>,
    at_bound: Value,
    by_bound: Value,
    pruned: Vec<NodeId>,
}

struct Reference<'t> {
    tree: &'t Tree,
    o: Options,
    stack: Vec<Ancestor>,
    evaluated: Vec<NodeId>,
    cuts: Vec<RefCut>,
    /// The value each examined inner node returns.
    returned: Vec<(NodeId, Value)>,
    /// The window (α, β) each entered or evaluated node is searched with.
    windows: Vec<(NodeId, Value, Value)>,
}

/// `None` is no bound: smaller than every α, larger than every β.
fn max_opt(a: Option<Value>, b: Option<Value>) -> Option<Value> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, None) | (None, x) => x,
    }
}

fn min_opt(a: Option<Value>, b: Option<Value>) -> Option<Value> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) | (None, x) => x,
    }
}

impl Reference<'_> {
    fn cmp_ge(&self, x: Value, y: Value) -> bool {
        if self.o.prune_on_equal { x >= y } else { x > y }
    }

    /// The textbook's bound in force: the best α (or β) of the ancestors that
    /// have one, or the initial window's when it counts.
    fn in_force(&self, max: bool) -> Option<Value> {
        let initial =
            self.o
                .initial_window_counts
                .then_some(if max { Value::NegInf } else { Value::PosInf });
        self.stack
            .iter()
            .filter(|a| a.max == max)
            .fold(initial, |acc, a| {
                if max {
                    max_opt(acc, a.own)
                } else {
                    min_opt(acc, a.own)
                }
            })
    }

    fn children(&self, node: NodeId) -> Vec<NodeId> {
        let mut c: Vec<NodeId> = self.tree.children(node).collect();
        if self.o.order == Order::RightToLeft {
            c.reverse();
        }
        c
    }

    /// MAX-VALUE / MIN-VALUE with the window (alpha, beta).
    fn value(&mut self, node: NodeId, alpha: Option<Value>, beta: Option<Value>) -> Value {
        // The window passed down is the ancestors' bounds, as the textbook says.
        let max = self.tree.player(node) == Player::Max;
        assert_eq!((alpha, beta), (self.in_force(true), self.in_force(false)));
        let shown = (
            alpha.unwrap_or(Value::NegInf),
            beta.unwrap_or(Value::PosInf),
        );
        self.windows.push((node, shown.0, shown.1));
        if let Some(v) = self.tree.leaf(node) {
            self.evaluated.push(node);
            return v;
        }
        let hard = self.o.values == ValueMode::FailHard;
        // F2: v ← ∓∞. F1: m ← α (MAX) or β (MIN), the window's bound.
        let mut v = if max { Value::NegInf } else { Value::PosInf };
        let mut m = if max { shown.0 } else { shown.1 };
        self.stack.push(Ancestor {
            node,
            max,
            own: None,
        });
        let children = self.children(node);
        for (i, &child) in children.iter().enumerate() {
            let own = self.stack.last().unwrap().own;
            let t = if max {
                self.value(child, max_opt(alpha, own), beta)
            } else {
                self.value(child, alpha, min_opt(beta, own))
            };
            // v ← max(v, t); F1: if t > m then m ← t.
            if max {
                v = v.max(t);
                m = m.max(t);
            } else {
                v = v.min(t);
                m = m.min(t);
            }
            self.stack.last_mut().unwrap().own = Some(v);
            let x = if hard { m } else { v };
            // if x ≥ β then return x (MIN: if x ≤ α).
            let fails = if max {
                beta.is_some_and(|b| self.cmp_ge(x, b))
            } else {
                alpha.is_some_and(|a| self.cmp_ge(a, x))
            };
            if fails {
                if i + 1 < children.len() {
                    self.record_cut(node, max, x, children[i + 1..].to_vec());
                }
                break;
            }
        }
        self.stack.pop();
        let x = if hard { m } else { v };
        self.returned.push((node, x));
        x
    }

    /// The cause: the nearest ancestor whose own α (β) the test reaches, else the initial window.
    fn record_cut(&mut self, at: NodeId, max: bool, x: Value, pruned: Vec<NodeId>) {
        let ancestors = &self.stack[..self.stack.len() - 1];
        let cause = ancestors.iter().rev().find(|a| {
            a.max != max
                && a.own.is_some_and(|o| {
                    if max {
                        self.cmp_ge(x, o)
                    } else {
                        self.cmp_ge(o, x)
                    }
                })
        });
        assert!(
            cause.is_some() || self.o.initial_window_counts,
            "a cut with no cause"
        );
        self.cuts.push(RefCut {
            at,
            kind: if max { CutKind::Beta } else { CutKind::Alpha },
            by: cause.map(|a| a.node),
            at_bound: x,
            by_bound: cause.map_or(if max { Value::PosInf } else { Value::NegInf }, |a| {
                a.own.unwrap()
            }),
            pruned,
        });
    }
}

fn reference(tree: &Tree, o: Options) -> (Value, Reference<'_>) {
    let mut r = Reference {
        tree,
        o,
        stack: Vec::new(),
        evaluated: Vec::new(),
        cuts: Vec::new(),
        returned: Vec::new(),
        windows: Vec::new(),
    };
    let initial = o.initial_window_counts;
    let v = r.value(
        tree.root(),
        initial.then_some(Value::NegInf),
        initial.then_some(Value::PosInf),
    );
    (v, r)
}

/// Compares every statement of treequiz's key with the reference's. Returns
/// the number of cuts, to show the trees are worth testing.
fn compare(tree: &Tree, o: Options, what: &str) -> usize {
    let (value, r) = reference(tree, o);
    let ab = alpha_beta(tree, o);
    let here = || format!("{what} {o:?}");
    assert_eq!(ab.value, value, "{}: the root's value", here());
    assert_eq!(ab.evaluated, r.evaluated, "{}: leaves evaluated", here());
    let cuts: Vec<RefCut> = ab
        .cuts
        .iter()
        .map(|c| RefCut {
            at: c.at,
            kind: c.kind,
            by: c.by,
            at_bound: c.at_bound,
            by_bound: c.by_bound,
            pruned: c.pruned.to_vec(),
        })
        .collect();
    assert_eq!(cuts, r.cuts, "{}: cuts", here());
    let summary = alpha_beta_summary(tree, o);
    assert_eq!(
        (summary.value, summary.leaves_evaluated, summary.cuts),
        (value, r.evaluated.len(), r.cuts.len()),
        "{}: summary",
        here()
    );
    // Each examined inner node: the key states the value the procedure backs up,
    // or the exact value its children prove with that value listed as backed up.
    for &(node, x) in &r.returned {
        let b = ab.bound(node).expect("examined");
        let backed = ab.backed.iter().find(|(n, _)| *n == node).map(|(_, c)| *c);
        match (b, backed) {
            (_, None) => assert_eq!(b.value(), x, "{}: {} = {b}", here(), tree.label(node)),
            (Bound::Exact(_), Some(claim)) => {
                assert_eq!(claim.value(), x, "{}: {}", here(), tree.label(node));
                assert_ne!(b.value(), x);
            }
            _ => panic!("{}: only exact nodes list a backed-up bound", here()),
        }
    }
    assert_eq!(
        r.returned.len() + r.evaluated.len(),
        tree.ids().filter(|&i| ab.examined(i)).count()
    );
    // The step table's α and β where a node is entered or a leaf evaluated.
    let windows: Vec<(NodeId, Value, Value)> = ab
        .steps()
        .filter(|s| matches!(s.event, Event::Enter | Event::Leaf(_)))
        .map(|s| (s.node, s.alpha, s.beta))
        .collect();
    assert_eq!(windows, r.windows, "{}: step table windows", here());
    r.cuts.len()
}

/// Every combination of the options.
pub(crate) fn every_options() -> Vec<Options> {
    let mut out = Vec::new();
    for order in [Order::LeftToRight, Order::RightToLeft] {
        for prune_on_equal in [true, false] {
            for values in [ValueMode::FailHard, ValueMode::FailSoft] {
                for initial_window_counts in [false, true] {
                    out.push(Options {
                        order,
                        prune_on_equal,
                        values,
                        initial_window_counts,
                    });
                }
            }
        }
    }
    out
}

fn random_tree(seed: u64) -> Tree {
    let mut rng = Rng::from_seed(seed);
    let depth = rng.between(1, 6) as u32;
    let shape = match random_shape(&mut rng, depth) {
        leaf @ Shape::Leaf(_) => Shape::Inner(vec![leaf]),
        inner => inner,
    };
    let root = if rng.percent(50) {
        Player::Max
    } else {
        Player::Min
    };
    Tree::from_shape(&shape, root, None).unwrap()
}

/// The number of random trees; `TREEQUIZ_FUZZ_CASES` raises it.
fn cases() -> u64 {
    std::env::var("TREEQUIZ_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000)
}

#[test]
fn every_option_combination_runs_its_published_procedure_literally() {
    let options = every_options();
    let (mut cases_run, mut cuts, mut window_cuts) = (0usize, 0usize, 0usize);
    for seed in 0..cases() {
        let tree = random_tree(seed);
        for &o in &options {
            cuts += compare(&tree, o, &format!("seed {seed}"));
            window_cuts += alpha_beta(&tree, o)
                .cuts
                .iter()
                .filter(|c| c.by.is_none())
                .count();
            cases_run += 1;
        }
    }
    eprintln!(
        "{cases_run} option-cases on {} trees, {cuts} cuts, {window_cuts} by the initial window",
        cases()
    );
    assert!(cuts > cases_run, "only {cuts} cuts in {cases_run} cases");
    assert!(
        window_cuts > 100,
        "only {window_cuts} cuts by the initial window"
    );
}

#[test]
fn every_preset_is_its_procedure_on_generated_trees() {
    use treequiz::gametree::generate::{Params, generate};
    for preset in Preset::ALL {
        for seed in 0..200 {
            let params = Params {
                alpha_beta: preset.options(),
                ..Params::default()
            };
            let Ok(tree) = generate(&params, seed) else {
                continue;
            };
            compare(
                &tree,
                preset.options(),
                &format!("{} seed {seed}", preset.name()),
            );
        }
    }
}

/// The issue's cases, with the answers the procedures give by hand.
#[test]
fn infinite_leaves_and_degenerate_windows() {
    let tree = |t: &str, root: &str| {
        let source = treequiz::input::Source {
            path: "case.toml".into(),
            text: format!("kind = \"game-tree\"\nroot = \"{root}\"\ntree = {t}\n"),
        };
        treequiz::instance::parse(&source).unwrap()
    };
    let game = |i: &treequiz::instance::Instance| -> Tree {
        match i {
            treequiz::instance::Instance::GameTree(t) => t.clone(),
            _ => unreachable!(),
        }
    };
    let labels = |t: &Tree, ids: &[NodeId]| {
        ids.iter()
            .map(|&i| t.label(i).into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let strict = |values| Options {
        prune_on_equal: false,
        values,
        ..Options::default()
    };

    // The cut at G is by E, its parent, whose β is −∞: not by B, not deep.
    let i = tree(r#"[["-inf", [[["-inf", 0], [0, 0]]]]]"#, "max");
    let t = &game(&i);
    let ab = alpha_beta(t, Options::default());
    let g = ab.cuts.iter().find(|c| t.label(c.at) == "G").unwrap();
    assert_eq!(g.by.map(|b| t.label(b).into_owned()).as_deref(), Some("E"));
    assert!(!g.is_deep(t));
    assert_eq!(
        ab.bound(NodeId(5)),
        Some(Bound::AtLeast(Value::NegInf)),
        "F ≥ −∞, never ≤ +∞"
    );

    // MIN at the root, strict, fail-hard: B I E evaluated, J pruned.
    let i = tree(r#"["-inf", [[[[[0, 0]]]], 0]]"#, "min");
    let t = &game(&i);
    let ab = alpha_beta(t, strict(ValueMode::FailHard));
    assert_eq!(labels(t, &ab.evaluated), "B I E");
    assert_eq!(labels(t, &ab.pruned), "J");

    // Strict, fail-hard, α = β in force: E backs up ≤ 3, F is evaluated.
    let i = tree(r#"[3, [3, [[[[1, 1]]], 0], 1]]"#, "max");
    let t = &game(&i);
    let ab = alpha_beta(t, strict(ValueMode::FailHard));
    assert_eq!(labels(t, &ab.evaluated), "B D K H F");
    assert_eq!(ab.bound(NodeId(4)), Some(Bound::AtMost(Value::Finite(3))));

    // AIMA: a won position ends the search; the textbook rule does not stop.
    let i = tree("[\"+inf\", [2, 3]]", "max");
    let t = &game(&i);
    let aima = alpha_beta(t, Preset::Aima.options());
    let textbook = alpha_beta(t, Preset::Textbook.options());
    assert_eq!(labels(t, &aima.evaluated), "B");
    assert_eq!(aima.cuts[0].by, None);
    assert_eq!(labels(t, &textbook.evaluated), "B D");
}

/// Knuth & Moore's F1 and F2 as the 1975 paper prints them, in negamax form
/// (`f(p)` is the value for the player to move at `p`, ±∞ real values, so
/// the initial window counts): the evaluated leaves and the root's value.
fn knuth_moore(tree: &Tree, o: Options) -> (Value, Vec<NodeId>) {
    fn neg(v: Value) -> Value {
        match v {
            Value::NegInf => Value::PosInf,
            Value::PosInf => Value::NegInf,
            Value::Finite(x) => Value::Finite(-x),
            Value::Decimal(d) => Value::decimal(-d.units(), d.places()).expect("as many places"),
        }
    }
    #[allow(clippy::too_many_arguments)]
    fn f(
        tree: &Tree,
        o: Options,
        p: NodeId,
        alpha: Value,
        beta: Value,
        seen: &mut Vec<NodeId>,
    ) -> Value {
        let mut d: Vec<NodeId> = tree.children(p).collect();
        if d.is_empty() {
            seen.push(p);
            let v = tree.leaf(p).unwrap();
            return if tree.player(p) == Player::Max {
                v
            } else {
                neg(v)
            };
        }
        if o.order == Order::RightToLeft {
            d.reverse();
        }
        let hard = o.values == ValueMode::FailHard;
        // F1: m := α. F2: m := −∞.
        let mut m = if hard { alpha } else { Value::NegInf };
        for pi in d {
            // F1: t := −F1(pᵢ, −β, −m). F2: t := −F2(pᵢ, −β, −max(m, α)).
            let t = neg(f(
                tree,
                o,
                pi,
                neg(beta),
                neg(if hard { m } else { m.max(alpha) }),
                seen,
            ));
            if t > m {
                m = t;
            }
            // if m ≥ β then go to done (`>` under the strict rule).
            if if o.prune_on_equal {
                m >= beta
            } else {
                m > beta
            } {
                break;
            }
        }
        m
    }
    let mut seen = Vec::new();
    let v = f(
        tree,
        o,
        tree.root(),
        Value::NegInf,
        Value::PosInf,
        &mut seen,
    );
    let v = if tree.root_player() == Player::Max {
        v
    } else {
        neg(v)
    };
    (v, seen)
}

#[test]
fn the_negamax_procedures_of_the_paper_agree() {
    let mut cases_run = 0;
    for seed in 0..cases() {
        let tree = random_tree(seed);
        for o in every_options()
            .into_iter()
            .filter(|o| o.initial_window_counts)
        {
            let (value, evaluated) = knuth_moore(&tree, o);
            let ab = alpha_beta(&tree, o);
            assert_eq!(
                (ab.value, &ab.evaluated),
                (value, &evaluated),
                "seed {seed} {o:?}"
            );
            cases_run += 1;
        }
    }
    assert!(cases_run >= 8 * cases() as usize);
}
