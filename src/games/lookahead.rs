//! Depth-limited lookahead in a concrete game: the game tree a textbook draws
//! from a position, with the static evaluation at the frontier. The tree is an
//! ordinary [`Tree`], so minimax, alpha-beta, drawings and grading all apply.

use crate::gametree::{Grow, Player, Tree};
use crate::value::Value;

/// A position of a game that can be searched.
pub trait Position: Sized {
    /// The positions one move away, each with the move's name (`b2`, `d3`,
    /// `pass`), in the order the search takes them; empty when the game is over.
    fn successors(&self) -> Vec<(String, Self)>;
    /// The static evaluation for MAX (won and lost games as ±inf, or a score).
    fn evaluate(&self) -> Value;
}

/// The root's label.
pub const ROOT: &str = "P";

/// A lookahead tree and the position at every node (by node index).
#[derive(Clone, Debug)]
pub struct Lookahead<P> {
    /// Labels are move paths: `P` at the root, then `b2`, then `b2-a1`, …
    pub tree: Tree,
    /// The position at each node.
    pub positions: Vec<P>,
}

/// The tree of every line of play `depth` moves deep from `root`, with
/// `to_move` at the root; the evaluation at the frontier and where a game ends.
pub fn lookahead<P: Position + Clone>(root: P, to_move: Player, depth: u32) -> Lookahead<P> {
    // Breadth-first, as the arena numbers nodes: a queue of nodes still to grow.
    let mut queue = std::collections::VecDeque::from([(root, String::new())]);
    let mut positions = Vec::new();
    let mut labels = Vec::new();
    let tree = Tree::build_levels(to_move, |level| {
        let (position, path) = queue.pop_front().expect("one queued node per grown node");
        let next = if level < depth as usize {
            position.successors()
        } else {
            Vec::new()
        };
        let grow = if next.is_empty() {
            Grow::Leaf(position.evaluate())
        } else {
            Grow::Children(next.len() as u32)
        };
        for (name, child) in next {
            let child_path = if path.is_empty() {
                name.clone()
            } else {
                format!("{path}-{name}")
            };
            queue.push_back((child, child_path));
        }
        labels.push(if path.is_empty() {
            ROOT.to_string()
        } else {
            path
        });
        positions.push(position);
        grow
    })
    .expect("a node is inner only when it has moves");
    let tree = tree
        .relabel(labels)
        .expect("move paths are unique: sibling moves have different names");
    Lookahead { tree, positions }
}

/// How many nodes the lookahead `depth` plies deep from `root` has, counted
/// without building it; `None` as soon as there are more than `cap`, so a
/// position too large for a page (a depth-9 tic-tac-toe search has 549,946
/// nodes) costs no more than `cap` positions to refuse.
pub fn count_nodes<P: Position + Clone>(root: &P, depth: u32, cap: usize) -> Option<usize> {
    let mut count = 1usize;
    let mut stack = vec![(root.clone(), 0u32)];
    while let Some((position, level)) = stack.pop() {
        if level >= depth {
            continue;
        }
        for (_, child) in position.successors() {
            count += 1;
            if count > cap {
                return None;
            }
            stack.push((child, level + 1));
        }
    }
    (count <= cap).then_some(count)
}

/// What a generated exercise asks of its lookahead, whatever the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Search {
    /// Plies searched.
    pub depth: u32,
    /// At least this many alpha-beta cuts.
    pub min_cuts: Option<u32>,
    /// Exactly one best move.
    pub unique_best: bool,
    /// The conventions under which cuts are counted (the set's).
    pub alpha_beta: crate::gametree::Options,
}

impl Search {
    /// A search `depth` plies deep, with no constraint.
    pub fn plies(depth: u32) -> Search {
        Search {
            depth,
            min_cuts: None,
            unique_best: false,
            alpha_beta: crate::gametree::Options::default(),
        }
    }

    /// A depth outside `1..=max`, named.
    pub fn check(&self, max: u32) -> Result<(), crate::generate::GenerateError> {
        check_depth(self.depth, max)
    }

    /// The first constraint the searched tree does not meet.
    pub fn unmet(&self, tree: &Tree) -> Option<String> {
        if self.unique_best && crate::gametree::minimax(tree).best_moves.len() != 1 {
            return Some("unique_best = true".to_string());
        }
        let min = self.min_cuts?;
        let cuts = crate::gametree::alpha_beta_summary(tree, self.alpha_beta).cuts;
        ((cuts as u32) < min).then(|| format!("min_cuts = {min}"))
    }
}

/// A lookahead depth outside `1..=max`, named.
pub fn check_depth(depth: u32, max: u32) -> Result<(), crate::generate::GenerateError> {
    if (1..=max).contains(&depth) {
        Ok(())
    } else {
        Err(crate::generate::GenerateError::Invalid(format!(
            "a lookahead of {depth} plies: it must be 1 to {max}"
        )))
    }
}

/// Reads `depth = 2` from an instance file, which must lie in `1..=max`.
pub fn read_depth(
    reader: &crate::input::Reader<'_>,
    doc: &crate::input::Doc,
    max: u32,
    hint: &str,
) -> Result<u32, crate::input::InputError> {
    let d = reader.int(doc, "depth = 2")?;
    u32::try_from(d)
        .ok()
        .filter(|&d| check_depth(d, max).is_ok())
        .ok_or_else(|| {
            reader.source.error(
                doc,
                format!("a lookahead of {d} plies: it must be 1 to {max}"),
                hint.to_string(),
            )
        })
}

/// The keys every game shapes its search with.
pub const KEYS: &[&str] = &["depth", "min_cuts", "unique_best"];

/// Reads `depth`, `min_cuts` and `unique_best` over `search`'s defaults.
pub fn read_search(
    r: &crate::input::Reader<'_>,
    t: &crate::input::Table<'_>,
    mut search: Search,
) -> Result<Search, crate::input::InputError> {
    if let Some(d) = t.get("depth") {
        search.depth = r.small_int(d, "depth = 2")?;
    }
    search.min_cuts = r.count(t, "min_cuts")?;
    if let Some(d) = t.get("unique_best") {
        search.unique_best = r.bool(d, "unique_best = true")?;
    }
    Ok(search)
}
