//! Alpha-beta against an obviously correct minimax, over thousands of seeded trees.

use treequiz::gametree::{
    Bound, CutKind, NodeId, Options, Order, Player, Shape, Tree, ValueMode, alpha_beta, minimax,
};
use treequiz::rng::Rng;
use treequiz::value::Value;

/// Naive recursive minimax on nested lists: the reference.
fn naive(shape: &Shape, player: Player) -> Value {
    match shape {
        Shape::Leaf(v) => *v,
        Shape::Inner(children) => {
            let values = children.iter().map(|c| naive(c, player.other()));
            if player == Player::Max {
                values.max().unwrap()
            } else {
                values.min().unwrap()
            }
        }
    }
}

/// An irregular random tree: leaves at different depths, values in a small
/// range so that ties happen, now and then a won or lost position.
pub(crate) fn random_shape(rng: &mut Rng, depth: u32) -> Shape {
    if depth == 0 || (depth < 4 && rng.percent(20)) {
        let v = match rng.below(20) {
            0 => Value::PosInf,
            1 => Value::NegInf,
            _ => Value::Finite(rng.between(0, 4)),
        };
        return Shape::Leaf(v);
    }
    let k = rng.between(1, 4);
    Shape::Inner((0..k).map(|_| random_shape(rng, depth - 1)).collect())
}

fn subtree(tree: &Tree, root: NodeId) -> Vec<NodeId> {
    let mut out = vec![root];
    let mut i = 0;
    while i < out.len() {
        out.extend(tree.children(out[i]));
        i += 1;
    }
    out
}

/// Every check that must hold for one tree and one set of conventions.
fn check(tree: &Tree, shape: &Shape, options: Options, seed: u64) {
    let truth = minimax(tree);
    assert_eq!(
        truth.value,
        naive(shape, tree.root_player()),
        "seed {seed}: minimax differs from the naive reference"
    );
    let ab = alpha_beta(tree, options);
    assert_eq!(
        ab.value, truth.value,
        "seed {seed} {options:?}: alpha-beta value"
    );
    assert_eq!(
        ab.bound(tree.root()),
        Some(Bound::Exact(truth.value)),
        "seed {seed}: the root is exact"
    );

    // Evaluated leaves and leaves under pruned branches partition the leaves.
    let mut pruned_leaves: Vec<NodeId> = ab
        .pruned
        .iter()
        .flat_map(|&p| subtree(tree, p))
        .filter(|&n| tree.leaf(n).is_some())
        .collect();
    let mut all: Vec<NodeId> = ab.evaluated.clone();
    all.append(&mut pruned_leaves);
    all.sort_unstable();
    let leaves: Vec<NodeId> = tree.leaves().collect();
    assert_eq!(
        all, leaves,
        "seed {seed} {options:?}: evaluated + pruned leaves must be every leaf, once"
    );

    // Unexamined = everything under the pruned roots = every node without a bound.
    let mut under: Vec<NodeId> = ab.pruned.iter().flat_map(|&p| subtree(tree, p)).collect();
    under.sort_unstable();
    assert_eq!(under, ab.unexamined(tree), "seed {seed}");
    let unbounded: Vec<NodeId> = tree.ids().filter(|&id| ab.bound(id).is_none()).collect();
    assert_eq!(unbounded, ab.unexamined(tree), "seed {seed}");

    // Every reported bound is true of the real minimax value.
    for id in tree.ids() {
        if let Some(b) = ab.bound(id) {
            assert!(
                b.admits(truth.of(tree, id)),
                "seed {seed} {options:?}: {} reported {b} but is {}",
                tree.label(id),
                truth.of(tree, id)
            );
        }
    }

    // Every cut is of the right type and its cause really satisfies the cut condition.
    for cut in &ab.cuts {
        let (at_player, by_player) = match cut.kind {
            CutKind::Alpha => (Player::Min, Player::Max),
            CutKind::Beta => (Player::Max, Player::Min),
        };
        assert_eq!(tree.player(cut.at), at_player, "seed {seed}");
        // No cause is the initial window, which then counts.
        assert!(cut.by.is_some() || options.initial_window_counts);
        if let Some(by) = cut.by {
            assert_eq!(tree.player(by), by_player, "seed {seed}");
            let mut anc = tree.parent(cut.at);
            while anc.is_some_and(|a| a != by) {
                anc = tree.parent(anc.unwrap());
            }
            assert_eq!(anc, Some(by), "seed {seed}: the cause is an ancestor");
        }
        let holds = match (cut.kind, options.prune_on_equal) {
            (CutKind::Alpha, true) => cut.at_bound <= cut.by_bound,
            (CutKind::Alpha, false) => cut.at_bound < cut.by_bound,
            (CutKind::Beta, true) => cut.at_bound >= cut.by_bound,
            (CutKind::Beta, false) => cut.at_bound > cut.by_bound,
        };
        assert!(holds, "seed {seed}: cut condition");
        assert!(!cut.pruned.is_empty());
    }
}

