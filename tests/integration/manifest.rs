//! The manifest read back: typed keys graded without solving again, tampered
//! and damaged manifests refused with positions, never a panic; and the class
//! summary that groups one mistake across students in every language.

use treequiz::grade::key::KeyBook;
use treequiz::input::Source;

use crate::common::{generate, run, scratch};

/// The demo set generated into a fresh folder; returns (folder, the manifest
/// indented, as a teacher would edit it by hand).
fn demo(name: &str) -> (std::path::PathBuf, String) {
    let out = scratch(name);
    let (code, _, err) = generate("problem-sets/demo.toml", out.to_str().unwrap(), &[]);
    assert_eq!((code, err.as_str()), (0, ""));
    let text = std::fs::read_to_string(out.join("manifest.json")).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    (out, serde_json::to_string_pretty(&value).unwrap() + "\n")
}

/// `grade` with a manifest whose text is `manifest`; returns (code, stderr).
fn grade_with(out: &std::path::Path, manifest: &str) -> (i32, String) {
    let path = out.join("tampered.json");
    std::fs::write(&path, manifest).unwrap();
    let (code, _, err) = run(&[
        "grade",
        "--manifest",
        path.to_str().unwrap(),
        out.join("key.toml").to_str().unwrap(),
        "--out",
        out.join("report").to_str().unwrap(),
        "--force",
    ]);
    (code, err)
}

/// Practice sheets of problem-sets/SET.toml (seed 7, Markdown) for the
/// students `ids`, in a fresh folder; returns (folder, the sheets' folder).
fn practice_class(name: &str, set: &str, ids: &[&str]) -> (std::path::PathBuf, std::path::PathBuf) {
    let out = scratch(name);
    let roster = out.join("class.csv");
    std::fs::write(&roster, format!("id\n{}\n", ids.join("\n"))).unwrap();
    let exam = out.join("exam");
    let (code, _, err) = generate(
        &format!("problem-sets/{set}.toml"),
        exam.to_str().unwrap(),
        &[
            "--roster",
            roster.to_str().unwrap(),
            "--seed",
            "7",
            "--format",
            "md",
        ],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    (out, exam)
}

#[test]
fn a_manifest_reads_back_the_keys_it_wrote() {
    let (out, _) = demo("manifest-roundtrip");
    let text = std::fs::read_to_string(out.join("manifest.json")).unwrap();
    let book = KeyBook::from_manifest(&Source {
        path: "manifest.json".into(),
        text: text.clone(),
    })
    .unwrap();
    assert_eq!(book.variants.len(), 1);
    assert_eq!(book.language, "en");
    // The key file graded against the manifest's keys scores everything.
    let (code, _, err) = run(&[
        "grade",
        "--manifest",
        out.join("manifest.json").to_str().unwrap(),
        out.join("key.toml").to_str().unwrap(),
        "--out",
        out.join("report").to_str().unwrap(),
    ]);
    assert_eq!((code, err.as_str()), (0, ""));
    let grades = std::fs::read_to_string(out.join("report/grades.csv")).unwrap();
    assert!(
        grades.lines().nth(1).unwrap().contains(",graded,"),
        "{grades}"
    );
    let manifest: treequiz::manifest::Manifest = serde_json::from_str(&text).unwrap();
    assert_eq!(manifest.format, treequiz::manifest::FORMAT);
    assert_eq!(
        manifest.to_json(),
        text,
        "written and read by the same type"
    );
}

#[test]
fn a_kind_changed_by_hand_is_refused_not_a_panic() {
    // Regression: exercise 1 changed to `"kind": "ao-star"` hit `unreachable!`.
    let (out, text) = demo("manifest-kind");
    let tampered = text.replacen("\"kind\": \"minimax\"", "\"kind\": \"ao-star\"", 1);
    let (code, err) = grade_with(&out, &tampered);
    assert_eq!(code, 2, "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        err.contains("exercises[0]") && err.contains("AND/OR graph"),
        "{err}"
    );
}

#[test]
fn a_damaged_scoring_rule_is_refused_where_it_is() {
    // Regression: a damaged `scoring` entry silently fell back to the defaults.
    let (out, text) = demo("manifest-scoring");
    let tampered = text.replacen("\"sets\": \"penalty\"", "\"sets\": \"generous\"", 1);
    let line = tampered
        .lines()
        .position(|l| l.contains("generous"))
        .unwrap()
        + 1;
    let (code, err) = grade_with(&out, &tampered);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("generous"), "{err}");
    assert!(err.contains(&format!("tampered.json:{line}:")), "{err}");
    assert!(err.contains("scoring.sets"), "the key path: {err}");
}

