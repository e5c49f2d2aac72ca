//! Alpha-beta pruning with a trace a key can print.
//!
//! Conventions (DESIGN §3, docs/conventions.md): depth-first, children left to
//! right unless [`Order::RightToLeft`]. A MAX node's α is the largest value
//! backed up so far from its children; a MIN node's β the smallest. Bounds are
//! compared with every ancestor (deep cutoffs):
//! - **α-cut** at a MIN node once its β ≤ the α of some MAX ancestor;
//! - **β-cut** at a MAX node once its α ≥ the β of some MIN ancestor;
//!
//! with `<`/`>` instead when `prune_on_equal` is off. The cut is attributed to
//! the *nearest* ancestor whose bound satisfies the condition.
//!
//! Every examined node gets what the search proves about it: an exact value,
//! or a bound. Exactness is derived from the children (an unexamined child can
//! be anything), so a MIN node whose leaves were all evaluated is exact even if
//! its value lies below the window. For a node that is only bounded:
//! - a cut node reports its own bound at the cut (`≤2` at a MIN node) in both modes;
//! - a node that fails on its own side (a MAX node none of whose children beat
//!   the α in force) reports, fail-hard, the window bound it was searched with
//!   (`≤α`, Knuth & Moore's F1), fail-soft the tightest bound its children give (F2).

use serde::Serialize;

use super::tree::{NodeId, Player, Tree};
use crate::value::Value;

/// The order in which a node's children are searched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// Leftmost child first (the textbook default).
    #[default]
    LeftToRight,
    /// Rightmost child first.
    RightToLeft,
}

/// How a node known only by a bound reports that bound.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ValueMode {
    /// A node failing on its own side reports the window's bound (F1).
    #[default]
    FailHard,
    /// Such a node reports the tightest bound its children give (F2).
    FailSoft,
}

/// The conventions of one alpha-beta run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Options {
    /// Child order.
    pub order: Order,
    /// Prune when the bounds are equal (`≤`/`≥`), not only when strictly crossed.
    pub prune_on_equal: bool,
    /// Fail-hard or fail-soft bounds.
    pub values: ValueMode,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            order: Order::LeftToRight,
            prune_on_equal: true,
            values: ValueMode::FailHard,
        }
    }
}

/// α-cut or β-cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CutKind {
    /// At a MIN node, caused by a MAX ancestor's α.
    Alpha,
    /// At a MAX node, caused by a MIN ancestor's β.
    Beta,
}

/// One cutoff.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Cut {
    /// The node whose remaining children were skipped.
    pub at: NodeId,
    /// α-cut (at a MIN node) or β-cut (at a MAX node).
    pub kind: CutKind,
    /// The nearest ancestor whose bound caused the cut.
    pub by: NodeId,
    /// The bound of `at` at the moment of the cut (its β for an α-cut).
    pub at_bound: Value,
    /// The bound of `by` (its α for an α-cut).
    pub by_bound: Value,
    /// The skipped children, in search order.
    pub pruned: Vec<NodeId>,
}

impl Cut {
    /// A deep cutoff: caused by an ancestor above the parent.
    pub fn is_deep(&self, tree: &Tree) -> bool {
        tree.parent(self.at) != Some(self.by)
    }
}

/// What the search proved about an examined node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact minimax value.
    Exact(Value),
    /// The value is at most this (written `≤v`).
    AtMost(Value),
    /// The value is at least this (written `≥v`).
    AtLeast(Value),
}

impl Bound {
    /// The number, whatever the relation.
    pub fn value(self) -> Value {
        match self {
            Bound::Exact(v) | Bound::AtMost(v) | Bound::AtLeast(v) => v,
        }
    }

    /// The interval of true values it allows.
    fn interval(self) -> (Value, Value) {
        match self {
            Bound::Exact(v) => (v, v),
            Bound::AtMost(v) => (Value::NegInf, v),
            Bound::AtLeast(v) => (v, Value::PosInf),
        }
    }

    /// Whether `truth` is allowed by this bound.
    pub fn admits(self, truth: Value) -> bool {
        let (lo, hi) = self.interval();
        lo <= truth && truth <= hi
    }
}

/// An exact value as a value (`3`, `"+inf"`), a bound as a string (`"<=2"`).
impl Serialize for Bound {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Bound::Exact(v) => v.serialize(s),
            other => s.serialize_str(&other.to_string()),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Bound {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Bound, D::Error> {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Exact(Value),
            Text(String),
        }
        match Raw::deserialize(d)? {
            Raw::Exact(v) => Ok(Bound::Exact(v)),
            Raw::Text(s) => Bound::parse(&s)
                .ok_or_else(|| serde::de::Error::custom(format!("`{s}` is not a bound"))),
        }
    }
}

