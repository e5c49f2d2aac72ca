//! What `grade` writes for the teacher: a grade table whose totals add up,
//! rows for every roster student (broken files named for them, files named
//! for one student holding another's sheet, duplicates that name each other),
//! Canvas and Moodle imports checked against those importers' rules, the
//! summary in Markdown and HTML in the set's language, and progress that only
//! a terminal sees.

use std::path::{Path, PathBuf};

use treequiz::grade::batch::{Status, grade_all};
use treequiz::grade::key::KeyBook;
use treequiz::grade::report;
use treequiz::input::Source;

use crate::common::{run_in, scratch};

const MIDTERM: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/problem-sets/midterm-zh.toml");

/// Ids with spaces, dots, leading zeros and CJK; names with a comma, quotes, CJK.
const ROSTER: &[(&str, &str)] = &[
    ("2023001", "林秀兰"),
    ("S-002", "欧阳, 娜娜"),
    ("stu 3", "Li \"Leo\" Wei"),
    ("0004", "程平"),
    ("zh.5", "曾娜"),
    ("学号6", "程磊"),
    ("a7", "傅强"),
    ("b8", "胡桂英"),
    ("c9", "谢霞"),
    ("d10", "唐平"),
    ("e11", "Zoë Müller"),
    ("f12", "吴强"),
];

/// A class set of the Chinese midterm for `roster` in `dir/exam`.
fn exam(dir: &Path, roster: &[(&str, &str)], set: &str) {
    crate::common::exam_for(dir, roster, set);
}

fn key(dir: &Path, id: &str) -> String {
    let folder = treequiz::roster::folder_name(id).unwrap();
    std::fs::read_to_string(dir.join(format!("exam/keys/{folder}/key.toml"))).unwrap()
}

/// `text` with `field` of question `q` replaced by `new` (the whole `field = …` line).
fn set_field(text: &str, q: usize, field: &str, new: &str) -> String {
    let start = text.find(&format!("[q{q}]")).unwrap();
    let at = start
        + text[start..]
            .find(&format!("\n{field} = "))
            .unwrap_or_else(|| panic!("no {field} in q{q}"))
        + 1;
    let end = at + text[at..].find('\n').unwrap();
    format!("{}{field} = {new}{}", &text[..at], &text[end..])
}

/// `treequiz grade` of `handed-in/` into `report/` (or the `--out` in `extra`).
fn grade(dir: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["grade", "--manifest", "exam/manifest.json", "handed-in"];
    if !extra.contains(&"--out") {
        args.extend(["--out", "report"]);
    }
    args.extend_from_slice(extra);
    run_in(dir, &args)
}

/// The records of a CSV file (no byte-order mark expected).
fn records(text: &str) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

/// Points in hundredths, read strictly: digits, a '.', at most two decimals.
fn cents(cell: &str) -> i64 {
    let ok = !cell.is_empty()
        && cell.chars().all(|c| c.is_ascii_digit() || c == '.')
        && cell.split('.').count() <= 2
        && cell
            .split('.')
            .nth(1)
            .is_none_or(|d| !d.is_empty() && d.len() <= 2);
    assert!(
        ok,
        "`{cell}` is not points written with '.' and at most two decimals"
    );
    let (whole, frac) = cell.split_once('.').unwrap_or((cell, ""));
    whole.parse::<i64>().unwrap() * 100 + format!("{frac:0<2}").parse::<i64>().unwrap()
}

/// The class of the tests below: every kind of file a teacher meets.
fn handed_in(dir: &Path) {
    exam(dir, ROSTER, MIDTERM);
    let h = dir.join("handed-in");
    std::fs::create_dir_all(&h).unwrap();
    let write = |name: &str, text: &str| std::fs::write(h.join(name), text).unwrap();
    write("2023001.toml", &key(dir, "2023001"));
    // Thirds: a blank field of question 1 (10 points, 3 fields) and of question 2 (20 points, 6 fields).
    let s2 = set_field(&key(dir, "S-002"), 1, "value", "\"\"");
    write("S-002.toml", &set_field(&s2, 2, "value", "\"\""));
    write(
        "stu_3.txt",
        &set_field(&key(dir, "stu 3"), 1, "value", "999"),
    );
    // Broken files that still say whose they are.
    write("0004.toml", "");
    let mut utf16 = vec![0xFF, 0xFE];
    for unit in key(dir, "zh.5").encode_utf16() {
        utf16.extend_from_slice(&unit.to_le_bytes());
    }
    std::fs::write(h.join("scan-0042.toml"), utf16).unwrap();
    // Its variant line is broken: the whole file is unreadable (a slip in an
    // answer would cost only that answer).
    write(
        "answers.txt",
        &key(dir, "学号6").replacen("variant = \"", "variant = \"\n", 1),
    );
    // A file named for a7 that holds b8's sheet.
    write("a7.toml", &key(dir, "b8"));
    // Three files of c9.
    write("c9.toml", &key(dir, "c9"));
    write(
        "c9-again.toml",
        &set_field(&key(dir, "c9"), 1, "value", "999"),
    );
    write("c9 (1).toml", &key(dir, "c9"));
    // A broken file named for f12 whose student line has a typo: f12's.
    write(
        "f12.toml",
        &key(dir, "f12")
            .replace("student = \"f12\"", "student = \"fl2\"")
            .replacen("variant = \"", "variant = \"\n", 1),
    );
    // d10 and e11 hand in nothing.
}

