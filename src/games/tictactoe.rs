//! Tic-tac-toe (一字棋) as the textbooks search it: the open-lines evaluation
//! e(P) and a depth-limited lookahead, with positions equal under the board's
//! eight symmetries merged among siblings.
//!
//! Cells are named by column `a`–`c` (left to right) and row `1`–`3` (top to
//! bottom); moves are tried in reading order a1, b1, c1, a2, …, c3.

use super::lookahead::{Lookahead, Position, Search, lookahead};

/// `b2` for cell 4.
pub fn cell_name(cell: usize) -> String {
    super::square_name(3, cell)
}

/// The cell named `b2` (case-insensitive), if it is one.
pub fn parse_cell(name: &str) -> Option<usize> {
    super::parse_square(3, name)
}
use crate::gametree::Player;
use crate::generate::{GenerateError, first_satisfying};
use crate::input::{InputError, Reader, Table};
use crate::value::Value;

/// A mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// Crosses.
    X,
    /// Noughts.
    O,
}

impl Mark {
    /// The other mark.
    pub fn other(self) -> Mark {
        match self {
            Mark::X => Mark::O,
            Mark::O => Mark::X,
        }
    }

    /// `X` or `O`.
    pub fn letter(self) -> char {
        match self {
            Mark::X => 'X',
            Mark::O => 'O',
        }
    }

    /// `"X"`/`"x"` or `"O"`/`"o"`.
    pub fn parse(s: &str) -> Option<Mark> {
        match s.trim() {
            "X" | "x" => Some(Mark::X),
            "O" | "o" => Some(Mark::O),
            _ => None,
        }
    }
}

/// The eight lines: rows, columns, diagonals (cell index = row * 3 + column).
const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// A board of nine cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board([Option<Mark>; 9]);

impl Board {
    /// The empty board.
    pub fn empty() -> Board {
        Board([None; 9])
    }

    /// Parses `X.O/.X./...`: three rows top to bottom, separated by `/`.
    pub fn parse(text: &str) -> Result<Board, String> {
        let rows: Vec<&str> = text.trim().split('/').collect();
        if rows.len() != 3 {
            return Err(format!(
                "the board has {} row{}; it needs 3, separated by `/`",
                rows.len(),
                if rows.len() == 1 { "" } else { "s" }
            ));
        }
        let mut cells = [None; 9];
        for (r, row) in rows.iter().enumerate() {
            let chars: Vec<char> = row.chars().collect();
            if chars.len() != 3 {
                return Err(format!(
                    "row {} has {} cells; every row needs 3",
                    r + 1,
                    chars.len()
                ));
            }
            for (c, &ch) in chars.iter().enumerate() {
                cells[r * 3 + c] = match ch {
                    'X' | 'x' => Some(Mark::X),
                    'O' | 'o' => Some(Mark::O),
                    '.' => None,
                    other => {
                        return Err(format!(
                            "`{other}` at {} is not X, O or `.`",
                            cell_name(r * 3 + c)
                        ));
                    }
                };
            }
        }
        Ok(Board(cells))
    }

    /// The mark in a cell (`None` also for a cell off the board, 9 or more).
    pub fn get(&self, cell: usize) -> Option<Mark> {
        self.0.get(cell).copied().flatten()
    }

    /// How many cells hold `mark`.
    pub fn count(&self, mark: Mark) -> usize {
        self.0.iter().filter(|&&c| c == Some(mark)).count()
    }

    /// The empty cells, in reading order.
    pub fn empty_cells(&self) -> Vec<usize> {
        (0..9).filter(|&i| self.0[i].is_none()).collect()
    }

    /// The board after `mark` is put in `cell`.
    ///
    /// # Panics
    ///
    /// When `cell` is 9 or more (off the board).
    pub fn play(&self, cell: usize, mark: Mark) -> Board {
        let mut next = *self;
        next.0[cell] = Some(mark);
        next
    }

    /// Whether `mark` has three in a line.
    pub fn has_line(&self, mark: Mark) -> bool {
        LINES
            .iter()
            .any(|line| line.iter().all(|&i| self.0[i] == Some(mark)))
    }

    /// Lines with none of `mark`'s opponent's marks: still open to `mark`.
    pub fn open_lines(&self, mark: Mark) -> i64 {
        LINES
            .iter()
            .filter(|line| line.iter().all(|&i| self.0[i] != Some(mark.other())))
            .count() as i64
    }

