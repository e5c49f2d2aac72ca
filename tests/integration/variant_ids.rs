//! Variant ids are distinct within a class set: two students whose first
//! candidate id is the same (found by brute force for a fixed seed) get
//! different ids, reproducibly, and the grader accepts both sheets, from the
//! manifest and from keys regenerated from the set.

use std::collections::HashMap;
use std::path::Path;

use treequiz::class_set;
use treequiz::problem_set::{self, ProblemSet};
use treequiz::rng::Master;
use treequiz::roster::Student;

use crate::common::{generate, run, scratch};

const SET: &str = "problem-sets/demo.toml";
const SEED: u64 = 11;

fn student(id: &str) -> Student {
    Student {
        id: id.into(),
        name: None,
        folder: id.into(),
    }
}

/// Two roster ids whose first candidate id is the same: a birthday search over
/// `s0`, `s1`, … (about 41,000 ids for six characters, 30 bits).
fn colliding_pair(set: &ProblemSet, master: &Master) -> (String, String, String) {
    let mut seen: HashMap<String, String> = HashMap::new();
    for i in 0..2_000_000 {
        let id = format!("s{i}");
        let first =
            class_set::id_candidate(master, &class_set::context(set, Some(&student(&id))), 0);
        if let Some(earlier) = seen.insert(first.clone(), id.clone()) {
            return (earlier, id, first);
        }
    }
    panic!("no two of 2,000,000 ids share a first candidate");
}

/// The variant ids of a generated set, by student id.
fn ids(out: &Path) -> Vec<(String, String)> {
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    manifest["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["student"]["id"].as_str().unwrap().to_string(),
                v["id"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Grades `sheets` with `keys` (the `grade` arguments that say where the keys
/// are); every sheet must be graded with full marks.
fn grades_full_marks(dir: &Path, keys: &[&str], sheets: &[&Path], report: &str) {
    let mut args = vec!["grade"];
    args.extend_from_slice(keys);
    let sheets: Vec<String> = sheets.iter().map(|s| s.display().to_string()).collect();
    args.extend(sheets.iter().map(String::as_str));
    let report = dir.join(report);
    args.extend(["--out", report.to_str().unwrap()]);
    let (code, stdout, err) = run(&args);
    assert_eq!((code, err.as_str()), (0, ""), "{stdout}");
    let csv = std::fs::read_to_string(report.join("grades.csv")).unwrap();
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), sheets.len(), "{csv}");
    for row in rows {
        assert_eq!(&row[col("status")], "graded", "{csv}");
        assert_eq!(row[col("total")], row[col("max")], "{csv}");
    }
}

#[test]
fn students_whose_ids_collide_get_distinct_ids_and_both_sheets_grade() {
    let set = problem_set::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(SET)).unwrap();
    let master = Master::from_seed(SEED);
    let (a, b, shared) = colliding_pair(&set, &master);
    let second = |id: &str| {
        class_set::id_candidate(&master, &class_set::context(&set, Some(&student(id))), 1)
    };

    let dir = scratch("variant-ids");
    let seed = SEED.to_string();
    for (name, order) in [("ab", [&a, &b]), ("ba", [&b, &a])] {
        let roster = dir.join(format!("{name}.csv"));
        std::fs::write(&roster, format!("id\n{}\n{}\n", order[0], order[1])).unwrap();
        let out = dir.join(name);
        let args = ["--roster", roster.to_str().unwrap(), "--seed", &seed];
        let (code, _, err) = generate(SET, out.to_str().unwrap(), &args);
        assert_eq!((code, err.as_str()), (0, ""));
        // The first in the roster keeps the shared id; the second gets its next candidate.
        assert_eq!(
            ids(&out),
            [
                (order[0].clone(), shared.clone()),
                (order[1].clone(), second(order[1]))
            ]
        );
        let sheet = std::fs::read_to_string(out.join(order[1]).join("answer-sheet.toml")).unwrap();
        assert!(sheet.contains(&second(order[1])), "{sheet}");
        // Generated again: the same bytes.
        let again = dir.join(format!("{name}-again"));
        let (code, _, err) = generate(SET, again.to_str().unwrap(), &args);
        assert_eq!((code, err.as_str()), (0, ""));
        for f in ["manifest.json", &format!("{}/answer-sheet.toml", order[1])] {
            assert_eq!(
                std::fs::read(out.join(f)).unwrap(),
                std::fs::read(again.join(f)).unwrap(),
                "{f}"
            );
        }
        // Both perfect sheets grade, against the manifest and against keys made from the set.
        let keys: Vec<_> = order
            .iter()
            .map(|s| out.join("keys").join(s).join("key.toml"))
            .collect();
        let keys: Vec<&Path> = keys.iter().map(|k| k.as_path()).collect();
        let manifest = out.join("manifest.json");
        grades_full_marks(
            &dir,
            &["--manifest", manifest.to_str().unwrap()],
            &keys,
            &format!("{name}-report"),
        );
        grades_full_marks(
            &dir,
            &["--set", SET, "--seed", &seed],
            &keys,
            &format!("{name}-from-set"),
        );
    }
}