#[test]
fn every_total_is_the_sum_of_its_printed_question_columns() {
    let dir = scratch("report-totals");
    let roster: Vec<(String, String)> = (0..30)
        .map(|i| (format!("t{i:02}"), format!("学生{i}")))
        .collect();
    let roster_ref: Vec<(&str, &str)> = roster
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    exam(&dir, &roster_ref, MIDTERM);
    let h = dir.join("handed-in");
    std::fs::create_dir_all(&h).unwrap();
    // Blank fields in thirds and sixths of questions, differently for each student.
    let fields = [
        (1, "value"),
        (1, "best_move"),
        (2, "value"),
        (2, "pruned"),
        (3, "value"),
        (6, "cost"),
    ];
    let mut files = Vec::new();
    for (i, (id, _)) in roster.iter().enumerate() {
        let mut text = key(&dir, id);
        for (bit, (q, field)) in fields.iter().enumerate() {
            if (i + 1) >> bit & 1 == 1 {
                text = set_field(&text, *q, field, "\"\"");
            }
        }
        let path = h.join(format!("{id}.toml"));
        std::fs::write(&path, text).unwrap();
        files.push(treequiz::grade::handed::Handed::file(path));
    }
    let source = treequiz::instance::read_source(&dir.join("exam/manifest.json")).unwrap();
    let book = KeyBook::from_manifest(&source).unwrap();
    let lang = treequiz::lang::Lang::builtin("zh").unwrap();
    let rows = grade_all(&book, &files, &lang, false);
    // Rounding the sum of the fields (what the table did before) disagrees with
    // the printed columns on some of these rows: the test would see it.
    let off_before = rows
        .iter()
        .filter(|r| {
            let fields: f64 = r
                .questions
                .iter()
                .flat_map(|q| &q.fields)
                .map(|f| f.earned)
                .sum();
            let columns: i64 = r
                .questions
                .iter()
                .map(|q| cents(&report::points(q.earned)))
                .sum();
            (fields * 100.0).round() as i64 != columns
        })
        .count();
    assert!(
        off_before >= 5,
        "only {off_before} rows exercise the rounding"
    );
    let table = records(&report::grades_csv(&rows));
    let header = &table[0];
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let questions: Vec<usize> = header
        .iter()
        .enumerate()
        .filter(|(_, h)| h.starts_with('q'))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(questions.len(), 6);
    let mut checked = 0;
    for record in &table[1..] {
        assert_eq!(record[col("status")], "graded", "{record:?}");
        let sum: i64 = questions.iter().map(|&i| cents(&record[i])).sum();
        assert_eq!(sum, cents(&record[col("total")]), "{record:?}");
        checked += 1;
    }
    assert_eq!(checked, 30);
}

#[test]
fn every_roster_student_has_one_row_and_broken_files_are_their_owners() {
    let dir = scratch("report-rows");
    handed_in(&dir);
    let (code, stdout, err) = grade(&dir, &[]);
    assert_eq!((code, err.as_str()), (1, ""), "{stdout}");
    assert!(
        stdout.contains("graded 3 of 11 files") && stdout.contains("3 students handed in nothing"),
        "{stdout}"
    );
    let text = std::fs::read_to_string(dir.join("report/grades.csv")).unwrap();
    assert!(
        !text.starts_with('\u{feff}'),
        "no byte-order mark without --excel"
    );
    let table = records(&text);
    assert_eq!(
        &table[0][..5],
        ["student", "name", "file", "variant", "status"]
    );
    let col = |name: &str| table[0].iter().position(|h| h == name).unwrap();
    let row = |file: &str| {
        table
            .iter()
            .find(|r| r[col("file")] == format!("handed-in/{file}"))
            .unwrap_or_else(|| panic!("no row for {file}:\n{text}"))
    };
    // A broken file is its owner's row: by file name, or by the student line inside.
    for (file, student, name, status) in [
        ("0004.toml", "0004", "程平", "empty"),
        ("scan-0042.toml", "zh.5", "曾娜", "not-utf8"),
        ("answers.txt", "学号6", "程磊", "unreadable"),
    ] {
        let r = row(file);
        assert_eq!(
            (&r[0][..], &r[1][..], &r[col("status")][..]),
            (student, name, status),
            "{r:?}"
        );
    }
    // Names with commas and quotes round-trip, and the ids keep their spelling.
    assert_eq!(row("S-002.toml")[1], "欧阳, 娜娜");
    assert!(text.contains("\"欧阳, 娜娜\""), "{text}");
    assert_eq!(row("stu_3.txt")[..2], ["stu 3", "Li \"Leo\" Wei"]);
    // One row per file and one per student who handed in nothing, and no more.
    let missing: Vec<&str> = table
        .iter()
        .filter(|r| r[col("status")] == "missing")
        .map(|r| r[0].as_str())
        .collect();
    assert_eq!(missing, ["a7", "d10", "e11"], "{text}");
    assert_eq!(table.len(), 1 + 11 + 3);
    let f12 = row("f12.toml");
    assert_eq!(
        (&f12[0][..], &f12[col("status")][..]),
        ("f12", "unreadable")
    );
    assert!(f12[col("problems")].contains("fl2"), "{f12:?}");
    // A file named for a7 holding b8's sheet: both named, counted for neither.
    let a7 = row("a7.toml");
    assert_eq!(a7[col("status")], "name-mismatch");
    assert_eq!(a7[0], "b8");
    assert_eq!(a7[col("total")], "", "{a7:?}");
    for who in ["a7 (傅强)", "b8 (胡桂英)"] {
        assert!(a7[col("reason")].contains(who), "{a7:?}");
    }
    let a7_missing = table.iter().find(|r| r[0] == "a7").unwrap();
    assert!(
        a7_missing[col("reason")].contains("handed-in/a7.toml"),
        "{a7_missing:?}"
    );
    // Three files of c9: no totals, each names the other two.
    for file in ["c9.toml", "c9-again.toml", "c9 (1).toml"] {
        let r = row(file);
        assert_eq!(r[col("status")], "duplicate");
        assert_eq!(r[col("total")], "");
        assert!(!r[col("q1")].is_empty(), "scores stay to compare: {r:?}");
        let others: Vec<&str> = ["c9.toml", "c9-again.toml", "c9 (1).toml"]
            .into_iter()
            .filter(|f| *f != file)
            .collect();
        for other in others {
            assert!(
                r[col("reason")].contains(&format!("handed-in/{other}")),
                "{file} should name {other}: {r:?}"
            );
        }
        assert!(
            !r[col("reason")].contains(&format!("handed-in/{file}")),
            "{r:?}"
        );
    }
    // The grader read the sheets in the set's language: statuses stay English
    // in the table, the reasons are Chinese.
    assert!(row("0004.toml")[col("reason")].contains("文件是空的"));
}

