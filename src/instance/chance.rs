//! Game trees with chance nodes, for expectiminimax: MAX/MIN/CHANCE levels
//! with a probability on each chance edge. Drawn as a game tree's layout,
//! MAX nodes as squares, MIN nodes as circles, chance nodes as diamonds with
//! each edge's probability on it.

use super::game_tree::largest_leaf;
use super::{FamilyDef, Form, Generator, Instance, Model, Params};
use crate::chance::{self, ChanceTree, Expectiminimax, NodeKind, file};
use crate::draw::{Figure, Outline, TreeMarks, tree_figure};
use crate::gametree;
use crate::generate::GenerateError;
use crate::input::{Doc, InputError, Reader, Source};
use crate::lang::Lang;

pub(super) static FAMILY: FamilyDef = FamilyDef {
    name: "chance-tree",
    key_name: "chance",
    noun: "a chance tree",
    param_keys: chance::generate::KEYS,
    read_params: |r, t, _| Ok(Params::new(chance::generate::read_params(r, t)?)),
    read,
    forms: &[
        Form {
            name: "python",
            extension: ".py",
            marker: Some(file::is_python_chance),
            read: Some(|s: &Source| file::read_python(s).map(boxed)),
            write: |i, _| {
                file::write_python(this(i)).ok_or_else(|| {
                    "a Python nested list holds a chance tree of MAX and uniform chance levels only; write this one with --to toml".to_string()
                })
            },
        },
        Form {
            name: "cs188",
            extension: ".test",
            marker: Some(file::is_expectimax_test),
            read: Some(|s: &Source| file::read_cs188(s).map(boxed)),
            // CS188's agent for a chance tree is always `ExpectimaxAgent`.
            write: |i, _| file::write_cs188(this(i)),
        },
    ],
    about,
    document: |i| file::document(this(i)),
    // Its labels are the tree's: answers name nodes as a game tree's do.
    model: |i| Model::Tree(this(i).tree()),
    sheet_figure: |i, _| (figure(this(i), None), String::new()),
    figure_nodes: |i| Some(this(i).tree().len()),
    largest_number: |i| largest_leaf(this(i).tree()),
    depth: |i| Some(this(i).tree().height() as u64),
};

fn this(instance: &Instance) -> &ChanceTree {
    match instance {
        Instance::Chance(c) => c,
        _ => unreachable!("the chance family holds chance trees"),
    }
}

fn boxed(c: ChanceTree) -> Instance {
    Instance::Chance(Box::new(c))
}

fn read(reader: &Reader<'_>, doc: &Doc) -> Result<Instance, InputError> {
    let table = reader.table(doc, file::KEYS, "")?;
    file::read(reader, &table).map(boxed)
}

impl Generator for chance::generate::Params {
    fn generate(&self, seed: u64, _: gametree::Options) -> Result<Instance, GenerateError> {
        Ok(boxed(chance::generate::generate(self, seed)?))
    }

    fn page_size(&self) -> Option<(u64, &'static str)> {
        Some((self.max_nodes(), "lower depth or branching"))
    }
}

fn about(instance: &Instance, lang: &Lang) -> String {
    let c = this(instance);
    let t = c.tree();
    let levels: Vec<&str> = c.levels().iter().map(|k| k.name()).collect();
    lang.fill(
        "solve.about_chance",
        &[
            ("nodes", &t.len().to_string()),
            ("leaves", &t.leaves().count().to_string()),
            ("depth", &t.height().to_string()),
            ("levels", &levels.join(", ")),
        ],
    )
}

