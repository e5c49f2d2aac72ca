//! Game trees searched under a node budget, against the course notes'
//! procedures written straight over the tree: `search(n, branches)`
//! evaluates n (its estimate, or a leaf's value) when `branches` is 0 or n is
//! a leaf, and otherwise searches each child with `branches / children`;
//! iterative deepening counts every node each depth-limited minimax visits.
//! Compared through the kinds' keys, by label, on thousands of random trees.

use std::collections::BTreeMap;

use treequiz::exercise::{Answer, Conventions, kind};
use treequiz::games::budget_tree::BudgetTree;
use treequiz::games::lookahead::Horizon;
use treequiz::gametree::{Grow, NodeId, Player, Tree};
use treequiz::instance::Instance;
use treequiz::rng::Rng;
use treequiz::value::Value;

/// A random tree of uneven shape (0 to 4 children, depth up to 4), with an
/// estimate for every inner node below the root.
fn random_game(rng: &mut Rng, horizon: Horizon) -> BudgetTree {
    let depth = rng.between(1, 4) as usize;
    let tree = Tree::build_levels(Player::Max, |d| {
        let kids = if d == 0 {
            rng.between(1, 4)
        } else {
            rng.between(0, 4)
        };
        if d < depth && kids > 0 {
            Grow::Children(kids as u32)
        } else {
            Grow::Leaf(Value::Finite(rng.between(-9, 9)))
        }
    })
    .unwrap();
    let estimates = BudgetTree::estimated(&tree)
        .map(|_| Value::Finite(rng.between(-9, 9)))
        .collect();
    BudgetTree::new(tree, estimates, horizon)
}

/// The estimate (or leaf value) of every node, by id, as the file gives them.
fn static_value(g: &BudgetTree, id: NodeId) -> Value {
    if let Some(v) = g.tree.leaf(id) {
        return v;
    }
    let i = BudgetTree::estimated(&g.tree)
        .position(|n| n == id)
        .unwrap();
    g.estimates().nth(i).unwrap()
}

/// What the naive search records: each expanded node's budget (below the
/// root), each evaluated node.
#[derive(Default)]
struct Visit {
    budgets: BTreeMap<String, i64>,
    evaluated: Vec<String>,
}

fn search(g: &BudgetTree, n: NodeId, branches: u32, visit: &mut Visit) -> Value {
    let t = &g.tree;
    let children: Vec<NodeId> = t.children(n).collect();
    if branches == 0 || children.is_empty() {
        visit.evaluated.push(t.label(n).into_owned());
        return static_value(g, n);
    }
    if n != t.root() {
        visit
            .budgets
            .insert(t.label(n).into_owned(), i64::from(branches));
    }
    let each = branches / children.len() as u32;
    let values = children.iter().map(|&c| search(g, c, each, visit));
    let values: Vec<Value> = values.collect();
    match t.player(n) {
        Player::Max => *values.iter().max().unwrap(),
        Player::Min => *values.iter().min().unwrap(),
    }
}

/// Depth-limited minimax: the value, and the nodes it visits.
fn limited(g: &BudgetTree, n: NodeId, depth: u32) -> (Value, u32) {
    let t = &g.tree;
    let children: Vec<NodeId> = t.children(n).collect();
    if depth == 0 || children.is_empty() {
        return (static_value(g, n), 1);
    }
    let (mut best, mut count) = (None::<Value>, 1);
    for c in children {
        let (v, k) = limited(g, c, depth - 1);
        count += k;
        best = Some(match (best, t.player(n)) {
            (None, _) => v,
            (Some(b), Player::Max) => b.max(v),
            (Some(b), Player::Min) => b.min(v),
        });
    }
    (best.unwrap(), count)
}

/// The value of each of the root's moves, by label.
fn move_values(t: &Tree, value: impl Fn(NodeId) -> Value) -> BTreeMap<String, i64> {
    t.children(t.root())
        .map(|c| {
            let Value::Finite(v) = value(c) else {
                unreachable!("finite values")
            };
            (t.label(c).into_owned(), v)
        })
        .collect()
}

/// The key's answer to a field, by label.
fn by_label(instance: &Instance, answer: &Answer) -> BTreeMap<String, i64> {
    let model = instance.model();
    let Answer::Values(rows) = answer else {
        panic!("values")
    };
    rows.iter()
        .map(|(i, v)| {
            let Value::Finite(v) = v else {
                panic!("finite")
            };
            (model.name(*i), *v)
        })
        .collect()
}

