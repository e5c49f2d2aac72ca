//! Othello / reversi (黑白棋) as the textbooks search it: weighted squares,
//! optional mobility and frontier terms, and a 1–2 ply lookahead for the side
//! to move, who is MAX.
//!
//! Squares are named by column `a`–`h` (left to right) and row `1`–`8` (top to
//! bottom); moves are tried in reading order a1, b1, …, h1, a2, …, h8.

pub mod board;
pub(crate) mod terms;

pub use terms::Terms;

pub use board::{Board, DEFAULT_SQUARES, EvalParts, Side, Weights, parse_square, square_name};

use super::lookahead::{Lookahead, Position, Search, lookahead};
use crate::gametree::Player;
use crate::generate::{GenerateError, first_satisfying};
use crate::input::{Doc, InputError, Reader, Table};
use crate::value::Value;

/// An Othello lookahead exercise: a position and how it is searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Othello {
    /// The position.
    pub board: Board,
    /// The side to move: MAX.
    pub to_move: Side,
    /// Plies searched.
    pub depth: u32,
    /// The evaluation's weights.
    pub weights: Weights,
    /// Empty squares joined by a side (4) or also by a corner (8) are one
    /// region, for parity.
    pub regions: u8,
}

/// Regions of empty squares are 8-connected unless a file says `regions = 4`.
pub const REGIONS: u8 = 8;

/// Most plies of lookahead: beyond 3 the tree no longer fits a page.
pub const MAX_DEPTH: u32 = 3;

/// The move of a side without a legal move when its opponent has one.
pub const PASS: &str = "pass";

impl Othello {
    /// e(P) of the position, for the side to move.
    pub fn eval(&self) -> i64 {
        self.board.eval(self.to_move, &self.weights)
    }

    /// The search tree from the position, MAX to move at the root.
    pub fn lookahead(&self) -> Lookahead<Node<'_>> {
        lookahead(self.root(), Player::Max, self.depth)
    }

    fn root(&self) -> Node<'_> {
        Node {
            board: self.board,
            to_move: self.to_move,
            max: self.to_move,
            weights: &self.weights,
        }
    }

    /// How many nodes [`Othello::lookahead`] has, counted without building
    /// it; `None` when more than `cap`.
    pub fn search_size(&self, cap: usize) -> Option<usize> {
        crate::games::lookahead::count_nodes(&self.root(), self.depth, cap)
    }

    /// The instance as a document: `kind`, `board`, `to_move`, `depth`,
    /// `squares` (eight rows, one per line, cells four wide), `mobility`,
    /// `frontier`, and `stable` and `potential` when not 0.
    pub fn document(&self) -> crate::document::Table {
        use crate::document::{Layout, Node, Table};
        let rows = self.weights.squares.chunks(8).map(|row| {
            Node::Array(
                row.iter().map(|&w| Node::Int(w)).collect(),
                Layout::Padded(4),
            )
        });
        let mut table = Table::new()
            .with("kind", "othello")
            .with("board", self.board.to_string())
            .with("to_move", self.to_move.letter().to_string())
            .with("depth", self.depth)
            .with("squares", Node::lines(rows))
            .with("mobility", self.weights.mobility)
            .with("frontier", self.weights.frontier);
        // Written only when used, so that an instance without them keeps
        // its canonical form (and its variants' checksums).
        for (key, w) in [
            ("stable", self.weights.stable),
            ("potential", self.weights.potential),
        ] {
            if w != 0 {
                table = table.with(key, w);
            }
        }
        if self.regions != REGIONS {
            table = table.with("regions", i64::from(self.regions));
        }
        table
    }
}

/// A node of the lookahead.
#[derive(Clone, Copy, Debug)]
pub struct Node<'w> {
    /// The board.
    pub board: Board,
    /// The side to move.
    pub to_move: Side,
    max: Side,
    weights: &'w Weights,
}

impl Position for Node<'_> {
    fn successors(&self) -> Vec<(String, Self)> {
        let moves = self.board.moves(self.to_move);
        if moves.is_empty() {
            if self.board.finished() {
                return Vec::new();
            }
            // A side without a move passes; the game goes on.
            return vec![(
                PASS.to_string(),
                Node {
                    to_move: self.to_move.other(),
                    ..*self
                },
            )];
        }
        moves
            .into_iter()
            .map(|(square, _)| {
                (
                    square_name(square),
                    Node {
                        board: self.board.play(self.to_move, square),
                        to_move: self.to_move.other(),
                        ..*self
                    },
                )
            })
            .collect()
    }

    fn evaluate(&self) -> Value {
        Value::Finite(self.board.eval(self.max, self.weights))
    }
}