    /// e(P) for the player who plays `max`: open lines for MAX minus open lines
    /// for MIN; ±inf once either has three in a line.
    pub fn eval(&self, max: Mark) -> Value {
        if self.has_line(max) {
            Value::PosInf
        } else if self.has_line(max.other()) {
            Value::NegInf
        } else {
            Value::Finite(self.open_lines(max) - self.open_lines(max.other()))
        }
    }

    /// Whether the game is over: a line of three, or no empty cell.
    pub fn finished(&self) -> bool {
        self.has_line(Mark::X) || self.has_line(Mark::O) || self.0.iter().all(Option::is_some)
    }

    /// The board's eight images under rotation and reflection.
    fn images(&self) -> [Board; 8] {
        let rotate = |b: &Board| Board(std::array::from_fn(|i| b.0[6 - 3 * (i % 3) + i / 3]));
        let mirror = |b: &Board| Board(std::array::from_fn(|i| b.0[i / 3 * 3 + 2 - i % 3]));
        let mut out = [*self; 8];
        for k in 1..4 {
            out[k] = rotate(&out[k - 1]);
        }
        for k in 0..4 {
            out[k + 4] = mirror(&out[k]);
        }
        out
    }

    /// Whether one board is a rotation or reflection of the other.
    pub fn symmetric_to(&self, other: &Board) -> bool {
        self.images().contains(other)
    }
}

impl std::fmt::Display for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, c) in self.0.iter().enumerate() {
            if i > 0 && i % 3 == 0 {
                f.write_str("/")?;
            }
            f.write_str(match c {
                Some(Mark::X) => "X",
                Some(Mark::O) => "O",
                None => ".",
            })?;
        }
        Ok(())
    }
}

/// A tic-tac-toe lookahead exercise: a position and how it is searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TicTacToe {
    /// The position.
    pub board: Board,
    /// The mark MAX plays.
    pub max: Mark,
    /// The mark that moved first in the game (fixes whose turn it is).
    pub first: Mark,
    /// Plies searched.
    pub depth: u32,
    /// Merge sibling positions equal under a symmetry.
    pub symmetry: bool,
}

/// Most plies of lookahead: the whole game.
pub const MAX_DEPTH: u32 = 9;

impl TicTacToe {
    /// The mark to move: the first player's when both have played equally often.
    pub fn to_move(&self) -> Mark {
        if self.board.count(self.first) == self.board.count(self.first.other()) {
            self.first
        } else {
            self.first.other()
        }
    }

    /// The player to move at the root.
    pub fn root_player(&self) -> Player {
        if self.to_move() == self.max {
            Player::Max
        } else {
            Player::Min
        }
    }

    /// e(P) of the position.
    pub fn eval(&self) -> Value {
        self.board.eval(self.max)
    }

    /// Why the position cannot arise in a game that `first` opened, if it cannot.
    pub fn unreachable(&self) -> Option<String> {
        let (f, s) = (
            self.board.count(self.first),
            self.board.count(self.first.other()),
        );
        if f != s && f != s + 1 {
            return Some(format!(
                "{} moved first, so it has as many marks as {} or one more; the board has {f} {} and {s} {}",
                self.first.letter(),
                self.first.other().letter(),
                self.first.letter(),
                self.first.other().letter()
            ));
        }
        let (x, o) = (self.board.has_line(Mark::X), self.board.has_line(Mark::O));
        if x && o {
            return Some("both X and O have three in a line".to_string());
        }
        let last = self.to_move().other();
        if (x && last != Mark::X) || (o && last != Mark::O) {
            return Some(
                "the game ended with the last move, but the winner has not moved last".to_string(),
            );
        }
        None
    }

    fn root(&self) -> Node {
        Node {
            board: self.board,
            to_move: self.to_move(),
            max: self.max,
            symmetry: self.symmetry,
        }
    }

    /// The search tree from the position.
    pub fn lookahead(&self) -> Lookahead<Node> {
        lookahead(self.root(), self.root_player(), self.depth)
    }

    /// How many nodes [`TicTacToe::lookahead`] has, counted without building
    /// it; `None` when more than `cap`.
    pub fn search_size(&self, cap: usize) -> Option<usize> {
        super::lookahead::count_nodes(
            &self.root(),
            super::lookahead::Horizon::Depth(self.depth),
            cap,
        )
    }
}

