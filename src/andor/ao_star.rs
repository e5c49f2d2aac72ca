//! AO* (Nilsson 1980), with the trace of every cycle.
//!
//! Each cycle:
//! 1. follow the marked connectors from the start node and expand the first
//!    unsolved, unexpanded tip met depth-first, left to right (the tie rule for
//!    tips: because every unsolved expanded node has an unsolved child under its
//!    marked connector, this is reached by always taking the leftmost unsolved
//!    child, without backtracking);
//! 2. its successors join the explicit graph with cost `h` (terminals: 0 and SOLVED);
//! 3. revise costs bottom-up: take from the set S the node on the lowest row of
//!    the drawing ([`Graph::level`]), the first in file order on a row (so none
//!    of its descendants is still in S), set its cost
//!    to the cheapest connector's, mark that connector (the first in file order on
//!    ties), label it SOLVED when all children of the marked connector are, and if
//!    its cost or label changed, add the parents whose *marked* connector leads to it.
//!
//! It stops when the start node is SOLVED, when its cost becomes infinite
//! (unsolvable: every way leads to a dead end), or when its cost exceeds the
//! futility bound.
//!
//! The run counts its steps (see [`Options::max_steps`]) and keeps the trace
//! of its first cycles only (see [`Options::max_traced`]): revisions grow
//! with depth × nodes, so neither may grow with the run unbounded.

use serde::Serialize;

use super::graph::{ConnectorId, Cost, CostModel, Graph, GraphError, NodeId};
use super::solve::solution_graph;

/// How AO* ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The start node was labelled SOLVED.
    Solved,
    /// The start node's cost became infinite: no solution exists.
    Unsolvable,
    /// The start node's cost exceeded the futility bound.
    Futile,
    /// The run took more than [`Options::max_steps`] steps before the start node was decided.
    TooLong,
}

/// One node's revision in a cycle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Revision {
    /// The node revised.
    pub node: NodeId,
    /// Its cost before.
    pub old: Cost,
    /// Its cost after.
    pub new: Cost,
    /// The connector marked after the revision (`None` for a dead end).
    pub marked: Option<ConnectorId>,
    /// The connector marked before, if it was a different one (a switch).
    pub switched_from: Option<ConnectorId>,
    /// Whether the node became SOLVED in this revision.
    pub solved: bool,
    /// Where the cost of each of the node's connectors (file order), which
    /// decided the mark, sits in [`Cycle::connector_costs`]; see [`Cycle::costs`].
    costs: std::ops::Range<u32>,
}

/// One cycle of AO*.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Cycle {
    /// The tip expanded.
    pub expanded: NodeId,
    /// Successors that entered the explicit graph in this cycle, with their `h`.
    pub generated: Vec<NodeId>,
    /// The revisions, in the order they were made.
    pub revised: Vec<Revision>,
    /// Every node labelled SOLVED in this cycle (new terminals included).
    pub solved: Vec<NodeId>,
    /// The start node's cost after the cycle.
    pub start_cost: Cost,
    /// The connector costs of every revision, one flat list (one allocation per cycle).
    connector_costs: Vec<Cost>,
}

impl Cycle {
    /// The cost of each of a revised node's connectors, in file order.
    pub fn costs(&self, revision: &Revision) -> &[Cost] {
        &self.connector_costs[revision.costs.start as usize..revision.costs.end as usize]
    }
}

