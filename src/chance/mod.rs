//! Expectiminimax trees (AIMA 5.5, CS188's expectimax): MAX, MIN and CHANCE
//! nodes, a probability on each edge of a chance node (uniform unless a
//! file says otherwise), and values that are exact fractions.
//!
//! The shape, the leaf values and the labels are a [`Tree`], read and
//! written by the game-tree readers; what a node is comes from `levels`, the
//! node kinds from the root down, repeated (`max, chance` is expectimax
//! against a random opponent, `max, chance, min, chance` backgammon's dice
//! between the two players' moves).

pub mod file;
pub mod generate;
pub mod solve;

use serde::{Deserialize, Serialize};

use crate::gametree::{NodeId, Tree};
use crate::value::Ratio;

pub use solve::{Expectiminimax, Step, Term, expectiminimax, worst_case};

/// What an inner node does with its children's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeKind {
    /// Takes the largest; drawn as a square.
    Max,
    /// Takes the smallest; drawn as a circle.
    Min,
    /// Takes the probability-weighted mean; drawn as a diamond.
    Chance,
}

impl NodeKind {
    /// `MAX`, `MIN` or `CHANCE`.
    pub fn name(self) -> &'static str {
        match self {
            NodeKind::Max => "MAX",
            NodeKind::Min => "MIN",
            NodeKind::Chance => "CHANCE",
        }
    }

    /// Reads `max`, `min` or `chance` (any case).
    pub fn parse(text: &str) -> Option<NodeKind> {
        match text.trim().to_ascii_lowercase().as_str() {
            "max" => Some(NodeKind::Max),
            "min" => Some(NodeKind::Min),
            "chance" => Some(NodeKind::Chance),
            _ => None,
        }
    }
}

/// The levels when a file names none: MAX against chance, CS188's
/// expectimax with one ghost.
pub const DEFAULT_LEVELS: [NodeKind; 2] = [NodeKind::Max, NodeKind::Chance];

/// Why a tree, its levels and its probabilities are not an expectiminimax tree.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChanceError {
    /// `levels` is empty.
    #[error("no levels are given")]
    NoLevels,
    /// A leaf is `+inf` or `-inf`, which no expectation weighs.
    #[error("the leaf `{0}` is infinite, and a chance node cannot average an infinity")]
    InfiniteLeaf(String),
    /// Probabilities are given for a node that is not a chance node.
    #[error(
        "`{label}` is a {what}, not a chance node: only a chance node's edges have probabilities"
    )]
    NotChance {
        /// The node.
        label: String,
        /// `MAX node`, `MIN node` or `leaf`.
        what: &'static str,
    },
    /// Probabilities are given twice for one node.
    #[error("the probabilities of `{0}` are given twice")]
    Twice(String),
    /// Not one probability per child.
    #[error("`{label}` has {children} children, and {given} probabilities are given")]
    ProbabilityCount {
        /// The node.
        label: String,
        /// Probabilities given.
        given: usize,
        /// Its children.
        children: usize,
    },
    /// A probability of 0 or less, or more than 1.
    #[error("the probability {p} on an edge of `{label}` is not between 0 (excluded) and 1")]
    OutOfRange {
        /// The node.
        label: String,
        /// The probability.
        p: Ratio,
    },
    /// A chance node's probabilities do not sum to 1.
    #[error("the probabilities of `{label}` sum to {sum}, not 1")]
    SumNotOne {
        /// The node.
        label: String,
        /// Their sum.
        sum: Ratio,
    },
    /// An expectation needs more than 128 bits.
    #[error("the expectations need more than 128 bits (too many different denominators)")]
    Overflow,
}

/// An expectiminimax tree. Every node below the root of a chance node has a
/// probability, and each chance node's sum to exactly 1; every leaf is a
/// number; and every expectation fits in a [`Ratio`] (checked when built,
/// so that [`expectiminimax`] has an answer for every tree there is).
#[derive(Clone, Debug)]
pub struct ChanceTree {
    tree: Tree,
    levels: Vec<NodeKind>,
    /// Each chance node's edge probabilities, by node id; empty elsewhere.
    probabilities: Vec<Vec<Ratio>>,
}