impl Lookahead<Node> {
    /// The node a line of play from the root reaches (`["c1", "b1"]`), in the
    /// tree as searched: with symmetric siblings merged, a move that was merged
    /// into an earlier one finds that one, so a student who writes the mirror
    /// image of a searched move names the node that stands for it.
    pub fn find_line(&self, moves: &[&str]) -> Option<crate::gametree::NodeId> {
        let t = &self.tree;
        let mut at = t.root();
        let mut board = self.positions[0].board;
        for name in moves {
            let cell = parse_cell(name)?;
            let node = &self.positions[at.index()];
            if board.get(cell).is_some() || board.finished() {
                return None;
            }
            board = board.play(cell, node.to_move);
            at = t.children(at).find(|c| {
                let b = &self.positions[c.index()].board;
                *b == board || (node.symmetry && b.symmetric_to(&board))
            })?;
        }
        Some(at)
    }
}

/// A node of the lookahead: a board and the mark to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    /// The board.
    pub board: Board,
    /// The mark to move.
    pub to_move: Mark,
    max: Mark,
    symmetry: bool,
}

impl Position for Node {
    fn successors(&self) -> Vec<(String, Node)> {
        if self.board.finished() {
            return Vec::new();
        }
        let mut out: Vec<(String, Node)> = Vec::new();
        for cell in self.board.empty_cells() {
            let board = self.board.play(cell, self.to_move);
            // The first move in reading order stands for its symmetric siblings.
            if self.symmetry && out.iter().any(|(_, n)| n.board.symmetric_to(&board)) {
                continue;
            }
            out.push((
                cell_name(cell),
                Node {
                    board,
                    to_move: self.to_move.other(),
                    ..*self
                },
            ));
        }
        out
    }

    fn evaluate(&self) -> Value {
        self.board.eval(self.max)
    }
}

/// The keys of a tic-tac-toe instance file.
pub const KEYS: &[&str] = &[
    "kind", "title", "board", "max", "first", "depth", "symmetry",
];

fn read_mark(reader: &Reader<'_>, doc: &crate::input::Doc) -> Result<Mark, InputError> {
    let text = reader.str(doc, "\"X\"")?;
    Mark::parse(text).ok_or_else(|| {
        reader.source.error(
            doc,
            format!("`{text}` is not a mark"),
            "write \"X\" or \"O\"".to_string(),
        )
    })
}

/// Reads a tic-tac-toe instance from a checked table.
pub fn read(reader: &Reader<'_>, table: &Table<'_>) -> Result<TicTacToe, InputError> {
    let src = reader.source;
    let board_doc = table.require(src, "board", "board = \"X.O/.X./...\"")?;
    let board = Board::parse(reader.str(board_doc, "\"X.O/.X./...\"")?).map_err(|m| {
        src.error(
            board_doc,
            m,
            "write three rows of X, O or `.`, top to bottom, separated by `/`, like \"X.O/.X./...\"".to_string(),
        )
    })?;
    let mark = |key: &str| table.get(key).map(|d| read_mark(reader, d)).transpose();
    let game = TicTacToe {
        board,
        max: mark("max")?.unwrap_or(Mark::X),
        first: mark("first")?.unwrap_or(Mark::X),
        depth: match table.get("depth") {
            None => 2,
            Some(d) => super::lookahead::read_depth(
                reader,
                d,
                MAX_DEPTH,
                "textbooks look 2 plies ahead: MAX's move and MIN's reply",
            )?,
        },
        symmetry: match table.get("symmetry") {
            None => true,
            Some(d) => reader.bool(d, "symmetry = true")?,
        },
    };
    if let Some(why) = game.unreachable() {
        return Err(src.error(
            board_doc,
            format!("this position cannot arise in a game: {why}"),
            "check the board, or set `first` to the mark that moved first".to_string(),
        ));
    }
    Ok(game)
}

impl TicTacToe {
    /// The instance as a document: `kind`, `board`, `max`, `first`, `depth`, `symmetry`.
    pub fn document(&self) -> crate::document::Table {
        crate::document::Table::new()
            .with("kind", "tictactoe")
            .with("board", self.board.to_string())
            .with("max", self.max.letter().to_string())
            .with("first", self.first.letter().to_string())
            .with("depth", self.depth)
            .with("symmetry", self.symmetry)
    }
}

/// What a generated tic-tac-toe exercise looks like.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// Marks on the board.
    pub marks: (u32, u32),
    /// Merge symmetric siblings.
    pub symmetry: bool,
    /// The lookahead and what it must show.
    pub search: Search,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            marks: (2, 4),
            symmetry: true,
            search: Search::plies(2),
        }
    }
}

impl Params {
    /// Impossible parameters, named.
    pub fn validate(&self) -> Result<(), GenerateError> {
        if self.marks.1 > 7 {
            return Err(GenerateError::Invalid(format!(
                "a board with {} marks leaves nothing to search; use at most 7",
                self.marks.1
            )));
        }
        self.search.check(MAX_DEPTH)
    }

