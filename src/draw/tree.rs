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
    /// The values are given with the exercise (a sheet's estimates), not
    /// the key's: drawn black.
    pub given: bool,
    /// Each node's outline where it is not the player's (a chance node's diamond).
    pub outlines: Vec<Option<Outline>>,
    /// A text on the edge into each node (a chance edge's probability).
    pub edge_labels: Vec<Option<String>>,
    /// Spread the tree, where the page has the room, so that neighbours'
    /// values never touch (a key's fractions, wider than whole numbers).
    pub room_for_values: bool,
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
/// Texts on edges (a chance edge's probability), in mm.
const EDGE_LABEL: f64 = 2.3;

/// A picture drawn inside each node (a game's position, as the textbooks
/// draw their search trees): square, in a frame that says whose move it is
/// (a square for MAX, a rounded box for MIN), the node's name under the frame.
pub struct Pictures<'a> {
    /// The least and the largest side a picture may have, in mm: the layout
    /// takes the largest that lets the tree fit the page.
    pub sides: (f64, f64),
    /// Node `id`'s picture, `side` mm square and centred on (0, 0), drawn in
    /// `style` (`Normal`, or `Pruned` for a node never examined).
    pub draw: &'a dyn Fn(NodeId, f64, Style) -> Vec<Item>,
}

/// Between a picture and its frame, in mm.
const PAD: f64 = 0.6;
/// The least room between two pictured nodes' frames (or texts), in mm.
const PICTURE_GAP: f64 = 2.0;
/// Under pictured nodes, the edges' height, in mm: room for a cut's mark
/// and the value a key writes over a child, and no more (a key's tree stays
/// on the page with its answers).
const EDGES: f64 = 8.0;
/// Tried picture sides go down from the largest in steps of this, in mm.
const SIDE_STEP: f64 = 0.25;

/// How the leaves are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    /// Root on top, each leaf's name in its node and its value under it.
    Roomy,
    /// Root on top, leaves as small marks with the name, then the value, under them.
    Dense,
    /// Root on the left, leaves as small marks with "name  value" beside them.
    Sideways,
    /// Root on top, every node a picture with its name under it, a leaf's value under that.
    Pictured,
}

/// Lays out and draws a game tree; `marks` adds the key's annotations.
pub fn tree_figure(tree: &Tree, marks: Option<&TreeMarks>) -> Figure {
    pictured_tree_figure(tree, marks, None)
}

