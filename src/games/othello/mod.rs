//! Othello / reversi (黑白棋) as the textbooks search it: weighted squares,
//! optional mobility and frontier terms, and a 1–2 ply lookahead for the side
//! to move, who is MAX.
//!
//! Squares are named by column `a`–`h` (left to right) and row `1`–`8` (top to
//! bottom); moves are tried in reading order a1, b1, …, h1, a2, …, h8.

pub mod board;
pub(crate) mod terms;

pub use terms::Terms;

pub use board::{
    Board, DEFAULT_SQUARES, Endgame, EvalParts, Side, Weights, parse_square, square_name,
};

use super::lookahead::{Budgets, Horizon, Lookahead, Position, Search, lookahead_within};
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
    /// Where the search stops: plies, a node budget, or iterative deepening
    /// under a node budget.
    pub horizon: Horizon,
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

    /// The search tree from the position, MAX to move at the root: as deep
    /// as the horizon (for iterative deepening, its deepest completed iteration).
    pub fn lookahead(&self) -> Lookahead<Node<'_>> {
        lookahead_within(self.root(), Player::Max, self.horizon)
    }

    /// Iterative deepening from the position under `budget`, iteration by iteration.
    pub fn deepening(&self, budget: u32) -> super::lookahead::Deepening {
        super::lookahead::deepening(&self.root(), budget)
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
        crate::games::lookahead::count_nodes(&self.root(), self.horizon, cap)
    }

    /// The instance as a document: `kind`, `board`, `to_move`, `depth` (or
    /// `budget`, or `deepening`),
    /// `squares` (eight rows, one per line, cells four wide), `mobility`,
    /// `frontier`, and `stable`, `potential`, `regions` and `endgame` when
    /// not their defaults.
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
            .with(
                super::lookahead::horizon_key(self.horizon),
                self.horizon.allowance(),
            )
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
        if self.weights.endgame != Endgame::default() {
            table = table.with("endgame", self.weights.endgame.name());
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

impl Node<'_> {
    /// The position after the side to move plays `square`.
    fn after(&self, square: usize) -> Self {
        Node {
            board: self.board.play(self.to_move, square),
            to_move: self.to_move.other(),
            ..*self
        }
    }
}

impl Position for Node<'_> {
    fn successors(&self) -> Vec<(String, Self)> {
        let moves = self.board.legal_squares(self.to_move);
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
            .map(|square| (square_name(square), self.after(square)))
            .collect()
    }

    fn children(&self) -> Vec<Self> {
        match self.board.legal_bits(self.to_move) {
            0 => self.successors().into_iter().map(|(_, p)| p).collect(),
            moves => board::squares(moves)
                .map(|square| self.after(square))
                .collect(),
        }
    }

    fn child_count(&self) -> usize {
        match self.board.move_count(self.to_move) {
            // A pass, unless the game is over.
            0 => usize::from(!self.board.finished()),
            n => n,
        }
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
    "budget",
    "deepening",
    "squares",
    "mobility",
    "frontier",
    "stable",
    "potential",
    "regions",
    "endgame",
];

pub use super::lookahead::MAX_BUDGET;

/// Reads `depth = 2`, `budget = 12` or `deepening = 40` (at most one); a
/// 1-ply lookahead when none is given.
fn read_horizon(reader: &Reader<'_>, table: &Table<'_>) -> Result<Horizon, InputError> {
    super::lookahead::read_horizon(
        reader,
        table,
        Some((MAX_DEPTH, "textbooks look 1 or 2 plies ahead")),
    )
    .map(|h| h.unwrap_or(Horizon::Depth(1)))
}

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

