//! The game-tree model: an arena of nodes in breadth-first order.

use std::borrow::Cow;

use serde::Serialize;

use crate::value::Value;

/// Deepest tree accepted (files and generators): deeper trees are not exercises.
pub const MAX_DEPTH: usize = 64;
/// Most nodes accepted from an instance file.
pub const MAX_FILE_NODES: usize = 1_000_000;

/// Whose turn it is at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    /// Maximises; drawn as a square.
    Max,
    /// Minimises; drawn as a circle.
    Min,
}

impl Player {
    /// The opponent.
    pub fn other(self) -> Player {
        match self {
            Player::Max => Player::Min,
            Player::Min => Player::Max,
        }
    }

    /// `MAX` or `MIN`.
    pub fn name(self) -> &'static str {
        match self {
            Player::Max => "MAX",
            Player::Min => "MIN",
        }
    }
}

/// Index of a node in [`Tree`]; the root is `NodeId(0)`, ids follow breadth-first order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The index into the arena.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Clone, Debug)]
struct Node {
    parent: u32,
    first_child: u32,
    child_count: u32,
    depth: u32,
    leaf: Option<Value>,
}

/// A game tree given as nested lists: numbers are leaves, lists are inner nodes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A leaf and its value.
    Leaf(Value),
    /// An inner node and its children, left to right.
    Inner(Vec<Shape>),
}

/// What [`Tree::build_levels`] makes of the next node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grow {
    /// A leaf with this value.
    Leaf(Value),
    /// An inner node with this many children (at least one).
    Children(u32),
}

/// Why a [`Shape`] is not a tree we accept.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TreeError {
    /// An inner node without children.
    #[error("a node has an empty list of children")]
    EmptyNode,
    /// More than [`MAX_FILE_NODES`] nodes.
    #[error("the tree has more than {MAX_FILE_NODES} nodes")]
    TooLarge,
    /// Deeper than [`MAX_DEPTH`].
    #[error("the tree is deeper than {MAX_DEPTH} levels")]
    TooDeep,
    /// The number of explicit labels differs from the number of nodes.
    #[error("{given} labels given for {nodes} nodes")]
    LabelCount {
        /// Labels given.
        given: usize,
        /// Nodes in the tree.
        nodes: usize,
    },
    /// Two nodes share a label (compared case-insensitively).
    #[error("the label `{0}` is used twice")]
    DuplicateLabel(String),
}

/// A game tree: nodes in breadth-first, left-to-right order, so the children
/// of a node are a contiguous id range and textbook labels are the ids.
#[derive(Clone, Debug)]
pub struct Tree {
    nodes: Vec<Node>,
    root_player: Player,
    labels: Option<Vec<String>>,
}

/// The textbook label of the `index`-th node in breadth-first order: `A`…`Z`, `AA`, `AB`, …
pub fn textbook_label(index: usize) -> String {
    let mut n = index + 1;
    let mut out = Vec::new();
    while n > 0 {
        n -= 1;
        out.push(b'A' + (n % 26) as u8);
        n /= 26;
    }
    out.reverse();
    String::from_utf8(out).expect("ASCII letters")
}

impl Tree {
    /// Builds the arena from nested lists, numbering nodes breadth-first.
    pub fn from_shape(
        shape: &Shape,
        root_player: Player,
        labels: Option<Vec<String>>,
    ) -> Result<Tree, TreeError> {
        let mut nodes = vec![Node {
            parent: u32::MAX,
            first_child: 0,
            child_count: 0,
            depth: 0,
            leaf: None,
        }];
        let mut queue = std::collections::VecDeque::from([(shape, 0u32)]);
        while let Some((shape, id)) = queue.pop_front() {
            match shape {
                Shape::Leaf(v) => nodes[id as usize].leaf = Some(*v),
                Shape::Inner(children) => {
                    if children.is_empty() {
                        return Err(TreeError::EmptyNode);
                    }
                    let depth = nodes[id as usize].depth + 1;
                    if depth as usize > MAX_DEPTH {
                        return Err(TreeError::TooDeep);
                    }
                    if nodes.len() + children.len() > MAX_FILE_NODES {
                        return Err(TreeError::TooLarge);
                    }
                    let first = nodes.len() as u32;
                    nodes[id as usize].first_child = first;
                    nodes[id as usize].child_count = children.len() as u32;
                    for (i, child) in children.iter().enumerate() {
                        nodes.push(Node {
                            parent: id,
                            first_child: 0,
                            child_count: 0,
                            depth,
                            leaf: None,
                        });
                        queue.push_back((child, first + i as u32));
                    }
                }
            }
        }
        Tree::with_labels(nodes, root_player, labels)
    }

