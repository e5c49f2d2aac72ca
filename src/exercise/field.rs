//! What a kind asks: its fields, each with the shape of its answer and the
//! items it can name.

use serde::Serialize;

use super::key::Answer;
use crate::gametree;
use crate::instance::{Item, Model};
use crate::scoring::OrderScoring;

/// A field an exercise can ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The key in answer files, e.g. `pruned`.
    pub name: &'static str,
    /// The shape of its answer.
    pub shape: Shape,
    /// Which items its answer can name, by the field's definition alone.
    pub domain: Domain,
    /// Another field of the kind that asks, on its own, this field's entry
    /// for the root (the start state): minimax's `value` is the root's row of
    /// `values`, Grundy's `winner` says whether the start is among
    /// `max_wins`. It comes earlier in the kind's order. A form that asks both
    /// (Moodle's) leaves the root's entry out of this field.
    pub root_field: Option<&'static str>,
    /// The other of two lists of one kind of item that a student can mix up
    /// (α-cuts and β-cuts): an item of the one put in the other is said to be
    /// swapped, and may earn half a hit ([`SwapRule`](crate::scoring::SwapRule)).
    pub swaps_with: Option<&'static str>,
    /// How an order (a [`Shape::Sequence`]) earns partial credit: a visit
    /// order by its common subsequence with the key, a path by its correct
    /// prefix.
    pub order: OrderScoring,
}

impl Field {
    /// A field whose answer can name any item of its shape, and no other
    /// field asks its root's entry.
    pub const fn new(name: &'static str, shape: Shape) -> Field {
        Field {
            name,
            shape,
            domain: Domain::Any,
            root_field: None,
            swaps_with: None,
            order: OrderScoring::Lcs,
        }
    }

    /// The same field, naming only the items of `domain`.
    pub const fn within(self, domain: Domain) -> Field {
        Field { domain, ..self }
    }

    /// The same field, paired with `field` (see [`Field::swaps_with`]).
    pub const fn paired_with(self, field: &'static str) -> Field {
        Field {
            swaps_with: Some(field),
            ..self
        }
    }

    /// The same order, scored by `order` ([`Field::order`]).
    pub const fn scored(self, order: OrderScoring) -> Field {
        Field { order, ..self }
    }

    /// The same field, whose root's entry `field` asks on its own.
    pub const fn root_asked_by(self, field: &'static str) -> Field {
        Field {
            root_field: Some(field),
            ..self
        }
    }
}

/// The items a field's answer can name by its definition, whatever the
/// instance's answer: what a form that lists choices (Moodle's check boxes
/// and drop-downs) offers. It never depends on the key, and never restricts
/// by what the exercise asks the student to work out (whether a node is MAX
/// or MIN, which nodes are examined): only by what the field is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Domain {
    /// Any item of the model that its shape names: a node (a state), a
    /// connector for connector fields; for numbers and tables, what their
    /// rows name.
    Any,
    /// A child of the root: a move from it.
    RootChildren,
    /// MAX or MIN.
    Players,
    /// A move of Grundy's game graph.
    Moves,
    /// A square of the board (Othello's legal moves): the model names only
    /// the moves searched, so these are not its labels.
    Squares,
    /// Where a cut can happen: an inner node with two children or more. A
    /// cut is recorded only while children are left to skip after the one
    /// that returned (docs/conventions.md).
    CutNodes,
    /// The root of a pruned branch: neither the root nor the child its parent
    /// searches first (a cut skips only children after one that returned).
    /// The answer sheet also accepts nodes below such a root.
    PrunedRoots,
    /// A number that counts squares, discs or moves of a board (Othello's
    /// terms): at most its 64 squares. It names no items.
    Counts,
    /// A number of plies a search reaches (iterative deepening's completed
    /// depth): at most the tree's height, or the node budget. It names no items.
    Depths,
}

impl Domain {
    /// The items of `model` in the domain, in id order (the figure's), for
    /// a field of `shape` whose tree is searched in `order`.
    pub fn items(self, model: &Model<'_>, shape: Shape, order: gametree::Order) -> Vec<Item> {
        use gametree::{NodeId, Player};
        let tree_nodes = |keep: &dyn Fn(&gametree::Tree, NodeId) -> bool| -> Vec<Item> {
            let Some(t) = model.tree() else {
                return Vec::new();
            };
            t.ids()
                .filter(|&n| keep(t, n))
                .map(|n| Item::Node(n.0))
                .collect()
        };
        match self {
            Domain::Players => vec![Item::Player(Player::Max), Item::Player(Player::Min)],
            Domain::Moves => model.grundy().map_or_else(Vec::new, |g| {
                g.moves
                    .iter()
                    .enumerate()
                    .flat_map(|(s, next)| next.iter().map(move |&m| Item::Move(s as u32, m as u32)))
                    .collect()
            }),
            Domain::RootChildren => tree_nodes(&|t, n| t.parent(n) == Some(t.root())),
            Domain::CutNodes => tree_nodes(&|t, n| t.children(n).len() >= 2),
            Domain::PrunedRoots => tree_nodes(&|t, n| {
                t.parent(n).is_some_and(|p| {
                    let first = match order {
                        gametree::Order::LeftToRight => t.children(p).next(),
                        gametree::Order::RightToLeft => t.children(p).next_back(),
                    };
                    first != Some(n)
                })
            }),
            // Squares are not the model's labels (it names the moves searched).
            Domain::Squares | Domain::Counts | Domain::Depths => Vec::new(),
            Domain::Any if shape == Shape::Connectors => (0..model.connectors() as u32)
                .map(Item::Connector)
                .collect(),
            Domain::Any => (0..model.nodes() as u32).map(Item::Node).collect(),
        }
    }
}

/// The kinds of answer a field takes, for the blank sheet's hints and for grading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Shape {
    /// An integer or `"+inf"` / `"-inf"`.
    Value,
    /// A non-negative integer or `"+inf"`.
    Cost,
    /// One label.
    Label,
    /// Labels in any order.
    Labels,
    /// Labels in order.
    Sequence,
    /// Connectors `"n0 -> n1 + n2"` in any order.
    Connectors,
    /// A table `{ B = 3, C = 2 }`.
    Values,
    /// A table of values and bounds `{ B = 3, C = "<=2" }`.
    Bounds,
    /// A table of exact values `{ B = "23/3", C = 4 }`: whole numbers, or
    /// fractions as strings.
    Fractions,
}

impl Shape {
    /// Whether a key's answer has this shape.
    pub fn admits(self, answer: &Answer) -> bool {
        matches!(
            (self, answer),
            (Shape::Value, Answer::Value(_))
                | (Shape::Cost, Answer::Cost(_))
                | (Shape::Label, Answer::One(_))
                | (Shape::Labels | Shape::Connectors, Answer::Set(_))
                | (Shape::Sequence, Answer::Sequence(_))
                | (Shape::Values, Answer::Values(_))
                | (Shape::Bounds, Answer::Bounds(_))
                | (Shape::Fractions, Answer::Fractions(_))
        )
    }
}
