//! The key of one exercise as data: typed answers (ids, not labels) and the
//! solver's trace. Written into the manifest and read back by the grader, so
//! grading never solves again; every view (sheet, key, feedback, `solve`)
//! renders from it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::andor::{AoStar, Cost, Optimal};
use crate::chance::Expectiminimax;
use crate::gametree::{AlphaBeta, Bound, Minimax, Player};
use crate::instance::{Item, Model};
use crate::value::{Ratio, Value};

/// The key's answer to one field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Answer {
    /// A game value (integer or ±inf).
    Value(Value),
    /// A cost (integer or +inf).
    Cost(Cost),
    /// One item; when several are equally right (tied best moves), each of
    /// them, the key's own first.
    One(Vec<Item>),
    /// Items in any order.
    Set(Vec<Item>),
    /// Items in order.
    Sequence(Vec<Item>),
    /// A value per item, in the drawing's order.
    Values(Vec<(Item, Value)>),
    /// A value or a bound per item.
    Bounds(Vec<(Item, Bound)>),
    /// An exact fraction per item (expectations), in the drawing's order.
    Fractions(Vec<(Item, Ratio)>),
}

/// What the solver found, kept whole so explanations quote it without solving again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "solver", rename_all = "kebab-case")]
pub enum Trace {
    /// Minimax over a game tree.
    Minimax(Minimax),
    /// Alpha-beta over a game tree.
    AlphaBeta(AlphaBeta),
    /// A game position's lookahead: e(P), minimax and alpha-beta over its tree.
    Lookahead {
        /// e(P) of the position shown.
        eval: Value,
        /// Minimax over the lookahead tree.
        minimax: Minimax,
        /// Alpha-beta over it.
        alpha_beta: AlphaBeta,
    },
    /// Which nodes of an AND/OR graph are solvable.
    Solvable {
        /// Per node.
        solvable: Vec<bool>,
    },
    /// The optimal solution graph by sum and by max cost.
    SolutionCost {
        /// Under the sum model.
        sum: Optimal,
        /// Under the max model.
        max: Optimal,
    },
    /// AO* cycle by cycle.
    AoStar(AoStar),
    /// Grundy's game: who wins each state.
    Grundy {
        /// Per state, by index.
        wins_for: Vec<Player>,
    },
    /// An Othello position's terms: where its stable and frontier discs
    /// and its regions of empty squares are.
    OthelloTerms(crate::games::othello::Terms),
    /// EXPECTIMINIMAX over a chance tree.
    Expectiminimax(Expectiminimax),
}

/// The key of one exercise.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Key {
    /// The answer to every field the kind knows, by field name.
    pub answers: BTreeMap<String, Answer>,
    /// The solver's trace.
    pub trace: Trace,
}

/// The solver whose trace a key holds: one per [`Trace`] variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solver {
    /// [`Trace::Minimax`].
    Minimax,
    /// [`Trace::AlphaBeta`].
    AlphaBeta,
    /// [`Trace::Lookahead`].
    Lookahead,
    /// [`Trace::Solvable`].
    Solvable,
    /// [`Trace::SolutionCost`].
    SolutionCost,
    /// [`Trace::AoStar`].
    AoStar,
    /// [`Trace::Grundy`].
    Grundy,
    /// [`Trace::OthelloTerms`].
    OthelloTerms,
    /// [`Trace::Expectiminimax`].
    Expectiminimax,
}

impl Solver {
    /// Its name, as messages about a read-back key write it.
    pub fn name(self) -> &'static str {
        match self {
            Solver::Minimax => "minimax",
            Solver::AlphaBeta => "alpha-beta",
            Solver::Lookahead => "lookahead",
            Solver::Solvable => "solvable",
            Solver::SolutionCost => "solution-cost",
            Solver::AoStar => "ao-star",
            Solver::Grundy => "grundy",
            Solver::OthelloTerms => "othello-terms",
            Solver::Expectiminimax => "expectiminimax",
        }
    }
}

