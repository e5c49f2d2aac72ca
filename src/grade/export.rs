//! Gradebook exports: each roster student's counted total, in the files that
//! Canvas ("Import" in the Gradebook) and Moodle ("Import grades from CSV")
//! read as they are.
//!
//! Both have one row per roster student, in roster order, and one grade
//! column named after the assignment. A student with no counted total (no
//! file, or a file that needs the teacher: a duplicate, a name mismatch, an
//! unreadable file, …) gets no grade, never a 0: Canvas reads an empty cell
//! as no grade, Moodle reads `-` as no grade (an empty cell would become 0 in
//! a new grade item).

use std::collections::HashMap;

use super::batch::{Row, Status};
use super::key::KeyBook;
use super::report::points;
use crate::output::{runs_as_formula, spreadsheet_safe};

/// Words that make Canvas's importer take a column for one it computes
/// itself (Current Score, Final Grade, …) and skip it.
const CANVAS_COMPUTED: [&str; 9] = [
    "Current Score",
    "Current Points",
    "Current Grade",
    "Final Score",
    "Final Points",
    "Final Grade",
    "Override Score",
    "Override Grade",
    "Override Status",
];

/// Why an assignment name cannot head a gradebook column, if it cannot.
pub fn check_assignment(name: &str) -> Result<(), String> {
    if name.trim().is_empty() {
        return Err("the assignment name is empty".into());
    }
    if name.chars().any(char::is_control) {
        return Err(format!(
            "the assignment name {name:?} holds a line break or a control character"
        ));
    }
    if runs_as_formula(name.trim()) {
        return Err(format!(
            "the assignment name `{name}` starts with `{}`, which a spreadsheet opening the gradebook file would run as a formula",
            name.trim().chars().next().unwrap_or(' ')
        ));
    }
    if let Some(word) = CANVAS_COMPUTED.iter().find(|w| name.contains(*w)) {
        return Err(format!(
            "the assignment name `{name}` contains `{word}`, which Canvas's importer takes for a column it computes and skips"
        ));
    }
    Ok(())
}

/// The assignment's column header for Canvas. Canvas reads a header that ends
/// in a space and a number in parentheses, `Quiz (2)`, as the title and id of
/// an existing assignment (that is how its own export names columns), so such
/// a name loses that space: `Quiz(2)`, a new assignment of that title.
pub fn canvas_title(name: &str) -> String {
    let name = name.trim();
    if let Some(open) = name.rfind('(')
        && name.ends_with(')')
        && open + 1 < name.len() - 1
        && name[open + 1..name.len() - 1]
            .chars()
            .all(|c| c.is_ascii_digit())
        && name[..open].ends_with(char::is_whitespace)
    {
        let head = name[..open].trim_end();
        return format!("{head}{}", &name[open..]);
    }
    name.to_string()
}

/// Points possible: the first variant's questions (every variant has the same).
pub fn points_possible(book: &KeyBook) -> f64 {
    book.variants
        .first()
        .map_or(0.0, |v| v.possible_cents as f64 / 100.0)
}

/// Each roster student (id, name) with their counted total, in roster order.
fn totals<'a>(book: &'a KeyBook, rows: &[Row]) -> Vec<(&'a str, Option<&'a str>, Option<f64>)> {
    // Only a `graded` row counts, and a student has at most one (several are duplicates).
    let counted: HashMap<String, f64> = rows
        .iter()
        .filter(|r| r.status == Status::Graded)
        .filter_map(|r| Some((r.student.as_deref()?.to_lowercase(), r.total)))
        .collect();
    book.variants
        .iter()
        .filter_map(|v| {
            let id = v.student.as_deref()?;
            Some((
                id,
                v.name.as_deref(),
                counted.get(&id.to_lowercase()).copied(),
            ))
        })
        .collect()
}

fn csv_text(records: Vec<Vec<String>>) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    for record in records {
        w.write_record(&record).expect("writing to memory");
    }
    String::from_utf8(w.into_inner().expect("writing to memory")).expect("CSV of UTF-8 strings")
}

/// Canvas's gradebook import: `Student,ID,SIS User ID,SIS Login ID,Section`,
/// then the assignment; a `Points Possible` row; one row per student,
/// matched by SIS User ID (the roster's id). The `ID` column (Canvas's own
/// user id) stays empty, so that a roster id is never read as another
/// user's Canvas id.
pub fn canvas_csv(book: &KeyBook, rows: &[Row], assignment: &str) -> String {
    let mut records = vec![
        ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
            .map(String::from)
            .into_iter()
            .chain([canvas_title(assignment)])
            .collect::<Vec<_>>(),
        vec![
            "Points Possible".to_string(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            points(points_possible(book)),
        ],
    ];
    for (id, name, total) in totals(book, rows) {
        // Names are only shown (the id matches the student) and may be
        // neutralised; ids are refused at the roster instead (roster::parse).
        records.push(vec![
            spreadsheet_safe(name.unwrap_or(id)),
            String::new(),
            id.to_string(),
            String::new(),
            String::new(),
            total.map(points).unwrap_or_default(),
        ]);
    }
    csv_text(records)
}

/// Moodle's "Import grades from CSV": `ID number`, `Full name` and the
/// assignment; one row per student. On import, map from `ID number` to the
/// user field the roster's ids are (ID number, or username), and the
/// assignment's column to its grade item (or a new one); ignore `Full name`.
pub fn moodle_csv(book: &KeyBook, rows: &[Row], assignment: &str) -> String {
    let mut records = vec![vec![
        "ID number".to_string(),
        "Full name".to_string(),
        assignment.trim().to_string(),
    ]];
    for (id, name, total) in totals(book, rows) {
        records.push(vec![
            id.to_string(),
            spreadsheet_safe(name.unwrap_or("")),
            total.map_or_else(|| "-".to_string(), points),
        ]);
    }
    csv_text(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canvas_never_reads_a_title_as_an_assignment_id() {
        assert_eq!(canvas_title("Quiz (2)"), "Quiz(2)");
        assert_eq!(canvas_title("  Midterm (100) "), "Midterm(100)");
        assert_eq!(canvas_title("Midterm"), "Midterm");
        assert_eq!(canvas_title("期中考试（1）"), "期中考试（1）");
        assert_eq!(canvas_title("Quiz (a)"), "Quiz (a)");
        assert_eq!(canvas_title("Quiz ()"), "Quiz ()");
        assert_eq!(canvas_title("(12)"), "(12)");
    }

    #[test]
    fn names_canvas_computes_are_refused() {
        assert!(check_assignment("Midterm").is_ok());
        assert!(check_assignment("Final Grade exam").is_err());
        assert!(check_assignment(" ").is_err());
        assert!(check_assignment("a\nb").is_err());
    }
}
