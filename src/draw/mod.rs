//! Drawings: laid out once in Rust as a [`Figure`] of primitives, then written
//! as inline SVG (HTML) or TikZ (LaTeX) from that same figure.
//!
//! Units are millimetres on the printed page; y grows downwards.

mod andor;
mod board;
mod grundy;
mod svg;
mod tikz;
mod tree;

pub use andor::{GraphMarks, graph_figure};
pub use board::{
    Square, TICTACTOE_GLYPH_SIDES, board_figure, othello_board, othello_terms_boards,
    tictactoe_board, tictactoe_glyph, tictactoe_tree,
};
pub use grundy::{GrundyMarks, grundy_figure, grundy_page_figure};
pub(crate) use svg::escape as svg_escape;
pub use svg::{to_svg, to_svg_with_targets};
pub use tikz::{tex_escape, to_tikz};
pub use tree::{Pictures, TreeMarks, pictured_tree_figure, tree_figure};

/// How a primitive is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Black, thin.
    Normal,
    /// Grey and dashed: never examined.
    Pruned,
    /// Thick, blue: the node whose bound caused a cut.
    Cause,
    /// Thick, green: part of the answer (best move, solution graph).
    Answer,
    /// Red: a cut, or a value written by the key.
    Mark,
    /// Blue, dashed: a second answer drawn over the first (the max-cost
    /// solution graph beside the sum-cost one); a line in both shows both.
    Second,
}

/// A node outline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outline {
    /// A MAX node.
    Square,
    /// A MIN node.
    Circle,
    /// An AND/OR node (a rounded box).
    Box,
    /// A goal node (a box with a double border).
    DoubleBox,
    /// A black Othello disc.
    BlackDisc,
    /// A white Othello disc (a filled white circle with a black edge).
    WhiteDisc,
    /// A chance node (a square on its corner).
    Diamond,
}

/// Where a text sits relative to its point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// Centred.
    Middle,
    /// Starting at the point.
    Start,
    /// Ending at the point.
    End,
}

/// One drawing primitive (coordinates and sizes in mm).
#[allow(missing_docs)]
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// A node outline centred at (x, y), `w` wide and `h` high.
    Node {
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        outline: Outline,
        style: Style,
    },
    /// A straight line.
    Line {
        x1: f64,
        y1: f64,
        x2: f64,
        y2: f64,
        style: Style,
    },
    /// A circular arc around (cx, cy) from angle `a1` to `a2` (degrees, clockwise from +x, y down).
    Arc {
        cx: f64,
        cy: f64,
        r: f64,
        a1: f64,
        a2: f64,
        style: Style,
    },
    /// A text.
    Text {
        x: f64,
        y: f64,
        text: String,
        size: f64,
        anchor: Anchor,
        style: Style,
        /// Drawn over a white outline, so that a line it touches cannot hide it.
        halo: bool,
    },
}

/// A laid-out drawing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Figure {
    /// Width in mm.
    pub width: f64,
    /// Height in mm.
    pub height: f64,
    /// Primitives, in drawing order.
    pub items: Vec<Item>,
    /// The places a student can answer on (a node, an edge, a connector, a
    /// square): what the practice page lets them click. Printed sheets ignore them.
    pub targets: Vec<Target>,
}

/// What an answer names when a student picks a [`Target`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// A node, a state, or a board's square (as a move's name).
    Node,
    /// An AND/OR connector.
    Connector,
    /// A move between two states of a game graph.
    Move,
}

impl Pick {
    /// The name pages use.
    pub fn name(self) -> &'static str {
        match self {
            Pick::Node => "node",
            Pick::Connector => "connector",
            Pick::Move => "move",
        }
    }
}

/// A place in a figure that names something an answer can list: `label` as
/// the answer sheet writes it, over a box or along a line.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    /// The name an answer sheet uses (`K`, `n0 -> n1 + n2`, `c3`); shared by
    /// a connector's edges, so a k-child connector's k targets hold one name,
    /// not k copies of a name k labels long.
    pub label: std::sync::Arc<str>,
    /// What it names.
    pub pick: Pick,
    /// Where it is: a box centred at (x, y), or a line from (x, y) to (x2, y2).
    pub x: f64,
    #[allow(missing_docs)]
    pub y: f64,
    /// The box's width and height, or the line's end.
    pub w: f64,
    #[allow(missing_docs)]
    pub h: f64,
    /// Whether it is a line (an edge) rather than a box.
    pub line: bool,
}

impl Target {
    /// A box `w` × `h` centred at (x, y).
    pub fn area(
        label: impl Into<std::sync::Arc<str>>,
        pick: Pick,
        (x, y): (f64, f64),
        (w, h): (f64, f64),
    ) -> Target {
        Target {
            label: label.into(),
            pick,
            x,
            y,
            w,
            h,
            line: false,
        }
    }

    /// The line from `a` to `b`.
    pub fn line(
        label: impl Into<std::sync::Arc<str>>,
        pick: Pick,
        a: (f64, f64),
        b: (f64, f64),
    ) -> Target {
        Target {
            label: label.into(),
            pick,
            x: a.0,
            y: a.1,
            w: b.0,
            h: b.1,
            line: true,
        }
    }

