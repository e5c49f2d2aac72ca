//! `treequiz grade` and `check`: perfect keys, targeted mistakes, a folder of
//! good and broken files, hidden keys, and random input that must never panic.

use std::path::Path;

use treequiz::grade::batch::{Status, grade_source};
use treequiz::grade::key::KeyBook;
use treequiz::grade::rules::SlipRule;
use treequiz::input::Source;
use treequiz::rng::Master;

use crate::common::{generate, run, run_in, scratch};

#[test]
fn every_key_grades_full_marks() {
    let dir = scratch("grade-keys");
    for set in [
        "demo",
        "textbook",
        "game-tree-quiz",
        "and-or-quiz",
        "midterm-zh",
        "games",
    ] {
        let out = dir.join(set);
        let (code, _, err) = generate(
            &format!("problem-sets/{set}.toml"),
            out.to_str().unwrap(),
            &["--format", "md"],
        );
        assert_eq!((code, err.as_str()), (0, ""));
        let report = dir.join(format!("{set}-report"));
        let key = out.join("key.toml");
        let (code, stdout, err) = run(&[
            "grade",
            "--manifest",
            out.join("manifest.json").to_str().unwrap(),
            key.to_str().unwrap(),
            "--out",
            report.to_str().unwrap(),
        ]);
        assert_eq!((code, err.as_str()), (0, ""), "{set}: {stdout}");
        let csv = std::fs::read_to_string(report.join("grades.csv")).unwrap();
        let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
        let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
        let col = |name: &str| row[header.iter().position(|h| *h == name).unwrap()];
        assert_eq!(col("status"), "graded", "{set}");
        assert_eq!(
            col("total"),
            col("max"),
            "{set}: key.toml must score 100 %\n{csv}"
        );
        // The practice sheet names its set and seed: a student given the
        // set with the sheet can check it alone.
        let (code, _, err) = run(&["sets", "export", out.to_str().unwrap()]);
        assert_eq!(code, 0, "{err}");
        let (code, stdout, err) = run(&["check", key.to_str().unwrap()]);
        assert_eq!((code, err.as_str()), (0, ""), "{set}");
        assert!(
            stdout.contains(&format!("Total: {} / {}", col("total"), col("max")))
                || stdout.contains(&format!("总分：{} / {}", col("total"), col("max"))),
            "{stdout}"
        );
    }
}

/// The keys of the tests' own copy of the textbook set (fixed instances:
/// AIMA 5.2 and the AO* example), whose questions the tests name by number:
/// the shipped set may change its questions.
fn textbook() -> (KeyBook, treequiz::lang::Lang, String) {
    keys_of(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/sets/textbook.toml"
    )))
}

/// The keys of a set's practice variant, and its key sheet (`key.toml`).
fn keys_of(path: &Path) -> (KeyBook, treequiz::lang::Lang, String) {
    let set = treequiz::problem_set::load(path).unwrap();
    keys_at(path, set.seed)
}

/// [`keys_of`] at another seed.
fn keys_at(path: &Path, seed: u64) -> (KeyBook, treequiz::lang::Lang, String) {
    let set = treequiz::problem_set::load(path).unwrap();
    let lang = treequiz::lang::Lang::builtin("en").unwrap();
    let variants = treequiz::class_set::build(&set, &Master::from_seed(seed), &[]).unwrap();
    let key_view = treequiz::view::sheet(&set, &variants[0], &lang, true, None);
    let key_toml = treequiz::render::Renderer::new(None)
        .unwrap()
        .render("answer-sheet.toml", &key_view)
        .unwrap();
    (KeyBook::from_variants(&set, &variants), lang, key_toml)
}

/// Grades the key with one line replaced; returns (question's points, earned, reasons).
/// Grades one answer file's text against the textbook keys.
fn grade_text(
    book: &KeyBook,
    lang: &treequiz::lang::Lang,
    text: String,
) -> treequiz::grade::batch::Row {
    grade_source(
        book,
        &Source {
            path: "answers.toml".into(),
            text,
        },
        lang,
        false,
    )
}

fn with_mistake(question: usize, old: &str, new: &str) -> (f64, f64, Vec<String>) {
    let (book, lang, key) = textbook();
    let section = format!("[q{question}]");
    let start = key.find(&section).unwrap();
    let at = start
        + key[start..]
            .find(old)
            .unwrap_or_else(|| panic!("`{old}` not in q{question}:\n{}", &key[start..]));
    let row = grade_text(
        &book,
        &lang,
        format!("{}{new}{}", &key[..at], &key[at + old.len()..]),
    );
    assert_eq!(row.status, Status::Graded);
    let q = &row.questions[question - 1];
    let reasons = q
        .fields
        .iter()
        .flat_map(|f| f.reasons.iter().map(|r| r.render(&lang, false)))
        .collect();
    (q.max, q.earned, reasons)
}