fn labels(instance: &Instance, answer: &Answer) -> Vec<String> {
    let model = instance.model();
    let (Answer::Set(items) | Answer::One(items)) = answer else {
        panic!("labels")
    };
    let mut out: Vec<String> = items.iter().map(|&i| model.name(i)).collect();
    out.sort();
    out
}

#[test]
fn node_budgets_on_game_trees_are_the_notes_procedure() {
    let conventions = Conventions::default();
    let budget_kind = kind("node-budget").unwrap();
    let mut rng = Rng::from_seed(0x7EE_B0D6);
    let mut uneven = 0;
    for case in 0..4000 {
        let budget = rng.between(1, 40) as u32;
        let g = random_game(&mut rng, Horizon::Budget(budget));
        if g.tree.leaf(g.tree.root()).is_some() {
            continue;
        }
        let mut visit = Visit::default();
        let value = search(&g, g.tree.root(), budget, &mut visit);
        let instance = Instance::BudgetTree(Box::new(g.clone()));
        assert_eq!((budget_kind.unusable)(&instance), None, "case {case}");
        let key = (budget_kind.solve)(&instance, &conventions);
        let budgets = by_label(&instance, key.answer("budgets").unwrap());
        assert_eq!(
            budgets,
            visit.budgets,
            "case {case}: {:?}",
            g.tree.to_shape()
        );
        let mut evaluated = visit.evaluated.clone();
        evaluated.sort();
        assert_eq!(
            labels(&instance, key.answer("evaluated").unwrap()),
            evaluated
        );
        // Each move's value is the naive search's from that child.
        let t = &g.tree;
        let each = budget / t.children(t.root()).count() as u32;
        let moves = move_values(t, |c| search(&g, c, each, &mut Visit::default()));
        assert_eq!(
            by_label(&instance, key.answer("move_values").unwrap()),
            moves
        );
        let Value::Finite(root) = value else {
            unreachable!()
        };
        let best: Vec<String> = moves
            .iter()
            .filter(|(_, v)| **v == root)
            .map(|(l, _)| l.clone())
            .collect();
        assert_eq!(labels(&instance, key.answer("best_move").unwrap()), best);
        let depths: std::collections::BTreeSet<usize> = evaluated
            .iter()
            .map(|l| t.depth_of(t.find(l).unwrap()))
            .collect();
        uneven += usize::from(depths.len() > 1);
    }
    println!("node-budget: {uneven} of 4,000 trees searched to uneven depths");
    assert!(
        uneven > 1000,
        "{uneven} of the trees were searched to uneven depths"
    );
}

#[test]
fn iterative_deepening_on_game_trees_is_the_notes_procedure() {
    let conventions = Conventions::default();
    let deepening_kind = kind("iterative-deepening").unwrap();
    let mut rng = Rng::from_seed(0xDEE9);
    let (mut stopped_mid, mut deeper) = (0, 0);
    for case in 0..4000 {
        let budget = rng.between(1, 80) as u32;
        let g = random_game(&mut rng, Horizon::Deepening(budget));
        let t = &g.tree;
        if t.leaf(t.root()).is_some() {
            continue;
        }
        // Iterations 1, 2, … on one counter; the deepest that ends within
        // the budget; none after one that reached every leaf.
        let (mut before, mut completed) = (0, 0);
        for depth in 1.. {
            let (_, n) = limited(&g, t.root(), depth);
            if before + n > budget {
                stopped_mid += usize::from(completed > 0);
                break;
            }
            before += n;
            completed = depth;
            if limited(&g, t.root(), depth + 1).1 == n {
                break;
            }
        }
        let instance = Instance::BudgetTree(Box::new(g.clone()));
        if completed == 0 {
            assert!(
                (deepening_kind.unusable)(&instance).is_some(),
                "case {case}"
            );
            continue;
        }
        deeper += usize::from(completed >= 2);
        let key = (deepening_kind.solve)(&instance, &conventions);
        assert_eq!(
            key.answer("completed_depth"),
            Some(&Answer::Value(Value::Finite(i64::from(completed)))),
            "case {case}: budget {budget}, {:?}",
            t.to_shape()
        );
        let moves = move_values(t, |c| limited(&g, c, completed - 1).0);
        assert_eq!(
            by_label(&instance, key.answer("move_values").unwrap()),
            moves
        );
    }
    println!(
        "iterative-deepening: {stopped_mid} of 4,000 stop inside an iteration after one completed; {deeper} complete depth 2 or more"
    );
    assert!(stopped_mid > 1000 && deeper > 500, "{stopped_mid} {deeper}");
}

