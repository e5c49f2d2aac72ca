//! `alpha-beta`: the value, the leaves evaluated, the pruned branches, where each cut happens.

use super::Figures;
use super::{
    Answer, Context, Conventions, Domain, Explained, Family, Field, Frame, Hint, Item, Key,
    KindDef, Mistake, Shape, Table, Trace, instance_tree, plain, tree,
};
use crate::draw::{TreeMarks, tree_figure};
use crate::gametree::{AlphaBeta, Bound, CutKind, Event, NodeId, Player, Tree, alpha_beta};
use crate::instance::Instance;
use crate::lang::Lang;
use crate::reason::{Phrase, Reason};
use crate::value::Value;

pub(super) static KIND: KindDef = KindDef {
    name: "alpha-beta",
    family: Family::GameTree,
    fields: &[
        Field::new("value", Shape::Value),
        Field::new("values", Shape::Bounds),
        Field::new("evaluated", Shape::Sequence),
        Field::new("pruned", Shape::Labels).within(Domain::PrunedRoots),
        Field::new("alpha_cuts", Shape::Labels)
            .within(Domain::CutNodes)
            .paired_with("beta_cuts"),
        Field::new("beta_cuts", Shape::Labels)
            .within(Domain::CutNodes)
            .paired_with("alpha_cuts"),
    ],
    solver: super::Solver::AlphaBeta,
    solve,
    explain,
    teach,
    unusable: super::whole_tree,
    conventions,
    measures: SEARCH_MEASURES,
    measure,
    point,
    replay,
    hints,
    budgets: super::Budgets::NONE,
    sizes: super::Sizes {
        small: "depth = 2\nbranching = 3\nvalues = \"0..20\"\nmin_cuts = 1\nunique_best = true",
        medium: "depth = 3\nbranching = \"2..3\"\nvalues = \"0..20\"\nmin_cuts = 2\nunique_best = true",
        large: "depth = 4\nbranching = 2\nvalues = \"0..20\"\nmin_cuts = 3\nunique_best = true",
    },
};

/// A value as keys print it: `3`, `−∞`, `+∞`.
fn shown(v: Value) -> String {
    match v {
        Value::NegInf => "−∞".to_string(),
        Value::PosInf => "+∞".to_string(),
        Value::Finite(n) => n.to_string(),
        Value::Decimal(d) => d.to_string(),
    }
}

/// `3`, `≤2`, `≥5`.
pub(crate) fn bound_text(b: Bound) -> String {
    match b {
        Bound::Exact(v) => shown(v),
        Bound::AtMost(v) => format!("≤{}", shown(v)),
        Bound::AtLeast(v) => format!("≥{}", shown(v)),
    }
}

/// `= 3`, `≤ 2`, `≥ 5`: a bound after a node's name.
fn relation_text(b: Bound) -> String {
    match b {
        Bound::Exact(v) => format!("= {}", shown(v)),
        Bound::AtMost(v) => format!("≤ {}", shown(v)),
        Bound::AtLeast(v) => format!("≥ {}", shown(v)),
    }
}

fn labels(t: &Tree, ids: impl IntoIterator<Item = crate::gametree::NodeId>) -> Vec<String> {
    ids.into_iter().map(|id| t.label(id).into_owned()).collect()
}

/// The key's sentence about one cut: where, which bounds, caused by whom, what is pruned.
pub(crate) fn cut_reason(t: &Tree, c: &crate::gametree::Cut, prune_on_equal: bool) -> Reason {
    let (sign, own, other) = if c.kind == CutKind::Alpha {
        ("α", "β", "α")
    } else {
        ("β", "α", "β")
    };
    let rel = match (c.kind, prune_on_equal) {
        (CutKind::Alpha, true) => "≤",
        (CutKind::Alpha, false) => "<",
        (CutKind::Beta, true) => "≥",
        (CutKind::Beta, false) => ">",
    };
    let by = c.by.map(|b| t.label(b).into_owned()).unwrap_or_default();
    Reason::new(match c.by {
        None => Phrase::WindowCut,
        Some(_) if c.is_deep(t) => Phrase::DeepCut,
        Some(_) => Phrase::Cut,
    })
    .with("sign", sign)
    .with("at", t.label(c.at))
    .with("own", own)
    .with("at_bound", shown(c.at_bound))
    .with("rel", rel)
    .with("other", other)
    .with("by", by)
    .with("by_bound", shown(c.by_bound))
    .with("pruned", labels(t, c.pruned.iter()).join(", "))
}