#[test]
fn targeted_mistakes_lose_exactly_the_documented_points() {
    // Q1 minimax on AIMA 5.2, 4 points over 3 fields: a wrong root value loses 4/3.
    let (max, earned, why) = with_mistake(1, "value = 3", "value = 2");
    assert_eq!((max, earned), (4.0, 2.67));
    assert_eq!(why, ["the value is 3, not 2"]);
    // Q2 alpha-beta, 6 points over 6 fields (1 each).
    // Pruned {I, J, K}: 2 right, 1 wrong of 2 → penalty rule (2 − 1)/2 = 0.5 of the field.
    let (_, earned, why) = with_mistake(2, r#"pruned = ["I", "J"]"#, r#"pruned = ["I", "J", "K"]"#);
    assert_eq!(earned, 5.5);
    assert!(
        why.iter()
            .any(|w| w.contains("you pruned K, but when K is reached α = 3 and β = +inf")),
        "{why:?}"
    );
    // Pruned roots are read whatever the case.
    let (_, earned, _) = with_mistake(2, r#"pruned = ["I", "J"]"#, r#"pruned = ["i", "j"]"#);
    assert_eq!(earned, 6.0);
    // A repeated item counts once: 1 of 2 right, nothing wrong → half the field.
    let (_, earned, _) = with_mistake(2, r#"pruned = ["I", "J"]"#, r#"pruned = ["I", "I", "I"]"#);
    assert_eq!(earned, 5.5);
    // Leaf order with one leaf out of place: LCS 6 of 7.
    let (_, earned, why) = with_mistake(
        2,
        r#"evaluated = ["E", "F", "G", "H", "K", "L", "M"]"#,
        r#"evaluated = ["E", "F", "G", "H", "I", "K", "L", "M"]"#,
    );
    assert_eq!(earned, 5.88);
    assert!(
        why.iter()
            .any(|w| w.contains("position 5: you wrote I, the search evaluates K")),
        "{why:?}"
    );
    // Bounds written three ways are one bound.
    for c in [r#""<=2""#, r#""≤ 2""#, r#""le 2""#] {
        let (_, earned, _) = with_mistake(2, r#"C = "<=2""#, &format!("C = {c}"));
        assert_eq!(earned, 6.0, "{c}");
    }
    // A wrong value in the table is a miss (3 of 4 nodes right), not also a penalty.
    let (_, earned, why) = with_mistake(2, r#"C = "<=2""#, "C = 2");
    assert_eq!(earned, 5.75, "{why:?}");
    assert_eq!(why, ["C is a MIN node: C ≤ 2, not = 2"]);
    // A blank field is not attempted, not wrong, and loses exactly its share.
    let (_, earned, why) = with_mistake(2, "alpha_cuts = [\"C\"]", "alpha_cuts = \"\"");
    assert_eq!((earned, why.len()), (5.0, 0));
    // Q3 AO*, 8 points over 3 fields: a wrong cost loses 8/3.
    let (_, earned, why) = with_mistake(3, "cost = 5", "cost = 6");
    assert_eq!(earned, 5.33);
    assert_eq!(why, ["the cost is 5, not 6"]);
    // Expansion order with two swapped: LCS 4 of 5, and the first cycle where it differs.
    let (_, earned, why) = with_mistake(
        3,
        r#"expanded = ["S", "A", "B", "C", "D"]"#,
        r#"expanded = ["S", "B", "A", "C", "D"]"#,
    );
    assert_eq!(earned, 7.47);
    assert!(
        why[0].starts_with("in cycle 2 AO* expands A, not B"),
        "{why:?}"
    );
    // Q4 solution cost, 6 points over 4 fields: one of 3 connectors missing → 2/3 of a field.
    let (_, earned, why) = with_mistake(
        4,
        r#"sum_solution = ["S -> A", "A -> D", "D -> t3"]"#,
        r#"sum_solution = ["S -> A", "A -> D"]"#,
    );
    assert_eq!(earned, 5.5);
    assert_eq!(why, ["the solution graph also uses D -> t3"]);
    // Connectors are read whatever the spacing, case and child order.
    let (_, earned, _) = with_mistake(4, r#""S -> B + C""#, r#""s->c+b""#);
    assert_eq!(earned, 6.0);
}

/// Labels that name nothing cost points wherever they are given (the audit's
/// key followed by ten made-up labels scored full marks in an order), and
/// each is listed as a problem with the file for the teacher to see.
#[test]
fn invented_labels_are_wrong_items_and_problems() {
    let (book, lang, key) = textbook();
    let made_up: Vec<String> = (1..=10).map(|i| format!("\"Z{i}\"")).collect();
    let made_up = made_up.join(", ");
    let cases = [
        // Q2's leaf order (6 points, 6 fields): LCS 7 of 17 → 7/17 of the field.
        (
            2,
            r#"evaluated = ["E", "F", "G", "H", "K", "L", "M"]"#.to_string(),
            format!(r#"evaluated = ["E", "F", "G", "H", "K", "L", "M", {made_up}]"#),
            5.41,
        ),
        // Q3's expansion order (8 points, 3 fields): 5 of 15.
        (
            3,
            r#"expanded = ["S", "A", "B", "C", "D"]"#.to_string(),
            format!(r#"expanded = ["S", "A", "B", "C", "D", {made_up}]"#),
            6.22,
        ),
        // Q2's value table: an unknown node is a wrong item (penalty rule).
        (
            2,
            r#"C = "<=2""#.to_string(),
            r#"C = "<=2", Z9 = 4"#.to_string(),
            5.75,
        ),
        // Q4's connectors: an unknown connector is a wrong item.
        (
            4,
            r#"sum_solution = ["S -> A", "A -> D", "D -> t3"]"#.to_string(),
            r#"sum_solution = ["S -> A", "A -> D", "D -> t3", "Q -> Z"]"#.to_string(),
            5.5,
        ),
    ];
    for (question, old, new, points) in cases {
        let start = key.find(&format!("[q{question}]")).unwrap();
        let at = start + key[start..].find(&old).unwrap_or_else(|| panic!("{old}"));
        let text = format!("{}{new}{}", &key[..at], &key[at + old.len()..]);
        let row = grade_text(&book, &lang, text);
        assert_eq!(row.questions[question - 1].earned, points, "{new}: {row:?}");
        let invented = if new.contains("Q -> Z") {
            "Q -> Z"
        } else {
            "Z"
        };
        assert!(
            row.problems.iter().any(|p| p.contains(invented)),
            "{new}: the problems name no invented label: {:?}",
            row.problems
        );
        assert!(row.needs_attention());
    }
}

/// Every unexamined node instead of the pruned roots is the same answer: a
/// pruned inner node listed with its whole subtree scores 100 % for `pruned`.
#[test]
fn a_pruned_subtree_listed_whole_is_the_same_answer() {
    let dir = scratch("grade-pruned-subtree");
    let set = dir.join("set.toml");
    // MAX A; MIN B, C; MAX D, E, F, G; leaves H I | J K | L M | N O.
    // E is cut after J (β-cut), C after F = 2 (α-cut): K and the inner node G
    // (with its leaves N, O) are never examined.
    std::fs::write(
        &set,
        r#"title = "A pruned inner node"
seed = 1
[conventions]
order = "ltr"
prune_on_equal = true
values = "fail-soft"
[[exercise]]
kind = "alpha-beta"
points = 6
instance = { kind = "game-tree", tree = [[[3, 5], [6, 9]], [[1, 2], [0, -1]]] }
"#,
    )
    .unwrap();
    let (book, lang, key) = keys_of(&set);
    assert!(key.contains(r#"pruned = ["G", "K"]"#), "{key}");
    let pruned_field = |text: String| {
        let row = grade_text(&book, &lang, text);
        assert_eq!(row.status, Status::Graded);
        let f = row.questions[0]
            .fields
            .iter()
            .find(|f| f.field == "pruned")
            .unwrap()
            .clone();
        (f.earned, f.max, f.reasons)
    };
    let with = |pruned: &str| key.replace(r#"pruned = ["G", "K"]"#, pruned);
    let (earned, max, why) = pruned_field(key.clone());
    assert_eq!(earned, max, "{why:?}");
    // Every unexamined node, in any order: G's whole subtree and K.
    for answer in [
        r#"pruned = ["G", "N", "O", "K"]"#,
        r#"pruned = ["K", "O", "N", "G"]"#,
    ] {
        let (earned, max, why) = pruned_field(with(answer));
        assert_eq!(earned, max, "{answer}: {why:?}");
    }
    // An examined node listed with them is still wrong.
    let (earned, max, _) = pruned_field(with(r#"pruned = ["G", "N", "O", "K", "J"]"#));
    assert!(earned < max);
}

/// Every label one game's field could take, given to every field of every game
/// question: graded, never a panic.
#[test]
fn game_fields_take_any_answer_without_panic() {
    let (book, lang, key) = textbook();
    let values = [
        r#""MAX""#,
        r#""min""#,
        r#"["MAX", "(6,1,MAX)", "(7,MIN) -> (6,1,MAX)", "b2", "b2-a1", "pass", "d3-pass"]"#,
        r#""(6,1,MAX) -> (3,3,1,MIN)""#,
        r#""(7,MIN), MAX, 2,2""#,
        r#"["a1-a1-a1-a1", "c3-c3", "z9", "h8-h8-h8", "->", "()", "(,MAX)", "(0,MIN)"]"#,
        r#"{ b2 = 1, "(6,1,MAX)" = 2, MAX = "x", d3 = "−1", pass = [] }"#,
        r#""none""#,
        "3",
        r#""-inf""#,
        "[]",
        "{}",
    ];
    let mut graded = 0;
    for q in 5..=7 {
        let start = key.find(&format!("[q{q}]")).unwrap();
        let end = key[start + 4..]
            .find("\n[")
            .map_or(key.len(), |e| start + 4 + e);
        let fields: Vec<&str> = key[start..end]
            .lines()
            .filter(|l| !l.starts_with('#') && l.contains(" = "))
            .map(|l| l.split(" = ").next().unwrap())
            .collect();
        for field in fields {
            for value in values {
                let section: String = key[start..end]
                    .lines()
                    .map(|l| {
                        if l.starts_with(&format!("{field} = ")) {
                            format!("{field} = {value}")
                        } else {
                            l.to_string()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("\n");
                let text = format!("{}{section}\n{}", &key[..start], &key[end..]);
                let row = grade_text(&book, &lang, text);
                assert_eq!(row.status, Status::Graded, "q{q} {field} = {value}");
                graded += 1;
            }
        }
    }
    assert_eq!(graded, 12 * 12);
}

#[test]
fn game_mistakes_lose_exactly_their_share_and_say_why() {
    // Q5 tic-tac-toe (Nilsson's opening search), 6 points over 4 fields (1.5 each).
    let (max, earned, why) = with_mistake(5, "b2 = 1", "b2 = 2");
    assert_eq!((max, earned), (6.0, 5.5));
    assert_eq!(why, ["b2 is a MIN node: min(b2-a1, b2-b1) = 1, not = 2"]);
    let (_, earned, _) = with_mistake(5, "\nbest_move = \"b2\"", "\nbest_move = \"a1\"");
    assert_eq!(earned, 4.5);
    // Moves are read whatever the case and the separator.
    let (_, earned, _) = with_mistake(5, r#""b1-a2""#, r#""B1 - A2""#);
    assert_eq!(earned, 6.0);
    // Pruning a reply that is examined: the window in force says why not.
    let (_, earned, why) = with_mistake(5, r#""b1-a2", "#, r#""a1-b1", "b1-a2", "#);
    assert!(earned < 6.0);
    assert!(
        why.iter()
            .any(|w| w.starts_with("you pruned a1-b1, but when a1-b1 is reached α = -inf")),
        "{why:?}"
    );
    // A mirror image of a searched move names the move that stands for it
    // (c1 is a1 reflected; b1-c2 is b1-a2 reflected), and a true minus sign reads.
    let (_, earned, why) = with_mistake(5, "b1 = -2,", "c1 = -1, b1 = \"−2\",");
    assert_eq!(earned, 6.0, "{why:?}");
    let (_, earned, _) = with_mistake(5, r#""b1-a2""#, r#""b1-c2""#);
    assert_eq!(earned, 6.0);
    // TOML's own unquoted `inf` is read as +inf.
    let (_, earned, why) = with_mistake(5, "b2 = 1", "b2 = inf");
    assert_eq!(earned, 5.5);
    assert_eq!(why, ["b2 is a MIN node: min(b2-a1, b2-b1) = 1, not = +inf"]);
    // Missed branches of one cut are named together, with the cut once.
    let (_, _, why) = with_mistake(5, r#"["b1-a2", "b1-b2", "b1-a3", "b1-b3"]"#, r#"["b1-a2"]"#);
    assert_eq!(why.len(), 1, "{why:?}");
    assert!(
        why[0].starts_with("b1-b2, b1-a3, b1-b3 are never examined: α-cut at b1"),
        "{why:?}"
    );
    // An occupied cell names no move.
    let (_, _, why) = with_mistake(5, r#""b1-a2""#, r#""b1-b1""#);
    assert!(
        why.iter()
            .any(|w| w.starts_with("b1-b1 is not a move searched from P")),
        "{why:?}"
    );
    // A list where one label is asked for is echoed as written, not as a dump.
    let (_, earned, why) = with_mistake(5, "\nbest_move = \"b2\"", "\nbest_move = [\"b2\"]");
    assert_eq!(earned, 4.5);
    assert!(why.iter().any(|w| w.ends_with(r#"["b2"]"#)), "{why:?}");
    // Q6 Grundy, 6 points over 3 fields (2 each).
    let (_, earned, why) = with_mistake(6, "\nwinner = \"MAX\"", "\nwinner = \"MIN\"");
    assert_eq!(earned, 4.0, "{why:?}");
    assert_eq!(
        why,
        ["(7,MIN) is won by MAX: every move of MIN from there leads to a state MAX wins"]
    );
    // States in any pile order, spacing and case are the same state.
    let (_, earned, _) = with_mistake(6, r#""(4,2,1,MIN)", "(3,3"#, r#""(1, 4, 2, min)", "(3,3"#);
    assert_eq!(earned, 6.0);
    // One string for the whole list splits between states, not inside them.
    let (_, earned, why) = with_mistake(
        6,
        r#"["(7,MIN)", "(6,1,MAX)", "(5,2,MAX)", "(4,3,MAX)", "(4,2,1,MIN)", "(3,3,1,MIN)", "(3,2,1,1,MAX)", "(2,2,1,1,1,MIN)"]"#,
        r#""(7,MIN), (6,1,MAX), (5,2,MAX), (4,3,MAX), (4,2,1,MIN), (3,3,1,MIN), (3,2,1,1,MAX), (2,2,1,1,1,MIN)""#,
    );
    assert_eq!(earned, 6.0, "{why:?}");
    // One of 8 states missing: 7/8 of the field.
    let (_, earned, why) = with_mistake(6, r#", "(2,2,1,1,1,MIN)"]"#, "]");
    assert_eq!(earned, 5.75, "{why:?}");
    // A loser's move, and a split the rules do not allow, are each named.
    let (_, _, why) = with_mistake(
        6,
        "\nwinning_moves = [",
        "\nwinning_moves = [\"(7,MIN) -> (6,1,MAX)\", \"(7,MIN) -> (3,3,1,MAX)\", ",
    );
    assert!(
        why.iter()
            .any(|w| w == "in (7,MIN) -> (6,1,MAX) MIN moves, not the winner MAX"),
        "{why:?}"
    );
    assert!(
        why.iter()
            .any(|w| w.starts_with("(7,MIN) -> (3,3,1,MAX) is not a state or a move")),
        "{why:?}"
    );
    // Two real states that no split joins.
    let (_, _, why) = with_mistake(
        6,
        "\nwinning_moves = [",
        "\nwinning_moves = [\"(6,1,MAX) -> (3,3,1,MIN)\", ",
    );
    assert!(
        why.iter()
            .any(|w| w.starts_with("(6,1,MAX) -> (3,3,1,MIN) is not a move: a move splits")),
        "{why:?}"
    );
    // Q7 Othello, 6 points over 5 fields (1.2 each). One string for a list of
    // replies splits at the spaces between them; the root is not a move.
    let (_, earned, why) = with_mistake(7, r#"["c4-e3", "c4-c5"]"#, r#""c4 - e3 c4-c5""#);
    assert_eq!(earned, 6.0, "{why:?}");
    let (_, _, why) = with_mistake(7, "\nbest_move = \"d3\"", "\nbest_move = \"P\"");
    assert!(
        why.iter()
            .any(|w| w.starts_with("P is not a move searched from P")),
        "{why:?}"
    );
    // A legal move missing.
    let (_, earned, why) = with_mistake(7, r#", "e6"]"#, "]");
    assert_eq!(earned, 5.7, "{why:?}");
    // Any of the tied best moves is right.
    let (_, earned, _) = with_mistake(7, "\nbest_move = \"d3\"", "\nbest_move = \"e6\"");
    assert_eq!(earned, 6.0);
}

#[test]
fn a_folder_of_good_and_broken_files_gets_one_row_each() {
    let dir = scratch("grade-folder");
    std::fs::write(dir.join("class.csv"), "id\ns1\ns2\ns3\n").unwrap();
    let (code, _, err) = run_in(
        &dir,
        &[
            "generate",
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/problem-sets/game-tree-quiz.toml"
            ),
            "--roster",
            "class.csv",
            "--seed",
            "7",
            "--out",
            "quiz",
            "--format",
            "md",
        ],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    let subs = dir.join("subs");
    std::fs::create_dir_all(&subs).unwrap();
    let key =
        |s: &str| std::fs::read_to_string(dir.join(format!("quiz/keys/{s}/key.toml"))).unwrap();
    std::fs::write(subs.join("s1.toml"), key("s1")).unwrap();
    // s2 with mistakes: a wrong root value in q1 and a blank q3.
    let s2 = key("s2");
    let q1 = s2.find("[q1]").unwrap();
    let v = q1 + s2[q1..].find("\nvalue = ").unwrap() + 1;
    let end = v + s2[v..].find('\n').unwrap();
    let mut wrong = format!("{}value = 999{}", &s2[..v], &s2[end..]);
    wrong = wrong[..wrong.find("[q3]").unwrap()].to_string();
    std::fs::write(subs.join("s2.toml"), &wrong).unwrap();
    // Not a copy (a copy would count once): the resubmission differs.
    std::fs::write(subs.join("s2-again.toml"), format!("# again\n{wrong}")).unwrap();
    // s3 hands in s1's sheet with its own id: another student's variant.
    std::fs::write(
        subs.join("s3.toml"),
        key("s1").replace("student = \"s1\"", "student = \"s3\""),
    )
    .unwrap();
    std::fs::write(subs.join("empty.toml"), "").unwrap();
    std::fs::write(subs.join("binary.toml"), [0u8, 159, 146, 150, 1, 2, 3]).unwrap();
    std::fs::write(subs.join("latin1.toml"), b"variant = \"X\"\n# caf\xe9\n").unwrap();
    std::fs::write(subs.join("syntax.toml"), "variant = \"X\nchecksum = 1\n").unwrap();
    std::fs::write(subs.join("huge.toml"), vec![b'#'; 2 * 1024 * 1024]).unwrap();
    std::fs::write(
        subs.join("edited.toml"),
        key("s1").replace("checksum = \"", "checksum = \"0"),
    )
    .unwrap();
    std::fs::write(
        subs.join("extra.toml"),
        format!("{}\n[q9]\nvalue = 1\n", key("s3")),
    )
    .unwrap();
    let (code, stdout, err) = run_in(
        &dir,
        &[
            "grade",
            "--manifest",
            "quiz/manifest.json",
            "subs",
            "--out",
            "report",
        ],
    );
    assert_eq!(code, 1, "some rows need attention: {stdout}{err}");
    // Two files from s2: both flagged, neither counts until the teacher keeps one.
    assert!(stdout.contains("graded 2 of 11 files"), "{stdout}");
    let csv = std::fs::read_to_string(dir.join("report/grades.csv")).unwrap();
    assert_eq!(
        csv.lines().count(),
        12,
        "a header and one row per file:\n{csv}"
    );
    insta::assert_snapshot!("grades_csv", csv);
    insta::assert_snapshot!(
        "feedback_s2",
        std::fs::read_to_string(dir.join("report/feedback/subs_s2.md")).unwrap()
    );
    insta::assert_snapshot!(
        "summary",
        std::fs::read_to_string(dir.join("report/summary.md")).unwrap()
    );
    // The report folder is never replaced silently.
    let (code, _, err) = run_in(
        &dir,
        &[
            "grade",
            "--manifest",
            "quiz/manifest.json",
            "subs",
            "--out",
            "report",
        ],
    );
    assert_eq!(code, 2);
    assert!(err.contains("--force"), "{err}");
    // With --hide-key the feedback shows no key answer.
    let (code, _, _) = run_in(
        &dir,
        &[
            "grade",
            "--manifest",
            "quiz/manifest.json",
            "subs/s2.toml",
            "--out",
            "hidden",
            "--hide-key",
        ],
    );
    // Exit code 1: its third question is missing (a problem the teacher sees).
    assert_eq!(code, 1);
    let hidden = std::fs::read_to_string(dir.join("hidden/feedback/subs_s2.md")).unwrap();
    assert!(
        !hidden.contains("Key:") && hidden.contains("999 is not right"),
        "{hidden}"
    );
    // Keys regenerated from the set and seed grade like the manifest.
    let (code, _, err) = run_in(
        &dir,
        &[
            "grade",
            "--set",
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/problem-sets/game-tree-quiz.toml"
            ),
            "--seed",
            "7",
            "subs/s1.toml",
            "--out",
            "from-set",
        ],
    );
    assert_eq!((code, err.as_str()), (0, ""));
}

/// Random bytes and randomly edited answer sheets through the parser and the
/// grader: nothing may panic. 25,000 seeded cases (`TREEQUIZ_FUZZ_CASES` sets
/// another count); a failure names its seed and its text.
#[test]
fn random_input_never_panics_the_grader() {
    let (book, lang, key) = textbook();
    let alphabet: Vec<char> = "[]{}\",=.-+0123456789 \nabcdqIJKn<>≤#'_é∞"
        .chars()
        .collect();
    let text = |seed: u64| -> String {
        let mut rng = treequiz::rng::Rng::from_seed(seed);
        if seed.is_multiple_of(5) {
            // Raw bytes, made text the way the batch reader would refuse or accept them.
            let bytes: Vec<u8> = (0..rng.below(300)).map(|_| rng.below(256) as u8).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        } else {
            crate::common::mangle(&key, &mut rng, &alphabet, (1, 6))
        }
    };
    let graded = crate::common::never_panics("answer files", 25_000, text, |seed| {
        let row = grade_source(
            &book,
            &Source {
                path: "fuzz.toml".into(),
                text: text(seed),
            },
            &lang,
            seed.is_multiple_of(2),
        );
        row.status == Status::Graded
    });
    assert!(
        graded > 1_000,
        "the edits should leave many sheets gradable, got {graded}"
    );
}

/// A batch of 3,000 small files: one row per file, in file order, each with
/// its own status (graded, duplicate, unknown variant), whatever the batch size.
#[test]
fn a_large_batch_gets_one_row_per_file() {
    let (book, lang, key) = textbook();
    let dir = scratch("grade-large-batch");
    let n = 3_000usize;
    let mut files = Vec::with_capacity(n);
    for i in 0..n {
        // Every 100th file is a copy of the one before (the same bytes: it
        // counts once); every 250th names no variant of the set.
        let student = if i % 100 == 1 { i - 1 } else { i };
        let mut text = key.replace("student = \"\"", &format!("student = \"s{student:05}\""));
        if i % 250 == 7 {
            text = text.replacen("variant = \"", "variant = \"ZZ", 1);
        }
        let path = dir.join(format!("s{i:05}.toml"));
        std::fs::write(&path, text).unwrap();
        files.push(treequiz::grade::handed::Handed::file(path));
    }
    let rows = treequiz::grade::batch::grade_all(&book, &files, &lang, false);
    assert_eq!(
        rows.len(),
        n,
        "one row per file, no missing students in practice"
    );
    for (i, (row, file)) in rows.iter().zip(&files).enumerate() {
        // As reports show paths: `/` between parts on every system.
        assert_eq!(row.file, file.shown(), "rows keep file order");
        let expected = if i % 250 == 7 {
            Status::UnknownVariant
        } else if i % 100 == 1 {
            Status::Duplicate
        } else {
            Status::Graded
        };
        assert_eq!(row.status, expected, "{}: {}", row.file, row.reason);
        if expected == Status::Duplicate {
            assert!(row.reason.contains(&rows[i - 1].file), "{}", row.reason);
        }
        if expected == Status::Graded {
            assert_eq!(row.total, row.max, "{}", row.file);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Review findings: a node whose value cannot be read is named once (not also
/// as missing), and with the key hidden one line stands for every missing node.
#[test]
fn an_unreadable_value_is_not_also_missing_and_hidden_keys_count_nothing() {
    let (_, _, why) = with_mistake(
        1,
        "values = { A = 3, B = 3, C = 2, D = 2 }",
        "values = { A = 3, B = 3, C = \"x\" }",
    );
    assert!(
        why.iter().any(|r| r.starts_with("C: this is not")),
        "{why:?}"
    );
    assert!(why.iter().any(|r| r == "D is missing"), "{why:?}");
    assert!(!why.iter().any(|r| r == "C is missing"), "{why:?}");

    let (book, lang, key) = textbook();
    let text = key.replacen(
        "values = { A = 3, B = 3, C = 2, D = 2 }",
        "values = { A = 3 }",
        1,
    );
    let row = grade_source(
        &book,
        &Source {
            path: "hidden.toml".into(),
            text,
        },
        &lang,
        true,
    );
    let reasons: Vec<String> = row.questions[0]
        .fields
        .iter()
        .flat_map(|f| f.reasons.iter().map(|r| r.render(&lang, true)))
        .collect();
    let missing = reasons
        .iter()
        .filter(|r| *r == "at least one node is missing")
        .count();
    assert_eq!(missing, 1, "{reasons:?}");
}

#[test]
fn fail_hard_values_accept_the_procedures_bound_and_explain_the_tighter_one() {
    let dir = scratch("grade-f1");
    let set = dir.join("f1.toml");
    std::fs::write(
        &set,
        "title = \"F1\"\nconventions = \"knuth-moore\"\n\n[[exercise]]\nkind = \"alpha-beta\"\n\
         instance = { kind = \"game-tree\", tree = [[5], [[1, 2], 9], [[[1, 0], [2, 0]], 9]] }\n",
    )
    .unwrap();
    let (book, lang, key) = keys_of(&set);
    let values = |key: &str| {
        let line = key.lines().find(|l| l.starts_with("values = ")).unwrap();
        line.to_string()
    };
    let line = values(&key);
    assert!(
        line.contains("F = 2") && line.contains("H = \"<=5\""),
        "{line}"
    );
    let grade = |new: &str| {
        let row = grade_text(&book, &lang, key.replace(&line, new));
        let f = row.questions[0]
            .fields
            .iter()
            .find(|f| f.field == "values")
            .unwrap();
        let reasons: Vec<String> = f.reasons.iter().map(|r| r.render(&lang, false)).collect();
        (f.earned == f.max, reasons)
    };
    // F is exact (its leaves 1 and 2 were seen), but F1 backs up the α in force: both are right.
    let (full, why) = grade(&line.replace("F = 2", "F = \"<=5\""));
    assert!(full, "{why:?}");
    // H ≤ 2 is what H's children give; F1 backs up H ≤ 5, and the feedback says why.
    let (full, why) = grade(&line.replace("H = \"<=5\"", "H = \"<=2\""));
    assert!(!full);
    assert_eq!(
        why,
        [
            "H ≤ 2 is what its examined children give, but fail-hard (F1) starts a node at the bound in force and backs up H ≤ 5: write the value the search returns"
        ]
    );
}

/// The textbook key with `old` (in question `question`) replaced by `new`,
/// graded with slips refused (what a slip says, without the rule's say);
/// and the 1-based line where the replacement starts.
fn with_slip(question: usize, old: &str, new: &str) -> (treequiz::grade::batch::Row, usize) {
    with_slip_under(SlipRule::Refuse, question, old, new)
}

/// [`with_slip`] under a slip rule.
fn with_slip_under(
    rule: SlipRule,
    question: usize,
    old: &str,
    new: &str,
) -> (treequiz::grade::batch::Row, usize) {
    let (mut book, lang, key) = textbook();
    book.set_slips(rule);
    let start = key.find(&format!("[q{question}]")).unwrap();
    let at = start + key[start..].find(old).unwrap();
    let line = key[..at].matches('\n').count() + 1;
    let text = format!("{}{new}{}", &key[..at], &key[at + old.len()..]);
    (grade_text(&book, &lang, text), line)
}

/// Issue 27: a slip treequiz can rewrite scores as the set's slip rule says
/// (accept by default, a penalty, or refuse), and the feedback says what was
/// read and what it cost; a slip with no rewrite still costs its field.
#[test]
fn slip_rules_accept_penalise_or_refuse() {
    use treequiz::grade::score::State;
    let en = treequiz::lang::Lang::builtin("en").unwrap();
    let zh = treequiz::lang::Lang::builtin("zh").unwrap();
    let field = |row: &treequiz::grade::batch::Row, q: usize, name: &str| {
        row.questions[q - 1]
            .fields
            .iter()
            .find(|f| f.field == name)
            .unwrap()
            .clone()
    };
    let quote = ("best_move = \"B\"", "best_move = “B”");

    // The default: the set says nothing, the slip costs nothing.
    let (book, lang, key) = textbook();
    let at = key.find(quote.0).unwrap();
    let line = key[..at].matches('\n').count() + 1;
    let row = grade_text(&book, &lang, key.replacen(quote.0, quote.1, 1));
    assert_eq!(row.total, row.max, "{row:#?}");
    assert!(row.problems.is_empty(), "{:?}", row.problems);
    let f = field(&row, 1, "best_move");
    assert_eq!((f.state, f.slip), (State::Correct, true));
    assert_eq!(
        reasons_of(&row, 1, &en),
        [format!(
            "line {line}, column 13: `“` is a Chinese quotation mark; read as best_move = \"B\", which costs nothing"
        )]
    );
    assert_eq!(
        reasons_of(&row, 1, &zh),
        [format!(
            "第 {line} 行第 13 列：`“` 是中文引号；按 best_move = \"B\" 读取，不扣分"
        )]
    );

    // A penalty: a quarter of what the answer earns.
    let (row, _) = with_slip_under(SlipRule::Penalty(25), 1, quote.0, quote.1);
    others_full(&row, 1);
    let f = field(&row, 1, "best_move");
    assert_eq!(f.state, State::Partial);
    assert!((f.earned - 0.75 * f.max).abs() < 1e-9, "{f:#?}");
    assert!(
        reasons_of(&row, 1, &en)[0].ends_with(&format!(
            "which costs {} points (this set's penalty for a slip)",
            treequiz::grade::report::points(0.25 * f.max)
        )),
        "{:?}",
        reasons_of(&row, 1, &en)
    );
    assert!(row.problems.is_empty(), "{:?}", row.problems);

    // Refused: nothing, and a problem for the teacher.
    let (row, _) = with_slip_under(SlipRule::Refuse, 1, quote.0, quote.1);
    let f = field(&row, 1, "best_move");
    assert_eq!((f.state, f.earned, f.slip), (State::Invalid, 0.0, false));
    assert_eq!(row.problems.len(), 1, "{:?}", row.problems);

    // A wrong answer with a slip is still wrong, and says both.
    let (row, _) = with_slip_under(SlipRule::Accept, 1, quote.0, "best_move = “C”");
    let f = field(&row, 1, "best_move");
    assert_eq!((f.state, f.earned, f.slip), (State::Wrong, 0.0, true));
    assert!(f.reasons.len() >= 2, "{f:#?}");
    // An unquoted list in a four-field question: read, full marks.
    let (row, _) = with_slip_under(
        SlipRule::Accept,
        4,
        r#"sum_solution = ["S -> A", "A -> D", "D -> t3"]"#,
        "sum_solution = [S -> A, A -> D, D -> t3]",
    );
    assert_eq!(row.total, row.max, "{:?}", reasons_of(&row, 4, &en));
    // A key written twice has no rewrite: it costs its field whatever the rule.
    let (row, _) = with_slip_under(
        SlipRule::Accept,
        1,
        quote.0,
        "best_move = \"B\"\nbest_move = \"C\"",
    );
    let f = field(&row, 1, "best_move");
    assert_eq!((f.state, f.earned), (State::Invalid, 0.0));

    // The summary counts slips per question and field.
    let (mut book, lang, key) = textbook();
    let slipped = key.replacen(quote.0, quote.1, 1);
    let rows: Vec<_> = [key.clone(), slipped.clone(), slipped]
        .into_iter()
        .map(|t| grade_text(&book, &lang, t))
        .collect();
    let summary = treequiz::grade::report::summary_view(&rows, &[], &lang, "t", 0);
    let q1 = &summary.questions[0];
    let slips: Vec<(&str, usize)> = q1
        .rows
        .iter()
        .map(|r| (r.label.as_str(), r.slips))
        .collect();
    assert!(
        slips.contains(&("best_move", 2)) && slips[0].1 == 2,
        "{slips:?}"
    );
    assert!(
        summary.questions[1..]
            .iter()
            .all(|q| q.rows.iter().all(|r| r.slips == 0))
    );
    // Under a penalty, a right answer read from a slip is neither a common
    // wrong answer nor a common mistake: the slips column counts it.
    book.set_slips(SlipRule::Penalty(25));
    let slipped = key.replacen(quote.0, quote.1, 1);
    let rows: Vec<_> = [key.clone(), slipped.clone(), slipped]
        .into_iter()
        .map(|t| grade_text(&book, &lang, t))
        .collect();
    assert!(rows[1].total < rows[1].max);
    let summary = treequiz::grade::report::summary_view(&rows, &[], &lang, "t", 0);
    assert!(summary.questions[0].rows.iter().all(|r| r.wrong.is_empty()));
    assert!(
        summary.mistakes.is_empty(),
        "{:?}",
        summary
            .mistakes
            .iter()
            .map(|m| &m.example)
            .collect::<Vec<_>>()
    );
}

/// The reasons of one question's fields, rendered in `lang`.
fn reasons_of(
    row: &treequiz::grade::batch::Row,
    question: usize,
    lang: &treequiz::lang::Lang,
) -> Vec<String> {
    row.questions[question - 1]
        .fields
        .iter()
        .flat_map(|f| f.reasons.iter().map(|r| r.render(lang, false)))
        .collect()
}

/// Every question but `except` scored full marks.
fn others_full(row: &treequiz::grade::batch::Row, except: usize) {
    for q in row.questions.iter().filter(|q| q.number != except) {
        assert_eq!(q.earned, q.max, "q{} of {row:#?}", q.number);
    }
}

/// Issue 11: one syntax slip costs the field it is in (a broken section
/// header, the question), not the file; the reason names the line and column
/// and what to write instead.
#[test]
fn one_syntax_slip_costs_the_field_it_is_in() {
    use treequiz::grade::score::State;
    let en = treequiz::lang::Lang::builtin("en").unwrap();
    let zh = treequiz::lang::Lang::builtin("zh").unwrap();

    // An unquoted list: q4 has four fields; exactly that one is lost.
    let (row, line) = with_slip(
        4,
        r#"sum_solution = ["S -> A", "A -> D", "D -> t3"]"#,
        "sum_solution = [S -> A, A -> D, D -> t3]",
    );
    assert_eq!(row.status, Status::Graded, "{}", row.reason);
    others_full(&row, 4);
    let q4 = &row.questions[3];
    assert_eq!(q4.earned, treequiz::grade::score::round2(q4.max * 0.75));
    let field = q4
        .fields
        .iter()
        .find(|f| f.field == "sum_solution")
        .unwrap();
    assert_eq!((field.state, field.earned), (State::Invalid, 0.0));
    assert_eq!(field.given, "[S -> A, A -> D, D -> t3]");
    let why = format!(
        "line {line}, column 17: S -> A, A -> D, D -> t3 is not in quotes; write it in quotes: sum_solution = [\"S -> A\", \"A -> D\", \"D -> t3\"]"
    );
    assert_eq!(reasons_of(&row, 4, &en), std::slice::from_ref(&why));
    assert_eq!(row.problems, [format!("q4 `sum_solution`: {why}")]);

    // A Chinese quotation mark: named, at its own column, in either language.
    let (row, line) = with_slip(1, "best_move = \"B\"", "best_move = “B”");
    others_full(&row, 1);
    assert_eq!(
        reasons_of(&row, 1, &en),
        [format!(
            "line {line}, column 13: `“` is a Chinese quotation mark; type the ASCII quote \" instead: best_move = \"B\""
        )]
    );
    assert_eq!(
        reasons_of(&row, 1, &zh),
        [format!(
            "第 {line} 行第 13 列：`“` 是中文引号；请改用英文引号 \"：best_move = \"B\""
        )]
    );
    // A Chinese comma between two strings, and `＝` for `=`.
    let (row, line) = with_slip(2, r#"pruned = ["I", "J"]"#, r#"pruned = ["I"，"J"]"#);
    assert_eq!(
        reasons_of(&row, 2, &en),
        [format!(
            "line {line}, column 14: `，` is a Chinese comma; type the ASCII comma , instead: pruned = [\"I\",\"J\"]"
        )]
    );
    let (row, _) = with_slip(2, r#"pruned = ["I", "J"]"#, r#"pruned ＝ ["I", "J"]"#);
    assert!(
        reasons_of(&row, 2, &en)[0]
            .contains("`＝` is a full-width equals sign; type the ASCII equals sign = instead"),
        "{:?}",
        reasons_of(&row, 2, &en)
    );
    // A string left open, and a colon for `=`.
    let (row, line) = with_slip(1, "best_move = \"B\"", "best_move = \"B");
    assert_eq!(
        reasons_of(&row, 1, &en),
        [format!(
            "line {line}, column 15: this string is not closed on its line; end it with \" on the same line: best_move = \"B\""
        )]
    );
    let (row, _) = with_slip(2, r#"pruned = ["I", "J"]"#, r#"pruned: ["I", "J"]"#);
    others_full(&row, 2);
    assert!(
        reasons_of(&row, 2, &en)[0].ends_with("write it with =: pruned = [\"I\", \"J\"]"),
        "{:?}",
        reasons_of(&row, 2, &en)
    );

    // A broken section header loses its question, and only that one.
    let (row, line) = with_slip(2, "[q2]", "[q2");
    assert_eq!(row.status, Status::Graded);
    others_full(&row, 2);
    assert_eq!(row.questions[1].earned, 0.0);
    assert!(
        row.questions[1]
            .fields
            .iter()
            .all(|f| f.state == State::Invalid)
    );
    assert!(
        row.problems.len() == 1 && row.problems[0].starts_with("q2: line"),
        "the section's slip, not a missing question: {:?}",
        row.problems
    );
    let why = reasons_of(&row, 2, &en);
    assert!(
        why[0].starts_with(&format!(
            "section [q2] cannot be read, so none of its answers counts: line {line}, column"
        )) && why[0].ends_with("write it as [q2]"),
        "{why:?}"
    );

    // The header is still read: a slip in the student line is a problem, not a loss.
    let (book, lang, key) = textbook();
    let broken_student = key.replacen("student = \"\"", "student = 张三", 1);
    let row = grade_text(&book, &lang, broken_student);
    assert_eq!((row.status, row.total), (Status::Graded, row.max));
    assert!(
        row.problems.len() == 1 && row.problems[0].contains("张三 is not in quotes"),
        "{:?}",
        row.problems
    );
    // … while a file whose variant line cannot be read stays unreadable,
    let row = grade_text(&book, &lang, key.replacen("variant = \"", "variant = ", 1));
    assert_eq!(row.status, Status::Unreadable);
    assert!(row.reason.contains("answers.toml:"), "{}", row.reason);
    // and every other check still runs: a slip does not hide an edited checksum.
    let edited = key.replacen("checksum = \"", "checksum = \"0", 1).replacen(
        r#"pruned = ["I", "J"]"#,
        "pruned = [I, J]",
        1,
    );
    assert_eq!(
        grade_text(&book, &lang, edited).status,
        Status::WrongVariant
    );
}

/// Issue 11: what a Chinese input method types inside answers is read as the
/// ASCII it stands for: `，` and `、` separate items, `（ ）` are a state's
/// parentheses, `《=` is `<=`, a full-width letter is the letter.
#[test]
fn chinese_separators_inside_answers_are_read() {
    for (q, old, new) in [
        (2, r#"pruned = ["I", "J"]"#, r#"pruned = "I，J""#),
        (2, r#"pruned = ["I", "J"]"#, r#"pruned = "I、J""#),
        (2, r#"pruned = ["I", "J"]"#, r#"pruned = "I， J""#),
        (2, r#"pruned = ["I", "J"]"#, r#"pruned = "［I，J］""#),
        (2, r#"pruned = ["I", "J"]"#, r#"pruned = "[I, J]""#),
        (2, r#"C = "<=2""#, r#"C = "《=2""#),
        (2, r#"alpha_cuts = ["C"]"#, r#"alpha_cuts = ["Ｃ"]"#),
        (
            6,
            r#""(7,MIN)", "(6,1,MAX)""#,
            r#""（7，MIN）", "（6，1，MAX）""#,
        ),
    ] {
        let (row, _) = with_slip(q, old, new);
        assert_eq!(row.status, Status::Graded, "{new}: {}", row.reason);
        assert_eq!(row.total, row.max, "{new}: {row:#?}");
        assert!(row.problems.is_empty(), "{new}: {:?}", row.problems);
    }
}

/// Issue 11: `check` finds the set the sheet names beside the sheet or in a
/// folder above it (not only from the current folder), says `--set` when it
/// cannot, and prints plain text with `--format text` (what a terminal gets).
#[test]
fn check_finds_the_set_near_the_sheet_and_prints_text() {
    let dir = scratch("check-set");
    let set = concat!(env!("CARGO_MANIFEST_DIR"), "/problem-sets/demo.toml");
    // The teacher's layout: the sheet names `problem-sets/demo.toml`.
    std::fs::create_dir_all(dir.join("course/problem-sets")).unwrap();
    std::fs::copy(set, dir.join("course/problem-sets/demo.toml")).unwrap();
    let (code, _, err) = run_in(
        &dir.join("course"),
        &[
            "generate",
            "problem-sets/demo.toml",
            "--out",
            "week3/out",
            "--format",
            "md",
        ],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    let sheet = dir.join("course/week3/out/key.toml");
    // From a folder where `problem-sets/demo.toml` does not exist: found two folders up.
    let (code, stdout, err) = run_in(&dir, &["check", sheet.to_str().unwrap()]);
    assert_eq!((code, err.as_str()), (0, ""), "{stdout}");
    assert!(
        stdout.contains("**Total: 20 / 20**"),
        "a pipe gets Markdown: {stdout}"
    );
    // A student who keeps the set beside the sheet, in another folder.
    std::fs::create_dir_all(dir.join("hw")).unwrap();
    std::fs::copy(&sheet, dir.join("hw/key.toml")).unwrap();
    std::fs::copy(set, dir.join("hw/demo.toml")).unwrap();
    let (code, stdout, err) = run_in(&dir, &["check", "hw/key.toml", "--format", "text"]);
    assert_eq!((code, err.as_str()), (0, ""), "{stdout}");
    assert!(stdout.starts_with("Feedback: hw/key.toml\n"), "{stdout}");
    assert!(stdout.contains("Total: 20 / 20\n"), "{stdout}");
    assert!(
        stdout
            .contains("\n== Question 1: 4 / 4 ==\n  value (1.33 / 1.33): correct\n    You wrote: "),
        "{stdout}"
    );
    assert!(
        !stdout.contains("**") && !stdout.contains("## "),
        "no Markdown: {stdout}"
    );
    // Nowhere to be found: the message lists where it looked and names --set.
    std::fs::remove_file(dir.join("hw/demo.toml")).unwrap();
    let (code, stdout, err) = run_in(&dir, &["check", "hw/key.toml"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        err.contains("problem set `../../problem-sets/demo.toml`")
            && err.contains("hw/demo.toml")
            && err.contains("pass --set SET.toml"),
        "{err}"
    );
    // A slip in one answer: the sheet is still checked, the slip explained.
    let slipped = std::fs::read_to_string(&sheet).unwrap().replacen(
        "best_move = \"C\"",
        "best_move = “C”",
        1,
    );
    std::fs::write(dir.join("hw/key.toml"), slipped).unwrap();
    let (code, stdout, err) = run_in(
        &dir,
        &["check", "hw/key.toml", "--set", set, "--format", "text"],
    );
    // Practice accepts a slip it can rewrite, and says what it read.
    assert_eq!(code, 0, "{stdout}{err}");
    assert!(stdout.contains("Total: 20 / 20"), "{stdout}");
    assert!(
        stdout.contains(
            "`“` is a Chinese quotation mark; read as best_move = \"C\", which costs nothing"
        ),
        "{stdout}"
    );
}

/// Issue 12: with the key hidden, missing connectors of a solution graph are
/// one line however many are missing, so the feedback does not count the key.
#[test]
fn hidden_keys_say_once_that_connectors_are_missing() {
    let (book, lang, key) = textbook();
    let lines: Vec<&str> = key
        .lines()
        .filter(|l| l.starts_with("sum_solution = ") || l.starts_with("solution = "))
        .collect();
    assert!(!lines.is_empty(), "{key}");
    let mut text = key.clone();
    let mut connectors = 0;
    for line in &lines {
        connectors = connectors.max(line.matches("->").count());
        let field = line.split(" = ").next().unwrap();
        text = text.replacen(line, &format!("{field} = []"), 1);
    }
    assert!(
        connectors >= 2,
        "the key must have several connectors: {lines:?}"
    );
    let row = grade_source(
        &book,
        &Source {
            path: "hidden.toml".into(),
            text,
        },
        &lang,
        true,
    );
    for q in &row.questions {
        for f in &q.fields {
            let said = f
                .reasons
                .iter()
                .map(|r| r.render(&lang, true))
                .filter(|r| r == "a connector of the solution graph is missing")
                .count();
            assert!(said <= 1, "q{} {}: said {said} times", q.number, f.field);
        }
    }
    let said: usize = row
        .questions
        .iter()
        .flat_map(|q| &q.fields)
        .flat_map(|f| f.reasons.iter().map(|r| r.render(&lang, true)))
        .filter(|r| r == "a connector of the solution graph is missing")
        .count();
    assert!(said >= 1, "the missing connectors are not mentioned");
}

/// Issue 27: α- and β-cut lists given the wrong way round are said to be
/// swapped (never "no α-cut happens at F" for a β-cut), the tally never reads
/// "0 of 0 right", and `swap_rule = "half"` gives a swapped cut half a hit.
#[test]
fn swapped_cut_lists_are_recognised_and_may_earn_half() {
    use treequiz::grade::rules::SwapRule;
    use treequiz::grade::score::State;
    let set_path = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/problem-sets/midterm-zh.toml"
    ));
    // The first practice seed with a question that asks both lists and has
    // cuts of both signs.
    let line_of = |section: &str, field: &str| -> Option<String> {
        section
            .lines()
            .find(|l| l.starts_with(&format!("{field} = ")))
            .map(str::to_string)
    };
    let (mut book, lang, key, q, alpha, beta) = (0..100)
        .find_map(|seed| {
            let (book, lang, key) = keys_at(set_path, seed);
            let (q, a, b) = key.split("\n[q").enumerate().skip(1).find_map(|(i, s)| {
                let (a, b) = (line_of(s, "alpha_cuts")?, line_of(s, "beta_cuts")?);
                (!a.ends_with("[]") && !b.ends_with("[]")).then_some((i, a, b))
            })?;
            Some((book, lang, key, q, a, b))
        })
        .expect("a midterm variant with α- and β-cuts in one question");
    let values = |l: &str| l.split_once(" = ").unwrap().1.to_string();
    // Within question q's section only (another question may hold the same lines).
    let start = key.find(&format!("\n[q{q}]")).unwrap();
    // A whole line (the comment above it shows an example of the same form).
    let in_q = |text: &str, old: &str, new: &str| {
        let at = start + text[start..].find(&format!("\n{old}\n")).unwrap() + 1;
        format!("{}{new}{}", &text[..at], &text[at + old.len()..])
    };
    let swapped = in_q(&key, &alpha, "ALPHA");
    let swapped = in_q(&swapped, &beta, &format!("beta_cuts = {}", values(&alpha)));
    let swapped = in_q(
        &swapped,
        "ALPHA",
        &format!("alpha_cuts = {}", values(&beta)),
    );
    let row = grade_text(&book, &lang, swapped.clone());
    let cuts = |row: &treequiz::grade::batch::Row, name: &str| {
        row.questions[q - 1]
            .fields
            .iter()
            .find(|f| f.field == name)
            .unwrap()
            .clone()
    };
    let (a, b) = (cuts(&row, "alpha_cuts"), cuts(&row, "beta_cuts"));
    assert_eq!(
        (a.state, b.state, a.earned, b.earned),
        (State::Wrong, State::Wrong, 0.0, 0.0)
    );
    assert_eq!(
        a.reasons
            .iter()
            .map(|r| r.render(&lang, false))
            .collect::<Vec<_>>(),
        ["these are the β-cuts, not the α-cuts: your two lists are swapped"]
    );
    let tally = b.tally.as_ref().unwrap().render(&lang, false);
    assert!(
        tally.starts_with("0 of ") && tally.contains(" in the other list, "),
        "{tally}"
    );

    // Under `swap_rule = "half"` each list earns half.
    for v in &mut book.variants {
        for question in &mut v.questions {
            question.scoring.swaps = SwapRule::Half;
        }
    }
    let row = grade_text(&book, &lang, swapped);
    let (a, b) = (cuts(&row, "alpha_cuts"), cuts(&row, "beta_cuts"));
    assert_eq!((a.state, b.state), (State::Partial, State::Partial));
    assert!((a.earned - a.max / 2.0).abs() < 1e-9 && (b.earned - b.max / 2.0).abs() < 1e-9);

    // One β-cut put among the α-cuts, the rest right: named as a β-cut.
    let one_beta = values(&beta);
    let first_beta = one_beta
        .trim_matches(['[', ']'])
        .split(", ")
        .next()
        .unwrap();
    let alpha_plus = format!(
        "alpha_cuts = [{}, {first_beta}]",
        values(&alpha).trim_matches(['[', ']'])
    );
    let row = grade_text(&book, &lang, in_q(&key, &alpha, &alpha_plus));
    let a = cuts(&row, "alpha_cuts");
    let node = first_beta.trim_matches('"');
    assert!(
        a.reasons.iter().any(
            |r| r.render(&lang, false) == format!("the cut at {node} is a β-cut, not an α-cut")
        ),
        "{:?}",
        a.reasons
            .iter()
            .map(|r| r.render(&lang, false))
            .collect::<Vec<_>>()
    );
}

/// An exam of `set` for one student, `s1`, with a fixed secret, in `dir/exam`.
fn exam_of_one(dir: &Path, set: &str) {
    std::fs::write(
        dir.join("exam.secret"),
        "69f6fcb3d23e50d07284065b2873e772\n",
    )
    .unwrap();
    std::fs::write(dir.join("class.csv"), "id,name\ns1,Ada Lovelace\n").unwrap();
    let set = format!("{}/problem-sets/{set}", env!("CARGO_MANIFEST_DIR"));
    let (code, _, err) = run_in(
        dir,
        &[
            "generate",
            &set,
            "--roster",
            "class.csv",
            "--secret",
            "exam.secret",
            "--out",
            "exam",
            "--format",
            "md",
        ],
    );
    assert_eq!((code, err.as_str()), (0, ""), "{set}");
}

/// A wrong answer of the same form as `key`'s: every label moved to the next
/// one of its kind in the figure (a bijection, so no list changes length),
/// every number made one larger, MAX and MIN swapped.
fn wrong_of_the_same_form(key: &str, form: &serde_json::Value) -> String {
    let mut sheet: toml::Table = toml::from_str(key).unwrap();
    for q in form["questions"].as_array().unwrap() {
        let number = q["number"].as_u64().unwrap();
        let figure = &q["figure"];
        let list = |name: &str| -> Vec<String> {
            figure[name]
                .as_array()
                .map(|items| {
                    items
                        .iter()
                        .map(|i| match i.as_str() {
                            Some(s) => s.to_string(),
                            None => {
                                let to: Vec<&str> = i["to"]
                                    .as_array()
                                    .unwrap()
                                    .iter()
                                    .map(|t| t.as_str().unwrap())
                                    .collect();
                                format!("{} -> {}", i["from"].as_str().unwrap(), to.join(" + "))
                            }
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let (nodes, connectors, moves) = (list("nodes"), list("connectors"), list("moves"));
        let next = |items: &[String], text: &str| -> String {
            let squash = |s: &str| s.replace(' ', "").to_lowercase();
            match items.iter().position(|i| squash(i) == squash(text)) {
                Some(at) => items[(at + 1) % items.len()].clone(),
                // A game's path of squares: each square moved on.
                None => text
                    .split('-')
                    .map(|sq| {
                        let at = items.iter().position(|i| squash(i) == squash(sq)).unwrap();
                        items[(at + 1) % items.len()].clone()
                    })
                    .collect::<Vec<_>>()
                    .join("-"),
            }
        };
        let number_up = |s: &str| -> String {
            let digits: String = s.chars().filter(|c| c.is_ascii_digit()).collect();
            match digits.parse::<i64>() {
                Ok(n) => s.replacen(&digits, &(n + 1).to_string(), 1),
                Err(_) => s.to_string(),
            }
        };
        let section = sheet
            .get_mut(&format!("q{number}"))
            .unwrap()
            .as_table_mut()
            .unwrap();
        for field in q["fields"].as_array().unwrap() {
            let name = field["name"].as_str().unwrap();
            let names = field["names"].as_str().unwrap();
            let label = |text: &str| -> String {
                match names {
                    "connectors" => next(&connectors, text),
                    "moves" => next(&moves, text),
                    "players" if text == "MAX" => "MIN".into(),
                    "players" => "MAX".into(),
                    _ => next(&nodes, text),
                }
            };
            let value = section.get_mut(name).unwrap();
            *value = match value.clone() {
                toml::Value::Integer(n) => toml::Value::Integer(n + 1),
                toml::Value::String(s) => toml::Value::String(label(&s)),
                toml::Value::Array(items) => toml::Value::Array(
                    items
                        .iter()
                        .map(|i| toml::Value::String(label(i.as_str().unwrap())))
                        .collect(),
                ),
                toml::Value::Table(rows) => toml::Value::Table(
                    rows.iter()
                        .map(|(k, v)| {
                            let v = match v {
                                toml::Value::Integer(n) => toml::Value::Integer(n + 1),
                                toml::Value::String(s) => toml::Value::String(number_up(s)),
                                other => other.clone(),
                            };
                            (next(&nodes, k), v)
                        })
                        .collect(),
                ),
                other => other,
            };
        }
    }
    toml::to_string(&sheet).unwrap()
}

/// Issue 29 §3: `check` on an exam sheet has no key, and a test proves it
/// tells nothing of one: for every shipped set, the key's answers and a
/// wrong answer of the same form (the same number of items, other labels
/// and numbers) get byte-identical output, while the grader scores them apart.
#[test]
fn exam_check_says_the_same_for_the_key_and_a_wrong_answer_of_its_form() {
    let dir = scratch("exam-check-same");
    for set in crate::common::shipped_sets() {
        let name = set.file_name().unwrap().to_str().unwrap().to_string();
        let here = dir.join(&name);
        std::fs::create_dir_all(&here).unwrap();
        exam_of_one(&here, &name);
        let key = std::fs::read_to_string(here.join("exam/keys/s1/key.toml")).unwrap();
        let form: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(here.join("exam/s1/form.json")).unwrap())
                .unwrap();
        let wrong = wrong_of_the_same_form(&key, &form);
        let sheet = here.join("exam/s1/answer-sheet.toml");
        let mut outputs = Vec::new();
        let mut totals = Vec::new();
        for (answers, report) in [(&key, "key-report"), (&wrong, "wrong-report")] {
            std::fs::write(&sheet, answers).unwrap();
            outputs.push(run_in(&here, &["check", "exam/s1/answer-sheet.toml"]));
            let (code, _, err) = run_in(
                &here,
                &["grade", "exam/s1", "--manifest", "exam", "--out", report],
            );
            assert!(code <= 1, "{name}: {err}");
            let grades = std::fs::read_to_string(here.join(report).join("grades.csv")).unwrap();
            let row = grades.lines().nth(1).unwrap().to_string();
            totals.push(row.split(',').nth(8).unwrap().parse::<f64>().unwrap());
        }
        assert_eq!(outputs[0], outputs[1], "{name}:\n{key}\n---\n{wrong}");
        let (code, stdout, err) = &outputs[0];
        assert_eq!((*code, err.as_str()), (0, ""), "{name}: {stdout}");
        assert!(
            stdout.ends_with("every answer will be read as it is.\n")
                || stdout.ends_with("每个答案都将照原样读取。\n"),
            "{name}: {stdout}"
        );
        assert!(
            totals[1] < totals[0],
            "{name}: the wrong answer is wrong: {totals:?}\n{wrong}"
        );
    }
}

/// Issue 29 §3: a student checks an exam sheet with a slip (a Chinese
/// quotation mark, a Chinese comma) and a label the figure does not have,
/// and reads where each is, what it would be read as and what it costs.
#[test]
fn exam_check_names_slips_and_unknown_labels_where_they_are() {
    let dir = scratch("exam-check-slips");
    exam_of_one(&dir, "demo.toml");
    let key = std::fs::read_to_string(dir.join("exam/keys/s1/key.toml")).unwrap();
    let best = key
        .lines()
        .find(|l| l.starts_with("best_move = "))
        .unwrap()
        .to_string();
    let line = key.lines().position(|l| l == best).unwrap() + 1;
    let label = best.trim_start_matches("best_move = ").trim_matches('"');
    let sheet = key
        .replacen(&best, &format!("best_move = “{label}”"), 1)
        .replacen("\npruned = [", "\npruned = [\"Q9\", ", 1)
        .replacen("expanded = [\"n0\", ", "expanded = [\"n0\"， ", 1);
    std::fs::write(dir.join("exam/s1/answer-sheet.toml"), &sheet).unwrap();
    let (code, stdout, err) = run_in(&dir, &["check", "exam/s1/answer-sheet.toml"]);
    assert_eq!((code, err.as_str()), (1, ""), "{stdout}");
    let expect = [
        "exam/s1/answer-sheet.toml: the exam answer sheet of s1 (variant ".to_string(),
        "This check has no key: it reads the form of your answers, as the grader will, and says nothing of whether they are right.".into(),
        format!("  - `best_move`: line {line}, column 13: `“` is a Chinese quotation mark; read as best_move = \"{label}\", which costs nothing\n"),
        "  - `pruned`: there is no node Q9 in this figure\n".into(),
        "`，` is a Chinese comma; read as expanded = [\"n0\", ".into(),
        "What will be graded:\n  - q1: `value` a number; `values` a table of ".into(),
        "`best_move` a label (read from a slip)\n".into(),
        "3 to fix (above) before you hand it in.\n".into(),
    ];
    for e in &expect {
        assert!(stdout.contains(e.as_str()), "{e}\n---\n{stdout}");
    }
    // Nothing of the key: not a word of right or wrong, no score.
    for word in ["correct", "wrong", "Key", "/ 20"] {
        assert!(!stdout.contains(word), "{word}: {stdout}");
    }
    // The grader reads the sheet as check said.
    let (_, _, err) = run_in(
        &dir,
        &["grade", "exam/s1", "--manifest", "exam", "--out", "report"],
    );
    assert_eq!(err, "");
    let grades = std::fs::read_to_string(dir.join("report/grades.csv")).unwrap();
    assert!(
        grades.contains("there is no node Q9 in this figure"),
        "{grades}"
    );
}

/// Issue 29 §3: a Chinese exam sheet is checked in Chinese.
#[test]
fn exam_check_speaks_the_sheet_language() {
    let dir = scratch("exam-check-zh");
    exam_of_one(&dir, "midterm-zh.toml");
    let key = std::fs::read_to_string(dir.join("exam/keys/s1/key.toml")).unwrap();
    let value = key.lines().find(|l| l.starts_with("value = ")).unwrap();
    let sheet = key.replacen(value, "value = \"\"", 1);
    std::fs::write(dir.join("exam/s1/answer-sheet.toml"), sheet).unwrap();
    let (code, stdout, err) = run_in(&dir, &["check", "exam/s1/answer-sheet.toml"]);
    assert_eq!((code, err.as_str()), (0, ""), "{stdout}");
    assert!(stdout.contains("本检查没有答案"), "{stdout}");
    assert!(stdout.contains("  - `value`: 尚未作答\n"), "{stdout}");
    assert!(
        stdout.contains("第 2 题（α-β 剪枝，20 分）：每个字段都能读取"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("无需修改：每个答案都将照原样读取。\n"),
        "{stdout}"
    );
}

/// Issue 29 §2: `check --hint N` shows hint N of each question of a
/// practice sheet after its feedback, question first, then its answer, in
/// the set's language, and counts them; `--question Q` shows one question's.
#[test]
fn check_hint_shows_one_step_of_each_question_and_counts_it() {
    let dir = scratch("check-hint");
    let set = concat!(env!("CARGO_MANIFEST_DIR"), "/problem-sets/demo.toml");
    std::fs::copy(set, dir.join("demo.toml")).unwrap();
    let (code, _, err) = run_in(&dir, &["generate", "demo.toml", "--out", "out"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let sheet = "out/answer-sheet.toml";
    let (code, stdout, err) = run_in(&dir, &["check", sheet, "--hint", "1", "--format", "text"]);
    assert_eq!((code, err.as_str()), (0, ""), "{stdout}");
    assert!(
        stdout.ends_with(concat!(
            "\n== Hints ==\n",
            "  Question 1 · Hint 1: What is the value of D?\n",
            "    D = max(3, 5) = 5\n",
            "  Question 2 · Hint 1: What is the window when B is entered?\n",
            "    α = −∞, β = +∞\n",
            "  Question 3 · Hint 1: Which tip does cycle 1 expand?\n",
            "    Cycle 1 expands n0.\n",
            "  3 hints taken.\n",
        )),
        "{stdout}"
    );
    let (code, stdout, err) = run_in(
        &dir,
        &[
            "check",
            sheet,
            "--hint",
            "2",
            "--question",
            "3",
            "--format",
            "md",
        ],
    );
    assert_eq!((code, err.as_str()), (0, ""), "{stdout}");
    assert!(
        stdout.ends_with(concat!(
            "\n## Hints\n\n",
            "- **Question 3 · Hint 2**: Why does cycle 1 expand n0?\n",
            "  - the first cycle expands the start node\n",
            "\n1 hint taken.\n",
        )),
        "{stdout}"
    );
    // Past a question's last hint: said, and not counted.
    let (_, stdout, _) = run_in(
        &dir,
        &[
            "check",
            sheet,
            "--hint",
            "99",
            "--question",
            "1",
            "--format",
            "text",
        ],
    );
    assert!(
        stdout.ends_with(
            "  Question 1 · Hint 99: this question has only 7 hints\n  0 hints taken.\n"
        ),
        "{stdout}"
    );
    // Without --hint, no hint and no count.
    let (_, stdout, _) = run_in(&dir, &["check", sheet, "--format", "text"]);
    assert!(!stdout.contains("Hint"), "{stdout}");
    let (code, _, err) = run_in(&dir, &["check", sheet, "--hint", "1", "--question", "9"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--question 9: the sheet's questions are 1 to 3"),
        "{err}"
    );
}

/// Issue 29 §2: an exam sheet is never hinted, whether it is checked by its
/// form or its keys are named with --set and --seed.
#[test]
fn hints_never_appear_for_exam_sheets() {
    let dir = scratch("exam-no-hint");
    exam_of_one(&dir, "demo.toml");
    let key = std::fs::read_to_string(dir.join("exam/keys/s1/key.toml")).unwrap();
    std::fs::write(dir.join("exam/s1/answer-sheet.toml"), &key).unwrap();
    let set = concat!(env!("CARGO_MANIFEST_DIR"), "/problem-sets/demo.toml");
    for extra in [&[][..], &["--set", set, "--seed", "1"][..]] {
        let mut args = vec!["check", "exam/s1/answer-sheet.toml", "--hint", "1"];
        args.extend_from_slice(extra);
        let (code, stdout, err) = run_in(&dir, &args);
        assert_eq!((code, stdout.as_str()), (2, ""), "{extra:?}");
        assert!(
            err.contains("hints are for practice sheets") && err.contains("never hinted"),
            "{err}"
        );
    }
    let (code, stdout, _) = run_in(
        &dir,
        &[
            "check",
            "exam/s1/answer-sheet.toml",
            "--hint",
            "1",
            "--form",
            "exam/s1/form.json",
        ],
    );
    assert_eq!((code, stdout.as_str()), (2, ""));
}
