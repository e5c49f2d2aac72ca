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

/// A game tree searched under a node budget: the tree, its estimates and
/// the budget that makes its point, pinned, and read back unchanged.
#[test]
fn budget_tree_seeds_are_pinned() {
    use treequiz::games::budget_tree;
    use treequiz::games::lookahead::Budgets;
    let tree = gametree::generate::Params {
        depth: 3,
        branching: (2, 3),
        ..Default::default()
    };
    let budget = budget_tree::Params {
        tree: tree.clone(),
        budgets: Budgets {
            budget: Some((6, 12)),
            deepening: None,
        },
    };
    let deepening = budget_tree::Params {
        tree,
        budgets: Budgets {
            budget: None,
            deepening: Some((10, 30)),
        },
    };
    for (name, params) in [
        ("budget_tree_seed_7", budget),
        ("deepening_tree_seed_7", deepening),
    ] {
        let instance = Instance::BudgetTree(Box::new(budget_tree::generate(&params, 7).unwrap()));
        let text = instance.to_toml();
        insta::assert_snapshot!(name, text);
        let back = treequiz::instance::parse(&treequiz::input::Source {
            path: "x.toml".into(),
            text: text.clone(),
        })
        .unwrap();
        assert_eq!(back.to_toml(), text);
        assert_eq!(back.canonical(), instance.canonical());
    }
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

/// Labels no writer may mangle: a combining accent, quotes, a backslash, CJK
/// characters, an emoji.
const AWKWARD: [&str; 6] = [
    "e\u{301}",
    "say\"hi\"",
    "back\\slash",
    "漢字",
    "🎲",
    "it's\"both",
];

/// An AND/OR graph and a labelled game tree whose labels are [`AWKWARD`],
/// read from JSON written by `serde_json` (not by treequiz's writers).
fn awkward_instances() -> Vec<Instance> {
    let [a, b, c, d, e, f] = AWKWARD;
    let graph = serde_json::json!({
        "kind": "and-or-graph",
        "start": a,
        "cost": "sum",
        "nodes": { a: 2, b: 1, c: 1, d: 0, e: 0, f: 3 },
        "terminal": [d, e],
        "connectors": [
            { "from": a, "to": [b, c] },
            { "from": a, "to": [f], "costs": [2] },
            { "from": b, "to": [d] },
            { "from": c, "to": [e] },
        ],
    });
    let tree = serde_json::json!({
        "kind": "game-tree",
        "root": "min",
        "tree": [[3, 12], [2, "+inf"]],
        "labels": [a, b, c, d, e, f, "Z"],
    });
    [graph, tree]
        .iter()
        .map(|v| {
            let source = treequiz::input::Source {
                path: "x.json".into(),
                text: serde_json::to_string(v).unwrap(),
            };
            treequiz::instance::parse(&source).unwrap()
        })
        .collect()
}

#[test]
fn awkward_labels_survive_both_writers() {
    for instance in awkward_instances() {
        for (text, path) in [
            (instance.to_toml(), "x.toml"),
            (instance.to_json(), "x.json"),
        ] {
            // Not Rust's `Debug` quoting, which neither format reads.
            assert!(!text.contains("\\u{"), "{text}");
            let source = treequiz::input::Source {
                path: path.into(),
                text: text.clone(),
            };
            let back = treequiz::instance::parse(&source).unwrap_or_else(|e| panic!("{e}\n{text}"));
            let again = if path.ends_with("json") {
                back.to_json()
            } else {
                back.to_toml()
            };
            assert_eq!(again, text);
            assert_eq!(back.canonical(), instance.canonical());
        }
    }
}

#[test]
fn a_set_with_awkward_labels_renders_its_worksheet() {
    use treequiz::{class_set, problem_set, render::Renderer, rng::Master};
    let dir = crate::common::scratch("awkward");
    let [graph, tree] = <[Instance; 2]>::try_from(awkward_instances()).ok().unwrap();
    std::fs::write(dir.join("graph.toml"), graph.to_toml()).unwrap();
    std::fs::write(dir.join("tree.json"), tree.to_json()).unwrap();
    let text = "title = \"Awkward labels\"\nlanguage = \"en\"\nseed = 1\n\n\
        [[exercise]]\nkind = \"ao-star\"\npoints = 4\ninstance_file = \"graph.toml\"\n\n\
        [[exercise]]\nkind = \"minimax\"\npoints = 4\ninstance_file = \"tree.json\"\n";
    let source = treequiz::input::Source {
        path: "set.toml".into(),
        text: text.into(),
    };
    let set = problem_set::parse(&source, &dir).unwrap_or_else(|e| panic!("{e}"));
    let renderer = Renderer::new(None).unwrap();
    let lang = renderer.lang(&set.language).unwrap();
    let variants = class_set::build(&set, &Master::from_seed(1), &[]).unwrap();
    let view = treequiz::view::sheet(&set, &variants[0], &lang, false, Some(("set.toml", 1)));
    for template in [
        "worksheet.md",
        "worksheet.html",
        "worksheet.tex",
        "answer-sheet.toml",
    ] {
        let out = renderer
            .render(template, &view)
            .unwrap_or_else(|e| panic!("{template}: {e}"));
        assert!(!out.is_empty(), "{template}");
    }
    // The Markdown worksheet prints each instance as TOML, which reads back.
    let md = renderer.render("worksheet.md", &view).unwrap();
    for item in &variants[0].items {
        let toml = item.instance.to_toml();
        assert!(md.contains(&toml), "the instance is printed:\n{md}");
        let back = treequiz::instance::parse(&treequiz::input::Source {
            path: "x.toml".into(),
            text: toml.clone(),
        })
        .unwrap();
        assert_eq!(back.to_toml(), toml);
    }
    let sheet: toml::Table = renderer
        .render("answer-sheet.toml", &view)
        .unwrap()
        .parse()
        .unwrap();
    assert!(sheet.contains_key("checksum"));
}

/// The variant checksum is FNV-1a 64 over the canonical forms of the
/// variant's instances joined by `\n` (docs/class-sets.md): pinned here, so a
/// change of writer, crate or toolchain that moves it fails.
#[test]
fn variant_checksums_are_pinned() {
    use treequiz::{class_set, problem_set, rng::Master};
    // The form, on a small instance: compact JSON, keys in file order.
    let small = treequiz::instance::parse(&treequiz::input::Source {
        path: "x.toml".into(),
        text: "kind = \"game-tree\"\ntree = [[3, \"-inf\"], [2]]\nlabels = [\"A\", \"é\", \"C\", \"D\", \"E\", \"F\"]\n".into(),
    })
    .unwrap();
    let form = small.canonical();
    println!("{form}");
    assert_eq!(
        form,
        r#"{"kind":"game-tree","root":"max","tree":[[3,"-inf"],[2]],"labels":["A","é","C","D","E","F"]}"#
    );
    assert_eq!(class_set::checksum([&small]), "d973c56d8aa93bb3");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for (set, pinned) in [
        ("demo", "6cdbb4326dc4565e"),
        ("textbook", "1860c5a7da99832e"),
    ] {
        let set = problem_set::load(&root.join(format!("problem-sets/{set}.toml"))).unwrap();
        let variants = class_set::build(&set, &Master::from_seed(set.seed), &[]).unwrap();
        let instances = variants[0].items.iter().map(|i| &i.instance);
        assert_eq!(class_set::checksum(instances), variants[0].checksum);
        assert_eq!(variants[0].checksum, pinned, "{}", set.title);
    }
}
