//! AND/OR-graph instance files: `kind = "and-or-graph"`, `start`, `nodes`, `terminal`, `connectors`.

use std::collections::BTreeMap;

use super::graph::{Connector, ConnectorId, CostModel, Graph, GraphError, MAX_NODES, Node, NodeId};
use crate::input::{Doc, DocKind, InputError, Reader, Table};

/// The keys an AND/OR-graph file may have.
pub const KEYS: &[&str] = &[
    "kind",
    "title",
    "start",
    "cost",
    "nodes",
    "terminal",
    "connectors",
];
const CONNECTOR_KEYS: &[&str] = &["from", "to", "cost", "costs"];

/// Reads the cost model name.
pub fn read_model(reader: &Reader<'_>, doc: &Doc) -> Result<CostModel, InputError> {
    match reader
        .str(doc, "`cost = \"sum\"`")?
        .to_ascii_lowercase()
        .as_str()
    {
        "connector" => Ok(CostModel::Connector),
        "sum" => Ok(CostModel::Sum),
        "max" => Ok(CostModel::Max),
        other => Err(reader.source.error(
            doc,
            format!("unknown cost model `{other}`"),
            "write \"connector\" (Nilsson), \"sum\" or \"max\"".to_string(),
        )),
    }
}

/// The largest h value or cost accepted: sums over two million nodes stay exact.
pub const MAX_VALUE: u64 = 1_000_000_000;

fn non_negative(reader: &Reader<'_>, doc: &Doc, what: &str) -> Result<u64, InputError> {
    let v = reader.int(doc, "3")?;
    match u64::try_from(v) {
        Err(_) => Err(reader.source.error(
            doc,
            format!("{what} cannot be negative"),
            "costs and h values are integers >= 0".to_string(),
        )),
        Ok(v) if v > MAX_VALUE => Err(reader.source.error(
            doc,
            format!("{what} of {v} is too large"),
            format!("costs and h values are at most {MAX_VALUE}"),
        )),
        Ok(v) => Ok(v),
    }
}

