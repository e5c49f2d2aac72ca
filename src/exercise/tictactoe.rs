//! `tictactoe`: e(P) of a position, the backed-up values of MAX's moves, the
//! best move and the replies alpha-beta prunes.

use super::Figures;
use super::{Context, Conventions, Explained, Family, Instance, Key, KindDef, Table, lookahead};
use crate::games::tictactoe::TicTacToe;
use crate::instance::Model;
use crate::lang::Lang;

pub(super) static KIND: KindDef = KindDef {
    name: "tictactoe",
    family: Family::TicTacToe,
    fields: &[
        lookahead::EVAL,
        lookahead::MOVE_VALUES,
        lookahead::BEST_MOVE,
        lookahead::PRUNED,
    ],
    solver: super::Solver::Lookahead,
    solve,
    explain,
    teach: super::alpha_beta::teach_search,
    unusable,
    conventions,
    measures: super::lookahead::MEASURES,
    measure: super::lookahead::measure,
    point: super::lookahead::point,
    replay: super::no_replay,
    hints: super::no_hints,
    budgets: super::Budgets::NONE,
    sizes: super::Sizes {
        small: "marks = \"4..5\"\ndepth = 2\nsymmetry = true\nunique_best = true",
        medium: "marks = \"2..3\"\ndepth = 2\nsymmetry = true\nmin_cuts = 1\nunique_best = true",
        large: "marks = \"1..2\"\ndepth = 2\nsymmetry = true\nmin_cuts = 2\nunique_best = true",
    },
};

fn game(instance: &Instance) -> &TicTacToe {
    match instance {
        Instance::TicTacToe(g) => g,
        _ => unreachable!("the problem set checks the family"),
    }
}

fn unusable(instance: &Instance) -> Option<String> {
    let g = game(instance);
    if g.board.finished() {
        return Some("the game is over on this board: give a position with a move to make".into());
    }
    if g.root_player() != crate::gametree::Player::Max {
        return Some(format!(
            "the sheet asks for MAX's moves, but {} is to move and MAX plays {}: set `max = \"{}\"`",
            g.to_move().letter(),
            g.max.letter(),
            g.to_move().letter()
        ));
    }
    lookahead::too_large_search(
        |cap| g.search_size(cap),
        || g.lookahead().tree,
        None,
        "depth",
    )
}

fn solve(instance: &Instance, conventions: &Conventions) -> Key {
    let g = game(instance);
    lookahead::solve(&g.lookahead().tree, g.eval(), conventions)
}

fn explain(ctx: &Context<'_>, ask: &[&str], lang: &Lang, figures: Figures) -> Explained {
    let g = game(ctx.instance);
    let Model::TicTacToe(look) = ctx.model else {
        unreachable!("a tic-tac-toe model")
    };
    let t = &look.tree;
    let (max, min) = (g.max, g.max.other());
    let rows = lookahead::evaluated(t)
        .into_iter()
        .map(|id| {
            let board = look.positions[id.index()].board;
            let (open_max, open_min) = if board.has_line(max) || board.has_line(min) {
                ("—".to_string(), "—".to_string())
            } else {
                (
                    board.open_lines(max).to_string(),
                    board.open_lines(min).to_string(),
                )
            };
            vec![
                t.label(id).into_owned(),
                board.to_string(),
                open_max,
                open_min,
                board.eval(max).to_string(),
            ]
        })
        .collect();
    let table = Table {
        headers: lookahead::headers(
            lang,
            &[
                "table.position",
                "table.board",
                "table.open_max",
                "table.open_min",
                "table.eval",
            ],
        ),
        rows,
    };
    // The tree as Nilsson draws it: each node its board, the move just played in red.
    let boards: Vec<_> = look.positions.iter().map(|p| p.board).collect();
    lookahead::explain(
        ctx,
        Some(crate::draw::tictactoe_board(&g.board)),
        &|t, marks| crate::draw::tictactoe_tree(t, &boards, Some(marks)),
        table,
        ask,
        lang,
        figures,
    )
}

fn conventions(instance: &Instance, c: &Conventions, ask: &[&str], lang: &Lang) -> Vec<String> {
    let g = game(instance);
    let mut lines = vec![
        lang.fill(
            "convention.ttt_players",
            &[
                ("max", &g.max.letter().to_string()),
                ("min", &g.max.other().letter().to_string()),
            ],
        ),
        lang.get("convention.ttt_eval").to_string(),
        lang.fill("convention.lookahead", &[("depth", &g.depth.to_string())]),
        lang.get("convention.ttt_order").to_string(),
        lang.get(if g.symmetry {
            "convention.ttt_symmetry"
        } else {
            "convention.ttt_no_symmetry"
        })
        .to_string(),
    ];
    lines.extend(super::pruning_conventions(c, ask, lang));
    lines
}