#[test]
fn a_renumbered_question_is_refused() {
    let (out, text) = demo("manifest-number");
    let tampered = text.replacen("\"number\": 2,", "\"number\": 1,", 1);
    assert_ne!(tampered, text);
    let (code, err) = grade_with(&out, &tampered);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("numbered 1, but it is question 2"), "{err}");
}

#[test]
fn a_key_naming_a_node_the_instance_lacks_is_refused() {
    let (out, text) = demo("manifest-ids");
    let tampered = text.replacen("\"n2\"", "\"n999\"", 1);
    assert_ne!(tampered, text);
    let (code, err) = grade_with(&out, &tampered);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("names something the instance lacks"), "{err}");
}

#[test]
fn a_manifest_of_the_first_format_says_to_generate_again() {
    let (out, text) = demo("manifest-old");
    let format = format!("  \"format\": {},\n", treequiz::manifest::FORMAT);
    let old = text.replacen(&format, "", 1);
    assert_ne!(old, text);
    let (code, err) = grade_with(&out, &old);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("older treequiz"), "{err}");
}

/// A manifest of format 2 lists every node's minimax value, the deepest
/// level's leaves too (format 3 leaves them to the tree): this build reads it
/// and grades as it does its own.
#[test]
fn a_manifest_of_format_2_grades_as_format_3() {
    let (out, text) = demo("manifest-format-2");
    let mut old: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(old["format"], 3);
    old["format"] = 2.into();
    let mut traces = 0;
    for v in old["variants"].as_array_mut().unwrap() {
        for e in v["exercises"].as_array_mut().unwrap() {
            if e["key"]["trace"]["solver"] != "minimax" {
                continue;
            }
            // Level by level from the root: the last level is all leaves.
            let mut level = vec![e["instance"]["tree"].clone()];
            while level.iter().any(|n| n.is_array()) {
                level = level
                    .iter()
                    .flat_map(|n| n.as_array().cloned().unwrap_or_default())
                    .collect();
            }
            let values = e["key"]["trace"]["values"].as_array_mut().unwrap();
            values.extend(level);
            traces += 1;
        }
    }
    assert!(traces > 0, "the demo set has a minimax exercise");
    // Each graded into the same report folder (`grade_with` replaces it).
    let report = |manifest: &str| {
        let (code, err) = grade_with(&out, manifest);
        assert_eq!((code, err.as_str()), (0, ""));
        files_under(&out.join("report"))
    };
    let new = report(&text);
    let old = report(&(serde_json::to_string_pretty(&old).unwrap() + "\n"));
    assert!(!new.is_empty());
    assert_eq!(old, new);
}

/// Every file under `dir`, by path from it, with its bytes.
fn files_under(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let name = path.strip_prefix(dir).unwrap().display().to_string();
                files.push((name, std::fs::read(&path).unwrap()));
            }
        }
    }
    files.sort();
    files
}

/// A minimax trace keeps a value for each node above the deepest level, or
/// (format 2) for every node; a list of any other length is refused.
#[test]
fn a_minimax_trace_of_another_length_is_refused() {
    let (out, text) = demo("manifest-minimax-length");
    let mut m: serde_json::Value = serde_json::from_str(&text).unwrap();
    let exercises = m["variants"][0]["exercises"].as_array_mut().unwrap();
    let e = exercises
        .iter_mut()
        .find(|e| e["key"]["trace"]["solver"] == "minimax")
        .expect("the demo set has a minimax exercise");
    e["key"]["trace"]["values"].as_array_mut().unwrap().pop();
    let (code, err) = grade_with(&out, &serde_json::to_string_pretty(&m).unwrap());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("trace does not fit the instance"), "{err}");
}

