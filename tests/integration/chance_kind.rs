//! The `expectiminimax` kind end to end: a problem set of chance trees
//! (generated and CS188's lecture tree), its sheets and keys, grading with
//! teaching feedback in English and Chinese, and Moodle's sub-questions.

use crate::common::{root, run, scratch};

/// A set with a generated weighted tree whose best move differs from
/// minimax's, and CS188's q4 lecture tree, in `language`.
fn set(dir: &std::path::Path, language: &str) -> std::path::PathBuf {
    let lecture = root().join("tests/fixtures/cs188/q4/0-expectimax1.test");
    let text = format!(
        "title = \"Chance\"\nlanguage = \"{language}\"\nseed = 4\n\n\
         [[exercise]]\nkind = \"expectiminimax\"\npoints = 6\ndepth = 2\nweighted = true\ndiffers_from_minimax = true\nunique_best = true\n\n\
         [[exercise]]\nkind = \"expectiminimax\"\npoints = 4\ninstance_file = \"{}\"\n",
        lecture.display()
    );
    let path = dir.join(format!("set-{language}.toml"));
    std::fs::write(&path, text).unwrap();
    path
}

fn check(dir: &std::path::Path, set: &std::path::Path, sheet: &str) -> String {
    let file = dir.join("sheet.toml");
    std::fs::write(&file, sheet).unwrap();
    let (code, out, err) = run(&[
        "check",
        file.to_str().unwrap(),
        "--set",
        set.to_str().unwrap(),
        "--format",
        "text",
    ]);
    assert_eq!(code, 0, "{err}");
    out
}

/// The key grades full marks; a chance node's wrong value is explained by
/// its weighted mean ("(3 + 12 + 8) / 3 = 23/3"), a wrong best move by the
/// root's children's values; `7.67` is not 23/3; nothing of the sheet
/// holds a key's value.
#[test]
fn expectiminimax_sets_generate_grade_and_teach() {
    let dir = scratch("chance-kind");
    for (language, mean, best, decimal) in [
        (
            "en",
            "exp1 is a chance node: its value is the probability-weighted mean of its children's values, (3 + 12 + 8) / 3 = 23/3, not 8",
            "MAX moves to the child of the largest value: exp1 = 23/3 ≈ 7.67, exp2 = 4, exp3 = 7; so exp1, not exp3",
            "(14 + 5 + 2) / 3 = 7, not 7.67",
        ),
        (
            "zh",
            "exp1 是机会结点：其值为各子结点值的概率加权平均，(3 + 12 + 8) / 3 = 23/3，不是 8",
            "MAX 走向值最大的子结点：exp1 = 23/3 ≈ 7.67, exp2 = 4, exp3 = 7；所以是 exp1，不是 exp3",
            "(14 + 5 + 2) / 3 = 7，不是 7.67",
        ),
    ] {
        let set = set(&dir, language);
        let out = dir.join(format!("out-{language}"));
        let (code, _, err) = run(&[
            "generate",
            set.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--format",
            "md,html,moodle",
        ]);
        assert_eq!(code, 0, "{err}");
        // Moodle asks every field: a fraction typed, a whole number as a number.
        assert!(!err.contains("leaves out"), "{err}");
        let bank = std::fs::read_to_string(out.join("moodle.xml")).unwrap();
        for sub in [
            "{1:SHORTANSWER:=23/3}",
            "{1:NUMERICAL:=4:0}",
            "{1:NUMERICAL:=7:0}",
        ] {
            assert!(bank.contains(sub), "{sub}: {bank}");
        }
        let key = std::fs::read_to_string(out.join("key.toml")).unwrap();
        assert!(
            key.contains("values = { max = \"23/3\", exp1 = \"23/3\", exp2 = 4, exp3 = 7 }"),
            "{key}"
        );
        let sheet = std::fs::read_to_string(out.join("worksheet.md")).unwrap();
        assert!(!sheet.contains("23/3\"") || !sheet.contains("exp1 = \"23/3\""));
        assert!(
            !sheet.contains("49/5") && !sheet.contains("54/7"),
            "{sheet}"
        );
        let key_md = std::fs::read_to_string(out.join("key.md")).unwrap();
        assert!(
            key_md.contains("| exp1 | CHANCE | (3 + 12 + 8) / 3 = 23/3 |"),
            "{key_md}"
        );

        let full = check(&dir, &set, &key);
        assert!(full.contains("10 / 10"), "{full}");
        let wrong = key
            .replace(
                "exp1 = \"23/3\", exp2 = 4, exp3 = 7",
                "exp1 = 8, exp2 = 4, exp3 = 7.67",
            )
            .replace("best_move = \"exp1\"", "best_move = \"exp3\"");
        let feedback = check(&dir, &set, &wrong);
        assert!(feedback.contains(mean), "{feedback}");
        assert!(feedback.contains(best), "{feedback}");
        // A decimal is the number it writes: 7.67 is not 7, shown as written.
        assert!(feedback.contains(decimal), "{feedback}");
    }
}

