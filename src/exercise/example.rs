//! A field's example line ("write it like …"), made for one variant so that
//! it never gives an answer away: it names only labels the figure does not
//! have (a tree's next letters, an AND/OR graph's next node numbers, squares
//! already taken on a board, Grundy states of one coin too many) and numbers
//! beyond any the answer can take. It is built from the instance alone,
//! never the key, so the example tells nothing of the answer, and copied
//! unchanged it earns nothing. The sheet, the practice page, the grader's
//! "write it like …" and Moodle's hints all take their examples from here.

use super::{Domain, Field, Shape};
use crate::gametree::Tree;
use crate::gametree::tree::textbook_label;
use crate::input::{toml_key, toml_string as quote};
use crate::instance::{Instance, Model};

/// The line that shows how `field` is written, e.g. `alpha_cuts = ["N", "O"]`
/// for a tree labelled A to M. `tolerance` is how far off a number may be and
/// still score (the exercise's scoring rules): the example's numbers are
/// farther than that from any answer.
pub fn example(field: &Field, instance: &Instance, model: &Model<'_>, tolerance: u64) -> String {
    let name = field.name;
    let items = |n: usize| spare_items(field.domain, model, n);
    let value = match field.shape {
        // TOML's integers stop at i64::MAX.
        Shape::Value | Shape::Cost => beyond(field.domain, instance)
            .saturating_add(tolerance)
            .saturating_add(1)
            .min(i64::MAX as u64)
            .to_string(),
        // Only two players: any one of them would be the answer half the time.
        Shape::Label if field.domain == Domain::Players => quote("MAX/MIN"),
        Shape::Label => quote(&items(1)[0]),
        Shape::Labels | Shape::Sequence => list(&items(2)),
        Shape::Connectors => {
            let n = spare_labels(model, 4);
            list(&[
                format!("{} -> {} + {}", n[0], n[1], n[2]),
                format!("{} -> {}", n[1], n[3]),
            ])
        }
        // Exact fractions, as chance nodes back them up; the rows name
        // nothing in the figure, so they score nothing whatever they hold.
        Shape::Fractions => {
            let n = items(2);
            format!(
                "{{ {} = {}, {} = 4 }}",
                toml_key(&n[0]),
                quote("17/3"),
                toml_key(&n[1])
            )
        }
        Shape::Values => {
            let n = items(2);
            format!("{{ {} = 5, {} = 4 }}", toml_key(&n[0]), toml_key(&n[1]))
        }
        Shape::Bounds => {
            let n = items(3);
            format!(
                "{{ {} = 5, {} = 4, {} = {} }}",
                toml_key(&n[0]),
                toml_key(&n[1]),
                toml_key(&n[2]),
                quote("<=1")
            )
        }
    };
    format!("{name} = {value}")
}

fn list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| quote(s)).collect();
    format!("[{}]", quoted.join(", "))
}

/// `n` labels in the form the figure's own take that name nothing in it
/// (Moodle's hints show them as the labels of an order).
pub fn spare_labels(model: &Model<'_>, n: usize) -> Vec<String> {
    let names_nothing = |label: &String| match model {
        // The whole tree is drawn; the searched part alone resolves.
        Model::BudgetTree(_, whole) => whole.find(label).is_none(),
        _ => model.resolve(label).is_none(),
    };
    candidates(model).filter(names_nothing).take(n).collect()
}

/// Labels past the figure's own, in its form: the letters after a tree's
/// last, the node numbers after a graph's last, Grundy states of one coin
/// more than the pile has, a board's occupied squares and then squares off it.
fn candidates<'m>(model: &'m Model<'_>) -> Box<dyn Iterator<Item = String> + 'm> {
    let after = |t: &Tree| t.len();
    match model {
        Model::Tree(t) => Box::new((after(t)..).map(textbook_label)),
        Model::BudgetTree(_, whole) => Box::new((after(whole)..).map(textbook_label)),
        Model::Graph(g) => {
            let numbered = g.ids().all(|id| {
                let label = g.label(id);
                label.len() > 1
                    && label.starts_with('n')
                    && label[1..].bytes().all(|b| b.is_ascii_digit())
            });
            if numbered {
                Box::new((g.len()..).map(|i| format!("n{i}")))
            } else {
                Box::new((g.len()..).map(textbook_label))
            }
        }
        Model::Grundy(g) => {
            // Piles of one coin more, then two, …: every sum but the pile's.
            let coins = g.coins;
            Box::new((1..).flat_map(move |extra: u32| {
                let total = coins.saturating_add(extra);
                [format!("({total},MAX)"), format!("({},1,MIN)", total - 1)]
            }))
        }
        Model::TicTacToe(look) => {
            let board = look.positions[0].board;
            board_squares(3, move |sq| board.get(sq).is_some())
        }
        Model::Othello(look) => {
            let board = look.positions[0].board;
            board_squares(8, move |sq| board.get(sq).is_some())
        }
    }
}

/// A board's occupied squares, never a move, then squares of the columns
/// past its edge, for a board with too few discs.
fn board_squares(
    size: usize,
    occupied: impl Fn(usize) -> bool + 'static,
) -> Box<dyn Iterator<Item = String>> {
    let name = move |sq| crate::games::square_name(size, sq);
    let off = (size..).flat_map(move |col| {
        let col = crate::games::column_name(col);
        (1..=size).map(move |row| format!("{col}{row}"))
    });
    Box::new(
        (0..size * size)
            .filter(move |&sq| occupied(sq))
            .map(name)
            .chain(off),
    )
}

/// `n` items of `domain`'s form that name nothing: a Grundy move joins two
/// states; a game's move may be a path below the root (`a1-b2`), except
/// where only the root's moves are asked.
fn spare_items(domain: Domain, model: &Model<'_>, n: usize) -> Vec<String> {
    let game = matches!(model, Model::TicTacToe(_) | Model::Othello(_));
    match domain {
        Domain::Moves => spare_labels(model, 2 * n)
            .chunks_exact(2)
            .map(|m| format!("{} -> {}", m[0], m[1]))
            .collect(),
        Domain::Any | Domain::PrunedRoots if game => {
            // A path, then a square, alternately: both forms a game's labels take.
            let labels = spare_labels(model, n + n.div_ceil(2));
            let mut labels = labels.into_iter();
            (0..n)
                .map_while(|i| {
                    let first = labels.next()?;
                    Some(if i % 2 == 0 {
                        format!("{first}-{}", labels.next()?)
                    } else {
                        first
                    })
                })
                .collect()
        }
        _ => spare_labels(model, n),
    }
}

/// A number above every number an answer to a field of `domain` can be,
/// read from what the sheet shows (never from the search, whose tree a
/// game's sheet does not draw): a game tree's values lie among its leaves'
/// (and a node budget's estimates) and its depths within its height;
/// tic-tac-toe's e(P) within its 8 lines; Othello's counts within its 64
/// squares, its e(P) within the weights' infinity and a disc difference, its
/// depths within the node budget; a solution's cost within the costliest
/// solution graph's.
fn beyond(domain: Domain, instance: &Instance) -> u64 {
    let family = instance.family().def();
    match domain {
        Domain::Counts => 64,
        Domain::Depths => {
            (family.depth)(instance).unwrap_or_else(|| (family.largest_number)(instance))
        }
        _ => (family.largest_number)(instance),
    }
}