#[test]
fn alpha_beta_agrees_with_minimax_on_ten_thousand_random_trees() {
    let mut cuts = 0usize;
    for seed in 0..10_000u64 {
        let mut rng = Rng::from_seed(seed);
        let depth = rng.between(1, 5) as u32;
        let shape = match random_shape(&mut rng, depth) {
            leaf @ Shape::Leaf(_) => Shape::Inner(vec![leaf]),
            inner => inner,
        };
        let root = if rng.percent(50) {
            Player::Max
        } else {
            Player::Min
        };
        let tree = Tree::from_shape(&shape, root, None).unwrap();
        for options in super::procedures::every_options() {
            check(&tree, &shape, options, seed);
        }
        for order in [Order::LeftToRight, Order::RightToLeft] {
            // With prune-on-equal, fail-hard and fail-soft cut exactly the same nodes.
            let hard = alpha_beta(
                &tree,
                Options {
                    order,
                    ..Options::default()
                },
            );
            let soft = alpha_beta(
                &tree,
                Options {
                    order,
                    values: ValueMode::FailSoft,
                    ..Options::default()
                },
            );
            assert_eq!(
                (&hard.evaluated, &hard.pruned),
                (&soft.evaluated, &soft.pruned),
                "seed {seed}"
            );
        }
        cuts += alpha_beta(&tree, Options::default()).cuts.len();
    }
    // The trees must be interesting: a test over trees without cuts would prove little.
    assert!(cuts > 10_000, "only {cuts} cuts in 10,000 trees");
}

/// The value of `id` by recursion over the tree: the reference for every node.
fn naive_at(tree: &Tree, id: NodeId) -> Value {
    match tree.leaf(id) {
        Some(v) => v,
        None => {
            let values = tree.children(id).map(|c| naive_at(tree, c));
            if tree.player(id) == Player::Max {
                values.max().unwrap()
            } else {
                values.min().unwrap()
            }
        }
    }
}

/// The shape with every infinity turned into a whole number.
fn whole(shape: &Shape) -> Shape {
    match shape {
        Shape::Leaf(Value::PosInf) => Shape::Leaf(Value::Finite(9)),
        Shape::Leaf(Value::NegInf) => Shape::Leaf(Value::Finite(-9)),
        Shape::Leaf(v) => Shape::Leaf(*v),
        Shape::Inner(children) => Shape::Inner(children.iter().map(whole).collect()),
    }
}

/// `minimax` gives every node its value, on trees with infinities (compared
/// as values) and on the same trees in whole numbers (compared as `i64`).
#[test]
fn minimax_values_every_node_as_recursion_does() {
    let mut whole_trees = 0;
    for seed in 0..3_000u64 {
        let mut rng = Rng::from_seed(seed);
        let depth = rng.between(1, 5) as u32;
        let shape = random_shape(&mut rng, depth);
        for shape in [shape.clone(), whole(&shape)] {
            for root in [Player::Max, Player::Min] {
                let tree = Tree::from_shape(&shape, root, None).unwrap();
                let mm = minimax(&tree);
                let naive: Vec<Value> = tree.ids().map(|id| naive_at(&tree, id)).collect();
                let got: Vec<Value> = tree.ids().map(|id| mm.of(&tree, id)).collect();
                assert_eq!(got, naive, "seed {seed}, {root:?}");
                assert!(
                    mm.fits(&tree),
                    "seed {seed}: a value for each node above the deepest level"
                );
                assert_eq!(mm.value, naive[0]);
                whole_trees += usize::from(shape == whole(&shape));
            }
        }
    }
    assert!(whole_trees >= 6_000, "{whole_trees}");
}

