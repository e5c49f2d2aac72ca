//! Othello (reversi) rules and a static evaluation, for teaching minimax.
//!
//! The board is two 64-bit bitboards (one per side), so move generation is a
//! handful of shifts rather than nested loops; the tests check it against a
//! deliberately naive coordinate-based implementation. Square index is
//! `row * 8 + col`, row 0 is the top row ("1") and col 0 is column "a", so
//! `d3` is square 19. Only `std` is used so the file can be copied anywhere.

use std::fmt;

/// A side: Black or White.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    /// Black, who opens the game.
    Black,
    /// White.
    White,
}

impl Side {
    /// The opponent.
    pub fn other(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }

    /// `'B'` or `'W'`, the letter used in the board text format.
    pub fn letter(self) -> char {
        match self {
            Side::Black => 'B',
            Side::White => 'W',
        }
    }

    /// Accepts `B`, `black`, `W`, `white` in any case (surrounding whitespace
    /// ignored), because people type sides by hand in exercise specs, and
    /// `X` / `O`, as the one-line board form writes them.
    pub fn parse(s: &str) -> Option<Side> {
        match s.trim().to_ascii_lowercase().as_str() {
            "b" | "black" | "x" => Some(Side::Black),
            "w" | "white" | "o" => Some(Side::White),
            _ => None,
        }
    }
}

/// The weights of the evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Square weights, index = row * 8 + col.
    pub squares: [i64; 64],
    /// Weight of (legal moves of MAX − legal moves of MIN).
    pub mobility: i64,
    /// Weight of (frontier discs of MAX − frontier discs of MIN). Usually 0 or negative.
    pub frontier: i64,
    /// Weight of (stable discs of MAX − stable discs of MIN), by rule S.
    pub stable: i64,
    /// Weight of (potential mobility of MAX − potential mobility of MIN).
    pub potential: i64,
    /// How a finished game scores.
    pub endgame: Endgame,
}

/// How a finished game (neither side can move) scores, from MAX's side:
/// the course notes give both rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Endgame {
    /// ±INF plus the disc difference (a draw scores 0), with INF above any
    /// unfinished position's e(P) ([`Weights::inf`]): any win beats any
    /// unfinished position and any loss is worse than one.
    #[default]
    Infinity,
    /// The disc difference alone, on e(P)'s own scale: a search can prefer
    /// an unfinished position with good squares to a narrow win.
    Difference,
}

impl Endgame {
    /// The name instance files use: `endgame = "infinity"`.
    pub fn name(self) -> &'static str {
        match self {
            Endgame::Infinity => "infinity",
            Endgame::Difference => "difference",
        }
    }

    /// The rule named `name`.
    pub fn parse(name: &str) -> Option<Endgame> {
        [Endgame::Infinity, Endgame::Difference]
            .into_iter()
            .find(|e| e.name() == name)
    }
}

/// The classic positional table: corners are gold (they can never be
/// flipped), the X-squares diagonally next to them are poison (they hand the
/// corner to the opponent), edges are mildly good.
#[rustfmt::skip]
pub const DEFAULT_SQUARES: [i64; 64] = [
    100,  -5,  10,   5,   5,  10,  -5, 100,
     -5, -45,   1,   1,   1,   1, -45,  -5,
     10,   1,   3,   2,   2,   3,   1,  10,
      5,   1,   2,   1,   1,   2,   1,   5,
      5,   1,   2,   1,   1,   2,   1,   5,
     10,   1,   3,   2,   2,   3,   1,  10,
     -5, -45,   1,   1,   1,   1, -45,  -5,
    100,  -5,  10,   5,   5,  10,  -5, 100,
];

impl Default for Weights {
    /// Square table only: the simplest evaluation students can compute by hand.
    fn default() -> Weights {
        Weights {
            squares: DEFAULT_SQUARES,
            mobility: 0,
            frontier: 0,
            stable: 0,
            potential: 0,
            endgame: Endgame::default(),
        }
    }
}

impl Weights {
    /// The most |e(P)| of an unfinished position can be: every square's
    /// |weight|, and 64 for each counted term's difference (no side has
    /// more than 64 of anything), times its |weight|.
    pub fn bound(&self) -> i64 {
        let squares: i64 = self.squares.iter().map(|w| w.abs()).sum();
        let terms = [self.mobility, self.frontier, self.stable, self.potential]
            .iter()
            .map(|w| 64 * w.abs())
            .sum::<i64>();
        squares + terms
    }

    /// INF of [`Endgame::Infinity`]: the least power of ten above
    /// [`Weights::bound`] + 64, so that INF − 64 (a loss by every disc,
    /// negated) still lies above every unfinished e(P). A round number
    /// keeps `INF + 12` readable as 1012.
    pub fn inf(&self) -> i64 {
        let floor = self.bound() + 64;
        let mut inf = 10;
        while inf <= floor {
            inf *= 10;
        }
        inf
    }

    /// The score of a finished game whose disc difference (MAX − MIN) is `diff`.
    pub fn finished_score(&self, diff: i64) -> i64 {
        match self.endgame {
            Endgame::Difference => diff,
            Endgame::Infinity => diff + diff.signum() * self.inf(),
        }
    }
}

