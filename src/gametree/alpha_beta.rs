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
//!
//! One search serves [`alpha_beta`] (the full trace) and [`alpha_beta_summary`]
//! (value and counts only): it is generic over a recorder, and the summary's
//! recorder does nothing, so its calls compile away. Everything the trace keeps
//! is proportional to the nodes the search examines, never to the whole tree.

use serde::{Deserialize, Serialize};

use super::tree::{Kind, NodeId, Player, Scalar, Tree, Whole};
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
    /// Knuth & Moore's F1: a node's value starts at the window's bound, so a
    /// node failing on its own side backs up that bound.
    FailHard,
    /// Knuth & Moore's F2, AIMA's ALPHA-BETA-SEARCH: a node's value starts at
    /// ∓∞ and is the best its children back up.
    #[default]
    FailSoft,
}

/// The conventions of one alpha-beta run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Options {
    /// Child order.
    pub order: Order,
    /// Prune when the bounds are equal (`≤`/`≥`), not only when strictly crossed.
    pub prune_on_equal: bool,
    /// Fail-hard (F1) or fail-soft (F2).
    pub values: ValueMode,
    /// Whether the initial window (−∞, +∞) is a bound a cut can reach: AIMA's
    /// and Knuth & Moore's code stop at a MAX node once a child is +∞ (a won
    /// position ends the search); the rule "compare with the ancestors" does
    /// not, as the root has none. Irrelevant under the strict rule.
    #[serde(default)]
    pub initial_window_counts: bool,
}

impl Default for Options {
    /// The `textbook` preset.
    fn default() -> Options {
        Options {
            order: Order::LeftToRight,
            prune_on_equal: true,
            values: ValueMode::FailSoft,
            initial_window_counts: false,
        }
    }
}

/// α-cut or β-cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CutKind {
    /// At a MIN node, caused by a MAX ancestor's α.
    Alpha,
    /// At a MAX node, caused by a MIN ancestor's β.
    Beta,
}

/// The children skipped at one cut. Siblings have consecutive ids and the
/// search skips the rest of them, so they are one id range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pruned {
    first: NodeId,
    len: u32,
    /// Searched right to left: the range is listed from its last id down.
    reversed: bool,
}

impl Pruned {
    /// The skipped children, in search order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = NodeId> + ExactSizeIterator + use<> {
        let Pruned {
            first,
            len,
            reversed,
        } = *self;
        (0..len).map(move |i| {
            NodeId(if reversed {
                first.0 + len - 1 - i
            } else {
                first.0 + i
            })
        })
    }

    /// How many children were skipped.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Never true for a recorded cut (a cut skips at least one child).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether `id` is one of the skipped children.
    pub fn contains(&self, id: NodeId) -> bool {
        (self.first.0..self.first.0 + self.len).contains(&id.0)
    }

    /// The skipped children, in search order.
    pub fn to_vec(&self) -> Vec<NodeId> {
        self.iter().collect()
    }
}

/// One cutoff.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cut {
    /// The node whose remaining children were skipped.
    pub at: NodeId,
    /// α-cut (at a MIN node) or β-cut (at a MAX node).
    pub kind: CutKind,
    /// The nearest ancestor whose bound caused the cut; `None` when it is
    /// the initial window's ±inf ([`Options::initial_window_counts`]).
    pub by: Option<NodeId>,
    /// The value of `at` the cut test compared (its β for an α-cut).
    pub at_bound: Value,
    /// The bound of `by` (its α for an α-cut), or the initial window's.
    pub by_bound: Value,
    /// The skipped children, in search order.
    pub pruned: Pruned,
}

impl Cut {
    /// A deep cutoff: caused by an ancestor above the parent.
    pub fn is_deep(&self, tree: &Tree) -> bool {
        self.by.is_some() && tree.parent(self.at) != self.by
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

/// Reads what [`Bound`]'s `Serialize` writes: a value, or `"<=v"` / `">=v"`.
impl<'de> Deserialize<'de> for Bound {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Bound, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Repr {
            Value(Value),
            Text(String),
        }
        match Repr::deserialize(d)? {
            Repr::Value(v) => Ok(Bound::Exact(v)),
            Repr::Text(t) => {
                let parse = |rest: &str| {
                    crate::value::parse_value(rest.trim())
                        .ok_or_else(|| serde::de::Error::custom(format!("not a bound: {t:?}")))
                };
                if let Some(rest) = t.strip_prefix("<=") {
                    parse(rest).map(Bound::AtMost)
                } else if let Some(rest) = t.strip_prefix(">=") {
                    parse(rest).map(Bound::AtLeast)
                } else {
                    parse(&t).map(Bound::Exact)
                }
            }
        }
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "AlphaBetaRepr", try_from = "AlphaBetaRepr")]
pub struct AlphaBeta {
    /// The conventions used.
    pub options: Options,
    /// The root's value (always exact).
    pub value: Value,
    /// Leaves in the order they were evaluated.
    pub evaluated: Vec<NodeId>,
    /// Every cut, in the order they happened.
    pub cuts: Vec<Cut>,
    /// The roots of the skipped subtrees, by id.
    pub pruned: Vec<NodeId>,
    /// Nodes known only by a bound that their examined children make tighter
    /// (fail-hard widens to the window's edge), with that tighter bound.
    pub widened: Vec<(NodeId, Bound)>,
    /// Nodes whose examined children make them exact while the procedure
    /// backs up another number (fail-hard's bound in force), with that bound.
    pub backed: Vec<(NodeId, Bound)>,
    /// The step-by-step trace (see [`AlphaBeta::steps`]).
    steps: Steps,
}

/// The trace packed to 16 bytes a step (a [`Step`] is 72): it is the largest
/// part of the result, several steps per examined node. A step's α and β are
/// not stored: they follow from the events before it (a node's window is its
/// parent's after the parent's last improvement), so [`AlphaBeta::steps`]
/// rebuilds them in one pass.
///
/// Each examined node's last step (its leaf, or its exit) carries what the
/// search proved about it, so the bounds by id are kept as those steps'
/// indices: `ends`, one list a level. Along a level the search meets nodes in
/// id order (the reverse right to left, turned round), and each level's ids
/// follow the level above, so the lists read in turn give the nodes by id:
/// no table over the tree, no bound stored twice.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Steps {
    root_max: bool,
    packed: Vec<Packed>,
    ends: Vec<Vec<u32>>,
}

