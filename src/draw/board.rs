//! Boards: tic-tac-toe and Othello positions, and tables of square weights,
//! drawn as a grid with column letters above and row numbers to the left.

use super::{Anchor, Figure, Item, Outline, Pick, Style, Target};
use crate::games::othello::{Othello, Side, square_name};
use crate::games::tictactoe::{Board, Mark};

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
        let r = cell * 0.32;
        match square {
            Square::Empty => {}
            Square::Cross => {
                for (dx, dy) in [(r, r), (r, -r)] {
                    items.push(Item::Line {
                        x1: x - dx,
                        y1: y - dy,
                        x2: x + dx,
                        y2: y + dy,
                        style: Style::Normal,
                    });
                }
            }
            Square::Nought | Square::Black | Square::White => items.push(Item::Node {
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
                style: Style::Normal,
            }),
            Square::Text(text, style) => items.push(Item::Text {
                x,
                y,
                text: text.clone(),
                size: (cell * 0.38).min(4.0),
                anchor: Anchor::Middle,
                style: *style,
                halo: false,
            }),
        }
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

/// A tic-tac-toe board as a figure.
pub fn tictactoe_board(board: &Board) -> Figure {
    let squares: Vec<Square> = (0..9)
        .map(|i| match board.get(i) {
            Some(Mark::X) => Square::Cross,
            Some(Mark::O) => Square::Nought,
            None => Square::Empty,
        })
        .collect();
    board_figure(3, 15.0, &squares)
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
