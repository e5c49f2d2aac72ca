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
    /// Connectors of a second answer (the max-cost solution graph): blue,
    /// dashed, over the first.
    pub second: Vec<ConnectorId>,
    /// Nodes labelled SOLVED (or solvable): thick, green outline.
    pub solved: Vec<bool>,
}

/// Rows are `LEVEL` mm apart, further (up to `LEVEL_MAX`) where an edge
/// runs far sideways, so that no edge into a row is flatter than `SLOPE`
/// (rise over run) and the arcs across a connector's edges have room.
const LEVEL: f64 = 20.0;
const LEVEL_MAX: f64 = 36.0;
const SLOPE: f64 = 0.8;
/// Room between two nodes of a row, less (down to `MIN_GAP`) in a row that
/// would be wider than `ROW`: so that the figure prints at its size.
const GAP: f64 = 5.0;
const MIN_GAP: f64 = 2.5;
const ROW: f64 = 160.0;
const FONT: f64 = 2.8;
/// Arc costs and `c=` labels, in mm (7.4 pt).
const SMALL: f64 = 2.6;
const HEIGHT: f64 = 6.5;
/// The length an AND arc wants between its outer edges, in mm.
const SPAN: f64 = 4.0;

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
    let x = columns(graph, &rows, &widths, gap, widest, margin);
    let levels_y = row_heights(graph, &rows, &x, margin);
    let mut y = vec![0.0f64; n];
    for (level, row) in rows.iter().enumerate() {
        for &id in row {
            y[id.index()] = levels_y[level];
        }
    }

    let radii = arc_radii(graph, &x, &y);
    let no_marks = GraphMarks::default();
    let m = marks.unwrap_or(&no_marks);
    let mut items = Vec::new();
    let mut targets = Vec::new();
    // Marks and angles by index, so that every connector costs its own
    // edges, not a scan of the solution or of its parent's other connectors.
    let marked = |cs: &[ConnectorId]| {
        let mut on = vec![false; graph.connectors().len()];
        for c in cs {
            if let Some(b) = on.get_mut(c.index()) {
                *b = true;
            }
        }
        on
    };
    let (in_solution, in_second) = (marked(&m.solution), marked(&m.second));
    let edge_end = |t: NodeId| (x[t.index()], y[t.index()] - HEIGHT / 2.0);
    let start_of = |n: NodeId| (x[n.index()], y[n.index()] + HEIGHT / 2.0);
    let angle =
        |from: (f64, f64), &(ex, ey): &(f64, f64)| (ey - from.1).atan2(ex - from.0).to_degrees();
    // Each parent's edges by angle, as `joining_arc` reckons it, made when
    // its first AND connector is drawn: an arc's room is set by the nearest
    // edge on each side.
    // (angle, end) of each edge.
    type Fan = Vec<(f64, (f64, f64))>;
    let mut fans: Vec<Option<Fan>> = vec![None; graph.len()];
    for (i, con) in graph.connectors().iter().enumerate() {
        let c = ConnectorId(i as u32);
        let style = if in_solution[c.index()] {
            Style::Answer
        } else {
            Style::Normal
        };
        let second = in_second[c.index()];
        let (px, py) = start_of(con.from);
        let name: std::sync::Arc<str> = graph.connector_name(c).into();
        let arc_labels = con.arcs.as_ref().filter(|a| a.iter().any(|&v| v != 1));
        let mut ends = Vec::new();
        for (j, t) in con.to.iter().enumerate() {
            let (cx, cy) = edge_end(*t);
            for style in std::iter::once(style).chain(second.then_some(Style::Second)) {
                items.push(Item::Line {
                    x1: px,
                    y1: py,
                    x2: cx,
                    y2: cy,
                    style,
                });
            }
            ends.push((cx, cy));
            // Any of a connector's edges picks it.
            targets.push(Target::line(
                name.clone(),
                Pick::Connector,
                (px, py),
                (cx, cy),
            ));
            if let Some(arcs) = arc_labels {
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
        if ends.len() < 2 {
            continue;
        }
        // A node's AND connectors get arcs at different radii, so that each
        // arc shows which children belong together.
        let r = radii[c.index()];
        // The nearest of the node's other edges on each side: the edges
        // between the connector's outer ones (its own, and any other to
        // the same children) take no room from the arc.
        let from = (px, py);
        let (lo, hi) = ends
            .iter()
            .map(|e| angle(from, e))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), a| {
                (lo.min(a), hi.max(a))
            });
        let fan = fans[con.from.index()].get_or_insert_with(|| {
            let mut fan: Vec<(f64, (f64, f64))> = graph
                .connectors_of(con.from)
                .iter()
                .flat_map(|&o| graph.connector(o).to.iter())
                .map(|&t| (angle(from, &edge_end(t)), edge_end(t)))
                .collect();
            fan.sort_by(|a, b| a.0.total_cmp(&b.0));
            fan
        });
        let below = fan.partition_point(|e| e.0 < lo);
        let above = fan.partition_point(|e| e.0 <= hi);
        let others: Vec<(f64, f64)> = below
            .checked_sub(1)
            .map(|i| fan[i].1)
            .into_iter()
            .chain(fan.get(above).map(|e| e.1))
            .collect();
        items.extend(joining_arc((px, py), &ends, &others, r, style));
        if second {
            items.extend(joining_arc((px, py), &ends, &others, r, Style::Second));
        }
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

/// Each node's x, in mm. Rows keep their order (the file's, breadth first);
/// within it each node moves towards the mean of its parents' x (going
/// down) or its children's (going up), as near as the row's spacing lets it
/// (an isotonic regression, pool-adjacent-violators), so that children sit
/// under their parents and a connector's edges fan out rather than run
/// flat. A layout wider than the packed rows' widest falls back to them.
fn columns(
    graph: &Graph,
    rows: &[Vec<NodeId>],
    widths: &[f64],
    gap: f64,
    widest: f64,
    margin: f64,
) -> Vec<f64> {
    let mut x = vec![0.0f64; graph.len()];
    let spacing = |row: &[NodeId], i: usize| {
        (widths[row[i].index()] + widths[row[i + 1].index()]) / 2.0 + gap
    };
    // Packed: each row centred on the widest, `gap` apart.
    for row in rows {
        let width: f64 = (0..row.len().saturating_sub(1))
            .map(|i| spacing(row, i))
            .sum();
        let mut at = margin + widest / 2.0 - width / 2.0;
        for (i, &id) in row.iter().enumerate() {
            x[id.index()] = at;
            if i + 1 < row.len() {
                at += spacing(row, i);
            }
        }
    }
    let packed = x.clone();
    let parents = |id: NodeId| {
        graph
            .parents_of(id)
            .iter()
            .map(|&c| graph.connector(c).from)
    };
    let children = |id: NodeId| {
        graph
            .connectors_of(id)
            .iter()
            .flat_map(|&c| graph.connector(c).to.iter().copied())
    };
    let mean = |x: &[f64], it: &mut dyn Iterator<Item = NodeId>| {
        let (sum, count) = it.fold((0.0, 0), |(s, c), id| (s + x[id.index()], c + 1));
        (count > 0).then(|| sum / f64::from(count))
    };
    // Parents over their children first (the lowest rows are the widest),
    // then sweeps down and up that move each node towards all its
    // neighbours, parents and children alike.
    let last = rows.len().saturating_sub(1);
    let up = (0..last).rev();
    let sweeps = up.clone().map(|l| (l, false));
    let both = (1..=last).chain(up.clone()).chain(1..=last).chain(up);
    for (level, both) in sweeps.chain(both.map(|l| (l, true))) {
        let row = &rows[level];
        let wanted: Vec<f64> = row
            .iter()
            .map(|&id| {
                let towards = if both {
                    mean(&x, &mut parents(id).chain(children(id)))
                } else {
                    mean(&x, &mut children(id))
                };
                towards.unwrap_or(x[id.index()])
            })
            .collect();
        let gaps: Vec<f64> = (0..row.len().saturating_sub(1))
            .map(|i| spacing(row, i))
            .collect();
        for (&id, at) in row.iter().zip(place(&wanted, &gaps)) {
            x[id.index()] = at;
        }
    }
    let half = |i: usize| widths[i] / 2.0;
    let left = (0..x.len())
        .map(|i| x[i] - half(i))
        .fold(f64::INFINITY, f64::min);
    let right = (0..x.len())
        .map(|i| x[i] + half(i))
        .fold(f64::NEG_INFINITY, f64::max);
    if right - left > widest.max(ROW) {
        return packed;
    }
    x.iter().map(|v| v - left + margin).collect()
}

/// The positions nearest `wanted` (least squares) that keep each one at
/// least `gaps[i]` after the one before.
fn place(wanted: &[f64], gaps: &[f64]) -> Vec<f64> {
    // With offsets o_i = Σ gaps[..i], y_i = x_i − o_i must not decrease: pool
    // adjacent blocks whose means are out of order.
    let mut offset = 0.0;
    let mut blocks: Vec<(f64, usize)> = Vec::new(); // (mean of y, count)
    for (i, &w) in wanted.iter().enumerate() {
        if i > 0 {
            offset += gaps[i - 1];
        }
        let mut block = (w - offset, 1usize);
        while let Some(&(m, c)) = blocks.last() {
            if m <= block.0 {
                break;
            }
            blocks.pop();
            let total = c + block.1;
            block = (
                (m * c as f64 + block.0 * block.1 as f64) / total as f64,
                total,
            );
        }
        blocks.push(block);
    }
    let mut out = Vec::with_capacity(wanted.len());
    let mut offset = 0.0;
    for (m, c) in blocks {
        for _ in 0..c {
            if !out.is_empty() {
                offset += gaps[out.len() - 1];
            }
            out.push(m + offset);
        }
    }
    out
}

/// Each row's y, in mm: `LEVEL` apart, more where an edge into the row would
/// be flatter than `SLOPE`, at most `LEVEL_MAX`.
fn row_heights(graph: &Graph, rows: &[Vec<NodeId>], x: &[f64], margin: f64) -> Vec<f64> {
    let mut run = vec![0.0f64; rows.len()];
    for con in graph.connectors() {
        for t in &con.to {
            let level = graph.level(*t) as usize;
            if graph.level(con.from) as usize + 1 == level {
                run[level] = run[level].max((x[t.index()] - x[con.from.index()]).abs());
            }
        }
    }
    let mut y = margin;
    run.iter()
        .enumerate()
        .map(|(level, &r)| {
            if level > 0 {
                y += (r * SLOPE).clamp(LEVEL, LEVEL_MAX);
            }
            y
        })
        .collect()
}

/// Each AND connector's arc radius, in mm: far enough along its edges that
/// the arc between its outer edges is at least `SPAN` mm long (edges that leave
/// nearly together, to children side by side or flat, are apart only further
/// out), though not past half its shortest edge, and at least 5; a node's
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
            let r = (SPAN / (hi - lo).max(1e-3)).min(shortest * 0.5).max(5.0);
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

    /// AND arcs span their outer edges far enough apart to show which edges
    /// they join (at least 1.5 mm, 2.5 mm in 99 % of arcs), for the shipped sets' graph
    /// sizes up to the widest (3 levels, up to 3 alternatives of up to 3
    /// children, 10..26 nodes). Prints the shortest span, the arcs under 4 mm
    /// and the widest figure (`--nocapture`).
    #[test]
    fn and_arcs_span_their_edges_in_wide_graphs() {
        use crate::andor::generate::{Params, generate};
        let wide = Params {
            alternatives: (1, 3),
            arity: (1, 3),
            nodes: Some((10, 26)),
            shared_percent: 15,
            ..Params::default()
        };
        let (mut shortest, mut arcs, mut under, mut widest) = (f64::INFINITY, 0, 0, 0f64);
        let small = Params {
            nodes: Some((10, 22)),
            ..Params::default()
        };
        for params in [small, wide] {
            for seed in 0..400 {
                let Ok(g) = generate(&params, seed) else {
                    continue;
                };
                let figure = graph_figure(&g, None);
                widest = widest.max(figure.width);
                for item in &figure.items {
                    let &Item::Arc {
                        cx, cy, r, a1, a2, ..
                    } = item
                    else {
                        continue;
                    };
                    // The arc between its outer edges: the edges from its
                    // centre whose direction it crosses (its tails stop
                    // short of any other edge).
                    let (lo, hi) = figure
                        .items
                        .iter()
                        .filter_map(|i| match *i {
                            Item::Line { x1, y1, x2, y2, .. }
                                if (x1 - cx).abs() < 1e-9 && (y1 - cy).abs() < 1e-9 =>
                            {
                                Some((y2 - y1).atan2(x2 - x1).to_degrees())
                            }
                            _ => None,
                        })
                        .filter(|a| (a1 - 1e-6..=a2 + 1e-6).contains(a))
                        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), a| {
                            (lo.min(a), hi.max(a))
                        });
                    let span = r * (hi - lo).to_radians();
                    arcs += 1;
                    under += usize::from(span < 2.5);
                    shortest = shortest.min(span);
                }
            }
        }
        println!(
            "{arcs} AND arcs: shortest {shortest:.2} mm, {under} under 2.5 mm; widest figure {widest:.1} mm"
        );
        assert!(arcs > 1000);
        // Before the layout put children under their parents: 1,060 of
        // 4,475 under 2.5 mm, the shortest 0.68 mm.
        assert!(shortest >= 1.5, "the shortest arc spans {shortest:.2} mm");
        assert!(
            under * 100 <= arcs,
            "{under} of {arcs} arcs span under 2.5 mm"
        );
    }
}
