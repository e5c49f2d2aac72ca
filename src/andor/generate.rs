//! Seeded random AND/OR graphs, with constraints that make a good AO* exercise.

use serde::Serialize;

use super::ao_star::{self, ao_star};
use super::graph::{Connector, Cost, CostModel, Graph, Node, NodeId};
use super::solve::{optimal, solvable};
pub use crate::generate::GenerateError;
use crate::generate::{MAX_GENERATED_NODES, count_nodes, first_satisfying};
use crate::rng::Rng;

/// Version of the AND/OR generator; bumped whenever seed → graph changes.
pub const GENERATOR_VERSION: u32 = 1;

/// The shape of a random AND/OR graph and the constraints on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Params {
    /// Levels below the start node; the bottom level holds goals and dead ends.
    pub depth: u32,
    /// Connectors per inner node (OR alternatives), from `lo..=hi`.
    pub alternatives: (u32, u32),
    /// Children per connector (1 = OR branch, ≥ 2 = AND group), from `lo..=hi`.
    pub arity: (u32, u32),
    /// The cost model written into the instance.
    pub model: CostModel,
    /// Arc costs, from `lo..=hi` (`(1, 1)`: the default costs, not written out).
    pub arc_costs: (u64, u64),
    /// `h(n) <= h*(n)` everywhere.
    pub admissible: bool,
    /// Percentage of nodes above the bottom level that are goals.
    pub terminal_percent: u32,
    /// Percentage of children that reuse a node already made on their level (a DAG).
    pub shared_percent: u32,
    /// Percentage of bottom-level nodes that are dead ends instead of goals.
    pub dead_end_percent: u32,
    /// Require the start node to be solvable.
    pub solvable: bool,
    /// AO* must expand at least this many nodes.
    pub min_expansions: Option<u32>,
    /// AO* must move a mark from one connector to another at least this many times.
    pub min_switches: Option<u32>,
    /// No ties: AO* never needs its tie rule, and the optimal solution is unique.
    pub unique: bool,
    /// The graph's size: between `lo` and `hi` nodes.
    pub nodes: Option<(u32, u32)>,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            depth: 3,
            alternatives: (1, 2),
            arity: (1, 2),
            model: CostModel::Connector,
            arc_costs: (1, 1),
            admissible: true,
            terminal_percent: 10,
            shared_percent: 0,
            dead_end_percent: 0,
            solvable: true,
            min_expansions: None,
            min_switches: None,
            unique: false,
            nodes: None,
        }
    }
}

impl Params {
    /// The largest number of nodes these parameters can produce, saturating.
    pub fn max_nodes(&self) -> u64 {
        let fan = u64::from(self.alternatives.1).saturating_mul(u64::from(self.arity.1));
        let (mut level, mut total) = (1u64, 1u64);
        for _ in 0..self.depth {
            level = level.saturating_mul(fan);
            total = total.saturating_add(level);
        }
        total
    }

