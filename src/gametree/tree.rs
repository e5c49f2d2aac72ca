//! The game-tree model: an arena of nodes in breadth-first order.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::value::Value;

/// Deepest tree accepted (files and generators): deeper trees are not exercises.
pub const MAX_DEPTH: usize = 64;
/// Most nodes accepted from an instance file.
pub const MAX_FILE_NODES: usize = 1_000_000;

/// Whose turn it is at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The index into the arena.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// 12 bytes, what the searches read. An inner node keeps its child range in
/// `a` (first) and `b` (count); a leaf keeps its value's kind in `kind` and a
/// number's bits (a decimal's packed form) in `a` (low) and `b` (high). Parents and depths, which
/// the searches never read, live beside the arena.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    a: u32,
    b: u32,
    kind: u32,
}

const INNER: u32 = 0;
const NEG_INF: u32 = 1;
const FINITE: u32 = 2;
const POS_INF: u32 = 3;
const DECIMAL: u32 = 4;

impl Node {
    fn inner(first: u32, count: u32) -> Node {
        Node {
            a: first,
            b: count,
            kind: INNER,
        }
    }

    fn leaf(v: Value) -> Node {
        match v {
            Value::NegInf => Node {
                a: 0,
                b: 0,
                kind: NEG_INF,
            },
            Value::PosInf => Node {
                a: 0,
                b: 0,
                kind: POS_INF,
            },
            Value::Finite(x) => Node {
                a: x as u32,
                b: (x >> 32) as u32,
                kind: FINITE,
            },
            Value::Decimal(d) => Node {
                a: d.to_bits() as u32,
                b: (d.to_bits() >> 32) as u32,
                kind: DECIMAL,
            },
        }
    }

    /// A leaf's number bits.
    #[inline(always)]
    fn bits(self) -> i64 {
        (u64::from(self.a) | (u64::from(self.b) << 32)) as i64
    }

    /// Whether [`Whole`] holds this leaf's value exactly.
    fn is_whole(self) -> bool {
        self.kind == FINITE && !matches!(self.bits(), i64::MIN | i64::MAX)
    }

    /// A placeholder until the node is grown; every node is overwritten.
    const UNGROWN: Node = Node {
        a: 0,
        b: 0,
        kind: INNER,
    };
}

/// A leaf that is an infinity or a decimal, out of the searches' way.
#[cold]
fn rare_leaf(kind: u32, bits: i64) -> Value {
    match kind {
        NEG_INF => Value::NegInf,
        POS_INF => Value::PosInf,
        _ => Value::Decimal(crate::value::Decimal::from_bits(bits)),
    }
}

/// What a search reads of a node: its child range or its value.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kind<V = Value> {
    /// An inner node's children: `first..first + count`.
    Inner { first: u32, count: u32 },
    /// A leaf's value.
    Leaf(V),
}

/// A value as a search compares it. [`Value`] serves every tree; [`Whole`]
/// serves a tree whose leaves are all whole numbers (nearly every tree), one
/// machine compare where [`Value`]'s order matches on two enums.
pub(crate) trait Scalar: Copy + Ord {
    /// Below every leaf.
    const NEG_INF: Self;
    /// Above every leaf.
    const POS_INF: Self;
    /// A leaf node's value.
    fn of_leaf(node: Node) -> Self;
    /// The value it stands for.
    fn value(self) -> Value;
    /// [`Scalar::value`] of a node's value (a leaf's, or backed up from
    /// leaves), never the searches' ±inf bounds: a whole number's is finite.
    #[inline(always)]
    fn node_value(self) -> Value {
        self.value()
    }
    /// A node's value read back as `V`: what [`Scalar::node_value`] gave.
    fn of_node_value(v: Value) -> Self;
}

impl Scalar for Value {
    const NEG_INF: Value = Value::NegInf;
    const POS_INF: Value = Value::PosInf;