impl Steps {
    /// Finds `ends` from the steps, as [`Trace`] keeps them.
    fn find_ends(&mut self, rtl: bool) {
        let mut ends: Vec<Vec<u32>> = Vec::new();
        let mut depth = 0usize;
        for (i, p) in self.packed.iter().enumerate() {
            let at = match p.event() {
                Event::Enter => {
                    depth += 1;
                    continue;
                }
                Event::Exit(_) => {
                    depth = depth.saturating_sub(1);
                    depth
                }
                Event::Leaf(_) => depth,
                Event::Improve(_) | Event::Cut(_) => continue,
            };
            push_at(&mut ends, at, i as u32);
        }
        if rtl {
            ends.iter_mut().for_each(|level| level.reverse());
        }
        self.ends = ends;
    }

    /// Each examined node with its bound, by id.
    fn bounds(&self) -> impl Iterator<Item = (NodeId, Bound)> + '_ {
        self.ends.iter().flatten().map(|&i| self.bound_at(i))
    }

    /// The node of step `i`, a leaf or an exit, and the bound it carries.
    fn bound_at(&self, i: u32) -> (NodeId, Bound) {
        let p = self.packed[i as usize];
        let bound = match p.event() {
            Event::Leaf(v) => Bound::Exact(v),
            Event::Exit(b) => b,
            _ => unreachable!("ends index leaves and exits"),
        };
        (NodeId(p.node), bound)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Packed {
    /// The event's value, cut index or bound.
    payload: i64,
    node: u32,
    /// Bits 0-1 the payload value's kind, 4-6 the event.
    tags: u32,
}

const ENTER: u32 = 0;
const LEAF: u32 = 1;
const IMPROVE: u32 = 2;
const CUT: u32 = 3;
/// Exit, plus the bound's relation (0 exact, 1 at most, 2 at least).
const EXIT: u32 = 4;

/// A value as (kind, integer): kind 0 is -inf, 1 finite, 2 +inf, 3 a
/// decimal (its packed form).
fn split(v: Value) -> (u32, i64) {
    match v {
        Value::NegInf => (0, 0),
        Value::Finite(x) => (1, x),
        Value::PosInf => (2, 0),
        Value::Decimal(d) => (3, d.to_bits()),
    }
}

fn join(kind: u32, x: i64) -> Value {
    match kind {
        0 => Value::NegInf,
        1 => Value::Finite(x),
        2 => Value::PosInf,
        _ => Value::Decimal(crate::value::Decimal::from_bits(x)),
    }
}

/// A bound as (relation, value).
fn split_bound(b: Bound) -> (u32, Value) {
    match b {
        Bound::Exact(v) => (0, v),
        Bound::AtMost(v) => (1, v),
        Bound::AtLeast(v) => (2, v),
    }
}

fn join_bound(relation: u32, v: Value) -> Bound {
    match relation {
        0 => Bound::Exact(v),
        1 => Bound::AtMost(v),
        _ => Bound::AtLeast(v),
    }
}

impl Packed {
    fn pack(node: u32, event: Event) -> Packed {
        let (code, pv) = match event {
            Event::Enter => (ENTER, Value::Finite(0)),
            Event::Leaf(v) => (LEAF, v),
            Event::Improve(v) => (IMPROVE, v),
            Event::Cut(i) => (CUT, Value::Finite(i as i64)),
            Event::Exit(b) => {
                let (relation, v) = split_bound(b);
                (EXIT + relation, v)
            }
        };
        let (kind, payload) = split(pv);
        Packed {
            payload,
            node,
            tags: kind | code << 4,
        }
    }

    fn event(self) -> Event {
        let pv = join(self.tags & 3, self.payload);
        match self.tags >> 4 {
            ENTER => Event::Enter,
            LEAF => Event::Leaf(pv),
            IMPROVE => Event::Improve(pv),
            CUT => Event::Cut(self.payload as usize),
            e => Event::Exit(join_bound(e - EXIT, pv)),
        }
    }
}

/// Decodes [`Steps`], keeping the window of every entered node.
struct StepIter<'a> {
    packed: std::slice::Iter<'a, Packed>,
    root_max: bool,
    /// Per entered node: MAX?, its window on entry, its own bound.
    open: Vec<(bool, Value, Value, Value)>,
}

