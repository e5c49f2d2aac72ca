//! EXPECTIMINIMAX (AIMA 5.5): a leaf's value is its utility, a MAX node's
//! the largest of its children's, a MIN node's the smallest, a chance node's
//! the probability-weighted mean Σ P(r)·v(r), all exact.

use serde::{Deserialize, Serialize};

use super::{ChanceTree, NodeKind};
use crate::gametree::NodeId;
use crate::value::Ratio;

/// One child's part in its parent's value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Term {
    /// The child.
    pub child: NodeId,
    /// Its edge's probability, under a chance node; `None` under MAX or MIN.
    pub probability: Option<Ratio>,
    /// Its value.
    pub value: Ratio,
}

/// How an inner node's value was backed up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// The node.
    pub node: NodeId,
    /// What it does with its children's values.
    pub kind: NodeKind,
    /// Its children, left to right.
    pub terms: Vec<Term>,
    /// Its value.
    pub value: Ratio,
}

/// Every node's value, the best root moves and how each value came about.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Expectiminimax {
    /// The root's value.
    pub value: Ratio,
    /// Every node's value, by [`NodeId`].
    pub values: Vec<Ratio>,
    /// The root's children whose value is the root's, left to right (AIMA's
    /// argmax takes the first); empty when the root is a chance node, which
    /// chooses nothing.
    pub best_moves: Vec<NodeId>,
    /// The inner nodes in the order a depth-first, left-to-right evaluation
    /// finishes them (children before their parent).
    pub steps: Vec<Step>,
}

/// EXPECTIMINIMAX over the whole tree. Every [`ChanceTree`] has an answer:
/// its expectations were checked to fit when it was built.
pub fn expectiminimax(tree: &ChanceTree) -> Expectiminimax {
    try_expectiminimax(tree).expect("a ChanceTree's expectations fit: checked when it was built")
}

/// EXPECTIMINIMAX, or `None` when an expectation needs more than 128 bits.
pub(super) fn try_expectiminimax(tree: &ChanceTree) -> Option<Expectiminimax> {
    let t = tree.tree();
    let mut values = vec![Ratio::ZERO; t.len()];
    let mut steps = Vec::with_capacity(t.len() - t.leaves().count());
    // Depth first with an explicit stack (a node is finished once its
    // children are), so the steps come in the order recursion would give.
    let mut stack = vec![(t.root(), false)];
    while let Some((id, expanded)) = stack.pop() {
        let Some(kind) = tree.kind(id) else {
            values[id.index()] = tree.leaf(id)?;
            continue;
        };
        if !expanded {
            stack.push((id, true));
            stack.extend(t.children(id).rev().map(|c| (c, false)));
            continue;
        }
        let ps = tree.probabilities(id);
        let terms: Vec<Term> = t
            .children(id)
            .enumerate()
            .map(|(i, c)| Term {
                child: c,
                probability: ps.get(i).copied(),
                value: values[c.index()],
            })
            .collect();
        let children = terms.iter().map(|term| term.value);
        let value = match kind {
            NodeKind::Max => children.max()?,
            NodeKind::Min => children.min()?,
            NodeKind::Chance => terms.iter().try_fold(Ratio::ZERO, |sum, term| {
                sum.checked_add(term.probability?.checked_mul(term.value)?)
            })?,
        };
        values[id.index()] = value;
        steps.push(Step {
            node: id,
            kind,
            terms,
            value,
        });
    }
    let value = values[0];
    let best_moves = match tree.kind(t.root()) {
        Some(NodeKind::Max | NodeKind::Min) => t
            .children(t.root())
            .filter(|c| values[c.index()] == value)
            .collect(),
        _ => Vec::new(),
    };
    Some(Expectiminimax {
        value,
        values,
        best_moves,
        steps,
    })
}

/// The root's best moves when every chance node is read as a MIN node (the
/// worst case, what plain minimax would choose); empty when the root is a
/// chance node. Where they differ from [`expectiminimax`]'s, the tree shows
/// why the expectation matters.
pub fn worst_case(tree: &ChanceTree) -> Vec<NodeId> {
    let t = tree.tree();
    let mut values = vec![Ratio::ZERO; t.len()];
    // Children have larger ids than their parent.
    for id in t.ids().rev() {
        values[id.index()] = match tree.kind(id) {
            None => tree.leaf(id).unwrap_or(Ratio::ZERO),
            Some(kind) => {
                let children = t.children(id).map(|c| values[c.index()]);
                let best = if kind == NodeKind::Max {
                    children.max()
                } else {
                    children.min()
                };
                best.unwrap_or(Ratio::ZERO)
            }
        };
    }
    match tree.kind(t.root()) {
        Some(NodeKind::Max | NodeKind::Min) => t
            .children(t.root())
            .filter(|c| values[c.index()] == values[0])
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chance::DEFAULT_LEVELS;
    use crate::gametree::{Player, Tree};

    fn aima(levels: Vec<NodeKind>) -> ChanceTree {
        let shape = crate::chance::tests::shape("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]");
        let t = Tree::from_shape(&shape, Player::Max, None).unwrap();
        ChanceTree::uniform(t, levels).unwrap()
    }

    /// AIMA Figure 5.2's tree with chance nodes for MIN: (3 + 12 + 8) / 3 =
    /// 23/3 beats 4 and 7, so MAX moves to B, where minimax moves to B too.
    #[test]
    fn the_lecture_tree_backs_up_thirds() {
        let t = aima(DEFAULT_LEVELS.to_vec());
        let e = expectiminimax(&t);
        let shown: Vec<String> = e.values[..4].iter().map(ToString::to_string).collect();
        assert_eq!(shown, ["23/3", "23/3", "4", "7"]);
        assert_eq!(e.best_moves, [NodeId(1)]);
        // Steps: B, C, D, then the root.
        let order: Vec<u32> = e.steps.iter().map(|s| s.node.0).collect();
        assert_eq!(order, [1, 2, 3, 0]);
        let b = &e.steps[0];
        assert_eq!(b.kind, NodeKind::Chance);
        assert_eq!(b.terms[1].probability, Ratio::new(1, 3));
        assert_eq!(b.terms[1].value, Ratio::integer(12));
        assert_eq!(e.steps[3].terms[0].probability, None);
        assert_eq!(worst_case(&t), [NodeId(1)]);
    }

    /// With 14 under D raised to 20, D's mean (20 + 5 + 2) / 3 = 9 beats B's
    /// 23/3, though its worst case, 2, is the lowest.
    #[test]
    fn the_expectation_can_choose_another_move_than_the_worst_case() {
        let shape = crate::chance::tests::shape("[[3, 12, 8], [2, 4, 6], [20, 5, 2]]");
        let t = Tree::from_shape(&shape, Player::Max, None).unwrap();
        let t = ChanceTree::uniform(t, DEFAULT_LEVELS.to_vec()).unwrap();
        assert_eq!(expectiminimax(&t).best_moves, [NodeId(3)]);
        assert_eq!(expectiminimax(&t).value, Ratio::integer(9));
        assert_eq!(worst_case(&t), [NodeId(1)]);
    }

    #[test]
    fn a_chance_root_chooses_no_move() {
        let t = aima(vec![NodeKind::Chance, NodeKind::Max]);
        let e = expectiminimax(&t);
        // (12 + 6 + 14) / 3
        assert_eq!(e.value, Ratio::new(32, 3).unwrap());
        assert!(e.best_moves.is_empty());
        assert!(worst_case(&t).is_empty());
    }
}