/// What a key shows of an alpha-beta search: the figure's marks, the notes
/// on each cut, and the step table. Game kinds share it.
pub(crate) struct Traced {
    pub marks: TreeMarks,
    pub notes: Vec<String>,
    pub table: Table,
}

pub(crate) fn traced(t: &Tree, ab: &AlphaBeta, lang: &Lang) -> Traced {
    let sign = |k: CutKind| if k == CutKind::Alpha { "α" } else { "β" };
    let marks = TreeMarks {
        values: t
            .ids()
            .map(|id| {
                ab.bound(id)
                    .filter(|_| t.leaf(id).is_none())
                    .map(bound_text)
            })
            .collect(),
        unexamined: t.ids().map(|id| !ab.examined(id)).collect(),
        cut_roots: ab
            .cuts
            .iter()
            .flat_map(|c| c.pruned.iter().map(move |p| (p, sign(c.kind).to_string())))
            .collect(),
        causes: ab.cuts.iter().filter_map(|c| c.by).collect(),
        ..TreeMarks::default()
    };
    let cut_note =
        |c: &crate::gametree::Cut| cut_reason(t, c, ab.options.prune_on_equal).render(lang, false);
    let mut notes: Vec<String> = ab.cuts.iter().map(cut_note).collect();
    if ab.cuts.is_empty() {
        notes.push(lang.get("note.no_cuts").to_string());
    }
    for (id, tight) in &ab.widened {
        let Some(b) = ab.bound(*id) else { continue };
        notes.push(lang.fill(
            "note.widened",
            &[
                ("node", &t.label(*id)),
                ("bound", &bound_text(b)),
                ("tight", &bound_text(*tight)),
            ],
        ));
    }
    for (id, claim) in &ab.backed {
        let Some(b) = ab.bound(*id) else { continue };
        notes.push(lang.fill(
            "note.backed",
            &[
                ("node", &t.label(*id)),
                ("value", &bound_text(b)),
                ("bound", &bound_text(*claim)),
            ],
        ));
    }
    let rows = ab
        .steps()
        .map(|s| {
            let node = t.label(s.node).into_owned();
            let what = match s.event {
                Event::Enter => lang.get("step.enter").to_string(),
                Event::Leaf(v) => lang.fill("step.leaf", &[("value", &shown(v))]),
                Event::Improve(v) => {
                    let own = if t.player(s.node) == Player::Max {
                        "α"
                    } else {
                        "β"
                    };
                    lang.fill(
                        "step.improve",
                        &[("own", own), ("node", &node), ("value", &shown(v))],
                    )
                }
                Event::Cut(i) => cut_note(&ab.cuts[i]),
                Event::Exit(b) => lang.fill(
                    "step.exit",
                    &[("node", &node), ("value", &relation_text(b))],
                ),
            };
            vec![node, shown(s.alpha), shown(s.beta), what]
        })
        .collect();
    let table = Table {
        headers: ["table.node", "table.alpha", "table.beta", "table.what"]
            .iter()
            .map(|k| lang.get(k).to_string())
            .collect(),
        rows,
    };
    Traced {
        marks,
        notes,
        table,
    }
}

/// The search step by step, one frame per row of [`traced`]'s table: the
/// node the step is at; what each node is known to be so far (its running
/// bound, then what it returns); the cuts made so far and the branches they
/// skip.
fn replay(ctx: &Context<'_>) -> Vec<Frame> {
    let t = tree(ctx);
    let ab = ctx.key.alpha_beta().expect("an alpha-beta key");
    let label = |id: NodeId| t.label(id).into_owned();
    let mut known: Vec<Option<String>> = vec![None; t.len()];
    let (mut cut, mut dim) = (Vec::new(), Vec::new());
    ab.steps()
        .map(|s| {
            match s.event {
                Event::Enter | Event::Leaf(_) => {}
                Event::Improve(v) => {
                    known[s.node.index()] = Some(bound_text(if t.player(s.node) == Player::Max {
                        Bound::AtLeast(v)
                    } else {
                        Bound::AtMost(v)
                    }));
                }
                Event::Exit(b) => known[s.node.index()] = Some(bound_text(b)),
                Event::Cut(i) => {
                    for root in ab.cuts[i].pruned.iter() {
                        cut.push(label(root));
                        let mut below = vec![root];
                        while let Some(n) = below.pop() {
                            dim.push(label(n));
                            below.extend(t.children(n));
                        }
                    }
                }
            }
            Frame {
                focus: vec![label(s.node)],
                values: t
                    .ids()
                    .filter_map(|id| Some((label(id), known[id.index()].clone()?)))
                    .collect(),
                cut: cut.clone(),
                dim: dim.clone(),
                marked: Vec::new(),
                window: Some(format!("α = {}, β = {}", shown(s.alpha), shown(s.beta))),
            }
        })
        .collect()
}

