//! Boards: tic-tac-toe and Othello positions, and tables of square weights,
//! drawn as a grid with column letters above and row numbers to the left.

use super::tree::{Pictures, TreeMarks, pictured_tree_figure};
use super::{Anchor, Figure, Item, Outline, Pick, Style, Target};
use crate::games::othello::{Othello, Side, square_name};
use crate::games::tictactoe::{Board, Mark};
use crate::gametree::{NodeId, Tree};

/// What a square holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Square {
    /// Nothing.
    Empty,
    /// A tic-tac-toe cross.
    Cross,
    /// A tic-tac-toe nought.
    Nought,
    /// A black disc.
    Black,
    /// A white disc.
    White,
    /// A text (a weight, or a key's mark on an empty square).
    Text(String, Style),
}

/// Draws a `size` × `size` board with `cell` mm squares; square index = row * size + column.
/// Columns past `z` are lettered `aa`, `ab`, …; squares beyond `size * size` are ignored.
pub fn board_figure(size: usize, cell: f64, squares: &[Square]) -> Figure {
    let margin = 6.0;
    let (x0, y0) = (margin, margin);
    let side = cell * size as f64;
    let mut items = Vec::new();
    for i in 0..=size {
        let at = i as f64 * cell;
        items.push(Item::Line {
            x1: x0,
            y1: y0 + at,
            x2: x0 + side,
            y2: y0 + at,
            style: Style::Normal,
        });
        items.push(Item::Line {
            x1: x0 + at,
            y1: y0,
            x2: x0 + at,
            y2: y0 + side,
            style: Style::Normal,
        });
    }
    for i in 0..size {
        let mid = (i as f64 + 0.5) * cell;
        items.push(Item::Text {
            x: x0 + mid,
            y: y0 - 3.0,
            text: crate::games::column_name(i),
            size: 3.2,
            anchor: Anchor::Middle,
            style: Style::Normal,
            halo: false,
        });
        items.push(Item::Text {
            x: x0 - 3.0,
            y: y0 + mid,
            text: (i + 1).to_string(),
            size: 3.2,
            anchor: Anchor::Middle,
            style: Style::Normal,
            halo: false,
        });
    }
    // Squares past the board's last are not drawn (and a board of size 0 has none).
    for (index, square) in squares.iter().enumerate().take(size * size) {
        let (row, col) = (index / size, index % size);
        let (x, y) = (
            x0 + (col as f64 + 0.5) * cell,
            y0 + (row as f64 + 0.5) * cell,
        );
        items.extend(square_items(square, (x, y), cell, Style::Normal));
    }
    // Every square can be picked (a move's name); a table of weights has none.
    let targets = (0..size * size)
        .map(|index| {
            let (row, col) = (index / size, index % size);
            let centre = (
                x0 + (col as f64 + 0.5) * cell,
                y0 + (row as f64 + 0.5) * cell,
            );
            let label = crate::games::square_name(size, index);
            Target::area(label, Pick::Node, centre, (cell, cell))
        })
        .collect();
    Figure {
        width: x0 + side + 2.0,
        height: y0 + side + 2.0,
        items,
        targets,
    }
}

/// What a square holds, drawn centred at `at` in a square `cell` mm wide.
/// Crosses and noughts are drawn in `style`; discs and texts as they are.
fn square_items(square: &Square, (x, y): (f64, f64), cell: f64, style: Style) -> Vec<Item> {
    let r = cell * 0.32;
    match square {
        Square::Empty => Vec::new(),
        Square::Cross => [(r, r), (r, -r)]
            .into_iter()
            .map(|(dx, dy)| Item::Line {
                x1: x - dx,
                y1: y - dy,
                x2: x + dx,
                y2: y + dy,
                style,
            })
            .collect(),
        Square::Nought | Square::Black | Square::White => vec![Item::Node {
            x,
            y,
            // Discs fill most of their square; a nought is as wide as a cross.
            w: if *square == Square::Nought {
                2.0 * r
            } else {
                0.76 * cell
            },
            h: if *square == Square::Nought {
                2.0 * r
            } else {
                0.76 * cell
            },
            outline: match square {
                Square::Black => Outline::BlackDisc,
                Square::White => Outline::WhiteDisc,
                _ => Outline::Circle,
            },
            style: if *square == Square::Nought {
                style
            } else {
                Style::Normal
            },
        }],
        Square::Text(text, style) => vec![Item::Text {
            x,
            y,
            text: text.clone(),
            size: (cell * 0.38).min(4.0),
            anchor: Anchor::Middle,
            style: *style,
            halo: false,
        }],
    }
}

