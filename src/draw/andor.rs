//! AND/OR-graph layout: levels by longest path from the start, order by barycentres.

use super::{Anchor, Figure, Item, Outline, Pick, Style, Target, extent, joining_arc, text_width};
use crate::andor::{ConnectorId, Graph, NodeId};

/// What a key adds to an AND/OR drawing.
#[derive(Clone, Debug, Default)]
pub struct GraphMarks {
    /// Text written beside each node (its final cost).
    pub costs: Vec<Option<String>>,
    /// Connectors of the answer (the solution graph): thick, green.
    pub solution: Vec<ConnectorId>,
    /// Nodes labelled SOLVED (or solvable): thick, green outline.
    pub solved: Vec<bool>,
}

const LEVEL: f64 = 20.0;
/// Room between two nodes of a row, less (down to `MIN_GAP`) in a row that
/// would be wider than `ROW`: so that the figure prints at its size.
const GAP: f64 = 5.0;
const MIN_GAP: f64 = 2.5;
const ROW: f64 = 160.0;
const FONT: f64 = 2.8;
/// Arc costs and `c=` labels, in mm (7.4 pt).
const SMALL: f64 = 2.6;
const HEIGHT: f64 = 6.5;

/// The text inside a node: `n1 (2)`, or the label alone for a goal.
fn node_text(graph: &Graph, id: NodeId) -> String {
    let node = graph.node(id);
    if node.terminal {
        node.label.clone()
    } else {
        format!("{} ({})", node.label, node.h)
    }
}