/// The parts of [`Board::eval`], so an answer key can show its arithmetic.
///
/// All parts are filled in even for a finished game (where only the disc
/// counts matter), so an explanation can still mention them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalParts {
    /// Neither side can move: the total is the disc difference.
    pub finished: bool,
    /// Σ square weights of MAX's discs.
    pub squares_max: i64,
    /// Σ square weights of MIN's discs.
    pub squares_min: i64,
    /// MAX's legal moves.
    pub mobility_max: i64,
    /// MIN's legal moves.
    pub mobility_min: i64,
    /// MAX's frontier discs.
    pub frontier_max: i64,
    /// MIN's frontier discs.
    pub frontier_min: i64,
    /// MAX's stable discs (rule S).
    pub stable_max: i64,
    /// MIN's stable discs.
    pub stable_min: i64,
    /// MAX's potential mobility.
    pub potential_max: i64,
    /// MIN's potential mobility.
    pub potential_min: i64,
    /// MAX's discs.
    pub discs_max: i64,
    /// MIN's discs.
    pub discs_min: i64,
    /// Equal to [`Board::eval`].
    pub total: i64,
}

/// The board: 64 squares, index = row * 8 + col, row 0 is the top row ("1"),
/// col 0 is column "a". Stored as one bitboard per side (bit `i` = square `i`);
/// the two never overlap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    black: u64,
    white: u64,
}

/// Every square except column a; masks out discs that wrapped from column h
/// to column a of the next row when shifting east.
const NOT_COL_A: u64 = !0x0101_0101_0101_0101;
/// Every square except column h; the same for westward shifts.
const NOT_COL_H: u64 = !0x8080_8080_8080_8080;

/// One of the eight directions: a rotation moving every bit one step, and
/// the mask that drops what came round (over the board's end, or from one
/// row's edge to the next row's). Row-wrap is the classic bitboard bug, hence
/// the column masks on anything with an east/west component. A rotation, not
/// a shift left or right: one instruction and no branch on the direction.
/// Data, not functions: a search calls these millions of times, and a table
/// of function pointers is called indirectly where it is not unrolled (the
/// practice page's size-optimised build).
#[derive(Clone, Copy, Debug)]
pub(super) struct Step {
    rotate: u32,
    mask: u64,
}

impl Step {
    /// Every bit of `b` moved one step this way.
    #[inline(always)]
    pub(super) const fn of(self, b: u64) -> u64 {
        b.rotate_left(self.rotate) & self.mask
    }

    /// Whether the step goes to higher squares (a shift left).
    fn counts_up(self) -> bool {
        self.rotate < 32
    }
}

/// The step that shifts by `shift` (left when positive) and keeps `mask`:
/// a shift is the rotation with the bits that came round masked off.
const fn step(shift: i8, mask: u64) -> Step {
    let s = shift.unsigned_abs() as u32;
    if shift > 0 {
        Step {
            rotate: s,
            mask: mask & (u64::MAX << s),
        }
    } else {
        Step {
            rotate: 64 - s,
            mask: mask & (u64::MAX >> s),
        }
    }
}

/// The eight directions.
pub(super) const DIRECTIONS: [Step; 8] = [
    step(-8, !0),        // north (row - 1)
    step(8, !0),         // south (row + 1)
    step(1, NOT_COL_A),  // east (col + 1)
    step(-1, NOT_COL_H), // west (col - 1)
    step(-7, NOT_COL_A), // north-east
    step(-9, NOT_COL_H), // north-west
    step(9, NOT_COL_A),  // south-east
    step(7, NOT_COL_H),  // south-west
];

/// Per square, per direction of [`DIRECTIONS`], the squares beyond it up to
/// the board's edge.
const RAYS: [[u64; 8]; 64] = {
    let mut rays = [[0; 8]; 64];
    let mut square = 0;
    while square < 64 {
        let mut d = 0;
        while d < 8 {
            let mut at = DIRECTIONS[d].of(1 << square);
            while at != 0 {
                rays[square][d] |= at;
                at = DIRECTIONS[d].of(at);
            }
            d += 1;
        }
        square += 1;
    }
    rays
};

/// The square indices of the set bits, ascending.
pub(super) fn squares(mut bits: u64) -> impl ExactSizeIterator<Item = usize> {
    (0..bits.count_ones()).map(move |_| {
        let square = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        square
    })
}

