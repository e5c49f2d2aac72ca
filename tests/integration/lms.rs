//! LMS downloads graded as they come, and what goes back: files laid out as
//! Moodle's `mod/assign/classes/downloader.php` and Canvas's
//! `lib/content_zipper.rb` lay them out, and Moodle's importers' rules
//! transcribed to check what `grade` writes back.

use std::io::{Read, Write};
use std::path::Path;

use crate::common::{exam_for, run_in, scratch};

const SET: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/problem-sets/game-tree-quiz.toml"
);

fn key(dir: &Path, student: &str) -> String {
    std::fs::read_to_string(dir.join(format!("exam/keys/{student}/key.toml"))).unwrap()
}

/// A zip of `files` (name, bytes) written as an LMS writes it.
fn zip(path: &Path, files: &[(&str, Vec<u8>)]) {
    let mut z = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    for (name, bytes) in files {
        let opts = zip::write::SimpleFileOptions::default();
        if name.ends_with('/') {
            z.add_directory(*name, opts).unwrap();
        } else {
            z.start_file(*name, opts).unwrap();
            z.write_all(bytes).unwrap();
        }
    }
    z.finish().unwrap();
}

fn entries(path: &Path) -> Vec<(String, String)> {
    let mut z = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    (0..z.len())
        .map(|i| {
            let mut e = z.by_index(i).unwrap();
            let mut bytes = Vec::new();
            e.read_to_end(&mut bytes).unwrap();
            (
                e.name().unwrap().to_string(),
                String::from_utf8_lossy(&bytes).into_owned(),
            )
        })
        .collect()
}

/// Moodle's `assignfeedback_file_zip_importer::is_valid_filename_for_import`,
/// transcribed: each part of the path, split on `_` into at most five
/// pieces; a part of four or more is `fullname_participant_plugintype_pluginname`,
/// whose participant must be the assignment's and whose plugin must exist.
/// Returns the participant the file is imported for.
fn moodle_imports(path: &str, participants: &[&str]) -> Option<String> {
    if path.split('/').next_back()?.starts_with(['.', '~']) {
        return None;
    }
    for part in path.split('/') {
        let pieces: Vec<&str> = part.splitn(5, '_').collect();
        if pieces.len() >= 4 {
            let plugin = (pieces[2], pieces[3]);
            let known = [("assignfeedback", "file"), ("assignsubmission", "file")];
            if pieces[1].chars().all(|c| c.is_ascii_digit())
                && participants.contains(&pieces[1])
                && known.contains(&plugin)
            {
                return Some(pieces[1].to_string());
            }
            return None;
        }
    }
    None
}