/// Reads an AND/OR graph from a checked top-level table.
pub fn read(reader: &Reader<'_>, table: &Table<'_>) -> Result<Graph, InputError> {
    let src = reader.source;
    let model = match table.get("cost") {
        None => CostModel::Connector,
        Some(doc) => read_model(reader, doc)?,
    };
    let nodes_doc = table.require(src, "nodes", "nodes = { n0 = 3, n1 = 2, n2 = 0 }")?;
    // Every key is a label, so the entries are read directly, not against an allow-list.
    let DocKind::Table(entries) = &nodes_doc.kind else {
        return Err(reader.wrong_type(
            nodes_doc,
            "a table of labels and h values",
            "`nodes = { n0 = 3, n1 = 2 }`",
        ));
    };
    if entries.is_empty() {
        return Err(src.error(
            nodes_doc,
            "the graph has no nodes",
            "list every node with its h value: nodes = { n0 = 3, n1 = 0 }".to_string(),
        ));
    }
    if entries.len() > MAX_NODES {
        return Err(src.error(
            nodes_doc,
            format!("the graph has more than {MAX_NODES} nodes"),
            "make the graph smaller".to_string(),
        ));
    }
    let mut index: BTreeMap<String, NodeId> = BTreeMap::new();
    let mut nodes = Vec::with_capacity(entries.len());
    for (key, value) in entries {
        let label = crate::input::label_text(&key.name);
        let at = Doc {
            span: key.span.clone(),
            path: value.path.clone(),
            kind: DocKind::Null,
        };
        if let Some(e) = crate::input::hidden_char_error(src, &at, "the node label", &label) {
            return Err(e);
        }
        if label.is_empty()
            || label
                .chars()
                .any(|c| c.is_whitespace() || c == ',' || c == '+')
        {
            return Err(src.error(
                &at,
                format!("`{label}` is not a usable node label"),
                "labels are short names without spaces, commas or `+`, like n4".to_string(),
            ));
        }
        if index
            .insert(label.to_lowercase(), NodeId(nodes.len() as u32))
            .is_some()
        {
            return Err(src.error(
                &at,
                format!("the node `{label}` is listed twice"),
                "labels are compared case-insensitively (and `é` typed as one character or as `e` and an accent is one label); give each node its own label".to_string(),
            ));
        }
        nodes.push(Node {
            label,
            h: non_negative(reader, value, "an h value")?,
            terminal: false,
        });
    }
    let lookup = |doc: &Doc| -> Result<NodeId, InputError> {
        let label = reader.str(doc, "\"n0\"")?;
        index.get(&crate::input::label_key(label)).copied().ok_or_else(|| {
            let known: Vec<&str> = nodes.iter().map(|n| n.label.as_str()).collect();
            let hint = match crate::input::closest(label, &known) {
                // Short labels (n1, n2, …) are all near each other: a guess would mislead.
                Some(near) if label.chars().count() > 3 => format!("did you mean `{near}`? Every node must be listed in `nodes`"),
                _ if known.len() <= 12 => format!("the nodes are {}; add `{label}` to `nodes` with its h value if it is a new one", known.join(", ")),
                _ => format!("add it to `nodes` with its h value, like `{label} = 0`"),
            };
            src.error(doc, format!("unknown node `{label}`"), hint)
        })
    };
    let start_doc = table.require(src, "start", "start = \"n0\"")?;
    let start = lookup(start_doc)?;
    let mut terminal_docs = Vec::new();
    if let Some(doc) = table.get("terminal") {
        let items = reader.array(doc, "`terminal = [\"n7\", \"n8\"]`")?;
        // A mark per node: a goal listed twice is found in O(1), not by a scan.
        let mut listed = vec![false; nodes.len()];
        for item in items {
            let id = lookup(item)?;
            if std::mem::replace(&mut listed[id.index()], true) {
                return Err(src.error(
                    item,
                    format!(
                        "`{}` is listed twice in `terminal`",
                        nodes[id.index()].label
                    ),
                    "list each goal node once".to_string(),
                ));
            }
            terminal_docs.push((id, item));
        }
    }
    let mut connectors = Vec::new();
    let mut connector_docs = Vec::new();
    // The connector that last listed each node as a child: a child listed
    // twice in one connector is found in O(1).
    let mut child_of = vec![usize::MAX; nodes.len()];
    if let Some(doc) = table.get("connectors") {
        for item in reader.array(
            doc,
            "`connectors = [{ from = \"n0\", to = [\"n1\", \"n2\"] }]`",
        )? {
            let t = reader.table(
                item,
                CONNECTOR_KEYS,
                "`{ from = \"n0\", to = [\"n1\", \"n2\"] }`",
            )?;
            let from = lookup(t.require(src, "from", "from = \"n0\"")?)?;
            let to_doc = t.require(src, "to", "to = [\"n1\", \"n2\"]")?;
            let to_items = reader.array(to_doc, "`to = [\"n1\", \"n2\"]`")?;
            if to_items.is_empty() {
                return Err(src.error(
                    to_doc,
                    "a connector needs at least one child",
                    "write to = [\"n1\"] for an OR branch, to = [\"n1\", \"n2\"] for an AND group"
                        .to_string(),
                ));
            }
            let mut to = Vec::with_capacity(to_items.len());
            for item in to_items {
                let id = lookup(item)?;
                if std::mem::replace(&mut child_of[id.index()], connectors.len())
                    == connectors.len()
                {
                    return Err(src.error(
                        item,
                        format!(
                            "`{}` appears twice in one connector",
                            nodes[id.index()].label
                        ),
                        "list each child once".to_string(),
                    ));
                }
                if id == from {
                    return Err(src.error(
                        item,
                        format!("`{}` is a child of itself", nodes[id.index()].label),
                        "a connector leads to other nodes".to_string(),
                    ));
                }
                to.push(id);
            }
            let k = to.len() as u64;
            let (cost, arcs) = match (t.get("cost"), t.get("costs")) {
                (Some(c), Some(_)) => {
                    return Err(src.error(c, "both `cost` and `costs` are given", "give one connector cost (`cost = 2`) or one cost per arc (`costs = [1, 1]`)".to_string()));
                }
                (Some(c), None) => (non_negative(reader, c, "a connector cost")?, None),
                (None, Some(cs)) => {
                    let items = reader.array(cs, "`costs = [1, 2]` (one per child)")?;
                    if items.len() != to.len() {
                        return Err(src.error(
                            cs,
                            format!(
                                "{} arc costs given for a connector with {} {}",
                                items.len(),
                                to.len(),
                                if to.len() == 1 { "child" } else { "children" }
                            ),
                            "give exactly one cost per child, in the order of `to`".to_string(),
                        ));
                    }
                    let arcs = items
                        .iter()
                        .map(|d| non_negative(reader, d, "an arc cost"))
                        .collect::<Result<Vec<_>, _>>()?;
                    (arcs.iter().sum(), Some(arcs))
                }
                (None, None) => (k, Some(vec![1; to.len()])),
            };
            connectors.push(Connector {
                from,
                to,
                cost,
                arcs,
            });
            connector_docs.push(item);
        }
    }
    for (id, doc) in &terminal_docs {
        let node = &mut nodes[id.index()];
        if node.h != 0 {
            return Err(src.error(
                doc,
                format!("the terminal node `{}` has h = {}", node.label, node.h),
                format!("a goal node costs 0: write `{} = 0` in `nodes`", node.label),
            ));
        }
        node.terminal = true;
    }
    Graph::new(nodes, connectors, start, model).map_err(|e| {
        let at = |c: ConnectorId| connector_docs[c.index()];
        let (doc, hint) = match &e {
            GraphError::Cycle(_, c) => (at(*c), "AND/OR graphs here are acyclic: remove or redirect one connector of the cycle"),
            GraphError::TerminalWithConnector(_, c) => (at(*c), "remove the node from `terminal`, or remove this connector"),
            GraphError::NeedsArcs(c) => (at(*c), "write `costs = [..]` with one cost per child, or leave both out for arcs of cost 1; `cost = \"connector\"` (Nilsson) reads a cost of the whole connector"),
            GraphError::TooLarge => (nodes_doc, "make the graph smaller"),
            // The reader resolves labels and counts arc costs before building.
            GraphError::UnknownNode(..) => (nodes_doc, "name only nodes listed in `nodes`"),
            GraphError::ArcCount { connector, .. } => (at(*connector), "write one cost per child"),
        };
        src.error(doc, e.to_string(), hint.to_string())
    })
}