#[test]
fn canvas_and_moodle_imports_follow_their_importers_rules() {
    let dir = scratch("report-gradebooks");
    handed_in(&dir);
    let (code, _, err) = grade(&dir, &[]);
    assert_eq!((code, err.as_str()), (1, ""));
    let grades = records(&std::fs::read_to_string(dir.join("report/grades.csv")).unwrap());
    let col = |name: &str| grades[0].iter().position(|h| h == name).unwrap();
    let total_of = |id: &str| {
        grades
            .iter()
            .find(|r| r[0] == id && r[col("status")] == "graded")
            .map(|r| r[col("total")].clone())
    };

    // Canvas (app/models/gradebook_importer.rb): a header whose first cells
    // are Student, ID, SIS User ID, SIS Login ID, Section; a row whose first
    // cell says Points Possible; students found by SIS User ID. The ID column
    // is Canvas's own user id: a roster id there could name another user.
    let text = std::fs::read_to_string(dir.join("report/canvas.csv")).unwrap();
    assert!(!text.starts_with('\u{feff}'));
    let canvas = records(&text);
    assert_eq!(
        canvas[0],
        [
            "Student",
            "ID",
            "SIS User ID",
            "SIS Login ID",
            "Section",
            "人工智能期中考试：搜索"
        ]
    );
    assert_eq!(canvas[1], ["Points Possible", "", "", "", "", "100"]);
    assert_eq!(canvas.len(), 2 + ROSTER.len(), "one row per roster student");
    for (record, (id, name)) in canvas[2..].iter().zip(ROSTER) {
        assert_eq!(record.len(), 6);
        assert_eq!(
            (&record[0][..], &record[1][..], &record[2][..]),
            (*name, "", *id)
        );
        match total_of(id) {
            Some(total) => assert_eq!(cents(&record[5]), cents(&total), "{id}"),
            // No counted file (missing, broken, duplicate, name mismatch): no grade, never 0.
            None => assert_eq!(record[5], "", "{id}"),
        }
    }
    assert!(text.contains("\n\"欧阳, 娜娜\",,S-002,,,"), "{text}");
    assert!(
        text.contains("\n\"Li \"\"Leo\"\" Wei\",,stu 3,,,"),
        "{text}"
    );

    // Moodle (grade/import/csv): every row as many fields as the header; a
    // user column never empty (an empty one gives the row to the student of
    // the row before); "-" is no grade (an empty cell becomes 0 in a new
    // grade item); numbers with '.'.
    let text = std::fs::read_to_string(dir.join("report/moodle.csv")).unwrap();
    assert!(!text.starts_with('\u{feff}'));
    let moodle = records(&text);
    assert_eq!(
        moodle[0],
        ["ID number", "Full name", "人工智能期中考试：搜索"]
    );
    assert_eq!(moodle.len(), 1 + ROSTER.len());
    for (record, (id, name)) in moodle[1..].iter().zip(ROSTER) {
        assert_eq!(record.len(), 3);
        assert_eq!((&record[0][..], &record[1][..]), (*id, *name));
        match total_of(id) {
            Some(total) => assert_eq!(cents(&record[2]), cents(&total), "{id}"),
            None => assert_eq!(record[2], "-", "{id}"),
        }
    }
    let graded: Vec<&str> = moodle[1..]
        .iter()
        .filter(|r| r[2] != "-")
        .map(|r| r[0].as_str())
        .collect();
    assert_eq!(graded, ["2023001", "S-002", "stu 3"]);

    // --excel: every CSV starts with a byte-order mark, the rest is the same.
    let (code, _, err) = grade(&dir, &["--excel", "--out", "excel"]);
    assert_eq!((code, err.as_str()), (1, ""));
    for name in ["grades.csv", "canvas.csv", "moodle.csv"] {
        let plain = std::fs::read_to_string(dir.join("report").join(name)).unwrap();
        let excel = std::fs::read_to_string(dir.join("excel").join(name)).unwrap();
        assert_eq!(excel, format!("\u{feff}{plain}"), "{name}");
    }

    // A title Canvas would read as `name (assignment id)` loses that space;
    // a name Canvas skips as a computed column is refused, naming the fix.
    let (code, _, err) = grade(&dir, &["--force", "--assignment", "Quiz (2)"]);
    assert_eq!((code, err.as_str()), (1, ""));
    let canvas = records(&std::fs::read_to_string(dir.join("report/canvas.csv")).unwrap());
    assert_eq!(canvas[0][5], "Quiz(2)");
    let moodle = records(&std::fs::read_to_string(dir.join("report/moodle.csv")).unwrap());
    assert_eq!(moodle[0][2], "Quiz (2)");
    let (code, _, err) = grade(&dir, &["--force", "--assignment", "Final Grade"]);
    assert_eq!(code, 2);
    assert!(err.contains("--assignment"), "{err}");
}

