//! Game-tree layout: leaves in slots, every parent centred over its children.

use super::{Anchor, Figure, Item, Outline, Pick, Style, Target, extent, text_width};
use crate::gametree::{NodeId, Player, Tree};

/// What a key adds to a game-tree drawing.
#[derive(Clone, Debug, Default)]
pub struct TreeMarks {
    /// Text written beside each node (a backed-up value or a bound such as `≤2`).
    pub values: Vec<Option<String>>,
    /// Nodes never examined: drawn grey and dashed.
    pub unexamined: Vec<bool>,
    /// Roots of pruned branches, with the cut's sign (`α` or `β`): their edge is crossed out.
    pub cut_roots: Vec<(NodeId, String)>,
    /// Nodes whose bound caused a cut: drawn thick and blue.
    pub causes: Vec<NodeId>,
    /// Edges into these nodes are drawn as the answer (thick, green).
    pub answer_path: Vec<NodeId>,
    /// Show each node's last move (`a1`) rather than its whole label (`b2-a1`):
    /// the path is the one drawn.
    pub last_move_only: bool,
}

/// The room a figure gets on an A4 page with margins, heading and legend, in mm.
const PAGE: (f64, f64) = (170.0, 190.0);
/// Node names, in mm (7.4 pt): text sizes are fixed, so a wide tree gets
/// smaller nodes and closer leaves, never smaller text.
const NAME: f64 = 2.6;
/// Values: leaves' values, a key's backed-up values and cut signs, in mm.
const VALUE: f64 = 2.7;
/// The least room between two leaves' texts, in mm.
const GAP: f64 = 0.8;
/// Levels apart, top down, in mm.
const DOWN: f64 = 15.0;
/// A leaf drawn as a mark (dense and sideways trees), in mm.
const MARK: f64 = 2.2;

/// How the leaves are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    /// Root on top, each leaf's name in its node and its value under it.
    Roomy,
    /// Root on top, leaves as small marks with the name, then the value, under them.
    Dense,
    /// Root on the left, leaves as small marks with "name  value" beside them.
    Sideways,
}

