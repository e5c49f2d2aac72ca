//! `expectiminimax`: every inner node's value (a chance node's, the
//! probability-weighted mean of its children's, exactly) and the best move.

use super::Figures;
use super::{
    Answer, Context, Domain, Explained, Family, Field, Item, Key, KindDef, Mistake, Shape, Table,
    Trace, plain,
};
use crate::chance::{ChanceTree, Expectiminimax, NodeKind, Step, expectiminimax, worst_case};
use crate::gametree::NodeId;
use crate::instance::Instance;
use crate::lang::Lang;
use crate::reason::{Phrase, Reason};

const INNER_NODES: super::Measure = super::Measure::new("inner_nodes");
const CHANCE_NODES: super::Measure = super::Measure::new("chance_nodes");

pub(super) static KIND: KindDef = KindDef {
    name: "expectiminimax",
    family: Family::Chance,
    fields: &[
        Field::new("values", Shape::Fractions),
        Field::new("best_move", Shape::Label).within(Domain::RootChildren),
    ],
    solver: super::Solver::Expectiminimax,
    solve,
    explain,
    teach,
    unusable,
    conventions,
    measures: &[
        super::Measure::new("leaves"),
        INNER_NODES,
        CHANCE_NODES,
        super::Measure::new("differs_from_worst_case"),
    ],
    measure,
    point,
    replay: super::no_replay,
    hints,
    budgets: super::Budgets::NONE,
    sizes: super::Sizes {
        small: "depth = 2\nbranching = \"2..3\"\nvalues = \"0..12\"\nunique_best = true",
        medium: "depth = 2\nbranching = \"2..3\"\nvalues = \"0..12\"\nweighted = true\ndiffers_from_minimax = true\nunique_best = true",
        large: "depth = 4\nbranching = 2\nvalues = \"0..12\"\nlevels = [\"max\", \"chance\", \"min\", \"chance\"]\nweighted = true\nunique_best = true",
    },
};

fn chance_tree(instance: &Instance) -> &ChanceTree {
    match instance {
        Instance::Chance(c) => c,
        _ => unreachable!("the problem set checks the family"),
    }
}

/// A chance root chooses no move: there is no best move to ask.
fn unusable(instance: &Instance) -> Option<String> {
    let c = chance_tree(instance);
    (c.kind(c.tree().root()) == Some(NodeKind::Chance)).then(|| {
        "the root is a chance node, which chooses no move: start `levels` with \"max\" or \"min\""
            .to_string()
    })
}

fn trace<'a>(ctx: &'a Context<'_>) -> &'a Expectiminimax {
    match &ctx.key.trace {
        Trace::Expectiminimax(e) => e,
        _ => unreachable!("an expectiminimax key holds its trace"),
    }
}

fn solve(instance: &Instance, _: &super::Conventions) -> Key {
    let c = chance_tree(instance);
    let t = c.tree();
    let e = expectiminimax(c);
    let node = |id: NodeId| Item::Node(id.0);
    Key::new(
        vec![
            (
                "values",
                Answer::Fractions(
                    t.ids()
                        .filter(|&id| t.leaf(id).is_none())
                        .map(|id| (node(id), e.values[id.index()]))
                        .collect(),
                ),
            ),
            // Tied best moves are all right: the key lists every one.
            (
                "best_move",
                Answer::One(e.best_moves.iter().map(|&b| node(b)).collect()),
            ),
        ],
        Trace::Expectiminimax(e),
    )
}

/// How a step's value comes about, in symbols every language reads:
/// `(3 + 12 + 8) / 3 = 23/3` for equally likely children, `1/2 × 14 +
/// 1/4 × 5 + 1/4 × 2 = 35/4` otherwise, `max(23/3, 4, 7) = 23/3`.
fn computation(step: &Step) -> String {
    let values: Vec<String> = step.terms.iter().map(|t| t.value.to_string()).collect();
    let uniform = step
        .terms
        .windows(2)
        .all(|w| w[0].probability == w[1].probability);
    let sum = match step.kind {
        NodeKind::Max => format!("max({})", values.join(", ")),
        NodeKind::Min => format!("min({})", values.join(", ")),
        NodeKind::Chance if step.terms.len() == 1 => values[0].clone(),
        NodeKind::Chance if uniform => {
            format!("({}) / {}", values.join(" + "), step.terms.len())
        }
        NodeKind::Chance => step
            .terms
            .iter()
            .map(|t| {
                let p = t.probability.map(|p| p.to_string()).unwrap_or_default();
                let v = if t.value < crate::value::Ratio::ZERO || !t.value.is_integer() {
                    format!("({})", t.value)
                } else {
                    t.value.to_string()
                };
                format!("{p} × {v}")
            })
            .collect::<Vec<_>>()
            .join(" + "),
    };
    format!("{sum} = {}", step.value)
}

/// A fraction and, where it is not whole, its value to two places: `23/3 ≈ 7.67`.
fn shown(r: crate::value::Ratio) -> String {
    if r.is_integer() {
        r.to_string()
    } else {
        format!("{r} ≈ {}", r.rounded(2))
    }
}