impl Bound {
    /// Reads what [`Display`](std::fmt::Display) writes: `3`, `+inf`, `<=2`, `>=-inf`.
    pub fn parse(s: &str) -> Option<Bound> {
        let (make, rest): (fn(Value) -> Bound, &str) = if let Some(r) = s.strip_prefix("<=") {
            (Bound::AtMost, r)
        } else if let Some(r) = s.strip_prefix(">=") {
            (Bound::AtLeast, r)
        } else {
            (Bound::Exact, s)
        };
        Value::parse(rest).map(make)
    }
}

impl std::fmt::Display for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Bound::Exact(v) => write!(f, "{v}"),
            Bound::AtMost(v) => write!(f, "<={v}"),
            Bound::AtLeast(v) => write!(f, ">={v}"),
        }
    }
}

/// One line of the trace; `alpha`/`beta` are the bounds in force at `node`
/// after the event (its own bound included).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Step {
    /// The node the event is about.
    pub node: NodeId,
    /// The largest α of `node` and its MAX ancestors.
    pub alpha: Value,
    /// The smallest β of `node` and its MIN ancestors.
    pub beta: Value,
    /// What happened.
    pub event: Event,
}

/// What happened in a [`Step`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Event {
    /// The search entered an inner node.
    Enter,
    /// A leaf was evaluated.
    Leaf(Value),
    /// An inner node's own bound (α at MAX, β at MIN) improved to this value.
    Improve(Value),
    /// A cut happened: index into [`AlphaBeta::cuts`].
    Cut(usize),
    /// The search left an inner node with this result.
    Exit(Bound),
}

/// The full result of alpha-beta on a tree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct AlphaBeta {
    /// The conventions used.
    pub options: Options,
    /// The root's value (always exact).
    pub value: Value,
    /// Per node: what the search proved, `None` if never examined.
    pub bounds: Vec<Option<Bound>>,
    /// Leaves in the order they were evaluated.
    pub evaluated: Vec<NodeId>,
    /// Every cut, in the order they happened.
    pub cuts: Vec<Cut>,
    /// The roots of the skipped subtrees, by id.
    pub pruned: Vec<NodeId>,
    /// Every node never examined (the pruned roots and all below them), by id.
    pub unexamined: Vec<NodeId>,
    /// Fail-hard only: nodes whose bound was widened to the window's edge, with
    /// the tighter bound their children give (what fail-soft would report).
    pub widened: Vec<(NodeId, Bound)>,
    /// The step-by-step trace.
    pub steps: Vec<Step>,
}

impl AlphaBeta {
    /// Whether every id of the result lies below `nodes` and it has a bound
    /// slot per node (a result read back from a file is checked with this).
    pub fn fits(&self, nodes: usize) -> bool {
        let ok = |n: &NodeId| n.index() < nodes;
        self.bounds.len() == nodes
            && self.evaluated.iter().all(ok)
            && self.pruned.iter().all(ok)
            && self.unexamined.iter().all(ok)
            && self.widened.iter().all(|(n, _)| ok(n))
            && self
                .cuts
                .iter()
                .all(|c| ok(&c.at) && ok(&c.by) && c.pruned.iter().all(ok))
            && self
                .steps
                .iter()
                .all(|s| ok(&s.node) && !matches!(s.event, Event::Cut(i) if i >= self.cuts.len()))
    }
}

struct Frame {
    node: NodeId,
    player: Player,
    own: Value,
    /// Whether a child has backed up a value yet (before that, the node has no α or β).
    bounded: bool,
}

struct Search<'t> {
    tree: &'t Tree,
    options: Options,
    stack: Vec<Frame>,
    out: AlphaBeta,
}

/// Runs alpha-beta from the root with the window (-inf, +inf).
pub fn alpha_beta(tree: &Tree, options: Options) -> AlphaBeta {
    let out = AlphaBeta {
        options,
        value: Value::NegInf,
        bounds: vec![None; tree.len()],
        evaluated: Vec::new(),
        cuts: Vec::new(),
        pruned: Vec::new(),
        unexamined: Vec::new(),
        widened: Vec::new(),
        steps: Vec::new(),
    };
    let mut search = Search {
        tree,
        options,
        stack: Vec::new(),
        out,
    };
    let root = search.visit(tree.root(), Value::NegInf, Value::PosInf);
    let mut out = search.out;
    out.value = root.value();
    out.pruned.sort_unstable();
    // Exactly the nodes the search never reached, in id order.
    out.unexamined = tree
        .ids()
        .filter(|id| out.bounds[id.index()].is_none())
        .collect();
    out
}