impl StepIter<'_> {
    /// The window a child of the innermost entered node is searched with.
    fn child_window(&self) -> (Value, Value) {
        self.open
            .last()
            .map_or((Value::NegInf, Value::PosInf), |&(m, a, b, own)| {
                window(m, a, b, own)
            })
    }
}

impl Iterator for StepIter<'_> {
    type Item = Step;

    fn next(&mut self) -> Option<Step> {
        let p = self.packed.next()?;
        let event = p.event();
        let (alpha, beta) = match event {
            Event::Leaf(_) => self.child_window(),
            Event::Enter => {
                let (a, b) = self.child_window();
                let max = self.open.last().map_or(self.root_max, |f| !f.0);
                let own = if max { Value::NegInf } else { Value::PosInf };
                self.open.push((max, a, b, own));
                (a, b)
            }
            Event::Improve(v) => {
                let f = self.open.last_mut().expect("an entered node");
                f.3 = v;
                window(f.0, f.1, f.2, f.3)
            }
            Event::Cut(_) => self.child_window(),
            Event::Exit(_) => {
                let w = self.child_window();
                self.open.pop();
                w
            }
        };
        Some(Step {
            node: NodeId(p.node),
            alpha,
            beta,
            event,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.packed.size_hint()
    }
}

impl ExactSizeIterator for StepIter<'_> {}

/// What [`AlphaBeta`] is written and read as: the trace as a list of [`Step`]s.
#[derive(Serialize, Deserialize)]
struct AlphaBetaRepr {
    options: Options,
    root: Player,
    value: Value,
    bounds: Vec<(NodeId, Bound)>,
    evaluated: Vec<NodeId>,
    cuts: Vec<Cut>,
    pruned: Vec<NodeId>,
    widened: Vec<(NodeId, Bound)>,
    #[serde(default)]
    backed: Vec<(NodeId, Bound)>,
    steps: Vec<Step>,
}

impl From<AlphaBeta> for AlphaBetaRepr {
    fn from(ab: AlphaBeta) -> AlphaBetaRepr {
        AlphaBetaRepr {
            options: ab.options,
            root: if ab.steps.root_max {
                Player::Max
            } else {
                Player::Min
            },
            value: ab.value,
            steps: ab.steps().collect(),
            bounds: ab.bounds().collect(),
            evaluated: ab.evaluated,
            cuts: ab.cuts,
            pruned: ab.pruned,
            widened: ab.widened,
            backed: ab.backed,
        }
    }
}

impl TryFrom<AlphaBetaRepr> for AlphaBeta {
    type Error = String;

    /// The bounds are read from the steps; the file's list must agree.
    fn try_from(r: AlphaBetaRepr) -> Result<AlphaBeta, String> {
        let mut steps = Steps {
            root_max: r.root == Player::Max,
            packed: r
                .steps
                .iter()
                .map(|s| Packed::pack(s.node.0, s.event))
                .collect(),
            ends: Vec::new(),
        };
        steps.find_ends(r.options.order == Order::RightToLeft);
        if !steps.bounds().eq(r.bounds.iter().copied()) {
            return Err("the bounds do not match the steps' leaves and exits".into());
        }
        Ok(AlphaBeta {
            options: r.options,
            value: r.value,
            evaluated: r.evaluated,
            cuts: r.cuts,
            pruned: r.pruned,
            widened: r.widened,
            backed: r.backed,
            steps,
        })
    }
}

impl AlphaBeta {
    /// Whether every id of the result lies below `nodes` and its trace is well
    /// formed (each step inside an entered node, cut indices in range): a
    /// result read back from a file is checked with this before it is used.
    pub fn fits(&self, nodes: usize) -> bool {
        let ok = |n: &NodeId| n.index() < nodes;
        let pruned_ok = |p: &Pruned| u64::from(p.first.0) + u64::from(p.len) <= nodes as u64;
        let mut open = 0usize;
        let steps_ok = self.steps.packed.iter().all(|p| {
            let inside = match p.event() {
                Event::Enter => {
                    open += 1;
                    true
                }
                Event::Improve(_) => open > 0,
                Event::Exit(_) => {
                    let was = open;
                    open = open.saturating_sub(1);
                    was > 0
                }
                Event::Cut(i) => i < self.cuts.len(),
                Event::Leaf(_) => true,
            };
            inside && (p.node as usize) < nodes
        });
        steps_ok
            && self.bounds().is_sorted_by(|a, b| a.0 < b.0)
            && self.evaluated.iter().all(ok)
            && self.pruned.iter().all(ok)
            && self.widened.iter().all(|(n, _)| ok(n))
            && self.backed.iter().all(|(n, _)| ok(n))
            && self
                .cuts
                .iter()
                .all(|c| ok(&c.at) && c.by.is_none_or(|b| ok(&b)) && pruned_ok(&c.pruned))
    }

    /// What the search proved about `id`, `None` if it was never examined.
    pub fn bound(&self, id: NodeId) -> Option<Bound> {
        let node = |i: &u32| self.steps.packed[*i as usize].node;
        let ends = &self.steps.ends;
        let level = ends.partition_point(|l| l.last().is_some_and(|i| node(i) < id.0));
        let level = ends.get(level)?;
        let k = level.binary_search_by_key(&id.0, node).ok()?;
        Some(self.steps.bound_at(level[k]).1)
    }

    /// Whether the search examined `id` (evaluated it, or entered it).
    pub fn examined(&self, id: NodeId) -> bool {
        self.bound(id).is_some()
    }

    /// The step-by-step trace, in order. Steps are stored packed, without their
    /// α and β, and decoded as the iterator goes.
    pub fn steps(&self) -> impl ExactSizeIterator<Item = Step> + '_ {
        StepIter {
            packed: self.steps.packed.iter(),
            root_max: self.steps.root_max,
            open: Vec::new(),
        }
    }

    /// Every examined node and what the search proved about it, by id.
    pub fn bounds(&self) -> impl Iterator<Item = (NodeId, Bound)> + '_ {
        self.steps.bounds()
    }

    /// Every node never examined (the pruned roots and all below them), by id.
    /// Built on demand: it can be most of the tree.
    pub fn unexamined(&self, tree: &Tree) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut stack = Vec::new();
        for &root in &self.pruned {
            stack.push(root);
            while let Some(id) = stack.pop() {
                out.push(id);
                stack.extend(tree.children(id));
            }
        }
        out.sort_unstable();
        out
    }
}

