//! `ao-star`: AO* cycle by cycle: the expansion order, the cost, the solution graph.

use super::{Answer, Family, Field, KindDef, Shape, Solved, Table, any_instance, graph};
use crate::andor::{Outcome, ao_star};
use crate::draw::{GraphMarks, graph_figure};
use crate::instance::Instance;
use crate::lang::Lang;

pub(super) static KIND: KindDef = KindDef {
    name: "ao-star",
    family: Family::AndOr,
    fields: &[
        Field {
            name: "expanded",
            shape: Shape::Sequence,
        },
        Field {
            name: "cost",
            shape: Shape::Cost,
        },
        Field {
            name: "solution",
            shape: Shape::Connectors,
        },
    ],
    solve,
    unusable: any_instance,
};

fn solve(instance: &Instance, _: &super::Conventions, lang: &Lang) -> Solved {
    let g = graph(instance);
    let run = ao_star(g, Default::default());
    let marks = GraphMarks {
        costs: run.costs.iter().map(|c| c.map(|c| c.to_string())).collect(),
        solution: if run.outcome == Outcome::Solved {
            run.solution.clone()
        } else {
            Vec::new()
        },
        solved: run.solved.clone(),
    };
    let mut notes = Vec::new();
    let rows = run
        .cycles
        .iter()
        .enumerate()
        .map(|(i, cy)| {
            let revised: Vec<String> = cy
                .revised
                .iter()
                .map(|r| format!("{}: {} → {}", g.label(r.node), r.old, r.new))
                .collect();
            let marked: Vec<String> = cy
                .revised
                .iter()
                .filter_map(|r| {
                    let mark = g.describe(r.marked?);
                    Some(match r.switched_from {
                        Some(from) => {
                            notes.push(lang.fill(
                                "note.switch",
                                &[
                                    ("cycle", &(i + 1).to_string()),
                                    ("node", g.label(r.node)),
                                    ("from", &g.describe(from)),
                                    ("to", &mark),
                                ],
                            ));
                            format!(
                                "{mark} ({})",
                                lang.fill("table.was", &[("from", &g.describe(from))])
                            )
                        }
                        None => mark,
                    })
                })
                .collect();
            let solved: Vec<&str> = cy
                .solved
                .iter()
                .filter(|&&n| !g.node(n).terminal)
                .map(|&n| g.label(n))
                .collect();
            vec![
                (i + 1).to_string(),
                g.label(cy.expanded).to_string(),
                revised.join(", "),
                marked.join(", "),
                solved.join(", "),
                cy.start_cost.to_string(),
            ]
        })
        .collect();
    let table = Table {
        headers: [
            "table.cycle",
            "table.expanded",
            "table.revised",
            "table.marked",
            "table.solved",
            "table.start_cost",
        ]
        .iter()
        .map(|k| lang.get(k).to_string())
        .collect(),
        rows,
    };
    notes.insert(0, lang.get("note.ao_rule").to_string());
    let outcome = match run.outcome {
        Outcome::Solved => lang.fill(
            "note.ao_solved",
            &[
                ("cost", &run.cost.to_string()),
                ("cycles", &run.cycles.len().to_string()),
            ],
        ),
        _ => lang.get("note.ao_unsolvable").to_string(),
    };
    notes.push(outcome);
    Solved {
        answers: vec![
            (
                "expanded",
                Answer::Sequence(
                    run.expanded
                        .iter()
                        .map(|&n| g.label(n).to_string())
                        .collect(),
                ),
            ),
            ("cost", Answer::Cost(run.cost)),
            (
                "solution",
                Answer::Connectors(run.solution.iter().map(|&c| g.connector_name(c)).collect()),
            ),
        ],
        figure: graph_figure(g, Some(&marks)),
        table,
        notes,
    }
}