    /// Checks the parameters without generating anything.
    pub fn validate(&self) -> Result<(), GenerateError> {
        let invalid = |m: String| Err(GenerateError::Invalid(m));
        for (name, (lo, hi)) in [("alternatives", self.alternatives), ("arity", self.arity)] {
            if lo == 0 || lo > hi {
                return invalid(format!(
                    "{name} must be a range lo..=hi with 1 <= lo <= hi, not {lo}..={hi}"
                ));
            }
        }
        if self.depth == 0 || self.depth > 32 {
            return invalid(format!(
                "depth must be between 1 and 32, not {}",
                self.depth
            ));
        }
        if self.arc_costs.0 > self.arc_costs.1 || self.arc_costs.1 > 1_000_000 {
            return invalid(format!(
                "arc costs must be a range lo..=hi with hi <= 1000000, not {}..={}",
                self.arc_costs.0, self.arc_costs.1
            ));
        }
        for (name, p) in [
            ("terminal_percent", self.terminal_percent),
            ("shared_percent", self.shared_percent),
            ("dead_end_percent", self.dead_end_percent),
        ] {
            if p > 100 {
                return invalid(format!("{name} is a percentage, not {p}"));
            }
        }
        if self.max_nodes() > MAX_GENERATED_NODES {
            return invalid(format!(
                "depth {} with up to {} connectors of up to {} children can give {}, more than the limit of {MAX_GENERATED_NODES}; lower the depth, alternatives or arity",
                self.depth,
                self.alternatives.1,
                self.arity.1,
                count_nodes(self.max_nodes())
            ));
        }
        if let Some((lo, hi)) = self.nodes {
            if hi < 2 || lo > hi {
                return invalid(format!(
                    "{lo}..{hi} nodes: a graph has at least 2 nodes (the start and a child); ask for 2 or more"
                ));
            }
            if u64::from(lo) > self.max_nodes() {
                return invalid(format!(
                    "{lo}..{hi} nodes cannot be reached: these parameters give {}; raise the depth, alternatives or arity",
                    count_nodes(self.max_nodes())
                ));
            }
        }
        if self.solvable && self.dead_end_percent == 100 {
            return invalid(
                "a solvable graph needs goals: lower dead_end_percent below 100".into(),
            );
        }
        Ok(())
    }

    /// The first constraint `graph` misses, with its stage (0: the node range).
    fn unmet(&self, graph: &Graph) -> Option<(u8, Unmet)> {
        if self
            .nodes
            .is_some_and(|(lo, hi)| !(lo as usize..=hi as usize).contains(&graph.len()))
        {
            return Some((0, Unmet::Size(self.nodes)));
        }
        self.unmet_solved(graph).map(|m| (1, m))
    }

    fn unmet_solved(&self, graph: &Graph) -> Option<Unmet> {
        if self.solvable && !solvable(graph)[graph.start().index()] {
            return Some(Unmet::Solvable);
        }
        if self.min_expansions.is_none() && self.min_switches.is_none() && !self.unique {
            return None;
        }
        let run = ao_star(graph, ao_star::Options::default());
        if let Some(k) = self
            .min_expansions
            .filter(|&k| (run.expanded.len() as u32) < k)
        {
            return Some(Unmet::Expansions(k));
        }
        if let Some(k) = self.min_switches.filter(|&k| run.switches < k) {
            return Some(Unmet::Switches(k));
        }
        if self.unique && (run.ties > 0 || !optimal(graph, graph.model()).ties.is_empty()) {
            return Some(Unmet::Unique);
        }
        None
    }
}

/// A constraint a drawn graph misses, put in words only when no draw meets it.
enum Unmet {
    Size(Option<(u32, u32)>),
    Solvable,
    Expansions(u32),
    Switches(u32),
    Unique,
}

impl std::fmt::Display for Unmet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unmet::Size(Some((lo, hi))) => write!(f, "between {lo} and {hi} nodes"),
            Unmet::Size(None) => Ok(()),
            Unmet::Solvable => f.write_str("a solvable start node"),
            Unmet::Expansions(k) => write!(f, "AO* expanding at least {k} nodes"),
            Unmet::Switches(k) => write!(f, "AO* switching branch at least {k} time(s)"),
            Unmet::Unique => f.write_str("no ties (a unique answer)"),
        }
    }
}

/// A graph being drawn: only what decides its shape, kept from one draw to
/// the next, so that a draw rejected for its size (most draws of a narrow
/// `nodes` range are) allocates nothing. Children and arc costs of every
/// connector lie end to end in `children` and `arcs`.
#[derive(Default)]
struct Sketch {
    terminal: Vec<bool>,
    connectors: Vec<(NodeId, std::ops::Range<usize>)>,
    children: Vec<NodeId>,
    arcs: Vec<u64>,
    level: Vec<NodeId>,
    next: Vec<NodeId>,
}