fn explain(ctx: &Context<'_>, _: &[&str], lang: &Lang, figures: Figures) -> Explained {
    let c = chance_tree(ctx.instance);
    let t = c.tree();
    let e = trace(ctx);
    let table = Table {
        headers: vec![
            lang.get("table.node").to_string(),
            lang.get("table.model").to_string(),
            lang.get("table.value").to_string(),
        ],
        rows: e
            .steps
            .iter()
            .map(|s| {
                vec![
                    t.label(s.node).into_owned(),
                    s.kind.name().to_string(),
                    computation(s),
                ]
            })
            .collect(),
    };
    let best: Vec<String> = e
        .best_moves
        .iter()
        .map(|&b| t.label(b).into_owned())
        .collect();
    let mut notes = vec![lang.fill(
        "note.best_move",
        &[("moves", &best.join(", ")), ("value", &shown(e.value))],
    )];
    let worst: Vec<String> = worst_case(c)
        .iter()
        .map(|&b| t.label(b).into_owned())
        .collect();
    if !e.best_moves.iter().any(|m| worst_case(c).contains(m)) {
        notes.push(lang.fill("note.chance_differs", &[("moves", &worst.join(", "))]));
    }
    Explained {
        figure: figures.draw(|| crate::instance::chance::figure(c, Some(e))),
        table,
        notes,
    }
}

fn teach(ctx: &Context<'_>, field: &str, mistake: Mistake<'_>, hide: bool) -> Vec<Reason> {
    let c = chance_tree(ctx.instance);
    let t = c.tree();
    let e = trace(ctx);
    match mistake {
        Mistake::Fraction { item, given, .. } => {
            let Item::Node(n) = item else {
                return plain(ctx, field, mistake, hide);
            };
            let Some(step) = e.steps.iter().find(|s| s.node.0 == n) else {
                return plain(ctx, field, mistake, hide);
            };
            let label = t.label(step.node).into_owned();
            let reason = if step.kind == NodeKind::Chance {
                Reason::new(Phrase::ChanceValueWrong)
                    .with("node", label)
                    .with("explain", computation(step))
                    .with("given", given.as_written())
            } else {
                Reason::new(Phrase::NodeValueWrong)
                    .with("node", label)
                    .with("player", step.kind.name())
                    .with("explain", computation(step))
                    .with("given", given.as_written())
            };
            vec![reason]
        }
        Mistake::WrongOne(given) if field == "best_move" => {
            let root = t.root();
            let max = c.kind(root) == Some(NodeKind::Max);
            let values: Vec<String> = t
                .children(root)
                .map(|ch| format!("{} = {}", t.label(ch), shown(e.values[ch.index()])))
                .collect();
            let key: Vec<String> = e
                .best_moves
                .iter()
                .map(|&b| t.label(b).into_owned())
                .collect();
            vec![
                Reason::new(Phrase::BestMoveByValues)
                    .with("player", if max { "MAX" } else { "MIN" })
                    .term(
                        "best",
                        if max {
                            "grade.largest"
                        } else {
                            "grade.smallest"
                        },
                    )
                    .with("values", values.join(", "))
                    .with("key", key.join(" / "))
                    .with("given", ctx.name(given)),
            ]
        }
        _ => plain(ctx, field, mistake, hide),
    }
}

fn conventions(_: &Instance, _: &super::Conventions, _: &[&str], lang: &Lang) -> Vec<String> {
    vec![
        lang.get("convention.expectiminimax_rule").to_string(),
        lang.get("convention.exact_fractions").to_string(),
    ]
}

fn measure(ctx: &Context<'_>) -> Vec<u64> {
    let c = chance_tree(ctx.instance);
    let t = c.tree();
    let e = trace(ctx);
    let leaves = t.leaves().count() as u64;
    let chance = t
        .ids()
        .filter(|&id| c.kind(id) == Some(NodeKind::Chance))
        .count() as u64;
    let differs = !e.best_moves.iter().any(|m| worst_case(c).contains(m));
    vec![leaves, t.len() as u64 - leaves, chance, u64::from(differs)]
}

/// A chance node to average, and a root to choose over it.
fn point(_: &[&str]) -> Vec<super::Limit> {
    vec![
        super::Limit::at_least(INNER_NODES, 3),
        super::Limit::at_least(CHANCE_NODES, 1),
    ]
}

/// The inner nodes in the order a depth-first evaluation finishes them:
/// each one's value from its children's, a chance node's as their
/// probability-weighted mean.
fn hints(ctx: &Context<'_>) -> Vec<super::Hint> {
    let t = chance_tree(ctx.instance).tree();
    trace(ctx)
        .steps
        .iter()
        .map(|step| {
            let label = t.label(step.node).into_owned();
            let phrase = match step.kind {
                NodeKind::Chance => "hint.chance_a",
                _ => "hint.value_a",
            };
            super::Hint {
                question: Reason::new(Phrase::Own("hint.value_q")).with("node", label.clone()),
                answer: Reason::new(Phrase::Own(phrase))
                    .with("node", label.clone())
                    .with("explain", computation(step)),
                nodes: vec![label],
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chance::file::tests::read_file;

    fn step_of(tree: &str, node: u32) -> String {
        let t = read_file("t.toml", tree).unwrap();
        let e = expectiminimax(&t);
        computation(e.steps.iter().find(|s| s.node.0 == node).unwrap())
    }

    /// The wording: (3 + 12 + 8) / 3 = 23/3; weights written out
    /// when the children are not equally likely.
    #[test]
    fn a_chance_node_is_shown_as_its_weighted_mean() {
        let aima = "kind = \"chance-tree\"\ntree = [[3, 12, 8], [2, 4, 6], [14, -5, 2.5]]\n";
        assert_eq!(step_of(aima, 1), "(3 + 12 + 8) / 3 = 23/3");
        assert_eq!(step_of(aima, 0), "max(23/3, 4, 23/6) = 23/3");
        let weighted = format!("{aima}[probabilities]\nD = [\"1/2\", \"1/4\", \"1/4\"]\n");
        assert_eq!(
            step_of(&weighted, 3),
            "1/2 × 14 + 1/4 × (-5) + 1/4 × (5/2) = 51/8"
        );
        assert_eq!(
            shown(crate::value::Ratio::new(23, 3).unwrap()),
            "23/3 ≈ 7.67"
        );
    }
}
