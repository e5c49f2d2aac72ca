//! `othello`: e(P) of a position for the side to move, its legal moves, the
//! backed-up values of those moves, the best move and what alpha-beta prunes.

use super::{
    Answer, Context, Conventions, Domain, Explained, Family, Field, Instance, Item, Key, KindDef,
    Shape, Table, lookahead,
};
use crate::games::othello::{Board, Othello, square_name};
use crate::instance::Model;
use crate::lang::Lang;
use crate::value::Value;

pub(super) static KIND: KindDef = KindDef {
    name: "othello",
    family: Family::Othello,
    fields: &[
        lookahead::EVAL,
        Field::new("legal_moves", Shape::Labels).within(Domain::Squares),
        lookahead::MOVE_VALUES,
        lookahead::BEST_MOVE,
        lookahead::PRUNED,
    ],
    solver: "lookahead",
    solve,
    explain,
    teach: super::alpha_beta::teach_search,
    unusable,
    conventions,
    measures: super::lookahead::MEASURES,
    measure: super::lookahead::measure,
    point: super::lookahead::point,
    replay: super::no_replay,
};

fn game(instance: &Instance) -> &Othello {
    match instance {
        Instance::Othello(g) => g,
        _ => unreachable!("the problem set checks the family"),
    }
}

fn unusable(instance: &Instance) -> Option<String> {
    let g = game(instance);
    if g.board.moves(g.to_move).is_empty() {
        return Some(
            "the side to move has no legal move here: give a position where it can move".into(),
        );
    }
    lookahead::too_large_search(
        |cap| g.search_size(cap),
        || g.lookahead().tree,
        Some(crate::games::othello::MAX_LEAVES),
    )
}

fn solve(instance: &Instance, conventions: &Conventions) -> Key {
    let g = game(instance);
    let look = g.lookahead();
    let t = &look.tree;
    let mut key = lookahead::solve(t, Value::Finite(g.eval()), conventions);
    // The legal moves are the root's children: the lookahead names them by square.
    let legal = g
        .board
        .moves(g.to_move)
        .iter()
        .filter_map(|(m, _)| t.find(&square_name(*m)))
        .map(|id| Item::Node(id.0))
        .collect();
    key.answers
        .insert("legal_moves".to_string(), Answer::Set(legal));
    key
}

fn explain(ctx: &Context<'_>, lang: &Lang) -> Explained {
    let g = game(ctx.instance);
    let Model::Othello(look) = ctx.model else {
        unreachable!("an Othello model")
    };
    let t = &look.tree;
    let (max, min) = (g.to_move, g.to_move.other());
    // Columns for the terms the evaluation has: a zero weight's column would mislead.
    let (mobility, frontier) = (g.weights.mobility != 0, g.weights.frontier != 0);
    let rows = lookahead::evaluated(t)
        .into_iter()
        .map(|id| {
            let board: &Board = &look.positions[id.index()].board;
            let p = board.eval_parts(max, &g.weights);
            // `5 − (−34)`, not `5 − -34`.
            let pair = |a: i64, b: i64| {
                if b < 0 {
                    format!("{a} − (−{})", b.unsigned_abs())
                } else {
                    format!("{a} − {b}")
                }
            };
            let mut row = vec![t.label(id).into_owned()];
            if p.finished {
                row.push(lang.fill(
                    "table.finished",
                    &[("discs", &pair(p.discs_max, p.discs_min))],
                ));
                row.extend(
                    [mobility, frontier]
                        .iter()
                        .filter(|&&on| on)
                        .map(|_| String::new()),
                );
            } else {
                row.push(pair(p.squares_max, p.squares_min));
                if mobility {
                    row.push(pair(p.mobility_max, p.mobility_min));
                }
                if frontier {
                    row.push(pair(p.frontier_max, p.frontier_min));
                }
            }
            row.push(p.total.to_string());
            row
        })
        .collect();
    let mut headers = vec!["table.position", "table.squares"];
    if mobility {
        headers.push("table.mobility");
    }
    if frontier {
        headers.push("table.frontier");
    }
    headers.push("table.eval");
    let table = Table {
        headers: lookahead::headers(lang, &headers),
        rows,
    };
    let moves = g.board.moves(max);
    let mut explained = lookahead::explain(
        ctx,
        crate::draw::othello_board(g, &moves.iter().map(|(m, _)| *m).collect::<Vec<_>>()),
        table,
        lang,
    );
    let flips = moves.iter().map(|(m, flipped)| {
        let discs: Vec<String> = flipped.iter().map(|&f| square_name(f)).collect();
        format!("{} ({})", square_name(*m), discs.join(", "))
    });
    explained.notes.insert(
        1,
        lang.fill(
            "note.legal_moves",
            &[
                ("side", &max.letter().to_string()),
                ("moves", &flips.collect::<Vec<_>>().join("; ")),
                ("other", &min.letter().to_string()),
            ],
        ),
    );
    explained
}

fn conventions(instance: &Instance, c: &Conventions, lang: &Lang) -> Vec<String> {
    let g = game(instance);
    let mut lines = vec![
        lang.fill(
            "convention.othello_players",
            &[
                ("max", &g.to_move.letter().to_string()),
                ("min", &g.to_move.other().letter().to_string()),
            ],
        ),
        lang.get("convention.othello_eval").to_string(),
    ];
    if g.weights.mobility != 0 {
        lines.push(lang.fill(
            "convention.othello_mobility",
            &[("w", &g.weights.mobility.to_string())],
        ));
    }
    if g.weights.frontier != 0 {
        lines.push(lang.fill(
            "convention.othello_frontier",
            &[("w", &g.weights.frontier.to_string())],
        ));
    }
    lines.push(lang.get("convention.othello_finished").to_string());
    lines.push(lang.fill("convention.lookahead", &[("depth", &g.depth.to_string())]));
    lines.push(lang.get("convention.othello_order").to_string());
    lines.extend(super::search_conventions(c, lang));
    lines
}
