//! `and-or-solvable`: which nodes are solvable and which are not.

use super::Figures;
use super::{
    Answer, Context, Explained, Family, Field, Item, Key, KindDef, Mistake, Shape, Table, Trace,
    any_instance, graph, instance_graph, plain,
};
use crate::andor::solvable;
use crate::draw::{GraphMarks, graph_figure};
use crate::instance::Instance;
use crate::lang::Lang;
use crate::reason::{Phrase, Reason};

const SOLVABLE_NODES: super::Measure = super::Measure::new("solvable_nodes");
const START_OBVIOUS: super::Measure = super::Measure::new("start_obvious");
const UNSOLVABLE_NODES: super::Measure = super::Measure::new("unsolvable_nodes");

pub(super) static KIND: KindDef = KindDef {
    name: "and-or-solvable",
    family: Family::AndOr,
    fields: &[
        Field::new("solvable", Shape::Labels),
        Field::new("unsolvable", Shape::Labels),
    ],
    solver: super::Solver::Solvable,
    solve,
    explain,
    teach,
    unusable: any_instance,
    conventions: super::no_conventions,
    measures: &[SOLVABLE_NODES, UNSOLVABLE_NODES, START_OBVIOUS],
    measure,
    point,
    replay: super::no_replay,
    hints: super::no_hints,
    budgets: super::Budgets::NONE,
    sizes: super::Sizes {
        small: "depth = 2\nnodes = \"7..12\"\nalternatives = \"1..2\"\narity = \"1..3\"\ndead_end_percent = 35\nsolvable = false",
        medium: "depth = 3\nnodes = \"10..22\"\nalternatives = \"1..2\"\narity = \"1..3\"\ndead_end_percent = 35\nsolvable = false\nshared_percent = 15",
        large: "depth = 4\nnodes = \"18..30\"\nalternatives = \"1..2\"\narity = \"1..3\"\ndead_end_percent = 35\nsolvable = false\nshared_percent = 15",
    },
};

fn solvable_of<'a>(ctx: &'a Context<'_>) -> &'a [bool] {
    match &ctx.key.trace {
        Trace::Solvable { solvable } => solvable,
        _ => unreachable!("a solvability key"),
    }
}

fn solve(instance: &Instance, _: &super::Conventions) -> Key {
    let g = instance_graph(instance);
    let ok = solvable(g);
    let nodes = |want: bool| {
        g.ids()
            .filter(|n| ok[n.index()] == want)
            .map(|n| Item::Node(n.0))
            .collect()
    };
    Key::new(
        vec![
            ("solvable", Answer::Set(nodes(true))),
            ("unsolvable", Answer::Set(nodes(false))),
        ],
        Trace::Solvable { solvable: ok },
    )
}

fn explain(ctx: &Context<'_>, _: &[&str], lang: &Lang, figures: Figures) -> Explained {
    let g = graph(ctx);
    let marks = GraphMarks {
        solved: solvable_of(ctx).to_vec(),
        ..GraphMarks::default()
    };
    let dead: Vec<String> = g
        .ids()
        .filter(|&n| !g.node(n).terminal && g.connectors_of(n).is_empty())
        .map(|n| g.label(n).to_string())
        .collect();
    let mut notes = vec![lang.get("note.solvable_rule").to_string()];
    if !dead.is_empty() {
        notes.push(lang.fill("note.dead_ends", &[("nodes", &dead.join(", "))]));
    }
    Explained {
        figure: figures.draw(|| graph_figure(g, Some(&marks))),
        table: Table::default(),
        notes,
    }
}

fn teach(ctx: &Context<'_>, field: &str, mistake: Mistake<'_>, hide: bool) -> Vec<Reason> {
    let g = graph(ctx);
    match (field, mistake) {
        ("solvable", Mistake::Extra(item)) => {
            vec![Reason::new(Phrase::SolvableWrong).with("node", ctx.name(item))]
        }
        ("unsolvable", Mistake::Extra(Item::Node(n))) => {
            let id = crate::andor::NodeId(n);
            let ok = solvable_of(ctx);
            let why = if g.node(id).terminal {
                Some(Reason::new(Phrase::SolvableGoal))
            } else {
                g.connectors_of(id)
                    .iter()
                    .find(|&&c| g.connector(c).to.iter().all(|t| ok[t.index()]))
                    .map(|&c| {
                        Reason::new(Phrase::SolvableVia).with("connector", g.connector_name(c))
                    })
            };
            let r = Reason::new(Phrase::UnsolvableWrong).with("node", g.label(id));
            vec![match why {
                Some(why) => r.nested("why", why),
                None => r.with("why", ""),
            }]
        }
        _ => plain(ctx, field, mistake, hide),
    }
}

/// Non-goal nodes that are solvable and that are not; and whether the start's
/// label can be read off its own connectors (one leads to goals only, or every
/// one has a dead end among its children).
fn measure(ctx: &Context<'_>) -> Vec<u64> {
    let g = super::graph(ctx);
    let ok = solvable_of(ctx);
    let inner = |want: bool| {
        g.ids()
            .filter(|n| !g.node(*n).terminal && ok[n.index()] == want)
            .count() as u64
    };
    let start = g.connectors_of(g.start());
    let goal = |n: &crate::andor::NodeId| g.node(*n).terminal;
    let dead = |n: &crate::andor::NodeId| !g.node(*n).terminal && g.connectors_of(*n).is_empty();
    let obvious = start.iter().any(|&c| g.connector(c).to.iter().all(goal))
        || start.iter().all(|&c| g.connector(c).to.iter().any(dead));
    vec![inner(true), inner(false), u64::from(obvious)]
}

/// Both answers occur, and the start's own connectors do not decide it.
fn point(_: &[&str]) -> Vec<super::Limit> {
    vec![
        super::Limit::at_least(SOLVABLE_NODES, 1),
        super::Limit::at_least(UNSOLVABLE_NODES, 1),
        super::Limit::exactly(START_OBVIOUS, 0),
    ]
}
