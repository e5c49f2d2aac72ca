//! `principal-variation`: the path of best play (AIMA's principal
//! variation), from the root's move down to a leaf, each player moving to
//! its child of best minimax value; and the root's value, which is the
//! leaf's. The path earns its longest correct prefix: nothing after the
//! first wrong step lies on it.

use super::Figures;
use super::{
    Answer, Context, Explained, Family, Field, Frame, Hint, Item, Key, KindDef, Mistake, Shape,
    Table, Trace, instance_tree, plain, tree,
};
use crate::draw::tree_figure;
use crate::gametree::{Minimax, NodeId, Tree, minimax};
use crate::instance::Instance;
use crate::lang::Lang;
use crate::reason::{Phrase, Reason};
use crate::scoring::OrderScoring;

const LEAVES: super::Measure = super::Measure::new("leaves");
const PATH_LENGTH: super::Measure = super::Measure::new("path_length");

pub(super) static KIND: KindDef = KindDef {
    name: "principal-variation",
    family: Family::GameTree,
    fields: &[
        Field::new("value", Shape::Value),
        Field::new("path", Shape::Sequence).scored(OrderScoring::Prefix),
    ],
    solver: super::Solver::Minimax,
    solve,
    explain,
    teach,
    unusable,
    conventions,
    measures: &[LEAVES, PATH_LENGTH],
    measure,
    point,
    replay,
    hints,
    budgets: super::Budgets::NONE,
    // Distinct leaves give distinct values to any two children, so the
    // path is unique (`unusable`) in every generated tree.
    sizes: super::Sizes {
        small: "depth = 2\nbranching = 3\nvalues = \"0..20\"\ndistinct = true",
        medium: "depth = 3\nbranching = \"2..3\"\nvalues = \"0..30\"\ndistinct = true",
        large: "depth = 4\nbranching = 2\nvalues = \"0..20\"\ndistinct = true",
    },
};

fn trace<'a>(ctx: &'a Context<'_>) -> &'a Minimax {
    match &ctx.key.trace {
        Trace::Minimax(mm) => mm,
        _ => unreachable!("a principal-variation key holds minimax's trace"),
    }
}

/// The children of `n` whose value is `n`'s: the moves its player may choose.
fn best_children(t: &Tree, mm: &Minimax, n: NodeId) -> Vec<NodeId> {
    t.children(n)
        .filter(|&c| mm.of(t, c) == mm.of(t, n))
        .collect()
}

/// A budgeted tree is not searched whole; a tie on the path makes two
/// principal variations, and the key holds one path: such a tree is refused
/// (a generated one is drawn again), rather than a right path marked wrong.
fn unusable(instance: &Instance) -> Option<String> {
    if let Some(why) = super::whole_tree(instance) {
        return Some(why);
    }
    let t = instance_tree(instance);
    let mm = minimax(t);
    mm.principal_variation.iter().find_map(|&n| {
        let best = best_children(t, &mm, n);
        (best.len() > 1).then(|| {
            let names: Vec<String> = best.iter().map(|&b| t.label(b).into_owned()).collect();
            format!(
                "{} at {} has {} equally good moves ({}, each of value {}), so the tree has more than one principal variation: give the leaves distinct values (`distinct = true` for a generated tree)",
                t.player(n).name(),
                t.label(n),
                best.len(),
                names.join(", "),
                mm.of(t, n)
            )
        })
    })
}

fn solve(instance: &Instance, _: &super::Conventions) -> Key {
    let t = instance_tree(instance);
    let mm = minimax(t);
    let path = mm.principal_variation[1..]
        .iter()
        .map(|&n| Item::Node(n.0))
        .collect();
    Key::new(
        vec![
            ("value", Answer::Value(mm.value)),
            ("path", Answer::Sequence(path)),
        ],
        Trace::Minimax(mm),
    )
}