    fn shifted(mut self, dx: f64, dy: f64) -> Target {
        self.x += dx;
        self.y += dy;
        if self.line {
            self.w += dx;
            self.h += dy;
        }
        self
    }
}

/// About how wide `text` prints at `size` mm, in mm (Helvetica's widths;
/// CJK characters are square).
pub(crate) fn text_width(text: &str, size: f64) -> f64 {
    text.chars()
        .map(|c| match c {
            'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '|' | ' ' => 0.28,
            'f' | 't' | 'r' | '-' | '(' | ')' | '[' | ']' | '/' => 0.34,
            'm' | 'w' => 0.84,
            'M' | 'W' | '∞' => 0.86,
            'A'..='Z' | '+' | '=' | '<' | '>' | '≤' | '≥' | '−' => 0.67,
            c if c.is_ascii() => 0.56,
            'α' | 'β' => 0.6,
            _ => 1.0,
        })
        .sum::<f64>()
        * size
}

/// The smallest box holding every primitive, as (left, top, right, bottom) in mm;
/// texts by their estimated extent.
pub(crate) fn extent(items: &[Item]) -> (f64, f64, f64, f64) {
    let mut b = (
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    );
    let mut add = |x0: f64, y0: f64, x1: f64, y1: f64| {
        b = (b.0.min(x0), b.1.min(y0), b.2.max(x1), b.3.max(y1));
    };
    for item in items {
        match *item {
            Item::Node { x, y, w, h, .. } => {
                add(x - w / 2.0, y - h / 2.0, x + w / 2.0, y + h / 2.0)
            }
            Item::Line { x1, y1, x2, y2, .. } => {
                add(x1.min(x2), y1.min(y2), x1.max(x2), y1.max(y2))
            }
            Item::Arc {
                cx, cy, r, a1, a2, ..
            } => {
                for k in 0..=16 {
                    let a = (a1 + (a2 - a1) * k as f64 / 16.0).to_radians();
                    let (x, y) = (cx + r * a.cos(), cy + r * a.sin());
                    add(x, y, x, y);
                }
            }
            Item::Text {
                x,
                y,
                ref text,
                size,
                anchor,
                ..
            } => {
                let w = text_width(text, size);
                let x0 = match anchor {
                    Anchor::Middle => x - w / 2.0,
                    Anchor::Start => x,
                    Anchor::End => x - w,
                };
                add(x0, y - size * 0.6, x0 + w, y + size * 0.6);
            }
        }
    }
    b
}

/// The arc that marks an AND connector: across the edges from `from` to each
/// of `ends`, `r` mm from `from`; none for fewer than two edges. Across a
/// wide fan it runs past the outer edges on both sides by `TAIL` mm, as the
/// textbooks draw it, but stops short of halfway to any of `others` (the
/// node's edges to children outside the connector), so it never seems to
/// join them. Across a narrow fan (under `NARROW` degrees) it ends on the
/// outer edges: a rung between them, not a stroke across them that would
/// read as a cut mark.
fn joining_arc(
    from: (f64, f64),
    ends: &[(f64, f64)],
    others: &[(f64, f64)],
    r: f64,
    style: Style,
) -> Option<Item> {
    const TAIL: f64 = 1.2;
    const NARROW: f64 = 30.0;
    let angle = |&(x, y): &(f64, f64)| (y - from.1).atan2(x - from.0).to_degrees();
    let (lo, hi) = ends
        .iter()
        .map(angle)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), a| {
            (lo.min(a), hi.max(a))
        });
    let degrees = |mm: f64| (mm / r).to_degrees();
    let tail = if hi - lo < NARROW { 0.0 } else { degrees(TAIL) };
    // Room on each side: up to 40 % of the way to the nearest other edge there.
    let (mut before, mut after) = (tail, tail);
    for a in others.iter().map(angle) {
        if a < lo {
            before = before.min((lo - a) * 0.4);
        } else if a > hi {
            after = after.min((a - hi) * 0.4);
        }
    }
    (ends.len() >= 2).then_some(Item::Arc {
        cx: from.0,
        cy: from.1,
        r,
        a1: lo - before,
        a2: hi + after,
        style,
    })
}

/// A number with one decimal and no trailing `.0`, so output is byte-stable.
/// Written with integer arithmetic and without allocating: figures print
/// thousands of numbers, and float formatting with a precision is slow.
#[derive(Clone, Copy)]
struct Num(f64);

impl std::fmt::Display for Num {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tenths = (self.0 * 10.0).round() as i64;
        let (sign, t) = if tenths < 0 {
            ("-", -tenths)
        } else {
            ("", tenths)
        };
        if t % 10 == 0 {
            write!(f, "{sign}{}", t / 10)
        } else {
            write!(f, "{sign}{}.{}", t / 10, t % 10)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Num;

    #[test]
    fn numbers_print_with_one_decimal_at_most() {
        let got: Vec<String> = [0.0, -0.04, 3.0, 2.25, -1.46, 12.96]
            .iter()
            .map(|&v| Num(v).to_string())
            .collect();
        assert_eq!(got, ["0", "0", "3", "2.3", "-1.5", "13"]);
    }
}
