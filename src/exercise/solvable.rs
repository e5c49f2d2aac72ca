//! `and-or-solvable`: which nodes are solvable and which are not.

use super::{Answer, Family, Field, KindDef, Shape, Solved, Table, any_instance, graph};
use crate::andor::solvable;
use crate::draw::{GraphMarks, graph_figure};
use crate::instance::Instance;
use crate::lang::Lang;

pub(super) static KIND: KindDef = KindDef {
    name: "and-or-solvable",
    family: Family::AndOr,
    fields: &[
        Field {
            name: "solvable",
            shape: Shape::Labels,
        },
        Field {
            name: "unsolvable",
            shape: Shape::Labels,
        },
    ],
    solve,
    unusable: any_instance,
};

fn solve(instance: &Instance, _: &super::Conventions, lang: &Lang) -> Solved {
    let g = graph(instance);
    let ok = solvable(g);
    let names = |want: bool| {
        g.ids()
            .filter(|n| ok[n.index()] == want)
            .map(|n| g.label(n).to_string())
            .collect::<Vec<_>>()
    };
    let marks = GraphMarks {
        costs: Vec::new(),
        solution: Vec::new(),
        solved: ok.clone(),
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
    Solved {
        answers: vec![
            ("solvable", Answer::Labels(names(true))),
            ("unsolvable", Answer::Labels(names(false))),
        ],
        figure: graph_figure(g, Some(&marks)),
        table: Table::default(),
        notes,
    }
}
