//! `solution-cost`: the optimal solution graph and its cost by sum and by max.

use super::Figures;
use super::{
    Answer, Context, Explained, Family, Field, Item, Key, KindDef, Shape, Table, Trace, graph,
    instance_graph, plain,
};
use crate::andor::{CostModel, optimal};
use crate::draw::{GraphMarks, graph_figure};
use crate::instance::Instance;
use crate::lang::Lang;

const MAX_DEPTH: super::Measure = super::Measure::new("max_depth");
const SAME_SOLUTION: super::Measure = super::Measure::new("same_solution");
const SUM_DEPTH: super::Measure = super::Measure::new("sum_depth");

pub(super) static KIND: KindDef = KindDef {
    name: "solution-cost",
    family: Family::AndOr,
    fields: &[
        Field::new("sum_cost", Shape::Cost),
        Field::new("sum_solution", Shape::Connectors),
        Field::new("max_cost", Shape::Cost),
        Field::new("max_solution", Shape::Connectors),
    ],
    solver: super::Solver::SolutionCost,
    solve,
    explain,
    teach: plain,
    unusable,
    conventions,
    measures: &[
        super::Measure::new("sum_connectors"),
        SUM_DEPTH,
        MAX_DEPTH,
        SAME_SOLUTION,
    ],
    measure,
    point,
    replay: super::no_replay,
    hints: super::no_hints,
    budgets: super::Budgets::NONE,
    sizes: super::Sizes {
        small: "depth = 2\nnodes = \"7..14\"\nalternatives = 2\narity = \"1..3\"\nterminal_percent = 0\narc_costs = \"1..12\"\nunique = true",
        medium: "depth = 3\nnodes = \"10..26\"\nalternatives = 2\narity = \"1..2\"\nterminal_percent = 0\narc_costs = \"1..12\"\nunique = true",
        large: "depth = 3\nnodes = \"16..34\"\nalternatives = 2\narity = \"1..3\"\nterminal_percent = 0\narc_costs = \"1..12\"\nunique = true",
    },
};

/// The kind asks the sum and max costs, which add a cost per arc: a graph
/// with a bare connector cost has neither (its own connector model still
/// applies, and `solve` shows that optimum).
fn unusable(instance: &Instance) -> Option<String> {
    let Instance::AndOr(g) = instance else {
        return None;
    };
    let Err(crate::andor::GraphError::NeedsArcs(c)) = g.check_model(CostModel::Max) else {
        return None;
    };
    Some(format!(
        "it asks the sum and max costs, which add a cost per arc, and `{}` gives one cost for the whole connector (`cost = {}`): give every connector `costs = [..]`, one per child, to ask them (the connector model needs no arc costs: `treequiz solve` shows its optimum)",
        g.describe(c),
        g.connector(c).cost
    ))
}

fn solve(instance: &Instance, _: &super::Conventions) -> Key {
    let g = instance_graph(instance);
    let sum = optimal(g, CostModel::Sum);
    let max = optimal(g, CostModel::Max);
    let connectors = |cs: &[crate::andor::ConnectorId]| {
        Answer::Set(cs.iter().map(|c| Item::Connector(c.0)).collect())
    };
    Key::new(
        vec![
            ("sum_cost", Answer::Cost(sum.cost)),
            ("sum_solution", connectors(&sum.solution)),
            ("max_cost", Answer::Cost(max.cost)),
            ("max_solution", connectors(&max.solution)),
        ],
        Trace::SolutionCost { sum, max },
    )
}

fn explain(ctx: &Context<'_>, _: &[&str], lang: &Lang, figures: Figures) -> Explained {
    let g = graph(ctx);
    let Trace::SolutionCost { sum, max } = &ctx.key.trace else {
        unreachable!("a solution-cost key")
    };
    let describe = |cs: &[crate::andor::ConnectorId]| {
        cs.iter().map(|&c| g.connector_name(c)).collect::<Vec<_>>()
    };
    // Both rules in one drawing: each node's costs as `sum | max` (a goal's
    // are 0, the legend says so), the sum solution green and the max
    // solution blue and dashed over it.
    let marks = GraphMarks {
        costs: g
            .ids()
            .map(|n| {
                let (s, m) = (sum.costs[n.index()], max.costs[n.index()]);
                (!g.node(n).terminal).then(|| format!("{s} | {m}"))
            })
            .collect(),
        solution: sum.solution.clone(),
        second: max.solution.clone(),
        solved: Vec::new(),
    };
    let row = |name: &str, opt: &crate::andor::Optimal| {
        let node_costs: Vec<String> = g
            .ids()
            .filter(|n| !g.node(*n).terminal)
            .map(|n| format!("{} = {}", g.label(n), opt.costs[n.index()]))
            .collect();
        vec![
            name.to_string(),
            opt.cost.to_string(),
            describe(&opt.solution).join("; "),
            node_costs.join(", "),
        ]
    };
    let table = Table {
        headers: [
            "table.model",
            "table.cost",
            "table.solution",
            "table.node_costs",
        ]
        .iter()
        .map(|k| lang.get(k).to_string())
        .collect(),
        rows: vec![
            row(lang.get("model.sum"), sum),
            row(lang.get("model.max"), max),
        ],
    };
    Explained {
        figure: figures.draw(|| graph_figure(g, Some(&marks))),
        table,
        notes: vec![
            lang.get("note.sum_rule").to_string(),
            lang.get("note.max_rule").to_string(),
        ],
    }
}

fn conventions(_: &Instance, _: &super::Conventions, _: &[&str], lang: &Lang) -> Vec<String> {
    [
        "convention.cost_sum",
        "convention.cost_max",
        "convention.solution_cost_models",
    ]
    .iter()
    .map(|k| lang.get(k).to_string())
    .collect()
}

/// Connectors on the longest path from the start through a solution graph.
/// Each node's depth once, children before parents: a graph that shares
/// nodes has exponentially many paths.
pub(crate) fn solution_depth(
    g: &crate::andor::Graph,
    solution: &[crate::andor::ConnectorId],
) -> u64 {
    let mut chosen = vec![None; g.len()];
    for &c in solution {
        chosen[g.connector(c).from.index()] = Some(c);
    }
    let mut depth = vec![0u64; g.len()];
    for n in g.topological_order().into_iter().rev() {
        if let Some(c) = chosen[n.index()] {
            let below = g.connector(c).to.iter().map(|t| depth[t.index()]).max();
            depth[n.index()] = 1 + below.unwrap_or(0);
        }
    }
    depth[g.start().index()]
}

fn measure(ctx: &Context<'_>) -> Vec<u64> {
    let g = graph(ctx);
    let Trace::SolutionCost { sum, max } = &ctx.key.trace else {
        unreachable!("a solution-cost key")
    };
    let mut a = sum.solution.clone();
    let mut b = max.solution.clone();
    a.sort_unstable();
    b.sort_unstable();
    vec![
        sum.solution.len() as u64,
        solution_depth(g, &sum.solution),
        solution_depth(g, &max.solution),
        u64::from(a == b),
    ]
}

/// Solutions more than one connector deep; asked for both, sum and max must
/// choose differently, or one answer is the other.
fn point(asked: &[&str]) -> Vec<super::Limit> {
    let mut out = vec![
        super::Limit::at_least(SUM_DEPTH, 2),
        super::Limit::at_least(MAX_DEPTH, 2),
    ];
    let both =
        asked.iter().any(|f| f.starts_with("sum_")) && asked.iter().any(|f| f.starts_with("max_"));
    if both {
        out.push(super::Limit::exactly(SAME_SOLUTION, 0));
    }
    out
}
