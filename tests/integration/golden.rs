//! Golden tests: seed → instance is pinned for each generator.

use treequiz::andor::{self, CostModel};
use treequiz::gametree::{self, Player};
use treequiz::instance::Instance;

#[test]
fn game_tree_seeds_are_pinned() {
    let default = gametree::generate::generate(&gametree::generate::Params::default(), 7).unwrap();
    insta::assert_snapshot!("game_tree_seed_7", Instance::GameTree(default).to_toml());
    let params = gametree::generate::Params {
        depth: 4,
        branching: (2, 2),
        values: (-9, 9),
        root: Player::Min,
        distinct: true,
        min_cuts: Some(3),
        unique_best: true,
        ..Default::default()
    };
    let tree = gametree::generate::generate(&params, 2026).unwrap();
    insta::assert_snapshot!(
        "game_tree_seed_2026_constrained",
        Instance::GameTree(tree).to_toml()
    );
}

#[test]
fn and_or_seeds_are_pinned() {
    let default = andor::generate::generate(&andor::generate::Params::default(), 7).unwrap();
    insta::assert_snapshot!("and_or_seed_7", Instance::AndOr(default).to_toml());
    let params = andor::generate::Params {
        depth: 3,
        alternatives: (2, 2),
        arity: (1, 3),
        model: CostModel::Max,
        arc_costs: (1, 3),
        shared_percent: 20,
        dead_end_percent: 20,
        min_switches: Some(1),
        min_expansions: Some(5),
        ..Default::default()
    };
    let graph = andor::generate::generate(&params, 2026).unwrap();
    insta::assert_snapshot!(
        "and_or_seed_2026_constrained",
        Instance::AndOr(graph).to_json()
    );
}

#[test]
fn sampled_instances_read_back_unchanged() {
    for seed in 0..200 {
        let tree =
            gametree::generate::generate(&gametree::generate::Params::default(), seed).unwrap();
        let graph = andor::generate::generate(
            &andor::generate::Params {
                shared_percent: 30,
                ..Default::default()
            },
            seed,
        )
        .unwrap();
        let ttt = treequiz::games::tictactoe::generate(&Default::default(), seed).unwrap();
        let othello = treequiz::games::othello::generate(
            &treequiz::games::othello::Params {
                search: treequiz::games::lookahead::Search::plies(2),
                ..Default::default()
            },
            seed,
        )
        .unwrap();
        for instance in [
            Instance::GameTree(tree),
            Instance::AndOr(graph),
            Instance::TicTacToe(ttt),
            Instance::Othello(Box::new(othello)),
        ] {
            for (text, path) in [
                (instance.to_toml(), "x.toml"),
                (instance.to_json(), "x.json"),
            ] {
                let source = treequiz::input::Source {
                    path: path.into(),
                    text: text.clone(),
                };
                let back = treequiz::instance::parse(&source)
                    .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
                let again = if path.ends_with("json") {
                    back.to_json()
                } else {
                    back.to_toml()
                };
                assert_eq!(again, text, "seed {seed}");
            }
        }
    }
}