/// The result of AO*.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct AoStar {
    /// The cost model used.
    pub model: CostModel,
    /// How it ended.
    pub outcome: Outcome,
    /// The start node's final cost.
    pub cost: Cost,
    /// Expanded nodes, in order.
    pub expanded: Vec<NodeId>,
    /// The marked connectors from the start at the end (the solution graph when solved).
    pub solution: Vec<ConnectorId>,
    /// The cycles traced: every cycle, unless [`Options::max_traced`] cut the
    /// trace short (then [`AoStar::untraced`] counts the rest).
    pub cycles: Vec<Cycle>,
    /// The cycles run after the trace was full, and their revisions.
    #[serde(default, skip_serializing_if = "Untraced::is_none")]
    pub untraced: Untraced,
    /// How many times a node's mark moved from one connector to another.
    pub switches: u32,
    /// How many times the tie rule chose among equally cheap connectors.
    pub ties: u32,
    /// Each node's final cost, `None` if it never entered the explicit graph.
    pub costs: Vec<Option<Cost>>,
    /// Each node's final mark.
    pub marked: Vec<Option<ConnectorId>>,
    /// Nodes labelled SOLVED.
    pub solved: Vec<bool>,
}

/// What a run did past the end of its trace.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Untraced {
    /// Cycles run but not traced.
    pub cycles: u32,
    /// Their revisions.
    pub revisions: u64,
}

impl Untraced {
    /// Whether the trace holds every cycle.
    pub fn is_none(&self) -> bool {
        self.cycles == 0
    }
}

impl AoStar {
    /// Every revision of the run, traced or not.
    pub fn revisions(&self) -> u64 {
        let traced: usize = self.cycles.iter().map(|c| c.revised.len()).sum();
        traced as u64 + self.untraced.revisions
    }

    /// Every cycle of the run, traced or not.
    pub fn cycle_count(&self) -> usize {
        self.cycles.len() + self.untraced.cycles as usize
    }

    /// Whether its ids and tables fit a graph of `nodes` nodes and `connectors` connectors.
    pub fn fits(&self, nodes: usize, connectors: usize) -> bool {
        let node = |n: &NodeId| n.index() < nodes;
        let conn = |c: &ConnectorId| c.index() < connectors;
        self.costs.len() == nodes
            && self.marked.len() == nodes
            && self.solved.len() == nodes
            && self.marked.iter().flatten().all(conn)
            && self.expanded.iter().all(node)
            && self.solution.iter().all(conn)
            && self.cycles.iter().all(|cy| {
                node(&cy.expanded)
                    && cy.generated.iter().all(node)
                    && cy.solved.iter().all(node)
                    && cy.revised.iter().all(|r| {
                        node(&r.node)
                            && r.marked.iter().chain(&r.switched_from).all(conn)
                            && r.costs.start <= r.costs.end
                            && (r.costs.end as usize) <= cy.connector_costs.len()
                    })
            })
    }
}

/// Options of an AO* run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The cost model (by default the graph's own).
    pub model: Option<CostModel>,
    /// Stop when the start node's cost exceeds this.
    pub futility: Option<u64>,
    /// Stop (as [`Outcome::TooLong`]) past this many steps: a step is a node
    /// revised, a connector or arc read to cost it, a parent looked at, or a
    /// node walked through to find the tip. Each expansion revises the
    /// ancestors whose cost changes, so a deep chain of n nodes takes about
    /// n²/2 steps: a bound keeps a pathological input from running for hours.
    pub max_steps: Option<u64>,
    /// Trace cycles only while the trace holds fewer entries than this (an
    /// entry: a revision, or one connector's cost it records); later cycles
    /// are run and counted in [`AoStar::untraced`], not kept, so memory and
    /// every view of the trace stay bounded whatever the run's length.
    pub max_traced: Option<usize>,
}

struct State<'g> {
    graph: &'g Graph,
    model: CostModel,
    cost: Vec<Option<Cost>>,
    marked: Vec<Option<ConnectorId>>,
    solved: Vec<bool>,
    expanded: Vec<bool>,
    ties: u32,
    switches: u32,
    /// Work done so far, as [`Options::max_steps`] counts it.
    steps: u64,
}

/// Runs AO* from the graph's start node.
///
/// # Panics
///
/// When the run's cost model is sum or max and the graph has no arc costs
/// ([`Graph::has_arc_costs`]); [`try_ao_star`] returns an error instead.
pub fn ao_star(graph: &Graph, options: Options) -> AoStar {
    try_ao_star(graph, options).expect("sum and max need arc costs: check has_arc_costs")
}

