//! `minimax`: the backed-up value of every inner node and the best move.

use super::Figures;
use super::{
    Answer, Context, Domain, Explained, Family, Field, Hint, Item, Key, KindDef, Shape, Table,
    Trace, instance_tree, plain, tree,
};
use crate::draw::{TreeMarks, tree_figure};
use crate::gametree::{Minimax, NodeId, minimax};
use crate::instance::Instance;
use crate::lang::Lang;
use crate::reason::Phrase::Own;
use crate::reason::Reason;

const INNER_NODES: super::Measure = super::Measure::new("inner_nodes");

pub(super) static KIND: KindDef = KindDef {
    name: "minimax",
    family: Family::GameTree,
    fields: &[
        Field::new("value", Shape::Value),
        Field::new("values", Shape::Values).root_asked_by("value"),
        Field::new("best_move", Shape::Label).within(Domain::RootChildren),
    ],
    solver: super::Solver::Minimax,
    solve,
    explain,
    teach: plain,
    unusable: super::whole_tree,
    conventions,
    measures: &[
        super::Measure::new("leaves"),
        INNER_NODES,
        super::Measure::new("best_moves"),
    ],
    measure,
    point,
    replay: super::no_replay,
    hints,
    budgets: super::Budgets::NONE,
    sizes: super::Sizes {
        small: "depth = 2\nbranching = 3\nvalues = \"0..20\"\nunique_best = true",
        medium: "depth = 3\nbranching = \"2..3\"\nvalues = \"0..20\"\nunique_best = true",
        large: "depth = 4\nbranching = 2\nvalues = \"0..20\"\nunique_best = true",
    },
};

fn solve(instance: &Instance, _: &super::Conventions) -> Key {
    let t = instance_tree(instance);
    let mm = minimax(t);
    let node = |id: crate::gametree::NodeId| Item::Node(id.0);
    Key::new(
        vec![
            ("value", Answer::Value(mm.value)),
            (
                "values",
                Answer::Values(
                    t.ids()
                        .filter(|&id| t.leaf(id).is_none())
                        .map(|id| (node(id), mm.of(t, id)))
                        .collect(),
                ),
            ),
            // Tied best moves are all right: the key lists every one.
            (
                "best_move",
                Answer::One(mm.best_moves.iter().map(|&b| node(b)).collect()),
            ),
        ],
        Trace::Minimax(mm),
    )
}

/// The key's figure marks: every inner node's backed-up value, and the
/// principal variation's path.
pub(super) fn key_marks(t: &crate::gametree::Tree, mm: &crate::gametree::Minimax) -> TreeMarks {
    TreeMarks {
        values: t
            .ids()
            .map(|id| t.leaf(id).is_none().then(|| mm.of(t, id).to_string()))
            .collect(),
        answer_path: mm.principal_variation[1..].to_vec(),
        ..TreeMarks::default()
    }
}

fn explain(ctx: &Context<'_>, _: &[&str], lang: &Lang, figures: Figures) -> Explained {
    let t = tree(ctx);
    let Trace::Minimax(mm) = &ctx.key.trace else {
        unreachable!("a minimax key holds minimax's trace")
    };
    let marks = key_marks(t, mm);
    let best: Vec<String> = mm
        .best_moves
        .iter()
        .map(|&b| t.label(b).into_owned())
        .collect();
    let pv: Vec<String> = mm
        .principal_variation
        .iter()
        .map(|&n| t.label(n).into_owned())
        .collect();
    Explained {
        figure: figures.draw(|| tree_figure(t, Some(&marks))),
        table: Table::default(),
        notes: vec![
            lang.fill(
                "note.best_move",
                &[
                    ("moves", &best.join(", ")),
                    ("value", &mm.value.to_string()),
                ],
            ),
            lang.fill("note.principal_variation", &[("path", &pv.join(" → "))]),
        ],
    }
}

fn conventions(
    instance: &Instance,
    _: &super::Conventions,
    _: &[&str],
    lang: &Lang,
) -> Vec<String> {
    vec![super::root_convention(instance, lang)]
}

fn measure(ctx: &Context<'_>) -> Vec<u64> {
    let t = super::tree(ctx);
    let Trace::Minimax(mm) = &ctx.key.trace else {
        unreachable!("a minimax key")
    };
    let leaves = t.leaves().count() as u64;
    vec![leaves, t.len() as u64 - leaves, mm.best_moves.len() as u64]
}

/// A root and at least two nodes below it to back values up through.
fn point(_: &[&str]) -> Vec<super::Limit> {
    vec![super::Limit::at_least(INNER_NODES, 3)]
}

/// How a node's value is backed up from its children's: `min(3, 12, 8) = 3`.
pub(super) fn backed_up(t: &crate::gametree::Tree, mm: &Minimax, n: NodeId) -> String {
    let values: Vec<String> = t.children(n).map(|c| mm.of(t, c).to_string()).collect();
    let rule = match t.player(n) {
        crate::gametree::Player::Max => "max",
        crate::gametree::Player::Min => "min",
    };
    format!("{rule}({}) = {}", values.join(", "), mm.of(t, n))
}

/// The inner nodes in the order a student backs them up: depth first, left
/// to right, each once its children are known.
fn hints(ctx: &Context<'_>) -> Vec<Hint> {
    let t = tree(ctx);
    let Trace::Minimax(mm) = &ctx.key.trace else {
        unreachable!("a minimax key holds minimax's trace")
    };
    let mut out = Vec::new();
    let mut stack = vec![(t.root(), false)];
    while let Some((n, done)) = stack.pop() {
        if t.leaf(n).is_some() {
            continue;
        }
        if done {
            let label = t.label(n).into_owned();
            out.push(Hint {
                question: Reason::new(Own("hint.value_q")).with("node", label.clone()),
                answer: Reason::new(Own("hint.value_a"))
                    .with("node", label.clone())
                    .with("explain", backed_up(t, mm, n)),
                nodes: vec![label],
            });
        } else {
            stack.push((n, true));
            let children: Vec<NodeId> = t.children(n).collect();
            stack.extend(children.into_iter().rev().map(|c| (c, false)));
        }
    }
    out
}