/// What [`alpha_beta_summary`] reports: the figures generators check, no trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// The root's value, as [`AlphaBeta::value`].
    pub value: Value,
    /// Leaves evaluated, as `AlphaBeta::evaluated.len()`.
    pub leaves_evaluated: usize,
    /// Cuts, as `AlphaBeta::cuts.len()`.
    pub cuts: usize,
}

/// Runs alpha-beta from the root with the window (-inf, +inf), with the full trace.
pub fn alpha_beta(tree: &Tree, options: Options) -> AlphaBeta {
    let mut trace = Trace::new(tree, options);
    let (root, _, _) = search(tree, options, &mut trace);
    trace.finish(root)
}

/// The same search as [`alpha_beta`], keeping only its value and counts: for
/// generators that test many candidate trees, and large trees.
pub fn alpha_beta_summary(tree: &Tree, options: Options) -> Summary {
    let (root, leaves_evaluated, cuts) = search(tree, options, &mut Quiet);
    Summary {
        value: root,
        leaves_evaluated,
        cuts,
    }
}

/// The root's value, the leaves evaluated and the cuts.
fn search<R: Recorder>(tree: &Tree, options: Options, rec: &mut R) -> (Value, usize, usize) {
    if tree.is_whole() {
        search_as::<R, Whole>(tree, options, rec)
    } else {
        search_as::<R, Value>(tree, options, rec)
    }
}

/// [`search`], comparing values as `V`.
fn search_as<R: Recorder, V: Scalar>(
    tree: &Tree,
    options: Options,
    rec: &mut R,
) -> (Value, usize, usize) {
    let mut search = Search {
        tree,
        options,
        rec,
        leaves: 0,
        cuts: 0,
        _values: std::marker::PhantomData,
    };
    let counts = options.initial_window_counts;
    let whole = &mut (V::NEG_INF, V::POS_INF);
    let root = match tree.root_player() {
        Player::Max => search.visit::<MaxSide>(0, V::NEG_INF, V::POS_INF, counts, counts, whole),
        Player::Min => search.visit::<MinSide>(0, V::NEG_INF, V::POS_INF, counts, counts, whole),
    };
    (root.value(), search.leaves, search.cuts)
}

/// Whose node the search is at, as a type: each side's search is compiled
/// with its comparisons fixed, as C's would be written twice.
trait Side {
    const MAX: bool;
    /// The player at the children.
    type Other: Side;
}

struct MaxSide;
struct MinSide;

impl Side for MaxSide {
    const MAX: bool = true;
    type Other = MinSide;
}

impl Side for MinSide {
    const MAX: bool = false;
    type Other = MaxSide;
}

/// The bounds in force at a node after its own bound became `own`.
#[inline]
fn window<V: Ord>(is_max: bool, alpha: V, beta: V, own: V) -> (V, V) {
    if is_max {
        (alpha.max(own), beta)
    } else {
        (alpha, beta.min(own))
    }
}

/// Whether `own` (a node's α or β) has reached `bound` (the opposite bound).
#[inline]
fn reaches<V: Ord>(prune_on_equal: bool, is_max: bool, own: V, bound: V) -> bool {
    match (is_max, prune_on_equal) {
        (true, true) => own >= bound,
        (true, false) => own > bound,
        (false, true) => own <= bound,
        (false, false) => own < bound,
    }
}