/// Lays out and draws an AND/OR graph; `marks` adds the key's annotations.
pub fn graph_figure(graph: &Graph, marks: Option<&GraphMarks>) -> Figure {
    let n = graph.len();
    // Longest-path depth, so every connector points downwards.
    let depth: Vec<usize> = graph.ids().map(|id| graph.level(id) as usize).collect();
    let levels = depth.iter().max().copied().unwrap_or(0) + 1;
    let mut rows: Vec<Vec<NodeId>> = vec![Vec::new(); levels];
    for id in graph.ids() {
        rows[depth[id.index()]].push(id);
    }
    // Left to right within a level: breadth-first from the start, connectors in
    // file order, children in order. So the drawing's left-to-right order is the
    // file's order (the tie rules refer to it) and each AND group's children sit
    // side by side.
    let mut seen = vec![usize::MAX; n];
    let mut queue = std::collections::VecDeque::new();
    let mut next = 0;
    for root in std::iter::once(graph.start()).chain(graph.ids()) {
        if seen[root.index()] != usize::MAX {
            continue;
        }
        seen[root.index()] = next;
        next += 1;
        queue.push_back(root);
        while let Some(id) = queue.pop_front() {
            for &c in graph.connectors_of(id) {
                for &t in &graph.connector(c).to {
                    if seen[t.index()] == usize::MAX {
                        seen[t.index()] = next;
                        next += 1;
                        queue.push_back(t);
                    }
                }
            }
        }
    }
    for row in &mut rows {
        row.sort_by_key(|id| seen[id.index()]);
    }
    // Widths, then each row centred on the widest.
    let widths: Vec<f64> = graph
        .ids()
        .map(|id| text_width(&node_text(graph, id), FONT) + 4.0)
        .collect();
    // One gap for the whole figure: the widest row's, at most ROW mm wide.
    let boxes = |row: &Vec<NodeId>| row.iter().map(|id| widths[id.index()]).sum::<f64>();
    let gap = rows
        .iter()
        .filter(|row| row.len() > 1)
        .map(|row| (ROW - boxes(row)) / (row.len() - 1) as f64)
        .fold(GAP, f64::min)
        .max(MIN_GAP);
    let row_width = |row: &Vec<NodeId>| boxes(row) + gap * row.len().saturating_sub(1) as f64;
    let widest = rows.iter().map(row_width).fold(0.0, f64::max);
    let margin = 8.0;
    let mut x = vec![0.0f64; n];
    let mut y = vec![0.0f64; n];
    for (level, row) in rows.iter().enumerate() {
        let mut at = margin + (widest - row_width(row)) / 2.0;
        for &id in row {
            x[id.index()] = at + widths[id.index()] / 2.0;
            y[id.index()] = margin + LEVEL * level as f64;
            at += widths[id.index()] + gap;
        }
    }

    let radii = arc_radii(graph, &x, &y);
    let no_marks = GraphMarks::default();
    let m = marks.unwrap_or(&no_marks);
    let mut items = Vec::new();
    let mut targets = Vec::new();
    for (i, con) in graph.connectors().iter().enumerate() {
        let c = ConnectorId(i as u32);
        let style = if m.solution.contains(&c) {
            Style::Answer
        } else {
            Style::Normal
        };
        let (px, py) = (x[con.from.index()], y[con.from.index()] + HEIGHT / 2.0);
        let mut ends = Vec::new();
        for (j, t) in con.to.iter().enumerate() {
            let (cx, cy) = (x[t.index()], y[t.index()] - HEIGHT / 2.0);
            items.push(Item::Line {
                x1: px,
                y1: py,
                x2: cx,
                y2: cy,
                style,
            });
            ends.push((cx, cy));
            // Any of a connector's edges picks it.
            targets.push(Target::line(
                graph.connector_name(c),
                Pick::Connector,
                (px, py),
                (cx, cy),
            ));
            if let Some(arcs) = con.arcs.as_ref().filter(|a| a.iter().any(|&v| v != 1)) {
                let (lx, ly) = (px + (cx - px) * 0.55, py + (cy - py) * 0.55);
                items.push(Item::Text {
                    x: lx + 1.0,
                    y: ly,
                    text: arcs[j].to_string(),
                    size: SMALL,
                    anchor: Anchor::Start,
                    style: Style::Normal,
                    halo: true,
                });
            } else if con.arcs.is_none() && j == 0 {
                let (lx, ly) = (px + (cx - px) * 0.3, py + (cy - py) * 0.3);
                items.push(Item::Text {
                    x: lx + 1.5,
                    y: ly,
                    text: format!("c={}", con.cost),
                    size: SMALL,
                    anchor: Anchor::Start,
                    style: Style::Normal,
                    halo: true,
                });
            }
        }
        // A node's AND connectors get arcs at different radii, so that each
        // arc shows which children belong together.
        let r = radii[i];
        // The node's edges to children outside this connector.
        let others: Vec<(f64, f64)> = graph
            .connectors_of(con.from)
            .iter()
            .flat_map(|&o| graph.connector(o).to.iter())
            .filter(|t| !con.to.contains(t))
            .map(|t| (x[t.index()], y[t.index()] - HEIGHT / 2.0))
            .collect();
        items.extend(joining_arc((px, py), &ends, &others, r, style));
    }
    for id in graph.ids() {
        let node = graph.node(id);
        let outline = if node.terminal {
            Outline::DoubleBox
        } else {
            Outline::Box
        };
        let solved = m.solved.get(id.index()).copied().unwrap_or(false);
        let style = if solved { Style::Answer } else { Style::Normal };
        let (cx, cy) = (x[id.index()], y[id.index()]);
        targets.push(Target::area(
            graph.label(id).to_string(),
            Pick::Node,
            (cx, cy),
            (widths[id.index()], HEIGHT),
        ));
        items.push(Item::Node {
            x: cx,
            y: cy,
            w: widths[id.index()],
            h: HEIGHT,
            outline,
            style,
        });
        items.push(Item::Text {
            x: cx,
            y: cy,
            text: node_text(graph, id),
            size: FONT,
            anchor: Anchor::Middle,
            style: Style::Normal,
            halo: false,
        });
        if let Some(Some(cost)) = m.costs.get(id.index()) {
            // Above the box's right corner, where no edge starts or ends, over a halo.
            items.push(Item::Text {
                x: cx + widths[id.index()] / 2.0 - 0.6,
                y: cy - HEIGHT / 2.0 - FONT * 0.45,
                text: cost.clone(),
                size: FONT,
                anchor: Anchor::Start,
                style: Style::Mark,
                halo: true,
            });
        }
    }
    // The drawing's extent, and 3 mm around it.
    let (left, top, right, bottom) = extent(&items);
    let (dx, dy) = (3.0 - left, 3.0 - top);
    Figure {
        width: right - left + 6.0,
        height: bottom - top + 6.0,
        items: items.into_iter().map(|i| i.shifted(dx, dy)).collect(),
        targets: targets.into_iter().map(|t| t.shifted(dx, dy)).collect(),
    }
}