#[test]
fn prune_on_equal_never_examines_more() {
    for seed in 0..2_000u64 {
        let mut rng = Rng::from_seed(seed);
        let shape = random_shape(&mut rng, 4);
        if matches!(shape, Shape::Leaf(_)) {
            continue;
        }
        let tree = Tree::from_shape(&shape, Player::Max, None).unwrap();
        let strict = alpha_beta(
            &tree,
            Options {
                prune_on_equal: false,
                ..Options::default()
            },
        );
        let equal = alpha_beta(&tree, Options::default());
        assert!(
            equal.evaluated.len() <= strict.evaluated.len(),
            "seed {seed}"
        );
    }
}

/// A uniform tree whose first child is always the best (Knuth & Moore's perfect ordering).
/// Leaf value: sum over levels of ±(child index)·B^(levels below), `-` under MAX
/// (so the leftmost child is largest) and `+` under MIN; B = b + 1 keeps levels apart.
fn perfectly_ordered(b: u32, d: u32) -> Tree {
    let base = i64::from(b) + 1;
    let mut paths: Vec<Vec<u32>> = vec![vec![]];
    for _ in 0..d {
        paths = paths
            .into_iter()
            .flat_map(|p| (0..b).map(move |c| [p.clone(), vec![c]].concat()))
            .collect();
    }
    let values: Vec<i64> = paths
        .iter()
        .map(|path| {
            path.iter()
                .enumerate()
                .map(|(level, &c)| {
                    let sign = if level % 2 == 0 { -1 } else { 1 };
                    sign * i64::from(c) * base.pow(d - 1 - level as u32)
                })
                .sum()
        })
        .collect();
    let mut leaf = values.into_iter();
    Tree::build_levels(Player::Max, |depth| {
        if depth < d as usize {
            treequiz::gametree::Grow::Children(b)
        } else {
            treequiz::gametree::Grow::Leaf(Value::Finite(leaf.next().unwrap()))
        }
    })
    .unwrap()
}

#[test]
fn knuth_moore_minimal_tree_on_perfect_ordering() {
    for (b, d) in [
        (2, 1),
        (2, 2),
        (2, 3),
        (2, 4),
        (2, 5),
        (2, 6),
        (3, 2),
        (3, 3),
        (3, 4),
        (3, 5),
        (4, 3),
        (4, 4),
        (5, 3),
        (6, 2),
    ] {
        let tree = perfectly_ordered(b, d);
        let mm = minimax(&tree);
        // The ordering really is perfect: every node's first child carries its value, uniquely.
        for id in tree.ids().filter(|&id| tree.leaf(id).is_none()) {
            let first = tree.children(id).next().unwrap();
            assert_eq!(mm.of(&tree, first), mm.of(&tree, id));
            assert_eq!(
                tree.children(id)
                    .filter(|&c| mm.of(&tree, c) == mm.of(&tree, id))
                    .count(),
                1
            );
        }
        let expected = b.pow(d.div_ceil(2)) + b.pow(d / 2) - 1;
        for values in [ValueMode::FailHard, ValueMode::FailSoft] {
            let ab = alpha_beta(
                &tree,
                Options {
                    values,
                    ..Options::default()
                },
            );
            assert_eq!(
                ab.evaluated.len() as u32,
                expected,
                "b = {b}, d = {d}, {values:?}"
            );
        }
        // With distinct values, strict pruning reaches the same minimum when bounds
        // stay tight (fail-soft); fail-hard's widened bounds can tie and cost leaves.
        let strict = alpha_beta(
            &tree,
            Options {
                prune_on_equal: false,
                values: ValueMode::FailSoft,
                ..Options::default()
            },
        );
        assert_eq!(
            strict.evaluated.len() as u32,
            expected,
            "b = {b}, d = {d}, strict"
        );
    }
}