    fn with_labels(
        nodes: Vec<Node>,
        root_player: Player,
        labels: Option<Vec<String>>,
    ) -> Result<Tree, TreeError> {
        if let Some(labels) = &labels {
            if labels.len() != nodes.len() {
                return Err(TreeError::LabelCount {
                    given: labels.len(),
                    nodes: nodes.len(),
                });
            }
            let mut seen = std::collections::BTreeSet::new();
            for label in labels {
                if !seen.insert(label.to_lowercase()) {
                    return Err(TreeError::DuplicateLabel(label.clone()));
                }
            }
        }
        Ok(Tree {
            nodes,
            root_player,
            labels,
        })
    }

    /// Builds a tree level by level, in breadth-first order: `grow(depth)` says
    /// whether the next node (at `depth`) is a leaf or how many children it has.
    /// Used by generators and benchmarks; the caller bounds the size.
    /// [`Grow::Children`]`(0)` (an inner node without children) is
    /// [`TreeError::EmptyNode`]; more than `u32::MAX` nodes is [`TreeError::TooLarge`].
    pub fn build_levels(
        root_player: Player,
        mut grow: impl FnMut(usize) -> Grow,
    ) -> Result<Tree, TreeError> {
        let mut nodes = vec![Node {
            parent: u32::MAX,
            first_child: 0,
            child_count: 0,
            depth: 0,
            leaf: None,
        }];
        let mut next = 0usize;
        while next < nodes.len() {
            let depth = nodes[next].depth;
            match grow(depth as usize) {
                Grow::Leaf(v) => nodes[next].leaf = Some(v),
                Grow::Children(0) => return Err(TreeError::EmptyNode),
                Grow::Children(k) => {
                    if nodes.len() as u64 + u64::from(k) > u64::from(u32::MAX) {
                        return Err(TreeError::TooLarge);
                    }
                    let first = nodes.len() as u32;
                    nodes[next].first_child = first;
                    nodes[next].child_count = k;
                    for _ in 0..k {
                        nodes.push(Node {
                            parent: next as u32,
                            first_child: 0,
                            child_count: 0,
                            depth: depth + 1,
                            leaf: None,
                        });
                    }
                }
            }
            next += 1;
        }
        Ok(Tree {
            nodes,
            root_player,
            labels: None,
        })
    }

    /// The same tree with these labels, in breadth-first order.
    pub fn relabel(self, labels: Vec<String>) -> Result<Tree, TreeError> {
        Tree::with_labels(self.nodes, self.root_player, Some(labels))
    }

    /// The nested-list form of the tree.
    pub fn to_shape(&self) -> Shape {
        self.shape_of(self.root())
    }

    fn shape_of(&self, id: NodeId) -> Shape {
        match self.leaf(id) {
            Some(v) => Shape::Leaf(v),
            None => Shape::Inner(self.children(id).map(|c| self.shape_of(c)).collect()),
        }
    }