/// One random graph (no constraints checked). Nodes are labelled `n0`, `n1`, …
/// in the order they are made: level by level, left to right.
/// `None` as soon as the graph leaves the `nodes` range: a rejected size costs
/// no heuristic, no labels and no indexing.
fn draw(p: &Params, rng: &mut Rng, s: &mut Sketch) -> Option<Graph> {
    let too_many = |n: usize| p.nodes.is_some_and(|(_, hi)| n > hi as usize);
    s.terminal.clear();
    s.connectors.clear();
    s.children.clear();
    s.arcs.clear();
    s.level.clear();
    s.terminal.push(false);
    s.level.push(NodeId(0));
    for depth in 0..=p.depth {
        s.next.clear();
        for at in 0..s.level.len() {
            let id = s.level[at];
            if depth == p.depth {
                // A bottom node is a goal, or else a dead end (non-terminal without connectors).
                s.terminal[id.index()] = !rng.percent(p.dead_end_percent);
                continue;
            }
            if depth > 0 && rng.percent(p.terminal_percent) {
                s.terminal[id.index()] = true;
                continue;
            }
            let alternatives =
                rng.between(i64::from(p.alternatives.0), i64::from(p.alternatives.1));
            for _ in 0..alternatives {
                let k = rng.between(i64::from(p.arity.0), i64::from(p.arity.1));
                let first = s.children.len();
                for _ in 0..k {
                    let reuse = !s.next.is_empty() && rng.percent(p.shared_percent);
                    let child = match reuse.then(|| *rng.choose(&s.next).expect("non-empty")) {
                        Some(shared) if !s.children[first..].contains(&shared) => shared,
                        _ => {
                            let new = NodeId(s.terminal.len() as u32);
                            s.terminal.push(false);
                            s.next.push(new);
                            if too_many(s.terminal.len()) {
                                return None;
                            }
                            new
                        }
                    };
                    s.children.push(child);
                }
                for _ in first..s.children.len() {
                    s.arcs
                        .push(rng.between(p.arc_costs.0 as i64, p.arc_costs.1 as i64) as u64);
                }
                s.connectors.push((id, first..s.children.len()));
            }
        }
        std::mem::swap(&mut s.level, &mut s.next);
    }
    if p.nodes
        .is_some_and(|(lo, _)| s.terminal.len() < lo as usize)
    {
        return None;
    }
    let nodes = (s.terminal.iter().enumerate())
        .map(|(i, &terminal)| Node {
            label: node_label(i),
            h: 0,
            terminal,
        })
        .collect();
    let connectors = (s.connectors.iter())
        .map(|(from, range)| {
            let arcs = s.arcs[range.clone()].to_vec();
            Connector {
                from: *from,
                cost: arcs.iter().sum(),
                arcs: Some(arcs),
                to: s.children[range.clone()].to_vec(),
            }
        })
        .collect();
    let graph = Graph::new(nodes, connectors, NodeId(0), p.model).expect("levels make a DAG");
    Some(with_heuristic(graph, p.admissible, rng))
}

/// `n` and the id, as `format!("n{i}")` spells it: a drawn graph names
/// every node, and the formatter took a fifth of drawing one.
fn node_label(i: usize) -> String {
    let digits = i.checked_ilog10().unwrap_or(0);
    let mut label = String::with_capacity(2 + digits as usize);
    label.push('n');
    for k in (0..=digits).rev() {
        label.push(char::from(b'0' + (i / 10usize.pow(k) % 10) as u8));
    }
    label
}