impl Figure {
    /// This figure with `other` to its right, `gap` mm apart, tops aligned.
    pub fn beside(mut self, other: Figure, gap: f64) -> Figure {
        let dx = self.width + gap;
        self.items
            .extend(other.items.into_iter().map(|i| i.shifted(dx, 0.0)));
        self.targets
            .extend(other.targets.into_iter().map(|t| t.shifted(dx, 0.0)));
        self.width = dx + other.width;
        self.height = self.height.max(other.height);
        self
    }

    /// This figure with `other` below it, `gap` mm apart, left edges aligned.
    pub fn above(mut self, other: Figure, gap: f64) -> Figure {
        let dy = self.height + gap;
        self.items
            .extend(other.items.into_iter().map(|i| i.shifted(0.0, dy)));
        self.targets
            .extend(other.targets.into_iter().map(|t| t.shifted(0.0, dy)));
        self.height = dy + other.height;
        self.width = self.width.max(other.width);
        self
    }
}

impl Item {
    pub(super) fn shifted(self, dx: f64, dy: f64) -> Item {
        match self {
            Item::Node {
                x,
                y,
                w,
                h,
                outline,
                style,
            } => Item::Node {
                x: x + dx,
                y: y + dy,
                w,
                h,
                outline,
                style,
            },
            Item::Line {
                x1,
                y1,
                x2,
                y2,
                style,
            } => Item::Line {
                x1: x1 + dx,
                y1: y1 + dy,
                x2: x2 + dx,
                y2: y2 + dy,
                style,
            },
            Item::Arc {
                cx,
                cy,
                r,
                a1,
                a2,
                style,
            } => Item::Arc {
                cx: cx + dx,
                cy: cy + dy,
                r,
                a1,
                a2,
                style,
            },
            Item::Text {
                x,
                y,
                text,
                size,
                anchor,
                style,
                halo,
            } => Item::Text {
                x: x + dx,
                y: y + dy,
                text,
                size,
                anchor,
                style,
                halo,
            },
        }
    }
}

fn ttt_square(board: &Board, cell: usize) -> Square {
    match board.get(cell) {
        Some(Mark::X) => Square::Cross,
        Some(Mark::O) => Square::Nought,
        None => Square::Empty,
    }
}

/// A tic-tac-toe board as a figure.
pub fn tictactoe_board(board: &Board) -> Figure {
    let squares: Vec<Square> = (0..9).map(|i| ttt_square(board, i)).collect();
    board_figure(3, 15.0, &squares)
}

/// A search tree's node as textbooks draw it (Nilsson's tic-tac-toe
/// figures): a small board, `side` mm square and centred on (0, 0), its
/// grid's four inner lines and the marks; `last`, the move just played, in
/// red (in `Pruned` style, everything grey and dashed).
pub fn tictactoe_glyph(board: &Board, last: Option<usize>, side: f64, style: Style) -> Vec<Item> {
    let cell = side / 3.0;
    let half = side / 2.0;
    let mut items = Vec::new();
    for i in 1..3 {
        let at = -half + i as f64 * cell;
        items.push(Item::Line {
            x1: -half,
            y1: at,
            x2: half,
            y2: at,
            style,
        });
        items.push(Item::Line {
            x1: at,
            y1: -half,
            x2: at,
            y2: half,
            style,
        });
    }
    for index in 0..9 {
        let centre = (
            -half + (index % 3) as f64 * cell + cell / 2.0,
            -half + (index / 3) as f64 * cell + cell / 2.0,
        );
        let mark = if last == Some(index) && style == Style::Normal {
            Style::Mark
        } else {
            style
        };
        items.extend(square_items(&ttt_square(board, index), centre, cell, mark));
    }
    items
}

/// The sides a tic-tac-toe node's board may have in a search tree, in mm:
/// cells of 2.5 to 3 mm (a mark about 1.6 to 1.9 mm across), as large as the
/// page's width lets them be. Larger cells would make the key's tree taller
/// than its page leaves it beside the answers.
pub const TICTACTOE_GLYPH_SIDES: (f64, f64) = (7.5, 9.0);