#[test]
fn the_summary_speaks_the_sets_language_and_names_who_is_missing() {
    let dir = scratch("report-summary");
    handed_in(&dir);
    // Two students give the same wrong answer: it is listed under its field.
    std::fs::write(
        dir.join("handed-in/d10.toml"),
        set_field(&key(&dir, "d10"), 3, "value", "999"),
    )
    .unwrap();
    std::fs::write(
        dir.join("handed-in/e11.toml"),
        set_field(&key(&dir, "e11"), 3, "value", "999"),
    )
    .unwrap();
    // Student text reaches the HTML escaped.
    std::fs::write(
        dir.join("handed-in/f12.toml"),
        set_field(&key(&dir, "f12"), 1, "best_move", "\"<b>x</b>\""),
    )
    .unwrap();
    let (code, _, err) = grade(&dir, &[]);
    assert_eq!((code, err.as_str()), (1, ""));
    let md = std::fs::read_to_string(dir.join("report/summary.md")).unwrap();
    let html = std::fs::read_to_string(dir.join("report/summary.html")).unwrap();
    // The headline counts files and missing students apart.
    assert!(md.contains("共交来 13 个文件："), "{md}");
    assert!(md.contains("12 名学生中有 1 名没有交"), "{md}");
    // The student who handed in nothing, by id and name.
    assert!(
        md.contains("## 没有交答题文件的学生（1）\n\n- a7 傅强\n"),
        "{md}"
    );
    // Per question and field: mean, full marks, blank, wrong answers.
    assert!(
        md.contains("| 字段 | 平均分 | 满分比例 | 未作答比例 |"),
        "{md}"
    );
    let q3_value = md
        .lines()
        .skip_while(|l| !l.starts_with("### 第 3 题"))
        .find(|l| l.starts_with("| `value` |"))
        .unwrap();
    assert!(q3_value.contains("`999` ×2"), "{q3_value}");
    let q1_whole = md
        .lines()
        .skip_while(|l| !l.starts_with("### 第 1 题"))
        .find(|l| l.starts_with("| **整题** |"))
        .unwrap();
    assert!(q1_whole.contains(" / 10 |"), "{q1_whole}");
    // One mistake made by many is one line.
    let lines: Vec<&str> = md
        .lines()
        .filter(|l| l.starts_with("- ") && l.contains("（q3 `value`）") && l.contains("999"))
        .collect();
    assert_eq!(lines.len(), 1, "{md}");
    // Every file that needs a look, with its student.
    assert!(
        md.contains("- `handed-in/a7.toml`（b8 胡桂英）：文件名不符 — "),
        "{md}"
    );
    // No English words from the English table's summary strings.
    let en = treequiz::lang::Lang::builtin("en").unwrap();
    for key in [
        "grade.summary",
        "grade.distribution",
        "grade.common",
        "batch.per_question",
        "batch.col_mean",
        "batch.col_full",
        "batch.col_blank",
        "batch.whole_question",
        "batch.missing_students",
        "batch.attention",
        "batch.status_graded",
        "batch.status_duplicate",
        "batch.status_missing",
        "batch.status_name_mismatch",
        "batch.status_unreadable",
    ] {
        let english = en.get(key);
        assert!(!md.contains(english), "`{english}` in:\n{md}");
        assert!(!html.contains(english), "`{english}` in:\n{html}");
    }
    for english in ["files handed in", "handed in nothing", "mean ", "median"] {
        assert!(!md.contains(english), "`{english}` in:\n{md}");
    }
    // The HTML page: the set's language, the shared style, the same content, escaped.
    assert!(html.contains("<html lang=\"zh\">"), "{html}");
    assert!(html.contains("@page { size: A4"), "{html}");
    assert!(html.contains("<td>a7</td><td>傅强</td>"), "{html}");
    assert!(html.contains("<code>999</code> ×2"), "{html}");
    assert!(!html.contains("<b>x</b>"), "student text must be escaped");
    // Feedback pages use the statuses of the set's language.
    let c9 = std::fs::read_to_string(dir.join("report/feedback/handed-in_c9.md")).unwrap();
    assert!(c9.contains("\n重复：有 3 个文件带有学号 c9"), "{c9}");
    assert!(!c9.contains("duplicate"), "{c9}");
    // A file that does not count says so, instead of a total: its scores,
    // where it has any, are shown only for comparison.
    assert!(
        c9.contains("**此文件不计分**（其答案的得分（仅供对照）："),
        "{c9}"
    );
    assert!(!c9.contains("**总分"), "{c9}");
    let files = std::fs::read_dir(dir.join("report/feedback")).unwrap();
    let utf16 = files
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains("scan-0042") && p.extension().unwrap() == "md")
        .unwrap();
    let utf16 = std::fs::read_to_string(utf16).unwrap();
    assert!(utf16.contains("**此文件不计分**\n"), "{utf16}");
    assert!(!utf16.contains("0 / 0"), "{utf16}");
    let graded = std::fs::read_to_string(dir.join("report/feedback/handed-in_2023001.md")).unwrap();
    assert!(graded.contains("**总分：100 / 100**"), "{graded}");
    // The HTML page keeps a field's points and verdict on one line.
    let html = std::fs::read_to_string(dir.join("report/feedback/handed-in_2023001.html")).unwrap();
    assert!(
        html.contains("<td class=\"points\">3.33 / 3.33 · 正确</td>"),
        "{html}"
    );
    assert!(
        html.contains("td.points, .feedback th { white-space: nowrap; }"),
        "{html}"
    );
}