    #[inline(always)]
    fn of_leaf(n: Node) -> Value {
        let bits = n.bits();
        // Whole numbers first: nearly all a search reads.
        if n.kind == FINITE {
            Value::Finite(bits)
        } else {
            rare_leaf(n.kind, bits)
        }
    }

    #[inline(always)]
    fn value(self) -> Value {
        self
    }

    #[inline(always)]
    fn of_node_value(v: Value) -> Value {
        v
    }
}

/// A whole number, with `i64::MIN` and `i64::MAX` for −∞ and +∞: exact only
/// in a tree where [`Tree::is_whole`] (no leaf is either of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Whole(i64);

impl Scalar for Whole {
    const NEG_INF: Whole = Whole(i64::MIN);
    const POS_INF: Whole = Whole(i64::MAX);

    #[inline(always)]
    fn of_leaf(n: Node) -> Whole {
        Whole(n.bits())
    }

    #[inline(always)]
    fn value(self) -> Value {
        match self.0 {
            i64::MIN => Value::NegInf,
            i64::MAX => Value::PosInf,
            x => Value::Finite(x),
        }
    }

    #[inline(always)]
    fn node_value(self) -> Value {
        Value::Finite(self.0)
    }

    #[inline(always)]
    fn of_node_value(v: Value) -> Whole {
        match v {
            Value::Finite(x) => Whole(x),
            _ => unreachable!("a whole-number tree's nodes are whole numbers"),
        }
    }
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
    /// Two nodes share a label (compared without case unless the tree's
    /// labels are case-sensitive).
    #[error("the label `{0}` is used twice")]
    DuplicateLabel(String),
}

/// A game tree: nodes in breadth-first, left-to-right order, so the children
/// of a node are a contiguous id range and textbook labels are the ids.
#[derive(Clone, Debug)]
pub struct Tree {
    nodes: Vec<Node>,
    /// Per node; `u32::MAX` at the root.
    parents: Vec<u32>,
    /// The first id of each level: ids are breadth-first, so depth never decreases with id.
    level_starts: Vec<u32>,
    root_player: Player,
    labels: Option<Vec<String>>,
    /// Labels compared with case: a file named two nodes `a` and `A`.
    case_sensitive: bool,
    /// Leaves that [`Whole`] cannot hold (infinities, decimals, `i64`'s ends).
    rare_leaves: u32,
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

/// The index [`textbook_label`] gives `label`, its letters from `first`
/// (`b'A'`, or `b'a'` for a label in lower case); `None` for anything else.
fn textbook_index(label: &str, first: u8) -> Option<usize> {
    let mut n: usize = 0;
    for b in label.bytes() {
        let digit = b.checked_sub(first).filter(|&d| d < 26)?;
        n = n.checked_mul(26)?.checked_add(usize::from(digit) + 1)?;
    }
    n.checked_sub(1)
}

impl Tree {
    /// A tree of one ungrown root, which the builders grow level by level.
    fn seed(root_player: Player) -> Tree {
        Tree {
            nodes: vec![Node::UNGROWN],
            parents: vec![u32::MAX],
            level_starts: vec![0],
            root_player,
            labels: None,
            case_sensitive: false,
            rare_leaves: 0,
        }
    }

    /// Makes node `id` a leaf of value `v`.
    fn set_leaf(&mut self, id: usize, v: Value) {
        let node = Node::leaf(v);
        self.rare_leaves += u32::from(!node.is_whole());
        self.nodes[id] = node;
    }

    /// Whether every leaf is a whole number a search can compare as [`Whole`].
    #[inline]
    pub(crate) fn is_whole(&self) -> bool {
        self.rare_leaves == 0
    }

