//! `solution-cost`: the optimal solution graph and its cost by sum and by max.

use super::{Answer, Family, Field, KindDef, Shape, Solved, Table, graph};
use crate::andor::{CostModel, optimal};
use crate::draw::{GraphMarks, graph_figure};
use crate::instance::Instance;
use crate::lang::Lang;

pub(super) static KIND: KindDef = KindDef {
    name: "solution-cost",
    family: Family::AndOr,
    fields: &[
        Field {
            name: "sum_cost",
            shape: Shape::Cost,
        },
        Field {
            name: "sum_solution",
            shape: Shape::Connectors,
        },
        Field {
            name: "max_cost",
            shape: Shape::Cost,
        },
        Field {
            name: "max_solution",
            shape: Shape::Connectors,
        },
    ],
    solve,
    unusable,
};

fn unusable(instance: &Instance) -> Option<String> {
    match instance {
        Instance::AndOr(g) if !g.has_arc_costs() => Some(
            "the max cost needs a cost per arc: use `costs = [..]` instead of `cost = ..`"
                .to_string(),
        ),
        _ => None,
    }
}

fn solve(instance: &Instance, _: &super::Conventions, lang: &Lang) -> Solved {
    let g = graph(instance);
    let sum = optimal(g, CostModel::Sum);
    let max = optimal(g, CostModel::Max);
    let describe = |cs: &[crate::andor::ConnectorId]| {
        cs.iter().map(|&c| g.connector_name(c)).collect::<Vec<_>>()
    };
    let marks = GraphMarks {
        costs: sum.costs.iter().map(|c| Some(c.to_string())).collect(),
        solution: sum.solution.clone(),
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
            row(lang.get("model.sum"), &sum),
            row(lang.get("model.max"), &max),
        ],
    };
    Solved {
        answers: vec![
            ("sum_cost", Answer::Cost(sum.cost)),
            ("sum_solution", Answer::Connectors(describe(&sum.solution))),
            ("max_cost", Answer::Cost(max.cost)),
            ("max_solution", Answer::Connectors(describe(&max.solution))),
        ],
        figure: graph_figure(g, Some(&marks)),
        table,
        notes: vec![
            lang.get("note.sum_rule").to_string(),
            lang.get("note.max_rule").to_string(),
        ],
    }
}