/// A fraction written in any exact form is right: `"46/6"` and `7` as `7.0`.
#[test]
fn exact_values_are_right_in_any_form() {
    let dir = scratch("chance-forms");
    let set = set(&dir, "en");
    let out = dir.join("out");
    let (code, _, err) = run(&[
        "generate",
        set.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--format",
        "md",
    ]);
    assert_eq!(code, 0, "{err}");
    let key = std::fs::read_to_string(out.join("key.toml")).unwrap();
    let other = key.replace(
        "values = { max = \"23/3\", exp1 = \"23/3\", exp2 = 4, exp3 = 7 }",
        "values = { max = \"46/6\", exp1 = \" 23 / 3 \", exp2 = \"4\", exp3 = 7.0 }",
    );
    assert_ne!(other, key);
    let feedback = check(&dir, &set, &other);
    assert!(feedback.contains("10 / 10"), "{feedback}");
}

/// Edited chance-tree files (a teacher's) and typed values (a student's)
/// never panic: read, solved, explained and drawn, or refused.
#[test]
fn mangled_chance_trees_and_values_never_panic() {
    use treequiz::rng::Rng;
    let original = "kind = \"chance-tree\"\nlevels = [\"max\", \"chance\", \"min\"]\ntree = [[3, 12, [8, 1]], [2, -4.5, 6], [14, 5, 2]]\n\n[probabilities]\nB = [\"1/6\", 0.5, \"1/3\"]\nD = [\"1/2\", \"1/4\", \"1/4\"]\n";
    let alphabet: Vec<char> = "[]{}\",=./-+0123456789 \n#abcdfimnx".chars().collect();
    let case = |seed: u64| {
        let mut rng = Rng::from_seed(seed);
        crate::common::mangle(original, &mut rng, &alphabet, (1, 4))
    };
    let kind = treequiz::exercise::kind("expectiminimax").unwrap();
    let lang = treequiz::lang::Lang::builtin("en").unwrap();
    let read = crate::common::never_panics("chance trees", 3_000, case, |seed| {
        let source = treequiz::input::Source {
            path: "m.toml".into(),
            text: case(seed),
        };
        let Ok(instance) = treequiz::instance::parse(&source) else {
            return false;
        };
        if (kind.unusable)(&instance).is_some() {
            return false;
        }
        let conventions = treequiz::exercise::Conventions::default();
        let key = (kind.solve)(&instance, &conventions);
        let explained = kind.explain_key(
            &instance,
            &key,
            &conventions,
            &["values", "best_move"],
            &lang,
        );
        !treequiz::draw::to_svg(&explained.figure).is_empty()
    });
    // Most edits break a sum to 1; enough still read to be solved.
    assert!(read > 50, "{read}");
    let typed = |seed: u64| {
        let mut rng = Rng::from_seed(seed);
        crate::common::mangle("-23/3", &mut rng, &alphabet, (1, 6))
    };
    crate::common::never_panics("typed values", 20_000, typed, |seed| {
        treequiz::value::Ratio::parse(&typed(seed)).is_some()
    });
}
