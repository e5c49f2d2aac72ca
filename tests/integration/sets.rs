//! `treequiz generate`: shipped sets, determinism, rosters, secrets, leaks, templates.

use std::path::Path;

use crate::common::{files, generate, root, run, scratch, shipped_sets};

#[test]
fn every_shipped_set_generates_the_same_bytes_twice() {
    let sets = shipped_sets();
    assert!(
        sets.len() >= 5,
        "demo, two quizzes, a Chinese midterm and the textbook set"
    );
    for set in sets {
        let name = set.file_stem().unwrap().to_str().unwrap().to_string();
        let (a, b) = (scratch(&format!("{name}-a")), scratch(&format!("{name}-b")));
        for out in [&a, &b] {
            let (code, stdout, err) = generate(set.to_str().unwrap(), out.to_str().unwrap(), &[]);
            assert_eq!((code, err.as_str()), (0, ""), "{name}");
            assert!(stdout.starts_with("wrote 9 files"), "{stdout}");
        }
        let (fa, fb) = (files(&a), files(&b));
        let names: Vec<&str> = fa.keys().map(String::as_str).collect();
        assert_eq!(
            names,
            [
                "answer-sheet.toml",
                "key.html",
                "key.md",
                "key.tex",
                "key.toml",
                "manifest.json",
                "worksheet.html",
                "worksheet.md",
                "worksheet.tex"
            ]
        );
        assert_eq!(fa, fb, "{name}: re-running must give byte-identical files");
        check_sheets(&a, &name);
    }
}

/// The blank sheet and the key have the same schema; the key fills every field, the blank none.
fn check_sheets(dir: &Path, name: &str) {
    let blank: toml::Table = std::fs::read_to_string(dir.join("answer-sheet.toml"))
        .unwrap()
        .parse()
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let key: toml::Table = std::fs::read_to_string(dir.join("key.toml"))
        .unwrap()
        .parse()
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(
        blank.keys().collect::<Vec<_>>(),
        key.keys().collect::<Vec<_>>(),
        "{name}"
    );
    for (section, fields) in &blank {
        let Some(fields) = fields.as_table() else {
            continue;
        };
        let key_fields = key[section].as_table().unwrap();
        assert_eq!(
            fields.keys().collect::<Vec<_>>(),
            key_fields.keys().collect::<Vec<_>>(),
            "{name} [{section}]"
        );
        for (field, value) in fields {
            assert_eq!(
                value.as_str(),
                Some(""),
                "{name} [{section}] {field} is blank"
            );
            assert_ne!(
                key_fields[field].as_str(),
                Some(""),
                "{name} [{section}] {field} is answered in the key"
            );
        }
    }
    assert_eq!(blank["variant"], key["variant"]);
    assert_eq!(blank["checksum"], key["checksum"]);
}

#[test]
fn demo_set_outputs_are_pinned() {
    let out = scratch("golden");
    let (code, _, err) = generate("problem-sets/demo.toml", out.to_str().unwrap(), &[]);
    assert_eq!((code, err.as_str()), (0, ""));
    for (name, bytes) in files(&out) {
        let mut text = String::from_utf8(bytes).unwrap();
        if name == "manifest.json" {
            // One line on disk; indented here so that a change reads as a diff.
            let value: serde_json::Value = serde_json::from_str(&text).unwrap();
            text = serde_json::to_string_pretty(&value).unwrap() + "\n";
        }
        insta::assert_snapshot!(format!("demo__{name}"), text);
    }
}