impl std::fmt::Display for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Trace {
    /// The solver that made it.
    pub fn solver(&self) -> Solver {
        match self {
            Trace::Minimax(_) => Solver::Minimax,
            Trace::AlphaBeta(_) => Solver::AlphaBeta,
            Trace::Lookahead { .. } => Solver::Lookahead,
            Trace::Solvable { .. } => Solver::Solvable,
            Trace::SolutionCost { .. } => Solver::SolutionCost,
            Trace::AoStar(_) => Solver::AoStar,
            Trace::Grundy { .. } => Solver::Grundy,
            Trace::OthelloTerms(_) => Solver::OthelloTerms,
            Trace::Expectiminimax(_) => Solver::Expectiminimax,
        }
    }
}

impl Key {
    /// A key from answers in field order and a trace.
    pub fn new(answers: Vec<(&str, Answer)>, trace: Trace) -> Key {
        Key {
            answers: answers
                .into_iter()
                .map(|(f, a)| (f.to_string(), a))
                .collect(),
            trace,
        }
    }

    /// The answer to `field`, if the kind has that field.
    pub fn answer(&self, field: &str) -> Option<&Answer> {
        self.answers.get(field)
    }

    /// Checks that every id of the key names something in `model` (one of
    /// its nodes or states, or connectors), and that the trace's tables have
    /// one entry per node, so nothing read back from a file can index outside
    /// the instance.
    pub fn check_ids(&self, model: &Model<'_>) -> Result<(), String> {
        let (nodes, connectors) = (model.nodes(), model.connectors());
        let node = |n: u32| (n as usize) < nodes;
        let item_ok = |i: &Item| match *i {
            Item::Node(n) => node(n),
            Item::Connector(c) => (c as usize) < connectors,
            Item::Move(a, b) => node(a) && node(b),
            Item::Player(_) => true,
        };
        // Each item once per answer: an edited key cannot be longer than the
        // instance has items, so grading against it is bounded by the instance.
        for (field, answer) in &self.answers {
            let (ok, distinct) = match answer {
                Answer::Value(_) | Answer::Cost(_) => (true, true),
                Answer::One(items) => (
                    !items.is_empty() && items.iter().all(item_ok),
                    once(items.iter().copied()),
                ),
                Answer::Set(items) | Answer::Sequence(items) => {
                    (items.iter().all(item_ok), once(items.iter().copied()))
                }
                Answer::Values(pairs) => (
                    pairs.iter().all(|(i, _)| item_ok(i)),
                    once(pairs.iter().map(|&(i, _)| i)),
                ),
                Answer::Bounds(pairs) => (
                    pairs.iter().all(|(i, _)| item_ok(i)),
                    once(pairs.iter().map(|&(i, _)| i)),
                ),
                Answer::Fractions(pairs) => (
                    pairs.iter().all(|(i, _)| item_ok(i)),
                    once(pairs.iter().map(|&(i, _)| i)),
                ),
            };
            if !ok {
                return Err(format!(
                    "the key's `{field}` names something the instance lacks"
                ));
            }
            if !distinct {
                return Err(format!("the key's `{field}` lists an item twice"));
            }
        }
        if !self.trace_lists_fit(nodes, connectors) {
            return Err(format!(
                "the key's {} trace lists more than the instance has",
                self.trace.solver()
            ));
        }
        let fits = match &self.trace {
            Trace::Minimax(mm) => model.tree().is_some_and(|t| mm.fits(t)),
            Trace::AlphaBeta(ab) => ab.fits(nodes),
            Trace::Lookahead {
                minimax,
                alpha_beta,
                ..
            } => model.tree().is_some_and(|t| minimax.fits(t)) && alpha_beta.fits(nodes),
            Trace::Solvable { solvable } => solvable.len() == nodes,
            Trace::SolutionCost { sum, max } => {
                sum.fits(nodes, connectors) && max.fits(nodes, connectors)
            }
            Trace::AoStar(run) => run.fits(nodes, connectors),
            Trace::Grundy { wins_for } => wins_for.len() == nodes,
            // Squares, not the model's nodes: regions never overlap.
            Trace::OthelloTerms(t) => t
                .regions
                .iter()
                .try_fold(0u64, |seen, &r| {
                    (r != 0 && seen & r == 0).then_some(seen | r)
                })
                .is_some(),
            Trace::Expectiminimax(e) => {
                e.values.len() == nodes
                    && e.best_moves.iter().all(|n| n.index() < nodes)
                    && e.steps.iter().all(|s| {
                        s.node.index() < nodes && s.terms.iter().all(|t| t.child.index() < nodes)
                    })
            }
        };
        if fits {
            Ok(())
        } else {
            Err(format!(
                "the key's {} trace does not fit the instance",
                self.trace.solver()
            ))
        }
    }

