//! A plain game tree searched as a game is, under a node budget: every node
//! below the root has a static value (a leaf its value, an inner node the
//! teacher's estimate e(n)), and the search stops where its horizon says, so
//! that an inner node can be evaluated. The searched tree is a [`Lookahead`]
//! whose nodes keep the tree's labels.

use super::lookahead::{Budgets, Horizon, Lookahead, Position, lookahead_within};
use crate::document::{Node as DocNode, Table};
use crate::gametree::{NodeId, Tree};
use crate::generate::{GenerateError, first_satisfying};
use crate::input::{InputError, Reader};
use crate::value::Value;

/// A game tree, its inner nodes' estimates and where the search stops.
#[derive(Clone, Debug)]
pub struct BudgetTree {
    /// The whole tree, as the sheet draws it.
    pub tree: Tree,
    /// e(n) by node id: the inner nodes below the root have one (looked up
    /// for every node a search evaluates).
    estimates: Vec<Option<Value>>,
    /// A node budget, or iterative deepening under one.
    pub horizon: Horizon,
}

/// A node of the tree as a position of a game: its moves are its children.
/// A move is named by the child's id (`#5`), which no label can collide with
/// in a move path (a child labelled `P` would be the root's `P`); the
/// searched tree takes the tree's labels after ([`BudgetTree::lookahead`]).
#[derive(Clone, Copy, Debug)]
pub struct Node<'a> {
    game: &'a BudgetTree,
    /// The node.
    pub id: NodeId,
}

impl Position for Node<'_> {
    fn successors(&self) -> Vec<(String, Self)> {
        (self.children().into_iter())
            .map(|n| (format!("#{}", n.id.0), n))
            .collect()
    }

    fn children(&self) -> Vec<Self> {
        let game = self.game;
        game.tree
            .children(self.id)
            .map(|id| Node { game, id })
            .collect()
    }

    fn child_count(&self) -> usize {
        self.game.tree.children(self.id).count()
    }

    fn evaluate(&self) -> Value {
        self.game.value(self.id)
    }
}

/// The keys of a game-tree file that a budgeted search adds.
pub const KEYS: &[&str] = &["estimates", "budget", "deepening"];

/// Most nodes a budgeted search may evaluate: its tree must fit the key's page.
pub const MAX_LEAVES: usize = 30;

impl BudgetTree {
    /// The inner nodes below the root, breadth-first: the ones `estimates` gives.
    pub fn estimated(tree: &Tree) -> impl Iterator<Item = NodeId> + '_ {
        tree.ids()
            .skip(1)
            .filter(move |&id| tree.leaf(id).is_none())
    }

    /// `tree` with `estimates` for its inner nodes below the root, in
    /// [`BudgetTree::estimated`]'s order (one each: the reader checks).
    pub fn new(tree: Tree, estimates: Vec<Value>, horizon: Horizon) -> BudgetTree {
        let mut by_node = vec![None; tree.len()];
        for (id, e) in Self::estimated(&tree).zip(estimates) {
            by_node[id.index()] = Some(e);
        }
        BudgetTree {
            tree,
            estimates: by_node,
            horizon,
        }
    }

    /// The estimates in the file's order.
    pub fn estimates(&self) -> impl Iterator<Item = Value> + '_ {
        Self::estimated(&self.tree).filter_map(|id| self.estimates[id.index()])
    }

    /// A node's estimate: `None` for the root and the leaves.
    pub fn estimate(&self, id: NodeId) -> Option<Value> {
        self.estimates[id.index()]
    }

    /// The static value of a node below the root: a leaf's value, an inner
    /// node's estimate. The root is never evaluated (a budget is at least 1).
    pub fn value(&self, id: NodeId) -> Value {
        self.tree
            .leaf(id)
            .or(self.estimate(id))
            .unwrap_or(Value::Finite(0))
    }

    fn root(&self) -> Node<'_> {
        Node {
            game: self,
            id: self.tree.root(),
        }
    }

    /// The tree the horizon bounds from the root, its nodes labelled as the
    /// whole tree labels them.
    pub fn lookahead(&self) -> Lookahead<Node<'_>> {
        let mut look = lookahead_within(self.root(), self.tree.root_player(), self.horizon);
        let labels = look
            .positions
            .iter()
            .map(|p| self.tree.label(p.id).into_owned())
            .collect();
        look.tree = look
            .tree
            .with_case_sensitive_labels(self.tree.case_sensitive())
            .relabel(labels)
            .expect("the whole tree's labels are unique");
        look
    }

    /// Iterative deepening from the root under `budget`, iteration by iteration.
    pub fn deepening(&self, budget: u32) -> super::lookahead::Deepening {
        super::lookahead::deepening(&self.root(), budget)
    }

    /// The instance document: the game tree's, then `estimates` and the horizon.
    pub fn document(&self) -> Table {
        let mut doc = crate::gametree::file::document(&self.tree);
        doc.push(
            "estimates",
            DocNode::inline(self.estimates().map(crate::gametree::file::value_node)),
        );
        doc.push(
            super::lookahead::horizon_key(self.horizon),
            self.horizon.allowance(),
        );
        doc
    }
}