#[test]
fn a_roster_gives_one_variant_per_student_and_keys_apart() {
    let out = scratch("roster");
    let roster = out.join("class.csv");
    std::fs::write(
        &roster,
        "id,name\n2026001,Ada Lovelace\n2026002,\"Li, Wei\"\n../../evil,Mallory\n",
    )
    .unwrap();
    let dest = out.join("class");
    let (code, stdout, err) = generate(
        "problem-sets/game-tree-quiz.toml",
        dest.to_str().unwrap(),
        &["--roster", roster.to_str().unwrap(), "--format", "md,html"],
    );
    // A roster and no secret: practice sheets, each naming the set's seed;
    // the teacher is told (an explicit --seed says it is meant).
    assert_eq!(code, 0);
    assert!(
        err.starts_with("warning: --roster without --secret makes practice sheets")
            && err.contains("the seed 7")
            && err.lines().count() == 1,
        "{err}"
    );
    assert!(stdout.contains("3 variants"), "{stdout}");
    let all = files(&dest);
    for folder in ["2026001", "2026002", "_.._evil"] {
        for f in ["worksheet.md", "worksheet.html", "answer-sheet.toml"] {
            assert!(all.contains_key(&format!("{folder}/{f}")), "{folder}/{f}");
        }
        for f in ["key.md", "key.html", "key.toml"] {
            assert!(
                all.contains_key(&format!("keys/{folder}/{f}")),
                "keys/{folder}/{f}"
            );
        }
        assert!(
            !all.contains_key(&format!("{folder}/key.md")),
            "no key in a student's folder"
        );
    }
    assert!(
        !out.join("evil").exists(),
        "ids never escape the output folder"
    );
    let manifest: serde_json::Value = serde_json::from_slice(&all["manifest.json"]).unwrap();
    let ids: Vec<&str> = manifest["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 3);
    assert!(ids.iter().all(|id| id.len() == 6) && ids[0] != ids[1] && ids[1] != ids[2]);
    // Each student's sheet names the student and the variant.
    let sheet = String::from_utf8(all["2026002/worksheet.md"].clone()).unwrap();
    assert!(sheet.contains("2026002") && sheet.contains("Li, Wei") && sheet.contains(ids[1]));
    // Different students get different trees.
    assert_ne!(
        manifest["variants"][0]["exercises"][1]["instance"],
        manifest["variants"][1]["exercises"][1]["instance"]
    );
}

/// Issue 11: LMS exports as rosters, as they come, and columns the teacher
/// chooses; a roster that is not CSV UTF-8 gets its line and how to save it.
#[test]
fn lms_exports_and_chosen_columns_make_class_sets() {
    let out = scratch("lms-rosters");
    let write = |name: &str, bytes: &[u8]| {
        let path = out.join(name);
        std::fs::write(&path, bytes).unwrap();
        path.to_str().unwrap().to_string()
    };
    let moodle = write(
        "moodle.csv",
        "\u{feff}\"First name\",\"Last name\",\"ID number\",\"Email address\"\r\n\
         Ada,Lovelace,2026001,ada@example.org\r\n伟,李,2026002,li@example.org\r\n"
            .as_bytes(),
    );
    let dest = out.join("moodle");
    let (code, stdout, err) = generate(
        "problem-sets/demo.toml",
        dest.to_str().unwrap(),
        &["--roster", &moodle, "--seed", "2026", "--format", "md"],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(stdout.contains("2 variants"), "{stdout}");
    let sheet = std::fs::read_to_string(dest.join("2026002/worksheet.md")).unwrap();
    assert!(sheet.contains("李伟"), "{sheet}");

    let canvas = write(
        "canvas.csv",
        b"Student,ID,SIS User ID,SIS Login ID,Section,Midterm (5521)\n\
          \"    Points Possible\",,,,,20.00\n\
          \"Lovelace, Ada\",101,2026001,ada,AI-01,\n\
          \"Li, Wei\",102,2026002,liwei,AI-01,\n",
    );
    let dest = out.join("canvas");
    let (code, _, err) = generate(
        "problem-sets/demo.toml",
        dest.to_str().unwrap(),
        &[
            "--roster",
            &canvas,
            "--id-column",
            "SIS User ID",
            "--name-column",
            "Student",
            "--seed",
            "2026",
            "--format",
            "md",
        ],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    let sheet = std::fs::read_to_string(dest.join("2026001/worksheet.md")).unwrap();
    assert!(sheet.contains("Lovelace, Ada"), "{sheet}");

    // Refused, each with its file, line and column, a fix, and nothing written.
    let gbk = write("gbk.csv", b"id,name\ns1,\xd5\xc5\xc8\xfd\n");
    let xlsx = write("class.xlsx", b"PK\x03\x04\x14\x00\x06\x00");
    for (roster, extra, expect) in [
        (
            gbk.as_str(),
            None,
            vec!["gbk.csv:2:4", "not UTF-8", "CSV UTF-8"],
        ),
        (
            xlsx.as_str(),
            None,
            vec!["class.xlsx:1:1", "spreadsheet workbook", "CSV UTF-8"],
        ),
        (
            canvas.as_str(),
            Some("SIS User"),
            vec![
                "canvas.csv:1:1",
                "no column `SIS User`",
                "did you mean --id-column \"SIS User ID\"",
            ],
        ),
    ] {
        let dest = out.join("refused");
        let mut args = vec!["--roster", roster, "--seed", "2026", "--format", "md"];
        if let Some(column) = extra {
            args.extend(["--id-column", column]);
        }
        let (code, stdout, err) = generate("problem-sets/demo.toml", dest.to_str().unwrap(), &args);
        assert_eq!((code, stdout.as_str()), (2, ""), "{err}");
        for e in expect {
            assert!(err.contains(e), "{e} in {err}");
        }
        assert!(!dest.exists(), "nothing written for {roster}");
    }
    // The column options need a roster.
    let (code, _, err) = generate(
        "problem-sets/demo.toml",
        out.join("x").to_str().unwrap(),
        &["--id-column", "id"],
    );
    assert_eq!(code, 2);
    assert!(err.contains("--roster"), "{err}");
}

#[test]
fn exam_secrets_never_reach_any_file_and_change_every_variant() {
    let out = scratch("secret");
    let (code, secret, _) = run(&["secret"]);
    assert_eq!(code, 0);
    let secret = secret.trim().to_string();
    assert_eq!(secret.len(), 32);
    std::fs::write(out.join("exam.secret"), format!("{secret}\n")).unwrap();
    std::fs::write(out.join("class.csv"), "id\ns1\ns2\n").unwrap();
    let args = |dest: &str| {
        vec![
            "generate".to_string(),
            "problem-sets/midterm-zh.toml".into(),
            "--out".into(),
            out.join(dest).display().to_string(),
            "--roster".into(),
            out.join("class.csv").display().to_string(),
            "--secret".into(),
            out.join("exam.secret").display().to_string(),
        ]
    };
    let a: Vec<String> = args("exam");
    let (code, _, err) = run(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!((code, err.as_str()), (0, ""));
    let exam = files(&out.join("exam"));
    let manifest: serde_json::Value = serde_json::from_slice(&exam["keys/manifest.json"]).unwrap();
    assert_eq!(manifest["mode"], "exam");
    assert!(manifest["seed"].is_null());
    let seeds: Vec<String> = manifest["variants"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|v| {
            v["exercises"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|e| e["seed"].as_str().map(str::to_string))
        })
        .collect();
    assert!(seeds.len() >= 10);
    for (name, bytes) in &exam {
        let text = String::from_utf8_lossy(bytes);
        assert!(
            !text.to_lowercase().contains(&secret),
            "{name} contains the secret"
        );
        if !name.starts_with("keys/") {
            for seed in &seeds {
                assert!(
                    !text.contains(seed.as_str()),
                    "{name} contains a seed that regenerates the exam"
                );
            }
        }
    }
    // The practice run of the same set differs from the exam.
    let (_, _, _) = generate(
        "problem-sets/midterm-zh.toml",
        out.join("practice").to_str().unwrap(),
        &["--roster", out.join("class.csv").to_str().unwrap()],
    );
    let practice = files(&out.join("practice"));
    assert_ne!(practice["s1/worksheet.md"], exam["s1/worksheet.md"]);
}

#[test]
fn student_files_never_contain_answers() {
    use treequiz::class_set;
    use treequiz::problem_set;
    use treequiz::render::Renderer;
    use treequiz::rng::Master;
    let renderer = Renderer::new(None).unwrap();
    let mut checked = 0;
    for set_path in shipped_sets() {
        let set = problem_set::load(&set_path).unwrap();
        let lang = renderer.lang(&set.language).unwrap();
        for seed in 0..8u64 {
            let variants = class_set::build(&set, &Master::from_seed(seed), &[]).unwrap();
            for variant in &variants {
                let blank =
                    treequiz::view::sheet(&set, variant, &lang, false, Some(("set.toml", seed)));
                // Set aside what is public by design and may coincide with an
                // answer: the instances themselves (Markdown prints them; a goal
                // list can equal the solvable nodes). The examples are not set
                // aside: they name nothing in the figure (issue 27).
                let examples: Vec<String> =
                    variant.items.iter().map(|i| i.instance.to_toml()).collect();
                // The paper exam's worksheet too (`--on-paper`): its room for answers is empty.
                let mut paper =
                    treequiz::view::sheet(&set, variant, &lang, false, Some(("set.toml", seed)));
                paper.on_paper = true;
                // The Word worksheet's text, as Word shows it (unescaped).
                let paper_size = treequiz::view::Paper::A4;
                let docx = treequiz::docx::document(
                    &renderer,
                    &[&treequiz::docx::sheet(&renderer, &blank, paper_size, 0).unwrap()],
                    paper_size,
                    &lang.code,
                    blank.set.cjk,
                )
                .unwrap();
                let student: Vec<String> = [
                    ("worksheet.md", &blank),
                    ("worksheet.html", &blank),
                    ("worksheet.tex", &blank),
                    ("answer-sheet.toml", &blank),
                    ("worksheet.html", &paper),
                ]
                .iter()
                .map(|(t, view)| renderer.render(t, view).unwrap())
                .chain([super::docx::text(&docx)])
                .map(|text| {
                    examples
                        .iter()
                        .fold(text, |text, e| text.replace(e.as_str(), ""))
                })
                .collect();
                // An exam's answer form (issue 29): fields and the figure's
                // labels, nothing set aside.
                let student: Vec<String> = student
                    .into_iter()
                    .chain([treequiz::grade::form::Form::of(variant, &lang.code).to_json()])
                    .collect();
                for item in &variant.items {
                    let model = item.instance.model();
                    // Every asked answer that is more than a bare small number, in the forms a sheet could show it.
                    for (field, answer) in item
                        .key
                        .answers
                        .iter()
                        .filter(|(f, _)| item.exercise.ask.contains(&f.as_str()))
                    {
                        let forms = [answer.to_toml(&model), answer.to_text(&model)];
                        for form in forms.iter().filter(|f| f.len() > 4) {
                            for (i, text) in student.iter().enumerate() {
                                assert!(
                                    !text.contains(form.as_str()),
                                    "{}: seed {seed}, q{} {field} = {form} appears in student file {i}",
                                    set_path.display(),
                                    item.number
                                );
                            }
                        }
                    }
                    let explained = item.exercise.kind.explain_key(
                        &item.instance,
                        &item.key,
                        &set.conventions,
                        &item.exercise.ask,
                        &lang,
                    );
                    for note in &explained.notes {
                        assert!(
                            student.iter().all(|t| !t.contains(note.as_str())),
                            "an explanation leaked: {note}"
                        );
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 100, "{checked}");
}

#[test]
fn bad_problem_sets_get_positioned_messages() {
    let dir = root().join("tests/fixtures/bad-sets");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    let out = scratch("bad-sets");
    for name in names {
        let path = format!("tests/fixtures/bad-sets/{name}");
        let (code, stdout, err) = run(&["generate", &path, "--out", out.to_str().unwrap()]);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(
            stdout.is_empty() && !err.contains("panicked"),
            "{name}: {err}"
        );
        assert!(
            err.contains(&format!("{path}:")),
            "{name}: file and position\n{err}"
        );
        assert!(err.contains("hint:"), "{name}: a hint\n{err}");
        // The list of kinds is the registry's, written once: a new kind
        // changes no snapshot.
        let kinds = treequiz::exercise::kind_names().join(", ");
        let err = err.replace(&kinds, "<every kind, in the registry's order>");
        insta::assert_snapshot!(format!("bad_set_{}", name.replace('.', "_")), err);
    }
    assert!(
        files(&out).is_empty(),
        "nothing is written when the set is bad"
    );
}

#[test]
fn user_templates_override_built_ins_file_by_file() {
    let dir = scratch("templates");
    let (code, stdout, _) = run(&["templates", "export", dir.join("tpl").to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(stdout.lines().count(), 30, "{stdout}");
    std::fs::write(
        dir.join("tpl/worksheet.md"),
        "MY SHEET {{ set.title }} {{ variant.id }}\n",
    )
    .unwrap();
    let out = dir.join("out");
    let (code, _, err) = generate(
        "problem-sets/demo.toml",
        out.to_str().unwrap(),
        &["--templates", dir.join("tpl").to_str().unwrap()],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(
        std::fs::read_to_string(out.join("worksheet.md"))
            .unwrap()
            .starts_with("MY SHEET Game search")
    );
    // The exported, unchanged templates give what the built-ins give.
    let builtin = dir.join("builtin");
    generate("problem-sets/demo.toml", builtin.to_str().unwrap(), &[]);
    assert_eq!(
        std::fs::read(out.join("key.html")).unwrap(),
        std::fs::read(builtin.join("key.html")).unwrap()
    );

    std::fs::write(dir.join("tpl/key.md"), "line one\n{% for x in %}\n").unwrap();
    let (code, _, err) = generate(
        "problem-sets/demo.toml",
        out.to_str().unwrap(),
        &["--templates", dir.join("tpl").to_str().unwrap()],
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("key.md") && err.contains(":2:"),
        "the template's name and line:\n{err}"
    );
}

#[test]
fn chinese_sheets_come_from_the_chinese_table() {
    let out = scratch("zh");
    let (code, _, err) = generate(
        "problem-sets/demo.toml",
        out.to_str().unwrap(),
        &["--lang", "zh", "--format", "md"],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    let sheet = std::fs::read_to_string(out.join("worksheet.md")).unwrap();
    assert!(
        sheet.contains("第 1 题") && sheet.contains("极大极小搜索"),
        "{sheet}"
    );
    let (code, _, err) = generate(
        "problem-sets/demo.toml",
        out.to_str().unwrap(),
        &["--lang", "fr"],
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("no string table for the language `fr`") && err.contains("lang/fr.toml"),
        "{err}"
    );
}

/// Whether a generated exercise is trivial, read off its key as a student
/// sees it (not from the kind's own measures), by these definitions:
/// - minimax: fewer than 3 inner nodes (nothing to back up);
/// - alpha-beta: no cut (it is minimax);
/// - and-or-solvable: every non-goal node solvable, or none, or the start
///   decided by its own connectors (one leads to goals only, or each one has a
///   dead end);
/// - solution-cost: a solution one connector deep, or, asked for both, sum
///   and max choose the same solution;
/// - ao-star: one expansion, or a solution one connector deep;
/// - tictactoe, othello: one move to choose from.
fn trivial(item: &treequiz::class_set::Item) -> Option<String> {
    use treequiz::exercise::{Answer, Trace};
    use treequiz::instance::{Instance, Item};
    let key = &item.key;
    let set = |field: &str| match key.answer(field) {
        Some(Answer::Set(items)) | Some(Answer::Sequence(items)) => items.clone(),
        _ => Vec::new(),
    };
    // Connectors on the longest path from the start through a solution.
    let depth = |g: &treequiz::andor::Graph, solution: &[Item]| {
        fn walk(g: &treequiz::andor::Graph, sol: &[u32], n: treequiz::andor::NodeId) -> usize {
            sol.iter()
                .map(|&c| g.connector(treequiz::andor::ConnectorId(c)))
                .find(|c| c.from == n)
                .map_or(0, |c| {
                    1 + c.to.iter().map(|&t| walk(g, sol, t)).max().unwrap_or(0)
                })
        }
        let sol: Vec<u32> = solution
            .iter()
            .filter_map(|i| match i {
                Item::Connector(c) => Some(*c),
                _ => None,
            })
            .collect();
        walk(g, &sol, g.start())
    };
    match (item.exercise.kind.name, &item.instance) {
        ("minimax", Instance::GameTree(t)) => (t.ids().filter(|&id| t.leaf(id).is_none()).count()
            < 3)
        .then(|| "fewer than 3 inner nodes".to_string()),
        ("alpha-beta", _) => (set("alpha_cuts").is_empty() && set("beta_cuts").is_empty())
            .then(|| "no cut".to_string()),
        ("and-or-solvable", Instance::AndOr(g)) => {
            let inner = |items: Vec<Item>| {
                items
                    .iter()
                    .filter(|i| matches!(i, Item::Node(n) if !g.node(treequiz::andor::NodeId(*n)).terminal))
                    .count()
            };
            let start = g.connectors_of(g.start());
            let goal = |n: &treequiz::andor::NodeId| g.node(*n).terminal;
            let dead = |n: &treequiz::andor::NodeId| !goal(n) && g.connectors_of(*n).is_empty();
            if inner(set("solvable")) == 0 || inner(set("unsolvable")) == 0 {
                Some("one answer for every node".to_string())
            } else if start.iter().any(|&c| g.connector(c).to.iter().all(goal))
                || start.iter().all(|&c| g.connector(c).to.iter().any(dead))
            {
                Some("the start is decided by its own connectors".to_string())
            } else {
                None
            }
        }
        ("solution-cost", Instance::AndOr(g)) => {
            let (mut a, mut b) = (set("sum_solution"), set("max_solution"));
            if depth(g, &a) < 2 || depth(g, &b) < 2 {
                Some("a solution one connector deep".to_string())
            } else {
                a.sort_unstable();
                b.sort_unstable();
                let both = item.exercise.ask.iter().any(|f| f.starts_with("sum"))
                    && item.exercise.ask.iter().any(|f| f.starts_with("max"));
                (both && a == b).then(|| "sum and max choose the same solution".to_string())
            }
        }
        ("ao-star", Instance::AndOr(g)) => {
            let Trace::AoStar(run) = &key.trace else {
                unreachable!()
            };
            (set("expanded").len() < 2
                || depth(
                    g,
                    &run.solution
                        .iter()
                        .map(|c| Item::Connector(c.0))
                        .collect::<Vec<_>>(),
                ) < 2)
                .then(|| "one expansion, or a one-connector solution".to_string())
        }
        ("tictactoe" | "othello", _) => match key.answer("move_values") {
            Some(Answer::Values(moves)) => (moves.len() < 2).then(|| "one move".to_string()),
            _ => Some("no move values".to_string()),
        },
        _ => None,
    }
}

#[test]
fn shipped_sets_make_their_point_in_200_variants() {
    let roster: String = std::iter::once("id".to_string())
        .chain((0..200).map(|i| format!("s{i:03}")))
        .collect::<Vec<_>>()
        .join("\n");
    let students = treequiz::roster::parse(&treequiz::input::Source {
        path: "class.csv".into(),
        text: roster,
    })
    .unwrap();
    let mut checked = 0;
    for name in [
        "demo",
        "game-tree-quiz",
        "and-or-quiz",
        "midterm-zh",
        "games",
    ] {
        let set =
            treequiz::problem_set::load(&root().join(format!("problem-sets/{name}.toml"))).unwrap();
        let master =
            treequiz::rng::Master::from_secret("3f9c2a71d04be8565e17ac93b2f04d68").unwrap();
        let variants = treequiz::class_set::build(&set, &master, &students).unwrap();
        assert_eq!(variants.len(), 200);
        for v in &variants {
            for item in v.items.iter().filter(|i| i.seed.is_some()) {
                checked += 1;
                if let Some(why) = trivial(item) {
                    panic!("{name} q{} of {}: {why}", item.number, v.id);
                }
            }
        }
    }
    assert!(checked >= 200 * 15, "{checked}");
}

/// The set is written into a staging folder and appears whole: a run that
/// fails leaves nothing new and an earlier set untouched; a staging folder
/// left by an interrupted run is named, never taken for a set; `--force`
/// replaces an earlier set, removing the folders of students who left.
#[test]
fn a_set_appears_whole_or_not_at_all_and_force_replaces_it() {
    let dir = scratch("staging");
    let unsat = dir.join("unsat.toml");
    std::fs::write(
        &unsat,
        "title = \"Impossible\"\nseed = 1\n[[exercise]]\nkind = \"alpha-beta\"\ndepth = 2\nbranching = 2\nmin_cuts = 3\n",
    )
    .unwrap();
    std::fs::write(dir.join("two.csv"), "id\ns1\ns2\n").unwrap();
    std::fs::write(dir.join("one.csv"), "id\ns1\n").unwrap();
    let roster = |name: &str| dir.join(name).display().to_string();
    let inputs = files(&dir);

    // A failing run into a new folder: no folder, no staging folder.
    let new = dir.join("new");
    let (code, _, err) = generate(
        unsat.to_str().unwrap(),
        new.to_str().unwrap(),
        &["--roster", &roster("two.csv")],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("3 cuts") && err.contains("unsat.toml"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        inputs.len(),
        "nothing new in {}",
        dir.display()
    );

    // A set, then a failing run over it with --force: the set is untouched.
    let set = dir.join("set");
    let demo = |out: &Path, roster_file: &str, extra: &[&str]| {
        let mut args = vec![
            "--roster".to_string(),
            roster(roster_file),
            "--seed".into(),
            "2026".into(),
            "--format".into(),
            "md".into(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        generate(
            "problem-sets/demo.toml",
            out.to_str().unwrap(),
            &args.iter().map(String::as_str).collect::<Vec<_>>(),
        )
    };
    let (code, _, err) = demo(&set, "two.csv", &[]);
    assert_eq!((code, err.as_str()), (0, ""));
    std::fs::write(set.join("notes.txt"), "the teacher's").unwrap();
    let before = files(&set);
    let (code, _, err) = generate(
        unsat.to_str().unwrap(),
        set.to_str().unwrap(),
        &["--roster", &roster("two.csv"), "--force"],
    );
    assert_eq!(code, 2, "{err}");
    assert_eq!(files(&set), before, "a failed run changes nothing");
    assert!(!dir.join(".set.treequiz-partial").exists());

    // Without --force a set is never written over.
    let (code, _, err) = demo(&set, "two.csv", &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("not empty") && err.contains("--force"),
        "{err}"
    );

    // A staging folder that a running process holds is refused, and nothing
    // is written; once it is free (a killed run's), it is emptied and reused.
    let stale = dir.join(".set.treequiz-partial");
    std::fs::create_dir(&stale).unwrap();
    std::fs::write(stale.join("half.md"), "half").unwrap();
    let held = std::fs::File::open(&stale).unwrap();
    held.lock().unwrap();
    let (code, _, err) = demo(&set, "one.csv", &["--force"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("another `treequiz generate` is writing"),
        "{err}"
    );
    assert_eq!(files(&set), before);
    drop(held);

    // --force with a student gone: their folders go, the teacher's file stays,
    // and the set is the one a fresh folder gets.
    let (code, stdout, err) = demo(&set, "one.csv", &["--force"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(
        stdout.contains("1 variant")
            && stdout.contains("kept 1 file that treequiz did not write: notes.txt"),
        "{stdout}"
    );
    assert!(!stale.exists());
    let (code, _, err) = demo(&dir.join("fresh"), "one.csv", &[]);
    assert_eq!((code, err.as_str()), (0, ""));
    let mut expected = files(&dir.join("fresh"));
    expected.insert("notes.txt".into(), b"the teacher's".to_vec());
    assert_eq!(files(&set), expected);
}

/// An exam without a roster (one variant, from a secret) keeps its keys in
/// `keys/`, apart from the sheet that is handed out, and they grade.
#[test]
fn an_exam_without_a_roster_keeps_its_keys_apart() {
    let dir = scratch("exam-no-roster");
    std::fs::write(
        dir.join("exam.secret"),
        "3f9c2a71d04be8565e17ac93b2f04d68\n",
    )
    .unwrap();
    let out = dir.join("exam");
    let (code, _, err) = generate(
        "problem-sets/demo.toml",
        out.to_str().unwrap(),
        &["--secret", dir.join("exam.secret").to_str().unwrap()],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    let names: Vec<String> = files(&out).into_keys().collect();
    // Nothing outside keys/ holds an answer: the folder minus keys/ can be
    // handed out (its answer form, for `check`, holds none).
    let mut expected = vec![
        "answer-sheet.toml".to_string(),
        "form.json".into(),
        "keys/manifest.json".into(),
    ];
    for ext in ["md", "html", "tex"] {
        expected.push(format!("worksheet.{ext}"));
        expected.push(format!("keys/key.{ext}"));
    }
    expected.push("keys/key.toml".into());
    expected.sort();
    let mut names = names;
    names.sort();
    assert_eq!(names, expected);
    let (code, stdout, err) = run(&[
        "grade",
        // The folder generate wrote: grade finds its keys/manifest.json.
        "--manifest",
        out.to_str().unwrap(),
        out.join("keys/key.toml").to_str().unwrap(),
        "--out",
        dir.join("report").to_str().unwrap(),
    ]);
    assert_eq!((code, err.as_str()), (0, ""), "{stdout}");
}
