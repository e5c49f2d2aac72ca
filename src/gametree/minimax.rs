//! Minimax: the backed-up value of every node.

use super::tree::{NodeId, Player, Tree};
use crate::value::Value;

/// Every node's backed-up value, the best root moves and the principal variation.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Minimax {
    /// The root's value.
    pub value: Value,
    /// The value of every node, indexed by [`NodeId`].
    pub values: Vec<Value>,
    /// The root's children whose value equals the root's, left to right.
    pub best_moves: Vec<NodeId>,
    /// From the root, always the leftmost best child, down to a leaf.
    pub principal_variation: Vec<NodeId>,
}

/// Minimax over the whole tree: MAX nodes take the largest child value, MIN
/// nodes the smallest. Children have larger ids than their parent, so one pass
/// from the last id to the first sees every child before its parent (no recursion).
pub fn minimax(tree: &Tree) -> Minimax {
    let mut values = vec![Value::NegInf; tree.len()];
    for id in tree.ids().rev() {
        values[id.index()] = match tree.leaf(id) {
            Some(v) => v,
            None => {
                let children = tree.children(id).map(|c| values[c.index()]);
                match tree.player(id) {
                    Player::Max => children.max(),
                    Player::Min => children.min(),
                }
                .expect("inner nodes have children")
            }
        };
    }
    let value = values[0];
    let best_moves = tree
        .children(tree.root())
        .filter(|c| values[c.index()] == value)
        .collect();
    let mut principal_variation = vec![tree.root()];
    let mut at = tree.root();
    while let Some(next) = tree
        .children(at)
        .find(|c| values[c.index()] == values[at.index()])
    {
        principal_variation.push(next);
        at = next;
    }
    Minimax {
        value,
        values,
        best_moves,
        principal_variation,
    }
}