/// An estimate, as messages word it.
const ESTIMATE: crate::gametree::file::Number = crate::gametree::file::Number {
    too_large: "this estimate is too large",
    range: "estimates fit in 64 bits; use \"+inf\" or \"-inf\" for won or lost positions",
    noun: "an estimate",
    forms: "estimates are numbers (4, -0.5), or \"+inf\" / \"-inf\" for won / lost positions",
    expected: "an estimate (a number)",
    example: "`estimates = [4, 1, 6]`",
};

/// Reads `estimates` and `budget` or `deepening` beside a game tree: `None`
/// when the file gives none of them (a plain game tree).
pub fn read(
    reader: &Reader<'_>,
    table: &crate::input::Table<'_>,
    tree: &Tree,
) -> Result<Option<BudgetTree>, InputError> {
    let src = reader.source;
    let horizon = super::lookahead::read_horizon(reader, table, None)?;
    let estimates_doc = table.get("estimates");
    let (horizon, estimates_doc) = match (horizon, estimates_doc) {
        (None, None) => return Ok(None),
        (Some(h), Some(d)) => (h, d),
        (None, Some(d)) => {
            return Err(src.error(
                d,
                "estimates without a node budget",
                "estimates are the values a search under a node budget evaluates inner nodes by: add `budget = 6` or `deepening = 12`, or remove `estimates`".to_string(),
            ));
        }
        (Some(_), None) => {
            let inner: Vec<String> = BudgetTree::estimated(tree)
                .map(|id| tree.label(id).into_owned())
                .collect();
            let at = table
                .get("budget")
                .or_else(|| table.get("deepening"))
                .expect("a horizon was read");
            return Err(src.error(
                at,
                "a node budget without estimates",
                format!(
                    "a search under a budget evaluates inner nodes too: give `estimates = [...]`, one value for each inner node below the root, breadth-first ({})",
                    inner.join(", ")
                ),
            ));
        }
    };
    let items = reader.array(estimates_doc, "`estimates = [4, 1, 6]`")?;
    let inner: Vec<NodeId> = BudgetTree::estimated(tree).collect();
    if items.len() != inner.len() {
        let names: Vec<String> = inner
            .iter()
            .map(|&id| tree.label(id).into_owned())
            .collect();
        return Err(src.error(
            estimates_doc,
            format!(
                "{} for {} inner nodes below the root",
                match items.len() {
                    1 => "1 estimate".to_string(),
                    n => format!("{n} estimates"),
                },
                inner.len()
            ),
            format!(
                "give one estimate for each inner node below the root, breadth-first: {}",
                if names.is_empty() {
                    "this tree has none, so remove `estimates` and the budget".to_string()
                } else {
                    names.join(", ")
                }
            ),
        ));
    }
    let estimates = items
        .iter()
        .map(|d| crate::gametree::file::read_number(reader, d, &ESTIMATE))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some(BudgetTree::new(tree.clone(), estimates, horizon)))
}

/// A generated game tree searched under a budget: the tree's parameters and
/// the budget's range.
#[derive(Clone, Debug)]
pub struct Params {
    /// The whole tree.
    pub tree: crate::gametree::generate::Params,
    /// The budget (at least one is given).
    pub budgets: Budgets,
}

impl Params {
    /// Impossible parameters, named.
    pub fn validate(&self) -> Result<(), GenerateError> {
        self.tree.validate()?;
        self.budgets.validate()?;
        if !self.budgets.any() {
            return Err(GenerateError::Invalid(
                "a budgeted search needs `budget` or `deepening`".to_string(),
            ));
        }
        Ok(())
    }
}

/// A random tree with estimates drawn from the leaves' range, searched under
/// a budget that makes its point: lines searched to different depths with at
/// most [`MAX_LEAVES`] evaluated, or a deepening budget that runs out inside
/// an iteration after one completes; then the tree's own constraints (cuts,
/// a unique best move) on the searched tree.
pub fn generate(p: &Params, seed: u64) -> Result<BudgetTree, GenerateError> {
    p.validate()?;
    let (vlo, vhi) = p.tree.values;
    first_satisfying(
        "tree",
        seed,
        |rng| {
            let tree = crate::gametree::generate::draw(&p.tree, rng);
            let estimates = BudgetTree::estimated(&tree)
                .map(|_| Value::Finite(rng.between(vlo, vhi)))
                .collect();
            let horizon = p.budgets.draw(rng).expect("validated: a budget is given");
            let mut game = BudgetTree::new(tree, estimates, horizon);
            game.horizon = p
                .budgets
                .budget_with_point(game.horizon, &game.root(), MAX_LEAVES);
            let searched = game.lookahead().tree;
            (game, searched)
        },
        |(game, _)| game.tree.len(),
        |(game, searched)| {
            if searched.leaves().count() > MAX_LEAVES {
                return Some((0, format!("at most {MAX_LEAVES} nodes evaluated")));
            }
            if let Some(m) = Budgets::unmet(
                game.horizon,
                &game.root(),
                super::lookahead::uneven(searched),
            ) {
                return Some((1, m));
            }
            p.tree.unmet(searched).map(|m| (1, m))
        },
    )
    .map(|(game, _)| game)
}