    /// The root.
    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    /// The player to move at the root.
    pub fn root_player(&self) -> Player {
        self.root_player
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false: a tree has a root.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// All node ids in breadth-first order.
    pub fn ids(&self) -> impl DoubleEndedIterator<Item = NodeId> + ExactSizeIterator + use<> {
        (0..self.nodes.len() as u32).map(NodeId)
    }

    /// The children of `id`, left to right.
    pub fn children(
        &self,
        id: NodeId,
    ) -> impl DoubleEndedIterator<Item = NodeId> + ExactSizeIterator + use<> {
        let n = &self.nodes[id.index()];
        (n.first_child..n.first_child + n.child_count).map(NodeId)
    }

    /// The parent of `id`, `None` at the root.
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        let p = self.nodes[id.index()].parent;
        (p != u32::MAX).then_some(NodeId(p))
    }

    /// The value of a leaf, `None` for an inner node.
    pub fn leaf(&self, id: NodeId) -> Option<Value> {
        self.nodes[id.index()].leaf
    }

    /// Distance from the root.
    pub fn depth_of(&self, id: NodeId) -> usize {
        self.nodes[id.index()].depth as usize
    }

    /// The player to move at `id` (levels alternate from the root).
    pub fn player(&self, id: NodeId) -> Player {
        if self.nodes[id.index()].depth.is_multiple_of(2) {
            self.root_player
        } else {
            self.root_player.other()
        }
    }

    /// The label students see: given in the file, or the textbook letter label.
    pub fn label(&self, id: NodeId) -> Cow<'_, str> {
        match &self.labels {
            Some(labels) => Cow::Borrowed(&labels[id.index()]),
            None => Cow::Owned(textbook_label(id.index())),
        }
    }

    /// Whether the labels were given explicitly rather than by the textbook rule.
    pub fn explicit_labels(&self) -> Option<&[String]> {
        self.labels.as_deref()
    }

    /// The node with this label (case-insensitive).
    pub fn find(&self, label: &str) -> Option<NodeId> {
        let wanted = label.trim().to_lowercase();
        self.ids()
            .find(|&id| self.label(id).to_lowercase() == wanted)
    }

    /// Leaves in breadth-first order.
    pub fn leaves(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.ids().filter(|&id| self.leaf(id).is_some())
    }

    /// The depth of the deepest leaf.
    pub fn height(&self) -> usize {
        self.nodes.last().map_or(0, |n| n.depth as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(v: i64) -> Shape {
        Shape::Leaf(Value::Finite(v))
    }

    #[test]
    fn textbook_labels_run_past_z() {
        let got: Vec<String> = [0, 1, 25, 26, 27, 51, 52, 701, 702]
            .iter()
            .map(|&i| textbook_label(i))
            .collect();
        assert_eq!(got, ["A", "B", "Z", "AA", "AB", "AZ", "BA", "ZZ", "AAA"]);
    }

    #[test]
    fn nodes_are_numbered_breadth_first() {
        let shape = Shape::Inner(vec![
            Shape::Inner(vec![leaf(1), leaf(2)]),
            leaf(3),
            Shape::Inner(vec![leaf(4)]),
        ]);
        let tree = Tree::from_shape(&shape, Player::Max, None).unwrap();
        let labels: Vec<_> = tree.ids().map(|id| tree.label(id).into_owned()).collect();
        assert_eq!(labels, ["A", "B", "C", "D", "E", "F", "G"]);
        assert_eq!(tree.leaf(tree.find("c").unwrap()), Some(Value::Finite(3)));
        assert_eq!(
            tree.children(NodeId(1)).collect::<Vec<_>>(),
            [NodeId(4), NodeId(5)]
        );
        assert_eq!(tree.player(NodeId(6)), Player::Max);
        assert_eq!(tree.to_shape(), shape);
    }

    #[test]
    fn rejects_empty_nodes_and_duplicate_labels() {
        assert_eq!(
            Tree::from_shape(&Shape::Inner(vec![]), Player::Max, None).unwrap_err(),
            TreeError::EmptyNode
        );
        let shape = Shape::Inner(vec![leaf(1)]);
        let err =
            Tree::from_shape(&shape, Player::Max, Some(vec!["x".into(), "X".into()])).unwrap_err();
        assert_eq!(err, TreeError::DuplicateLabel("X".into()));
    }
}
