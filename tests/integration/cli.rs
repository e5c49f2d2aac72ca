//! The command line: `solve` and `sample`, good files and bad ones.

use std::path::Path;

fn fixtures() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures"))
}

/// Runs treequiz in the fixtures folder; returns (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    crate::common::run_in(fixtures(), args)
}

/// The solution of one kind in `solve --json`.
fn solution<'a>(json: &'a serde_json::Value, kind: &str) -> &'a serde_json::Value {
    json["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["kind"] == kind)
        .unwrap_or_else(|| panic!("no {kind} solution in {json}"))
}

/// `solve`'s text for `file`, one snapshot per part: the instance, an AND/OR
/// graph's optimum, then each kind's solution named after the kind (in
/// `--json`'s order), so that a new kind adds a snapshot and changes none.
fn snapshot_solve(name: &str, file: &str) {
    let (code, out, err) = run(&["solve", file]);
    assert_eq!((code, err.as_str()), (0, ""));
    let (_, json, _) = run(&["solve", file, "--json"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    // An AND/OR graph's optimum comes before the kinds.
    let optimum = json.get("optimum").map(|_| "optimum");
    let kinds: Vec<&str> = optimum
        .into_iter()
        .chain(
            json["solutions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["kind"].as_str().unwrap()),
        )
        .collect();
    let mut parts = out.split("\n== ");
    insta::assert_snapshot!(format!("{name}__instance"), parts.next().unwrap());
    let parts: Vec<&str> = parts.collect();
    assert_eq!(parts.len(), kinds.len(), "{out}");
    for (kind, part) in kinds.iter().zip(parts) {
        insta::assert_snapshot!(format!("{name}__{kind}"), format!("== {part}"));
    }
}

#[test]
fn solve_prints_the_aima_answer() {
    snapshot_solve("solve_aima_text", "good/aima-5-2.toml");
    let (code, out, _) = run(&["solve", "good/aima-5-2.toml", "--json"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["instance"]["kind"], "game-tree");
    let mm = &solution(&json, "minimax")["fields"];
    assert_eq!(mm["value"], 3);
    assert_eq!(mm["values"]["C"], 2);
    assert_eq!(mm["best_move"], "B");
    let ab = solution(&json, "alpha-beta");
    assert_eq!(
        ab["fields"]["evaluated"],
        serde_json::json!(["E", "F", "G", "H", "K", "L", "M"])
    );
    assert_eq!(ab["fields"]["pruned"], serde_json::json!(["I", "J"]));
    assert_eq!(ab["fields"]["alpha_cuts"], serde_json::json!(["C"]));
    // The key as data: the cut at C (id 2) by A (id 0), as the trace records it.
    let cut = &ab["key"]["trace"]["cuts"][0];
    assert_eq!((cut["at"].as_u64(), cut["by"].as_u64()), (Some(2), Some(0)));
    assert_eq!(cut["kind"], "alpha");
}

#[test]
fn solve_options_change_the_alpha_beta_answer() {
    let (_, out, _) = run(&["solve", "good/aima-5-2.toml", "--json", "--order", "rtl"]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["conventions"]["alpha_beta"]["order"], "right-to-left");
    assert_eq!(
        solution(&json, "alpha-beta")["key"]["trace"]["cuts"],
        serde_json::json!([])
    );
    let (_, out, _) = run(&[
        "solve",
        "good/aima-5-2.toml",
        "--json",
        "--no-prune-on-equal",
        "--fail-soft",
    ]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["conventions"]["alpha_beta"]["prune_on_equal"], false);
    assert_eq!(json["conventions"]["alpha_beta"]["values"], "fail-soft");
}

#[test]
fn presets_name_the_procedure_and_options_override_them() {
    // A won position ends AIMA's search at once; the textbook rule goes on.
    let dir = super::common::scratch("presets");
    let file = dir.join("won.toml");
    std::fs::write(&file, "kind = \"game-tree\"\ntree = [\"+inf\", [2, 3]]\n").unwrap();
    let file = file.to_str().unwrap();
    let evaluated = |args: &[&str]| {
        let (code, out, err) = run(&[&["solve", file, "--json"], args].concat());
        assert_eq!(code, 0, "{err}");
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        solution(&json, "alpha-beta")["fields"]["evaluated"].clone()
    };
    assert_eq!(
        evaluated(&["--conventions", "aima"]),
        serde_json::json!(["B"])
    );
    assert_eq!(evaluated(&[]), serde_json::json!(["B", "D"]));
    assert_eq!(
        evaluated(&["--conventions", "aima", "--no-initial-window-counts"]),
        serde_json::json!(["B", "D"])
    );
    let (_, out, _) = run(&["solve", file, "--conventions", "knuth-moore"]);
    assert!(
        out.contains(
            "Alpha-beta as in Knuth & Moore's procedure F1 (1975) (conventions \"knuth-moore\")."
        ),
        "{out}"
    );
    assert!(out.contains("the initial window's β = +∞"), "{out}");
    // F1 made fail-soft is AIMA's procedure; the textbook rule made fail-hard is no preset's.
    let (_, out, _) = run(&["solve", file, "--conventions", "knuth-moore", "--fail-soft"]);
    assert!(out.contains("(conventions \"aima\")"), "{out}");
    let (_, out, _) = run(&["solve", file, "--fail-hard"]);
    assert!(out.contains("none of the presets"), "{out}");
    let (code, _, err) = run(&["solve", file, "--conventions", "aim"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean \"aima\""), "{err}");
    let (code, out, _) = run(&[
        "sample",
        "game-tree",
        "--seed",
        "3",
        "--conventions",
        "cs188",
        "depth=2",
        "min_cuts=1",
    ]);
    assert_eq!(code, 0);
    assert!(out.starts_with("kind = \"game-tree\""));

    // Loose options in a set: a warning that names the preset they are.
    let set = dir.join("set.toml");
    std::fs::write(
        &set,
        "title = \"Q\"\n[conventions]\nprune_on_equal = false\n\n[[exercise]]\nkind = \"alpha-beta\"\ndepth = 2\n",
    )
    .unwrap();
    let out_dir = dir.join("out");
    let (code, _, err) = run(&[
        "generate",
        set.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.starts_with("warning: these conventions search as the `cs188` preset"),
        "{err}"
    );
    assert!(err.contains("set.toml:2:1"), "{err}");
    let key = std::fs::read_to_string(out_dir.join("key.md")).unwrap();
    assert!(key.contains("(conventions \"cs188\")"), "{key}");
}

#[test]
fn solve_explains_an_and_or_graph() {
    snapshot_solve("solve_and_or_text", "good/and-or.toml");
    let (code, out, _) = run(&["solve", "good/and-or.toml", "--json"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["instance"]["kind"], "and-or-graph");
    let solvable = &solution(&json, "and-or-solvable")["fields"];
    assert_eq!(solvable["unsolvable"], serde_json::json!(["X"]));
    assert!(
        solvable["solvable"]
            .as_array()
            .unwrap()
            .contains(&"S".into())
    );
    let ao = solution(&json, "ao-star");
    assert_eq!(
        solution(&json, "solution-cost")["fields"]["sum_cost"],
        ao["fields"]["cost"]
    );
    assert_eq!(ao["key"]["trace"]["outcome"], "solved");
    insta::assert_snapshot!("solve_and_or_json", out);
}

/// Nilsson's example gives each connector its cost (`cost = K`): the sum and
/// max models need a cost per arc, but the connector model, the instance's
/// own, has its optimum, 5, which AO* reaches too.
#[test]
fn solve_shows_the_connector_optimum_of_nilssons_example() {
    let (code, out, err) = run(&["solve", "good/nilsson-ao-star.toml"]);
    assert_eq!(code, 0, "{err}");
    // The kind that asks the sum and max costs is refused, with why, as
    // every kind refused beside others that solve is.
    assert!(
        err.starts_with("note: good/nilsson-ao-star.toml: not solved as solution-cost: it asks the sum and max costs"),
        "{err}"
    );
    for line in [
        "== Optimal solution graph ==",
        "  · Connector cost (Nilsson)",
        "  cost (of the optimal solution graph, by the instance's own cost model): 5\n",
        "  solution (its connectors): n0 -> n4 + n5; n4 -> n8; n5 -> n7 + n8\n",
        "Sum cost and max cost are not defined here: they add a cost per arc, and n0 -> n1 gives one cost for the whole connector (`cost = 1`)",
        "  cost (the cost of the solution AO* finds): 5\n",
    ] {
        assert!(out.contains(line), "{line:?} not in\n{out}");
    }
    let (code, out, _) = run(&["solve", "good/nilsson-ao-star.toml", "--json"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let optimum = &json["optimum"];
    assert_eq!(optimum["model"], "connector");
    assert_eq!(optimum["cost"], 5);
    assert_eq!(
        optimum["solution"],
        serde_json::json!(["n0 -> n4 + n5", "n4 -> n8", "n5 -> n7 + n8"])
    );
    assert_eq!(solution(&json, "ao-star")["fields"]["cost"], 5);
    // The kind that asks sum and max is left out, and says why when asked for.
    // An AND/OR graph's optimum comes before the kinds.
    let optimum = json.get("optimum").map(|_| "optimum");
    let kinds: Vec<&str> = optimum
        .into_iter()
        .chain(
            json["solutions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["kind"].as_str().unwrap()),
        )
        .collect();
    assert_eq!(kinds, ["optimum", "and-or-solvable", "ao-star"]);
    // With a cost on every arc the sum and max models apply, and the note goes.
    let (code, out, _) = run(&["solve", "good/and-or.toml", "--json"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["optimum"]["model"], "sum");
    assert_eq!(
        json["optimum"]["cost"],
        solution(&json, "solution-cost")["fields"]["sum_cost"]
    );
    assert_eq!(json["optimum"]["notes"], serde_json::json!([]));
    // A game tree has no optimum block.
    let (_, out, _) = run(&["solve", "good/aima-5-2.toml", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(json.get("optimum").is_none(), "{json}");
}

#[test]
fn solve_searches_tic_tac_toe_and_othello_positions() {
    snapshot_solve("solve_tictactoe_text", "good/tictactoe.toml");
    let (_, out, _) = run(&["solve", "good/tictactoe.toml", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    // X in the centre, O in a corner: 5 open lines for X, 4 for O.
    assert_eq!(json["instance"]["kind"], "tictactoe");
    let ttt = &solution(&json, "tictactoe")["fields"];
    assert_eq!(ttt["eval"], 1);
    let moves = ttt["move_values"].as_object().unwrap();
    // Symmetric moves merged: b1~a2, c1~a3, c2~b3; c3 is on the diagonal through a1.
    let names: Vec<&str> = moves.keys().map(String::as_str).collect();
    assert_eq!(names, ["b1", "c1", "c2", "c3"]);
    let best = moves.values().map(|v| v.as_i64().unwrap()).max().unwrap();
    let first_best = moves
        .iter()
        .find(|(_, v)| v.as_i64() == Some(best))
        .map(|(m, _)| m.as_str())
        .unwrap();
    assert_eq!(ttt["best_move"], first_best);
    let (_, out, _) = run(&["solve", "good/othello.toml", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["instance"]["kind"], "othello");
    let oth = solution(&json, "othello");
    assert_eq!(oth["fields"]["eval"], 0);
    assert_eq!(
        oth["fields"]["legal_moves"],
        serde_json::json!(["d3", "c4", "f5", "e6"])
    );
    assert_eq!(oth["fields"]["move_values"].as_object().unwrap().len(), 4);
    // All four moves tie: the key accepts each of them.
    assert_eq!(
        oth["key"]["answers"]["best_move"]["one"]
            .as_array()
            .unwrap()
            .len(),
        4
    );
}

#[test]
fn solve_plays_grundys_game() {
    snapshot_solve("solve_grundy_text", "good/grundy-7.toml");
    let (_, out, _) = run(&["solve", "good/grundy-7.toml", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["instance"]["kind"], "grundy");
    let g = &solution(&json, "grundy")["fields"];
    assert_eq!(g["winner"], "MAX");
    assert!(
        g["winning_moves"]
            .as_array()
            .unwrap()
            .contains(&"(6,1,MAX) -> (4,2,1,MIN)".into())
    );
}

/// Every pile an instance file may give (1 to 40 coins) is solved, not
/// only the 3 to 9 of an exercise, with a note that a problem set refuses
/// it. The winners are A002188's (the first player wins exactly when the
/// pile's Sprague–Grundy value is not 0), and from 40 coins the winning
/// first moves are the splits into two piles of equal value.
#[test]
fn solve_plays_grundys_game_from_every_pile_a_file_gives() {
    let dir = crate::common::scratch("grundy-piles");
    let solved = |coins: u32, first: &str| {
        let file = format!("g{coins}.toml");
        std::fs::write(
            dir.join(&file),
            format!("kind = \"grundy\"\ncoins = {coins}\nfirst = \"{first}\"\n"),
        )
        .unwrap();
        let (code, out, err) = crate::common::run_in(&dir, &["solve", &file, "--json"]);
        assert_eq!(code, 0, "{coins} coins: {err}");
        assert!(
            err.contains(&format!(
                "note: {file}: solved here, but a problem set refuses it: an exercise uses 3 to 9 coins, not {coins}"
            )),
            "{err}"
        );
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        solution(&json, "grundy").clone()
    };
    let strings = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect()
    };
    // No pile of 1 or 2 splits: the player to move loses at once.
    let one = solved(1, "max");
    assert_eq!(one["fields"]["winner"], "MIN");
    assert_eq!(strings(&one["fields"]["max_wins"]), Vec::<String>::new());
    assert_eq!(
        strings(&one["fields"]["winning_moves"]),
        Vec::<String>::new()
    );
    assert_eq!(one["table"]["rows"].as_array().unwrap().len(), 1);
    let two = solved(2, "min");
    assert_eq!(two["fields"]["winner"], "MAX");
    assert_eq!(strings(&two["fields"]["max_wins"]), ["(2,MIN)"]);
    assert!(
        two["notes"][1]
            .as_str()
            .unwrap()
            .starts_with("(2,MIN) has no move: a pile of 2 cannot be split"),
        "{}",
        two["notes"]
    );
    // 10 coins: value 0, so MAX, moving first, loses; MIN answers every split.
    let ten = solved(10, "max");
    assert_eq!(ten["fields"]["winner"], "MIN");
    assert!(strings(&ten["fields"]["winning_moves"]).contains(&"(9,1,MIN) -> (7,2,1,MAX)".into()));
    // 40 coins: value 1, so MAX wins by splitting into piles of equal value.
    let forty = solved(40, "max");
    assert_eq!(forty["fields"]["winner"], "MAX");
    let first: Vec<String> = strings(&forty["fields"]["winning_moves"])
        .into_iter()
        .filter(|m| m.starts_with("(40,MAX) -> "))
        .collect();
    let splits = [
        (37, 3),
        (35, 5),
        (34, 6),
        (32, 8),
        (31, 9),
        (29, 11),
        (28, 12),
    ];
    let expected: Vec<String> = splits
        .iter()
        .map(|(a, b)| format!("(40,MAX) -> ({a},{b},MIN)"))
        .collect();
    assert_eq!(first, expected);
    assert_eq!(forty["table"]["rows"].as_array().unwrap().len(), 37_331);
    // A problem set still takes 3 to 9 coins only, fixed or generated.
    std::fs::write(
        dir.join("set.toml"),
        "title = \"t\"\n[[exercise]]\nkind = \"grundy\"\ninstance = { kind = \"grundy\", coins = 12 }\n",
    )
    .unwrap();
    let (code, _, err) = crate::common::run_in(&dir, &["generate", "set.toml", "--out", "out"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("this instance cannot be used for grundy")
            && err.contains("an exercise uses 3 to 9 coins, not 12")
            && err.contains("set.toml:4:12"),
        "{err}"
    );
}

#[test]
fn solve_speaks_the_language_asked_for() {
    let (code, out, err) = run(&["solve", "good/aima-5-2.toml", "--lang", "zh"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.contains("博弈树") && out.contains("α-β 剪枝"), "{out}");
    assert!(!out.contains("Answers"), "{out}");
    let (code, _, err) = run(&["solve", "good/aima-5-2.toml", "--lang", "xx"]);
    assert_eq!(code, 2);
    assert!(err.contains("xx"), "{err}");
}

#[test]
fn solve_reads_json_instances() {
    let (code, out, err) = run(&["solve", "good/and-or.json", "--json"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["instance"]["cost"], "max");
    // Max cost: S -> B + t2 costs max(2 + 1, 1 + 0) = 3 with B -> t1 = 1; S -> A costs 1 + 4 = 5.
    assert_eq!(solution(&json, "solution-cost")["fields"]["max_cost"], 3);
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
        err.contains("no/such/file.toml") && err.contains("cannot open the file"),
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
                let model = other.model();
                let t = model.tree().expect("a game has a lookahead tree");
                let _ = treequiz::gametree::alpha_beta(t, Default::default());
            }
        }
        true
    });
    assert!(
        parsed > 1_000,
        "the edits should leave many files valid, got {parsed}"
    );
}

/// `convert` writes a sampled tree as a Python nested list and as a CS188
/// test; `solve` reads both back to the same answers as the TOML (every
/// kind's fields), and an Othello position goes to one line and back.
/// A game tree searched under a node budget: `sample` draws one, `solve`
/// answers both budgeted kinds' questions, `convert` keeps it in TOML and
/// refuses the forms that would drop its estimates and budget.
#[test]
fn a_budgeted_game_tree_samples_solves_and_converts() {
    let dir = crate::common::scratch("budget-tree");
    let (code, toml, err) = run(&[
        "sample",
        "game-tree",
        "--seed",
        "3",
        "depth=3",
        "branching=2..3",
        "budget=6..12",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        toml.contains("estimates = [") && toml.contains("budget = "),
        "{toml}"
    );
    let path = dir.join("b.toml");
    std::fs::write(&path, &toml).unwrap();
    let (code, out, err) = run(&["solve", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Game tree: a node budget"), "{out}");
    assert!(
        !out.contains("== Minimax"),
        "minimax refuses a budgeted tree: {out}"
    );
    let (code, back, err) = run(&["convert", path.to_str().unwrap(), "--to", "toml"]);
    assert_eq!((code, back.as_str()), (0, toml.as_str()), "{err}");
    let (code, out, err) = run(&["convert", path.to_str().unwrap(), "--to", "python"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("would drop them"), "{err}");
}

#[test]
fn convert_round_trips_through_python_and_cs188() {
    let dir = crate::common::scratch("convert");
    for seed in 0..12 {
        let (code, toml, err) = run(&[
            "sample",
            "game-tree",
            "--seed",
            &seed.to_string(),
            "depth=3",
            "branching=1..3",
            "values=-9..9",
        ]);
        assert_eq!(code, 0, "{err}");
        let toml_path = dir.join(format!("t{seed}.toml"));
        std::fs::write(&toml_path, &toml).unwrap();
        let fields = crate::common::solve_fields;
        let want = fields(&toml_path);
        for (form, ext) in [("python", "py"), ("cs188", "test")] {
            let (code, text, err) = run(&["convert", toml_path.to_str().unwrap(), "--to", form]);
            assert_eq!(code, 0, "{err}");
            let path = dir.join(format!("t{seed}.{ext}"));
            std::fs::write(&path, text).unwrap();
            assert_eq!(fields(&path), want, "seed {seed}, {form}");
        }
    }
    let (code, line, err) = run(&["convert", "good/othello.toml", "--to", "board"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(line.len(), 64 + 3, "{line}");
    let path = dir.join("line.toml");
    std::fs::write(
        &path,
        format!("kind = \"othello\"\nboard = \"{}\"\n", line.trim()),
    )
    .unwrap();
    let (_, a, _) = run(&["convert", path.to_str().unwrap(), "--to", "toml"]);
    let (_, b, _) = run(&["convert", "good/othello.toml", "--to", "toml"]);
    let board = |t: &str| t.lines().take(3).collect::<Vec<_>>().join("\n");
    assert_eq!(board(&a), board(&b));
    // A tree in the wrong family, a MIN root: said plainly.
    let (code, _, err) = run(&["convert", "good/othello.toml", "--to", "python"]);
    assert_eq!(code, 2);
    assert!(
        err.contains(
            "--to python writes a game tree or a chance tree, and this is an Othello position"
        ),
        "{err}"
    );
    // A form only one family writes says so.
    let (code, _, err) = run(&["convert", "good/and-or.toml", "--to", "board"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--to board writes an Othello position, and this is an AND/OR graph"),
        "{err}"
    );
}

/// `practice` puts the set into a page students read: the teacher's
/// comments stay out (they were copied in whole), what the page reads of the
/// set is the same, and a fixed instance, whose worked solution the page
/// shows, is warned about.
#[test]
fn the_practice_page_carries_the_set_without_its_comments() {
    let dir = crate::common::scratch("practice-comments");
    let demo = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problem-sets/demo.toml"),
    )
    .unwrap();
    let set = format!(
        "# exam answers: q1 = 3  TEACHER-ONLY-NOTE\n{demo}\n[[exercise]]\nkind = \"minimax\" # AIMA 5.2\ninstance = {{ kind = \"game-tree\", tree = [[3, 12, 8], [2, 4, 6], [14, 5, 2]] }}\n# the secret is in ~/exam.secret\n"
    );
    std::fs::write(dir.join("set.toml"), &set).unwrap();
    std::fs::write(dir.join("m.wasm"), b"\0asm\x01\0\0\0").unwrap();
    let (code, out, err) = crate::common::run_in(
        &dir,
        &[
            "practice", "set.toml", "--module", "m.wasm", "--out", "site",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("practice.html"), "{out}");
    let page = std::fs::read_to_string(dir.join("site/practice.html")).unwrap();
    for hidden in [
        "TEACHER-ONLY-NOTE",
        "exam.secret",
        "AIMA 5.2",
        "README's quick start",
    ] {
        assert!(
            !page.contains(hidden),
            "the comment {hidden:?} reached the page"
        );
    }
    // The set in the page reads as the same set.
    let start = page
        .find(r#"<script id="tq-set" type="application/json">"#)
        .unwrap();
    let json = &page[start..];
    let json = &json[json.find('>').unwrap() + 1..json.find("</script>").unwrap()];
    let embedded: String = serde_json::from_str(&json.replace("\\u003c", "<")).unwrap();
    let read = |text: &str| {
        let source = treequiz::input::Source {
            path: "set.toml".into(),
            text: text.into(),
        };
        let set = treequiz::problem_set::parse(&source, &dir).unwrap();
        let variants =
            treequiz::class_set::build(&set, &treequiz::rng::Master::from_seed(set.seed), &[])
                .unwrap();
        treequiz::grade::key::KeyBook::from_variants(&set, &variants).variants[0]
            .checksum
            .clone()
    };
    assert_eq!(read(&embedded), read(&set));
    assert!(
        !embedded.lines().any(|l| l.trim_start().starts_with('#')),
        "{embedded}"
    );
    assert!(
        err.contains("warning: exercise 4 (minimax) is a fixed instance"),
        "{err}"
    );
}

/// The page carries its set's plan at the set's own seed (the fairness
/// pilot, made once here rather than on every opening of the page): the
/// plan `generate` makes for that set and seed, which fits the set.
#[test]
fn the_practice_page_carries_the_sets_plan_at_its_seed() {
    let dir = crate::common::scratch("practice-plan");
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problem-sets/midterm-zh.toml");
    std::fs::copy(&path, dir.join("set.toml")).unwrap();
    std::fs::write(dir.join("m.wasm"), b"\0asm\x01\0\0\0").unwrap();
    let (code, _, err) = crate::common::run_in(
        &dir,
        &[
            "practice", "set.toml", "--module", "m.wasm", "--out", "site",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let page = std::fs::read_to_string(dir.join("site/practice.html")).unwrap();
    let start = page
        .find(r#"<script id="tq-plan" type="application/json">"#)
        .unwrap();
    let json = &page[start..];
    let json = &json[json.find('>').unwrap() + 1..json.find("</script>").unwrap()];
    let carried: String = serde_json::from_str(json).unwrap();
    let set = treequiz::problem_set::load(&path).unwrap();
    let plan =
        treequiz::fair::Plan::new(&set, &treequiz::rng::Master::from_seed(set.seed)).unwrap();
    assert_eq!(carried, format!("2026:{}", plan.to_text()));
    assert!(plan.to_text().contains(".."), "{carried}");
    assert!(treequiz::fair::Plan::read(&set, &carried["2026:".len()..]).is_some());
}

/// A practice sheet names its set by a path from the sheet's folder inside
/// the folder the teacher works in, or by its file name: never the absolute
/// path a teacher typed (their home folder and user name on every sheet);
/// `check` finds the set from either.
#[test]
fn practice_sheets_never_hold_the_teachers_absolute_path() {
    let dir = crate::common::scratch("set-path");
    let home = dir.join("home").join("teacher-NAME").join("courses");
    std::fs::create_dir_all(&home).unwrap();
    let set = home.join("demo.toml");
    std::fs::copy(crate::common::root().join("problem-sets/demo.toml"), &set).unwrap();
    let cases = [
        // (out, how the sheet names the set), run in `home` with absolute paths
        (home.join("week1"), "../demo.toml"),
        (dir.join("elsewhere"), "demo.toml"),
    ];
    for (out, named) in cases {
        let (code, _, err) = crate::common::run_in(
            &home,
            &[
                "generate",
                set.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ],
        );
        assert_eq!(code, 0, "{err}");
        for entry in std::fs::read_dir(&out).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(
                !text.contains("teacher-NAME"),
                "{} names the teacher's folder",
                path.display()
            );
        }
        let sheet = std::fs::read_to_string(out.join("answer-sheet.toml")).unwrap();
        assert!(sheet.contains(&format!("set = \"{named}\"\n")), "{sheet}");
    }
    // Beside the set's folder, check finds it by the relative path; a sheet
    // handed out with the set beside it, by the file name.
    let (code, out, err) = crate::common::run_in(&home, &["check", "week1/key.toml"]);
    assert_eq!(code, 0, "{out}{err}");
    std::fs::copy(&set, dir.join("elsewhere/demo.toml")).unwrap();
    let (code, out, err) = crate::common::run_in(&dir, &["check", "elsewhere/key.toml"]);
    assert_eq!(code, 0, "{out}{err}");
}