/// How many mangled manifests each never-panic test reads (raise with
/// `TREEQUIZ_FUZZ_CASES`); cases are seeded, so a failure names its seed.
fn cases(default: u64) -> u64 {
    std::env::var("TREEQUIZ_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn mangled_manifests_never_panic_the_grader() {
    let (out, text) = demo("manifest-fuzz");
    let key = std::fs::read_to_string(out.join("key.toml")).unwrap();
    let lang = treequiz::lang::Lang::builtin("en").unwrap();
    // Edits where they matter most: digits (ids, values), quotes and brackets.
    let alphabet: Vec<char> = "0123456789\"[]{},:-n".chars().collect();
    let (mut read, n) = (0, cases(3_000));
    for seed in 0..n {
        let mut rng = treequiz::rng::Rng::from_seed(seed);
        let mangled = crate::common::mangle(&text, &mut rng, &alphabet, (1, 3));
        let outcome = std::panic::catch_unwind(|| {
            let source = Source {
                path: "m.json".into(),
                text: mangled.clone(),
            };
            KeyBook::from_manifest(&source).map(|book| {
                let sheet = Source {
                    path: "key.toml".into(),
                    text: key.clone(),
                };
                treequiz::grade::batch::grade_source(&book, &sheet, &lang, seed % 2 == 0)
            })
        });
        match outcome {
            Ok(Ok(_)) => read += 1,
            Ok(Err(e)) => assert!(e.to_string().contains("m.json"), "seed {seed}: {e}"),
            Err(_) => panic!("seed {seed} panicked"),
        }
    }
    // Some edits keep the manifest valid (a changed leaf value, an id still in range).
    assert!(read > 0, "no mangled manifest was read in {n} cases");
}

#[test]
fn one_mistake_of_many_students_is_one_summary_line_in_chinese() {
    let (out, exam) = practice_class("summary-zh", "midterm-zh", &["s1", "s2", "s3", "s4"]);
    let handed = out.join("handed-in");
    std::fs::create_dir_all(&handed).unwrap();
    for s in ["s1", "s2", "s3", "s4"] {
        let key = std::fs::read_to_string(exam.join(format!("keys/{s}/key.toml"))).unwrap();
        // Everyone gets question 1's root value wrong, each on their own tree.
        let at = key.find("[q1]").unwrap();
        let line_start = at + key[at..].find("\nvalue = ").unwrap() + 1;
        let line_end = line_start + key[line_start..].find('\n').unwrap();
        let wrong = format!("{}value = 999{}", &key[..line_start], &key[line_end..]);
        std::fs::write(handed.join(format!("{s}.toml")), wrong).unwrap();
    }
    // A stray sheet: its row's reason is in the set's language too.
    std::fs::write(handed.join("stray.toml"), "variant = \"ZZZZZZ\"\n").unwrap();
    let report = out.join("report");
    let (code, _, err) = run(&[
        "grade",
        "--manifest",
        exam.join("manifest.json").to_str().unwrap(),
        handed.to_str().unwrap(),
        "--out",
        report.to_str().unwrap(),
    ]);
    // Exit code 1: a row needs the teacher's attention (the stray sheet).
    assert_eq!((code, err.as_str()), (1, ""));
    let summary = std::fs::read_to_string(report.join("summary.md")).unwrap();
    let q1: Vec<&str> = summary
        .lines()
        .filter(|l| l.contains("（q1 `value`）"))
        .collect();
    assert_eq!(q1.len(), 1, "one line for one mistake:\n{summary}");
    assert!(q1[0].starts_with("- 100 %"), "{summary}");
    assert!(q1[0].contains("999") && q1[0].contains("值"), "{summary}");
    // Counts, averages, statuses and batch reasons speak the set's language.
    assert!(summary.contains("共交来 5 个文件"), "{summary}");
    assert!(
        summary.contains("平均") && summary.contains("中位数"),
        "{summary}"
    );
    assert!(summary.contains("这套试卷中没有版本 ZZZZZZ"), "{summary}");
    for english in ["files:", "mean ", "median", "unknown-variant", "no variant"] {
        assert!(!summary.contains(english), "`{english}` in:\n{summary}");
    }
    // The same students in English: still one line.
    let report_en = out.join("report-en");
    let en = exam.join("manifest-en.json");
    let manifest = std::fs::read_to_string(exam.join("manifest.json")).unwrap();
    std::fs::write(
        &en,
        manifest.replacen("\"language\":\"zh\"", "\"language\":\"en\"", 1),
    )
    .unwrap();
    let (code, _, err) = run(&[
        "grade",
        "--manifest",
        en.to_str().unwrap(),
        handed.to_str().unwrap(),
        "--out",
        report_en.to_str().unwrap(),
    ]);
    // Exit code 1: a row needs the teacher's attention (the stray sheet).
    assert_eq!((code, err.as_str()), (1, ""));
    let summary = std::fs::read_to_string(report_en.join("summary.md")).unwrap();
    let q1: Vec<&str> = summary
        .lines()
        .filter(|l| l.contains("(q1 `value`)"))
        .collect();
    assert_eq!(q1.len(), 1, "{summary}");
    assert!(q1[0].contains("gave the value 999 instead of"), "{summary}");
}

#[test]
fn the_streamed_manifest_is_the_manifest_written_whole() {
    use treequiz::manifest::{Manifest, VariantEntry, Writer};
    let path = "problem-sets/game-tree-quiz.toml";
    let set =
        treequiz::problem_set::load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
            .unwrap();
    let students: Vec<treequiz::roster::Student> = ["s1", "s2", "s3"]
        .iter()
        .map(|id| treequiz::roster::Student {
            id: id.to_string(),
            name: Some(format!("Student {id}")),
            folder: id.to_string(),
        })
        .collect();
    let master = treequiz::rng::Master::from_seed(3);
    let variants = treequiz::class_set::build(&set, &master, &students).unwrap();
    for seed in [Some(3), None] {
        let whole = Manifest::new(&set, path, "en", seed, &variants).to_json();
        let mut writer = Writer::new(Vec::new(), &set, path, "en", seed).unwrap();
        for v in &variants {
            writer.push(&VariantEntry::new(&set, v).to_json()).unwrap();
        }
        assert_eq!(String::from_utf8(writer.finish().unwrap()).unwrap(), whole);
        let empty = Writer::new(Vec::new(), &set, path, "en", seed).unwrap();
        assert_eq!(
            String::from_utf8(empty.finish().unwrap()).unwrap(),
            Manifest::new(&set, path, "en", seed, &[]).to_json()
        );
    }
}

/// A hang guard, not a benchmark: a tampered manifest carrying about 5 MB of
/// long or duplicated lists in each place a list can be (an instance's labels,
/// goal nodes and a connector's children; a key's answer; a trace's cuts and
/// steps; the asked fields; the variants) is read or refused well within a
/// generous deadline, where quadratic checks took minutes (40,000 labels:
/// 69 s). The deadline is ten times what the slowest shape takes in a
/// release build on a busy machine, so only a stall trips it.
#[test]
fn a_manifest_with_megabytes_of_long_lists_is_read_or_refused_quickly() {
    use serde_json::{Value, json};
    let (out, _) = demo("manifest-long-lists");
    let text = std::fs::read_to_string(out.join("manifest.json")).unwrap();
    let base: Value = serde_json::from_str(&text).unwrap();
    let deadline = std::time::Duration::from_secs(if cfg!(debug_assertions) { 60 } else { 10 });
    type Edit = fn(&mut Value);
    let shapes: [(&str, Edit); 8] = [
        ("labels", |m| {
            let e = exercise_of(m, "minimax");
            e["instance"]["labels"] = (0..500_000).map(|i| json!(format!("L{i}"))).collect();
        }),
        ("terminal", |m| {
            let inst = &mut exercise_of(m, "ao-star")["instance"];
            for i in 0..300_000 {
                inst["nodes"][format!("x{i}")] = json!(0);
            }
            inst["terminal"] = (0..300_000).map(|i| json!(format!("x{i}"))).collect();
        }),
        ("connector", |m| {
            let inst = &mut exercise_of(m, "ao-star")["instance"];
            for i in 0..250_000 {
                inst["nodes"][format!("x{i}")] = json!(0);
            }
            let to: Vec<Value> = (0..250_000).map(|i| json!(format!("x{i}"))).collect();
            inst["connectors"]
                .as_array_mut()
                .unwrap()
                .push(json!({ "from": "n0", "to": to }));
        }),
        ("key answer", |m| {
            let answers = &mut exercise_of(m, "alpha-beta")["key"]["answers"];
            let first = answers["pruned"]["set"][0].clone();
            answers["pruned"]["set"] = vec![first; 600_000].into();
        }),
        ("trace cuts", |m| {
            let trace = &mut exercise_of(m, "alpha-beta")["key"]["trace"];
            let cut = trace["cuts"][0].clone();
            trace["cuts"] = vec![cut; 50_000].into();
        }),
        ("trace steps", |m| {
            let trace = &mut exercise_of(m, "alpha-beta")["key"]["trace"];
            let steps = trace["steps"].as_array().unwrap().clone();
            let many: Vec<Value> = steps.iter().cycle().take(100_000).cloned().collect();
            trace["steps"] = many.into();
        }),
        ("asked fields", |m| {
            exercise_of(m, "minimax")["ask"] = vec![json!("value"); 600_000].into();
        }),
        ("variants", |m| {
            let v = m["variants"][0].clone();
            m["variants"] = vec![v; 1_000].into();
        }),
    ];
    for (name, edit) in shapes {
        let mut m = base.clone();
        edit(&mut m);
        let text = serde_json::to_string(&m).unwrap();
        assert!(text.len() > 3_000_000, "{name}: {} bytes", text.len());
        let path = out.join("tampered.json");
        std::fs::write(&path, &text).unwrap();
        let started = std::time::Instant::now();
        let result = assert_cmd::cargo::cargo_bin_cmd!("treequiz")
            .args([
                "grade",
                "--manifest",
                path.to_str().unwrap(),
                out.join("key.toml").to_str().unwrap(),
                "--out",
                out.join("report").to_str().unwrap(),
                "--force",
            ])
            .timeout(deadline)
            .output()
            .unwrap();
        let took = started.elapsed();
        let code = result.status.code();
        eprintln!("{name}: {} bytes, exit {code:?}, {took:.2?}", text.len());
        assert!(
            code.is_some() && took < deadline,
            "{name}: a {} byte manifest was not read or refused within {deadline:?} (it stalls)",
            text.len()
        );
        assert_ne!(code, Some(101), "{name}: panicked");
    }
}

/// The first exercise of the manifest's first variant of `kind`.
fn exercise_of<'a>(m: &'a mut serde_json::Value, kind: &str) -> &'a mut serde_json::Value {
    m["variants"][0]["exercises"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|e| e["kind"] == kind)
        .unwrap()
}