/// The same graph with random heuristic values. Drawn bottom-up: each `h` is at
/// most the cheapest connector's cost computed from the children's `h`, which
/// makes `h` consistent (AO* never lowers a cost when it expands a node) and, by
/// induction, admissible (`h <= h*`). Not admissible: up to half as much again, plus 2.
pub fn with_heuristic(graph: Graph, admissible: bool, rng: &mut Rng) -> Graph {
    let model = graph.model();
    let mut h = vec![Cost::ZERO; graph.len()];
    let mut dead = Vec::new();
    for id in graph.topological_order().into_iter().rev() {
        if graph.node(id).terminal {
            continue;
        }
        let cheapest = graph
            .connectors_of(id)
            .iter()
            .map(|&c| graph.connector_cost(c, model, |t| h[t.index()]))
            .min();
        match cheapest.and_then(Cost::get) {
            Some(bound) => {
                let cap = if admissible {
                    bound
                } else {
                    bound + bound / 2 + 2
                };
                h[id.index()] = Cost::finite(rng.between(0, cap as i64) as u64);
            }
            // Dead ends, and nodes whose every connector reaches one, get any small h.
            None => dead.push(id),
        }
    }
    let largest = h.iter().filter_map(|c| c.get()).max().unwrap_or(0);
    for id in dead {
        h[id.index()] = Cost::finite(rng.between(0, largest as i64 + 2) as u64);
    }
    graph.with_h(h.iter().map(|c| c.get().expect("every h is set")))
}

/// A random graph for `seed` that meets every constraint of `params`.
pub fn generate(params: &Params, seed: u64) -> Result<Graph, GenerateError> {
    params.validate()?;
    let mut sketch = Sketch::default();
    first_satisfying(
        "graph",
        seed,
        |rng| draw(params, rng, &mut sketch),
        |candidate| candidate.as_ref().map_or(1, Graph::len),
        |candidate| match candidate {
            Some(graph) => params.unmet(graph),
            None => Some((0, Unmet::Size(params.nodes))),
        },
    )
    .map(|graph| graph.expect("a graph out of the size range is never accepted"))
}

/// The keys a problem set (or `sample`) shapes a generated graph with.
pub const KEYS: &[&str] = &[
    "depth",
    "alternatives",
    "arity",
    "cost",
    "arc_costs",
    "admissible",
    "terminal_percent",
    "shared_percent",
    "dead_end_percent",
    "solvable",
    "min_expansions",
    "min_switches",
    "unique",
    "nodes",
];

/// Reads [`Params`] from a problem set's exercise table (or `sample`'s options).
pub fn read_params(
    r: &crate::input::Reader<'_>,
    t: &crate::input::Table<'_>,
) -> Result<Params, crate::input::InputError> {
    let mut p = Params::default();
    if let Some(d) = t.get("depth") {
        p.depth = r.small_int(d, "depth = 3")?;
    }
    if let Some(d) = t.get("alternatives") {
        p.alternatives = r.small_range(d)?;
    }
    if let Some(d) = t.get("arity") {
        p.arity = r.small_range(d)?;
    }
    if let Some(d) = t.get("cost") {
        p.model = super::file::read_model(r, d)?;
    }
    if let Some(d) = t.get("arc_costs") {
        let (lo, hi) = r.small_range(d)?;
        p.arc_costs = (u64::from(lo), u64::from(hi));
    }
    for (key, flag) in [
        ("admissible", &mut p.admissible),
        ("solvable", &mut p.solvable),
        ("unique", &mut p.unique),
    ] {
        if let Some(d) = t.get(key) {
            *flag = r.bool(d, "true")?;
        }
    }
    for (key, value) in [
        ("terminal_percent", &mut p.terminal_percent),
        ("shared_percent", &mut p.shared_percent),
        ("dead_end_percent", &mut p.dead_end_percent),
    ] {
        if let Some(v) = r.count(t, key)? {
            *value = v;
        }
    }
    p.min_expansions = r.count(t, "min_expansions")?;
    p.min_switches = r.count(t, "min_switches")?;
    if let Some(d) = t.get("nodes") {
        p.nodes = Some(r.small_range(d)?);
    }
    r.check_generator(t, p.validate().err())?;
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_labels_are_formatted_ids() {
        for i in (0..2_000).chain([9_999, 10_000, 123_456_789, usize::MAX]) {
            assert_eq!(node_label(i), format!("n{i}"));
        }
    }
}
