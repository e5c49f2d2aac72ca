//! `othello`: e(P) of a position for the side to move, its legal moves, the
//! backed-up values of those moves, the best move and what alpha-beta prunes.

use super::Figures;
use super::{
    Answer, Context, Conventions, Domain, Explained, Family, Field, Instance, Item, Key, KindDef,
    Shape, Table, lookahead,
};
use crate::games::lookahead::Horizon;
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
        small: "plies = \"4..8\"\ndepth = 1",
        medium: "plies = \"4..8\"\ndepth = 2\nmin_cuts = 1\nunique_best = true",
        large: "plies = \"10..16\"\ndepth = 2\nmin_cuts = 2\nunique_best = true",
    },
};

fn game(instance: &Instance) -> &Othello {
    match instance {
        Instance::Othello(g) => g,
        _ => unreachable!("the problem set checks the family"),
    }
}

fn unusable(instance: &Instance) -> Option<String> {
    let g = game(instance);
    if !matches!(g.horizon, Horizon::Depth(_)) {
        return Some(
            "this position is searched under a node budget: give `depth` for the othello kind, or ask othello-budget or othello-deepening".into(),
        );
    }
    if g.board.moves(g.to_move).is_empty() {
        return Some(
            "the side to move has no legal move here: give a position where it can move".into(),
        );
    }
    lookahead::too_large_search(
        |cap| g.search_size(cap),
        || g.lookahead().tree,
        Some(crate::games::othello::MAX_LEAVES),
        "depth",
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

fn explain(ctx: &Context<'_>, ask: &[&str], lang: &Lang, figures: Figures) -> Explained {
    let g = game(ctx.instance);
    let Model::Othello(look) = ctx.model else {
        unreachable!("an Othello model")
    };
    let t = &look.tree;
    let (max, min) = (g.to_move, g.to_move.other());
    // Columns for the terms the evaluation has: a zero weight's column would mislead.
    let terms = weighted_terms(&g.weights);
    let rows = lookahead::evaluated(t)
        .into_iter()
        .map(|id| {
            let board: &Board = &look.positions[id.index()].board;
            let p = board.eval_parts(max, &g.weights);
            // `5 − (−34)`, not `5 − -34`.
            let pair = |(a, b): (i64, i64)| {
                if b < 0 {
                    format!("{a} − (−{})", b.unsigned_abs())
                } else {
                    format!("{a} − {b}")
                }
            };
            let mut row = vec![t.label(id).into_owned()];
            if p.finished {
                row.push(finished_text(&p, &g.weights, lang));
                row.extend(terms.iter().map(|_| String::new()));
            } else {
                row.push(pair((p.squares_max, p.squares_min)));
                row.extend(terms.iter().map(|term| pair(term.counts(&p))));
            }
            row.push(p.total.to_string());
            row
        })
        .collect();
    let mut headers = vec!["table.position", "table.squares"];
    headers.extend(terms.iter().map(|term| term.header));
    headers.push("table.eval");
    let table = Table {
        headers: lookahead::headers(lang, &headers),
        rows,
    };
    let moves = g.board.moves(max);
    let mut explained = lookahead::explain(
        ctx,
        Some(crate::draw::othello_board(
            g,
            &moves.iter().map(|(m, _)| *m).collect::<Vec<_>>(),
        )),
        &|t, marks| crate::draw::tree_figure(t, Some(marks)),
        table,
        ask,
        lang,
        figures,
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

fn conventions(instance: &Instance, c: &Conventions, ask: &[&str], lang: &Lang) -> Vec<String> {
    let g = game(instance);
    let mut lines = eval_conventions(g, lang);
    // What the weighted terms count, when the sheet's own lines do not say.
    if g.weights.stable != 0 {
        lines.push(lang.get("convention.terms_stable").to_string());
    }
    if g.weights.potential != 0 {
        lines.push(lang.get("convention.terms_mobility").to_string());
    }
    lines.push(finished_convention(&g.weights, lang));
    if let Horizon::Depth(depth) = g.horizon {
        lines.push(lang.fill("convention.lookahead", &[("depth", &depth.to_string())]));
    }
    lines.push(lang.get("convention.othello_order").to_string());
    lines.extend(super::pruning_conventions(c, ask, lang));
    lines
}

/// A term of e(P) beside the squares: its weight, and where its counts,
/// name, column header and convention line are.
pub(super) struct Term {
    pub(super) weight: i64,
    pub(super) name: &'static str,
    pub(super) header: &'static str,
    pub(super) convention: &'static str,
    counts: fn(&crate::games::othello::EvalParts) -> (i64, i64),
}

impl Term {
    /// MAX's count and MIN's.
    pub(super) fn counts(&self, p: &crate::games::othello::EvalParts) -> (i64, i64) {
        (self.counts)(p)
    }
}

/// Every term, in the order e(P) adds them.
pub(super) fn terms(w: &crate::games::othello::Weights) -> [Term; 4] {
    [
        Term {
            weight: w.mobility,
            name: "table.term_mobility",
            header: "table.mobility",
            convention: "convention.othello_mobility",
            counts: |p| (p.mobility_max, p.mobility_min),
        },
        Term {
            weight: w.frontier,
            name: "table.term_frontier",
            header: "table.frontier",
            convention: "convention.othello_frontier",
            counts: |p| (p.frontier_max, p.frontier_min),
        },
        Term {
            weight: w.stable,
            name: "table.term_stable",
            header: "table.stable",
            convention: "convention.othello_stable",
            counts: |p| (p.stable_max, p.stable_min),
        },
        Term {
            weight: w.potential,
            name: "table.term_potential",
            header: "table.potential",
            convention: "convention.othello_potential",
            counts: |p| (p.potential_max, p.potential_min),
        },
    ]
}

/// The terms with a weight other than 0.
fn weighted_terms(w: &crate::games::othello::Weights) -> Vec<Term> {
    terms(w).into_iter().filter(|t| t.weight != 0).collect()
}

/// The conventions that say who is MAX and how e(P) is made: the players,
/// the squares, each weighted term.
pub(super) fn eval_conventions(g: &Othello, lang: &Lang) -> Vec<String> {
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
    for term in weighted_terms(&g.weights) {
        lines.push(lang.fill(term.convention, &[("w", &term.weight.to_string())]));
    }
    lines
}

/// How a finished game scores, as the key's conventions state it: the rule,
/// and under ±INF + difference the INF of these weights and why it is large
/// enough.
pub(super) fn finished_convention(w: &crate::games::othello::Weights, lang: &Lang) -> String {
    use crate::games::othello::Endgame;
    match w.endgame {
        Endgame::Difference => lang.get("convention.othello_finished").to_string(),
        Endgame::Infinity => lang.fill(
            "convention.othello_finished_inf",
            &[
                ("inf", &w.inf().to_string()),
                ("bound", &w.bound().to_string()),
            ],
        ),
    }
}

/// A finished position's row in a key's table: the discs, and under ±INF +
/// difference the score as INF plus the difference (`INF + 16`, `−INF − 4`).
pub(super) fn finished_text(
    p: &crate::games::othello::EvalParts,
    w: &crate::games::othello::Weights,
    lang: &Lang,
) -> String {
    use crate::games::othello::Endgame;
    let discs = format!("{} − {}", p.discs_max, p.discs_min);
    let diff = p.discs_max - p.discs_min;
    let score = match (w.endgame, diff.signum()) {
        (Endgame::Difference, _) => {
            return lang.fill("table.finished", &[("discs", &discs)]);
        }
        (Endgame::Infinity, 1) => format!("INF + {diff}"),
        (Endgame::Infinity, -1) => format!("−INF − {}", -diff),
        (Endgame::Infinity, _) => lang.get("table.draw").to_string(),
    };
    lang.fill(
        "table.finished_inf",
        &[("discs", &discs), ("score", &score)],
    )
}