/// A class's manifest is read as a stream, each variant's keys made as it
/// goes by and used for the files that name it: a variant damaged after the
/// ones a file was graded against still stops the run before any report is
/// written; a manifest whose `variants` is not its last field is refused;
/// and the grades are those of the manifest read whole.
#[test]
fn a_streamed_manifest_grades_as_read_whole_and_refuses_late_damage() {
    let (out, exam) = practice_class("manifest-stream", "demo", &["s1", "s2", "s3"]);
    let manifest = exam.join("manifest.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let grade = |manifest: &std::path::Path, report: &str| {
        run(&[
            "grade",
            "--manifest",
            manifest.to_str().unwrap(),
            exam.join("keys/s1/key.toml").to_str().unwrap(),
            "--out",
            out.join(report).to_str().unwrap(),
        ])
    };
    let (code, _, err) = grade(&manifest, "report");
    assert_eq!(code, 1, "s2 and s3 handed nothing in: {err}");
    let grades = std::fs::read_to_string(out.join("report/grades.csv")).unwrap();
    let s1 = grades.lines().find(|l| l.contains("s1")).unwrap();
    assert!(s1.contains(",graded,"), "{grades}");
    // The whole book agrees on every variant's points.
    let book = KeyBook::from_manifest(&Source {
        path: "manifest.json".into(),
        text: text.clone(),
    })
    .unwrap();
    assert_eq!(book.variants.len(), 3);
    assert!(book.variants.iter().all(|v| !v.questions.is_empty()));

    // The last variant's key names a node its instance lacks.
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let last = &mut value["variants"][2]["exercises"][0]["key"]["answers"];
    let damaged_at = serde_json::to_string(last).unwrap();
    assert!(damaged_at.contains("\"n"), "{damaged_at}");
    let damaged = serde_json::to_string(&value).unwrap().replacen(
        &damaged_at,
        &damaged_at.replacen("\"n", "\"zz", 1),
        1,
    );
    let path = out.join("damaged.json");
    std::fs::write(&path, &damaged).unwrap();
    let (code, _, err) = grade(&path, "report-damaged");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("variants[2]"), "{err}");
    assert!(
        !out.join("report-damaged").exists(),
        "no report is written when a later variant is refused"
    );

    // `variants` first: refused, with what to do.
    let mut moved = serde_json::Map::new();
    moved.insert("variants".into(), value["variants"].take());
    for (k, v) in value.as_object().unwrap() {
        if k != "variants" {
            moved.insert(k.clone(), v.clone());
        }
    }
    let path = out.join("moved.json");
    std::fs::write(&path, serde_json::to_string(&moved).unwrap()).unwrap();
    let (code, _, err) = grade(&path, "report-moved");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("must come before `variants`"), "{err}");
}