impl ChanceTree {
    /// The tree with these levels (repeated from the root down) and these
    /// probabilities; a chance node not named in `given` is uniform.
    pub fn new(
        tree: Tree,
        levels: Vec<NodeKind>,
        given: Vec<(NodeId, Vec<Ratio>)>,
    ) -> Result<ChanceTree, ChanceError> {
        if levels.is_empty() {
            return Err(ChanceError::NoLevels);
        }
        if let Some(id) = tree
            .leaves()
            .find(|&id| tree.leaf(id).and_then(Ratio::from_value).is_none())
        {
            return Err(ChanceError::InfiniteLeaf(tree.label(id).into_owned()));
        }
        let kind_of = |id: NodeId| {
            tree.leaf(id)
                .is_none()
                .then(|| levels[tree.depth_of(id) % levels.len()])
        };
        let mut probabilities: Vec<Vec<Ratio>> = tree
            .ids()
            .map(|id| match kind_of(id) {
                Some(NodeKind::Chance) => {
                    let k = tree.children(id).len() as i128;
                    vec![Ratio::new(1, k).expect("a chance node has children"); k as usize]
                }
                _ => Vec::new(),
            })
            .collect();
        let mut seen = std::collections::HashSet::new();
        for (id, ps) in given {
            let label = tree.label(id).into_owned();
            match kind_of(id) {
                Some(NodeKind::Chance) => {}
                other => {
                    let what = match other {
                        Some(NodeKind::Max) => "MAX node",
                        Some(NodeKind::Min) => "MIN node",
                        _ => "leaf",
                    };
                    return Err(ChanceError::NotChance { label, what });
                }
            }
            if !seen.insert(id) {
                return Err(ChanceError::Twice(label));
            }
            let children = tree.children(id).len();
            if ps.len() != children {
                return Err(ChanceError::ProbabilityCount {
                    label,
                    given: ps.len(),
                    children,
                });
            }
            if let Some(&p) = ps.iter().find(|&&p| p <= Ratio::ZERO || p > Ratio::ONE) {
                return Err(ChanceError::OutOfRange { label, p });
            }
            // Each term is at most 1: the sum of at most a million fits.
            let sum = ps
                .iter()
                .try_fold(Ratio::ZERO, |s, &p| s.checked_add(p))
                .ok_or(ChanceError::Overflow)?;
            if sum != Ratio::ONE {
                return Err(ChanceError::SumNotOne { label, sum });
            }
            probabilities[id.index()] = ps;
        }
        let built = ChanceTree {
            tree,
            levels,
            probabilities,
        };
        solve::try_expectiminimax(&built).ok_or(ChanceError::Overflow)?;
        Ok(built)
    }

    /// The tree with these levels, every chance node uniform.
    pub fn uniform(tree: Tree, levels: Vec<NodeKind>) -> Result<ChanceTree, ChanceError> {
        ChanceTree::new(tree, levels, Vec::new())
    }

    /// The shape, leaf values and labels.
    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// The node kinds from the root down, repeated below the last.
    pub fn levels(&self) -> &[NodeKind] {
        &self.levels
    }

    /// What an inner node does; `None` for a leaf.
    pub fn kind(&self, id: NodeId) -> Option<NodeKind> {
        self.tree
            .leaf(id)
            .is_none()
            .then(|| self.levels[self.tree.depth_of(id) % self.levels.len()])
    }

    /// A chance node's edge probabilities, one per child, left to right;
    /// empty for any other node.
    pub fn probabilities(&self, id: NodeId) -> &[Ratio] {
        &self.probabilities[id.index()]
    }

    /// Whether a chance node's children are equally likely (true of every
    /// other node, which has no probabilities).
    pub fn is_uniform(&self, id: NodeId) -> bool {
        let ps = self.probabilities(id);
        ps.iter().all(|&p| p == ps[0])
    }

    /// Whether every chance node is uniform (CS188's ghosts).
    pub fn all_uniform(&self) -> bool {
        self.tree.ids().all(|id| self.is_uniform(id))
    }