/// [`ao_star`], or [`GraphError::NeedsArcs`] when the run's cost model is
/// sum or max and a connector has no arc costs.
pub fn try_ao_star(graph: &Graph, options: Options) -> Result<AoStar, GraphError> {
    let model = options.model.unwrap_or(graph.model());
    graph.check_model(model)?;
    Ok(run(graph, options))
}

fn run(graph: &Graph, options: Options) -> AoStar {
    let n = graph.len();
    let model = options.model.unwrap_or(graph.model());
    let start = graph.start();
    let mut st = State {
        graph,
        model,
        cost: vec![None; n],
        marked: vec![None; n],
        solved: vec![false; n],
        expanded: vec![false; n],
        ties: 0,
        switches: 0,
        steps: 0,
    };
    st.generate(start, &mut Vec::new());
    let mut cycles = Vec::new();
    let mut untraced = Untraced::default();
    let mut traced = 0usize;
    let mut expanded = Vec::new();
    let mut in_set = vec![false; n];
    let mut scratch = Scratch::default();
    let outcome = loop {
        let start_cost = st.cost[start.index()].expect("start is generated");
        if st.solved[start.index()] {
            break Outcome::Solved;
        }
        if !start_cost.is_finite() {
            break Outcome::Unsolvable;
        }
        if options
            .futility
            .is_some_and(|f| start_cost > Cost::finite(f))
        {
            break Outcome::Futile;
        }
        if options.max_steps.is_some_and(|m| st.steps > m) {
            break Outcome::TooLong;
        }
        let tip = st.first_tip(start);
        st.expanded[tip.index()] = true;
        expanded.push(tip);
        // One set of lists serves every cycle, and a traced cycle keeps
        // copies of just their length: the trace is most of a long run's
        // memory, and lists grown by doubling would hold up to twice it.
        let Scratch {
            generated,
            solved_now,
            revised,
            connector_costs,
        } = &mut scratch;
        generated.clear();
        solved_now.clear();
        revised.clear();
        connector_costs.clear();
        for &c in graph.connectors_of(tip) {
            st.steps += 1 + graph.connector(c).to.len() as u64;
            for &t in &graph.connector(c).to {
                if st.cost[t.index()].is_none() {
                    generated.push(t);
                    st.generate(t, solved_now);
                }
            }
        }
        st.revise(tip, &mut in_set, solved_now, connector_costs, revised);
        if options.max_traced.is_none_or(|m| traced < m) && untraced.is_none() {
            traced += revised.len() + connector_costs.len();
            cycles.push(Cycle {
                expanded: tip,
                generated: generated.clone(),
                revised: revised.clone(),
                solved: solved_now.clone(),
                start_cost: st.cost[start.index()].expect("start is generated"),
                connector_costs: connector_costs.clone(),
            });
        } else {
            untraced.cycles += 1;
            untraced.revisions += revised.len() as u64;
        }
    };
    let solution = solution_graph(graph, start, |m| st.marked[m.index()]);
    AoStar {
        model,
        outcome,
        cost: st.cost[start.index()].expect("start is generated"),
        expanded,
        solution,
        cycles,
        untraced,
        switches: st.switches,
        ties: st.ties,
        costs: st.cost,
        marked: st.marked,
        solved: st.solved,
    }
}

/// What one cycle lists as it goes: the nodes it generated and solved, its
/// revisions and their connectors' costs.
#[derive(Default)]
struct Scratch {
    generated: Vec<NodeId>,
    solved_now: Vec<NodeId>,
    revised: Vec<Revision>,
    connector_costs: Vec<Cost>,
}

