//! `minimax`: the backed-up value of every inner node and the best move.

use super::{Answer, Family, Field, KindDef, Shape, Solved, Table, any_instance, tree};
use crate::draw::{TreeMarks, tree_figure};
use crate::gametree::minimax;
use crate::instance::Instance;
use crate::lang::Lang;

pub(super) static KIND: KindDef = KindDef {
    name: "minimax",
    family: Family::GameTree,
    fields: &[
        Field {
            name: "value",
            shape: Shape::Value,
        },
        Field {
            name: "values",
            shape: Shape::Values,
        },
        Field {
            name: "best_move",
            shape: Shape::Label,
        },
    ],
    solve,
    unusable: any_instance,
};

fn solve(instance: &Instance, _: &super::Conventions, lang: &Lang) -> Solved {
    let t = tree(instance);
    let mm = minimax(t);
    let inner: Vec<_> = t.ids().filter(|&id| t.leaf(id).is_none()).collect();
    let marks = TreeMarks {
        values: t
            .ids()
            .map(|id| {
                t.leaf(id)
                    .is_none()
                    .then(|| mm.values[id.index()].to_string())
            })
            .collect(),
        answer_path: mm.principal_variation[1..].to_vec(),
        ..TreeMarks::default()
    };
    let best: Vec<String> = mm
        .best_moves
        .iter()
        .map(|&b| t.label(b).into_owned())
        .collect();
    let mut notes = vec![lang.fill(
        "note.best_move",
        &[
            ("moves", &best.join(", ")),
            ("value", &mm.value.to_string()),
        ],
    )];
    let pv: Vec<String> = mm
        .principal_variation
        .iter()
        .map(|&n| t.label(n).into_owned())
        .collect();
    notes.push(lang.fill("note.principal_variation", &[("path", &pv.join(" → "))]));
    Solved {
        answers: vec![
            ("value", Answer::Value(mm.value)),
            (
                "values",
                Answer::Values(
                    inner
                        .iter()
                        .map(|&id| (t.label(id).into_owned(), mm.values[id.index()]))
                        .collect(),
                ),
            ),
            // Tied best moves are all right: the key lists every one.
            (
                "best_move",
                if best.len() == 1 {
                    Answer::Label(best[0].clone())
                } else {
                    Answer::Choice(best.clone())
                },
            ),
        ],
        figure: tree_figure(t, Some(&marks)),
        table: Table::default(),
        notes,
    }
}
