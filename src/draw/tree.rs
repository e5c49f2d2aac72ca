//! Game-tree layout: leaves in slots, every parent centred over its children.

use super::{Anchor, Figure, Item, Outline, Pick, Style, Target};
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

/// Trees with more leaves than this (a slot under 5 mm across the page) are
/// drawn sideways, root on the left, to use the page's height.
const SIDEWAYS_ABOVE: usize = 34;
/// The room a figure gets on an A4 page with margins, heading and legend, in mm.
const PAGE: (f64, f64) = (170.0, 190.0);

/// Lays out and draws a game tree; `marks` adds the key's annotations.
pub fn tree_figure(tree: &Tree, marks: Option<&TreeMarks>) -> Figure {
    let leaves = tree.leaves().count().max(1);
    let levels = tree.height() + 1;
    let sideways = leaves > SIDEWAYS_ABOVE;
    // Along the leaves: at most 10 mm a slot, less when many leaves share the page.
    let across = if sideways { PAGE.1 } else { PAGE.0 };
    let slot = (across / leaves as f64).min(if sideways { 6.5 } else { 10.0 });
    let size = (slot * 0.75).clamp(2.4, 6.5);
    let font = size * 0.48;
    // Sideways, leaf labels and values are written beside the leaves: leave room for them.
    let down = if sideways {
        (PAGE.0 - 25.0) / levels as f64
    } else {
        15.0f64.min(22.0)
    };
    let margin = size + 4.0;

    // Leaf slots in depth-first order; a parent sits midway between its outer children.
    let mut along = vec![0.0f64; tree.len()];
    let mut next_slot = 0usize;
    place(tree, tree.root(), slot, &mut next_slot, &mut along);
    let point = |id: NodeId| {
        let a = margin + along[id.index()];
        let d = margin + down * tree.depth_of(id) as f64;
        if sideways { (d, a) } else { (a, d) }
    };

    let no_marks = TreeMarks::default();
    let m = marks.unwrap_or(&no_marks);
    let unexamined = |id: NodeId| m.unexamined.get(id.index()).copied().unwrap_or(false);
    // Sideways, leaves are small marks with their text beside them, and inner
    // nodes, at least two slots apart, can be larger than the slot.
    let node_size = |id: NodeId| match (sideways, tree.leaf(id).is_some()) {
        (true, true) => size * 0.7,
        (true, false) => (slot * 1.8).clamp(size, 6.5),
        (false, _) => size,
    };
    let shown = |id: NodeId| {
        let label = tree.label(id);
        if m.last_move_only {
            label.rsplit('-').next().unwrap_or_default().to_string()
        } else {
            label.into_owned()
        }
    };
    let mut items = Vec::new();
    let mut targets = Vec::new();
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
            // Two slanted strokes across the edge's middle ("//"); the cut's sign
            // once per cut, beside its first pruned branch.
            let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
            let (px, py) = (
                -uy * size * 0.45 + ux * size * 0.25,
                ux * size * 0.45 + uy * size * 0.25,
            );
            for shift in [-0.5, 0.5] {
                let (cx, cy) = (mx + ux * shift, my + uy * shift);
                items.push(Item::Line {
                    x1: cx - px,
                    y1: cy - py,
                    x2: cx + px,
                    y2: cy + py,
                    style: Style::Mark,
                });
            }
            let sign = &m.cut_roots[at].1;
            let first_of_cut = at == 0 || tree.parent(m.cut_roots[at - 1].0) != Some(parent);
            if first_of_cut {
                // Above and right of the strokes of the first cut edge: on that edge's side.
                items.push(Item::Text {
                    x: mx + size * 0.35,
                    y: my - size * 0.75,
                    text: sign.clone(),
                    size: font * 1.1,
                    anchor: Anchor::Start,
                    style: Style::Mark,
                });
            }
        }
    }
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
        let text_style = if unexamined(id) {
            Style::Pruned
        } else {
            Style::Normal
        };
        if sideways && tree.leaf(id).is_some() {
            // A small mark, then "label  value" in a font as tall as the slot allows.
            let mark = node_size(id);
            items.push(Item::Node {
                x,
                y,
                w: mark,
                h: mark,
                outline,
                style,
            });
            let leaf_font = (slot * 0.78).min(3.2);
            let text = format!("{}  {}", shown(id), tree.leaf(id).expect("a leaf"));
            items.push(Item::Text {
                x: x + mark,
                y,
                text,
                size: leaf_font,
                anchor: Anchor::Start,
                style: text_style,
            });
            continue;
        }
        let size = node_size(id);
        let font = size * 0.48;
        items.push(Item::Node {
            x,
            y,
            w: size,
            h: size,
            outline,
            style,
        });
        items.push(Item::Text {
            x,
            y,
            text: shown(id),
            size: font * shrink(&shown(id)),
            anchor: Anchor::Middle,
            style: text_style,
        });
        if let Some(v) = tree.leaf(id) {
            items.push(Item::Text {
                x,
                y: y + size * 0.95,
                text: v.to_string(),
                size: font * 1.1,
                anchor: Anchor::Middle,
                style: text_style,
            });
        } else if let Some(Some(value)) = m.values.get(id.index()) {
            let (vx, vy) = if sideways {
                (x - size * 0.2, y - size * 0.85)
            } else {
                // Right of the node at mid-height: clear of the edge from the parent.
                (x + size * 0.62, y - size * 0.05)
            };
            items.push(Item::Text {
                x: vx,
                y: vy,
                text: value.clone(),
                size: font * 1.1,
                anchor: Anchor::Start,
                style: Style::Mark,
            });
        }
    }
    let (mut width, mut height) = (0.0f64, 0.0f64);
    for id in tree.ids() {
        let (x, y) = point(id);
        width = width.max(x);
        height = height.max(y);
    }
    let extra = if sideways { 16.0 } else { 4.0 };
    Figure {
        width: width + margin + extra,
        height: height + margin,
        items,
        targets,
    }
}

/// Long labels (AA, AB, …) get a smaller font to fit their node.
fn shrink(label: &str) -> f64 {
    match label.chars().count() {
        0..=1 => 1.0,
        2 => 0.8,
        _ => 0.62,
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
