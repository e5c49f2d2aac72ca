//! `grundy`: who wins Grundy's game from N coins, the states MAX wins, and the
//! winner's winning moves.

use super::Figures;
use super::{
    Answer, Context, Conventions, Domain, Explained, Family, Field, Frame, Instance, Item, Key,
    KindDef, Mistake, Shape, Table, Trace, plain,
};
use crate::draw::{GrundyMarks, grundy_page_figure};
use crate::games::grundy::{self, GrundyGame};
use crate::gametree::Player;
use crate::lang::Lang;
use crate::reason::{Phrase, Reason};

pub(super) static KIND: KindDef = KindDef {
    name: "grundy",
    family: Family::Grundy,
    fields: &[
        Field::new("winner", Shape::Label).within(Domain::Players),
        Field::new("max_wins", Shape::Labels).root_asked_by("winner"),
        Field::new("winning_moves", Shape::Labels).within(Domain::Moves),
    ],
    solver: super::Solver::Grundy,
    solve,
    explain,
    teach,
    unusable,
    conventions,
    measures: &[
        super::Measure::new("states"),
        super::Measure::new("winning_moves"),
    ],
    measure,
    point,
    replay,
    hints: super::no_hints,
    budgets: super::Budgets::NONE,
    sizes: super::Sizes {
        small: "coins = \"5..6\"",
        medium: "coins = \"6..8\"",
        large: "coins = \"8..9\"",
    },
};

/// Every game an instance file holds (1 to [`grundy::MAX_COINS`] coins) is
/// solved; a problem set takes fewer ([`Instance::exercise_refusal`]).
fn unusable(_: &Instance) -> Option<String> {
    None
}

fn solve(instance: &Instance, _: &Conventions) -> Key {
    let Instance::Grundy { coins, first } = instance else {
        unreachable!("the problem set checks the family")
    };
    let g = grundy::solve(*coins, *first);
    let state = |s: usize| Item::Node(s as u32);
    Key::new(
        vec![
            ("winner", Answer::One(vec![Item::Player(g.winner())])),
            (
                "max_wins",
                Answer::Set(
                    (0..g.states.len())
                        .filter(|&s| g.wins_for[s] == Player::Max)
                        .map(state)
                        .collect(),
                ),
            ),
            (
                "winning_moves",
                Answer::Set(
                    g.winning_moves()
                        .iter()
                        .map(|&(a, b)| Item::Move(a as u32, b as u32))
                        .collect(),
                ),
            ),
        ],
        Trace::Grundy {
            wins_for: g.wins_for,
        },
    )
}

/// The game graph, and who wins each state (from the key).
fn game<'a>(ctx: &'a Context<'_>) -> (&'a GrundyGame, &'a [Player]) {
    let g = ctx
        .model
        .grundy()
        .expect("the problem set checks the family");
    match &ctx.key.trace {
        Trace::Grundy { wins_for } => (g, wins_for),
        _ => unreachable!("a Grundy key"),
    }
}

fn explain(ctx: &Context<'_>, _: &[&str], lang: &Lang, figures: Figures) -> Explained {
    let (g, wins_for) = game(ctx);
    let winner = wins_for[0];
    let marks = GrundyMarks {
        winners: true,
        answer_moves: g.winning_moves(),
    };
    // From the bottom, as the rule solves it: every state after the states it moves to.
    let rows = bottom_up(g)
        .map(|s| {
            let next: Vec<String> = g.moves[s].iter().map(|&m| g.states[m].name()).collect();
            vec![
                g.states[s].name(),
                if next.is_empty() {
                    lang.get("table.no_move").to_string()
                } else {
                    next.join(", ")
                },
                wins_for[s].name().to_string(),
            ]
        })
        .collect();
    let first_moves: Vec<String> = g.moves[0]
        .iter()
        .map(|&m| format!("{} ({})", g.states[m].name(), wins_for[m].name()))
        .collect();
    Explained {
        figure: figures.draw(|| grundy_page_figure(g, Some(&marks))),
        table: Table {
            headers: ["table.state", "table.moves_to", "table.wins"]
                .iter()
                .map(|k| lang.get(k).to_string())
                .collect(),
            rows,
        },
        notes: vec![
            lang.get("note.grundy_rule").to_string(),
            // One or two coins: the start is the whole graph, and lost.
            if first_moves.is_empty() {
                lang.fill(
                    "note.grundy_no_move",
                    &[
                        ("start", &g.states[0].name()),
                        ("coins", &g.coins.to_string()),
                        ("player", g.states[0].to_move.name()),
                        ("winner", winner.name()),
                    ],
                )
            } else {
                lang.fill(
                    "note.grundy_winner",
                    &[
                        ("start", &g.states[0].name()),
                        ("winner", winner.name()),
                        ("moves", &first_moves.join(", ")),
                    ],
                )
            },
        ],
    }
}