#[test]
fn the_same_input_gives_the_same_bytes() {
    let dir = scratch("report-same");
    handed_in(&dir);
    grade(&dir, &["--out", "one"]);
    grade(&dir, &["--out", "two"]);
    let mut files = Vec::new();
    fn walk(d: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    walk(&dir.join("one"), &mut files);
    assert!(files.len() > 20, "{files:?}");
    for f in files {
        let rel = f.strip_prefix(dir.join("one")).unwrap();
        assert_eq!(
            std::fs::read(&f).unwrap(),
            std::fs::read(dir.join("two").join(rel)).unwrap(),
            "{}",
            rel.display()
        );
    }
}

#[test]
#[cfg_attr(treequiz_without_script, ignore = "needs `script` (util-linux)")]
fn progress_shows_on_a_terminal_only() {
    let dir = scratch("report-progress");
    handed_in(&dir);
    // Piped (as in CI and in every test here): nothing on stderr.
    let (code, _, err) = grade(&dir, &[]);
    assert_eq!((code, err.as_str()), (1, ""));
    // On a terminal: `script` (util-linux) gives the command one.
    let command = format!(
        "{} grade --manifest exam/manifest.json handed-in --out tty",
        env!("CARGO_BIN_EXE_treequiz")
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let seen = String::from_utf8_lossy(&out.stdout);
    assert!(seen.contains("\rgrading 0 / 11"), "{seen:?}");
    assert!(seen.contains("\rgrading 11 / 11"), "{seen:?}");
    assert!(seen.contains("\r\x1b[K"), "the line is cleared: {seen:?}");
    assert!(dir.join("tty/grades.csv").is_file());
}

#[test]
fn grade_help_says_every_file_is_graded() {
    let (code, help, _) = crate::common::run(&["grade", "--help"]);
    assert_eq!(code, 0);
    assert!(!help.contains("*.toml"), "{help}");
    assert!(help.contains(".txt") && help.contains("--excel"), "{help}");
}

/// `grade_source` and `sniff_student` on texts the TOML parser refuses.
#[test]
fn a_student_line_is_found_in_text_that_is_not_toml() {
    use treequiz::grade::batch::sniff_student;
    assert_eq!(
        sniff_student("variant = \"X\nstudent = \"s7\"\n[q1"),
        Some("s7".into())
    );
    assert_eq!(sniff_student("  student='学号6'"), Some("学号6".into()));
    assert_eq!(sniff_student("\u{feff}student = \"\"\n"), None);
    assert_eq!(sniff_student("students = \"x\""), None);
    assert_eq!(sniff_student("# student = 3"), None);
    let book = KeyBook::default();
    let lang = treequiz::lang::Lang::builtin("en").unwrap();
    let row = treequiz::grade::batch::grade_source(
        &book,
        &Source {
            path: "x.toml".into(),
            text: "student = \"s7\"\n[q1\n".into(),
        },
        &lang,
        false,
    );
    assert_eq!(row.status, Status::Unreadable);
    assert_eq!(row.student.as_deref(), Some("s7"));
    assert!(
        row.reason.starts_with("this is not valid TOML: "),
        "{}",
        row.reason
    );
}

/// A subfolder `grade` cannot read (here: mode 000, graded by an unprivileged
/// user) once stopped the whole class with no path; now it is its own
/// `unreadable` row, named for its student, and every other file is graded.
#[cfg(unix)] // Unix permissions and `nobody`
#[test]
fn an_unreadable_subfolder_is_its_own_row_and_the_rest_is_graded() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("unreadable-folder");
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    // `nobody` may not reach the checkout (a clone in a 700 folder): the
    // set and the binary it runs are copied into the open scratch folder.
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("problem-sets/demo.toml"),
        dir.join("demo.toml"),
    )
    .unwrap();
    let set = "demo.toml";
    let (code, _, err) = run_in(&dir, &["generate", set, "--out", "exam", "--seed", "1"]);
    assert_eq!(code, 0, "{err}");
    std::fs::create_dir_all(dir.join("handed-in/s2")).unwrap();
    std::fs::copy(dir.join("exam/key.toml"), dir.join("handed-in/good.toml")).unwrap();
    std::fs::write(dir.join("handed-in/s2/answers.toml"), "x").unwrap();
    std::fs::set_permissions(
        dir.join("handed-in/s2"),
        std::fs::Permissions::from_mode(0o000),
    )
    .unwrap();
    // Root reads any folder: run as `nobody` there (util-linux's setpriv).
    let bin = dir.join("treequiz");
    std::fs::copy(assert_cmd::cargo::cargo_bin!("treequiz"), &bin).unwrap();
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    // A folder made here is owned by the user running the test.
    let root = std::os::unix::fs::MetadataExt::uid(&std::fs::metadata(&dir).unwrap()) == 0;
    let mut command = if root {
        let mut c = std::process::Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(bin);
        c
    } else {
        std::process::Command::new(bin)
    };
    let out = command
        .current_dir(&dir)
        .args([
            "grade",
            "handed-in",
            "--set",
            set,
            "--seed",
            "1",
            "--out",
            "report",
        ])
        .output()
        .unwrap();
    std::fs::set_permissions(
        dir.join("handed-in/s2"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("graded 1 of 2 files"), "{stdout}");
    let table = std::fs::read_to_string(dir.join("report/grades.csv")).unwrap();
    let row = table
        .lines()
        .find(|l| l.contains("handed-in/s2"))
        .unwrap_or_else(|| panic!("no row for the folder:\n{table}"));
    assert!(
        row.contains("unreadable") && row.contains("a folder that cannot be read"),
        "{row}"
    );
}

/// Roster names a student chose (an LMS display name) reach the gradebook
/// files: a name a spreadsheet would run as a formula is neutralised as
/// OWASP recommends (a leading apostrophe) in `canvas.csv` and `moodle.csv`
/// as in `grades.csv`; an id that would run is refused at the roster, with
/// its line, since the LMS matches ids exactly.
#[test]
fn gradebook_files_run_no_formula_from_a_roster() {
    let dir = scratch("report-formulas");
    let set = Path::new(env!("CARGO_MANIFEST_DIR")).join("problem-sets/demo.toml");
    let set = set.to_str().unwrap();
    let names = [
        "=HYPERLINK(\"http://x.test\",\"see\")",
        "+1+cmd|' /C calc'!A0",
        "-2-3",
        "@SUM(1)",
    ];
    let mut roster = "id,name\n".to_string();
    for (i, name) in names.iter().enumerate() {
        roster.push_str(&format!("s{i},\"{}\"\n", name.replace('"', "\"\"")));
    }
    std::fs::write(dir.join("class.csv"), &roster).unwrap();
    let (code, _, err) = run_in(
        &dir,
        &[
            "generate",
            set,
            "--roster",
            "class.csv",
            "--seed",
            "1",
            "--out",
            "exam",
        ],
    );
    assert_eq!(code, 0, "{err}");
    std::fs::create_dir_all(dir.join("handed-in")).unwrap();
    std::fs::copy(
        dir.join("exam/keys/s0/key.toml"),
        dir.join("handed-in/s0.toml"),
    )
    .unwrap();
    let (code, _, err) = run_in(
        &dir,
        &[
            "grade",
            "--manifest",
            "exam",
            "handed-in",
            "--out",
            "report",
        ],
    );
    assert_eq!(code, 1, "{err}");
    for file in ["canvas.csv", "moodle.csv", "grades.csv"] {
        let text = std::fs::read_to_string(dir.join("report").join(file)).unwrap();
        let cells: Vec<String> = records(&text).into_iter().flatten().collect();
        for name in names {
            assert!(
                cells.contains(&format!("'{name}")),
                "{file}: {name}\n{text}"
            );
        }
        let live: Vec<&String> = cells
            .iter()
            .filter(|c| c.starts_with(['=', '+', '@', '\t', '\r']) || c.starts_with("-2"))
            .collect();
        assert!(live.is_empty(), "{file}: {live:?}");
    }
    for id in ["=1+1", "@me", "+x", "-x"] {
        let roster = format!("id,name\n\"{id}\",Ann\n");
        std::fs::write(dir.join("bad.csv"), roster).unwrap();
        let (code, _, err) = run_in(
            &dir,
            &[
                "generate", set, "--roster", "bad.csv", "--seed", "1", "--out", "bad",
            ],
        );
        assert_eq!(code, 2, "{id:?}: {err}");
        assert!(err.contains("bad.csv:2"), "{id:?}: {err}");
        assert!(!dir.join("bad").exists());
    }
}

/// Students' answers and roster names reach the Markdown pages: none may
/// become live HTML, a link or an image in a renderer (common ones run raw
/// HTML). Every `<tag`, `[link](…)` and `![image](…)` a student or roster
/// wrote is escaped in `worksheet.md`, `key.md`, the feedback pages and
/// `summary.md`.
#[test]
fn markdown_pages_show_student_text_as_text() {
    let dir = scratch("report-markdown");
    let set = Path::new(env!("CARGO_MANIFEST_DIR")).join("problem-sets/demo.toml");
    let set = set.to_str().unwrap();
    let name = "<img src=x onerror=alert(1)>";
    exam(
        &dir,
        &[("s1", name), ("s2", "![x](http://track.test/p.png)")],
        set,
    );
    std::fs::create_dir_all(dir.join("handed-in")).unwrap();
    let key = std::fs::read_to_string(dir.join("exam/keys/s1/key.toml")).unwrap();
    // A wrong answer with HTML in it, and an unknown question that names some.
    let hostile = key.replacen(
        "\nvalue = ",
        "\nvalue = \"<script>alert(1)</script>\" # ",
        1,
    ) + "\n[\"q9<b onmouseover=x>\"]\nvalue = \"[click](javascript:alert(1))\"\n";
    std::fs::write(dir.join("handed-in/<i>s1.toml"), hostile).unwrap();
    let (code, _, err) = run_in(
        &dir,
        &[
            "grade",
            "--manifest",
            "exam",
            "handed-in",
            "--out",
            "report",
        ],
    );
    assert_eq!(code, 1, "{err}");
    let mut pages = vec![
        dir.join("exam/s1/worksheet.md"),
        dir.join("exam/keys/s1/key.md"),
        dir.join("exam/s2/worksheet.md"),
        dir.join("report/summary.md"),
    ];
    pages.extend(
        std::fs::read_dir(dir.join("report/feedback"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "md")),
    );
    let mut seen = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for live in ["<img", "<script", "<b ", "<i>", "](http", "](javascript"] {
            for (at, _) in text.match_indices(live) {
                let before = &text[..at];
                // Escaped, or inside a code span (nothing in one is HTML).
                let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
                assert!(
                    before.ends_with('\\') || line.matches('`').count() % 2 == 1,
                    "{}: a live {live:?} at byte {at}:\n{text}",
                    page.display()
                );
                seen += 1;
            }
        }
    }
    assert!(seen >= 6, "the hostile texts reach the pages ({seen} seen)");
}