/// What the search tells whoever records it. Every method defaults to nothing.
/// The windows are not told: a step's α and β follow from the steps before
/// it ([`StepIter`]).
trait Recorder {
    /// Whether [`Recorder::exit`] is told anything: the interval the
    /// children prove is worked out only for a recorder that keeps it.
    const EXITS: bool = true;
    fn leaf(&mut self, _node: u32, _v: Value) {}
    fn enter(&mut self, _node: u32, _is_max: bool) {}
    /// The node's own bound (α at MAX, β at MIN) became `own`: after its
    /// first child, and whenever a child beats it (only then does it change).
    fn improve(&mut self, _node: u32, _own: Value) {}
    fn cut(&mut self, _node: u32, _is_max: bool, _own: Value, _pruned: Pruned) {}
    /// `bound` is what the key states, `tight` what the children alone give,
    /// `backed` the value the procedure returns.
    fn exit(&mut self, _node: u32, _bound: Bound, _tight: Bound, _backed: Value) {}
}

/// Records nothing.
struct Quiet;
impl Recorder for Quiet {
    const EXITS: bool = false;
}

struct Search<'t, 'r, R, V> {
    tree: &'t Tree,
    options: Options,
    rec: &'r mut R,
    leaves: usize,
    cuts: usize,
    _values: std::marker::PhantomData<V>,
}

impl<R: Recorder, V: Scalar> Search<'_, '_, R, V> {
    /// Searches `node` with the window (`alpha`, `beta`) and returns the value
    /// the procedure backs up; only that steers the parent's search.
    /// `max_bounded` / `min_bounded`: whether `alpha` / `beta` is a bound a
    /// cut can reach: some MAX / MIN ancestor has backed up a value, or the
    /// initial window counts ([`Options::initial_window_counts`]). `proved`
    /// receives, for a recorder that keeps it ([`Recorder::EXITS`]), the
    /// interval the examined children prove (`lo..=hi`, `-inf..=+inf` when
    /// nothing is known): what the key states beside the value.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn visit<S: Side>(
        &mut self,
        node: u32,
        alpha: V,
        beta: V,
        max_bounded: bool,
        min_bounded: bool,
        proved: &mut (V, V),
    ) -> V {
        match self.tree.kind_as::<V>(node) {
            Kind::Leaf(v) => {
                self.leaves += 1;
                self.rec.leaf(node, v.value());
                if R::EXITS {
                    *proved = (v, v);
                }
                v
            }
            Kind::Inner { first, count } => self.inner::<S>(
                node,
                first,
                count,
                alpha,
                beta,
                max_bounded,
                min_bounded,
                proved,
            ),
        }
    }

    /// [`Search::visit`] at an inner node: Knuth & Moore's F2 (fail-soft) or
    /// F1 (fail-hard), run literally (docs/conventions.md has the pseudocode).
    /// Leaves are read in the parent's loop (`visit` is inlined there), not by
    /// a call: most nodes are leaves.
    #[allow(clippy::too_many_arguments)]
    fn inner<S: Side>(
        &mut self,
        node: u32,
        first: u32,
        count: u32,
        alpha: V,
        beta: V,
        max_bounded: bool,
        min_bounded: bool,
        proved: &mut (V, V),
    ) -> V {
        let is_max = S::MAX;
        self.rec.enter(node, is_max);
        let rtl = self.options.order == Order::RightToLeft;
        let prune_on_equal = self.options.prune_on_equal;
        let hard = self.options.values == ValueMode::FailHard;
        // `own` is the node's α (MAX) or β (MIN): the best value its children
        // have backed up (∓inf, and no bound, before the first one returns).
        let mut own = if is_max { V::NEG_INF } else { V::POS_INF };
        // `m` is what the procedure compares and returns: fail-soft its own
        // bound (F2's v), fail-hard the same clamped by the window (F1's m,
        // which starts at the window's bound).
        let mut m = own;
        let (mut lo, mut hi) = (own, own);
        let (opposite, bounded) = if is_max {
            (beta, min_bounded)
        } else {
            (alpha, max_bounded)
        };
        for i in 0..count {
            let child = if rtl {
                first + count - 1 - i
            } else {
                first + i
            };
            let (a, b) = window(is_max, alpha, beta, own);
            // After its first child, a node has an α or β, even one of ±inf.
            let (cmax, cmin) = if is_max {
                (max_bounded || i > 0, min_bounded)
            } else {
                (max_bounded, min_bounded || i > 0)
            };
            let mut child_proved = (V::NEG_INF, V::POS_INF);
            let v = self.visit::<S::Other>(child, a, b, cmax, cmin, &mut child_proved);
            let (clo, chi) = child_proved;
            if R::EXITS {
                (lo, hi) = if is_max {
                    (lo.max(clo), hi.max(chi))
                } else {
                    (lo.min(clo), hi.min(chi))
                };
            }
            let improves = if is_max { v > own } else { v < own };
            if i == 0 || improves {
                own = v;
                self.rec.improve(node, own.value());
            }
            m = match (hard, is_max) {
                (false, _) => own,
                (true, true) => own.max(alpha),
                (true, false) => own.min(beta),
            };
            if bounded && reaches(prune_on_equal, is_max, m, opposite) {
                // After the last child nothing is left to skip: no cut is recorded.
                if i + 1 < count {
                    let pruned = Pruned {
                        first: NodeId(if rtl { first } else { child + 1 }),
                        len: count - 1 - i,
                        reversed: rtl,
                    };
                    self.cuts += 1;
                    self.rec.cut(node, is_max, m.value(), pruned);
                    if is_max {
                        hi = V::POS_INF
                    } else {
                        lo = V::NEG_INF
                    }
                }
                break;
            }
        }
        if R::EXITS {
            self.exit(node, m, lo, hi);
            *proved = (lo, hi);
        }
        m
    }

    /// Tells the recorder what the search proved at `node` as it leaves:
    /// `m` backed up, `lo..=hi` from the examined children.
    fn exit(&mut self, node: u32, m: V, lo: V, hi: V) {
        // The key states what the children prove when that is exact, else the
        // bound the procedure backs up, on the side the children prove.
        let (lo, hi, m) = (lo.value(), hi.value(), m.value());
        let bound = if lo == hi {
            Bound::Exact(lo)
        } else if hi <= m {
            Bound::AtMost(m)
        } else {
            // F1 and F2 back up a bound (Knuth & Moore 1975, §4): `m` is never
            // strictly inside what the children prove; the oracle tests check it.
            debug_assert!(lo >= m, "{m} inside {lo}..={hi}");
            Bound::AtLeast(m)
        };
        let tight = match bound {
            Bound::AtMost(_) => Bound::AtMost(hi),
            Bound::AtLeast(_) => Bound::AtLeast(lo),
            exact => exact,
        };
        self.rec.exit(node, bound, tight, m);
    }
}