/// [`squares`] as a list.
fn squares_of(bits: u64) -> Vec<usize> {
    squares(bits).collect()
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

impl Board {
    /// The standard opening: d4 = W, e4 = B, d5 = B, e5 = W.
    pub fn opening() -> Board {
        // d4 = 27, e4 = 28, d5 = 35, e5 = 36.
        Board {
            black: (1 << 28) | (1 << 35),
            white: (1 << 27) | (1 << 36),
        }
    }

    /// Parses eight rows of eight characters `B`, `W` or `.`, top to bottom, separated by `/`.
    /// Lower-case `b`/`w` accepted; surrounding whitespace of the whole string trimmed; nothing else.
    ///
    /// Errors are one short sentence naming the problem and where it is,
    /// because they end up in front of whoever wrote the exercise.
    pub fn parse(text: &str) -> Result<Board, String> {
        let text = text.trim();
        if !text.contains('/') && text.chars().count() == 64 {
            return Board::parse_line(text);
        }
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() != 8 {
            return Err(format!(
                "the board has {}; it needs 8 separated by `/`",
                plural(rows.len(), "row")
            ));
        }
        let mut board = Board { black: 0, white: 0 };
        for (row, line) in rows.iter().enumerate() {
            let n = line.chars().count();
            if n != 8 {
                return Err(format!(
                    "row {} has {}; every row needs 8",
                    row + 1,
                    plural(n, "square")
                ));
            }
            for (col, ch) in line.chars().enumerate() {
                let bit = 1u64 << (row * 8 + col);
                match ch {
                    'B' | 'b' => board.black |= bit,
                    'W' | 'w' => board.white |= bit,
                    '.' => {}
                    _ => {
                        return Err(format!(
                            "`{ch}` in row {}, column {} is not B, W or `.`",
                            row + 1,
                            (b'a' + col as u8) as char
                        ));
                    }
                }
            }
        }
        Ok(board)
    }

    /// Parses the common one-line form: 64 squares, a1 to h1 then each row
    /// down, black `X` (or `B`, `*`), white `O` (or `W`), empty `-` (or `.`),
    /// as Edax, GGS and most engines and course assignments write boards.
    fn parse_line(text: &str) -> Result<Board, String> {
        let mut board = Board { black: 0, white: 0 };
        for (i, ch) in text.chars().enumerate() {
            match ch {
                'X' | 'x' | 'B' | 'b' | '*' => board.black |= 1 << i,
                'O' | 'o' | 'W' | 'w' => board.white |= 1 << i,
                '-' | '.' | '_' => {}
                _ => {
                    return Err(format!(
                        "`{ch}` (square {}) is not X, O or `-`",
                        square_name(i)
                    ));
                }
            }
        }
        Ok(board)
    }

    /// The one-line form: 64 of `X` (black), `O` (white) and `-`, a1 to h8
    /// row by row.
    pub fn line(&self) -> String {
        (0..64)
            .map(|i| match self.get(i) {
                Some(Side::Black) => 'X',
                Some(Side::White) => 'O',
                None => '-',
            })
            .collect()
    }

    /// The disc on `square`, if any. Panics if `square >= 64`.
    pub fn get(&self, square: usize) -> Option<Side> {
        assert!(square < 64, "square {square} is off the board");
        let bit = 1u64 << square;
        if self.black & bit != 0 {
            Some(Side::Black)
        } else if self.white & bit != 0 {
            Some(Side::White)
        } else {
            None
        }
    }

    pub(super) fn bits(&self, side: Side) -> u64 {
        match side {
            Side::Black => self.black,
            Side::White => self.white,
        }
    }

    pub(super) fn empty_bits(&self) -> u64 {
        !(self.black | self.white)
    }

    /// Number of `side`'s discs.
    pub fn count(&self, side: Side) -> u32 {
        self.bits(side).count_ones()
    }

    /// Number of empty squares.
    #[cfg(test)]
    pub fn empty_count(&self) -> u32 {
        self.empty_bits().count_ones()
    }

    /// Every legal move of `side` as a bit set, without the flips: for each
    /// direction, grow runs of opponent discs outward from our discs and see
    /// where a run ends on an empty square. Six growth steps suffice since a
    /// run holds at most six discs.
    pub(super) fn legal_bits(&self, side: Side) -> u64 {
        let own = self.bits(side);
        let opp = self.bits(side.other());
        let empty = self.empty_bits();
        let mut legal = 0;
        for step in DIRECTIONS {
            let mut run = step.of(own) & opp;
            for _ in 0..5 {
                run |= step.of(run) & opp;
            }
            legal |= step.of(run) & empty;
        }
        legal
    }

    /// The discs `side` would flip by playing `square` (0 if none or the
    /// square is occupied): in each direction, a run of opponent discs counts
    /// only if it is closed by one of our own discs.
    fn flip_bits(&self, side: Side, square: usize) -> u64 {
        let start = 1u64 << square;
        if self.empty_bits() & start == 0 {
            return 0;
        }
        let own = self.bits(side);
        let opp = self.bits(side.other());
        let mut flips = 0;
        for (step, &ray) in DIRECTIONS.iter().zip(&RAYS[square]) {
            // The nearest square along the ray that is not the opponent's:
            // the lowest bit of the ray's blockers when the direction counts
            // up the board, the highest when it counts down. The opponent's
            // run before it flips when that square is ours; when it is empty,
            // or the ray ends first, nothing flips.
            let blockers = ray & !opp;
            let (nearest, run) = if step.counts_up() {
                let nearest = blockers & blockers.wrapping_neg();
                (nearest, ray & nearest.wrapping_sub(1))
            } else {
                let nearest = (1u64 << 63).wrapping_shr(blockers.leading_zeros()) & blockers;
                (nearest, ray & !(nearest << 1).wrapping_sub(1))
            };
            if nearest & own != 0 {
                flips |= run;
            }
        }
        flips
    }

    /// The squares `side` can play, in order (what [`Board::moves`] lists,
    /// without the flips: a search needs only these).
    pub fn legal_squares(&self, side: Side) -> Vec<usize> {
        squares_of(self.legal_bits(side))
    }

    /// How many legal moves `side` has.
    pub fn move_count(&self, side: Side) -> usize {
        self.legal_bits(side).count_ones() as usize
    }

    /// Legal moves of `side` in square order (row-major: a1, b1, …, h1, a2, …), each with the
    /// squares it flips, sorted ascending. A move is legal when it flips at least one disc.
    pub fn moves(&self, side: Side) -> Vec<(usize, Vec<usize>)> {
        squares_of(self.legal_bits(side))
            .into_iter()
            .map(|sq| (sq, squares_of(self.flip_bits(side, sq))))
            .collect()
    }

    /// The board after `side` plays `square` (which must be legal): the disc placed and the flips made.
    ///
    /// Panics on an illegal move rather than returning a silently wrong
    /// board, since that would only ever be a bug in the caller.
    pub fn play(&self, side: Side, square: usize) -> Board {
        assert!(square < 64, "square {square} is off the board");
        let flips = self.flip_bits(side, square);
        assert!(
            flips != 0,
            "{} {} is not a legal move",
            side.letter(),
            square_name(square)
        );
        let placed = (1u64 << square) | flips;
        match side {
            Side::Black => Board {
                black: self.black | placed,
                white: self.white & !flips,
            },
            Side::White => Board {
                black: self.black & !flips,
                white: self.white | placed,
            },
        }
    }

    /// Discs of `side` next to (8-neighbourhood) at least one empty square.
    /// Fewer is better: frontier discs give the opponent moves.
    pub fn frontier(&self, side: Side) -> u32 {
        self.frontier_bits(side).count_ones()
    }

    /// Neither side has a legal move.
    pub fn finished(&self) -> bool {
        self.legal_bits(Side::Black) == 0 && self.legal_bits(Side::White) == 0
    }

    /// The static evaluation from `max`'s point of view:
    /// a finished game scores by [`Weights::finished_score`] of the disc
    /// difference count(max) − count(min); otherwise Σ weight of max's squares − Σ weight of min's squares
    ///   + mobility × (moves(max).len() − moves(min).len())
    ///   + frontier × (frontier(max) − frontier(min))
    ///   + stable × (stable(max) − stable(min))
    ///   + potential × (potential mobility(max) − potential mobility(min)).
    pub fn eval(&self, max: Side, w: &Weights) -> i64 {
        let min = max.other();
        let (legal_max, legal_min) = (self.legal_bits(max), self.legal_bits(min));
        if legal_max == 0 && legal_min == 0 {
            let diff = i64::from(self.count(max)) - i64::from(self.count(min));
            return w.finished_score(diff);
        }
        // Only the weighted terms are counted: rule S and potential mobility
        // cost more than the rest of a search's evaluation.
        let squares = |side: Side| -> i64 {
            let (mut bits, mut sum) = (self.bits(side), 0);
            while bits != 0 {
                sum += w.squares[bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
            sum
        };
        let diff = |a: u32, b: u32| i64::from(a) - i64::from(b);
        let mut total = squares(max) - squares(min);
        if w.mobility != 0 {
            total += w.mobility * diff(legal_max.count_ones(), legal_min.count_ones());
        }
        if w.frontier != 0 {
            total += w.frontier * diff(self.frontier(max), self.frontier(min));
        }
        if w.stable != 0 {
            let stable = self.stable_bits();
            total += w.stable
                * diff(
                    (stable & self.bits(max)).count_ones(),
                    (stable & self.bits(min)).count_ones(),
                );
        }
        if w.potential != 0 {
            total += w.potential * diff(self.potential_mobility(max), self.potential_mobility(min));
        }
        total
    }

    /// The parts of that evaluation, for an answer key's explanation.
    pub fn eval_parts(&self, max: Side, w: &Weights) -> EvalParts {
        let min = max.other();
        let square_sum = |side: Side| -> i64 {
            squares_of(self.bits(side))
                .into_iter()
                .map(|sq| w.squares[sq])
                .sum()
        };
        let squares_max = square_sum(max);
        let squares_min = square_sum(min);
        let mobility_max = i64::from(self.legal_bits(max).count_ones());
        let mobility_min = i64::from(self.legal_bits(min).count_ones());
        let frontier_max = i64::from(self.frontier(max));
        let frontier_min = i64::from(self.frontier(min));
        let stable = self.stable_bits();
        let stable_max = i64::from((stable & self.bits(max)).count_ones());
        let stable_min = i64::from((stable & self.bits(min)).count_ones());
        let potential_max = i64::from(self.potential_mobility(max));
        let potential_min = i64::from(self.potential_mobility(min));
        let discs_max = i64::from(self.count(max));
        let discs_min = i64::from(self.count(min));
        let finished = mobility_max == 0 && mobility_min == 0;
        let total = if finished {
            w.finished_score(discs_max - discs_min)
        } else {
            squares_max - squares_min
                + w.mobility * (mobility_max - mobility_min)
                + w.frontier * (frontier_max - frontier_min)
                + w.stable * (stable_max - stable_min)
                + w.potential * (potential_max - potential_min)
        };
        EvalParts {
            finished,
            squares_max,
            squares_min,
            mobility_max,
            mobility_min,
            frontier_max,
            frontier_min,
            stable_max,
            stable_min,
            potential_max,
            potential_min,
            discs_max,
            discs_min,
            total,
        }
    }
}

impl fmt::Display for Board {
    /// The `parse` format, so a board can round-trip through exercise text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..8 {
            if row > 0 {
                f.write_str("/")?;
            }
            for col in 0..8 {
                let ch = self.get(row * 8 + col).map_or('.', Side::letter);
                write!(f, "{ch}")?;
            }
        }
        Ok(())
    }
}

/// `d3` for square 19 (column letter a–h, row number 1–8 from the top).
/// Panics if `square >= 64`.
pub fn square_name(square: usize) -> String {
    assert!(square < 64, "square {square} is off the board");
    super::super::square_name(8, square)
}

/// The inverse of `square_name`, case-insensitive, trimmed; None if not a square.
pub fn parse_square(name: &str) -> Option<usize> {
    super::super::parse_square(8, name)
}

/// A reachable position: plays `plies` random legal moves from the opening (Black first, a side
/// without a move passes; stops early if the game ends), choosing each move with `pick(n)` which
/// returns an index in 0..n. Returns the board and the side to move.
///
/// Passes do not count as plies. The side returned is the one that actually
/// moves next: if the side whose turn it nominally is must pass, the other
/// side is returned (for a finished game, the side whose turn it was).
/// Panics if `pick(n)` returns an index outside `0..n`.
pub fn random_position(plies: u32, pick: &mut dyn FnMut(usize) -> usize) -> (Board, Side) {
    let mut board = Board::opening();
    let mut side = Side::Black;
    let mut played = 0;
    while played < plies {
        let legal = board.legal_bits(side);
        let moves = legal.count_ones() as usize;
        if moves == 0 {
            if board.legal_bits(side.other()) == 0 {
                break; // game over
            }
            side = side.other(); // pass
            continue;
        }
        let i = pick(moves);
        // The i-th legal square in square order, read off the bits (no list
        // made: this runs for every ply of every position a generator draws).
        let square = squares(legal)
            .nth(i)
            .unwrap_or_else(|| panic!("pick({moves}) returned {i}, outside 0..{moves}"));
        board = board.play(side, square);
        side = side.other();
        played += 1;
    }
    if board.legal_bits(side) == 0 && board.legal_bits(side.other()) != 0 {
        side = side.other();
    }
    (board, side)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-line form and the rows form read as the same board, over
    /// 2,000 random positions; the line's alphabet is X, O and `-`.
    #[test]
    fn a_board_line_reads_back_as_the_board() {
        let mut state = 5u64;
        for plies in 0..2000u32 {
            let (b, _) = random_position(plies % 60, &mut |n| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
                ((state >> 33) as usize) % n
            });
            let line = b.line();
            assert_eq!(line.len(), 64);
            assert!(line.chars().all(|c| matches!(c, 'X' | 'O' | '-')));
            assert_eq!(Board::parse(&line), Ok(b));
            assert_eq!(Board::parse(&b.to_string()), Ok(b));
            let dotted: String = line
                .chars()
                .map(|c| match c {
                    'X' => 'b',
                    'O' => 'w',
                    _ => '.',
                })
                .collect();
            assert_eq!(Board::parse(&dotted), Ok(b));
        }
        assert!(Board::parse(&"-".repeat(63)).is_err());
    }

    fn sq(name: &str) -> usize {
        parse_square(name).unwrap_or_else(|| panic!("bad square {name}"))
    }

    fn board(text: &str) -> Board {
        Board::parse(text).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn side_basics() {
        assert_eq!(Side::Black.other(), Side::White);
        assert_eq!(Side::White.other(), Side::Black);
        assert_eq!(Side::Black.letter(), 'B');
        assert_eq!(Side::White.letter(), 'W');
        // X and O: the one-line board's letters (Edax, GGS).
        for s in ["B", "b", "black", "BLACK", "Black", "X", "x"] {
            assert_eq!(Side::parse(s), Some(Side::Black), "{s}");
        }
        for s in ["W", "w", "white", "WHITE", "White", "O", "o"] {
            assert_eq!(Side::parse(s), Some(Side::White), "{s}");
        }
        for s in ["", "xo", "bl", "blackk", "wh", "0"] {
            assert_eq!(Side::parse(s), None, "{s}");
        }
    }

    #[test]
    fn opening_moves() {
        let b = Board::opening();
        assert_eq!(
            b.to_string(),
            "......../......../......../...WB.../...BW.../......../......../........"
        );
        assert_eq!(
            b.moves(Side::Black),
            vec![
                (19, vec![27]), // d3 flips d4
                (26, vec![27]), // c4 flips d4
                (37, vec![36]), // f5 flips e5
                (44, vec![36]), // e6 flips e5
            ]
        );
        assert_eq!([sq("d3"), sq("c4"), sq("f5"), sq("e6")], [19, 26, 37, 44]);
        assert_eq!(
            b.moves(Side::White),
            vec![
                (sq("e3"), vec![sq("e4")]),
                (sq("f4"), vec![sq("e4")]),
                (sq("c5"), vec![sq("d5")]),
                (sq("d6"), vec![sq("d5")]),
            ]
        );
        assert_eq!(b.count(Side::Black), 2);
        assert_eq!(b.count(Side::White), 2);
        assert_eq!(b.empty_count(), 60);
        assert!(!b.finished());
    }

    #[test]
    fn after_black_d3() {
        let b = Board::opening().play(Side::Black, sq("d3"));
        // d3 placed; d4 (between d3 and the black d5) flipped to black.
        assert_eq!(
            b.to_string(),
            "......../......../...B..../...BB.../...BW.../......../......../........"
        );
        assert_eq!(b.count(Side::Black), 4);
        assert_eq!(b.count(Side::White), 1);
        assert_eq!(b.empty_count(), 59);
    }

    #[test]
    fn flips_in_three_directions() {
        // Black plays d4: south over d5 to d6, east over e4 to f4, south-east
        // over e5 to f6. The white c4 to the west has nothing behind it (b4 is
        // empty) so it stays white.
        let b = board("......../......../......../..W.WB../...WW.../...B.B../......../........");
        let moves = b.moves(Side::Black);
        let d4 = moves
            .iter()
            .find(|(s, _)| *s == sq("d4"))
            .expect("d4 legal");
        assert_eq!(d4.1, vec![sq("e4"), sq("d5"), sq("e5")]);
        let after = b.play(Side::Black, sq("d4"));
        assert_eq!(
            after.to_string(),
            "......../......../......../..WBBB../...BB.../...B.B../......../........"
        );
        assert_eq!(after.get(sq("c4")), Some(Side::White));
    }

    #[test]
    fn run_to_the_edge_is_not_a_flip() {
        // White a2..d2 runs into the west edge; the square "before" a2 in
        // memory is h1, holding a black disc, so a bitboard that wraps rows
        // would wrongly let Black play e2. Likewise f3..h3 wraps east to the
        // black a4. Neither is legal, and Black has no move at all.
        let b = board(".......B/WWWW..../.....WWW/B......./......../......../......../........");
        assert_eq!(b.moves(Side::Black), vec![]);
        assert_eq!(b.flip_bits(Side::Black, sq("e2")), 0);
        assert_eq!(b.flip_bits(Side::Black, sq("e3")), 0);
        // Runs that point off the top edge from row 2 are not anchored either.
        let c = board("WWWWWWWB/......../......../......../......../......../......../........");
        assert_eq!(c.moves(Side::Black), vec![]);
        // Control: the same run with a1 empty is anchored by h1, so a1 flips all six.
        let d = board(".WWWWWWB/......../......../......../......../......../......../........");
        assert_eq!(d.moves(Side::Black), vec![(0, (1..7).collect())]);
    }

    #[test]
    #[should_panic(expected = "not a legal move")]
    fn illegal_play_panics() {
        Board::opening().play(Side::Black, sq("a1"));
    }

    #[test]
    fn eval_opening_and_after_d3() {
        let w = Weights::default();
        let open = Board::opening();
        assert_eq!(open.eval(Side::Black, &w), 0);
        assert_eq!(open.eval(Side::White, &w), 0);

        let b = open.play(Side::Black, sq("d3"));
        // Black: d3 (2) + d4 (1) + e4 (1) + d5 (1) = 5; White: e5 (1) = 1.
        // Mobility and frontier weights are 0, so eval = 5 - 1 = 4.
        assert_eq!(b.eval(Side::Black, &w), 4);
        assert_eq!(b.eval(Side::White, &w), -4);
        let p = b.eval_parts(Side::Black, &w);
        assert_eq!((p.squares_max, p.squares_min), (5, 1));
        assert_eq!((p.discs_max, p.discs_min), (4, 1));
        assert!(!p.finished);
        assert_eq!(p.total, b.eval(Side::Black, &w));
        // The mobility parts are filled in even with weight 0: Black has f5,
        // e6, f6; White has c3, e3, c5.
        assert_eq!((p.mobility_max, p.mobility_min), (3, 3));
        // Every disc of that little cluster touches an empty square.
        assert_eq!((p.frontier_max, p.frontier_min), (4, 1));
    }

    #[test]
    fn mobility_and_frontier_terms() {
        // B a1, B a2, W b1. Black can play c1 (over b1, anchored by a1).
        // White has nothing: b1 -> a1 hits the edge, b1 -> a2 too.
        // Frontier: a1 touches b2, a2 touches a3, b1 touches c1: B 2, W 1.
        let b = board("BW....../B......./......../......../......../......../......../........");
        let w = Weights {
            mobility: 10,
            frontier: -3,
            ..Weights::default()
        };
        let p = b.eval_parts(Side::Black, &w);
        assert!(!p.finished);
        assert_eq!((p.mobility_max, p.mobility_min), (1, 0));
        assert_eq!((p.frontier_max, p.frontier_min), (2, 1));
        // Squares: a1 100 + a2 -5 = 95 against b1 -5, i.e. 100.
        assert_eq!((p.squares_max, p.squares_min), (95, -5));
        // 100 + 10 × (1 − 0) − 3 × (2 − 1) = 107.
        assert_eq!(p.total, 107);
        assert_eq!(b.eval(Side::Black, &w), 107);
        // From White's side every term changes sign.
        assert_eq!(b.eval(Side::White, &w), -107);
        assert_eq!(b.frontier(Side::Black), 2);
        assert_eq!(b.frontier(Side::White), 1);
    }

    #[test]
    fn frontier_ignores_enclosed_discs() {
        // A 3×3 black block in the top-left corner walled in by white: no black
        // disc touches an empty square, so Black's frontier is 0.
        let b = board("BBBW..../BBBW..../BBBW..../WWWW..../......../......../......../........");
        assert_eq!(b.frontier(Side::Black), 0);
        // White d1, d2, d3, d4 touch column e; a4, b4, c4 touch row 5.
        assert_eq!(b.frontier(Side::White), 7);
    }

    #[test]
    fn finished_games_score_by_discs() {
        let w = Weights {
            endgame: Endgame::Difference,
            ..Weights::default()
        };
        // Full board: 40 black (rows 1-5), 24 white (rows 6-8).
        let full = board("BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/WWWWWWWW/WWWWWWWW/WWWWWWWW");
        assert!(full.finished());
        assert_eq!(full.eval(Side::Black, &w), 16);
        assert_eq!(full.eval(Side::White, &w), -16);
        // ±INF + difference (the default): INF = 1000 for the default table.
        let inf = Weights::default();
        assert_eq!(full.eval(Side::Black, &inf), 1016);
        assert_eq!(full.eval(Side::White, &inf), -1016);
        let draw = board("BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/WWWWWWWW/WWWWWWWW/WWWWWWWW/WWWWWWWW");
        assert_eq!(draw.eval(Side::Black, &inf), 0);
        // A lone black corner: no one can move. The squares alone would say
        // 100; the result is 1 disc to 0.
        let lone = board("B......./......../......../......../......../......../......../........");
        assert!(lone.finished());
        let p = lone.eval_parts(Side::Black, &w);
        assert!(p.finished);
        assert_eq!(p.squares_max, 100);
        assert_eq!(p.total, 1);
        assert_eq!(lone.eval(Side::White, &w), -1);
        // Opening is not finished; neither is a board where only one side can move.
        assert!(!Board::opening().finished());
        let one_sided =
            board("BW....../B......./......../......../......../......../......../........");
        assert!(!one_sided.finished());
    }

    /// Under ±INF + difference, every win scores above every unfinished
    /// position and every loss below, whatever the weights (up to the
    /// files' limit of 10^6): checked on the positions of 300 random games
    /// under random weights.
    #[test]
    fn a_win_beats_every_unfinished_position() {
        let mut rng = XorShift(0x5DEE_CE66_D1CE_4E5B);
        let mut checked = (0, 0);
        for game in 0..300 {
            let big = [10, 1000, 1_000_000][game % 3] as usize;
            let mut weight = || rng.below(2 * big + 1) as i64 - big as i64;
            let w = Weights {
                squares: std::array::from_fn(|_| weight()),
                mobility: weight(),
                frontier: weight(),
                stable: weight(),
                potential: weight(),
                endgame: Endgame::Infinity,
            };
            let inf = w.inf();
            assert!(inf > w.bound() + 64 && inf <= 10 * (w.bound() + 64));
            let (mut b, mut side) = (Board::opening(), Side::Black);
            while !b.finished() {
                for max in [Side::Black, Side::White] {
                    assert!(b.eval(max, &w).abs() <= w.bound(), "{b}");
                    // The search's evaluation counts only the weighted terms.
                    assert_eq!(b.eval(max, &w), b.eval_parts(max, &w).total);
                    let plain = Weights::default();
                    assert_eq!(b.eval(max, &plain), b.eval_parts(max, &plain).total);
                }
                checked.0 += 1;
                let moves = b.moves(side);
                if !moves.is_empty() {
                    b = b.play(side, moves[rng.below(moves.len())].0);
                }
                side = side.other();
            }
            for max in [Side::Black, Side::White] {
                let diff = i64::from(b.count(max)) - i64::from(b.count(max.other()));
                let score = b.eval(max, &w);
                assert_eq!(score.signum(), diff.signum());
                assert!(diff == 0 || score.abs() > w.bound(), "{b}");
                checked.1 += 1;
            }
        }
        assert!(checked.0 > 300 * 50 && checked.1 == 600, "{checked:?}");
    }

    #[test]
    fn parse_display_round_trip() {
        let text = "B.W...../.bw...../......../...WB.../...BW.../......../......../.......W";
        let b = board(text);
        assert_eq!(b.get(0), Some(Side::Black));
        assert_eq!(b.get(9), Some(Side::Black));
        assert_eq!(b.get(10), Some(Side::White));
        assert_eq!(b.get(63), Some(Side::White));
        assert_eq!(b.get(1), None);
        let shown = b.to_string();
        assert_eq!(shown, text.to_uppercase());
        assert_eq!(board(&shown), b);
        assert_eq!(board(&format!("  \n{shown}\t ")), b);
        assert_eq!(board(&Board::opening().to_string()), Board::opening());
    }

    #[test]
    fn parse_errors() {
        let err = |t: &str| Board::parse(t).unwrap_err();
        assert_eq!(
            err("......../......../......../......../......../......../........"),
            "the board has 7 rows; it needs 8 separated by `/`"
        );
        assert_eq!(err(""), "the board has 1 row; it needs 8 separated by `/`");
        assert_eq!(
            err("......../......../......../......../......../......../......../......../"),
            "the board has 9 rows; it needs 8 separated by `/`"
        );
        assert_eq!(
            err("......../......../......./......../......../......../......../........"),
            "row 3 has 7 squares; every row needs 8"
        );
        assert_eq!(
            err("......../......../......../......../......../......../......../."),
            "row 8 has 1 square; every row needs 8"
        );
        assert_eq!(
            err("......../..x...../......../......../......../......../......../........"),
            "`x` in row 2, column c is not B, W or `.`"
        );
        // Only the whole string is trimmed, not the inside.
        assert_eq!(
            err("......../.... .../......../......../......../......../......../........"),
            "` ` in row 2, column e is not B, W or `.`"
        );
    }

    #[test]
    fn square_names() {
        assert_eq!(square_name(19), "d3");
        assert_eq!(square_name(0), "a1");
        assert_eq!(square_name(7), "h1");
        assert_eq!(square_name(56), "a8");
        assert_eq!(square_name(63), "h8");
        for s in 0..64 {
            let name = square_name(s);
            assert_eq!(parse_square(&name), Some(s));
            assert_eq!(parse_square(&format!(" {} ", name.to_uppercase())), Some(s));
        }
        for bad in ["", "a", "a0", "a9", "i1", "d33", "3d", "é1"] {
            assert_eq!(parse_square(bad), None, "{bad}");
        }
    }

    /// xorshift64: tiny, deterministic, good enough to wander the game tree.
    struct XorShift(u64);
    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    fn grid(b: &Board) -> [Option<Side>; 64] {
        std::array::from_fn(|s| b.get(s))
    }

    /// The rules written as plainly as possible, with explicit coordinates.
    fn naive_moves(b: &Board, side: Side) -> Vec<(usize, Vec<usize>)> {
        let g = grid(b);
        let mut out = Vec::new();
        for r in 0..8i32 {
            for c in 0..8i32 {
                if g[(r * 8 + c) as usize].is_some() {
                    continue;
                }
                let mut flips = Vec::new();
                for dr in -1..=1i32 {
                    for dc in -1..=1i32 {
                        if dr == 0 && dc == 0 {
                            continue;
                        }
                        let mut run = Vec::new();
                        let (mut rr, mut cc) = (r + dr, c + dc);
                        while (0..8).contains(&rr) && (0..8).contains(&cc) {
                            match g[(rr * 8 + cc) as usize] {
                                Some(s) if s == side.other() => run.push((rr * 8 + cc) as usize),
                                Some(_) => {
                                    flips.append(&mut run);
                                    break;
                                }
                                None => break,
                            }
                            rr += dr;
                            cc += dc;
                        }
                    }
                }
                if !flips.is_empty() {
                    flips.sort_unstable();
                    out.push(((r * 8 + c) as usize, flips));
                }
            }
        }
        out
    }

    fn naive_frontier(b: &Board, side: Side) -> u32 {
        let g = grid(b);
        let mut n = 0;
        for r in 0..8i32 {
            for c in 0..8i32 {
                if g[(r * 8 + c) as usize] != Some(side) {
                    continue;
                }
                let touches_empty = (-1..=1).any(|dr: i32| {
                    (-1..=1).any(|dc: i32| {
                        let (rr, cc) = (r + dr, c + dc);
                        (0..8).contains(&rr)
                            && (0..8).contains(&cc)
                            && g[(rr * 8 + cc) as usize].is_none()
                    })
                });
                n += u32::from(touches_empty);
            }
        }
        n
    }

    #[test]
    fn differential_against_naive() {
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        let mut positions = 0;
        for _ in 0..2000 {
            let mut b = Board::opening();
            let mut side = Side::Black;
            loop {
                positions += 1;
                for s in [Side::Black, Side::White] {
                    assert_eq!(b.moves(s), naive_moves(&b, s), "{b} {s:?}");
                    assert_eq!(b.frontier(s), naive_frontier(&b, s), "{b} {s:?}");
                }
                assert_eq!(
                    b.count(Side::Black) + b.count(Side::White) + b.empty_count(),
                    64
                );
                let moves = b.moves(side);
                for (square, flips) in &moves {
                    let after = b.play(side, *square);
                    let mut expected = grid(&b);
                    for &f in flips.iter().chain([square]) {
                        expected[f] = Some(side);
                    }
                    assert_eq!(grid(&after), expected, "{b} {side:?} {square}");
                    let n = flips.len() as u32;
                    assert_eq!(after.count(side), b.count(side) + 1 + n);
                    assert_eq!(after.count(side.other()), b.count(side.other()) - n);
                    assert_eq!(after.empty_count(), b.empty_count() - 1);
                }
                if moves.is_empty() {
                    if b.finished() {
                        break;
                    }
                } else {
                    let (square, _) = moves[rng.below(moves.len())];
                    b = b.play(side, square);
                }
                side = side.other();
            }
            let diff = i64::from(b.count(Side::Black)) - i64::from(b.count(Side::White));
            let by_discs = Weights {
                endgame: Endgame::Difference,
                ..Weights::default()
            };
            assert_eq!(b.eval(Side::Black, &by_discs), diff);
            let inf = Weights::default().inf();
            assert_eq!(inf, 1000, "the default table's weights sum to 788");
            let expected = match diff.cmp(&0) {
                std::cmp::Ordering::Greater => inf + diff,
                std::cmp::Ordering::Less => -inf + diff,
                std::cmp::Ordering::Equal => 0,
            };
            assert_eq!(b.eval(Side::Black, &Weights::default()), expected);
        }
        assert!(positions > 2000 * 50, "games ended suspiciously early");
    }

    #[test]
    fn random_position_is_deterministic() {
        let seq = [3usize, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9];
        let run = |plies| {
            let mut i = 0;
            random_position(plies, &mut |n| {
                let v = seq[i % seq.len()] % n;
                i += 1;
                v
            })
        };
        assert_eq!(run(20), run(20));
        assert_ne!(run(20).0, run(21).0);
        assert_eq!(run(0), (Board::opening(), Side::Black));
        // Always the first move: Black d3, then White to move.
        let (b, s) = random_position(1, &mut |_| 0);
        assert_eq!(b, Board::opening().play(Side::Black, sq("d3")));
        assert_eq!(s, Side::White);
        let (b, _) = random_position(2, &mut |_| 0);
        assert_eq!(b.count(Side::Black) + b.count(Side::White), 6);
        // Far more plies than a game can hold: stops at the end.
        let (b, _) = run(1000);
        assert!(b.finished());
        // Passes are not plies: every ply adds exactly one disc, so an
        // unfinished position after n plies has 4 + n discs. Late positions
        // from many seeds make sure some games include a pass, and some stop
        // just when the side to move has to pass.
        for seed in 1..=300u64 {
            let mut rng = XorShift(seed.wrapping_mul(0x2545_F491_4F6C_DD1D));
            let plies = 50 + (seed % 10) as u32;
            let (b, s) = random_position(plies, &mut |n| rng.below(n));
            if !b.finished() {
                let discs = b.count(Side::Black) + b.count(Side::White);
                assert_eq!(discs, 4 + plies, "seed {seed}");
                // A side that would have to pass is never returned as to move.
                assert!(!b.moves(s).is_empty(), "seed {seed}");
            }
        }
        // The side returned can move whenever the game is still on.
        for plies in 0..60 {
            let (b, s) = run(plies);
            assert!(b.finished() || !b.moves(s).is_empty(), "{plies}");
        }
    }
}