impl Search<'_> {
    /// Whether `own` (a node's α or β) has reached `bound` (the opposite bound in force).
    fn reaches(&self, player: Player, own: Value, bound: Value) -> bool {
        match (player, self.options.prune_on_equal) {
            (Player::Max, true) => own >= bound,
            (Player::Max, false) => own > bound,
            (Player::Min, true) => own <= bound,
            (Player::Min, false) => own < bound,
        }
    }

    fn step(&mut self, node: NodeId, alpha: Value, beta: Value, event: Event) {
        self.out.steps.push(Step {
            node,
            alpha,
            beta,
            event,
        });
    }

    fn visit(&mut self, node: NodeId, alpha: Value, beta: Value) -> Bound {
        let tree = self.tree;
        if let Some(v) = tree.leaf(node) {
            self.out.evaluated.push(node);
            self.step(node, alpha, beta, Event::Leaf(v));
            self.out.bounds[node.index()] = Some(Bound::Exact(v));
            return Bound::Exact(v);
        }
        let player = tree.player(node);
        let is_max = player == Player::Max;
        self.step(node, alpha, beta, Event::Enter);
        let mut children: Vec<NodeId> = tree.children(node).collect();
        if self.options.order == Order::RightToLeft {
            children.reverse();
        }
        // `own` is the node's α (MAX) or β (MIN); [lo, hi] is what the children prove.
        let mut own = if is_max { Value::NegInf } else { Value::PosInf };
        let (mut lo, mut hi) = (own, own);
        self.stack.push(Frame {
            node,
            player,
            own,
            bounded: false,
        });
        for (i, &child) in children.iter().enumerate() {
            let (a, b) = if is_max {
                (alpha.max(own), beta)
            } else {
                (alpha, beta.min(own))
            };
            let result = self.visit(child, a, b);
            let (clo, chi) = result.interval();
            if is_max {
                (lo, hi) = (lo.max(clo), hi.max(chi));
            } else {
                (lo, hi) = (lo.min(clo), hi.min(chi));
            }
            let v = result.value();
            // After its first child, a node has an α or β, even one of ±inf.
            self.stack.last_mut().expect("own frame").bounded = true;
            if (is_max && v > own) || (!is_max && v < own) {
                own = v;
                self.stack.last_mut().expect("own frame").own = own;
                let (a, b) = if is_max {
                    (alpha.max(own), beta)
                } else {
                    (alpha, beta.min(own))
                };
                self.step(node, a, b, Event::Improve(own));
            }
            let opposite = if is_max { beta } else { alpha };
            if self.reaches(player, own, opposite) {
                let rest = &children[i + 1..];
                if !rest.is_empty() && self.cut(node, player, own, rest, alpha, beta) {
                    if is_max {
                        hi = Value::PosInf
                    } else {
                        lo = Value::NegInf
                    }
                    break;
                }
            }
        }
        self.stack.pop();
        // [lo, hi] is what the examined children prove. When it is two-sided
        // (say one child failed high, another is exact and larger), report the
        // side on which the search failed, as the backed-up value says.
        // Fail-hard widens a bound on the node's own side to the window's edge.
        let hard = self.options.values == ValueMode::FailHard;
        let upper = lo == Value::NegInf || (hi != Value::PosInf && own < beta);
        let (bound, tight) = if lo == hi {
            (Bound::Exact(lo), Bound::Exact(lo))
        } else if upper {
            (
                Bound::AtMost(if is_max && hard { hi.max(alpha) } else { hi }),
                Bound::AtMost(hi),
            )
        } else {
            (
                Bound::AtLeast(if !is_max && hard { lo.min(beta) } else { lo }),
                Bound::AtLeast(lo),
            )
        };
        if bound != tight {
            self.out.widened.push((node, tight));
        }
        self.out.bounds[node.index()] = Some(bound);
        let (a, b) = if is_max {
            (alpha.max(own), beta)
        } else {
            (alpha, beta.min(own))
        };
        self.step(node, a, b, Event::Exit(bound));
        bound
    }

    /// Records a cut if an ancestor's bound causes it; returns whether one did.
    /// (A bound of ±inf that no child backed up is the initial window, not an
    /// ancestor's α or β, so it causes no cut.)
    fn cut(
        &mut self,
        node: NodeId,
        player: Player,
        own: Value,
        pruned: &[NodeId],
        alpha: Value,
        beta: Value,
    ) -> bool {
        let ancestors = &self.stack[..self.stack.len() - 1];
        let Some(by) = ancestors
            .iter()
            .rev()
            .find(|f| f.player != player && f.bounded && self.reaches(player, own, f.own))
        else {
            return false;
        };
        let cut = Cut {
            at: node,
            kind: if player == Player::Max {
                CutKind::Beta
            } else {
                CutKind::Alpha
            },
            by: by.node,
            at_bound: own,
            by_bound: by.own,
            pruned: pruned.to_vec(),
        };
        self.out.cuts.push(cut);
        let (a, b) = if player == Player::Max {
            (alpha.max(own), beta)
        } else {
            (alpha, beta.min(own))
        };
        self.step(node, a, b, Event::Cut(self.out.cuts.len() - 1));
        self.out.pruned.extend(pruned);
        true
    }
}