/// Without a roster the sheet's own `student` line names the row: `José`
/// typed as one character and as `e` + a combining accent is one student
/// (two files: duplicates), and a control or bidirectional character never
/// reaches the grade table raw (shown as a picture, listed as a problem).
/// A set title with a control character is refused at its line: it made
/// every answer sheet invalid TOML.
#[test]
fn student_ids_from_sheets_are_plain_text_in_one_spelling() {
    let dir = scratch("report-student-ids");
    let set = Path::new(env!("CARGO_MANIFEST_DIR")).join("problem-sets/demo.toml");
    let set_text = std::fs::read_to_string(&set).unwrap();
    let set = set.to_str().unwrap();
    let (code, _, err) = run_in(&dir, &["generate", set, "--seed", "1", "--out", "exam"]);
    assert_eq!(code, 0, "{err}");
    let key = std::fs::read_to_string(dir.join("exam/key.toml")).unwrap();
    assert!(key.contains("\nstudent = \"\"\n"));
    std::fs::create_dir_all(dir.join("handed-in")).unwrap();
    for (file, id) in [
        ("a", "Jos\u{e9}"),
        ("b", "Jose\u{301}"),
        ("c", "s1\u{202e}gpj.exe"),
    ] {
        let text = key.replace("\nstudent = \"\"\n", &format!("\nstudent = \"{id}\"\n"));
        std::fs::write(dir.join(format!("handed-in/{file}.toml")), text).unwrap();
    }
    let (code, _, err) = run_in(
        &dir,
        &[
            "grade",
            "handed-in",
            "--set",
            set,
            "--seed",
            "1",
            "--out",
            "report",
        ],
    );
    assert_eq!(code, 1, "{err}");
    let table = std::fs::read_to_string(dir.join("report/grades.csv")).unwrap();
    let rows = records(&table);
    let status = |file: &str| {
        let row = rows.iter().find(|r| r[2].ends_with(file)).unwrap();
        (row[0].clone(), row[4].clone())
    };
    assert_eq!(status("a.toml"), ("Jos\u{e9}".into(), "duplicate".into()));
    assert_eq!(status("b.toml"), ("Jos\u{e9}".into(), "duplicate".into()));
    assert!(!table.contains('\u{202e}'), "{table}");
    let c = rows.iter().find(|r| r[2].ends_with("c.toml")).unwrap();
    assert_eq!(c[4], "graded");
    assert!(c.iter().any(|cell| cell.contains("U+202E")), "{c:?}");

    for bad in ["\u{1b}[2J", "\u{b}", "\u{c}", "\u{7f}"] {
        let text = set_text.replacen(
            "title = \"",
            &format!(
                "title = \"{}",
                bad.chars()
                    .map(|c| format!("\\u{:04X}", c as u32))
                    .collect::<String>()
            ),
            1,
        );
        std::fs::write(dir.join("bad.toml"), text).unwrap();
        let (code, _, err) = run_in(&dir, &["generate", "bad.toml", "--out", "bad"]);
        assert_eq!(code, 2, "{bad:?}: {err}");
        assert!(
            err.contains("the title") && err.contains("bad.toml:2:"),
            "{bad:?}: {err}"
        );
        assert!(!dir.join("bad").exists());
    }
}