/// Labels are the teacher's: a child of the root labelled `P` (the name a
/// game's root takes in move paths) or containing `-` is searched like any
/// other, and a tree with 20 moves at the root is no different.
#[test]
fn any_labels_are_searched() {
    let text = r#"
kind = "game-tree"
tree = [[1, 2], [3, 4], 5]
labels = ["root", "P", "P-1", "x", "y", "z", "w", "v"]
estimates = [6, 7]
budget = 4
"#;
    let source = treequiz::input::Source {
        path: "labels.toml".into(),
        text: text.into(),
    };
    let instance = treequiz::instance::parse(&source).unwrap();
    let key = (kind("node-budget").unwrap().solve)(&instance, &Conventions::default());
    assert_eq!(
        by_label(&instance, key.answer("budgets").unwrap()),
        BTreeMap::from([("P".to_string(), 1), ("P-1".to_string(), 1)])
    );
    let wide: Vec<String> = (0..20).map(|i| format!("[{i}, {i}]")).collect();
    let text = format!(
        "kind = \"game-tree\"\ntree = [{}]\nestimates = [{}]\nbudget = 40\n",
        wide.join(", "),
        vec!["0"; 20].join(", ")
    );
    let source = treequiz::input::Source {
        path: "wide.toml".into(),
        text,
    };
    let instance = treequiz::instance::parse(&source).unwrap();
    let key = (kind("node-budget").unwrap().solve)(&instance, &Conventions::default());
    assert_eq!(
        by_label(&instance, key.answer("budgets").unwrap()).len(),
        20
    );
}

/// A budgeted kind whose set leaves its key out searches under the range
/// docs/problem-sets.md documents, which is the kind's own default (one
/// place: `KindDef::budgets`). Before, node-budget, iterative-deepening and
/// othello-deepening panicked and othello-budget searched to depth 1.
#[test]
fn budgeted_kinds_without_their_key_draw_the_documented_range() {
    use treequiz::class_set;
    use treequiz::input::Source;
    use treequiz::rng::Master;
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/problem-sets.md"))
            .unwrap();
    for (name, key, (lo, hi)) in [
        ("node-budget", "budget", (6, 12)),
        ("iterative-deepening", "deepening", (10, 30)),
        ("othello-budget", "budget", (8, 16)),
        ("othello-deepening", "deepening", (30, 60)),
    ] {
        let default = kind(name).unwrap().budgets.key_and_range();
        assert_eq!(default, Some((key, (lo, hi))), "{name}");
        assert!(
            docs.contains(&format!("`{key} = \"{lo}..{hi}\"` (for `{name}`")),
            "docs/problem-sets.md gives {name}'s default as {key} = \"{lo}..{hi}\""
        );
        let source = Source {
            path: "set.toml".into(),
            text: format!("title = \"t\"\n[[exercise]]\nkind = \"{name}\"\n"),
        };
        let set = treequiz::problem_set::parse(&source, std::path::Path::new(".")).unwrap();
        let mut drawn = std::collections::BTreeSet::new();
        for seed in 0..12 {
            let variants = class_set::build(&set, &Master::from_seed(seed), &[])
                .unwrap_or_else(|e| panic!("{name}, seed {seed}: {e}"));
            let instance = &variants[0].items[0].instance;
            assert_eq!(instance.budget_key(), Some(key), "{name}, seed {seed}");
            let horizon = match instance {
                Instance::BudgetTree(b) => b.horizon,
                Instance::Othello(g) => g.horizon,
                other => panic!("{name}: {other:?}"),
            };
            drawn.insert(horizon.allowance());
        }
        assert!(
            drawn.iter().all(|b| (lo..=hi).contains(b)),
            "{name}: {drawn:?} outside {lo}..{hi}"
        );
        assert!(drawn.len() > 1, "{name}: one budget drawn, {drawn:?}");
    }
}