/// An entered node, for attributing cuts.
struct Frame {
    node: u32,
    is_max: bool,
    own: Value,
    /// Whether a child has backed up a value yet (before that, the node has no α or β).
    bounded: bool,
}

/// Appends `item` to the list of level `depth`, making the levels down to it.
fn push_at<T>(levels: &mut Vec<Vec<T>>, depth: usize, item: T) {
    if levels.len() <= depth {
        levels.resize_with(depth + 1, Vec::new);
    }
    levels[depth].push(item);
}

/// Records the full trace.
struct Trace {
    options: Options,
    frames: Vec<Frame>,
    /// Per depth, the skipped children, in search order.
    skipped: Vec<Vec<Pruned>>,
    evaluated: Vec<NodeId>,
    cuts: Vec<Cut>,
    widened: Vec<(NodeId, Bound)>,
    backed: Vec<(NodeId, Bound)>,
    steps: Steps,
}

impl Trace {
    /// One pass, its lists grown as it goes: a first pass to size them costs
    /// a whole search, more than the copies growing makes.
    fn new(tree: &Tree, options: Options) -> Trace {
        Trace {
            options,
            frames: Vec::with_capacity(tree.height() + 1),
            skipped: Vec::new(),
            evaluated: Vec::new(),
            cuts: Vec::new(),
            widened: Vec::new(),
            backed: Vec::new(),
            steps: Steps {
                root_max: tree.root_player() == Player::Max,
                packed: Vec::new(),
                ends: Vec::with_capacity(tree.height() + 1),
            },
        }
    }

    fn step(&mut self, node: u32, event: Event) {
        self.steps.packed.push(Packed::pack(node, event));
    }

    /// Keeps the step just made, a leaf or an exit at `depth`, as its node's
    /// last ([`Steps`]).
    fn end(&mut self, depth: usize) {
        let last = self.steps.packed.len() as u32 - 1;
        push_at(&mut self.steps.ends, depth, last);
    }

    /// Lists the bounds and the skipped roots by id, level by level.
    fn finish(mut self, value: Value) -> AlphaBeta {
        let rtl = self.options.order == Order::RightToLeft;
        if rtl {
            self.steps.ends.iter_mut().for_each(|level| level.reverse());
        }
        let skipped = self.skipped.iter().flatten().map(Pruned::len).sum();
        let mut pruned = Vec::with_capacity(skipped);
        for level in &self.skipped {
            let start = pruned.len();
            pruned.extend(level.iter().flat_map(Pruned::iter));
            if rtl {
                pruned[start..].reverse();
            }
        }
        AlphaBeta {
            options: self.options,
            value,
            evaluated: self.evaluated,
            cuts: self.cuts,
            pruned,
            widened: self.widened,
            backed: self.backed,
            steps: self.steps,
        }
    }
}

impl Recorder for Trace {
    fn leaf(&mut self, node: u32, v: Value) {
        self.evaluated.push(NodeId(node));
        self.step(node, Event::Leaf(v));
        self.end(self.frames.len());
    }

    fn enter(&mut self, node: u32, is_max: bool) {
        self.step(node, Event::Enter);
        self.frames.push(Frame {
            node,
            is_max,
            own: if is_max { Value::NegInf } else { Value::PosInf },
            bounded: false,
        });
    }

    fn improve(&mut self, node: u32, own: Value) {
        let f = self.frames.last_mut().expect("own frame");
        f.own = own;
        f.bounded = true;
        self.step(node, Event::Improve(own));
    }

    /// Attributes the cut to the nearest ancestor whose bound causes it, or
    /// else to the initial window (the search only cuts when one does).
    fn cut(&mut self, node: u32, is_max: bool, own: Value, pruned: Pruned) {
        let ancestors = &self.frames[..self.frames.len() - 1];
        let by = ancestors.iter().rev().find(|f| {
            f.is_max != is_max
                && f.bounded
                && reaches(self.options.prune_on_equal, is_max, own, f.own)
        });
        let initial = if is_max { Value::PosInf } else { Value::NegInf };
        let cut = Cut {
            at: NodeId(node),
            kind: if is_max {
                CutKind::Beta
            } else {
                CutKind::Alpha
            },
            by: by.map(|f| NodeId(f.node)),
            at_bound: own,
            by_bound: by.map_or(initial, |f| f.own),
            pruned,
        };
        self.cuts.push(cut);
        // The skipped children are one level below the cut node.
        push_at(&mut self.skipped, self.frames.len(), pruned);
        self.step(node, Event::Cut(self.cuts.len() - 1));
    }

