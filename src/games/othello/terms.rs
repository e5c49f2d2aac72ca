//! The terms of a position the course notes teach beside the square weights
//! (docs/conventions.md, "Othello terms"): stable discs by rule S (稳定子),
//! frontier and interior discs (边缘子/内部子), current and potential
//! mobility (行动力), and parity: the empty squares and their regions (奇偶性).

use super::board::{Board, DIRECTIONS, Side};

/// Where a position's terms lie on the board, for a key: each a bit set
/// over the squares (bit `i` = square `i`, a1 = 0).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Terms {
    /// The stable discs of both sides, by rule S.
    pub stable: u64,
    /// The frontier discs of both sides.
    pub frontier: u64,
    /// The regions of empty squares, in the order of their first square.
    pub regions: Vec<u64>,
}

impl Terms {
    /// The terms of `board`, regions `connectivity`-connected (4 or 8).
    pub fn of(board: &Board, connectivity: u8) -> Terms {
        Terms {
            stable: board.stable_bits(),
            frontier: board.frontier_bits(Side::Black) | board.frontier_bits(Side::White),
            regions: board.empty_regions(connectivity == 8),
        }
    }

    /// The regions with an odd number of squares.
    pub fn odd_regions(&self) -> usize {
        self.regions
            .iter()
            .filter(|r| r.count_ones() % 2 == 1)
            .count()
    }
}

/// The four lines through a square, as (row, column) steps one way.
const LINES: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

fn at(square: usize, dr: i32, dc: i32) -> Option<usize> {
    let (r, c) = ((square / 8) as i32 + dr, (square % 8) as i32 + dc);
    ((0..8).contains(&r) && (0..8).contains(&c)).then(|| (r * 8 + c) as usize)
}

impl Board {
    /// The stable discs of both sides by rule S, as a bit set: a disc is
    /// stable when, along each of its four lines, the line is full (no move
    /// can be made on it, so nothing along it flips), or one of its two
    /// neighbours on the line is the board's edge or a stable disc of its own
    /// colour (so it can never be flanked from that side). Applied until
    /// nothing changes, from no stable disc: occupied corners come first.
    /// Every disc it finds can never be flipped; it may miss some that
    /// cannot either (a lower bound, as the notes say).
    pub fn stable_bits(&self) -> u64 {
        let empty = self.empty_bits();
        let full = |square: usize, (dr, dc): (i32, i32)| {
            [(dr, dc), (-dr, -dc)].iter().all(|&(dr, dc)| {
                let mut s = square;
                while let Some(next) = at(s, dr, dc) {
                    if empty & (1 << next) != 0 {
                        return false;
                    }
                    s = next;
                }
                true
            })
        };
        let mut stable = 0u64;
        loop {
            let mut grew = false;
            for side in [Side::Black, Side::White] {
                let own = self.bits(side);
                let mut rest = own & !stable;
                while rest != 0 {
                    let square = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    let shielded = |dr: i32, dc: i32| {
                        at(square, dr, dc).is_none_or(|n| stable & own & (1 << n) != 0)
                    };
                    if LINES.iter().all(|&(dr, dc)| {
                        full(square, (dr, dc)) || shielded(dr, dc) || shielded(-dr, -dc)
                    }) {
                        stable |= 1 << square;
                        grew = true;
                    }
                }
            }
            if !grew {
                return stable;
            }
        }
    }

    /// `side`'s stable discs by rule S.
    pub fn stable(&self, side: Side) -> u32 {
        (self.stable_bits() & self.bits(side)).count_ones()
    }

    /// `side`'s frontier discs as a bit set: next to an empty square (8-neighbourhood).
    pub fn frontier_bits(&self, side: Side) -> u64 {
        let empty = self.empty_bits();
        let near_empty = DIRECTIONS.iter().fold(0, |acc, step| acc | step.of(empty));
        self.bits(side) & near_empty
    }

    /// `side`'s current mobility: its legal moves.
    pub fn mobility(&self, side: Side) -> u32 {
        self.legal_bits(side).count_ones()
    }

