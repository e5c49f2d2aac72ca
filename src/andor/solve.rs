//! Solvability and the optimal solution graph, by one pass in reverse topological order.
//!
//! The cost of a solution graph is the recursive one of DESIGN §3: a node
//! shared by two branches is counted in each (the cost of the unfolded tree),
//! which is what AO* computes and what textbooks mean by sum and max cost.

use serde::Serialize;

use super::graph::{ConnectorId, Cost, CostModel, Graph, GraphError, NodeId};

/// Whether each node is solvable: a terminal; or a node with a connector whose
/// children are all solvable. A non-terminal without connectors is unsolvable.
pub fn solvable(graph: &Graph) -> Vec<bool> {
    let mut ok = vec![false; graph.len()];
    for id in graph.topological_order().into_iter().rev() {
        ok[id.index()] = graph.node(id).terminal
            || graph
                .connectors_of(id)
                .iter()
                .any(|&c| graph.connector(c).to.iter().all(|t| ok[t.index()]));
    }
    ok
}

/// The cheapest solution graph under one cost model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Optimal {
    /// The model.
    pub model: CostModel,
    /// The start node's optimal cost (infinite when unsolvable).
    pub cost: Cost,
    /// The optimal cost `h*(n)` of every node.
    pub costs: Vec<Cost>,
    /// The connectors of the solution graph from the start, depth-first, left to right.
    pub solution: Vec<ConnectorId>,
    /// Nodes of the solution graph where another connector ties with the chosen one.
    pub ties: Vec<NodeId>,
}

impl Optimal {
    /// Whether its tables fit a graph of `nodes` nodes and `connectors` connectors.
    pub fn fits(&self, nodes: usize, connectors: usize) -> bool {
        self.costs.len() == nodes
            && self.solution.iter().all(|c| c.index() < connectors)
            && self.ties.iter().all(|n| n.index() < nodes)
    }
}

/// The optimal cost of every node under `model`, and the solution graph from the start.
///
/// # Panics
///
/// With the sum or max model on a graph without arc costs ([`Graph::has_arc_costs`]
/// is false); [`try_optimal`] returns an error instead.
pub fn optimal(graph: &Graph, model: CostModel) -> Optimal {
    try_optimal(graph, model).expect("sum and max need arc costs: check has_arc_costs")
}

/// [`optimal`], or [`GraphError::NeedsArcs`] when `model` is sum or max
/// and a connector has no arc costs.
pub fn try_optimal(graph: &Graph, model: CostModel) -> Result<Optimal, GraphError> {
    graph.check_model(model)?;
    let mut costs = vec![Cost::INFINITE; graph.len()];
    let mut choice = vec![None; graph.len()];
    for id in graph.topological_order().into_iter().rev() {
        if graph.node(id).terminal {
            costs[id.index()] = Cost::ZERO;
            continue;
        }
        for &c in graph.connectors_of(id) {
            let cost = graph.connector_cost(c, model, |t| costs[t.index()]);
            if cost.is_finite() && cost < costs[id.index()] {
                costs[id.index()] = cost;
                choice[id.index()] = Some(c);
            }
        }
    }
    let solution = solution_graph(graph, graph.start(), |n| choice[n.index()]);
    let ties = solution
        .iter()
        .map(|&c| graph.connector(c).from)
        .filter(|&n| {
            let best = costs[n.index()];
            graph
                .connectors_of(n)
                .iter()
                .filter(|&&c| graph.connector_cost(c, model, |t| costs[t.index()]) == best)
                .count()
                > 1
        })
        .collect();
    Ok(Optimal {
        model,
        cost: costs[graph.start().index()],
        costs,
        solution,
        ties,
    })
}

/// The connectors reached from `start` by following `chosen`, depth-first and
/// left to right, each shared node once. Costs time in the size of the result,
/// not of the graph.
pub fn solution_graph(
    graph: &Graph,
    start: NodeId,
    chosen: impl Fn(NodeId) -> Option<ConnectorId>,
) -> Vec<ConnectorId> {
    // Membership only: the set's order never reaches the output.
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut stack = vec![start];
    while let Some(n) = stack.pop() {
        if !seen.insert(n) {
            continue;
        }
        if let Some(c) = chosen(n) {
            out.push(c);
            stack.extend(
                graph
                    .connector(c)
                    .to
                    .iter()
                    .rev()
                    .filter(|t| !seen.contains(*t)),
            );
        }
    }
    out
}