/// The states deepest first: each after every state it moves to.
fn bottom_up(g: &GrundyGame) -> impl Iterator<Item = usize> + '_ {
    let mut order: Vec<usize> = (0..g.states.len()).collect();
    order.sort_by_key(|&s| std::cmp::Reverse(g.depth[s]));
    order.into_iter()
}

/// The states solved one by one, bottom up as the table lists them: each
/// frame rings the state and writes who wins every state solved so far.
fn replay(ctx: &Context<'_>) -> Vec<Frame> {
    let (g, wins_for) = game(ctx);
    let mut solved: Vec<(String, String)> = Vec::new();
    bottom_up(g)
        .map(|s| {
            solved.push((g.states[s].name(), wins_for[s].name().to_string()));
            Frame {
                focus: vec![g.states[s].name()],
                values: solved.clone(),
                ..Frame::default()
            }
        })
        .collect()
}

fn teach(ctx: &Context<'_>, field: &str, mistake: Mistake<'_>, hide: bool) -> Vec<Reason> {
    let (g, wins_for) = game(ctx);
    let winner = wins_for[0];
    match (field, mistake) {
        ("winner", Mistake::Unknown(_)) => vec![Reason::new(Phrase::WriteMaxOrMin)],
        ("winner", Mistake::WrongOne(_)) if !hide => vec![why(ctx, 0)],
        ("max_wins", Mistake::Extra(Item::Node(s))) => vec![why(ctx, s as usize)],
        ("max_wins", Mistake::Missed(items)) => items
            .iter()
            .map(|&i| match i {
                Item::Node(s) => why(ctx, s as usize),
                other => Reason::new(Phrase::NodeMissing).with("node", ctx.name(other)),
            })
            .collect(),
        ("winning_moves", Mistake::Extra(item @ Item::Move(from, to))) => {
            let mover = g.states[from as usize].to_move;
            vec![if mover != winner {
                Reason::new(Phrase::MoveNotWinner)
                    .with("move", ctx.name(item))
                    .with("player", mover.name())
                    .with("winner", winner.name())
            } else {
                why(ctx, to as usize)
            }]
        }
        _ => plain(ctx, field, mistake, hide),
    }
}

/// Who wins a state of Grundy's game and why, one step deep.
fn why(ctx: &Context<'_>, state: usize) -> Reason {
    let (g, wins_for) = game(ctx);
    let mover = g.states[state].to_move;
    let winner = wins_for[state];
    // A winning mover has a winning move (unless a key was tampered with).
    let winning = g.moves[state].iter().find(|&&m| wins_for[m] == mover);
    let why = if g.moves[state].is_empty() {
        Reason::new(Phrase::WhyNoMove).with("player", mover.name())
    } else if let (true, Some(&to)) = (mover == winner, winning) {
        Reason::new(Phrase::WhyCanMove)
            .with("player", mover.name())
            .with("to", g.states[to].name())
    } else {
        Reason::new(Phrase::WhyEveryMove)
            .with("player", mover.name())
            .with("winner", winner.name())
    };
    Reason::new(Phrase::StateWon)
        .with("state", g.states[state].name())
        .with("winner", winner.name())
        .nested("why", why)
}

fn conventions(_: &Instance, _: &Conventions, _: &[&str], lang: &Lang) -> Vec<String> {
    [
        "convention.grundy_rule",
        "convention.grundy_states",
        "convention.grundy_and_or",
    ]
    .iter()
    .map(|k| lang.get(k).to_string())
    .collect()
}

fn measure(ctx: &Context<'_>) -> Vec<u64> {
    let (_, wins_for) = game(ctx);
    let moves = match ctx.key.answer("winning_moves") {
        Some(Answer::Set(items)) => items.len() as u64,
        _ => 0,
    };
    vec![wins_for.len() as u64, moves]
}

/// The coin range makes the point; nothing more is required.
fn point(_: &[&str]) -> Vec<super::Limit> {
    Vec::new()
}