/// Lays out and draws a game tree; `marks` adds the key's annotations.
pub fn tree_figure(tree: &Tree, marks: Option<&TreeMarks>) -> Figure {
    let no_marks = TreeMarks::default();
    let m = marks.unwrap_or(&no_marks);
    let shown = |id: NodeId| {
        let label = tree.label(id);
        if m.last_move_only {
            label.rsplit('-').next().unwrap_or_default().to_string()
        } else {
            label.into_owned()
        }
    };
    let is_leaf = |id: NodeId| tree.leaf(id).is_some() && id != tree.root();
    let leaves: Vec<NodeId> = tree.ids().filter(|&id| is_leaf(id)).collect();
    let count = leaves.len().max(1);
    let levels = tree.height() + 1;
    let widest = |ids: &[NodeId], f: &dyn Fn(NodeId) -> String, size| {
        ids.iter()
            .map(|&id| text_width(&f(id), size))
            .fold(0.0, f64::max)
    };
    let all: Vec<NodeId> = tree.ids().collect();
    let name_width = widest(&all, &shown, NAME);
    let leaf_name = widest(&leaves, &shown, NAME);
    let value_of = |id: NodeId| tree.leaf(id).map(|v| v.to_string()).unwrap_or_default();
    let leaf_value = widest(&leaves, &value_of, VALUE);
    // A node holds its name: a square as wide as the name, a circle round it.
    let fits = (name_width + 1.2).max((name_width.powi(2) + (NAME * 0.75).powi(2)).sqrt() + 0.6);
    let roomy_slot = fits.max(leaf_value) + 1.2;
    // Dense values that would touch go a line lower, so names set the pitch.
    let dense_slot = leaf_name.max(leaf_value * 0.55).max(MARK) + GAP;
    let layout = if count as f64 * roomy_slot <= PAGE.0 {
        Layout::Roomy
    } else if count as f64 * dense_slot <= PAGE.0 {
        Layout::Dense
    } else {
        Layout::Sideways
    };
    let sideways = layout == Layout::Sideways;
    // Along the leaves: at most 10 mm a slot, less when many leaves share the page.
    let slot = match layout {
        Layout::Roomy => (PAGE.0 / count as f64).min(10.0).max(roomy_slot),
        Layout::Dense => (PAGE.0 / count as f64).min(10.0).max(dense_slot),
        Layout::Sideways => (PAGE.1 / count as f64).clamp(VALUE * 1.25, 6.5),
    };
    let size = (slot * 0.75).clamp(fits, 6.5f64.max(fits));
    // Sideways, leaf labels and values are written beside the leaves: leave room for them.
    let down = if sideways {
        (PAGE.0 - 25.0) / levels as f64
    } else {
        DOWN
    };

    // Leaf slots in depth-first order; a parent sits midway between its outer children.
    let mut along = vec![0.0f64; tree.len()];
    let mut next_slot = 0usize;
    place(tree, tree.root(), slot, &mut next_slot, &mut along);
    let point = |id: NodeId| {
        let a = along[id.index()];
        let d = down * tree.depth_of(id) as f64;
        if sideways { (d, a) } else { (a, d) }
    };

    let unexamined = |id: NodeId| m.unexamined.get(id.index()).copied().unwrap_or(false);
    let node_size = |id: NodeId| match (layout, is_leaf(id)) {
        (Layout::Roomy, _) | (_, false) => size,
        _ => MARK,
    };
    let text_style = |id: NodeId| {
        if unexamined(id) {
            Style::Pruned
        } else {
            Style::Normal
        }
    };
    let mut items = Vec::new();
    let mut targets = Vec::new();
    let mut cut_edges = Vec::new();
    for id in tree.ids().skip(1) {
        let parent = tree.parent(id).expect("not the root");
        let ((x1, y1), (x2, y2)) = (point(parent), point(id));
        let (dx, dy) = (x2 - x1, y2 - y1);
        let len = (dx * dx + dy * dy).sqrt();
        let (ux, uy) = (dx / len, dy / len);
        let (r1, r2) = (node_size(parent) / 2.0, node_size(id) / 2.0);
        let style = if unexamined(id) {
            Style::Pruned
        } else if m.answer_path.contains(&id) {
            Style::Answer
        } else {
            Style::Normal
        };
        let (a, b) = ((x1 + ux * r1, y1 + uy * r1), (x2 - ux * r2, y2 - uy * r2));
        items.push(Item::Line {
            x1: a.0,
            y1: a.1,
            x2: b.0,
            y2: b.1,
            style,
        });
        // Picking an edge picks the branch below it (the root of a cut).
        targets.push(Target::line(tree.label(id).into_owned(), Pick::Node, a, b));
        if let Some(at) = m.cut_roots.iter().position(|(root, _)| *root == id) {
            cut_edges.push((at, parent, a, b));
        }
    }
    cut_marks(&cut_edges, m, sideways, &mut items);
    for id in tree.ids() {
        let (x, y) = point(id);
        let side = node_size(id).max(4.0);
        targets.push(Target::area(
            tree.label(id).into_owned(),
            Pick::Node,
            (x, y),
            (side, side),
        ));
        let outline = if tree.player(id) == Player::Max {
            Outline::Square
        } else {
            Outline::Circle
        };
        let style = if unexamined(id) {
            Style::Pruned
        } else if m.causes.contains(&id) {
            Style::Cause
        } else {
            Style::Normal
        };
        let size = node_size(id);
        items.push(Item::Node {
            x,
            y,
            w: size,
            h: size,
            outline,
            style,
        });
        if is_leaf(id) && layout != Layout::Roomy {
            if sideways {
                // "name  value" beside the mark.
                let label = format!("{}  {}", shown(id), value_of(id));
                let at = (x + size, y);
                items.push(text(at, label, VALUE, Anchor::Start, text_style(id)));
            } else {
                // The name under the mark; the value below it comes later.
                let at = (x, y + size / 2.0 + 0.3 + NAME * 0.6);
                items.push(text(at, shown(id), NAME, Anchor::Middle, text_style(id)));
            }
            continue;
        }
        items.push(text(
            (x, y),
            shown(id),
            NAME,
            Anchor::Middle,
            text_style(id),
        ));
        if is_leaf(id) {
            let at = (x, y + size / 2.0 + VALUE * 0.7);
            items.push(text(
                at,
                value_of(id),
                VALUE,
                Anchor::Middle,
                text_style(id),
            ));
        } else if let Some(Some(value)) = m.values.get(id.index()) {
            // Above the node, on the side away from the edge from its parent
            // (its children's edges leave below it): no edge crosses it.
            let parent_after = tree.parent(id).is_some_and(|p| {
                if sideways {
                    point(p).1 > y + 0.01
                } else {
                    point(p).0 > x + 0.01
                }
            });
            let (vx, vy, anchor) = if sideways {
                // Left of the node (the parent's side), above or below away from its edge.
                let vy = if parent_after {
                    y - size / 2.0 - VALUE * 0.3
                } else {
                    y + size / 2.0 + VALUE * 0.3
                };
                (x - size / 2.0 - 0.3, vy, Anchor::End)
            } else if parent_after {
                (
                    x - size / 2.0 - 0.2,
                    y - size / 2.0 - VALUE * 0.2,
                    Anchor::End,
                )
            } else {
                (
                    x + size / 2.0 + 0.2,
                    y - size / 2.0 - VALUE * 0.2,
                    Anchor::Start,
                )
            };
            items.push(Item::Text {
                x: vx,
                y: vy,
                text: value.clone(),
                size: VALUE,
                anchor,
                style: Style::Mark,
                halo: true,
            });
        }
    }
    if layout == Layout::Dense {
        // Leaves' values under their names, left to right: one that would
        // touch the one before it on its line goes a line lower.
        let mut in_order = leaves.clone();
        in_order.sort_by(|a, b| along[a.index()].total_cmp(&along[b.index()]));
        let mut line_ends = [f64::NEG_INFINITY; 2];
        for id in in_order {
            let (x, y) = point(id);
            let w = text_width(&value_of(id), VALUE);
            let line = if x - w / 2.0 >= line_ends[0] + GAP * 0.75 {
                0
            } else {
                1
            };
            line_ends[line] = x + w / 2.0;
            let vy = y + MARK / 2.0 + 0.3 + NAME * 1.25 + VALUE * (0.5 + 1.05 * line as f64);
            items.push(text(
                (x, vy),
                value_of(id),
                VALUE,
                Anchor::Middle,
                text_style(id),
            ));
        }
    }
    // The drawing's extent, and 2 mm around it.
    let (left, top, right, bottom) = extent(&items);
    let (dx, dy) = (2.0 - left, 2.0 - top);
    Figure {
        width: right - left + 4.0,
        height: bottom - top + 4.0,
        items: items.into_iter().map(|i| i.shifted(dx, dy)).collect(),
        targets: targets.into_iter().map(|t| t.shifted(dx, dy)).collect(),
    }
}