impl State<'_> {
    /// Adds a node to the explicit graph: cost `h`, or 0 and SOLVED for a terminal.
    fn generate(&mut self, id: NodeId, solved_now: &mut Vec<NodeId>) {
        let node = self.graph.node(id);
        if node.terminal {
            self.cost[id.index()] = Some(Cost::ZERO);
            self.solved[id.index()] = true;
            solved_now.push(id);
        } else {
            self.cost[id.index()] = Some(Cost::finite(node.h));
        }
    }

    /// The first unsolved, unexpanded tip of the marked partial solution graph.
    fn first_tip(&mut self, start: NodeId) -> NodeId {
        let mut at = start;
        while self.expanded[at.index()] {
            let c = self.marked[at.index()].expect("an expanded node with finite cost has a mark");
            let to = &self.graph.connector(c).to;
            let i = to
                .iter()
                .position(|t| !self.solved[t.index()])
                .expect("an unsolved node's marked connector has an unsolved child");
            self.steps += 1 + i as u64;
            at = to[i];
        }
        at
    }

    /// Revises costs from `from` up through marked connectors, listing the
    /// revisions in `revisions`.
    fn revise(
        &mut self,
        from: NodeId,
        in_set: &mut [bool],
        solved_now: &mut Vec<NodeId>,
        costs: &mut Vec<Cost>,
        revisions: &mut Vec<Revision>,
    ) {
        let graph = self.graph;
        // The next node to revise: the lowest row of the drawing, then the
        // first in file order. A descendant is on a lower row, so none of the
        // node's descendants is still in the set (Nilsson's condition).
        let rank = |m: NodeId| (graph.level(m), std::cmp::Reverse(m));
        let mut set = std::collections::BinaryHeap::from([(rank(from), from)]);
        in_set[from.index()] = true;
        while let Some((_, m)) = set.pop() {
            in_set[m.index()] = false;
            let old = self.cost[m.index()].expect("revised nodes are generated");
            let mut best: Option<(Cost, ConnectorId)> = None;
            let mut tied = false;
            let first = costs.len() as u32;
            self.steps += 1;
            for &c in graph.connectors_of(m) {
                self.steps += 1 + graph.connector(c).to.len() as u64;
                let cost = graph.connector_cost(c, self.model, |t| {
                    self.cost[t.index()].expect("children of expanded nodes are generated")
                });
                costs.push(cost);
                match best {
                    Some((b, _)) if cost == b && cost.is_finite() => tied = true,
                    Some((b, _)) if cost >= b => {}
                    _ => {
                        best = Some((cost, c));
                        tied = false;
                    }
                }
            }
            let (new, mark) = match best {
                Some((cost, c)) if cost.is_finite() => (cost, Some(c)),
                _ => (Cost::INFINITE, None),
            };
            self.ties += u32::from(tied);
            let previous = self.marked[m.index()];
            let switched_from = previous.filter(|&p| Some(p) != mark);
            if switched_from.is_some() && mark.is_some() {
                self.switches += 1;
            }
            self.marked[m.index()] = mark;
            let solved =
                mark.is_some_and(|c| graph.connector(c).to.iter().all(|t| self.solved[t.index()]));
            let became_solved = solved && !self.solved[m.index()];
            self.solved[m.index()] = solved;
            self.cost[m.index()] = Some(new);
            if became_solved {
                solved_now.push(m);
            }
            let costs = first..costs.len() as u32;
            revisions.push(Revision {
                node: m,
                old,
                new,
                marked: mark,
                switched_from,
                solved: became_solved,
                costs,
            });
            if new != old || became_solved {
                self.steps += graph.parents_of(m).len() as u64;
                for &pc in graph.parents_of(m) {
                    let p = graph.connector(pc).from;
                    if self.expanded[p.index()]
                        && self.marked[p.index()] == Some(pc)
                        && !in_set[p.index()]
                    {
                        in_set[p.index()] = true;
                        set.push((rank(p), p));
                    }
                }
            }
        }
    }
}