fn solve(instance: &Instance, conventions: &Conventions) -> Key {
    let t = instance_tree(instance);
    let ab = alpha_beta(t, conventions.alpha_beta);
    let node = |id: NodeId| Item::Node(id.0);
    let cuts_of = |kind: CutKind| {
        ab.cuts
            .iter()
            .filter(|c| c.kind == kind)
            .map(|c| node(c.at))
            .collect()
    };
    Key::new(
        vec![
            ("value", Answer::Value(ab.value)),
            (
                "values",
                Answer::Bounds(
                    t.ids()
                        .filter(|&id| t.leaf(id).is_none())
                        .filter_map(|id| ab.bound(id).map(|b| (node(id), b)))
                        .collect(),
                ),
            ),
            (
                "evaluated",
                Answer::Sequence(ab.evaluated.iter().map(|&id| node(id)).collect()),
            ),
            (
                "pruned",
                Answer::Set(ab.pruned.iter().map(|&id| node(id)).collect()),
            ),
            ("alpha_cuts", Answer::Set(cuts_of(CutKind::Alpha))),
            ("beta_cuts", Answer::Set(cuts_of(CutKind::Beta))),
        ],
        Trace::AlphaBeta(ab),
    )
}

fn explain(ctx: &Context<'_>, _: &[&str], lang: &Lang, figures: Figures) -> Explained {
    let t = tree(ctx);
    let ab = ctx.key.alpha_beta().expect("an alpha-beta key");
    let Traced {
        marks,
        notes,
        table,
    } = traced(t, ab, lang);
    Explained {
        figure: figures.draw(|| tree_figure(t, Some(&marks))),
        table,
        notes,
    }
}

fn teach(ctx: &Context<'_>, field: &str, mistake: Mistake<'_>, hide: bool) -> Vec<Reason> {
    let (sign, other) = match field {
        "alpha_cuts" => ("α", "β"),
        _ => ("β", "α"),
    };
    match (field, mistake) {
        ("pruned" | "evaluated", _) => teach_search(ctx, field, mistake, hide),
        ("alpha_cuts" | "beta_cuts", Mistake::Swapped { .. }) => vec![
            Reason::new(Phrase::CutsSwapped)
                .with("sign", sign)
                .with("other", other),
        ],
        ("alpha_cuts" | "beta_cuts", Mistake::Extra(item)) => {
            // A cut of the other sign: say so, rather than that none happens.
            let other_field = if field == "alpha_cuts" {
                "beta_cuts"
            } else {
                "alpha_cuts"
            };
            let swapped =
                matches!(ctx.key.answer(other_field), Some(Answer::Set(k)) if k.contains(&item));
            vec![
                Reason::new(if swapped {
                    Phrase::CutSwapped
                } else {
                    Phrase::CutWrong
                })
                .with("sign", sign)
                .term("a_sign", article(field == "alpha_cuts"))
                .term("a_other", article(field != "alpha_cuts"))
                .with("node", ctx.name(item)),
            ]
        }
        ("alpha_cuts" | "beta_cuts", Mistake::Missed(items)) => items
            .iter()
            .map(|&i| {
                let why = cut_of(ctx, i)
                    .unwrap_or_else(|| Reason::new(Phrase::NodeMissing).with("node", ctx.name(i)));
                Reason::new(Phrase::CutMissed)
                    .with("sign", sign)
                    .with("node", ctx.name(i))
                    .nested("cut", why)
            })
            .collect(),
        _ => plain(ctx, field, mistake, hide),
    }
}

