//! The AND/OR graph model: nodes with heuristic values, k-connectors, cost models.

use std::fmt;

use serde::{Serialize, Serializer};

/// Most nodes (and connectors) accepted in one graph.
pub const MAX_NODES: usize = 2_000_000;

/// Index of a node in [`Graph`].
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct NodeId(pub u32);

/// Index of a connector in [`Graph`], in file order.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct ConnectorId(pub u32);

impl NodeId {
    /// The index into the arena.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl ConnectorId {
    /// The index into the arena.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A cost: a non-negative integer, or infinite for what cannot be solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cost(u64);

impl Cost {
    /// Unsolvable.
    pub const INFINITE: Cost = Cost(u64::MAX);
    /// A goal.
    pub const ZERO: Cost = Cost(0);

    /// A finite cost (saturating below infinity).
    pub fn finite(v: u64) -> Cost {
        Cost(v.min(u64::MAX - 1))
    }

    /// The number, `None` when infinite.
    pub fn get(self) -> Option<u64> {
        (self != Cost::INFINITE).then_some(self.0)
    }

    /// Whether finite.
    pub fn is_finite(self) -> bool {
        self != Cost::INFINITE
    }
}

/// Infinite if either side is; finite sums saturate at the largest finite cost,
/// so an overflow can never pass for "unsolvable".
impl std::ops::Add for Cost {
    type Output = Cost;
    fn add(self, other: Cost) -> Cost {
        if self == Cost::INFINITE || other == Cost::INFINITE {
            Cost::INFINITE
        } else {
            Cost(self.0.saturating_add(other.0).min(u64::MAX - 1))
        }
    }
}

impl fmt::Display for Cost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.get() {
            Some(v) => write!(f, "{v}"),
            None => f.write_str("+inf"),
        }
    }
}

/// Finite costs as JSON numbers, infinity as `"+inf"`.
impl Serialize for Cost {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.get() {
            Some(v) => s.serialize_u64(v),
            None => s.serialize_str("+inf"),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Cost {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Cost, D::Error> {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Finite(u64),
            Text(String),
        }
        match Raw::deserialize(d)? {
            Raw::Finite(v) => Ok(Cost::finite(v)),
            Raw::Text(s) if s == "+inf" => Ok(Cost::INFINITE),
            Raw::Text(s) => Err(serde::de::Error::custom(format!("`{s}` is not a cost"))),
        }
    }
}

/// How a connector's cost combines with its children's (DESIGN §3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CostModel {
    /// Nilsson: `k(n) = c + k(n1) + … + k(nk)`, `c` defaulting to the connector's k.
    #[default]
    Connector,
    /// `h(n) = Σ (c_i + h(n_i))` over the arcs of the connector.
    Sum,
    /// `h(n) = max (c_i + h(n_i))` over the arcs of the connector.
    Max,
}

impl CostModel {
    /// The name used in files.
    pub fn name(self) -> &'static str {
        match self {
            CostModel::Connector => "connector",
            CostModel::Sum => "sum",
            CostModel::Max => "max",
        }
    }
}

/// A node of the graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The label students see.
    pub label: String,
    /// The heuristic estimate `h(n)`.
    pub h: u64,
    /// A goal: solved at cost 0.
    pub terminal: bool,
}

/// A k-connector from one parent to k children.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Connector {
    /// The parent.
    pub from: NodeId,
    /// The children, left to right.
    pub to: Vec<NodeId>,
    /// The connector's cost under the additive models (`cost`, or Σ `costs`, or k).
    pub cost: u64,
    /// Per-arc costs (`costs`, or 1 each); `None` when only a connector cost was
    /// given, which the sum and max models cannot use.
    pub arcs: Option<Vec<u64>>,
}

/// Why a set of nodes and connectors is not a graph we accept.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GraphError {
    /// A cycle through this connector.
    #[error("the connectors form a cycle: {0}")]
    Cycle(String, ConnectorId),
    /// A connector from a terminal node.
    #[error("`{0}` is a terminal (goal) node, so it cannot have a connector")]
    TerminalWithConnector(String, ConnectorId),
    /// The sum and max models need per-arc costs.
    #[error(
        "the sum and max cost models add a cost per arc, but this connector gives only one cost for the whole connector"
    )]
    NeedsArcs(ConnectorId),
    /// Too many nodes or connectors.
    #[error("the graph has more than {MAX_NODES} nodes or connectors")]
    TooLarge,
    /// A node id that is not in the graph (the start, or a connector's end).
    #[error("node id {0} is not one of the graph's {1} nodes")]
    UnknownNode(u32, usize),
    /// A connector whose arc costs are not one per child.
    #[error("the connector gives {given} arc costs for {children} children")]
    ArcCount {
        /// The connector.
        connector: ConnectorId,
        /// Arc costs given.
        given: usize,
        /// Children.
        children: usize,
    },
}