/// A tic-tac-toe search tree with each node drawn as its board
/// (`boards[id]`), the move just played in red; a tree too wide for boards
/// is drawn as [`tree_figure`](super::tree_figure) draws it (the rule is
/// [`pictured_tree_figure`]'s).
pub fn tictactoe_tree(tree: &Tree, boards: &[Board], marks: Option<&TreeMarks>) -> Figure {
    let draw = |id: NodeId, side: f64, style: Style| {
        let board = &boards[id.index()];
        // The move just played: the square the parent's board has empty.
        let last = tree.parent(id).and_then(|p| {
            (0..9).find(|&c| boards[p.index()].get(c).is_none() && board.get(c).is_some())
        });
        tictactoe_glyph(board, last, side, style)
    };
    let pictures = Pictures {
        sides: TICTACTOE_GLYPH_SIDES,
        draw: &draw,
    };
    pictured_tree_figure(tree, marks, Some(&pictures))
}

/// The board, with `marked` squares labelled in red (a key's legal moves),
/// beside the table of square weights.
pub fn othello_board(g: &Othello, marked: &[usize]) -> Figure {
    let squares: Vec<Square> = (0..64)
        .map(|i| match g.board.get(i) {
            Some(Side::Black) => Square::Black,
            Some(Side::White) => Square::White,
            None if marked.contains(&i) => Square::Text(square_name(i), Style::Mark),
            None => Square::Empty,
        })
        .collect();
    let weights: Vec<Square> = g
        .weights
        .squares
        .iter()
        .map(|w| Square::Text(w.to_string(), Style::Normal))
        .collect();
    let mut table = board_figure(8, 8.0, &weights);
    table.targets.clear();
    board_figure(8, 8.0, &squares).beside(table, 6.0)
}