/// Lays out and draws a chance tree; with `key`, its backed-up values beside
/// the inner nodes (exact fractions) and the best move's edge.
pub fn figure(tree: &ChanceTree, key: Option<&Expectiminimax>) -> Figure {
    let t = tree.tree();
    let marks = TreeMarks {
        values: key.map_or_else(Vec::new, |e| {
            t.ids()
                .map(|id| {
                    t.leaf(id)
                        .is_none()
                        .then(|| e.values[id.index()].to_string())
                })
                .collect()
        }),
        // The key's own first best move, as AIMA's argmax takes it.
        answer_path: key
            .and_then(|e| e.best_moves.first().copied())
            .into_iter()
            .collect(),
        // By level, leaves too, as a game tree's leaves are drawn by player.
        outlines: t
            .ids()
            .map(|id| {
                let levels = tree.levels();
                Some(match levels[t.depth_of(id) % levels.len()] {
                    NodeKind::Max => Outline::Square,
                    NodeKind::Min => Outline::Circle,
                    NodeKind::Chance => Outline::Diamond,
                })
            })
            .collect(),
        // Every chance edge says its probability, uniform or not: a student
        // multiplies by what is written.
        edge_labels: t
            .ids()
            .map(|id| {
                let parent = t.parent(id)?;
                let i = t.children(parent).position(|c| c == id)?;
                tree.probabilities(parent).get(i).map(ToString::to_string)
            })
            .collect(),
        room_for_values: true,
        ..TreeMarks::default()
    };
    tree_figure(t, Some(&marks))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chance::file::tests::read_file;

    /// AIMA's tree with chance nodes: three diamonds, the probabilities on
    /// their nine edges, in SVG and TikZ.
    #[test]
    fn chance_nodes_are_diamonds_with_probabilities_on_their_edges() {
        let t = read_file(
            "t.toml",
            "kind = \"chance-tree\"\ntree = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]\n[probabilities]\nD = [\"1/2\", \"1/4\", \"1/4\"]\n",
        )
        .unwrap();
        let f = figure(&t, None);
        let svg = crate::draw::to_svg(&f);
        // B, C, D, and none of the MAX leaves.
        assert_eq!(svg.matches("<polygon").count(), 3, "{svg}");
        assert_eq!(svg.matches(">1/3<").count(), 6, "{svg}");
        assert_eq!(svg.matches(">1/4<").count(), 2, "{svg}");
        assert_eq!(svg.matches(">1/2<").count(), 1, "{svg}");
        let tikz = crate::draw::to_tikz(&f);
        assert_eq!(tikz.matches("-- cycle;").count(), 3, "{tikz}");
        // Deterministic.
        assert_eq!(crate::draw::to_svg(&figure(&t, None)), svg);
        // The key's: values beside the diamonds, D's edge the answer's.
        let e = crate::chance::expectiminimax(&t);
        let key = crate::draw::to_svg(&figure(&t, Some(&e)));
        assert!(key.contains(">23/3<") && key.contains(">35/4<"), "{key}");
        let answer = figure(&t, Some(&e))
            .items
            .iter()
            .filter(|i| {
                matches!(
                    i,
                    crate::draw::Item::Line {
                        style: crate::draw::Style::Answer,
                        ..
                    }
                )
            })
            .count();
        assert_eq!(answer, 1);
    }

    /// A key's fractions are wider than whole numbers: over 200 generated
    /// trees, no two values on one line touch (a neighbour's goes a line up).
    #[test]
    fn a_keys_values_never_overlap() {
        let p = crate::chance::generate::Params {
            depth: 4,
            branching: (2, 2),
            levels: vec![
                NodeKind::Max,
                NodeKind::Chance,
                NodeKind::Min,
                NodeKind::Chance,
            ],
            weighted: true,
            ..Default::default()
        };
        for seed in 0..200 {
            let t = crate::chance::generate::generate(&p, seed).unwrap();
            let e = crate::chance::expectiminimax(&t);
            let boxes: Vec<(f64, f64, f64)> = figure(&t, Some(&e))
                .items
                .iter()
                .filter_map(|i| match i {
                    crate::draw::Item::Text {
                        x,
                        y,
                        text,
                        size,
                        anchor,
                        style: crate::draw::Style::Mark,
                        ..
                    } => {
                        let w = crate::draw::text_width(text, *size);
                        let x0 = match anchor {
                            crate::draw::Anchor::End => x - w,
                            crate::draw::Anchor::Middle => x - w / 2.0,
                            crate::draw::Anchor::Start => *x,
                        };
                        Some((x0, x0 + w, *y))
                    }
                    _ => None,
                })
                .collect();
            for (i, a) in boxes.iter().enumerate() {
                for b in &boxes[i + 1..] {
                    let apart = (a.2 - b.2).abs() > 2.0 || a.1 + 0.5 <= b.0 || b.1 + 0.5 <= a.0;
                    assert!(apart, "seed {seed}: {a:?} and {b:?}");
                }
            }
        }
    }
}