/// "an α-cut" or "a β-cut", as the language says it.
fn article(alpha: bool) -> &'static str {
    if alpha {
        "grade.a_alpha_cut"
    } else {
        "grade.a_beta_cut"
    }
}

/// The key's sentence about the cut at `item`, or the cut that prunes it.
fn cut_of(ctx: &Context<'_>, item: Item) -> Option<Reason> {
    let (t, ab) = (ctx.model.tree()?, ctx.key.alpha_beta()?);
    let Item::Node(n) = item else { return None };
    let id = NodeId(n);
    ab.cuts
        .iter()
        .find(|c| c.at == id || c.pruned.contains(id))
        .map(|c| cut_reason(t, c, ab.options.prune_on_equal))
}

/// Why a node that a search prunes is wrong in `pruned` or `evaluated`: the
/// window in force, the cut that skips it. Shared by every kind that asks for
/// what alpha-beta prunes (the game kinds too).
pub(crate) fn teach_search(
    ctx: &Context<'_>,
    field: &str,
    mistake: Mistake<'_>,
    hide: bool,
) -> Vec<Reason> {
    let (Some(t), Some(ab)) = (ctx.model.tree(), ctx.key.alpha_beta()) else {
        return plain(ctx, field, mistake, hide);
    };
    match (field, mistake) {
        ("pruned", Mistake::Extra(Item::Node(n))) => vec![window_reason(t, ab, NodeId(n))],
        ("pruned", Mistake::Missed(items)) => {
            // Missed branches of one cut are named together, with that cut once.
            let mut by_cut: Vec<(Option<usize>, Vec<Item>)> = Vec::new();
            for &m in items {
                let cut = match m {
                    Item::Node(n) => ab.cuts.iter().position(|c| c.pruned.contains(NodeId(n))),
                    _ => None,
                };
                match by_cut.iter_mut().find(|(c, _)| *c == cut) {
                    Some((_, nodes)) => nodes.push(m),
                    None => by_cut.push((cut, vec![m])),
                }
            }
            let mut out = Vec::new();
            for (cut, nodes) in by_cut {
                let Some(c) = cut else {
                    out.extend(plain(ctx, field, Mistake::Missed(&nodes), hide));
                    continue;
                };
                let cut = cut_reason(t, &ab.cuts[c], ab.options.prune_on_equal);
                out.push(if nodes.len() == 1 {
                    Reason::new(Phrase::PrunedMissed)
                        .with("node", ctx.name(nodes[0]))
                        .nested("cut", cut)
                } else {
                    Reason::new(Phrase::PrunedMissedMany)
                        .with("nodes", ctx.names(&nodes).join(", "))
                        .nested("cut", cut)
                });
            }
            out
        }
        ("evaluated", Mistake::Diverges { given, .. }) => {
            let mut out = plain(ctx, field, mistake, hide);
            if !hide {
                out.extend(cut_of(ctx, given));
            }
            out
        }
        _ => plain(ctx, field, mistake, hide),
    }
}

/// Why a node the student pruned is examined: the bounds in force when it is reached.
fn window_reason(t: &Tree, ab: &AlphaBeta, id: NodeId) -> Reason {
    let step = ab
        .steps()
        .find(|s| s.node == id && matches!(s.event, Event::Enter | Event::Leaf(_)));
    match step {
        Some(s) => Reason::new(Phrase::PrunedExamined)
            .with("node", t.label(id))
            .with("alpha", s.alpha.to_string())
            .with("beta", s.beta.to_string()),
        // Under a pruned branch: the student listed a node below the cut branch's root.
        None => {
            let mut root = id;
            while let Some(p) = t.parent(root).filter(|&p| !ab.examined(p)) {
                root = p;
            }
            Reason::new(Phrase::PrunedBelow)
                .with("node", t.label(id))
                .with("root", t.label(root))
        }
    }
}

fn conventions(instance: &Instance, c: &Conventions, _: &[&str], lang: &Lang) -> Vec<String> {
    let mut lines = vec![super::root_convention(instance, lang)];
    lines.extend(super::search_conventions(c, lang));
    lines.push(
        lang.get(
            if c.alpha_beta.values == crate::gametree::ValueMode::FailHard {
                "convention.fail_hard"
            } else {
                "convention.fail_soft"
            },
        )
        .to_string(),
    );
    lines
}