fn text(at: (f64, f64), text: String, size: f64, anchor: Anchor, style: Style) -> Item {
    Item::Text {
        x: at.0,
        y: at.1,
        text,
        size,
        anchor,
        style,
        halo: false,
    }
}

/// A pruned branch's edge: its index in `cut_roots`, its parent, its ends.
type CutEdge = (usize, NodeId, (f64, f64), (f64, f64));

/// The cuts' marks. Each cut's pruned siblings are one run of edges, crossed
/// by one red "//" near their parent, with the cut's sign once, past the run's
/// last edge (the later siblings' side, where no edge of that parent is).
/// `edges`: (index in `cut_roots`, parent, the edge's ends), in sibling order.
fn cut_marks(edges: &[CutEdge], m: &TreeMarks, sideways: bool, items: &mut Vec<Item>) {
    let mut run = 0;
    while run < edges.len() {
        let (first_at, parent) = (edges[run].0, edges[run].1);
        let end = run
            + edges[run..]
                .iter()
                .enumerate()
                .take_while(|(k, e)| e.1 == parent && e.0 == first_at + k)
                .count();
        // Each edge crossed at 45 % of its length from the parent.
        let mid: Vec<((f64, f64), (f64, f64))> = edges[run..end]
            .iter()
            .map(|&(_, _, a, b)| {
                let (dx, dy) = (b.0 - a.0, b.1 - a.1);
                let len = (dx * dx + dy * dy).sqrt().max(1e-9);
                ((a.0 + dx * 0.45, a.1 + dy * 0.45), (dx / len, dy / len))
            })
            .collect();
        let (first, last) = (mid[0], mid[mid.len() - 1]);
        // Across the run, from its first edge to its last; for one edge, across
        // it towards the later siblings.
        let (dx, dy) = if mid.len() > 1 {
            (last.0.0 - first.0.0, last.0.1 - first.0.1)
        } else {
            let u = first.1;
            let later = if sideways { (0.0, 1.0) } else { (1.0, 0.0) };
            let dot = later.0 * u.0 + later.1 * u.1;
            (later.0 - dot * u.0, later.1 - dot * u.1)
        };
        let len = (dx * dx + dy * dy).sqrt().max(1e-9);
        let across = (dx / len, dy / len);
        let reach = 1.3;
        for shift in [-0.6, 0.6] {
            let (s0, s1) = (shift - 0.8, shift + 0.8);
            items.push(Item::Line {
                x1: first.0.0 - across.0 * reach + first.1.0 * s0,
                y1: first.0.1 - across.1 * reach + first.1.1 * s0,
                x2: last.0.0 + across.0 * reach + last.1.0 * s1,
                y2: last.0.1 + across.1 * reach + last.1.1 * s1,
                style: Style::Mark,
            });
        }
        items.push(Item::Text {
            x: last.0.0 + across.0 * (reach + 0.7) + last.1.0 * 1.4,
            y: last.0.1 + across.1 * (reach + 0.7) + last.1.1 * 1.4,
            text: m.cut_roots[first_at].1.clone(),
            size: VALUE,
            anchor: if across.0 < -0.3 {
                Anchor::End
            } else {
                Anchor::Start
            },
            style: Style::Mark,
            halo: true,
        });
        run = end;
    }
}

fn place(tree: &Tree, id: NodeId, slot: f64, next: &mut usize, along: &mut [f64]) {
    if tree.leaf(id).is_some() {
        along[id.index()] = *next as f64 * slot;
        *next += 1;
        return;
    }
    let children: Vec<NodeId> = tree.children(id).collect();
    for &c in &children {
        place(tree, c, slot, next, along);
    }
    along[id.index()] =
        (along[children[0].index()] + along[children[children.len() - 1].index()]) / 2.0;
}