/// The keys of an Othello instance file.
pub const KEYS: &[&str] = &[
    "kind",
    "title",
    "board",
    "to_move",
    "depth",
    "squares",
    "mobility",
    "frontier",
    "stable",
    "potential",
    "regions",
];

/// Reads `regions = 4` or `8`.
fn read_regions(reader: &Reader<'_>, table: &Table<'_>) -> Result<u8, InputError> {
    let Some(doc) = table.get("regions") else {
        return Ok(REGIONS);
    };
    match reader.int(doc, "regions = 8")? {
        4 => Ok(4),
        8 => Ok(8),
        n => Err(reader.source.error(
            doc,
            format!("regions = {n}: empty squares join by a side (4) or also by a corner (8)"),
            "write regions = 8 (the default) or regions = 4".to_string(),
        )),
    }
}

/// Reads `to_move = "B"`.
fn read_side(reader: &Reader<'_>, doc: &Doc) -> Result<Side, InputError> {
    let text = reader.str(doc, "to_move = \"B\"")?;
    Side::parse(text).ok_or_else(|| {
        reader.source.error(
            doc,
            format!("`{text}` is not a side"),
            "write \"B\" (black) or \"W\" (white)".to_string(),
        )
    })
}

/// Reads the weights: `squares` (8 rows of 8 integers), `mobility`,
/// `frontier`, `stable`, `potential`.
pub fn read_weights(reader: &Reader<'_>, table: &Table<'_>) -> Result<Weights, InputError> {
    let mut w = Weights::default();
    if let Some(d) = table.get("squares") {
        let example = "squares = [[100, -5, 10, 5, 5, 10, -5, 100], …] (8 rows of 8)";
        let rows = reader.array(d, example)?;
        if rows.len() != 8 {
            return Err(reader.source.error(
                d,
                format!("{} rows of weights; the board has 8", rows.len()),
                "give 8 rows of 8 weights, top to bottom".to_string(),
            ));
        }
        for (r, row) in rows.iter().enumerate() {
            let cells = reader.array(row, "[100, -5, 10, 5, 5, 10, -5, 100]")?;
            if cells.len() != 8 {
                return Err(reader.source.error(
                    row,
                    format!(
                        "row {} has {} weights; every row needs 8",
                        r + 1,
                        cells.len()
                    ),
                    "give 8 weights per row, left to right".to_string(),
                ));
            }
            for (c, cell) in cells.iter().enumerate() {
                w.squares[r * 8 + c] = small_weight(reader, cell)?;
            }
        }
    }
    if let Some(d) = table.get("mobility") {
        w.mobility = small_weight(reader, d)?;
    }
    if let Some(d) = table.get("frontier") {
        w.frontier = small_weight(reader, d)?;
    }
    if let Some(d) = table.get("stable") {
        w.stable = small_weight(reader, d)?;
    }
    if let Some(d) = table.get("potential") {
        w.potential = small_weight(reader, d)?;
    }
    Ok(w)
}

/// Weights are bounded so that no sum of them can overflow.
fn small_weight(reader: &Reader<'_>, doc: &Doc) -> Result<i64, InputError> {
    const LIMIT: i64 = 1_000_000;
    let v = reader.int(doc, "10")?;
    if !(-LIMIT..=LIMIT).contains(&v) {
        return Err(reader.source.error(
            doc,
            format!("the weight {v} is too large"),
            format!("weights lie between -{LIMIT} and {LIMIT}"),
        ));
    }
    Ok(v)
}