    /// The most nodes a lookahead can have (symmetry ignored), for the size check.
    pub fn max_nodes(&self) -> u64 {
        let empty = 9 - u64::from(self.marks.0.min(9));
        let (mut level, mut total) = (1u64, 1u64);
        for i in 0..u64::from(self.search.depth).min(empty) {
            level *= empty - i;
            total += level;
        }
        total
    }
}

/// A reachable, unfinished position with MAX to move (X moved first), whose
/// lookahead has the cuts and the unique best move asked for.
pub fn generate(p: &Params, seed: u64) -> Result<TicTacToe, GenerateError> {
    p.validate()?;
    first_satisfying(
        "position",
        seed,
        |rng| {
            let marks = rng.between(i64::from(p.marks.0), i64::from(p.marks.1)) as u32;
            random_position(marks, rng).map(|board| {
                let mut game = TicTacToe {
                    board,
                    max: Mark::X,
                    first: Mark::X,
                    depth: p.search.depth,
                    symmetry: p.symmetry,
                };
                game.max = game.to_move();
                // The search is drawn with the position: the work limit counts its nodes.
                let tree = game.lookahead().tree;
                (game, tree)
            })
        },
        |drawn| drawn.as_ref().map_or(9, |(_, tree)| tree.len()),
        |drawn| match drawn {
            None => Some((0, "a game still going on".to_string())),
            Some((_, tree)) => p.search.unmet(tree).map(|m| (1, m)),
        },
    )
    .map(|drawn| drawn.expect("checked").0)
}

/// A reachable, unfinished position with `marks` marks, `X` moving first,
/// drawn by playing random moves; `None` if the game ended on the way.
pub fn random_position(marks: u32, rng: &mut crate::rng::Rng) -> Option<Board> {
    let mut board = Board::empty();
    let mut mark = Mark::X;
    for _ in 0..marks {
        let empty = board.empty_cells();
        let cell = *rng.choose(&empty)?;
        board = board.play(cell, mark);
        if board.finished() {
            return None;
        }
        mark = mark.other();
    }
    Some(board)
}

/// The keys a problem set (or `sample`) shapes a generated position with.
pub const PARAM_KEYS: &[&str] = &["marks", "depth", "symmetry", "min_cuts", "unique_best"];