#[test]
fn a_moodle_download_is_graded_as_it_comes_and_goes_back_in_one_upload_each() {
    let dir = scratch("lms-moodle");
    exam_for(
        &dir,
        &[
            ("s1", "Ann Lee"),
            ("s2", "Bo Chen"),
            ("s3", "Cy Park"),
            ("s4", "Di Wu"),
        ],
        SET,
    );
    let wrong = key(&dir, "s2").replacen("\nvalue = ", "\nvalue = 999 # ", 1);
    // Moodle ≥ 4.1 folders, a ≤ 4.0 folder (trailing `_`), a flat name
    // (folders off), an online-text file, and what a Mac adds.
    zip(
        &dir.join("CS101-Quiz 1-42.zip"),
        &[
            ("Ann Lee_1234567_assignsubmission_file/", vec![]),
            (
                "Ann Lee_1234567_assignsubmission_file/answer-sheet.toml",
                key(&dir, "s1").into_bytes(),
            ),
            (
                "Bo Chen_7654321_assignsubmission_file_/answers.toml",
                wrong.into_bytes(),
            ),
            (
                "Cy Park_55_assignsubmission_file_answer-sheet.toml",
                key(&dir, "s3").into_bytes(),
            ),
            (
                "Cy Park_55_assignsubmission_onlinetext/onlinetext.html",
                b"<!DOCTYPE html><html><body>see file</body></html>".to_vec(),
            ),
            (
                "__MACOSX/Ann Lee_1234567_assignsubmission_file/._answer-sheet.toml",
                vec![0, 1],
            ),
            (
                "Ann Lee_1234567_assignsubmission_file/.DS_Store",
                vec![0, 1],
            ),
        ],
    );
    let (code, out, err) = run_in(
        &dir,
        &[
            "grade",
            "--manifest",
            "exam",
            "CS101-Quiz 1-42.zip",
            "--out",
            "report",
        ],
    );
    assert_eq!(
        code, 1,
        "the online text and s4 need the teacher: {out}{err}"
    );
    assert!(out.contains("graded 3 of 4 files"), "{out}");
    assert!(
        out.contains("moodle-worksheet.csv") && out.contains("moodle-feedback.zip"),
        "{out}"
    );
    let grades = std::fs::read_to_string(dir.join("report/grades.csv")).unwrap();
    let mut table = csv::Reader::from_reader(grades.as_bytes());
    let head = table.headers().unwrap().clone();
    let col = |name: &str| head.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = table.records().map(Result::unwrap).collect();
    let row = |student: &str| {
        rows.iter()
            .find(|r| &r[col("student")] == student && &r[col("status")] == "graded")
            .unwrap()
    };
    assert_eq!(&row("s1")[col("lms_id")], "1234567");
    assert_eq!(&row("s3")[col("lms_id")], "55");
    assert_eq!(
        &row("s1")[col("file")],
        "CS101-Quiz 1-42.zip/Ann Lee_1234567_assignsubmission_file/answer-sheet.toml"
    );
    let total = |s: &str| row(s)[col("total")].to_string();
    assert!(total("s2") != row("s2")[col("max")], "s2 lost points");

    // The worksheet: UTF-8 with Moodle's byte-order mark, the three columns
    // the importer requires by their English headers, one row per participant.
    let sheet = std::fs::read(dir.join("report/moodle-worksheet.csv")).unwrap();
    let sheet = String::from_utf8(sheet).unwrap();
    let sheet = sheet
        .strip_prefix('\u{feff}')
        .expect("a byte-order mark, as Moodle writes");
    let mut reader = csv::Reader::from_reader(sheet.as_bytes());
    let head: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    for required in [
        "Identifier",
        "Grade",
        "Last modified (grade)",
        "Feedback comments",
    ] {
        assert!(head.iter().any(|h| h == required), "{head:?}");
    }
    let at = |n: &str| head.iter().position(|h| h == n).unwrap();
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let ids: Vec<&str> = records.iter().map(|r| &r[at("Identifier")]).collect();
    assert_eq!(
        ids,
        [
            "Participant 55",
            "Participant 1234567",
            "Participant 7654321"
        ]
    );
    for (record, student) in records.iter().zip(["s3", "s1", "s2"]) {
        // Moodle's importer strips `Participant ` (strlen of its string) and reads the number.
        assert!(
            record[at("Identifier")]["Participant ".len()..]
                .parse::<u64>()
                .is_ok()
        );
        assert_eq!(record[at("Grade")], total(student), "{student}");
        assert!(record[at("Feedback comments")].contains(&total(student)));
        let when = &record[at("Last modified (grade)")];
        assert!(when.ends_with(" UTC") && when.len() == 23, "{when}");
    }

    // The feedback zip: each page in its participant's folder, every path
    // one Moodle's importer takes, for the right participant.
    let pages = entries(&dir.join("report/moodle-feedback.zip"));
    let names: Vec<&str> = pages.iter().map(|(n, _)| n.as_str()).collect();
    assert!(
        names.contains(&"Ann Lee_1234567_assignfeedback_file/feedback.html"),
        "{names:?}"
    );
    // Cy Park handed in two files: both pages go back.
    assert!(
        names.contains(&"Cy Park_55_assignfeedback_file/feedback-2.html"),
        "{names:?}"
    );
    let participants = ["1234567", "7654321", "55"];
    for (name, text) in &pages {
        let who =
            moodle_imports(name, &participants).unwrap_or_else(|| panic!("{name} is not imported"));
        let student = match who.as_str() {
            "1234567" => "s1",
            "7654321" => "s2",
            _ => "s3",
        };
        if !text.contains("onlinetext.html") {
            assert!(text.contains(student), "{name} holds {student}'s page");
        }
    }
    // The same download graded again writes the same zip.
    let first = std::fs::read(dir.join("report/moodle-feedback.zip")).unwrap();
    let (code, _, _) = run_in(
        &dir,
        &[
            "grade",
            "--manifest",
            "exam",
            "CS101-Quiz 1-42.zip",
            "--out",
            "report",
            "--force",
        ],
    );
    assert_eq!(code, 1);
    assert_eq!(
        first,
        std::fs::read(dir.join("report/moodle-feedback.zip")).unwrap()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_canvas_download_reports_its_ids_and_late_marks() {
    let dir = scratch("lms-canvas");
    exam_for(&dir, &[("s1", "Ann Lee"), ("s2", "Bo Chen")], SET);
    zip(
        &dir.join("cs101-quiz-1_submissions.zip"),
        &[
            (
                "leeann_12345_678901_answer-sheet.toml",
                key(&dir, "s1").into_bytes(),
            ),
            (
                "chenbo_LATE_23456_789012_answer-sheet.toml",
                key(&dir, "s2").into_bytes(),
            ),
        ],
    );
    let (code, out, err) = run_in(
        &dir,
        &[
            "grade",
            "--manifest",
            "exam",
            "cs101-quiz-1_submissions.zip",
            "--out",
            "report",
        ],
    );
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    let grades = std::fs::read_to_string(dir.join("report/grades.csv")).unwrap();
    let lines: Vec<&str> = grades.lines().collect();
    assert!(lines[0].ends_with(",lms_id,late"), "{}", lines[0]);
    assert!(
        lines[1].starts_with("s1,") && lines[1].ends_with(",12345,"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].starts_with("s2,") && lines[2].ends_with(",23456,late"),
        "{}",
        lines[2]
    );
    // Canvas takes grades through canvas.csv; nothing Moodle's is written.
    assert!(!dir.join("report/moodle-worksheet.csv").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_hostile_zip_gets_a_row_per_entry_and_nothing_outside_is_touched() {
    let dir = scratch("lms-hostile");
    exam_for(&dir, &[("s1", "Ann Lee")], SET);
    let path = dir.join("download.zip");
    let mut z = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    let opts = zip::write::SimpleFileOptions::default();
    for (name, bytes) in [
        ("../../escape.toml", key(&dir, "s1").into_bytes()),
        ("/etc/abs.toml", b"x = 1\n".to_vec()),
        ("big.toml", vec![b'#'; 2 * 1024 * 1024]),
        ("bomb.toml", vec![b' '; 1024 * 1024]),
        (
            "Ann Lee_1_assignsubmission_file/answer-sheet.toml",
            key(&dir, "s1").into_bytes(),
        ),
    ] {
        z.start_file(name, opts).unwrap();
        z.write_all(&bytes).unwrap();
    }
    z.add_symlink("link.toml", "../exam/keys/s1/key.toml", opts)
        .unwrap();
    z.finish().unwrap();
    let (code, out, err) = run_in(
        &dir,
        &[
            "grade",
            "--manifest",
            "exam",
            "download.zip",
            "--out",
            "report",
        ],
    );
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("graded 1 of 6 files"), "{out}{err}");
    let grades = std::fs::read_to_string(dir.join("report/grades.csv")).unwrap();
    let status = |file: &str| {
        grades
            .lines()
            .find(|l| l.contains(file))
            .unwrap_or_else(|| panic!("no row for {file}: {grades}"))
            .to_string()
    };
    assert!(status("∕etc∕abs.toml").contains(",not-a-file,"), "{grades}");
    assert!(
        status("..∕..∕escape.toml").contains(",not-a-file,"),
        "{grades}"
    );
    assert!(status("link.toml").contains(",not-a-file,"), "{grades}");
    assert!(status("big.toml").contains(",too-large,"), "{grades}");
    assert!(status("bomb.toml").contains(",too-large,"), "{grades}");
    assert!(status("bomb.toml").contains("inflate"), "{grades}");
    assert!(
        !dir.join("escape.toml").exists() && !dir.parent().unwrap().join("escape.toml").exists()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The keys `results.json` may have, per the Autograder Specifications
/// (gradescope/autograder_samples `docs/specs.md`; no JSON Schema is
/// published): the top level and each test.
const TOP: [&str; 11] = [
    "score",
    "execution_time",
    "output",
    "output_format",
    "test_output_format",
    "test_name_format",
    "visibility",
    "stdout_visibility",
    "extra_data",
    "tests",
    "leaderboard",
];
const TEST: [&str; 11] = [
    "score",
    "max_score",
    "status",
    "name",
    "name_format",
    "number",
    "output",
    "output_format",
    "tags",
    "visibility",
    "extra_data",
];
const VISIBLE: [&str; 4] = ["hidden", "after_due_date", "after_published", "visible"];

/// `results.json` checked against the specification, as a schema would.
fn valid_results(results: &serde_json::Value) {
    let top = results.as_object().expect("an object");
    for k in top.keys() {
        assert!(TOP.contains(&k.as_str()), "{k} is not a documented key");
    }
    assert!(top["score"].is_number());
    assert!(top["output"].is_string());
    if let Some(v) = top.get("stdout_visibility") {
        assert!(VISIBLE.contains(&v.as_str().unwrap()));
    }
    let mut sum = 0.0;
    for t in top["tests"].as_array().expect("tests") {
        let t = t.as_object().unwrap();
        for k in t.keys() {
            assert!(
                TEST.contains(&k.as_str()),
                "{k} is not a documented test key"
            );
        }
        assert!(t["name"].is_string() && t["output"].is_string());
        assert!(VISIBLE.contains(&t["visibility"].as_str().unwrap()));
        if let Some(score) = t.get("score") {
            let (s, m) = (score.as_f64().unwrap(), t["max_score"].as_f64().unwrap());
            assert!((0.0..=m).contains(&s), "{s} of {m}");
            sum += s;
        }
    }
    let score = top["score"].as_f64().unwrap();
    assert!(
        (score - sum).abs() < 1e-9,
        "score {score} is the tests' sum {sum}"
    );
}

/// Runs the autograder zip's `run_autograder` in `root`, laid out as
/// Gradescope lays out /autograder, and returns results.json.
fn autograde(
    root: &Path,
    zip_path: &Path,
    sheet: Option<&str>,
    metadata: &str,
) -> serde_json::Value {
    let _ = std::fs::remove_dir_all(root);
    let source = root.join("source");
    std::fs::create_dir_all(&source).unwrap();
    let mut z = zip::ZipArchive::new(std::fs::File::open(zip_path).unwrap()).unwrap();
    z.extract(&source).unwrap();
    // A program written by this process cannot be run while another test
    // thread's fork still holds the written file open ("Text file busy"):
    // the one run is a copy `cp` writes, which no thread here ever opened.
    let unpacked = source.join("treequiz");
    let written = source.join("treequiz.unpacked");
    std::fs::rename(&unpacked, &written).unwrap();
    let copied = std::process::Command::new("cp")
        .arg("-p")
        .arg(&written)
        .arg(&unpacked)
        .status()
        .unwrap();
    assert!(copied.success());
    std::fs::create_dir_all(root.join("submission")).unwrap();
    std::fs::create_dir_all(root.join("results")).unwrap();
    if let Some(sheet) = sheet {
        std::fs::write(root.join("submission/answer-sheet.toml"), sheet).unwrap();
    }
    std::fs::write(root.join("submission_metadata.json"), metadata).unwrap();
    let status = std::process::Command::new("bash")
        .arg(root.join("source/run_autograder"))
        .env("AUTOGRADER_ROOT", root)
        .status()
        .unwrap();
    assert!(status.success());
    serde_json::from_str(&std::fs::read_to_string(root.join("results/results.json")).unwrap())
        .unwrap()
}

fn metadata(email: &str) -> String {
    // The shape of the specification's example (`docs/submission_metadata.md`).
    format!(
        r#"{{"id": 123456, "created_at": "2026-12-04T12:00:00.0-08:00",
  "assignment": {{"due_date": "2026-12-10T23:59:00.0-08:00", "group_size": null, "group_submission": false,
    "id": 25828, "course_id": 1, "late_due_date": null, "release_date": "2026-12-01T00:00:00.0-08:00",
    "title": "Quiz 1", "total_points": "20.0"}},
  "submission_method": "upload",
  "users": [{{"email": "{email}", "id": 1234, "name": "Ann Lee"}}],
  "previous_submissions": []}}"#
    )
}

#[test]
fn a_gradescope_autograder_grades_a_submission_into_documented_results() {
    let dir = scratch("gradescope");
    exam_for(&dir, &[("s1", "Ann Lee"), ("s2", "Bo Chen")], SET);
    let (code, out, err) = run_in(&dir, &["gradescope", "exam", "--out", "autograder.zip"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    let names: Vec<String> = entries(&dir.join("autograder.zip"))
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    assert_eq!(
        names,
        ["setup.sh", "run_autograder", "treequiz", "manifest.json"]
    );
    let root = dir.join("autograder");
    let zip_path = dir.join("autograder.zip");

    // The key scores full marks; the worked feedback waits for the due date.
    let key = key(&dir, "s1");
    let results = autograde(&root, &zip_path, Some(&key), &metadata("s1@uni.edu"));
    valid_results(&results);
    let tests = results["tests"].as_array().unwrap();
    assert_eq!(results["score"], 20.0, "{results:#}");
    assert!(tests.len() > 3);
    let worked = tests.last().unwrap();
    assert_eq!(worked["visibility"], "after_due_date");
    assert!(worked.get("score").is_none());
    assert!(!results["output"].as_str().unwrap().contains("submitted by"));

    // A wrong value loses its field's points; what is shown now never gives the key.
    let value = key.find("\nvalue = ").unwrap() + 1;
    let end = value + key[value..].find('\n').unwrap();
    let answer = key[value + "value = ".len()..end].to_string();
    let wrong = format!("{}value = 999{}", &key[..value], &key[end..]);
    let results = autograde(&root, &zip_path, Some(&wrong), &metadata("ann@uni.edu"));
    valid_results(&results);
    assert!(results["score"].as_f64().unwrap() < 20.0);
    let tests = results["tests"].as_array().unwrap();
    let lost = tests.iter().find(|t| t["name"] == "q1 value").unwrap();
    assert_eq!(lost["score"], 0.0, "{lost:#}");
    assert_eq!(lost["visibility"], "visible");
    let output = lost["output"].as_str().unwrap();
    assert!(
        output.contains("999") && !output.contains(&answer),
        "{output}"
    );
    for t in tests.iter().filter(|t| t["visibility"] == "visible") {
        assert!(!t["output"].as_str().unwrap().contains("Key"), "{t:#}");
    }
    let worked = tests.last().unwrap()["output"].as_str().unwrap();
    assert!(worked.contains(&format!("{answer}, not 999")), "{worked}");
    // The sheet is s1's, the submitter ann@: said, for the teacher to check.
    assert!(
        results["output"]
            .as_str()
            .unwrap()
            .contains("submitted by Ann Lee <ann@uni.edu>"),
        "{results:#}"
    );

    // Nothing handed in: a score of 0 and what to do, never a crash.
    let results = autograde(&root, &zip_path, None, "not json");
    valid_results(&results);
    assert_eq!(results["score"], 0.0);
    assert!(
        results["output"]
            .as_str()
            .unwrap()
            .contains("answer-sheet.toml")
    );

    // Another set's sheet: not counted, and why.
    let results = autograde(
        &root,
        &zip_path,
        Some(&key.replacen("checksum = \"", "checksum = \"0", 1)),
        &metadata("s1@uni.edu"),
    );
    valid_results(&results);
    assert_eq!(results["score"], 0.0);
    assert!(
        results["output"].as_str().unwrap().contains("checksum"),
        "{results:#}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