/// An LMS download holds a folder per student: 1,500 of them are searched
/// with at most 256 files open (folders are listed one at a time, never
/// held open while their siblings are), and every file gets its row.
#[test]
fn a_folder_per_student_is_searched_within_few_open_files() {
    let dir = scratch("report-many-folders");
    for i in 0..1500 {
        let sub = dir.join(format!("handed-in/student {i}_assignsubmission_file_"));
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(sub.join("answers.toml"), "x").unwrap();
    }
    let set = concat!(env!("CARGO_MANIFEST_DIR"), "/problem-sets/demo.toml");
    let out = std::process::Command::new("sh")
        .current_dir(&dir)
        .arg("-c")
        .arg(format!(
            "ulimit -n 256 && exec '{}' grade handed-in --set '{set}' --seed 1 --out report",
            env!("CARGO_BIN_EXE_treequiz")
        ))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("graded 0 of 1500 files"), "{stdout}");
    let table = std::fs::read_to_string(dir.join("report/grades.csv")).unwrap();
    let rows = records(&table);
    assert_eq!(
        rows.iter()
            .filter(|r| r[2].ends_with("/answers.toml"))
            .count(),
        1500
    );
    assert!(!table.contains("a folder that cannot be read"));
}

/// A student who hands in the same file twice (byte for byte: uploaded
/// again, or in two folders) gets one grade: the first copy counts, the
/// other is a `duplicate` that names it. Different files of one student
/// stay refused (`c9` above).
#[test]
fn a_copy_of_the_same_file_counts_once() {
    let dir = scratch("report-copies");
    exam(&dir, ROSTER, MIDTERM);
    let h = dir.join("handed-in");
    std::fs::create_dir_all(h.join("again")).unwrap();
    let text = set_field(&key(&dir, "2023001"), 1, "value", "999");
    std::fs::write(h.join("2023001.toml"), &text).unwrap();
    std::fs::write(h.join("again/2023001.toml"), &text).unwrap();
    let (code, _, err) = grade(&dir, &[]);
    assert_eq!(code, 1, "{err}");
    let table = records(&std::fs::read_to_string(dir.join("report/grades.csv")).unwrap());
    let col = |name: &str| table[0].iter().position(|c| c == name).unwrap();
    let row = |file: &str| {
        table
            .iter()
            .find(|r| r[col("file")] == format!("handed-in/{file}"))
            .unwrap_or_else(|| panic!("no row for {file}: {table:?}"))
    };
    let (first, copy) = (row("2023001.toml"), row("again/2023001.toml"));
    assert_eq!(first[col("status")], "graded", "{first:?}");
    assert!(!first[col("total")].is_empty(), "{first:?}");
    assert_eq!(copy[col("status")], "duplicate", "{copy:?}");
    assert_eq!(copy[col("total")], "", "{copy:?}");
    assert!(
        copy[col("reason")].contains("handed-in/2023001.toml"),
        "{copy:?}"
    );
    assert!(copy[col("reason")].contains("只计一次"), "{copy:?}"); // counts once
    // The gradebook gets the one grade.
    let canvas = std::fs::read_to_string(dir.join("report/canvas.csv")).unwrap();
    let line = canvas.lines().find(|l| l.contains(",2023001,")).unwrap();
    assert!(
        line.ends_with(&format!(",{}", first[col("total")])),
        "{line}"
    );
}