    /// `side`'s potential mobility as a bit set (Norvig, PAIP ch. 18): the
    /// empty squares next to (8-neighbourhood) a disc of the opponent's,
    /// legal moves included.
    pub fn potential_bits(&self, side: Side) -> u64 {
        let opponent = self.bits(side.other());
        let near = DIRECTIONS
            .iter()
            .fold(0, |acc, step| acc | step.of(opponent));
        self.empty_bits() & near
    }

    /// `side`'s potential mobility.
    pub fn potential_mobility(&self, side: Side) -> u32 {
        self.potential_bits(side).count_ones()
    }

    /// The regions of empty squares, each a bit set, in the order of their
    /// first square (a1, b1, …): squares joined by a side (`eight` false:
    /// 4-connectivity) or also by a corner (`eight`: 8-connectivity).
    pub fn empty_regions(&self, eight: bool) -> Vec<u64> {
        // North, south, east, west come first in DIRECTIONS.
        let steps = if eight {
            &DIRECTIONS[..]
        } else {
            &DIRECTIONS[..4]
        };
        let mut left = self.empty_bits();
        let mut regions = Vec::new();
        while left != 0 {
            let mut region = left & left.wrapping_neg();
            loop {
                let grown = steps.iter().fold(region, |acc, step| acc | step.of(region)) & left;
                if grown == region {
                    break;
                }
                region = grown;
            }
            left &= !region;
            regions.push(region);
        }
        regions
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::board::random_position;
    use super::*;

    pub(crate) struct Rng(pub(crate) u64);
    impl Rng {
        pub(crate) fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    pub(crate) type Grid = [[Option<Side>; 8]; 8];

    pub(crate) fn grid(b: &Board) -> Grid {
        std::array::from_fn(|r| std::array::from_fn(|c| b.get(r * 8 + c)))
    }

    fn inside(r: i32, c: i32) -> bool {
        (0..8).contains(&r) && (0..8).contains(&c)
    }

    /// Rule S as the notes word it, on a grid: repeat over every disc until a
    /// whole pass adds none.
    pub(crate) fn naive_stable(g: &Grid) -> [[bool; 8]; 8] {
        let mut stable = [[false; 8]; 8];
        let mut changed = true;
        while changed {
            changed = false;
            for r in 0..8i32 {
                for c in 0..8i32 {
                    let Some(side) = g[r as usize][c as usize] else {
                        continue;
                    };
                    if stable[r as usize][c as usize] {
                        continue;
                    }
                    let mut ok = true;
                    for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                        // The whole line through (r, c), both ways.
                        let mut full = true;
                        for sign in [1, -1] {
                            let (mut rr, mut cc) = (r + sign * dr, c + sign * dc);
                            while inside(rr, cc) {
                                if g[rr as usize][cc as usize].is_none() {
                                    full = false;
                                }
                                rr += sign * dr;
                                cc += sign * dc;
                            }
                        }
                        let guard = |rr: i32, cc: i32| {
                            !inside(rr, cc)
                                || (stable[rr as usize][cc as usize]
                                    && g[rr as usize][cc as usize] == Some(side))
                        };
                        if !(full || guard(r + dr, c + dc) || guard(r - dr, c - dc)) {
                            ok = false;
                        }
                    }
                    if ok {
                        stable[r as usize][c as usize] = true;
                        changed = true;
                    }
                }
            }
        }
        stable
    }

    pub(crate) fn neighbours(r: i32, c: i32) -> impl Iterator<Item = (usize, usize)> {
        (-1..=1)
            .flat_map(move |dr| (-1..=1).map(move |dc| (r + dr, c + dc)))
            .filter(move |&(rr, cc)| (rr, cc) != (r, c) && inside(rr, cc))
            .map(|(rr, cc)| (rr as usize, cc as usize))
    }

    /// Regions by union-find over the grid's empty squares.
    pub(crate) fn naive_regions(g: &Grid, eight: bool) -> Vec<usize> {
        let mut parent: Vec<usize> = (0..64).collect();
        fn root(p: &mut [usize], mut i: usize) -> usize {
            while p[i] != i {
                i = p[i];
            }
            i
        }
        for r in 0..8i32 {
            for c in 0..8i32 {
                if g[r as usize][c as usize].is_some() {
                    continue;
                }
                for (rr, cc) in neighbours(r, c) {
                    let diagonal = rr as i32 != r && cc as i32 != c;
                    if g[rr][cc].is_none() && (eight || !diagonal) {
                        let (a, b) = (
                            root(&mut parent, (r * 8 + c) as usize),
                            root(&mut parent, rr * 8 + cc),
                        );
                        parent[a] = b;
                    }
                }
            }
        }
        let mut sizes = std::collections::BTreeMap::new();
        for s in 0..64 {
            if g[s / 8][s % 8].is_none() {
                *sizes.entry(root(&mut parent, s)).or_insert(0) += 1;
            }
        }
        let mut out: Vec<usize> = sizes.into_values().collect();
        out.sort_unstable();
        out
    }

    /// Every term against a plain grid implementation, over 3,000 random
    /// positions from the opening to the end of the game.
    #[test]
    fn terms_agree_with_a_naive_grid() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let mut stable_seen = 0;
        for i in 0..3000u32 {
            let (b, _) = random_position(i % 64, &mut |n| rng.below(n));
            let g = grid(&b);
            let stable = naive_stable(&g);
            for s in 0..64 {
                assert_eq!(
                    b.stable_bits() & (1 << s) != 0,
                    stable[s / 8][s % 8],
                    "{b} {s}"
                );
            }
            stable_seen += b.stable_bits().count_ones();
            for side in [Side::Black, Side::White] {
                let mut frontier = 0;
                let mut potential = 0;
                for r in 0..8i32 {
                    for c in 0..8i32 {
                        let here = g[r as usize][c as usize];
                        let near =
                            |what: Option<Side>| neighbours(r, c).any(|(rr, cc)| g[rr][cc] == what);
                        if here == Some(side) && near(None) {
                            frontier += 1;
                        }
                        if here.is_none() && near(Some(side.other())) {
                            potential += 1;
                        }
                    }
                }
                assert_eq!(b.frontier_bits(side).count_ones(), frontier, "{b}");
                assert_eq!(b.potential_mobility(side), potential, "{b}");
                assert_eq!(b.mobility(side) as usize, b.moves(side).len());
                // Every legal move is next to an opponent's disc.
                assert!(b.mobility(side) <= b.potential_mobility(side));
            }
            for eight in [false, true] {
                let mut sizes: Vec<usize> = b
                    .empty_regions(eight)
                    .iter()
                    .map(|r| r.count_ones() as usize)
                    .collect();
                sizes.sort_unstable();
                assert_eq!(sizes, naive_regions(&g, eight), "{b} eight={eight}");
            }
        }
        assert!(
            stable_seen > 1000,
            "positions with stable discs: {stable_seen}"
        );
    }