    /// Builds the arena from nested lists, numbering nodes breadth-first.
    pub fn from_shape(
        shape: &Shape,
        root_player: Player,
        labels: Option<Vec<String>>,
    ) -> Result<Tree, TreeError> {
        let mut tree = Tree::seed(root_player);
        let mut queue = std::collections::VecDeque::from([(shape, 0u32, 0usize)]);
        while let Some((shape, id, depth)) = queue.pop_front() {
            match shape {
                Shape::Leaf(v) => tree.set_leaf(id as usize, *v),
                Shape::Inner(children) => {
                    if children.is_empty() {
                        return Err(TreeError::EmptyNode);
                    }
                    if depth + 1 > MAX_DEPTH {
                        return Err(TreeError::TooDeep);
                    }
                    if tree.nodes.len() + children.len() > MAX_FILE_NODES {
                        return Err(TreeError::TooLarge);
                    }
                    let first = tree.grow(id, depth, children.len() as u32);
                    for (i, child) in children.iter().enumerate() {
                        queue.push_back((child, first + i as u32, depth + 1));
                    }
                }
            }
        }
        match labels {
            Some(labels) => tree.relabel(labels),
            None => Ok(tree),
        }
    }

    /// Makes `id` (at `depth`) an inner node with `count` new children; returns the first.
    fn grow(&mut self, id: u32, depth: usize, count: u32) -> u32 {
        let first = self.nodes.len() as u32;
        self.nodes[id as usize] = Node::inner(first, count);
        if count > 0 && self.level_starts.len() == depth + 1 {
            self.level_starts.push(first);
        }
        self.nodes
            .extend(std::iter::repeat_n(Node::UNGROWN, count as usize));
        self.parents.extend(std::iter::repeat_n(id, count as usize));
        first
    }

    fn with_labels(mut self, labels: Option<Vec<String>>) -> Result<Tree, TreeError> {
        if let Some(labels) = &labels {
            if labels.len() != self.nodes.len() {
                return Err(TreeError::LabelCount {
                    given: labels.len(),
                    nodes: self.nodes.len(),
                });
            }
            let mut seen = std::collections::BTreeSet::new();
            for label in labels {
                let key = if self.case_sensitive {
                    label.clone()
                } else {
                    label.to_lowercase()
                };
                if !seen.insert(key) {
                    return Err(TreeError::DuplicateLabel(label.clone()));
                }
            }
        }
        self.labels = labels;
        Ok(self)
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
        let mut tree = Tree::seed(root_player);
        let (mut next, mut depth) = (0usize, 0usize);
        while next < tree.nodes.len() {
            if tree
                .level_starts
                .get(depth + 1)
                .is_some_and(|&s| next as u32 >= s)
            {
                depth += 1;
            }
            match grow(depth) {
                Grow::Leaf(v) => tree.set_leaf(next, v),
                Grow::Children(0) => return Err(TreeError::EmptyNode),
                Grow::Children(k) => {
                    if tree.nodes.len() as u64 + u64::from(k) > u64::from(u32::MAX) {
                        return Err(TreeError::TooLarge);
                    }
                    tree.grow(next as u32, depth, k);
                }
            }
            next += 1;
        }
        Ok(tree)
    }

    /// The same tree with these labels, in breadth-first order, none twice
    /// (compared as [`Tree::case_sensitive`] says).
    pub fn relabel(self, labels: Vec<String>) -> Result<Tree, TreeError> {
        self.with_labels(Some(labels))
    }

    /// The same tree, its labels compared with case (`a` and `A` two nodes)
    /// or without: set before [`Tree::relabel`], which checks by it.
    pub fn with_case_sensitive_labels(mut self, on: bool) -> Tree {
        self.case_sensitive = on;
        self
    }

    /// Whether labels are compared with case, by [`Tree::find`] and
    /// [`Tree::relabel`]: only where a file names two nodes that differ
    /// only in case, or asks for it.
    pub fn case_sensitive(&self) -> bool {
        self.case_sensitive
    }

    /// What a search reads of node `id`, without building an iterator.
    #[inline]
    pub(crate) fn kind(&self, id: u32) -> Kind {
        self.kind_as(id)
    }