/// Each AND connector's arc radius, in mm: far enough along its edges that
/// the arc between its outer edges is at least 2.5 mm long (edges that leave
/// nearly together, to children side by side or flat, are apart only further
/// out), though not past 45 % of its shortest edge, and at least 5; a node's
/// AND connectors, from the one wanting the smallest radius, each at least
/// 2.5 further out than the one before.
fn arc_radii(graph: &Graph, x: &[f64], y: &[f64]) -> Vec<f64> {
    let mut radii = vec![0.0; graph.connectors().len()];
    for id in graph.ids() {
        let from = (x[id.index()], y[id.index()] + HEIGHT / 2.0);
        let mut wanted: Vec<(f64, usize)> = Vec::new();
        for &c in graph.connectors_of(id) {
            let to = &graph.connector(c).to;
            if to.len() < 2 {
                continue;
            }
            let (mut lo, mut hi, mut shortest) = (f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY);
            for t in to {
                let (dx, dy) = (x[t.index()] - from.0, y[t.index()] - HEIGHT / 2.0 - from.1);
                let a = dy.atan2(dx);
                (lo, hi) = (lo.min(a), hi.max(a));
                shortest = shortest.min((dx * dx + dy * dy).sqrt());
            }
            let r = (2.5 / (hi - lo).max(1e-3)).min(shortest * 0.45).max(5.0);
            wanted.push((r, c.index()));
        }
        wanted.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut last = f64::NEG_INFINITY;
        for (r, c) in wanted {
            let r = r.max(last + 2.5);
            radii[c] = r;
            last = r;
        }
    }
    radii
}

#[cfg(test)]
mod tests {
    use super::graph_figure;
    use crate::draw::Item;

    /// A node's AND connectors get one arc each, at radii at least 2 mm
    /// apart, so that each arc shows which children belong together.
    #[test]
    fn a_nodes_and_connectors_get_arcs_apart() {
        let mut nodes_seen = 0;
        for seed in 0..300 {
            let g = crate::andor::generate::generate(&Default::default(), seed).unwrap();
            let figure = graph_figure(&g, None);
            let arcs: Vec<(f64, f64, f64)> = figure
                .items
                .iter()
                .filter_map(|i| match i {
                    Item::Arc { cx, cy, r, .. } => Some((*cx, *cy, *r)),
                    _ => None,
                })
                .collect();
            for id in g.ids() {
                let ands = g
                    .connectors_of(id)
                    .iter()
                    .filter(|&&c| g.connector(c).to.len() >= 2)
                    .count();
                if ands < 2 {
                    continue;
                }
                nodes_seen += 1;
                // The arcs centred where this node's connector edges start.
                let mut radii: Vec<f64> = arcs
                    .iter()
                    .filter(|a| {
                        figure.targets.iter().any(|t| {
                            t.line
                                && (t.x - a.0).abs() < 1e-9
                                && (t.y - a.1).abs() < 1e-9
                                && t.label.starts_with(&format!("{} ->", g.label(id)))
                        })
                    })
                    .map(|a| a.2)
                    .collect();
                radii.sort_by(f64::total_cmp);
                assert_eq!(radii.len(), ands, "seed {seed}: {}'s arcs", g.label(id));
                for w in radii.windows(2) {
                    assert!(
                        w[1] - w[0] >= 2.0,
                        "seed {seed}: {}'s arcs {radii:?}",
                        g.label(id)
                    );
                }
            }
        }
        assert!(nodes_seen > 0, "no generated node has two AND connectors");
    }
}