/// An AND/OR graph (a DAG): nodes, connectors in file order, a start node, a cost model.
#[derive(Clone, Debug)]
pub struct Graph {
    nodes: Vec<Node>,
    connectors: Vec<Connector>,
    start: NodeId,
    model: CostModel,
    /// Connectors of each node in file order: `out_list[out_start[n]..out_start[n + 1]]`.
    out_start: Vec<u32>,
    out_list: Vec<ConnectorId>,
    /// Connectors that have the node among their children.
    in_start: Vec<u32>,
    in_list: Vec<ConnectorId>,
    /// Position of each node in a topological order (parents before children).
    topo_rank: Vec<u32>,
    /// Each node's row in a drawing: the longest path to it from a node without parents.
    levels: Vec<u32>,
}

/// Groups `items` (pairs of node and connector) by node, keeping their order.
fn csr(
    n: usize,
    items: impl Iterator<Item = (NodeId, ConnectorId)> + Clone,
) -> (Vec<u32>, Vec<ConnectorId>) {
    let mut start = vec![0u32; n + 1];
    for (node, _) in items.clone() {
        start[node.index() + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut list = vec![ConnectorId(0); start[n] as usize];
    for (node, c) in items {
        list[fill[node.index()] as usize] = c;
        fill[node.index()] += 1;
    }
    (start, list)
}

impl Graph {
    /// Checks and indexes a graph. Node ids index `nodes`; connectors keep their order.
    pub fn new(
        nodes: Vec<Node>,
        connectors: Vec<Connector>,
        start: NodeId,
        model: CostModel,
    ) -> Result<Graph, GraphError> {
        if nodes.len() > MAX_NODES || connectors.len() > MAX_NODES {
            return Err(GraphError::TooLarge);
        }
        let known = |id: NodeId| {
            if id.index() < nodes.len() {
                Ok(())
            } else {
                Err(GraphError::UnknownNode(id.0, nodes.len()))
            }
        };
        known(start)?;
        for (i, c) in connectors.iter().enumerate() {
            known(c.from)?;
            c.to.iter().try_for_each(|&t| known(t))?;
            if let Some(arcs) = &c.arcs
                && arcs.len() != c.to.len()
            {
                return Err(GraphError::ArcCount {
                    connector: ConnectorId(i as u32),
                    given: arcs.len(),
                    children: c.to.len(),
                });
            }
        }
        for (i, c) in connectors.iter().enumerate() {
            if nodes[c.from.index()].terminal {
                return Err(GraphError::TerminalWithConnector(
                    nodes[c.from.index()].label.clone(),
                    ConnectorId(i as u32),
                ));
            }
            // Sum and max are defined arc by arc: a bare connector cost has no reading there.
            if model != CostModel::Connector && c.arcs.is_none() {
                return Err(GraphError::NeedsArcs(ConnectorId(i as u32)));
            }
        }
        let n = nodes.len();
        let ids = || {
            connectors
                .iter()
                .enumerate()
                .map(|(i, c)| (c.from, ConnectorId(i as u32)))
        };
        let (out_start, out_list) = csr(n, ids());
        let arcs = || {
            connectors
                .iter()
                .enumerate()
                .flat_map(|(i, c)| c.to.iter().map(move |&t| (t, ConnectorId(i as u32))))
        };
        let (in_start, in_list) = csr(n, arcs());
        let mut graph = Graph {
            nodes,
            connectors,
            start,
            model,
            out_start,
            out_list,
            in_start,
            in_list,
            topo_rank: Vec::new(),
            levels: Vec::new(),
        };
        graph.topo_rank = graph.topological_ranks()?;
        let mut levels = vec![0u32; n];
        for id in graph.topological_order() {
            for &c in graph.connectors_of(id) {
                for t in &graph.connectors[c.index()].to {
                    levels[t.index()] = levels[t.index()].max(levels[id.index()] + 1);
                }
            }
        }
        graph.levels = levels;
        Ok(graph)
    }

    /// The same graph with each node's `h` replaced, in id order: `h` is no
    /// part of the graph's indexes, so none is built again.
    pub fn with_h(mut self, h: impl IntoIterator<Item = u64>) -> Graph {
        for (node, h) in self.nodes.iter_mut().zip(h) {
            node.h = h;
        }
        self
    }

    /// Kahn's algorithm, smallest id first among ready nodes, so the order is deterministic.
    fn topological_ranks(&self) -> Result<Vec<u32>, GraphError> {
        let n = self.nodes.len();
        let mut indegree = vec![0u32; n];
        for c in &self.connectors {
            for t in &c.to {
                indegree[t.index()] += 1;
            }
        }
        let mut ready: std::collections::BinaryHeap<std::cmp::Reverse<u32>> = (0..n as u32)
            .filter(|&i| indegree[i as usize] == 0)
            .map(std::cmp::Reverse)
            .collect();
        let mut rank = vec![u32::MAX; n];
        let mut next = 0u32;
        while let Some(std::cmp::Reverse(i)) = ready.pop() {
            rank[i as usize] = next;
            next += 1;
            for &c in self.connectors_of(NodeId(i)) {
                for t in &self.connectors[c.index()].to {
                    indegree[t.index()] -= 1;
                    if indegree[t.index()] == 0 {
                        ready.push(std::cmp::Reverse(t.0));
                    }
                }
            }
        }
        if let Some(stuck) = (0..n).find(|&i| rank[i] == u32::MAX) {
            // A node left unranked keeps an unranked parent (its in-degree never
            // reached 0). Walk up through such parents until a node repeats:
            // those nodes, read backwards, are a cycle.
            let mut path = vec![NodeId(stuck as u32)];
            // Each node's place on the path, so a repeat is found in O(1), not by a scan.
            let mut on_path = vec![u32::MAX; n];
            on_path[stuck] = 0;
            let mut via = Vec::new();
            loop {
                let at = *path.last().expect("non-empty");
                let c = *self
                    .parents_of(at)
                    .iter()
                    .find(|&&c| rank[self.connectors[c.index()].from.index()] == u32::MAX)
                    .expect("an unranked node has an unranked parent");
                let next = self.connectors[c.index()].from;
                via.push(c);
                let pos = on_path[next.index()] as usize;
                if pos != u32::MAX as usize {
                    let mut names: Vec<&str> = path[pos..].iter().map(|&p| self.label(p)).collect();
                    names.push(self.label(next));
                    names.reverse();
                    // A long cycle is named by its ends: the message stays a line or two.
                    let shown = if names.len() > 13 {
                        let more = format!("… ({} nodes in all) …", names.len() - 1);
                        let mut short = names[..6].to_vec();
                        short.push(&more);
                        short.extend_from_slice(&names[names.len() - 6..]);
                        short.join(" -> ")
                    } else {
                        names.join(" -> ")
                    };
                    return Err(GraphError::Cycle(shown, via[pos]));
                }
                on_path[next.index()] = path.len() as u32;
                path.push(next);
            }
        }
        Ok(rank)
    }

    /// The nodes in file order.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The connectors in file order.
    pub fn connectors(&self) -> &[Connector] {
        &self.connectors
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether there are no nodes (never, for a checked graph).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// All node ids.
    pub fn ids(&self) -> impl DoubleEndedIterator<Item = NodeId> + use<> {
        (0..self.nodes.len() as u32).map(NodeId)
    }

    /// The start node.
    pub fn start(&self) -> NodeId {
        self.start
    }

    /// The cost model the instance was given with.
    pub fn model(&self) -> CostModel {
        self.model
    }

    /// A node.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    /// A node's label.
    pub fn label(&self, id: NodeId) -> &str {
        &self.nodes[id.index()].label
    }

    /// A connector.
    pub fn connector(&self, id: ConnectorId) -> &Connector {
        &self.connectors[id.index()]
    }

    /// The connectors leaving `id`, in file order.
    pub fn connectors_of(&self, id: NodeId) -> &[ConnectorId] {
        &self.out_list[self.out_start[id.index()] as usize..self.out_start[id.index() + 1] as usize]
    }

    /// The connectors that have `id` among their children.
    pub fn parents_of(&self, id: NodeId) -> &[ConnectorId] {
        &self.in_list[self.in_start[id.index()] as usize..self.in_start[id.index() + 1] as usize]
    }

    /// The node's row in a drawing: the longest path to it from a node
    /// without parents, so every connector points down and a descendant is
    /// always on a lower row than its ancestors.
    pub fn level(&self, id: NodeId) -> u32 {
        self.levels[id.index()]
    }

    /// Node ids so that every node comes after all its parents.
    pub fn topological_order(&self) -> Vec<NodeId> {
        let mut order = vec![NodeId(0); self.nodes.len()];
        for (i, &r) in self.topo_rank.iter().enumerate() {
            order[r as usize] = NodeId(i as u32);
        }
        order
    }

    /// The node with this label (case-insensitive; `é` typed as one character
    /// or as `e` and a combining accent is the same label: see [`crate::input::label_text`]).
    pub fn find(&self, label: &str) -> Option<NodeId> {
        let wanted = crate::input::label_key(label);
        self.ids()
            .find(|&id| self.label(id).to_lowercase() == wanted)
    }

    /// Whether the sum and max models can be used (every connector has arc costs).
    pub fn has_arc_costs(&self) -> bool {
        self.connectors.iter().all(|c| c.arcs.is_some())
    }

    /// Whether `model` can cost this graph: sum and max need every arc's cost.
    pub fn check_model(&self, model: CostModel) -> Result<(), GraphError> {
        match self.connectors.iter().position(|c| c.arcs.is_none()) {
            Some(i) if model != CostModel::Connector => {
                Err(GraphError::NeedsArcs(ConnectorId(i as u32)))
            }
            _ => Ok(()),
        }
    }

    /// The cost of connector `c` under `model`, given the cost of each child.
    ///
    /// # Panics
    ///
    /// With [`CostModel::Max`] on a connector without arc costs (see
    /// [`Graph::has_arc_costs`]); [`Graph::try_connector_cost`] returns an error instead.
    pub fn connector_cost(
        &self,
        c: ConnectorId,
        model: CostModel,
        child: impl Fn(NodeId) -> Cost,
    ) -> Cost {
        self.try_connector_cost(c, model, child)
            .expect("sum and max need arc costs: check has_arc_costs")
    }

    /// The cost of connector `c` under `model`, or [`GraphError::NeedsArcs`]
    /// when the sum or max model meets a connector without arc costs.
    pub fn try_connector_cost(
        &self,
        c: ConnectorId,
        model: CostModel,
        child: impl Fn(NodeId) -> Cost,
    ) -> Result<Cost, GraphError> {
        let con = &self.connectors[c.index()];
        Ok(match model {
            CostModel::Connector => con
                .to
                .iter()
                .fold(Cost::finite(con.cost), |acc, &t| acc + child(t)),
            CostModel::Sum => {
                let arcs = con.arcs.as_ref().ok_or(GraphError::NeedsArcs(c))?;
                con.to
                    .iter()
                    .zip(arcs)
                    .fold(Cost::ZERO, |acc, (&t, &a)| acc + Cost::finite(a) + child(t))
            }
            CostModel::Max => {
                let arcs = con.arcs.as_ref().ok_or(GraphError::NeedsArcs(c))?;
                con.to
                    .iter()
                    .zip(arcs)
                    .map(|(&t, &a)| Cost::finite(a) + child(t))
                    .max()
                    .unwrap_or(Cost::ZERO)
            }
        })
    }

    /// `from -> to1 + to2`, every child: how answers name a connector.
    pub fn connector_name(&self, c: ConnectorId) -> String {
        let con = &self.connectors[c.index()];
        let to: Vec<&str> = con.to.iter().map(|&t| self.label(t)).collect();
        format!("{} -> {}", self.label(con.from), to.join(" + "))
    }

    /// `from -> to1 + to2` for messages and traces; a connector with more
    /// than eight children is shortened to its first six and a count.
    pub fn describe(&self, c: ConnectorId) -> String {
        let con = &self.connectors[c.index()];
        if con.to.len() <= 8 {
            return self.connector_name(c);
        }
        let first: Vec<&str> = con.to.iter().take(6).map(|&t| self.label(t)).collect();
        format!(
            "{} -> {} + … ({} children)",
            self.label(con.from),
            first.join(" + "),
            con.to.len()
        )
    }
}