/// Lays out and draws a game tree with `pictures` in its nodes when they fit
/// the page's width; `marks` adds the key's annotations.
///
/// The rule, by measuring the laid-out width against the page's 170 mm: the
/// first of these that fits is drawn.
/// 1. Every node a picture, at the largest side that fits (down to the least).
/// 2. The inner nodes pictures (at the largest side that fits), the leaves as
///    without pictures: roomy (the name in the node), else dense (small marks).
/// 3. No pictures: roomy, else dense, else sideways (always fits).
///
/// A pictured inner node is as wide as its frame, the key's values on both
/// sides and a gap; its subtree is spread to make that room, so pictures
/// never overlap.
pub fn pictured_tree_figure(
    tree: &Tree,
    marks: Option<&TreeMarks>,
    pictures: Option<&Pictures<'_>>,
) -> Figure {
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
    // Along the leaves: at most 10 mm a slot, less when many leaves share the page.
    let spread = |least: f64| (PAGE.0 / count as f64).min(10.0).max(least);

    // Pictures first (rule 1, then 2), measured by laying the leaves out.
    let key_values = m
        .values
        .iter()
        .flatten()
        .map(|v| text_width(v, VALUE) + 0.3)
        .fold(0.0, f64::max);
    let mut along = vec![0.0f64; tree.len()];
    let mut chosen = None;
    if let Some(p) = pictures {
        let sides = std::iter::successors(Some(p.sides.1), |s| Some(s - SIDE_STEP))
            .take_while(|&s| s >= p.sides.0 - 1e-9);
        'layouts: for layout in [Layout::Pictured, Layout::Roomy, Layout::Dense] {
            for side in sides.clone() {
                let frame = side + 2.0 * PAD;
                let inner = frame + 2.0 * key_values + PICTURE_GAP;
                let slots = match layout {
                    Layout::Pictured => {
                        vec![frame.max(leaf_name).max(leaf_value) + PICTURE_GAP]
                    }
                    Layout::Roomy => vec![spread(roomy_slot), roomy_slot],
                    _ => vec![spread(dense_slot), dense_slot],
                };
                for slot in slots {
                    let width = |id: NodeId| if is_leaf(id) { 0.0 } else { inner };
                    let used = place_all(tree, slot, &width, &mut along);
                    if used <= PAGE.0 {
                        chosen = Some((layout, Some(side), slot));
                        break 'layouts;
                    }
                }
            }
        }
    }
    let (layout, picture, slot) = chosen.unwrap_or_else(|| {
        let layout = if count as f64 * roomy_slot <= PAGE.0 {
            Layout::Roomy
        } else if count as f64 * dense_slot <= PAGE.0 {
            Layout::Dense
        } else {
            Layout::Sideways
        };
        let slot = match layout {
            Layout::Roomy => spread(roomy_slot),
            Layout::Sideways => (PAGE.1 / count as f64).clamp(VALUE * 1.25, 6.5),
            _ => spread(dense_slot),
        };
        // Leaf slots in depth-first order; a parent sits midway between its outer children.
        // Values given on the sheet (estimates) are spread apart so that
        // neighbours' never touch, where the page has the room.
        let spread = m.given || m.room_for_values;
        let given = |id: NodeId| match m.values.get(id.index()) {
            Some(Some(v)) if spread && !is_leaf(id) => fits + 2.0 * text_width(v, VALUE) + 1.2,
            _ => 0.0,
        };
        if !spread || place_all(tree, slot, &given, &mut along) > PAGE.0 {
            place_all(tree, slot, &|_| 0.0, &mut along);
        }
        (layout, None, slot)
    });
    let sideways = layout == Layout::Sideways;
    let size = (slot * 0.75).clamp(fits, 6.5f64.max(fits));
    // A pictured node: its frame's side, and how far below its centre the
    // name ends (where its edges to its children start).
    let frame = picture.map_or(0.0, |side| side + 2.0 * PAD);
    let name_at = frame / 2.0 + 0.5 + NAME * 0.5;
    let below = name_at + NAME * 0.6 + 0.4;
    let pictured = |id: NodeId| picture.is_some() && (layout == Layout::Pictured || !is_leaf(id));
    // Sideways, leaf labels and values are written beside the leaves: leave room
    // for them. Pictured, a level holds the frame, the name and `EDGES` mm of edges.
    let down = if sideways {
        (PAGE.0 - 25.0) / levels as f64
    } else if picture.is_some() {
        below + frame / 2.0 + EDGES
    } else {
        DOWN
    };

    let point = |id: NodeId| {
        let a = along[id.index()];
        let d = down * tree.depth_of(id) as f64;
        if sideways { (d, a) } else { (a, d) }
    };

    let unexamined = |id: NodeId| m.unexamined.get(id.index()).copied().unwrap_or(false);
    let outline_of = |id: NodeId| m.outlines.get(id.index()).copied().flatten();
    // A diamond holds its name in its middle: larger.
    let scale = |id: NodeId| {
        if outline_of(id) == Some(Outline::Diamond) {
            1.3
        } else {
            1.0
        }
    };
    let node_size = |id: NodeId| match (layout, is_leaf(id)) {
        _ if pictured(id) => frame,
        (Layout::Roomy, _) | (_, false) => size * scale(id),
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
    // Per level, where the last value written ends and whether it was raised.
    let mut value_ends: std::collections::BTreeMap<usize, (f64, bool)> = Default::default();
    for id in tree.ids().skip(1) {
        let parent = tree.parent(id).expect("not the root");
        // A pictured node's edges leave from under its name and come into
        // the middle of its frame's top; other nodes' are cut at their outline.
        let ((x1, y1), (x2, y2)) = (point(parent), point(id));
        let (x1, y1, r1) = if pictured(parent) {
            (x1, y1 + below, 0.0)
        } else {
            (x1, y1, node_size(parent) / 2.0)
        };
        let (x2, y2, r2) = if pictured(id) {
            (x2, y2 - frame / 2.0, 0.0)
        } else {
            (x2, y2, node_size(id) / 2.0)
        };
        let (dx, dy) = (x2 - x1, y2 - y1);
        let len = (dx * dx + dy * dy).sqrt();
        let (ux, uy) = (dx / len, dy / len);
        let style = if unexamined(id) {
            Style::Pruned
        } else if m.answer_path.contains(&id) {
            Style::Answer
        } else {
            Style::Normal
        };
        // A diamond's outline (|x| + |y| = r) is nearer than r off its corners.
        let reach = |id: NodeId, r: f64| {
            if outline_of(id) == Some(Outline::Diamond) && !pictured(id) {
                r / (ux.abs() + uy.abs())
            } else {
                r
            }
        };
        let (r1, r2) = (reach(parent, r1), reach(id, r2));
        let (a, b) = ((x1 + ux * r1, y1 + uy * r1), (x2 - ux * r2, y2 - uy * r2));
        items.push(Item::Line {
            x1: a.0,
            y1: a.1,
            x2: b.0,
            y2: b.1,
            style,
        });
        if let Some(Some(label)) = m.edge_labels.get(id.index()) {
            // Past the middle, where a fan's edges are furthest apart, on
            // the outer side of the edge (above it when sideways).
            let (mx, my) = (a.0 + (b.0 - a.0) * 0.55, a.1 + (b.1 - a.1) * 0.55);
            let (at, anchor) = if sideways {
                ((mx, my - EDGE_LABEL * 0.7), Anchor::Middle)
            } else if b.0 < a.0 - 0.01 {
                ((mx - 0.5, my), Anchor::End)
            } else {
                ((mx + 0.5, my), Anchor::Start)
            };
            items.push(Item::Text {
                x: at.0,
                y: at.1,
                text: label.clone(),
                size: EDGE_LABEL,
                anchor,
                style: text_style(id),
                halo: true,
            });
        }
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
        // A pictured node is picked by its frame or its name.
        let (ty, th) = if pictured(id) {
            (y + (below - frame / 2.0) / 2.0, frame / 2.0 + below)
        } else {
            (y, side)
        };
        targets.push(Target::area(
            tree.label(id).into_owned(),
            Pick::Node,
            (x, ty),
            (side, th),
        ));
        let outline = match (outline_of(id), tree.player(id), pictured(id)) {
            (Some(given), _, _) => given,
            (None, Player::Max, _) => Outline::Square,
            (None, Player::Min, false) => Outline::Circle,
            (None, Player::Min, true) => Outline::Box,
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
        if let (Some(side), Some(p), true) = (picture, pictures, pictured(id)) {
            // The picture in its frame, the name under the frame.
            let drawn = if unexamined(id) {
                Style::Pruned
            } else {
                Style::Normal
            };
            items.extend(
                (p.draw)(id, side, drawn)
                    .into_iter()
                    .map(|i| i.shifted(x, y)),
            );
            items.push(text(
                (x, y + name_at),
                shown(id),
                NAME,
                Anchor::Middle,
                text_style(id),
            ));
            if is_leaf(id) {
                let at = (x, y + below + VALUE * 0.5);
                items.push(text(
                    at,
                    value_of(id),
                    VALUE,
                    Anchor::Middle,
                    text_style(id),
                ));
                continue;
            }
        } else if is_leaf(id) && layout != Layout::Roomy {
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
        } else {
            items.push(text(
                (x, y),
                shown(id),
                NAME,
                Anchor::Middle,
                text_style(id),
            ));
        }
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
            // Values given on the sheet all go right of their node, so that
            // two neighbours' never face each other between them.
            let parent_after = !m.given
                && tree.parent(id).is_some_and(|p| {
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
            // Wide values (fractions) that would touch their left
            // neighbour's on the level go a line higher.
            let mut vy = vy;
            if m.room_for_values && !sideways {
                let w = text_width(value, VALUE);
                let x0 = match anchor {
                    Anchor::End => vx - w,
                    Anchor::Middle => vx - w / 2.0,
                    Anchor::Start => vx,
                };
                let depth = tree.depth_of(id);
                let (end, raised) = value_ends.get(&depth).copied().unwrap_or((f64::MIN, false));
                let raise = x0 < end + GAP && !raised;
                if raise {
                    vy -= VALUE * 1.1;
                }
                value_ends.insert(depth, (x0 + w, raise));
            }
            items.push(Item::Text {
                x: vx,
                y: vy,
                text: value.clone(),
                size: VALUE,
                anchor,
                style: if m.given { Style::Normal } else { Style::Mark },
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

/// Lays the leaves out `slot` apart in depth-first order, every parent
/// midway between its outer children, and a node `width(id)` wide (0: any)
/// spreads its subtree to make room for itself; the leaves' width in mm.
fn place_all(tree: &Tree, slot: f64, width: &dyn Fn(NodeId) -> f64, along: &mut [f64]) -> f64 {
    let (mut next, mut extra) = (0usize, 0.0f64);
    place(tree, tree.root(), slot, width, &mut next, &mut extra, along);
    next as f64 * slot + extra
}

/// `next` leaves placed so far; `extra`: the room made for wide nodes so far.
fn place(
    tree: &Tree,
    id: NodeId,
    slot: f64,
    width: &dyn Fn(NodeId) -> f64,
    next: &mut usize,
    extra: &mut f64,
    along: &mut [f64],
) {
    if tree.leaf(id).is_some() {
        along[id.index()] = *next as f64 * slot + *extra;
        *next += 1;
        return;
    }
    // The subtree's room starts half a slot before its first leaf.
    let start = *next as f64 * slot + *extra - slot / 2.0;
    let children: Vec<NodeId> = tree.children(id).collect();
    for &c in &children {
        place(tree, c, slot, width, next, extra, along);
    }
    along[id.index()] =
        (along[children[0].index()] + along[children[children.len() - 1].index()]) / 2.0;
    let half = width(id) / 2.0;
    if half > 0.0 {
        // Too close to the room's start: the subtree moves right.
        let shift = start - (along[id.index()] - half);
        if shift > 0.0 {
            shift_subtree(tree, id, shift, along);
            *extra += shift;
        }
        // Past the room's end: the leaves after it move right.
        let end = *next as f64 * slot + *extra - slot / 2.0;
        *extra += (along[id.index()] + half - end).max(0.0);
    }
}

fn shift_subtree(tree: &Tree, id: NodeId, by: f64, along: &mut [f64]) {
    along[id.index()] += by;
    for c in tree.children(id) {
        shift_subtree(tree, c, by, along);
    }
}
