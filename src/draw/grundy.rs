//! Grundy's game graph, level by level: one row per number of moves made,
//! labelled with the player to move there.

use super::{Anchor, Figure, Item, Outline, Pick, Style, Target, joining_arc};
use crate::games::grundy::GrundyGame;

/// What a key adds to the game graph.
#[derive(Clone, Debug, Default)]
pub struct GrundyMarks {
    /// Write who wins each state under it.
    pub winners: bool,
    /// Moves drawn thick and green (the winner's winning moves).
    pub answer_moves: Vec<(usize, usize)>,
}

const FONT: f64 = 3.0;
const CHAR: f64 = 1.75;
const HEIGHT: f64 = 6.0;
/// Room between two states of a row: the key writes the winner there, at
/// `WINNER` mm, right of the box at mid-height, where no move's line passes
/// (every move goes from one row down to the next).
const GAP: f64 = 7.5;
const WINNER: f64 = 2.6;
const DOWN: f64 = 15.0;
const LEFT: f64 = 14.0;

/// The game graph as a sheet or key shows it: [`grundy_figure`] for the
/// games a problem set takes, an empty figure for larger ones. No page shows
/// those (`solve` prints the answers and the table, never a figure), and
/// laying out 40 coins' 37,331 states was about half of `solve`'s 15 s.
pub fn grundy_page_figure(game: &GrundyGame, marks: Option<&GrundyMarks>) -> Figure {
    if game.coins > crate::games::grundy::MAX_EXERCISE_COINS {
        return Figure {
            width: 0.0,
            height: 0.0,
            items: Vec::new(),
            targets: Vec::new(),
        };
    }
    grundy_figure(game, marks)
}

/// Lays out and draws the game graph; `marks` adds the key's annotations.
pub fn grundy_figure(game: &GrundyGame, marks: Option<&GrundyMarks>) -> Figure {
    let text: Vec<String> = game
        .states
        .iter()
        .map(|s| {
            s.piles
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    let width = |s: usize| 3.0 + CHAR * text[s].chars().count() as f64;
    let levels = game.depth.iter().max().map_or(1, |d| d + 1);
    let rows: Vec<Vec<usize>> = (0..levels)
        .map(|d| {
            (0..game.states.len())
                .filter(|&s| game.depth[s] == d)
                .collect()
        })
        .collect();
    let row_width = |row: &[usize]| {
        row.iter().map(|&s| width(s)).sum::<f64>() + GAP * row.len().saturating_sub(1) as f64
    };
    let widest = rows.iter().map(|r| row_width(r)).fold(0.0, f64::max);
    let mut at = vec![(0.0, 0.0); game.states.len()];
    for (d, row) in rows.iter().enumerate() {
        // Centre each row under the widest; spread it out when it has room.
        let spare = widest - row_width(row);
        let gap = GAP + spare / (row.len() + 1) as f64;
        let mut x = LEFT + gap;
        for &s in row {
            at[s] = (x + width(s) / 2.0, 5.0 + HEIGHT / 2.0 + DOWN * d as f64);
            x += width(s) + gap;
        }
    }
    let no_marks = GrundyMarks::default();
    let m = marks.unwrap_or(&no_marks);
    let mut items = Vec::new();
    let mut targets = Vec::new();
    for row in &rows {
        if let Some(&s) = row.first() {
            items.push(Item::Text {
                x: 2.0,
                y: at[s].1,
                text: game.states[s].to_move.name().to_string(),
                size: FONT * 0.9,
                anchor: Anchor::Start,
                style: Style::Normal,
                halo: false,
            });
        }
    }
    for (s, next) in game.moves.iter().enumerate() {
        let (px, py) = (at[s].0, at[s].1 + HEIGHT / 2.0);
        let mut ends = Vec::new();
        for &n in next {
            let style = if m.answer_moves.contains(&(s, n)) {
                Style::Answer
            } else {
                Style::Normal
            };
            let (cx, cy) = (at[n].0, at[n].1 - HEIGHT / 2.0);
            items.push(Item::Line {
                x1: px,
                y1: py,
                x2: cx,
                y2: cy,
                style,
            });
            ends.push((cx, cy));
            targets.push(Target::line(
                game.move_name(s, n),
                Pick::Move,
                (px, py),
                (cx, cy),
            ));
        }
        // MIN's states are AND nodes: an arc joins their moves, as AND/OR graphs draw it.
        if game.states[s].to_move == crate::gametree::Player::Min {
            items.extend(joining_arc((px, py), &ends, &[], 4.0, Style::Normal));
        }
    }
    for (s, &(x, y)) in at.iter().enumerate() {
        targets.push(Target::area(
            game.states[s].name(),
            Pick::Node,
            (x, y),
            (width(s), HEIGHT),
        ));
        items.push(Item::Node {
            x,
            y,
            w: width(s),
            h: HEIGHT,
            outline: Outline::Box,
            style: Style::Normal,
        });
        items.push(Item::Text {
            x,
            y,
            text: text[s].clone(),
            size: FONT,
            anchor: Anchor::Middle,
            style: Style::Normal,
            halo: false,
        });
        if m.winners {
            items.push(Item::Text {
                x: x + width(s) / 2.0 + 0.8,
                y,
                text: game.wins_for[s].name().to_string(),
                size: WINNER,
                anchor: Anchor::Start,
                style: Style::Mark,
                halo: false,
            });
        }
    }
    Figure {
        width: LEFT + widest + 2.0 * GAP + 8.0,
        height: 5.0 + HEIGHT + DOWN * (levels - 1) as f64 + 6.0,
        items,
        targets,
    }
}
