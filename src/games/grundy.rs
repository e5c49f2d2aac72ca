//! Grundy's game (分钱币): split one pile into two unequal, non-empty piles; a
//! player who cannot move loses. The game graph from N coins, with equal states
//! merged, every state labelled by who wins it under perfect play.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::gametree::Player;

/// Most coins accepted: the game graph of 40 coins already has tens of thousands of states.
pub const MAX_COINS: u32 = 40;

/// A position: the piles (largest first) and the player to move.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct State {
    /// Pile sizes, in descending order.
    pub piles: Vec<u32>,
    /// Who moves.
    pub to_move: Player,
}

impl State {
    /// `(6,1,MAX)`: the textbook notation.
    pub fn name(&self) -> String {
        let piles: Vec<String> = self.piles.iter().map(u32::to_string).collect();
        format!("({},{})", piles.join(","), self.to_move.name())
    }

    /// A state written `(6,1,MAX)`: piles in any order, any spacing and
    /// case, parentheses optional; `None` if the text is not one.
    pub fn parse(text: &str) -> Option<State> {
        let text = text.trim();
        let inner = text
            .strip_prefix('(')
            .and_then(|t| t.strip_suffix(')'))
            .unwrap_or(text);
        let mut parts: Vec<&str> = inner.split(',').map(str::trim).collect();
        let to_move = match parts.pop()?.to_ascii_uppercase().as_str() {
            "MAX" => Player::Max,
            "MIN" => Player::Min,
            _ => return None,
        };
        let mut piles = parts
            .iter()
            .map(|p| p.parse::<u32>().ok())
            .collect::<Option<Vec<u32>>>()?;
        piles.sort_unstable_by(|a, b| b.cmp(a));
        Some(State { piles, to_move })
    }

    /// `(6,1)`: the piles alone.
    pub fn piles_name(&self) -> String {
        let piles: Vec<String> = self.piles.iter().map(u32::to_string).collect();
        format!("({})", piles.join(","))
    }
}

/// The piles reachable in one move, each once, in a fixed order (the split pile
/// from largest to smallest, the larger part from largest to smallest).
pub fn splits(piles: &[u32]) -> Vec<Vec<u32>> {
    let mut out: Vec<Vec<u32>> = Vec::new();
    for (i, &p) in piles.iter().enumerate() {
        if i > 0 && piles[i - 1] == p {
            continue; // the same split of an equal pile
        }
        for big in (p.div_ceil(2)..p).rev() {
            let small = p - big;
            if small == 0 || small == big {
                continue;
            }
            let mut next: Vec<u32> = piles.to_vec();
            next.remove(i);
            next.push(big);
            next.push(small);
            next.sort_unstable_by(|a, b| b.cmp(a));
            if !out.contains(&next) {
                out.push(next);
            }
        }
    }
    out
}

/// The solved game graph.
#[derive(Clone, Debug, Serialize)]
pub struct GrundyGame {
    /// Coins at the start.
    pub coins: u32,
    /// Who moves first.
    pub first: Player,
    /// Every state, breadth-first from the start (index 0).
    #[serde(skip)]
    pub states: Vec<State>,
    /// The successors of every state, by index.
    #[serde(skip)]
    pub moves: Vec<Vec<usize>>,
    /// Who wins every state under perfect play.
    #[serde(skip)]
    pub wins_for: Vec<Player>,
    /// Depth of every state (moves made from the start).
    #[serde(skip)]
    pub depth: Vec<usize>,
}

impl GrundyGame {
    /// The player who wins from the start.
    pub fn winner(&self) -> Player {
        self.wins_for[0]
    }

    /// The winner's strategy: from every state reachable when the winner plays
    /// its first winning move and the loser plays anything, the winner's move.
    pub fn strategy(&self) -> Vec<(usize, usize)> {
        let winner = self.winner();
        let mut out = Vec::new();
        let mut seen = vec![false; self.states.len()];
        let mut todo = vec![0usize];
        while let Some(s) = todo.pop() {
            if std::mem::replace(&mut seen[s], true) {
                continue;
            }
            if self.states[s].to_move == winner {
                if let Some(&m) = self.moves[s].iter().find(|&&m| self.wins_for[m] == winner) {
                    out.push((s, m));
                    todo.push(m);
                }
            } else {
                todo.extend(self.moves[s].iter().rev());
            }
        }
        out.sort_unstable();
        out
    }
}

impl GrundyGame {
    /// The index of a state written `(6,1,MAX)` (piles in any order, any
    /// spacing and case, parentheses optional), if the game graph has it.
    pub fn find(&self, text: &str) -> Option<usize> {
        let wanted = State::parse(text)?;
        self.states.iter().position(|s| *s == wanted)
    }

