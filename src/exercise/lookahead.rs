//! What the game kinds (tic-tac-toe, Othello) share: a lookahead tree searched
//! by minimax and alpha-beta, answered move by move.

use super::Figures;
use super::alpha_beta::{Traced, traced};
use super::{
    Answer, Context, Conventions, Domain, Explained, Field, Item, Key, Shape, Table, Trace,
};
use crate::draw::{Figure, TreeMarks};
use crate::gametree::{Tree, minimax};
use crate::lang::Lang;
use crate::value::Value;

/// e(P) of the position shown.
pub(super) const EVAL: Field = Field::new("eval", Shape::Value);
/// The backed-up value of each move searched from the position (MAX's: the
/// problem set refuses positions where MIN is to move).
pub(super) const MOVE_VALUES: Field = Field::new("move_values", Shape::Values);
/// The best move.
pub(super) const BEST_MOVE: Field =
    Field::new("best_move", Shape::Label).within(Domain::RootChildren);
/// The roots of what alpha-beta prunes.
pub(super) const PRUNED: Field = Field::new("pruned", Shape::Labels).within(Domain::PrunedRoots);

/// Solves a lookahead exercise: e(P) of the position, each move's backed-up
/// value, the best move and the branches alpha-beta prunes.
pub(super) fn solve(t: &Tree, eval: Value, conventions: &Conventions) -> Key {
    let minimax = minimax(t);
    let alpha_beta = crate::gametree::alpha_beta(t, conventions.alpha_beta);
    let node = |id: crate::gametree::NodeId| Item::Node(id.0);
    Key::new(
        vec![
            ("eval", Answer::Value(eval)),
            (
                "move_values",
                Answer::Values(
                    t.children(t.root())
                        .map(|c| (node(c), minimax.of(t, c)))
                        .collect(),
                ),
            ),
            (
                "best_move",
                Answer::One(minimax.best_moves.iter().map(|&b| node(b)).collect()),
            ),
            (
                "pruned",
                Answer::Set(alpha_beta.pruned.iter().map(|&p| node(p)).collect()),
            ),
        ],
        Trace::Lookahead {
            eval,
            minimax,
            alpha_beta,
        },
    )
}

/// The key of a lookahead for people: `board` (if the key shows the position)
/// drawn above the searched tree (drawn by `draw_tree` with the key's marks:
/// the game's positions in its nodes, or plain), which shows minimax's values
/// everywhere (the answers ask for them) and, when the exercise asks what
/// alpha-beta prunes (`ask`), what it skips; `table` explains the evaluations.
pub(super) fn explain(
    ctx: &Context<'_>,
    board: Option<Figure>,
    draw_tree: &dyn Fn(&Tree, &TreeMarks) -> Figure,
    table: Table,
    ask: &[&str],
    lang: &Lang,
    figures: Figures,
) -> Explained {
    let with_cuts = ask.contains(&"pruned");
    let t = ctx
        .model
        .tree()
        .expect("a game's model is its lookahead tree");
    let Trace::Lookahead {
        eval,
        minimax: mm,
        alpha_beta: ab,
    } = &ctx.key.trace
    else {
        unreachable!("a game's key holds its lookahead")
    };
    let (mut marks, cut_notes) = if with_cuts {
        let Traced { marks, notes, .. } = traced(t, ab, lang);
        (marks, notes)
    } else {
        Default::default()
    };
    marks.values = t
        .ids()
        .map(|id| t.leaf(id).is_none().then(|| mm.of(t, id).to_string()))
        .collect();
    marks.answer_path = mm.best_moves.clone();
    marks.last_move_only = true;
    let best: Vec<String> = mm
        .best_moves
        .iter()
        .map(|&b| t.label(b).into_owned())
        .collect();
    let mut notes = vec![
        lang.fill("note.eval", &[("value", &eval.to_string())]),
        lang.fill(
            "note.best_move",
            &[
                ("moves", &best.join(", ")),
                ("value", &mm.value.to_string()),
            ],
        ),
    ];
    notes.extend(cut_notes);
    Explained {
        figure: figures.draw(|| match board {
            Some(board) => board.above(draw_tree(t, &marks), 4.0),
            None => draw_tree(t, &marks),
        }),
        table,
        notes,
    }
}

/// The table's headings, from the string table.
pub(super) fn headers(lang: &Lang, keys: &[&str]) -> Vec<String> {
    keys.iter().map(|k| lang.get(k).to_string()).collect()
}

/// The nodes whose evaluation a key explains: the root, then every leaf.
pub(super) fn evaluated(t: &Tree) -> Vec<crate::gametree::NodeId> {
    std::iter::once(t.root())
        .chain(t.leaves().filter(|&l| l != t.root()))
        .collect()
}

/// Why a fixed position's search does not fit a page, if it does not: the
/// limits generated exercises meet by construction (Othello also bounds leaves).
/// `key` is the file's key that bounds the search: `depth`, `budget` or `deepening`.
pub(super) fn too_large(t: &Tree, max_leaves: Option<usize>, key: &str) -> Option<String> {
    let (nodes, leaves) = (t.len(), t.leaves().count());
    let max_nodes = crate::instance::MAX_EXERCISE_NODES as usize;
    let too_many_leaves = max_leaves.is_some_and(|m| leaves > m);
    (nodes > max_nodes || too_many_leaves).then(|| {
        let limit = match max_leaves {
            Some(m) => format!("{max_nodes} nodes and {m} leaves"),
            None => format!("{max_nodes} nodes"),
        };
        format!(
            "its search tree has {nodes} nodes and {leaves} leaves; a figure stays legible up to {limit}: lower `{key}`, or give a position with fewer moves"
        )
    })
}

/// Why a fixed position's search does not fit a page, decided by counting
/// its nodes up to the page's limit first (`size` is the game's
/// `search_size`), so a huge search is refused without being built.
pub(super) fn too_large_search(
    size: impl FnOnce(usize) -> Option<usize>,
    tree: impl FnOnce() -> Tree,
    max_leaves: Option<usize>,
    key: &str,
) -> Option<String> {
    let max_nodes = crate::instance::MAX_EXERCISE_NODES as usize;
    if size(max_nodes).is_none() {
        return Some(format!(
            "its search tree has more than {max_nodes} nodes; a figure stays legible up to {max_nodes} nodes: lower `{key}`, or give a position with fewer moves"
        ));
    }
    too_large(&tree(), max_leaves, key)
}

const MOVES: super::Measure = super::Measure::new("moves");

/// A game kind's measures: its work (leaves evaluated) first, then the moves
/// to choose from and the cuts.
pub(super) const MEASURES: &[super::Measure] = &[
    super::Measure::new("evaluated"),
    MOVES,
    super::Measure::new("cuts"),
];

pub(super) fn measure(ctx: &Context<'_>) -> Vec<u64> {
    let t = ctx
        .model
        .tree()
        .expect("a game's model is its lookahead tree");
    let ab = ctx
        .key
        .alpha_beta()
        .expect("a game's key holds its lookahead");
    let s = super::alpha_beta::search_measures(t, ab);
    vec![s[0], t.children(t.root()).count() as u64, s[1]]
}

/// A choice to make: two moves or more.
pub(super) fn point(_: &[&str]) -> Vec<super::Limit> {
    vec![super::Limit::at_least(MOVES, 2)]
}