const CUTS: super::Measure = super::Measure::new("cuts");

/// What a search's key counts; the game kinds share these.
pub(crate) const SEARCH_MEASURES: &[super::Measure] = &[
    super::Measure::new("evaluated"),
    CUTS,
    super::Measure::new("deep_cuts"),
    super::Measure::new("alpha_cuts"),
    super::Measure::new("beta_cuts"),
    super::Measure::new("subtree_cuts"),
];

/// [`SEARCH_MEASURES`] of a search: leaves evaluated, cuts, deep cuts, α-cuts,
/// β-cuts, and cuts that prune a subtree (not only leaves).
pub(crate) fn search_measures(t: &Tree, ab: &AlphaBeta) -> Vec<u64> {
    let count =
        |f: &dyn Fn(&crate::gametree::Cut) -> bool| ab.cuts.iter().filter(|c| f(c)).count() as u64;
    vec![
        ab.evaluated.len() as u64,
        ab.cuts.len() as u64,
        count(&|c| c.is_deep(t)),
        count(&|c| c.kind == CutKind::Alpha),
        count(&|c| c.kind == CutKind::Beta),
        count(&|c| c.pruned.iter().any(|p| t.leaf(p).is_none())),
    ]
}

fn measure(ctx: &Context<'_>) -> Vec<u64> {
    search_measures(tree(ctx), ctx.key.alpha_beta().expect("an alpha-beta key"))
}

/// Alpha-beta without a cut is minimax.
fn point(_: &[&str]) -> Vec<super::Limit> {
    vec![super::Limit::at_least(CUTS, 1)]
}

/// The search as a student walks it: the window each inner node below the
/// root is entered with (and whose bound each edge is), then whether
/// anything is cut below it, as the search leaves it. The root is asked
/// about only where the initial window cuts there.
fn hints(ctx: &Context<'_>) -> Vec<Hint> {
    use crate::reason::Phrase::Own;
    let t = tree(ctx);
    let ab = ctx.key.alpha_beta().expect("an alpha-beta key");
    let label = |id: NodeId| t.label(id).into_owned();
    // Each inner node's own bound so far (α at MAX, β at MIN).
    let mut own: Vec<Option<Value>> = vec![None; t.len()];
    let mut cut_at: Vec<Option<usize>> = vec![None; t.len()];
    // An edge of the window: the value, and the nearest ancestor of `n` of
    // `player` whose own bound it is (none: the initial window's).
    let edge = |own: &[Option<Value>], n: NodeId, player: Player, v: Value| {
        let from = std::iter::successors(t.parent(n), |&p| t.parent(p))
            .find(|&p| t.player(p) == player && own[p.index()] == Some(v));
        match from {
            Some(p) => Reason::new(Own("hint.bound_from"))
                .with("value", shown(v))
                .with("node", label(p)),
            None => Reason::new(Own("hint.bound")).with("value", shown(v)),
        }
    };
    let mut out = Vec::new();
    for s in ab.steps() {
        let n = s.node;
        match s.event {
            Event::Enter if n != t.root() => out.push(Hint {
                question: Reason::new(Own("hint.window_q")).with("node", label(n)),
                answer: Reason::new(Own("hint.window_a"))
                    .nested("alpha", edge(&own, n, Player::Max, s.alpha))
                    .nested("beta", edge(&own, n, Player::Min, s.beta)),
                nodes: vec![label(n)],
            }),
            Event::Improve(v) => own[n.index()] = Some(v),
            Event::Cut(i) => cut_at[n.index()] = Some(i),
            Event::Exit(_) if n != t.root() || cut_at[n.index()].is_some() => {
                let answer = match cut_at[n.index()] {
                    Some(i) => cut_reason(t, &ab.cuts[i], ab.options.prune_on_equal),
                    None => Reason::new(Own("hint.no_cut")).with("node", label(n)),
                };
                out.push(Hint {
                    question: Reason::new(Own("hint.cut_q")).with("node", label(n)),
                    answer,
                    nodes: vec![label(n)],
                });
            }
            _ => {}
        }
    }
    out
}