    /// Whether no list of the trace is longer than a search of the instance
    /// can make it (a node is evaluated, pruned or cut at once, expanded by
    /// AO* once; a search takes at most [`STEPS_PER_NODE`] steps per node):
    /// lengths only, so an edited trace is refused in constant time per list.
    fn trace_lists_fit(&self, nodes: usize, connectors: usize) -> bool {
        let minimax =
            |mm: &Minimax| mm.best_moves.len() <= nodes && mm.principal_variation.len() <= nodes;
        let alpha_beta = |ab: &AlphaBeta| {
            [
                ab.evaluated.len(),
                ab.pruned.len(),
                ab.cuts.len(),
                ab.widened.len(),
                ab.backed.len(),
            ]
            .iter()
            .all(|&n| n <= nodes)
                && ab.steps().len() <= STEPS_PER_NODE * nodes.max(1)
        };
        match &self.trace {
            Trace::Minimax(mm) => minimax(mm),
            Trace::AlphaBeta(ab) => alpha_beta(ab),
            Trace::Lookahead {
                minimax: mm,
                alpha_beta: ab,
                ..
            } => minimax(mm) && alpha_beta(ab),
            Trace::SolutionCost { sum, max } => [sum, max]
                .iter()
                .all(|o| o.solution.len() <= connectors && o.ties.len() <= nodes),
            Trace::AoStar(run) => {
                run.expanded.len() <= nodes
                    && run.cycles.len() <= nodes
                    && run.solution.len() <= connectors
            }
            Trace::Solvable { .. } | Trace::Grundy { .. } => true,
            Trace::OthelloTerms(t) => t.regions.len() <= 64,
            // A step per inner node, a term per child.
            Trace::Expectiminimax(e) => {
                e.best_moves.len() <= nodes
                    && e.steps.len() <= nodes
                    && e.steps.iter().map(|s| s.terms.len()).sum::<usize>() <= nodes
            }
        }
    }

    /// The minimax search of the key, if it has one.
    pub fn minimax(&self) -> Option<&Minimax> {
        match &self.trace {
            Trace::Minimax(mm) | Trace::Lookahead { minimax: mm, .. } => Some(mm),
            _ => None,
        }
    }

    /// The alpha-beta search of the key, if it has one.
    pub fn alpha_beta(&self) -> Option<&AlphaBeta> {
        match &self.trace {
            Trace::AlphaBeta(ab) | Trace::Lookahead { alpha_beta: ab, .. } => Some(ab),
            _ => None,
        }
    }

    /// The other right answer for an item of a `Bounds` field: where the key
    /// states an exact value that the search itself backs up as a bound
    /// (fail-hard's bound in force), a student who follows the procedure
    /// writes that bound, and it is true too.
    pub fn also_right(&self, item: Item) -> Option<Bound> {
        let Item::Node(n) = item else { return None };
        let ab = self.alpha_beta()?;
        ab.backed
            .iter()
            .find(|(id, _)| id.0 == n)
            .map(|&(_, claim)| claim)
    }
}

/// Whether no item comes twice (a hash set: linear).
fn once(items: impl IntoIterator<Item = Item>) -> bool {
    let mut seen = std::collections::HashSet::new();
    items.into_iter().all(|i| seen.insert(i))
}

/// Most steps an alpha-beta trace takes per node of its tree: entering it,
/// evaluating it (a leaf), its parent improving on it, a cut at it, leaving
/// it; with room to spare.
const STEPS_PER_NODE: usize = 8;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_read_back_what_they_write() {
        for item in [
            Item::Node(0),
            Item::Node(417),
            Item::Connector(3),
            Item::Move(2, 15),
            Item::Player(Player::Max),
            Item::Player(Player::Min),
        ] {
            assert_eq!(item.to_string().parse::<Item>(), Ok(item));
        }
        for bad in ["", "n", "x3", "n-1", "m3", "m3>", "MAX", "n4294967296"] {
            assert!(bad.parse::<Item>().is_err(), "{bad}");
        }
    }
}