/// The grade table follows the roster, as the teacher's gradebook does (a
/// student's files together, a `missing` row in its place); files that
/// match no roster student come last, in file order.
#[test]
fn the_grade_table_is_in_roster_order() {
    let dir = scratch("report-roster-order");
    handed_in(&dir);
    // A file no roster student owns: its id is on no roster.
    let stranger = key(&dir, "2023001").replace("student = \"2023001\"", "student = \"x99\"");
    std::fs::write(dir.join("handed-in/000-first.toml"), stranger).unwrap();
    grade(&dir, &[]);
    let table = records(&std::fs::read_to_string(dir.join("report/grades.csv")).unwrap());
    let place = |id: &str| ROSTER.iter().position(|(r, _)| *r == id);
    let places: Vec<Option<usize>> = table[1..].iter().map(|r| place(&r[0])).collect();
    let split = places
        .iter()
        .position(Option::is_none)
        .unwrap_or(places.len());
    assert!(places[split..].iter().all(Option::is_none), "{table:?}");
    let known: Vec<usize> = places[..split].iter().map(|p| p.unwrap()).collect();
    assert!(known.is_sorted(), "not in roster order: {table:?}");
    assert_eq!(known.first(), Some(&0), "{table:?}");
    assert_eq!(
        table.last().unwrap()[2],
        "handed-in/000-first.toml",
        "{table:?}"
    );
    // c9's three files together, in file order.
    let c9: Vec<&str> = table
        .iter()
        .filter(|r| r[0] == "c9")
        .map(|r| r[2].as_str())
        .collect();
    assert_eq!(
        c9,
        [
            "handed-in/c9 (1).toml",
            "handed-in/c9-again.toml",
            "handed-in/c9.toml"
        ]
    );
}

/// Issue 27: `grade --overrides FILE` applies a teacher's adjustments after
/// grading: the question's points and the total change in grades.csv and the
/// gradebook files, the feedback says who changed what and why, the summary
/// lists them; a row that names no graded question stops the run before
/// anything is written.
#[test]
fn overrides_adjust_after_grading_and_show_everywhere() {
    let dir = scratch("report-overrides");
    exam(&dir, &ROSTER[..3], MIDTERM);
    let h = dir.join("handed-in");
    std::fs::create_dir_all(&h).unwrap();
    for id in ["2023001", "S-002"] {
        let folder = treequiz::roster::folder_name(id).unwrap();
        std::fs::write(h.join(format!("{folder}.toml")), key(&dir, id)).unwrap();
    }
    std::fs::write(
        dir.join("overrides.csv"),
        "student,question,points,reason\n2023001,q2,-2.5,\"late, by agreement\"\ns-002,1,0,copied from a neighbour\n",
    )
    .unwrap();
    let (code, _, err) = grade(&dir, &["--overrides", "overrides.csv"]);
    assert_eq!(code, 1, "stu 3 handed in nothing: {err}");
    let table = records(&std::fs::read_to_string(dir.join("report/grades.csv")).unwrap());
    let col = |name: &str| table[0].iter().position(|c| c == name).unwrap();
    let row = |id: &str| {
        table
            .iter()
            .find(|r| r[col("student")] == id)
            .unwrap()
            .clone()
    };
    let (a, b) = (row("2023001"), row("S-002"));
    assert_eq!(
        (a[col("q2")].as_str(), a[col("total")].as_str()),
        ("17.5", "97.5"),
        "{a:?}"
    );
    assert_eq!(
        (b[col("q1")].as_str(), b[col("total")].as_str()),
        ("0", "90"),
        "{b:?}"
    );
    assert_eq!(a[col("adjusted")], "q2: 20 -> 17.5 (late, by agreement)");
    let canvas = std::fs::read_to_string(dir.join("report/canvas.csv")).unwrap();
    assert!(
        canvas
            .lines()
            .any(|l| l.contains(",2023001,") && l.ends_with(",97.5")),
        "{canvas}"
    );
    let feedback = std::fs::read_to_string(dir.join("report").join(&b[col("feedback")])).unwrap();
    assert!(
        feedback.contains("老师将本题从 10 分调整为 0 分：copied from a neighbour"),
        "{feedback}"
    );
    let summary = std::fs::read_to_string(dir.join("report/summary.md")).unwrap();
    assert!(summary.contains("## 手动调整（2）"), "{summary}");
    assert!(
        summary.contains("- 2023001 q2：20 → 17.5 — late, by agreement"),
        "{summary}"
    );

    // A row for a student with no graded file: an error at its line, nothing written.
    std::fs::write(
        dir.join("bad.csv"),
        "student,question,points,reason\n2023001,1,5,ok\nstu 3,1,5,regraded\n",
    )
    .unwrap();
    let (code, _, err) = grade(&dir, &["--overrides", "bad.csv", "--out", "report2"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("bad.csv:3:1") && err.contains("stu 3's file is not graded (missing)"),
        "{err}"
    );
    assert!(!dir.join("report2").exists());
    // Beyond a question's points.
    std::fs::write(
        dir.join("bad.csv"),
        "student,question,points,reason\n2023001,1,+1,bonus\n",
    )
    .unwrap();
    let (code, _, err) = grade(&dir, &["--overrides", "bad.csv", "--out", "report2"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("question 1 is worth 10 points: 11 is out of range"),
        "{err}"
    );
}
