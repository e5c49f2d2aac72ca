//! Minimax: the backed-up value of every node.

use serde::{Deserialize, Serialize};

use super::tree::{Kind, NodeId, Player, Scalar, Tree, Whole};
use crate::value::Value;

/// Every node's backed-up value, the best root moves and the principal variation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Minimax {
    /// The root's value.
    pub value: Value,
    /// The value of every node above the tree's deepest level, indexed by
    /// [`NodeId`]; [`Minimax::of`] reads any node's. The deepest level is all
    /// leaves (most of the tree), whose values the tree holds already. A
    /// manifest of format 2 lists every node, which [`Minimax::of`] reads too.
    values: Vec<Value>,
    /// The root's children whose value equals the root's, left to right.
    pub best_moves: Vec<NodeId>,
    /// From the root, always the leftmost best child, down to a leaf.
    pub principal_variation: Vec<NodeId>,
}

/// Minimax over the whole tree: MAX nodes take the largest child value, MIN
/// nodes the smallest. Children have larger ids than their parent, so one pass
/// from the deepest level to the root sees every child before its parent (no
/// recursion), and each level has one player. The deepest level, all leaves
/// and most of the tree, is read from the tree by its parents and not copied
/// ([`Minimax::of`] reads it there). In a tree of whole numbers
/// every node's value is one, and all are compared as [`Whole`] (`Value`'s
/// order, an enum's, costs a third of the run).
pub fn minimax(tree: &Tree) -> Minimax {
    let values = if tree.is_whole() {
        values_as::<Whole>(tree)
    } else {
        values_as::<Value>(tree)
    };
    let mut mm = Minimax {
        value: Value::NegInf,
        values,
        best_moves: Vec::new(),
        principal_variation: vec![tree.root()],
    };
    mm.value = mm.of(tree, tree.root());
    mm.best_moves = tree
        .children(tree.root())
        .filter(|&c| mm.of(tree, c) == mm.value)
        .collect();
    // Every node of the variation has the root's value.
    let mut at = tree.root();
    while let Some(next) = tree.children(at).find(|&c| mm.of(tree, c) == mm.value) {
        mm.principal_variation.push(next);
        at = next;
    }
    mm
}

impl Minimax {
    /// The backed-up value of `id`, a node of the tree this was found in.
    pub fn of(&self, tree: &Tree, id: NodeId) -> Value {
        match self.values.get(id.index()) {
            Some(&v) => v,
            None => tree
                .leaf(id)
                .expect("past the values kept, every node is a leaf of the deepest level"),
        }
    }

    /// Whether this was found in a tree of `tree`'s shape, as far as a file
    /// read back can tell: a value for each node above the deepest level (or
    /// for every node, as format 2 kept them), and moves that are its nodes.
    pub fn fits(&self, tree: &Tree) -> bool {
        let nodes = tree.len();
        (self.values.len() == tree.deepest_level_start() || self.values.len() == nodes)
            && self
                .best_moves
                .iter()
                .chain(&self.principal_variation)
                .all(|n| n.index() < nodes)
    }
}

/// [`minimax`]'s values above the deepest level, leaves compared as `V`.
fn values_as<V: Scalar>(tree: &Tree) -> Vec<Value> {
    // The deepest level is all leaves.
    let leaf = |id: u32| tree.leaf_as::<V>(id);
    let levels: Vec<_> = tree.levels().collect();
    let mut values = vec![Value::NegInf; tree.deepest_level_start()];
    for (depth, level) in levels.iter().enumerate().rev().skip(1) {
        let max = (depth % 2 == 0) == (tree.root_player() == Player::Max);
        let above_deepest = depth + 2 == levels.len();
        for id in level.clone() {
            values[id as usize] = match tree.kind_as::<V>(id) {
                Kind::Leaf(v) => v.node_value(),
                Kind::Inner { first, count } if above_deepest => {
                    let leaves = (first..first + count).map(leaf);
                    let best = if max { leaves.max() } else { leaves.min() };
                    best.expect("inner nodes have children").node_value()
                }
                Kind::Inner { first, count } => {
                    let children = values[first as usize..(first + count) as usize]
                        .iter()
                        .map(|&v| V::of_node_value(v));
                    let best = if max { children.max() } else { children.min() };
                    best.expect("inner nodes have children").node_value()
                }
            };
        }
    }
    values
}

/// The root's minimax value alone: a depth-first search that stores nothing,
/// for callers that need no per-node values.
pub fn minimax_value(tree: &Tree) -> Value {
    let max = tree.root_player() == Player::Max;
    if tree.is_whole() {
        value_as::<Whole>(tree, 0, max).value()
    } else {
        value_as::<Value>(tree, 0, max)
    }
}

/// [`minimax_value`] below `id`, compared as `V`.
// Leaves are read in their parent's loop, not by a call: most nodes are
// leaves, and a call saves and restores registers.
#[inline(always)]
fn value_as<V: Scalar>(tree: &Tree, id: u32, max: bool) -> V {
    match tree.kind_as(id) {
        Kind::Leaf(v) => v,
        Kind::Inner { first, count } => inner_as(tree, first, count, max),
    }
}

fn inner_as<V: Scalar>(tree: &Tree, first: u32, count: u32, max: bool) -> V {
    let mut best = value_as::<V>(tree, first, !max);
    for c in first + 1..first + count {
        let v = value_as(tree, c, !max);
        best = if max { best.max(v) } else { best.min(v) };
    }
    best
}
