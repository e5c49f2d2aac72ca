//! `grundy`: who wins Grundy's game from N coins, the states MAX wins, and the
//! winner's winning moves.

use super::{Answer, Conventions, Family, Field, Instance, KindDef, Shape, Solved, Table};
use crate::draw::{GrundyMarks, grundy_figure};
use crate::games::grundy::{self, GrundyGame};
use crate::gametree::Player;
use crate::lang::Lang;

pub(super) static KIND: KindDef = KindDef {
    name: "grundy",
    family: Family::Grundy,
    fields: &[
        Field {
            name: "winner",
            shape: Shape::Label,
        },
        Field {
            name: "max_wins",
            shape: Shape::Labels,
        },
        Field {
            name: "winning_moves",
            shape: Shape::Labels,
        },
    ],
    solve,
    unusable,
};

/// The game of an instance.
pub(crate) fn game(instance: &Instance) -> GrundyGame {
    match instance {
        Instance::Grundy { coins, first } => grundy::solve(*coins, *first),
        _ => unreachable!("the problem set checks the family"),
    }
}

fn unusable(instance: &Instance) -> Option<String> {
    match instance {
        Instance::Grundy { coins, .. } => grundy::exercise_coins(*coins).err(),
        _ => None,
    }
}

fn solve(instance: &Instance, _: &Conventions, lang: &Lang) -> Solved {
    let g = game(instance);
    let winner = g.winner();
    let moves = g.winning_moves();
    let marks = GrundyMarks {
        winners: true,
        answer_moves: moves.clone(),
    };
    let rows = (0..g.states.len())
        .map(|s| {
            let next: Vec<String> = g.moves[s].iter().map(|&m| g.states[m].name()).collect();
            vec![
                g.states[s].name(),
                if next.is_empty() {
                    lang.get("table.no_move").to_string()
                } else {
                    next.join(", ")
                },
                g.wins_for[s].name().to_string(),
            ]
        })
        .collect();
    let first_moves: Vec<String> = g.moves[0]
        .iter()
        .map(|&m| format!("{} ({})", g.states[m].name(), g.wins_for[m].name()))
        .collect();
    let notes = vec![
        lang.get("note.grundy_rule").to_string(),
        lang.fill(
            "note.grundy_winner",
            &[
                ("start", &g.states[0].name()),
                ("winner", winner.name()),
                ("moves", &first_moves.join(", ")),
            ],
        ),
    ];
    Solved {
        answers: vec![
            ("winner", Answer::Label(winner.name().to_string())),
            (
                "max_wins",
                Answer::Labels(
                    (0..g.states.len())
                        .filter(|&s| g.wins_for[s] == Player::Max)
                        .map(|s| g.states[s].name())
                        .collect(),
                ),
            ),
            (
                "winning_moves",
                Answer::Labels(moves.iter().map(|&(a, b)| g.move_name(a, b)).collect()),
            ),
        ],
        figure: grundy_figure(&g, Some(&marks)),
        table: Table {
            headers: ["table.state", "table.moves_to", "table.wins"]
                .iter()
                .map(|k| lang.get(k).to_string())
                .collect(),
            rows,
        },
        notes,
    }
}