/// Reads the evaluation: `squares` (8 rows of 8 integers), `mobility`,
/// `frontier`, `stable`, `potential`, `endgame`.
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
    if let Some(d) = table.get("endgame") {
        let name = reader.str(d, "endgame = \"infinity\"")?;
        w.endgame = Endgame::parse(name).ok_or_else(|| {
            reader.source.error(
                d,
                format!("`{name}` is not a way to score a finished game"),
                "write endgame = \"infinity\" (±INF + the disc difference, the default) or endgame = \"difference\" (the disc difference alone)".to_string(),
            )
        })?;
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
    Ok(Othello {
        board,
        to_move,
        horizon: read_horizon(reader, table)?,
        weights: read_weights(reader, table)?,
        regions: read_regions(reader, table)?,
    })
}

/// Most leaves a generated exercise's lookahead may have: more do not fit a page legibly.
pub const MAX_LEAVES: usize = 40;

/// Most positions a budgeted search may evaluate: its answers list every
/// position searched, with its budget, and must fit the key's page.
pub const MAX_BUDGET_LEAVES: usize = 30;

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
    /// A node budget (or iterative deepening under one) drawn from a range
    /// instead of `search.depth`.
    pub budgets: Budgets,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            plies: (4, 10),
            weights: Weights::default(),
            search: Search::plies(1),
            regions: REGIONS,
            budgets: Budgets::default(),
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
        self.budgets.validate()?;
        self.search.check(MAX_DEPTH)
    }

    /// Where a generated position's search stops: drawn from the budget's
    /// range when one is given.
    fn horizon(&self, rng: &mut crate::rng::Rng) -> Horizon {
        self.budgets
            .draw(rng)
            .unwrap_or(Horizon::Depth(self.search.depth))
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
            let mut game = Othello {
                board,
                to_move,
                horizon: p.horizon(rng),
                weights: p.weights.clone(),
                regions: p.regions,
            };
            game.horizon =
                p.budgets
                    .budget_with_point(game.horizon, &game.root(), MAX_BUDGET_LEAVES);
            // The search is drawn with the position: the work limit counts
            // its nodes. Most positions are refused on its shape alone, so
            // the tree (named and evaluated) is built only for the rest.
            let shape = super::lookahead::frontier_depths(&game.root(), game.horizon, usize::MAX)
                .expect("no cap");
            (game, shape)
        },
        |(_, shape)| shape.nodes,
        |(game, shape)| {
            if game.board.moves(game.to_move).is_empty() {
                return Some((0, "a legal move for the side to move".to_string()));
            }
            let max_leaves = if matches!(game.horizon, Horizon::Budget(_)) {
                MAX_BUDGET_LEAVES
            } else {
                MAX_LEAVES
            };
            if shape.leaves > max_leaves {
                return Some((
                    0,
                    format!("at most {max_leaves} positions at the lookahead's frontier"),
                ));
            }
            // What a budgeted search is asked for (its point).
            if let Some(m) = Budgets::unmet(game.horizon, &game.root(), shape.uneven()) {
                return Some((1, m));
            }
            p.search.unmet(&game.lookahead().tree).map(|m| (1, m))
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
    "endgame",
    "budget",
    "deepening",
    "min_cuts",
    "unique_best",
];