    /// [`Tree::kind`] with the leaf's value as `V` (see [`Scalar`]).
    #[inline(always)]
    pub(crate) fn kind_as<V: Scalar>(&self, id: u32) -> Kind<V> {
        let n = self.nodes[id as usize];
        if n.kind == INNER {
            Kind::Inner {
                first: n.a,
                count: n.b,
            }
        } else {
            Kind::Leaf(V::of_leaf(n))
        }
    }

    /// A leaf's value as `V`; `id` must be a leaf.
    #[inline(always)]
    pub(crate) fn leaf_as<V: Scalar>(&self, id: u32) -> V {
        let n = self.nodes[id as usize];
        debug_assert!(n.kind != INNER, "node {id} is not a leaf");
        V::of_leaf(n)
    }

    /// The id range of each level, from the root down.
    pub(crate) fn levels(
        &self,
    ) -> impl DoubleEndedIterator<Item = std::ops::Range<u32>> + ExactSizeIterator + '_ {
        let end = self.nodes.len() as u32;
        self.level_starts
            .iter()
            .enumerate()
            .map(move |(i, &s)| s..self.level_starts.get(i + 1).copied().unwrap_or(end))
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
        let (first, count) = match self.kind(id.0) {
            Kind::Inner { first, count } => (first, count),
            Kind::Leaf(_) => (0, 0),
        };
        (first..first + count).map(NodeId)
    }

