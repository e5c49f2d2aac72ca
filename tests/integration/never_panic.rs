//! Seeded never-panic tests for the readers a teacher feeds: problem sets,
//! rosters and template folders (instance files: `cli::mangled_files_never_panic`;
//! answer files: `grading::random_input_never_panics_the_grader`). Each runs a
//! fixed number of cases, `TREEQUIZ_FUZZ_CASES` sets another; a failure names
//! its seed, which alone reproduces the case.

use std::path::{Path, PathBuf};

use treequiz::input::Source;
use treequiz::rng::{Master, Rng};

use crate::common::{mangle, never_panics, scratch};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn tomls(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    out.sort();
    out
}

/// The shipped sets and the refused ones of tests/fixtures/bad-sets, a few
/// characters edited, through `problem_set::parse`; a set that still parses is
/// made into its practice variant when its exercises are small.
#[test]
fn mangled_problem_sets_never_panic() {
    let read = |dir: &str| -> Vec<(PathBuf, String)> {
        tomls(&root().join(dir))
            .into_iter()
            .map(|p| {
                let text = std::fs::read_to_string(&p).unwrap();
                (p, text)
            })
            .collect()
    };
    let (shipped, refused) = (read("problem-sets"), read("tests/fixtures/bad-sets"));
    assert!(shipped.len() >= 5 && refused.len() > 10);
    let alphabet: Vec<char> = "[]{}\",=.-+0123456789 \n#'_é∞abcdefghijklmnoprstuvxyz"
        .chars()
        .collect();
    let case = |seed: u64| {
        let mut rng = Rng::from_seed(seed);
        // Two cases in three edit a shipped set (most of them still parse).
        let from = if rng.below(3) < 2 { &shipped } else { &refused };
        let (path, original) = &from[rng.below(from.len() as u64) as usize];
        (path, mangle(original, &mut rng, &alphabet, (1, 3)))
    };
    let built = std::sync::atomic::AtomicU64::new(0);
    let parsed = never_panics(
        "problem sets",
        6_000,
        |seed| {
            let (path, text) = case(seed);
            format!("{} edited:\n{text}", path.display())
        },
        |seed| {
            let (path, text) = case(seed);
            let source = Source {
                path: "m.toml".into(),
                text,
            };
            let Ok(set) = treequiz::problem_set::parse(&source, path.parent().unwrap()) else {
                return false;
            };
            // Building costs a generator run per exercise: every 4th parsed set.
            if seed.is_multiple_of(4)
                && treequiz::class_set::build(&set, &Master::from_seed(seed), &[]).is_ok()
            {
                built.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            true
        },
    );
    let built = built.into_inner();
    assert!(
        parsed > 500 && built > 50,
        "the edits should leave many sets valid: {parsed} parsed, {built} built"
    );
}

/// Rosters with a few characters edited through `roster::parse`.
#[test]
fn mangled_rosters_never_panic() {
    let originals = [
        "id,name\n2026001,Ada Lovelace\n2026002,\"Li, Wei\"\n../../evil,Mallory\n",
        "name,ID\n\"Li, Wei\",s1\nAda,s2\n\n",
        "\u{feff}id;name\r\ns1;张三\r\ns2;李四\r\n",
        "id\ns1\ns2\ns3\nCOM1\nkeys\n",
        "\"id\",\"name\",\"email\"\n\"a\"\"b\",\"x\",y@z\n,\n",
        "\u{feff}\"First name\",\"Last name\",\"ID number\",\"Email address\"\r\nAda,Lovelace,2026001,ada@x.org\r\n伟,李,2026002,li@x.org\r\n",
        "Student,ID,SIS User ID,SIS Login ID,Section,Quiz (12)\n\"    Points Possible\",,,,,10.00\n\"Lovelace, Ada\",101,2026001,ada,A1,9\n",
        "sep=;\nid;name\ns1;Ada\n",
        "学号\t姓名\n2026001\t张三\n",
    ];
    let alphabet: Vec<char> = ",;\"\n\r\t .-_/id name0123456789éK\u{feff}"
        .chars()
        .collect();
    let case = |seed: u64| {
        let mut rng = Rng::from_seed(seed);
        let original = originals[rng.below(originals.len() as u64) as usize];
        mangle(original, &mut rng, &alphabet, (1, 8))
    };
    // Every third case with columns chosen as a teacher might (some not there).
    let columns = |seed: u64| {
        let pick = |n: u64, of: &[&str]| of[(n % of.len() as u64) as usize].to_string();
        match seed % 3 {
            0 => treequiz::roster::Columns::default(),
            1 => treequiz::roster::Columns {
                id: Some(pick(
                    seed / 3,
                    &["id", "2", "ID number", "SIS User ID", "0", "99", ""],
                )),
                name: Vec::new(),
            },
            _ => treequiz::roster::Columns {
                id: None,
                name: vec![
                    pick(seed / 3, &["First name", "name", "1", "Student"]),
                    pick(seed / 7, &["Last name", "姓名", "x"]),
                ],
            },
        }
    };
    let read = never_panics("rosters", 100_000, case, |seed| {
        treequiz::roster::parse_with(
            &Source {
                path: "class.csv".into(),
                text: case(seed),
            },
            &columns(seed),
        )
        .is_ok()
    });
    assert!(
        read > 1_000,
        "the edits should leave many rosters valid, got {read}"
    );
}

/// A `--templates` folder holding one to three built-in templates or string
/// tables with a few characters edited: loading it and rendering every sheet,
/// feedback page and summary of the textbook set gives errors, never a panic.
#[test]
fn mangled_template_folders_never_panic() {
    let set = treequiz::problem_set::load(&root().join("problem-sets/textbook.toml")).unwrap();
    let en = treequiz::lang::Lang::builtin("en").unwrap();
    let variants = treequiz::class_set::build(&set, &Master::from_seed(set.seed), &[]).unwrap();
    let book = treequiz::grade::key::KeyBook::from_variants(&set, &variants);
    let key_toml = treequiz::render::Renderer::new(None)
        .unwrap()
        .render(
            "answer-sheet.toml",
            &treequiz::view::sheet(&set, &variants[0], &en, true, None),
        )
        .unwrap();
    let row = treequiz::grade::batch::grade_source(
        &book,
        &Source {
            path: "key.toml".into(),
            text: key_toml,
        },
        &en,
        false,
    );
    let files: Vec<(String, &str)> = treequiz::render::TEMPLATES
        .iter()
        .map(|(n, t)| (n.to_string(), *t))
        .chain(
            treequiz::lang::BUILTIN
                .iter()
                .map(|b| (format!("lang/{}.toml", b.code), b.text)),
        )
        .collect();
    let alphabet: Vec<char> = "{}%#-+|()[]\"'=., \n_abcdefghijklmnoprstuvxyz0123456789é"
        .chars()
        .collect();
    let case = |seed: u64| -> Vec<(String, String)> {
        let mut rng = Rng::from_seed(seed);
        (0..rng.between(1, 3))
            .map(|_| {
                let (name, text) = &files[rng.below(files.len() as u64) as usize];
                (name.clone(), mangle(text, &mut rng, &alphabet, (1, 2)))
            })
            .collect()
    };
    let dir = scratch("mangled-templates");
    let loaded = never_panics(
        "template folders",
        400,
        |seed| {
            case(seed)
                .iter()
                .map(|(name, text)| format!("--- {name}:\n{text}\n"))
                .collect()
        },
        |seed| {
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(dir.join("lang")).unwrap();
            for (name, text) in case(seed) {
                std::fs::write(dir.join(name), text).unwrap();
            }
            // Counted: folders that load, so that rendering is exercised too.
            let Ok(renderer) = treequiz::render::Renderer::new(Some(&dir)) else {
                return false;
            };
            for code in ["en", "zh"] {
                let Ok(lang) = renderer.lang(code) else {
                    continue;
                };
                for with_key in [false, true] {
                    let view = treequiz::view::sheet(&set, &variants[0], &lang, with_key, None);
                    for name in [
                        "worksheet.md",
                        "worksheet.html",
                        "worksheet.tex",
                        "key.md",
                        "key.html",
                        "key.tex",
                        "answer-sheet.toml",
                    ] {
                        let _ = renderer.render(name, &view);
                    }
                }
                let feedback = treequiz::grade::report::feedback_view(&row, &lang, false);
                for name in ["feedback.md", "feedback.html"] {
                    let _ = renderer.render(name, &feedback);
                }
                let summary = treequiz::grade::report::summary_view(
                    std::slice::from_ref(&row),
                    &[],
                    &lang,
                    &set.title,
                    0,
                );
                for name in ["summary.md", "summary.html"] {
                    let _ = renderer.render(name, &summary);
                }
            }
            true
        },
    );
    assert!(
        loaded > 40,
        "some edited folders should still load, got {loaded}"
    );
}

/// Public functions given bad arguments return errors, not panics.
#[test]
fn public_functions_refuse_bad_arguments_with_errors() {
    use treequiz::andor::{Connector, CostModel, Graph, GraphError, Node, NodeId, ao_star};
    let node = |label: &str, terminal: bool| Node {
        label: label.into(),
        h: 0,
        terminal,
    };
    let nodes = || vec![node("S", false), node("t", true), node("u", true)];
    let connector = |to: Vec<u32>, arcs: Option<Vec<u64>>| Connector {
        from: NodeId(0),
        to: to.into_iter().map(NodeId).collect(),
        cost: 2,
        arcs,
    };
    // A connector or start naming a node that is not there.
    assert_eq!(
        Graph::new(
            nodes(),
            vec![connector(vec![1, 7], None)],
            NodeId(0),
            CostModel::Sum
        )
        .unwrap_err(),
        GraphError::UnknownNode(7, 3)
    );
    assert_eq!(
        Graph::new(nodes(), vec![], NodeId(3), CostModel::Sum).unwrap_err(),
        GraphError::UnknownNode(3, 3)
    );
    // Arc costs that are not one per child.
    assert!(matches!(
        Graph::new(
            nodes(),
            vec![connector(vec![1, 2], Some(vec![1]))],
            NodeId(0),
            CostModel::Sum
        ),
        Err(GraphError::ArcCount {
            given: 1,
            children: 2,
            ..
        })
    ));
    // Sum and max on a graph with connector costs only: both are defined arc by arc.
    assert!(matches!(
        Graph::new(
            nodes(),
            vec![connector(vec![1, 2], None)],
            NodeId(0),
            CostModel::Sum,
        ),
        Err(GraphError::NeedsArcs(_))
    ));
    let graph = Graph::new(
        nodes(),
        vec![connector(vec![1, 2], None)],
        NodeId(0),
        CostModel::Connector,
    )
    .unwrap();
    assert!(!graph.has_arc_costs());
    for model in [CostModel::Sum, CostModel::Max] {
        assert!(matches!(
            treequiz::andor::try_optimal(&graph, model),
            Err(GraphError::NeedsArcs(_))
        ));
    }
    assert_eq!(
        treequiz::andor::try_optimal(&graph, CostModel::Connector)
            .unwrap()
            .cost
            .get(),
        Some(2)
    );
    let max = treequiz::andor::ao_star::Options {
        model: Some(CostModel::Max),
        ..Default::default()
    };
    assert!(matches!(
        treequiz::andor::try_ao_star(&graph, max),
        Err(GraphError::NeedsArcs(_))
    ));
    assert_eq!(
        treequiz::andor::try_ao_star(&graph, Default::default())
            .unwrap()
            .cost,
        ao_star(&graph, Default::default()).cost
    );
    let c = treequiz::andor::ConnectorId(0);
    assert!(
        graph
            .try_connector_cost(c, CostModel::Max, |_| treequiz::andor::Cost::ZERO)
            .is_err()
    );
    // A cell off the tic-tac-toe board holds nothing.
    let board = treequiz::games::tictactoe::Board::empty();
    assert_eq!(board.get(9), None);
    assert_eq!(board.get(usize::MAX), None);
    // A tree built level by level with an inner node of no children.
    use treequiz::gametree::{Grow, Tree, TreeError};
    let empty = Tree::build_levels(treequiz::gametree::Player::Max, |depth| {
        if depth == 0 {
            Grow::Children(0)
        } else {
            Grow::Leaf(treequiz::value::Value::Finite(1))
        }
    });
    assert_eq!(empty.unwrap_err(), TreeError::EmptyNode);
    // Grundy's game past the coins any memory holds.
    use treequiz::games::grundy::{MAX_COINS, try_solve};
    use treequiz::gametree::Player;
    assert!(try_solve(u32::MAX, Player::Max).is_err());
    assert!(try_solve(MAX_COINS + 1, Player::Min).is_err());
    assert_eq!(try_solve(7, Player::Min).unwrap().winner(), Player::Max);
    // Square names and board figures of any width: no division by zero, no
    // letters past `z` wrapping into punctuation.
    use treequiz::games::square_name;
    assert_eq!(
        (square_name(3, 4), square_name(8, 19)),
        ("b2".into(), "d3".into())
    );
    assert_eq!(square_name(0, 5), "a6");
    assert_eq!(square_name(30, 27), "ab1");
    use treequiz::draw::{Square, board_figure};
    let squares = vec![Square::Cross; 5];
    assert!(board_figure(0, 5.0, &squares).items.len() <= 2);
    let wide = board_figure(30, 5.0, &squares);
    assert!(wide.width > 150.0);
}

/// Random connectors, cycles and all: a graph is built or refused, never a panic,
/// and a refused cycle names a real one.
#[test]
fn random_connectors_build_a_graph_or_name_the_cycle() {
    use treequiz::andor::{Connector, CostModel, Graph, GraphError, Node, NodeId};
    let mut cycles = 0;
    for seed in 0..5_000u64 {
        let mut rng = treequiz::rng::Rng::from_seed(seed);
        let n = rng.between(2, 7) as u32;
        let nodes: Vec<Node> = (0..n)
            .map(|i| Node {
                label: format!("n{i}"),
                h: 1,
                terminal: false,
            })
            .collect();
        let connectors: Vec<Connector> = (0..rng.between(1, 8))
            .map(|_| Connector {
                from: NodeId(rng.below(u64::from(n)) as u32),
                to: (0..rng.between(1, 3))
                    .map(|_| NodeId(rng.below(u64::from(n)) as u32))
                    .collect(),
                cost: 1,
                arcs: None,
            })
            .collect();
        if let Err(GraphError::Cycle(names, c)) =
            Graph::new(nodes, connectors.clone(), NodeId(0), CostModel::Connector)
        {
            {
                cycles += 1;
                // Each step of the named cycle is a connector of the graph.
                let steps: Vec<&str> = names.split(" -> ").collect();
                assert_eq!(steps.first(), steps.last(), "seed {seed}: {names}");
                for w in steps.windows(2) {
                    assert!(
                        connectors.iter().any(|k| format!("n{}", k.from.0) == w[0]
                            && k.to.iter().any(|t| format!("n{}", t.0) == w[1])),
                        "seed {seed}: {names}"
                    );
                }
                assert!(c.index() < connectors.len());
            }
        }
    }
    assert!(cycles > 500, "only {cycles} cyclic graphs");
}