/// `E = 3, F = 12, H = 5`: what the player at `n` chooses among.
fn children_values(t: &Tree, mm: &Minimax, n: NodeId) -> String {
    t.children(n)
        .map(|c| format!("{} = {}", t.label(c), mm.of(t, c)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn explain(ctx: &Context<'_>, _: &[&str], lang: &Lang, figures: Figures) -> Explained {
    let t = tree(ctx);
    let mm = trace(ctx);
    let pv = &mm.principal_variation;
    let marks = super::minimax::key_marks(t, mm);
    // One row per move: the node, who moves, what it chooses among, its choice.
    let table = Table {
        headers: [
            "table.node",
            "table.to_move",
            "table.children_values",
            "table.chooses",
        ]
        .iter()
        .map(|k| lang.get(k).to_string())
        .collect(),
        rows: pv
            .windows(2)
            .map(|w| {
                vec![
                    t.label(w[0]).into_owned(),
                    t.player(w[0]).name().to_string(),
                    children_values(t, mm, w[0]),
                    t.label(w[1]).into_owned(),
                ]
            })
            .collect(),
    };
    let labels: Vec<String> = pv.iter().map(|&n| t.label(n).into_owned()).collect();
    let leaf = *pv.last().expect("a path has the root");
    Explained {
        figure: figures.draw(|| tree_figure(t, Some(&marks))),
        table,
        notes: vec![
            lang.fill("note.principal_variation", &[("path", &labels.join(" → "))]),
            lang.fill(
                "note.path_value",
                &[("leaf", &t.label(leaf)), ("value", &mm.value.to_string())],
            ),
        ],
    }
}

/// The figure after each row of the table: the node that moves ringed, its
/// value and its inner children's written (the leaves' are on the figure).
fn replay(ctx: &Context<'_>) -> Vec<Frame> {
    let t = tree(ctx);
    let mm = trace(ctx);
    let pv = &mm.principal_variation;
    let mut values: Vec<(String, String)> = Vec::new();
    pv[..pv.len() - 1]
        .iter()
        .map(|&n| {
            for m in std::iter::once(n).chain(t.children(n)) {
                let label = t.label(m).into_owned();
                if t.leaf(m).is_none() && !values.iter().any(|(l, _)| *l == label) {
                    values.push((label, mm.of(t, m).to_string()));
                }
            }
            Frame {
                focus: vec![t.label(n).into_owned()],
                values: values.clone(),
                ..Frame::default()
            }
        })
        .collect()
}

fn teach(ctx: &Context<'_>, field: &str, mistake: Mistake<'_>, hide: bool) -> Vec<Reason> {
    if field != "path" {
        return plain(ctx, field, mistake, hide);
    }
    let t = tree(ctx);
    let mm = trace(ctx);
    let node = |i: Item| match i {
        Item::Node(n) => Some(NodeId(n)),
        _ => None,
    };
    let value = |n: NodeId| mm.of(t, n).to_string();
    match mistake {
        // Every step before `pos` is right: the key's step comes from its
        // parent, which is also the student's last node.
        Mistake::Diverges { key, given, .. } => {
            let (Some(key), Some(given)) = (node(key), node(given)) else {
                return plain(ctx, field, mistake, hide);
            };
            let at = t.parent(key).expect("the path starts below the root");
            let player = t.player(at).name();
            // (A path written from the root is read without it.)
            let reason = if t.parent(given) == Some(at) {
                Reason::new(Phrase::Own("grade.path_diverges")).with("given_value", value(given))
            } else {
                Reason::new(Phrase::Own("grade.path_not_child"))
            };
            vec![
                reason
                    .with("node", t.label(at))
                    .with("player", player)
                    .with("key", t.label(key))
                    .with("key_value", value(key))
                    .with("given", t.label(given)),
            ]
        }
        Mistake::Short {
            count,
            last: Some(last),
        } => vec![
            Reason::new(Phrase::Own("grade.path_short"))
                .with("last", ctx.name(last))
                .with("count", count.to_string()),
        ],
        Mistake::Long { given } => {
            let leaf = mm.principal_variation.last().expect("a path has the root");
            vec![
                Reason::new(Phrase::Own("grade.path_long"))
                    .with("last", t.label(*leaf))
                    .with("given", ctx.name(given)),
            ]
        }
        _ => plain(ctx, field, mistake, hide),
    }
}

fn conventions(
    instance: &Instance,
    _: &super::Conventions,
    ask: &[&str],
    lang: &Lang,
) -> Vec<String> {
    let mut lines = vec![super::root_convention(instance, lang)];
    if ask.contains(&"path") {
        lines.push(lang.get("convention.principal_variation").to_string());
    }
    lines
}

fn measure(ctx: &Context<'_>) -> Vec<u64> {
    let t = tree(ctx);
    let mm = trace(ctx);
    vec![
        t.leaves().count() as u64,
        mm.principal_variation.len() as u64 - 1,
    ]
}

/// Two moves at least: one player's choice answered by the other's.
fn point(_: &[&str]) -> Vec<super::Limit> {
    vec![super::Limit::at_least(PATH_LENGTH, 2)]
}

/// The path move by move from the root: which child each player moves to,
/// and the values it chooses among.
fn hints(ctx: &Context<'_>) -> Vec<Hint> {
    let t = tree(ctx);
    let mm = trace(ctx);
    mm.principal_variation
        .windows(2)
        .map(|w| {
            let (at, to) = (t.label(w[0]).into_owned(), t.label(w[1]).into_owned());
            Hint {
                question: Reason::new(Phrase::Own("hint.move_q"))
                    .with("player", t.player(w[0]).name())
                    .with("node", at.clone()),
                answer: Reason::new(Phrase::Own("hint.move_a"))
                    .with("node", at.clone())
                    .with("child", to.clone())
                    .with("explain", super::minimax::backed_up(t, mm, w[0])),
                nodes: vec![at, to],
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gametree::{Grow, Player};
    use crate::value::Value;

    /// A random tree of uneven depth, one to four children, small values
    /// (so that ties on the path are common) and ±∞ leaves.
    fn ragged_tree(seed: u64) -> Tree {
        let mut rng = crate::rng::Rng::from_seed(seed);
        let root = if rng.percent(50) {
            Player::Max
        } else {
            Player::Min
        };
        Tree::build_levels(root, |depth| {
            if depth == 0 || (depth < 4 && rng.percent(70)) {
                Grow::Children(rng.between(1, 4) as u32)
            } else {
                Grow::Leaf(match rng.below(14) {
                    0 => Value::PosInf,
                    1 => Value::NegInf,
                    _ => Value::Finite(rng.between(0, 9)),
                })
            }
        })
        .unwrap()
    }

    /// The textbook's recursion, as plain as it gets.
    fn naive_value(t: &Tree, n: NodeId) -> Value {
        if let Some(v) = t.leaf(n) {
            return v;
        }
        let values = t.children(n).map(|c| naive_value(t, c));
        match t.player(n) {
            Player::Max => values.max(),
            Player::Min => values.min(),
        }
        .unwrap()
    }

    /// Every step the best child, by the naive recursion: the path, or
    /// `None` where a player has two best children on it.
    fn naive_path(t: &Tree) -> Option<Vec<NodeId>> {
        let mut path = Vec::new();
        let mut at = t.root();
        while t.leaf(at).is_none() {
            let v = naive_value(t, at);
            let best: Vec<NodeId> = t.children(at).filter(|&c| naive_value(t, c) == v).collect();
            if best.len() != 1 {
                return None;
            }
            at = best[0];
            path.push(at);
        }
        Some(path)
    }

    /// Over thousands of seeded random trees, the key's path is the naive
    /// recursion's, step by step; it ends at a leaf whose value is the
    /// root's; and exactly the trees with a tie on the path are refused.
    #[test]
    fn the_key_is_the_naive_principal_variation() {
        let (mut used, mut refused) = (0, 0);
        for seed in 0..4000 {
            let t = ragged_tree(seed);
            let instance = Instance::GameTree(t.clone());
            let naive = naive_path(&t);
            assert_eq!(
                unusable(&instance).is_none(),
                naive.is_some(),
                "seed {seed}: {:?}",
                unusable(&instance)
            );
            let Some(naive) = naive else {
                refused += 1;
                continue;
            };
            used += 1;
            let key = solve(&instance, &Default::default());
            let want: Vec<Item> = naive.iter().map(|n| Item::Node(n.0)).collect();
            assert_eq!(
                key.answer("path"),
                Some(&Answer::Sequence(want)),
                "seed {seed}"
            );
            let leaf = *naive.last().unwrap();
            let root = naive_value(&t, t.root());
            assert_eq!(t.leaf(leaf), Some(root), "seed {seed}");
            assert_eq!(
                key.answer("value"),
                Some(&Answer::Value(root)),
                "seed {seed}"
            );
        }
        assert!(
            used > 3000 && refused > 700,
            "{used} used, {refused} refused"
        );
    }

    /// A minimax of value 3, principal variation A → B → E → J: at B, MIN
    /// chooses E (3) over F (12), G (8) and H (5); C's only child is I.
    const TREE: &str = "kind = \"game-tree\"\ntree = [[[3, 1], 12, 8, 5], [2], 1]\n";

    fn instance() -> Instance {
        Instance::GameTree(crate::gametree::file::tests::read_file("t.toml", TREE).unwrap())
    }

    /// A tie on the path is refused, naming it; one off the path is not.
    #[test]
    fn a_tie_on_the_path_is_refused() {
        let read = |text: &str| {
            Instance::GameTree(crate::gametree::file::tests::read_file("t.toml", text).unwrap())
        };
        let why = unusable(&read("kind = \"game-tree\"\ntree = [[3, 5], [3, 4]]\n")).unwrap();
        assert!(
            why.starts_with("MAX at A has 2 equally good moves (B, C"),
            "{why}"
        );
        assert_eq!(
            unusable(&read("kind = \"game-tree\"\ntree = [[3, 5], [2, 2]]\n")),
            None
        );
    }

    /// The key's table walks the path, a row per move, and the replay has
    /// a frame per row.
    #[test]
    fn the_key_explains_each_move() {
        let instance = instance();
        let key = solve(&instance, &Default::default());
        let conventions = Default::default();
        let lang = Lang::builtin("en").unwrap();
        let e = KIND.explain_key(&instance, &key, &conventions, &["path"], &lang);
        assert_eq!(
            e.table.rows,
            [
                ["A", "MAX", "B = 3, C = 2, D = 1", "B"],
                ["B", "MIN", "E = 3, F = 12, G = 8, H = 5", "E"],
                ["E", "MAX", "J = 3, K = 1", "J"],
            ]
        );
        assert_eq!(
            e.notes,
            [
                "Principal variation: A → B → E → J.",
                "The path ends at the leaf J, whose value 3 is the root's: every node on the path has this value."
            ]
        );
        let frames = KIND.replay_key(&instance, &key, &conventions);
        assert_eq!(frames.len(), 3);
        assert_eq!(frames[2].focus, ["E"]);
        let values: Vec<(&str, &str)> = frames[2]
            .values
            .iter()
            .map(|(l, v)| (l.as_str(), v.as_str()))
            .collect();
        assert_eq!(values, [("A", "3"), ("B", "3"), ("C", "2"), ("E", "3")]);
    }
}