/// What a connector must state in a file: nothing for the default (arcs of cost 1), else its costs.
enum Written<'a> {
    Default,
    Arcs(&'a [u64]),
    Connector(u64),
}

fn written(c: &Connector) -> Written<'_> {
    match &c.arcs {
        Some(arcs) if arcs.iter().all(|&a| a == 1) => Written::Default,
        Some(arcs) => Written::Arcs(arcs),
        None => Written::Connector(c.cost),
    }
}

/// The graph as an instance document: `kind`, `start`, `cost`, `nodes` (each
/// label with its h, in node order), `terminal`, and `connectors` (one per
/// line, with `costs` or `cost` only when they are not arcs of cost 1).
pub fn document(graph: &Graph) -> crate::document::Table {
    use crate::document::{Node, Table};
    let nodes = graph.nodes().iter().fold(
        Table::new().with_comment("heuristic values h(n); terminal (goal) nodes have h = 0"),
        |t, n| t.with(n.label.as_str(), n.h),
    );
    let terminal = graph
        .nodes()
        .iter()
        .filter(|n| n.terminal)
        .map(|n| n.label.as_str());
    let connectors = graph.connectors().iter().map(|c| {
        let t = Table::new()
            .with("from", graph.label(c.from))
            .with("to", Node::inline(c.to.iter().map(|&t| graph.label(t))));
        match written(c) {
            Written::Default => t,
            Written::Arcs(arcs) => t.with("costs", Node::inline(arcs.iter().copied())),
            Written::Connector(cost) => t.with("cost", cost),
        }
    });
    Table::new()
        .with("kind", "and-or-graph")
        .with("start", graph.label(graph.start()))
        .with("cost", graph.model().name())
        .with("nodes", nodes)
        .with("terminal", Node::inline(terminal))
        .with("connectors", Node::lines(connectors))
}