/// Reads an Othello instance from a checked table.
pub fn read(reader: &Reader<'_>, table: &Table<'_>) -> Result<Othello, InputError> {
    let src = reader.source;
    let example = "\"......../......../......../...WB.../...BW.../......../......../........\"";
    let board_doc = table.require(src, "board", &format!("board = {example}"))?;
    let text = reader.str(board_doc, example)?.trim();
    // The one-line form may end with the side to move: `…--XO--- X`.
    let (squares, side) = match text.rsplit_once(char::is_whitespace) {
        Some((squares, side)) if !squares.contains('/') => (squares.trim(), Some(side)),
        _ => (text, None),
    };
    let board = Board::parse(squares).map_err(|m| {
        src.error(
            board_doc,
            m,
            "write eight rows of B, W or `.`, top to bottom, separated by `/`, or the 64 squares on one line (X, O, -), a1 to h8"
                .to_string(),
        )
    })?;
    let side = match side {
        None => None,
        Some(letter) => Some(Side::parse(letter.trim_end_matches(';')).ok_or_else(|| {
            src.error(
                board_doc,
                format!("`{letter}` after the squares is not a side to move"),
                "end the line with X (black) or O (white) to move, or leave it out and give to_move"
                    .to_string(),
            )
        })?),
    };
    let to_move = match (table.get("to_move"), side) {
        (Some(doc), None) => read_side(reader, doc)?,
        (None, Some(side)) => side,
        (Some(doc), Some(side)) => {
            let given = read_side(reader, doc)?;
            if given != side {
                return Err(src.error(
                    doc,
                    "to_move disagrees with the side at the end of the board",
                    "give the side to move once".to_string(),
                ));
            }
            given
        }
        (None, None) => read_side(reader, table.require(src, "to_move", "to_move = \"B\"")?)?,
    };
    let depth = match table.get("depth") {
        None => 1,
        Some(d) => {
            super::lookahead::read_depth(reader, d, MAX_DEPTH, "textbooks look 1 or 2 plies ahead")?
        }
    };
    Ok(Othello {
        board,
        to_move,
        depth,
        weights: read_weights(reader, table)?,
        regions: read_regions(reader, table)?,
    })
}

/// Most leaves a generated exercise's lookahead may have: more do not fit a page legibly.
pub const MAX_LEAVES: usize = 40;

/// What a generated Othello exercise looks like.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// Random moves played from the opening.
    pub plies: (u32, u32),
    /// The evaluation's weights.
    pub weights: Weights,
    /// The lookahead and what it must show.
    pub search: Search,
    /// Regions of empty squares: 4- or 8-connected.
    pub regions: u8,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            plies: (4, 10),
            weights: Weights::default(),
            search: Search::plies(1),
            regions: REGIONS,
        }
    }
}

impl Params {
    /// Impossible parameters, named.
    pub fn validate(&self) -> Result<(), GenerateError> {
        if self.plies.1 > 50 {
            return Err(GenerateError::Invalid(format!(
                "{} plies from the opening leave too few empty squares for an exercise; use at most 50",
                self.plies.1
            )));
        }
        self.search.check(MAX_DEPTH)
    }
}

/// A reachable position with the side to move able to move, whose lookahead
/// has at most [`MAX_LEAVES`] leaves, and the cuts and the unique best move asked for.
pub fn generate(p: &Params, seed: u64) -> Result<Othello, GenerateError> {
    p.validate()?;
    first_satisfying(
        "position",
        seed,
        |rng| {
            let plies = rng.between(i64::from(p.plies.0), i64::from(p.plies.1)) as u32;
            let (board, to_move) =
                board::random_position(plies, &mut |n| rng.below(n as u64) as usize);
            let game = Othello {
                board,
                to_move,
                depth: p.search.depth,
                weights: p.weights.clone(),
                regions: p.regions,
            };
            // The search is drawn with the position: the work limit counts its nodes.
            let tree = game.lookahead().tree;
            (game, tree)
        },
        |(_, tree)| tree.len(),
        |(game, tree)| {
            if game.board.moves(game.to_move).is_empty() {
                return Some((0, "a legal move for the side to move".to_string()));
            }
            if tree.leaves().count() > MAX_LEAVES {
                return Some((
                    0,
                    format!("at most {MAX_LEAVES} positions at the lookahead's frontier"),
                ));
            }
            p.search.unmet(tree).map(|m| (1, m))
        },
    )
    .map(|(game, _)| game)
}

/// The keys a problem set (or `sample`) shapes a generated position with.
pub const PARAM_KEYS: &[&str] = &[
    "plies",
    "depth",
    "squares",
    "mobility",
    "frontier",
    "stable",
    "potential",
    "regions",
    "min_cuts",
    "unique_best",
];

/// Reads [`Params`] from a problem set's exercise table (or `sample`'s options).
pub fn read_params(
    r: &crate::input::Reader<'_>,
    t: &crate::input::Table<'_>,
) -> Result<Params, crate::input::InputError> {
    let mut p = Params::default();
    if let Some(d) = t.get("plies") {
        p.plies = r.small_range(d)?;
    }
    p.weights = read_weights(r, t)?;
    p.regions = read_regions(r, t)?;
    p.search = super::lookahead::read_search(r, t, p.search)?;
    r.check_generator(t, p.validate().err())?;
    Ok(p)
}