    /// A label in its canonical spelling: `MAX`/`MIN`, a state `(6,1,MAX)`,
    /// or a move `(7,MIN) -> (6,1,MAX)`; `None` if the game has no such thing.
    pub fn canonical(&self, label: &str) -> Option<String> {
        let word = label.trim().to_ascii_uppercase();
        if word == "MAX" || word == "MIN" {
            return Some(word);
        }
        match split_move(label) {
            Some((from, to)) => {
                let (from, to) = (self.find(from)?, self.find(to)?);
                self.moves[from]
                    .contains(&to)
                    .then(|| self.move_name(from, to))
            }
            None => self.find(label).map(|s| self.states[s].name()),
        }
    }

    /// Whether `from -> to` joins two states of the graph that no move joins.
    pub fn not_a_move(&self, label: &str) -> bool {
        split_move(label)
            .and_then(|(a, b)| Some((self.find(a)?, self.find(b)?)))
            .is_some_and(|(a, b)| !self.moves[a].contains(&b))
    }

    /// `(7,MIN) -> (6,1,MAX)`.
    pub fn move_name(&self, from: usize, to: usize) -> String {
        format!("{} -> {}", self.states[from].name(), self.states[to].name())
    }

    /// Every move that keeps the win for the player to move, from every state
    /// where the winner from the start is to move and can win.
    pub fn winning_moves(&self) -> Vec<(usize, usize)> {
        let winner = self.winner();
        let mut out = Vec::new();
        for (s, state) in self.states.iter().enumerate() {
            if state.to_move == winner {
                for &m in &self.moves[s] {
                    if self.wins_for[m] == winner {
                        out.push((s, m));
                    }
                }
            }
        }
        out
    }
}

/// The two sides of a move written with `->`, `=>` or `→`.
pub fn split_move(label: &str) -> Option<(&str, &str)> {
    label
        .split_once("->")
        .or_else(|| label.split_once("=>"))
        .or_else(|| label.split_once('→'))
}

/// [`solve`], or why not: more than [`MAX_COINS`] coins (the number of states
/// grows like the partitions of `coins`, past any memory).
pub fn try_solve(coins: u32, first: Player) -> Result<GrundyGame, String> {
    if coins > MAX_COINS {
        return Err(format!(
            "Grundy's game is solved for at most {MAX_COINS} coins, not {coins}"
        ));
    }
    Ok(solve(coins, first))
}

/// Builds and solves the game graph of `coins` coins with `first` to move.
/// MAX's states are OR nodes (won for MAX if some move is), MIN's are AND nodes.
///
/// The caller bounds `coins` (instance files allow at most [`MAX_COINS`]):
/// the graph grows like the partitions of `coins`, so a large count runs out
/// of memory; [`try_solve`] refuses it instead.
pub fn solve(coins: u32, first: Player) -> GrundyGame {
    let start = State {
        piles: vec![coins],
        to_move: first,
    };
    let mut index: BTreeMap<State, usize> = BTreeMap::from([(start.clone(), 0)]);
    let mut states = vec![start];
    let mut moves: Vec<Vec<usize>> = Vec::new();
    let mut depth = vec![0usize];
    let mut i = 0;
    while i < states.len() {
        let state = states[i].clone();
        let mut next = Vec::new();
        for piles in splits(&state.piles) {
            let child = State {
                piles,
                to_move: state.to_move.other(),
            };
            let id = *index.entry(child.clone()).or_insert_with(|| {
                states.push(child);
                depth.push(depth[i] + 1);
                states.len() - 1
            });
            next.push(id);
        }
        moves.push(next);
        i += 1;
    }
    // Every move adds a pile, so later states (more piles) never lead back: solve from the end.
    let mut order: Vec<usize> = (0..states.len()).collect();
    order.sort_by_key(|&s| std::cmp::Reverse(states[s].piles.len()));
    let mut wins_for = vec![Player::Max; states.len()];
    for s in order {
        let mover = states[s].to_move;
        // The player to move wins if some move leads to a state it wins; with no move, it loses.
        wins_for[s] = if moves[s].iter().any(|&m| wins_for[m] == mover) {
            mover
        } else {
            mover.other()
        };
    }
    GrundyGame {
        coins,
        first,
        states,
        moves,
        wins_for,
        depth,
    }
}