    /// The parent of `id`, `None` at the root.
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        let p = self.parents[id.index()];
        (p != u32::MAX).then_some(NodeId(p))
    }

    /// The value of a leaf, `None` for an inner node.
    pub fn leaf(&self, id: NodeId) -> Option<Value> {
        match self.kind(id.0) {
            Kind::Leaf(v) => Some(v),
            Kind::Inner { .. } => None,
        }
    }

    /// Distance from the root.
    pub fn depth_of(&self, id: NodeId) -> usize {
        assert!(id.index() < self.nodes.len(), "node {} out of range", id.0);
        self.level_starts.partition_point(|&s| s <= id.0) - 1
    }

    /// The player to move at `id` (levels alternate from the root).
    pub fn player(&self, id: NodeId) -> Player {
        if self.depth_of(id).is_multiple_of(2) {
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

    /// The node with this label (without case unless [`Tree::case_sensitive`];
    /// `é` typed as one character or as `e` and a combining accent is the
    /// same label: see [`crate::input::label_text`]).
    pub fn find(&self, label: &str) -> Option<NodeId> {
        if self.labels.is_none() {
            // Textbook labels number the nodes: read back, never searched for.
            let (wanted, first) = match self.case_sensitive {
                true => (crate::input::label_text(label), b'A'),
                false => (crate::input::label_key(label), b'a'),
            };
            return textbook_index(&wanted, first)
                .filter(|&i| i < self.len())
                .map(|i| NodeId(i as u32));
        }
        if self.case_sensitive {
            let wanted = crate::input::label_text(label);
            return self.ids().find(|&id| self.label(id) == wanted.as_str());
        }
        let wanted = crate::input::label_key(label);
        self.ids()
            .find(|&id| self.label(id).to_lowercase() == wanted)
    }

    /// Leaves in breadth-first order.
    pub fn leaves(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.ids().filter(|&id| self.leaf(id).is_some())
    }

    /// The depth of the deepest leaf.
    pub fn height(&self) -> usize {
        self.level_starts.len() - 1
    }

    /// The first id of the deepest level: every node from it on is a leaf.
    pub fn deepest_level_start(&self) -> usize {
        self.level_starts.last().map_or(0, |&s| s as usize)
    }
}

/// The benchmark tree shared with the C reference in `benches/c/ab.c`: uniform
/// branching `b` and depth `d`, MAX at the root, leaves left to right drawn
/// from SplitMix64 as `(z mod 2001) - 1000`. Public for the bench only.
/// `b = 0` or more than `u32::MAX` nodes is an error.
#[doc(hidden)]
pub fn splitmix_tree(b: u32, d: u32, seed: u64) -> Result<Tree, TreeError> {
    let mut state = seed;
    Tree::build_levels(Player::Max, |depth| {
        if depth < d as usize {
            return Grow::Children(b);
        }
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        Grow::Leaf(Value::Finite((z % 2001) as i64 - 1000))
    })
}

#[cfg(test)]
mod tests {

    #[test]
    fn textbook_labels_are_read_back_as_their_index() {
        for i in [0, 1, 25, 26, 27, 701, 702, 18_277, 18_278, 1_000_000] {
            assert_eq!(textbook_index(&textbook_label(i), b'A'), Some(i), "{i}");
            let lower = textbook_label(i).to_lowercase();
            assert_eq!(textbook_index(&lower, b'a'), Some(i), "{i}");
        }
        for bad in ["", "a1", "Ä", "AZ ", "ZZZZZZZZZZZZZZZZZZZZZZ"] {
            assert_eq!(textbook_index(bad, b'A'), None, "{bad}");
        }
    }

    use super::*;

    fn leaf(v: i64) -> Shape {
        Shape::Leaf(Value::Finite(v))
    }

    #[test]
    fn the_arena_node_is_twelve_bytes() {
        assert_eq!(std::mem::size_of::<Node>(), 12);
    }

    #[test]
    fn leaf_values_round_trip_through_the_packed_node() {
        for v in [
            Value::NegInf,
            Value::PosInf,
            Value::Finite(0),
            Value::Finite(-1),
            Value::Finite(i64::MIN),
            Value::Finite(i64::MAX),
            Value::Finite(1 << 40),
            Value::decimal(-401, 2).unwrap(),
            Value::decimal(-99_999_999_999_999_999, 9).unwrap(),
            Value::decimal(99_999_999_999_999_999, 1).unwrap(),
        ] {
            let tree = Tree::from_shape(&Shape::Leaf(v), Player::Min, None).unwrap();
            assert_eq!(tree.leaf(tree.root()), Some(v));
            assert_eq!(tree.height(), 0);
        }
    }

    #[test]
    fn depths_and_parents_follow_the_levels() {
        let shape = Shape::Inner(vec![
            Shape::Inner(vec![leaf(1), Shape::Inner(vec![leaf(2)])]),
            leaf(3),
        ]);
        let tree = Tree::from_shape(&shape, Player::Max, None).unwrap();
        let depths: Vec<_> = tree.ids().map(|id| tree.depth_of(id)).collect();
        assert_eq!(depths, [0, 1, 1, 2, 2, 3]);
        let parents: Vec<_> = tree.ids().map(|id| tree.parent(id).map(|p| p.0)).collect();
        assert_eq!(parents, [None, Some(0), Some(0), Some(1), Some(1), Some(4)]);
        assert_eq!(tree.height(), 3);
        assert_eq!(tree.player(NodeId(5)), Player::Min);
        let built = Tree::build_levels(Player::Max, |d| match d {
            0 => Grow::Children(2),
            _ => Grow::Leaf(Value::Finite(d as i64)),
        })
        .unwrap();
        assert_eq!(built.to_shape(), Shape::Inner(vec![leaf(1), leaf(1)]));
        assert_eq!(built.height(), 1);
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
        // Compared with case, `x` and `X` are two nodes, each found by its own case alone.
        let exact = Tree::from_shape(&shape, Player::Max, None)
            .unwrap()
            .with_case_sensitive_labels(true);
        let exact = exact.relabel(vec!["x".into(), "X".into()]).unwrap();
        assert_eq!(exact.find("x"), Some(NodeId(0)));
        assert_eq!(exact.find(" X "), Some(NodeId(1)));
        assert_eq!(exact.find("y"), None);
        let err = Tree::from_shape(&shape, Player::Max, None)
            .unwrap()
            .with_case_sensitive_labels(true)
            .relabel(vec!["x".into(), "x".into()])
            .unwrap_err();
        assert_eq!(err, TreeError::DuplicateLabel("x".into()));
    }
}