/// Reads [`Params`] from a problem set's exercise table (or `sample`'s
/// options), with `budgets` when it gives no budget ([`Budgets::read`]).
pub fn read_params(
    r: &crate::input::Reader<'_>,
    t: &crate::input::Table<'_>,
    budgets: Budgets,
) -> Result<Params, crate::input::InputError> {
    let mut p = Params::default();
    if let Some(d) = t.get("plies") {
        p.plies = r.small_range(d)?;
    }
    p.weights = read_weights(r, t)?;
    p.regions = read_regions(r, t)?;
    p.budgets = Budgets::read(r, t, budgets)?;
    p.search = super::lookahead::read_search(r, t, p.search)?;
    r.check_generator(t, p.validate().err())?;
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gametree::minimax;

    /// A seeded pick of `0..n`, for random positions.
    fn xorshift(mut state: u64) -> impl FnMut(usize) -> usize {
        move |n| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        }
    }

    /// Whether `max`, to move, wins by the end of its own move or MIN's
    /// reply whatever MIN does: the rules written out, without a tree.
    fn forces_a_win(b: &Board, max: Side) -> bool {
        let won = |b: &Board| b.finished() && b.count(max) > b.count(max.other());
        b.moves(max).iter().any(|&(m, _)| {
            let after = b.play(max, m);
            if after.finished() {
                return won(&after);
            }
            let replies = after.moves(max.other());
            // A pass leaves the game unfinished at the horizon.
            !replies.is_empty()
                && replies
                    .iter()
                    .all(|&(r, _)| won(&after.play(max.other(), r)))
        })
    }

    /// The generator's count of a search's shape, made without evaluating
    /// (nor making the positions at its frontier), is the tree's: on 2,000
    /// random positions, budgets and depths.
    #[test]
    fn frontier_depths_are_the_trees() {
        let mut pick = xorshift(0x9E37_79B9_7F4A_7C15);
        for i in 0..2000u32 {
            let (board, to_move) = board::random_position(i % 58, &mut pick);
            let g = Othello {
                board,
                to_move,
                // Depths too: the `othello` kind's generator counts them the same way.
                horizon: match i % 4 {
                    0 => Horizon::Depth(1 + i / 4 % 2),
                    _ => Horizon::Budget(1 + i % 30),
                },
                weights: Weights::default(),
                regions: REGIONS,
            };
            let t = g.lookahead().tree;
            let depths: Vec<usize> = t.leaves().map(|l| t.depth_of(l)).collect();
            let want = crate::games::lookahead::Frontier {
                nodes: t.len(),
                leaves: depths.len(),
                lo: *depths.iter().min().unwrap(),
                hi: *depths.iter().max().unwrap(),
            };
            let count = |cap| crate::games::lookahead::frontier_depths(&g.root(), g.horizon, cap);
            assert_eq!(count(usize::MAX), Some(want), "{board}");
            // The cap: the tree's size is allowed, one node fewer is not.
            assert_eq!(count(want.nodes), Some(want), "{board}");
            assert_eq!(count(want.nodes - 1), None, "{board}");
            assert_eq!(super::super::lookahead::uneven(&t), want.uneven());
        }
    }

    /// The point of ±INF + difference, on late positions of random games
    /// searched 2 plies deep: the root's value exceeds INF exactly when MAX
    /// can force a win within the horizon, and by the difference alone some
    /// searches choose another move than under ±INF.
    #[test]
    fn a_search_prefers_a_won_game() {
        let mut pick = xorshift(0x2545_F491_4F6C_DD1D);
        let (mut positions, mut forced, mut differ) = (0, 0, 0);
        for i in 0..3000 {
            let (board, to_move) = board::random_position(50 + i % 10, &mut pick);
            if board.finished() || board.moves(to_move).is_empty() {
                continue;
            }
            positions += 1;
            let mut game = Othello {
                board,
                to_move,
                horizon: Horizon::Depth(2),
                weights: Weights::default(),
                regions: REGIONS,
            };
            let inf = game.weights.inf();
            let by_inf = minimax(&game.lookahead().tree);
            let wins = forces_a_win(&board, to_move);
            forced += usize::from(wins);
            assert_eq!(
                by_inf.value > Value::Finite(inf),
                wins,
                "{board} {to_move:?}"
            );
            game.weights.endgame = Endgame::Difference;
            let by_discs = minimax(&game.lookahead().tree);
            differ += usize::from(by_discs.best_moves != by_inf.best_moves);
        }
        assert!(
            positions > 2500 && forced > 20 && differ > 20,
            "{positions} {forced} {differ}"
        );
        eprintln!(
            "{positions} positions, {forced} with a forced win in 2 plies, {differ} where the difference alone chooses other moves"
        );
    }
}