/// The Sprague–Grundy value of one pile, by the mex rule: an independent
/// computation to check the game graph against (and against OEIS A002188).
#[cfg(test)]
pub fn sprague_grundy(n: u32) -> Vec<u32> {
    let mut g = vec![0u32; n as usize + 1];
    for p in 3..=n {
        let mut reachable: Vec<u32> = (1..p.div_ceil(2))
            .filter(|&a| a * 2 != p)
            .map(|a| g[a as usize] ^ g[(p - a) as usize])
            .collect();
        reachable.sort_unstable();
        g[p as usize] = (0..)
            .find(|v| reachable.binary_search(v).is_err())
            .expect("a mex exists");
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_are_unequal_and_distinct() {
        assert_eq!(splits(&[7]), vec![vec![6, 1], vec![5, 2], vec![4, 3]]);
        assert_eq!(splits(&[4, 2, 1]), vec![vec![3, 2, 1, 1]]);
        assert!(splits(&[2, 2, 1]).is_empty());
        assert_eq!(splits(&[3, 3]), vec![vec![3, 2, 1]]);
    }

    /// OEIS A002188, n = 0..40 (Guy & Smith 1956; Berlekamp, Conway & Guy,
    /// Winning Ways): every size an instance file may give.
    const A002188: [u32; 41] = [
        0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2,
        3, 1, 2, 4, 1, 2, 4, 1, 2, 4, 1,
    ];

    #[test]
    fn sprague_grundy_values_are_the_published_ones() {
        assert_eq!(sprague_grundy(MAX_COINS), A002188);
    }

    /// 1 and 2 coins (no move: the player to move loses) up to 40 (37,331 states).
    #[test]
    fn the_first_player_wins_exactly_when_the_value_is_not_zero() {
        for n in 1..=MAX_COINS {
            for first in [Player::Max, Player::Min] {
                let game = solve(n, first);
                let first_wins = A002188[n as usize] != 0;
                // No pile of 1 or 2 coins splits: the start is the whole graph.
                assert_eq!(game.states.len() == 1, n <= 2, "n = {n}");
                assert_eq!(
                    game.winner() == first,
                    first_wins,
                    "n = {n}, {first:?} first"
                );
            }
        }
    }

    #[test]
    fn seven_coins_with_min_first_is_won_by_max() {
        // The textbook example (Nilsson): 7 coins, MIN moves first; MAX wins.
        let game = solve(7, Player::Min);
        assert_eq!(game.winner(), Player::Max);
        assert_eq!(game.states[0].name(), "(7,MIN)");
        // Every first move of MIN leads to a state MAX wins.
        assert!(
            game.moves[0]
                .iter()
                .all(|&m| game.wins_for[m] == Player::Max)
        );
        // MAX's strategy answers every MIN move.
        let strategy = game.strategy();
        assert!(strategy.iter().all(
            |&(s, m)| game.states[s].to_move == Player::Max && game.wins_for[m] == Player::Max
        ));
        assert!(!strategy.is_empty());
    }
}

/// What a generated Grundy exercise looks like.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// Coins in the pile.
    pub coins: (u32, u32),
    /// Who moves first; drawn at random when not given.
    pub first: Option<Player>,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            coins: (5, 8),
            first: None,
        }
    }
}

/// Most coins in an exercise: the game graph of 9 coins is the widest that fits a page.
pub const MAX_EXERCISE_COINS: u32 = 9;

/// Whether an exercise can use this many coins, and why not.
pub fn exercise_coins(coins: u32) -> Result<(), String> {
    if (3..=MAX_EXERCISE_COINS).contains(&coins) {
        Ok(())
    } else {
        Err(format!(
            "an exercise uses 3 to {MAX_EXERCISE_COINS} coins, not {coins}: fewer give no move worth asking about, more give a game graph too wide for a page"
        ))
    }
}

impl Params {
    /// Impossible parameters, named.
    pub fn validate(&self) -> Result<(), crate::generate::GenerateError> {
        exercise_coins(self.coins.0)
            .and(exercise_coins(self.coins.1))
            .map_err(crate::generate::GenerateError::Invalid)
    }

    /// The coins and the first player for a seed.
    pub fn generate(&self, seed: u64) -> (u32, Player) {
        let mut rng = crate::rng::Rng::from_seed(seed);
        let coins = rng.between(i64::from(self.coins.0), i64::from(self.coins.1)) as u32;
        let drawn = if rng.below(2) == 0 {
            Player::Max
        } else {
            Player::Min
        };
        (coins, self.first.unwrap_or(drawn))
    }
}

/// The keys a problem set (or `sample`) shapes a generated game with.
pub const PARAM_KEYS: &[&str] = &["coins", "first"];

/// Reads [`Params`] from a problem set's exercise table (or `sample`'s options).
pub fn read_params(
    r: &crate::input::Reader<'_>,
    t: &crate::input::Table<'_>,
) -> Result<Params, crate::input::InputError> {
    let mut p = Params::default();
    if let Some(d) = t.get("coins") {
        p.coins = r.small_range(d)?;
        if let Err(e) = p.validate() {
            return Err(r.source.error(
                d,
                e.to_string(),
                "write a number or a range, like `coins = \"6..8\"`".to_string(),
            ));
        }
    }
    if let Some(d) = t.get("first") {
        p.first = Some(crate::gametree::file::read_player(r, d)?);
    }
    Ok(p)
}