/// Reads [`Params`] from a problem set's exercise table (or `sample`'s options).
pub fn read_params(
    r: &crate::input::Reader<'_>,
    t: &crate::input::Table<'_>,
) -> Result<Params, crate::input::InputError> {
    let mut p = Params::default();
    if let Some(d) = t.get("marks") {
        p.marks = r.small_range(d)?;
    }
    if let Some(d) = t.get("symmetry") {
        p.symmetry = r.bool(d, "symmetry = true")?;
    }
    p.search = super::lookahead::read_search(r, t, p.search)?;
    r.check_generator(t, p.validate().err())?;
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gametree::minimax;

    fn game(board: &str, depth: u32, symmetry: bool) -> TicTacToe {
        TicTacToe {
            board: Board::parse(board).unwrap(),
            max: Mark::X,
            first: Mark::X,
            depth,
            symmetry,
        }
    }

    #[test]
    fn open_lines_evaluation_by_hand() {
        // Empty board: 8 lines open to each side.
        assert_eq!(Board::empty().eval(Mark::X), Value::Finite(0));
        // X in the centre: all 8 open to X; O keeps the 4 lines not through b2.
        assert_eq!(
            Board::parse(".../.X./...").unwrap().eval(Mark::X),
            Value::Finite(4)
        );
        // X in a corner: 8 − 5 = 3; on an edge: 8 − 6 = 2.
        assert_eq!(
            Board::parse("X../.../...").unwrap().eval(Mark::X),
            Value::Finite(3)
        );
        assert_eq!(
            Board::parse(".X./.../...").unwrap().eval(Mark::X),
            Value::Finite(2)
        );
        // X b2, O a1: open to X are the 8 lines minus the 3 through a1 = 5; open
        // to O are the 4 lines not through b2 (rows 1 and 3, columns a and c).
        assert_eq!(
            Board::parse("O../.X./...").unwrap().eval(Mark::X),
            Value::Finite(1)
        );
        assert_eq!(
            Board::parse("O../.X./...").unwrap().eval(Mark::O),
            Value::Finite(-1)
        );
        assert_eq!(
            Board::parse("XXX/OO./...").unwrap().eval(Mark::X),
            Value::PosInf
        );
        assert_eq!(
            Board::parse("XX./OOO/X..").unwrap().eval(Mark::X),
            Value::NegInf
        );
    }

    #[test]
    fn boards_round_trip_and_bad_boards_are_explained() {
        let b = Board::parse("x.o/.X./...").unwrap();
        assert_eq!(b.to_string(), "X.O/.X./...");
        assert_eq!(
            Board::parse("X.O/.X.").unwrap_err(),
            "the board has 2 rows; it needs 3, separated by `/`"
        );
        assert_eq!(
            Board::parse("X.O/.X/...").unwrap_err(),
            "row 2 has 2 cells; every row needs 3"
        );
        assert_eq!(
            Board::parse("X.O/.Q./...").unwrap_err(),
            "`Q` at b2 is not X, O or `.`"
        );
    }

    #[test]
    fn symmetric_first_moves_merge_into_corner_edge_centre() {
        let look = game(".../.../...", 1, true).lookahead();
        let moves: Vec<String> = look
            .tree
            .children(look.tree.root())
            .map(|c| look.tree.label(c).into_owned())
            .collect();
        assert_eq!(moves, ["a1", "b1", "b2"]);
        let apart = game(".../.../...", 1, false).lookahead();
        assert_eq!(apart.tree.children(apart.tree.root()).len(), 9);
    }

    #[test]
    fn nilsson_two_ply_search_from_the_empty_board_prefers_the_centre() {
        // Nilsson (1980), Fig. 3.8; Chinese course notes "一字棋": with symmetry,
        // a1 backs up −1, b1 −2 and b2 +1, so MAX takes the centre.
        let look = game(".../.../...", 2, true).lookahead();
        let mm = minimax(&look.tree);
        let values: Vec<(String, Value)> = look
            .tree
            .children(look.tree.root())
            .map(|c| (look.tree.label(c).into_owned(), mm.of(&look.tree, c)))
            .collect();
        assert_eq!(
            values,
            [
                ("a1".to_string(), Value::Finite(-1)),
                ("b1".to_string(), Value::Finite(-2)),
                ("b2".to_string(), Value::Finite(1)),
            ]
        );
        // The merged replies: 5 after a corner, 5 after an edge, 2 after the centre.
        let replies: Vec<usize> = look
            .tree
            .children(look.tree.root())
            .map(|c| look.tree.children(c).len())
            .collect();
        assert_eq!(replies, [5, 5, 2]);
    }

    #[test]
    fn perfect_play_from_the_empty_board_is_a_draw() {
        for symmetry in [true, false] {
            let look = game(".../.../...", MAX_DEPTH, symmetry).lookahead();
            assert_eq!(
                minimax(&look.tree).value,
                Value::Finite(0),
                "symmetry {symmetry}"
            );
            if !symmetry {
                // Every game of tic-tac-toe: the known count of 549,946 nodes.
                assert_eq!(look.tree.len(), 549_946);
            }
        }
    }

    #[test]
    fn won_positions_are_leaves_and_the_win_is_found() {
        // X to move can complete a1–c1.
        let look = game("XX./OO./...", 2, true).lookahead();
        let mm = minimax(&look.tree);
        assert_eq!(mm.value, Value::PosInf);
        let best = look.tree.label(mm.best_moves[0]).into_owned();
        assert_eq!(best, "c1");
        let c1 = look.tree.find("c1").unwrap();
        assert_eq!(look.tree.leaf(c1), Some(Value::PosInf));
    }

    #[test]
    fn unreachable_positions_are_named() {
        assert!(game("XX./.../...", 2, true).unreachable().is_some());
        assert!(game("XXX/OOO/X..", 2, true).unreachable().is_some());
        assert!(game("OOO/XX./XX.", 2, true).unreachable().is_some());
        assert_eq!(game("OOO/XX./X..", 2, true).unreachable(), None);
        assert_eq!(game("XO./.../...", 2, true).unreachable(), None);
        let o_first = TicTacToe {
            first: Mark::O,
            ..game("O../.../...", 2, true)
        };
        assert_eq!(o_first.unreachable(), None);
        assert_eq!(o_first.to_move(), Mark::X);
    }

    #[test]
    fn the_eight_images_are_distinct_symmetries() {
        let b = Board::parse("XO./.../...").unwrap();
        let images = b.images();
        for img in &images {
            assert!(img.symmetric_to(&b));
            assert_eq!(img.count(Mark::X), 1);
        }
        let distinct: std::collections::HashSet<String> =
            images.iter().map(ToString::to_string).collect();
        assert_eq!(distinct.len(), 8);
    }
}
