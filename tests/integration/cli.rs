//! The command line: `solve` and `sample`, good files and bad ones.

use std::path::Path;

fn fixtures() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures"))
}

/// Runs treequiz in the fixtures folder; returns (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    crate::common::run_in(fixtures(), args)
}

#[test]
fn solve_prints_the_aima_answer() {
    let (code, out, err) = run(&["solve", "good/aima-5-2.toml"]);
    assert_eq!((code, err.as_str()), (0, ""));
    insta::assert_snapshot!("solve_aima_text", out);
    let (code, out, _) = run(&["solve", "good/aima-5-2.toml", "--json"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["kind"], "game-tree");
    assert_eq!(json["minimax"]["value"], 3);
    assert_eq!(json["minimax"]["values"]["C"], 2);
    assert_eq!(json["minimax"]["best_moves"], serde_json::json!(["B"]));
    assert_eq!(
        json["alpha_beta"]["evaluated"],
        serde_json::json!(["E", "F", "G", "H", "K", "L", "M"])
    );
    assert_eq!(json["alpha_beta"]["pruned"], serde_json::json!(["I", "J"]));
    assert_eq!(json["alpha_beta"]["cuts"][0]["at"], "C");
    assert_eq!(json["alpha_beta"]["cuts"][0]["type"], "alpha");
    assert_eq!(json["alpha_beta"]["cuts"][0]["by"], "A");
}

#[test]
fn solve_options_change_the_alpha_beta_answer() {
    let (_, out, _) = run(&["solve", "good/aima-5-2.toml", "--json", "--order", "rtl"]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["alpha_beta"]["conventions"]["order"], "right-to-left");
    assert_eq!(json["alpha_beta"]["cuts"], serde_json::json!([]));
    let (_, out, _) = run(&[
        "solve",
        "good/aima-5-2.toml",
        "--json",
        "--no-prune-on-equal",
        "--fail-soft",
    ]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["alpha_beta"]["conventions"]["prune_on_equal"], false);
    assert_eq!(json["alpha_beta"]["conventions"]["values"], "fail-soft");
}

#[test]
fn solve_explains_an_and_or_graph() {
    let (code, out, err) = run(&["solve", "good/and-or.toml"]);
    assert_eq!((code, err.as_str()), (0, ""));
    insta::assert_snapshot!("solve_and_or_text", out);
    let (code, out, _) = run(&["solve", "good/and-or.toml", "--json"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["kind"], "and-or-graph");
    assert_eq!(json["solvable"]["X"], false);
    assert_eq!(json["solvable"]["S"], true);
    assert_eq!(json["optimal"]["cost"], json["ao_star"]["cost"]);
    assert_eq!(json["ao_star"]["solved"], true);
    insta::assert_snapshot!("solve_and_or_json", out);
}

#[test]
fn solve_searches_tic_tac_toe_and_othello_positions() {
    let (code, out, err) = run(&["solve", "good/tictactoe.toml"]);
    assert_eq!((code, err.as_str()), (0, ""));
    insta::assert_snapshot!("solve_tictactoe_text", out);
    let (_, out, _) = run(&["solve", "good/tictactoe.toml", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    // X in the centre, O in a corner: 5 open lines for X, 4 for O.
    assert_eq!(json["kind"], "tictactoe");
    assert_eq!(json["eval"], 1);
    let moves: Vec<(String, i64)> = json["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap().to_string(),
                m["value"].as_i64().unwrap(),
            )
        })
        .collect();
    // Symmetric moves merged: b1~a2, c1~a3, c2~b3; c3 is on the diagonal through a1.
    let names: Vec<&str> = moves.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(names, ["b1", "c1", "c2", "c3"]);
    let best = moves.iter().map(|(_, v)| *v).max().unwrap();
    let expected: Vec<&str> = moves
        .iter()
        .filter(|(_, v)| *v == best)
        .map(|(m, _)| m.as_str())
        .collect();
    assert_eq!(json["best_moves"], serde_json::json!(expected));
    let (_, out, _) = run(&["solve", "good/othello.toml", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["kind"], "othello");
    assert_eq!(json["eval"], 0);
    let legal: Vec<&str> = json["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(legal, ["d3", "c4", "f5", "e6"]);
    assert_eq!(json["moves"].as_array().unwrap().len(), 4);
    assert_eq!(
        json["best_moves"],
        serde_json::json!(["d3", "c4", "f5", "e6"])
    );
}

#[test]
fn solve_plays_grundys_game() {
    let (code, out, err) = run(&["solve", "good/grundy-7.toml"]);
    assert_eq!((code, err.as_str()), (0, ""));
    insta::assert_snapshot!("solve_grundy_text", out);
    let (_, out, _) = run(&["solve", "good/grundy-7.toml", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["kind"], "grundy");
    assert_eq!(json["winner"], "MAX");
    assert_eq!(
        json["first_moves"][0],
        serde_json::json!({ "to": "(6,1)", "wins_for": "MAX" })
    );
}

#[test]
fn solve_reads_json_instances() {
    let (code, out, err) = run(&["solve", "good/and-or.json", "--json"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["model"], "max");
    // Max cost: S -> B + t2 costs max(2 + 1, 1 + 0) = 3 with B -> t1 = 1; S -> A costs 1 + 4 = 5.
    assert_eq!(json["optimal"]["cost"], 3);
}

#[test]
fn sample_output_solves() {
    let dir = std::env::temp_dir().join(format!("treequiz-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (kind, ext, flag) in [
        ("game-tree", "toml", "--toml"),
        ("and-or-graph", "toml", "--toml"),
        ("game-tree", "json", "--json"),
        ("and-or-graph", "json", "--json"),
        ("tictactoe", "toml", "--toml"),
        ("othello", "json", "--json"),
    ] {
        let (code, sampled, err) = run(&["sample", kind, "--seed", "7", flag]);
        assert_eq!((code, err.as_str()), (0, ""));
        let file = dir.join(format!("{kind}.{ext}"));
        std::fs::write(&file, &sampled).unwrap();
        let (code, out, err) = run(&["solve", file.to_str().unwrap()]);
        assert_eq!((code, err.as_str()), (0, ""), "{sampled}");
        assert!(!out.is_empty());
        // Same seed, same bytes.
        assert_eq!(run(&["sample", kind, "--seed", "7", flag]).1, sampled);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sample_refuses_impossible_requests() {
    let cases: &[(&str, &[&str])] = &[
        (
            "too_large",
            &[
                "sample",
                "game-tree",
                "--seed",
                "1",
                "--depth",
                "40",
                "--branching",
                "10",
            ],
        ),
        (
            "impossible_cuts",
            &[
                "sample",
                "game-tree",
                "--seed",
                "1",
                "--depth",
                "1",
                "--branching",
                "2",
                "--min-cuts",
                "5",
            ],
        ),
        (
            "unsatisfiable_cuts",
            &[
                "sample",
                "game-tree",
                "--seed",
                "1",
                "--depth",
                "2",
                "--branching",
                "2",
                "--min-cuts",
                "3",
            ],
        ),
        (
            "unreachable_size",
            &["sample", "and-or-graph", "--seed", "1", "--nodes", "1"],
        ),
        (
            "othello_too_late",
            &["sample", "othello", "--seed", "1", "--plies", "70"],
        ),
        (
            "tictactoe_work_limit",
            &[
                "sample",
                "tictactoe",
                "--seed",
                "1",
                "--marks",
                "0",
                "--depth",
                "9",
                "--no-symmetry",
                "--min-cuts",
                "1000000",
            ],
        ),
        (
            "tictactoe_cuts_on_one_ply",
            &[
                "sample",
                "tictactoe",
                "--seed",
                "1",
                "--depth",
                "1",
                "--min-cuts",
                "1",
            ],
        ),
        (
            "distinct_needs_range",
            &[
                "sample",
                "game-tree",
                "--seed",
                "1",
                "--depth",
                "3",
                "--branching",
                "3",
                "--values",
                "0..5",
                "--distinct",
            ],
        ),
        (
            "bad_range",
            &["sample", "and-or-graph", "--seed", "1", "--arity", "3..1"],
        ),
    ];
    for (name, args) in cases {
        let (code, out, err) = run(args);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(out.is_empty());
        assert!(!err.contains("panicked"), "{err}");
        insta::assert_snapshot!(format!("sample_error_{name}"), err);
    }
}

/// Every bad file: exit code 2, nothing on stdout, a message with the file's
/// name and (for TOML) line and column, and a hint.
#[test]
fn bad_files_get_positioned_messages() {
    let mut names: Vec<String> = std::fs::read_dir(fixtures().join("bad"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert!(names.len() >= 15);
    for name in names {
        let path = format!("bad/{name}");
        let (code, out, err) = run(&["solve", &path]);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(out.is_empty(), "{name}");
        assert!(!err.contains("panicked"), "{name}: {err}");
        assert!(
            err.contains(&path),
            "{name}: the message names the file\n{err}"
        );
        if name.ends_with(".toml") {
            assert!(
                err.contains(&format!("{path}:")),
                "{name}: the message has line:column\n{err}"
            );
        }
        assert!(
            err.contains("hint:"),
            "{name}: the message has a hint\n{err}"
        );
        insta::assert_snapshot!(format!("bad_{}", name.replace('.', "_")), err);
    }
}

#[test]
fn unreadable_files_are_refused_cleanly() {
    let dir = std::env::temp_dir().join(format!("treequiz-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let latin1 = dir.join("latin1.toml");
    std::fs::write(&latin1, b"kind = \"game-tree\"\n# caf\xe9\ntree = [[1]]\n").unwrap();
    let (code, _, err) = run(&["solve", latin1.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("not UTF-8") && err.contains(":2:6"), "{err}");

    let deep = dir.join("deep.toml");
    std::fs::write(
        &deep,
        format!(
            "kind = \"game-tree\"\ntree = {}1{}\n",
            "[".repeat(70),
            "]".repeat(70)
        ),
    )
    .unwrap();
    let (code, _, err) = run(&["solve", deep.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("deeper than 64") && !err.contains("panicked"),
        "{err}"
    );

    let wide = dir.join("wide.toml");
    std::fs::write(
        &wide,
        format!(
            "kind = \"game-tree\"\ntree = [{}0]\n",
            "0,".repeat(1_000_000)
        ),
    )
    .unwrap();
    let (code, _, err) = run(&["solve", wide.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("more than 1000000 nodes") && err.contains(":2:8"),
        "{err}"
    );

    // A chain of 100,000 nodes: AO* would trace about 5·10⁹ revisions.
    let chain = dir.join("chain.toml");
    let n = 100_000;
    let connectors: Vec<String> = (0..n - 1)
        .map(|i| format!("{{ from = \"n{i}\", to = [\"n{}\"] }}", i + 1))
        .collect();
    let nodes: Vec<String> = (0..n).map(|i| format!("n{i} = 0")).collect();
    let text = format!(
        "kind = \"and-or-graph\"\nstart = \"n0\"\nterminal = [\"n{}\"]\nconnectors = [{}]\n[nodes]\n{}\n",
        n - 1,
        connectors.join(", "),
        nodes.join("\n")
    );
    std::fs::write(&chain, text).unwrap();
    let (code, _, err) = run(&["solve", chain.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("too many for a worked answer"), "{err}");

    let big = dir.join("big.toml");
    std::fs::write(&big, vec![b'#'; 9 * 1024 * 1024]).unwrap();
    let (code, _, err) = run(&["solve", big.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("larger than 8 MiB"), "{err}");

    let (code, _, err) = run(&["solve", "no/such/file.toml"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no/such/file.toml") && err.contains("cannot open"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Random edits of good files: parsing and solving never panic, whatever the bytes.
#[test]
fn mangled_files_never_panic() {
    use treequiz::instance::{Instance, parse};
    let originals: Vec<String> = [
        "good/aima-5-2.toml",
        "good/and-or.toml",
        "good/and-or.json",
        "good/tictactoe.toml",
        "good/othello.toml",
    ]
    .iter()
    .map(|p| std::fs::read_to_string(fixtures().join(p)).unwrap())
    .collect();
    let alphabet: Vec<char> = "[]{}\",=.-+0123456789 \nabcnt#'_xé∞XOBW/".chars().collect();
    let text = |seed: u64| {
        let mut rng = treequiz::rng::Rng::from_seed(seed);
        let original = &originals[rng.below(originals.len() as u64) as usize];
        crate::common::mangle(original, &mut rng, &alphabet, (1, 4))
    };
    // 20,000 seeded cases (TREEQUIZ_FUZZ_CASES sets another count); a failure names its seed.
    let parsed = crate::common::never_panics("instance files", 20_000, text, |seed| {
        let source = treequiz::input::Source {
            path: "m.toml".into(),
            text: text(seed),
        };
        let Ok(instance) = parse(&source) else {
            return false;
        };
        match instance {
            Instance::GameTree(t) => {
                let _ = treequiz::gametree::alpha_beta(&t, Default::default());
            }
            Instance::AndOr(g) => {
                let _ = treequiz::andor::ao_star(&g, Default::default());
            }
            Instance::Grundy { coins, first } => {
                let _ = treequiz::games::grundy::solve(coins, first);
            }
            other => {
                let t = other.game_tree().expect("a game has a lookahead tree");
                let _ = treequiz::gametree::alpha_beta(&t, Default::default());
            }
        }
        true
    });
    assert!(
        parsed > 1_000,
        "the edits should leave many files valid, got {parsed}"
    );
}