    /// A leaf's value, exactly; `None` for an inner node.
    pub fn leaf(&self, id: NodeId) -> Option<Ratio> {
        self.tree.leaf(id).and_then(Ratio::from_value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gametree::{Player, Shape};
    use crate::value::Value;

    pub(crate) fn shape(text: &str) -> Shape {
        fn go(v: &serde_json::Value) -> Shape {
            match v {
                serde_json::Value::Array(items) => Shape::Inner(items.iter().map(go).collect()),
                n => Shape::Leaf(Value::Finite(n.as_i64().unwrap())),
            }
        }
        go(&serde_json::from_str(text).unwrap())
    }

    fn tree(text: &str) -> Tree {
        Tree::from_shape(&shape(text), Player::Max, None).unwrap()
    }

    fn r(text: &str) -> Ratio {
        Ratio::parse(text).unwrap()
    }

    #[test]
    fn levels_repeat_from_the_root_and_chance_nodes_default_to_uniform() {
        let t = ChanceTree::uniform(
            tree("[[[1, 2], [3]], [4, 5, 6]]"),
            vec![NodeKind::Max, NodeKind::Chance, NodeKind::Min],
        )
        .unwrap();
        let kinds: Vec<_> = t.tree().ids().map(|id| t.kind(id)).collect();
        use NodeKind::*;
        assert_eq!(
            kinds,
            [
                Some(Max),
                Some(Chance),
                Some(Chance),
                Some(Min),
                Some(Min),
                None,
                None,
                None,
                None,
                None,
                None
            ]
        );
        assert_eq!(t.probabilities(NodeId(2)), [r("1/3"); 3]);
        assert_eq!(t.probabilities(NodeId(3)), []);
        assert!(t.all_uniform());
    }

    #[test]
    fn probabilities_are_checked_node_by_node() {
        let base = || tree("[[1, 2], [3, 4, 5]]");
        let levels = || DEFAULT_LEVELS.to_vec();
        let ok = ChanceTree::new(
            base(),
            levels(),
            vec![(NodeId(1), vec![r("1/6"), r("5/6")])],
        )
        .unwrap();
        assert_eq!(ok.probabilities(NodeId(1)), [r("1/6"), r("5/6")]);
        assert!(!ok.is_uniform(NodeId(1)) && ok.is_uniform(NodeId(2)));
        for (given, want) in [
            (
                vec![(NodeId(0), vec![r("1/2"), r("1/2")])],
                "`A` is a MAX node, not a chance node",
            ),
            (vec![(NodeId(3), vec![Ratio::ONE])], "`D` is a leaf"),
            (
                vec![(NodeId(1), vec![Ratio::ONE])],
                "`B` has 2 children, and 1 probabilities are given",
            ),
            (
                vec![(NodeId(1), vec![r("1/2"), r("1/3")])],
                "the probabilities of `B` sum to 5/6, not 1",
            ),
            (
                vec![(NodeId(1), vec![r("3/2"), r("-1/2")])],
                "the probability 3/2 on an edge of `B`",
            ),
            (
                vec![(NodeId(1), vec![Ratio::ZERO, Ratio::ONE])],
                "the probability 0 on an edge of `B`",
            ),
            (
                vec![
                    (NodeId(1), vec![r("1/2"), r("1/2")]),
                    (NodeId(1), vec![r("1/2"), r("1/2")]),
                ],
                "given twice",
            ),
        ] {
            let e = ChanceTree::new(base(), levels(), given).unwrap_err();
            assert!(e.to_string().contains(want), "{e}");
        }
        assert_eq!(
            ChanceTree::uniform(base(), Vec::new()).unwrap_err(),
            ChanceError::NoLevels
        );
        let inf = Tree::from_shape(
            &Shape::Inner(vec![Shape::Leaf(Value::PosInf)]),
            Player::Max,
            None,
        )
        .unwrap();
        assert_eq!(
            ChanceTree::uniform(inf, levels()).unwrap_err(),
            ChanceError::InfiniteLeaf("B".into())
        );
    }

    /// Denominators that multiply past 128 bits are refused when built,
    /// not met by the solver.
    #[test]
    fn expectations_past_128_bits_are_refused() {
        // A chain of chance nodes, each averaging a leaf with a prime denominator's share.
        let primes = [
            3i128, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79,
            83, 89, 97, 101, 103, 107, 109, 113, 127,
        ];
        let mut s = Shape::Leaf(Value::Finite(1));
        for _ in &primes {
            s = Shape::Inner(vec![s, Shape::Leaf(Value::Finite(i64::MAX))]);
        }
        let t = Tree::from_shape(&s, Player::Max, None).unwrap();
        let given: Vec<_> = t
            .ids()
            .filter(|&id| t.leaf(id).is_none())
            .zip(primes)
            .map(|(id, p)| {
                (
                    id,
                    vec![Ratio::new(p - 1, p).unwrap(), Ratio::new(1, p).unwrap()],
                )
            })
            .collect();
        let e = ChanceTree::new(t, vec![NodeKind::Chance], given).unwrap_err();
        assert_eq!(e, ChanceError::Overflow);
    }
}