/// An Othello position's terms for a key, two boards side by side: the
/// position with each stable disc marked `S` and each frontier disc `F`
/// (rule S and the 8-neighbourhood), and the empty squares numbered by
/// region, the odd regions' numbers in red.
pub fn othello_terms_boards(
    board: &crate::games::othello::Board,
    terms: &crate::games::othello::Terms,
) -> Figure {
    let cell = 8.0;
    let disc = |s: usize| match board.get(s) {
        Some(Side::Black) => Square::Black,
        Some(Side::White) => Square::White,
        None => Square::Empty,
    };
    let mut discs = board_figure(8, cell, &(0..64).map(disc).collect::<Vec<_>>());
    for s in 0..64 {
        let bit = 1u64 << s;
        let mark = match (terms.stable & bit != 0, terms.frontier & bit != 0) {
            (true, true) => "SF",
            (true, false) => "S",
            (false, true) => "F",
            (false, false) => continue,
        };
        discs.items.push(Item::Text {
            x: 6.0 + (s % 8) as f64 * cell + cell / 2.0,
            y: 6.0 + (s / 8) as f64 * cell + cell / 2.0,
            text: mark.to_string(),
            size: 2.8,
            anchor: Anchor::Middle,
            style: Style::Mark,
            halo: true,
        });
    }
    let regions: Vec<Square> = (0..64)
        .map(
            |s| match terms.regions.iter().position(|r| r & (1u64 << s) != 0) {
                Some(i) => {
                    let odd = terms.regions[i].count_ones() % 2 == 1;
                    Square::Text(
                        (i + 1).to_string(),
                        if odd { Style::Mark } else { Style::Normal },
                    )
                }
                None => disc(s),
            },
        )
        .collect();
    let mut empties = board_figure(8, cell, &regions);
    empties.targets.clear();
    discs.beside(empties, 6.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::lookahead::Search;
    use crate::games::tictactoe::{Params, generate};

    #[test]
    fn a_node_board_draws_its_grid_its_marks_and_the_last_move_in_red() {
        let board = Board::parse("X../.O./...").unwrap();
        let items = tictactoe_glyph(&board, Some(4), 9.0, Style::Normal);
        let lines = |style| {
            items
                .iter()
                .filter(|i| matches!(i, Item::Line { style: s, .. } if *s == style))
                .count()
        };
        // Four grid lines and the cross's two strokes; the nought just played is red.
        assert_eq!(lines(Style::Normal), 4 + 2);
        let noughts: Vec<_> = items
            .iter()
            .filter_map(|i| match i {
                Item::Node { x, y, style, .. } => Some((*x, *y, *style)),
                _ => None,
            })
            .collect();
        assert_eq!(noughts, [(0.0, 0.0, Style::Mark)]);
        // Never examined: all of it grey and dashed, the last move too.
        let pruned = tictactoe_glyph(&board, Some(4), 9.0, Style::Pruned);
        assert!(pruned.iter().all(|i| matches!(
            i,
            Item::Line {
                style: Style::Pruned,
                ..
            } | Item::Node {
                style: Style::Pruned,
                ..
            }
        )));
        // Everything inside its side.
        let (l, t, r, b) = crate::draw::extent(&items);
        assert!(l >= -4.5 && t >= -4.5 && r <= 4.5 && b <= 4.5);
    }

    /// The frames of a figure's node boards: (left, top, right, bottom). A
    /// board is a node's outline with its grid's first line next, inside it.
    fn frames(figure: &Figure) -> Vec<(f64, f64, f64, f64)> {
        figure
            .items
            .windows(2)
            .filter_map(|pair| match pair {
                [
                    Item::Node {
                        x,
                        y,
                        w,
                        h,
                        outline: Outline::Square | Outline::Box,
                        ..
                    },
                    Item::Line { x1, y1, x2, y2, .. },
                ] => {
                    let b = (x - w / 2.0, y - h / 2.0, x + w / 2.0, y + h / 2.0);
                    let inside = |px: f64, py: f64| px > b.0 && px < b.2 && py > b.1 && py < b.3;
                    (inside(*x1, *y1) && inside(*x2, *y2)).then_some(b)
                }
                _ => None,
            })
            .collect()
    }

    /// Searches of 0 to 5 marks, 1 to 3 plies, with and without symmetry, as
    /// plain drawings and with a key's values: boards never overlap, cells
    /// are at least 2.5 mm, texts at least 2.6 mm, and the tree fits the
    /// page's 170 mm; every inner node is a board whenever a leaf is.
    #[test]
    fn tic_tac_toe_trees_draw_boards_that_fit_and_never_overlap() {
        let mut pictured = [0usize; 3];
        for seed in 0..60u64 {
            let marks = (seed % 6) as u32;
            let p = Params {
                marks: (marks, marks),
                symmetry: seed % 2 == 0,
                search: Search::plies(1 + (seed % 3) as u32),
            };
            let Ok(game) = generate(&p, seed) else {
                continue;
            };
            let look = game.lookahead();
            let t = &look.tree;
            // Problem sets refuse searches past 400 nodes (instance::MAX_EXERCISE_NODES).
            if t.len() > 400 {
                continue;
            }
            let boards: Vec<Board> = look.positions.iter().map(|n| n.board).collect();
            let values = TreeMarks {
                values: t
                    .ids()
                    .map(|id| t.leaf(id).is_none().then(|| "-inf".to_string()))
                    .collect(),
                last_move_only: true,
                ..TreeMarks::default()
            };
            for marks in [None, Some(&values)] {
                let figure = tictactoe_tree(t, &boards, marks);
                assert!(figure.width <= 174.0, "seed {seed}: {} mm", figure.width);
                for item in &figure.items {
                    if let Item::Text { size, .. } = item {
                        assert!(*size >= 2.6, "seed {seed}");
                    }
                }
                let frames = frames(&figure);
                for (i, a) in frames.iter().enumerate() {
                    assert!(a.2 - a.0 >= 3.0 * 2.5, "seed {seed}: a cell under 2.5 mm");
                    for b in &frames[i + 1..] {
                        let apart = a.2 <= b.0 || b.2 <= a.0 || a.3 <= b.1 || b.3 <= a.1;
                        assert!(apart, "seed {seed}: boards overlap: {a:?} {b:?}");
                    }
                }
                let inner = t.ids().filter(|&id| t.leaf(id).is_none()).count();
                let kind = if frames.len() == t.len() {
                    0
                } else if frames.len() == inner {
                    1
                } else {
                    assert!(
                        frames.is_empty(),
                        "seed {seed}: {} boards of {} nodes: {frames:?}",
                        frames.len(),
                        t.len()
                    );
                    2
                };
                pictured[kind] += 1;
            }
        }
        // All three drawings occur: boards everywhere, inside, nowhere.
        assert!(pictured.iter().all(|&n| n > 0), "{pictured:?}");
    }
}