    fn exit(&mut self, node: u32, bound: Bound, tight: Bound, backed: Value) {
        if bound != tight {
            self.widened.push((NodeId(node), tight));
        }
        if let Bound::Exact(v) = bound
            && v != backed
        {
            let claim = if backed > v {
                Bound::AtMost(backed)
            } else {
                Bound::AtLeast(backed)
            };
            self.backed.push((NodeId(node), claim));
        }
        self.frames.pop().expect("own frame");
        self.step(node, Event::Exit(bound));
        self.end(self.frames.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gametree::minimax::{minimax, minimax_value};
    use crate::gametree::tree::{Shape, splitmix_tree};

    /// The figures the C reference in `benches/c/ab.c` prints for this tree.
    #[test]
    fn splitmix_tree_4_10_1_matches_the_c_reference() {
        let tree = splitmix_tree(4, 10, 1).unwrap();
        assert_eq!(tree.len(), 1_398_101);
        assert_eq!(minimax_value(&tree), Value::Finite(-439));
        assert_eq!(minimax(&tree).value, Value::Finite(-439));
        let s = alpha_beta_summary(&tree, Options::default());
        assert_eq!(s.value, Value::Finite(-439));
        assert_eq!(s.leaves_evaluated, 52_657);
        let ab = alpha_beta(&tree, Options::default());
        assert_eq!(ab.evaluated.len(), 52_657);
        assert_eq!(ab.cuts.len(), s.cuts);
    }

    fn leaf(v: i64) -> Shape {
        Shape::Leaf(Value::Finite(v))
    }

    /// A tree of whole numbers is searched as [`Whole`]: the same search as
    /// [`Value`]'s, step for step, under every convention.
    #[test]
    fn whole_numbers_search_as_values_do() {
        for seed in 0..60 {
            let (b, d) = (2 + (seed % 3) as u32, 2 + (seed % 4) as u32);
            let tree = splitmix_tree(b, d, seed).unwrap();
            assert!(tree.is_whole());
            for bits in 0..16u32 {
                let options = Options {
                    order: if bits & 1 == 0 {
                        Order::LeftToRight
                    } else {
                        Order::RightToLeft
                    },
                    prune_on_equal: bits & 2 == 0,
                    values: if bits & 4 == 0 {
                        ValueMode::FailSoft
                    } else {
                        ValueMode::FailHard
                    },
                    initial_window_counts: bits & 8 == 0,
                };
                let run = |whole: bool| {
                    let mut trace = Trace::new(&tree, options);
                    let (root, leaves, cuts) = if whole {
                        search_as::<_, Whole>(&tree, options, &mut trace)
                    } else {
                        search_as::<_, Value>(&tree, options, &mut trace)
                    };
                    (leaves, cuts, trace.finish(root))
                };
                let ab = run(true);
                assert_eq!(ab, run(false), "seed {seed}, {options:?}");
                let ab = ab.2;
                // The bounds the search kept are those its steps end on.
                let mut found = ab.steps.clone();
                found.find_ends(options.order == Order::RightToLeft);
                assert_eq!(found.ends, ab.steps.ends, "seed {seed}, {options:?}");
                assert!(ab.fits(tree.len()));
                let examined = tree.ids().filter(|&i| ab.examined(i)).count();
                assert_eq!(ab.bounds().count(), examined);
            }
        }
        let mut shape = small().to_shape();
        if let Shape::Inner(children) = &mut shape {
            children.push(Shape::Leaf(Value::NegInf));
        }
        let tree = Tree::from_shape(&shape, Player::Max, None).unwrap();
        assert!(!tree.is_whole(), "an infinity is not a whole number");
    }

    /// MAX root over MIN nodes [3, 5] and [2, 9, 1]: the second MIN node is cut after 2.
    fn small() -> Tree {
        let shape = Shape::Inner(vec![
            Shape::Inner(vec![leaf(3), leaf(5)]),
            Shape::Inner(vec![leaf(2), leaf(9), leaf(1)]),
        ]);
        Tree::from_shape(&shape, Player::Max, None).unwrap()
    }

    #[test]
    fn pruned_children_are_listed_in_search_order() {
        let tree = small();
        let ltr = alpha_beta(&tree, Options::default());
        assert_eq!(ltr.cuts.len(), 1);
        assert_eq!(ltr.cuts[0].pruned.to_vec(), [NodeId(6), NodeId(7)]);
        assert!(ltr.cuts[0].pruned.contains(NodeId(7)));
        assert!(!ltr.cuts[0].pruned.contains(NodeId(5)));
        assert_eq!(ltr.unexamined(&tree), [NodeId(6), NodeId(7)]);
        assert_eq!(ltr.bound(NodeId(2)), Some(Bound::AtMost(Value::Finite(2))));
        assert_eq!(ltr.bound(NodeId(6)), None);

        // Right to left, the second MIN node is searched first, from its last leaf.
        let rtl = alpha_beta(
            &tree,
            Options {
                order: Order::RightToLeft,
                ..Options::default()
            },
        );
        let first_leaf = rtl
            .steps()
            .find(|s| matches!(s.event, Event::Leaf(_)))
            .unwrap();
        assert_eq!(first_leaf.node, NodeId(7));
        assert_eq!(rtl.value, Value::Finite(3));
    }

    #[test]
    fn right_to_left_cuts_list_the_range_from_its_end() {
        // MAX root over MIN nodes [7, 8, 1, 9] and [4, 6]. Right to left, [4, 6]
        // gives α = 4; the first MIN node then reads 9 and 1 and is cut (β = 1 ≤ 4).
        let shape = Shape::Inner(vec![
            Shape::Inner(vec![leaf(7), leaf(8), leaf(1), leaf(9)]),
            Shape::Inner(vec![leaf(4), leaf(6)]),
        ]);
        let tree = Tree::from_shape(&shape, Player::Max, None).unwrap();
        let rtl = alpha_beta(
            &tree,
            Options {
                order: Order::RightToLeft,
                ..Options::default()
            },
        );
        assert_eq!(rtl.cuts.len(), 1);
        let cut = &rtl.cuts[0];
        assert_eq!(cut.at, NodeId(1));
        // Children 3..=6 are 7, 8, 1, 9; searched 9, 1, then cut: 8 and 7 skipped.
        assert_eq!(cut.pruned.to_vec(), [NodeId(4), NodeId(3)]);
        assert_eq!(rtl.pruned, [NodeId(3), NodeId(4)]);
    }

    #[test]
    fn the_trace_round_trips_through_serde() {
        let tree = small();
        for values in [ValueMode::FailHard, ValueMode::FailSoft] {
            let ab = alpha_beta(
                &tree,
                Options {
                    values,
                    ..Options::default()
                },
            );
            let json = serde_json::to_string(&ab).unwrap();
            assert!(json.contains(r#""alpha":"-inf""#), "{json}");
            let back: AlphaBeta = serde_json::from_str(&json).unwrap();
            assert_eq!(back, ab);
            assert_eq!(
                back.steps().collect::<Vec<_>>(),
                ab.steps().collect::<Vec<_>>()
            );
        }
        // A file whose bounds disagree with its steps is refused.
        let ab = alpha_beta(&tree, Options::default());
        let json = serde_json::to_string(&ab).unwrap();
        let tampered = json.replacen(r#"[2,"<=2"]"#, r#"[2,"<=1"]"#, 1);
        assert_ne!(tampered, json);
        let err = serde_json::from_str::<AlphaBeta>(&tampered).unwrap_err();
        assert!(err.to_string().contains("do not match"), "{err}");
        let bounds: Vec<Bound> = serde_json::from_str(r#"[3, "<=2", ">=-inf", "+inf"]"#).unwrap();
        assert_eq!(
            bounds,
            [
                Bound::Exact(Value::Finite(3)),
                Bound::AtMost(Value::Finite(2)),
                Bound::AtLeast(Value::NegInf),
                Bound::Exact(Value::PosInf)
            ]
        );
        assert!(serde_json::from_str::<Bound>(r#""<2""#).is_err());
    }

    /// Decimal leaves (CS188's 3.01) are searched, packed into the trace and
    /// read back exactly: 3 is below 3.01, so the second MIN node is cut.
    #[test]
    fn decimal_leaves_survive_the_packed_trace() {
        let d = |units, places| Shape::Leaf(Value::decimal(units, places).unwrap());
        let shape = Shape::Inner(vec![
            Shape::Inner(vec![d(301, 2), leaf(5)]),
            Shape::Inner(vec![leaf(3), d(95, 1), d(-1_000_000_001, 9)]),
        ]);
        let tree = Tree::from_shape(&shape, Player::Max, None).unwrap();
        let ab = alpha_beta(&tree, Options::default());
        assert_eq!(ab.value.to_string(), "3.01");
        assert_eq!(ab.pruned, [NodeId(6), NodeId(7)]);
        assert_eq!(ab.bound(NodeId(2)), Some(Bound::AtMost(Value::Finite(3))));
        let leaves: Vec<String> = ab
            .steps()
            .filter_map(|s| match s.event {
                Event::Leaf(v) => Some(v.to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(leaves, ["3.01", "5", "3"]);
        let windows: Vec<String> = ab.steps().map(|s| s.alpha.to_string()).collect();
        assert!(windows.contains(&"3.01".to_string()), "{windows:?}");
        let json = serde_json::to_string(&ab).unwrap();
        assert!(json.contains(r#""3.01""#), "{json}");
        let back: AlphaBeta = serde_json::from_str(&json).unwrap();
        assert_eq!(back, ab);
        let bounds: Vec<Bound> = serde_json::from_str(r#"["<=-4.01", ">=0.5"]"#).unwrap();
        assert_eq!(bounds[0], Bound::AtMost(Value::decimal(-401, 2).unwrap()));
        assert_eq!(bounds[1].to_string(), ">=0.5");
    }
}