    /// Rule S is sound: no disc it calls stable is ever flipped, over 2,000
    /// random games played on from random positions.
    #[test]
    fn stable_discs_never_flip() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut checked = 0u32;
        for i in 0..2000u32 {
            let (mut b, mut side) = random_position(20 + i % 40, &mut |n| rng.below(n));
            let stable = b.stable_bits();
            let colour: Vec<(usize, Option<Side>)> = (0..64)
                .filter(|s| stable & (1 << s) != 0)
                .map(|s| (s, b.get(s)))
                .collect();
            checked += colour.len() as u32;
            while !b.finished() {
                let moves = b.moves(side);
                if !moves.is_empty() {
                    b = b.play(side, moves[rng.below(moves.len())].0);
                    for &(s, c) in &colour {
                        assert_eq!(b.get(s), c, "square {s} flipped");
                    }
                }
                side = side.other();
            }
        }
        assert!(checked > 5000, "stable discs checked: {checked}");
    }

    #[test]
    fn corners_seed_stability_and_a_full_row_holds() {
        // A corner and its edge neighbour of the same colour; a lone centre disc is not stable.
        let b =
            Board::parse("BB....../......../......../...WB.../...BW.../......../......../.......W")
                .unwrap();
        let stable = b.stable_bits();
        for (s, want) in [(0, true), (1, true), (63, true), (27, false)] {
            assert_eq!(stable & (1 << s) != 0, want, "square {s}");
        }
        assert_eq!(b.empty_regions(true).len(), 1);
    }
}
