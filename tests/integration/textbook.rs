//! Published results: AIMA Figure 5.2.

use treequiz::gametree::{Bound, CutKind, Options, alpha_beta, minimax};
use treequiz::input::Source;
use treequiz::instance::{Instance, parse};
use treequiz::value::Value;

fn tree(text: &str) -> treequiz::gametree::Tree {
    match parse(&Source {
        path: "fig.toml".into(),
        text: text.into(),
    })
    .unwrap()
    {
        Instance::GameTree(t) => t,
        _ => panic!("not a game tree"),
    }
}

/// Russell & Norvig, AIMA (3rd ed.), Figure 5.2 and the alpha-beta walk-through of Figure 5.5.
#[test]
fn aima_figure_5_2() {
    let t = tree("kind = \"game-tree\"\ntree = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]\n");
    let mm = minimax(&t);
    assert_eq!(mm.value, Value::Finite(3));
    let best: Vec<_> = mm
        .best_moves
        .iter()
        .map(|&id| t.label(id).into_owned())
        .collect();
    assert_eq!(best, ["B"]);

    let ab = alpha_beta(&t, Options::default());
    let evaluated: Vec<_> = ab
        .evaluated
        .iter()
        .map(|&id| t.label(id).into_owned())
        .collect();
    assert_eq!(evaluated, ["E", "F", "G", "H", "K", "L", "M"]);
    assert!(!evaluated.contains(&"I".to_string()) && !evaluated.contains(&"J".to_string()));
    assert_eq!(ab.cuts.len(), 1);
    let cut = &ab.cuts[0];
    assert_eq!(
        (
            t.label(cut.at).as_ref(),
            cut.kind,
            t.label(cut.by.unwrap()).as_ref()
        ),
        ("C", CutKind::Alpha, "A")
    );
    assert_eq!(
        (cut.at_bound, cut.by_bound),
        (Value::Finite(2), Value::Finite(3))
    );
    // The figure's annotations: C <= 2, D = 2 (all its leaves were seen).
    let c = t.find("C").unwrap();
    let d = t.find("D").unwrap();
    assert_eq!(ab.bound(c), Some(Bound::AtMost(Value::Finite(2))));
    assert_eq!(ab.bound(d), Some(Bound::Exact(Value::Finite(2))));
}

#[test]
fn right_to_left_order_prunes_differently() {
    let t = tree("kind = \"game-tree\"\ntree = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]\n");
    let ab = alpha_beta(
        &t,
        Options {
            order: treequiz::gametree::Order::RightToLeft,
            ..Options::default()
        },
    );
    let evaluated: Vec<_> = ab
        .evaluated
        .iter()
        .map(|&id| t.label(id).into_owned())
        .collect();
    // D first (2, 5, 14 → 2), then C: J = 6, I = 4, H = 2 (no cut: β only drops to 2 at the last leaf),
    // then B: G = 8, F = 12, E = 3.
    assert_eq!(evaluated, ["M", "L", "K", "J", "I", "H", "G", "F", "E"]);
    assert_eq!(ab.value, Value::Finite(3));
}

#[test]
fn fail_hard_and_fail_soft_differ_on_a_node_that_fails_low() {
    // A (MAX): B = [5] gives α(A) = 5. C (MIN) -> E (MAX) -> G = [1, 0], H = [2, 0] (MIN).
    // G and H are α-cut after their first leaf (1 <= 5, 2 <= 5), so E only knows E <= 2:
    // fail-soft reports that, fail-hard the α it was searched with, E <= 5.
    let t = tree("kind = \"game-tree\"\ntree = [[5], [[[1, 0], [2, 0]], 9]]\n");
    let hard = alpha_beta(
        &t,
        Options {
            values: treequiz::gametree::ValueMode::FailHard,
            ..Options::default()
        },
    );
    let soft = alpha_beta(&t, Options::default());
    let d = t.find("E").unwrap();
    assert_eq!(hard.value, Value::Finite(5));
    assert_eq!(soft.value, Value::Finite(5));
    assert_eq!(
        hard.bound(d),
        Some(Bound::AtMost(Value::Finite(5))),
        "fail-hard: the window's α"
    );
    assert_eq!(
        soft.bound(d),
        Some(Bound::AtMost(Value::Finite(2))),
        "fail-soft: the tightest bound"
    );
    // Either way C is cut before its leaf 9, and the pruning is the same.
    assert_eq!(hard.evaluated, soft.evaluated);
    assert_eq!(hard.cuts.len(), 3);
}
