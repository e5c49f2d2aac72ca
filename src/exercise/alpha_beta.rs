//! `alpha-beta`: the value, the leaves evaluated, the pruned branches, where each cut happens.

use super::{
    Answer, Conventions, Family, Field, KindDef, Shape, Solved, Table, any_instance, tree,
};
use crate::draw::{TreeMarks, tree_figure};
use crate::gametree::{Bound, CutKind, Event, Player, Tree, alpha_beta};
use crate::instance::Instance;
use crate::lang::Lang;
use crate::value::Value;

pub(super) static KIND: KindDef = KindDef {
    name: "alpha-beta",
    family: Family::GameTree,
    fields: &[
        Field {
            name: "value",
            shape: Shape::Value,
        },
        Field {
            name: "values",
            shape: Shape::Bounds,
        },
        Field {
            name: "evaluated",
            shape: Shape::Sequence,
        },
        Field {
            name: "pruned",
            shape: Shape::Labels,
        },
        Field {
            name: "alpha_cuts",
            shape: Shape::Labels,
        },
        Field {
            name: "beta_cuts",
            shape: Shape::Labels,
        },
    ],
    solve,
    unusable: any_instance,
};

/// A value as keys print it: `3`, `−∞`, `+∞`.
fn shown(v: Value) -> String {
    match v {
        Value::NegInf => "−∞".to_string(),
        Value::PosInf => "+∞".to_string(),
        Value::Finite(n) => n.to_string(),
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
pub(crate) fn cut_sentence(
    t: &Tree,
    c: &crate::gametree::Cut,
    prune_on_equal: bool,
    lang: &Lang,
) -> String {
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
    let key = if c.is_deep(t) {
        "note.deep_cut"
    } else {
        "note.cut"
    };
    lang.fill(
        key,
        &[
            ("sign", sign),
            ("at", &t.label(c.at)),
            ("own", own),
            ("at_bound", &shown(c.at_bound)),
            ("rel", rel),
            ("other", other),
            ("by", &t.label(c.by)),
            ("by_bound", &shown(c.by_bound)),
            ("pruned", &labels(t, c.pruned.iter()).join(", ")),
        ],
    )
}

/// What a key shows of an alpha-beta search: the result, the figure's marks,
/// the notes on each cut, and the step table. Game kinds share it.
pub(crate) struct Traced {
    pub ab: crate::gametree::AlphaBeta,
    pub marks: TreeMarks,
    pub notes: Vec<String>,
    pub table: Table,
}

pub(crate) fn traced(t: &Tree, conventions: &Conventions, lang: &Lang) -> Traced {
    let ab = alpha_beta(t, conventions.alpha_beta);
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
        causes: ab.cuts.iter().map(|c| c.by).collect(),
        ..TreeMarks::default()
    };
    let cut_note =
        |c: &crate::gametree::Cut| cut_sentence(t, c, conventions.alpha_beta.prune_on_equal, lang);
    let mut notes: Vec<String> = ab.cuts.iter().map(cut_note).collect();
    if ab.cuts.is_empty() {
        notes.push(lang.get("note.no_cuts").to_string());
    }
    for (id, tight) in &ab.widened {
        let b = ab.bound(*id).expect("widened nodes were examined");
        notes.push(lang.fill(
            "note.widened",
            &[
                ("node", &t.label(*id)),
                ("bound", &bound_text(b)),
                ("tight", &bound_text(*tight)),
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
        ab,
        marks,
        notes,
        table,
    }
}

fn solve(instance: &Instance, conventions: &Conventions, lang: &Lang) -> Solved {
    let t = tree(instance);
    let Traced {
        ab,
        marks,
        notes,
        table,
    } = traced(t, conventions, lang);
    let cuts_of =
        |kind: CutKind| labels(t, ab.cuts.iter().filter(|c| c.kind == kind).map(|c| c.at));
    Solved {
        answers: vec![
            ("value", Answer::Value(ab.value)),
            (
                "values",
                Answer::Bounds(
                    t.ids()
                        .filter(|&id| t.leaf(id).is_none())
                        .filter_map(|id| ab.bound(id).map(|b| (t.label(id).into_owned(), b)))
                        .collect(),
                ),
            ),
            (
                "evaluated",
                Answer::Sequence(labels(t, ab.evaluated.iter().copied())),
            ),
            (
                "pruned",
                Answer::Labels(labels(t, ab.pruned.iter().copied())),
            ),
            ("alpha_cuts", Answer::Labels(cuts_of(CutKind::Alpha))),
            ("beta_cuts", Answer::Labels(cuts_of(CutKind::Beta))),
        ],
        figure: tree_figure(t, Some(&marks)),
        table,
        notes,
    }
}
