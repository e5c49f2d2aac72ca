//! Grading a batch: every file gets a row, with its score or its reason.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::key::KeyBook;
use super::score::{QuestionScore, round2, score};
use super::submission;
use crate::input::Source;
use crate::lang::Lang;

/// Answer files larger than this are not read.
pub const MAX_ANSWER_BYTES: u64 = 1024 * 1024;

/// What happened to a submission.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Scored.
    Graded,
    /// Not TOML (syntax error, binary data).
    Unreadable,
    /// Empty.
    Empty,
    /// Over [`MAX_ANSWER_BYTES`].
    TooLarge,
    /// Not UTF-8 text.
    NotUtf8,
    /// No variant line, or a variant this class set does not have.
    UnknownVariant,
    /// Written for another variant or another student.
    WrongVariant,
    /// One of several files with the same student id: none counts until the teacher decides.
    Duplicate,
    /// A student of the class set handed in no file.
    Missing,
}

impl Status {
    /// The name in the grade table.
    pub fn name(self) -> &'static str {
        match self {
            Status::Graded => "graded",
            Status::Unreadable => "unreadable",
            Status::Empty => "empty",
            Status::TooLarge => "too-large",
            Status::NotUtf8 => "not-utf8",
            Status::UnknownVariant => "unknown-variant",
            Status::WrongVariant => "wrong-variant",
            Status::Duplicate => "duplicate",
            Status::Missing => "missing",
        }
    }
}

/// One row of the grade table.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// The file as given.
    pub file: String,
    /// The student id the file gives.
    pub student: Option<String>,
    /// The variant id the file gives.
    pub variant: Option<String>,
    /// What happened.
    pub status: Status,
    /// Why it was not graded, when it was not.
    pub reason: String,
    /// Scores per question (empty when not graded).
    pub questions: Vec<QuestionScore>,
    /// Points earned.
    pub total: f64,
    /// Points possible.
    pub max: f64,
    /// Problems found in a graded file (unknown questions, fields, labels).
    pub problems: Vec<String>,
    /// The feedback page's path in the report folder (set when reports are written).
    pub feedback: String,
}

impl Row {
    fn refused(file: &str, status: Status, reason: String) -> Row {
        Row {
            file: file.to_string(),
            student: None,
            variant: None,
            status,
            reason,
            questions: Vec::new(),
            total: 0.0,
            max: 0.0,
            problems: Vec::new(),
            feedback: String::new(),
        }
    }

    /// Whether the teacher must look at this row.
    pub fn needs_attention(&self) -> bool {
        self.status != Status::Graded || !self.problems.is_empty()
    }
}

/// The files among `paths`: files as given, and every file in the given folders
/// (not only `*.toml`: a misnamed file still gets its row), sorted. Hidden files
/// are skipped and symbolic links to folders are not followed (no loops).
pub fn collect(paths: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if !p.is_dir() {
            out.push(p.clone());
            continue;
        }
        let before = out.len();
        let mut todo = vec![p.clone()];
        while let Some(d) = todo.pop() {
            for e in std::fs::read_dir(&d)? {
                let e = e?;
                let path = e.path();
                if e.file_name().to_string_lossy().starts_with('.') {
                    continue;
                }
                let kind = e.file_type()?;
                if kind.is_dir() {
                    todo.push(path);
                } else if kind.is_file() || (kind.is_symlink() && path.is_file()) {
                    out.push(path);
                }
            }
        }
        if out.len() == before {
            return Err(std::io::Error::other(format!(
                "{}: no files in this folder",
                p.display()
            )));
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// Reads one file within the size cap; the row's reason when it cannot be text.
fn read(path: &Path, lang: &Lang) -> Result<Source, Box<Row>> {
    let shown = path.display().to_string();
    let refuse = |status, reason: String| Box::new(Row::refused(&shown, status, reason));
    let meta = std::fs::metadata(path).map_err(|e| {
        refuse(
            Status::Unreadable,
            lang.fill("batch.cannot_open", &[("error", &e.to_string())]),
        )
    })?;
    if meta.len() > MAX_ANSWER_BYTES {
        return Err(refuse(
            Status::TooLarge,
            lang.fill(
                "batch.too_large",
                &[
                    ("bytes", &meta.len().to_string()),
                    ("max", &MAX_ANSWER_BYTES.to_string()),
                ],
            ),
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| {
        refuse(
            Status::Unreadable,
            lang.fill("batch.cannot_read", &[("error", &e.to_string())]),
        )
    })?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(refuse(Status::Empty, lang.get("batch.empty").to_string()));
    }
    if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        return Err(refuse(Status::NotUtf8, lang.get("batch.utf16").to_string()));
    }
    if bytes.contains(&0) {
        return Err(refuse(
            Status::Unreadable,
            lang.get("batch.binary").to_string(),
        ));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        refuse(
            Status::NotUtf8,
            lang.fill("batch.not_utf8", &[("line", &line.to_string())]),
        )
    })?;
    Ok(Source {
        path: shown,
        text: text.to_string(),
    })
}

/// Grades one answer file against the book.
pub fn grade_file(book: &KeyBook, path: &Path, lang: &Lang, hide_key: bool) -> Row {
    match read(path, lang) {
        Ok(source) => grade_source(book, &source, lang, hide_key),
        Err(row) => *row,
    }
}

/// Grades one answer file's text; its variant is found through the book's index.
pub fn grade_source(book: &KeyBook, source: &Source, lang: &Lang, hide_key: bool) -> Row {
    let sub = match submission::parse(source) {
        Ok(sub) => sub,
        Err(e) => {
            return Row::refused(&source.path, Status::Unreadable, e.one_line());
        }
    };
    let mut row = Row::refused(&source.path, Status::Graded, String::new());
    row.student = sub.student.clone();
    row.variant = sub.variant.clone();
    let Some(id) = sub.variant.as_deref() else {
        row.status = Status::UnknownVariant;
        row.reason = lang.get("batch.no_variant").to_string();
        return row;
    };
    let Some(variant) = book.variant_for(id, sub.student.as_deref()) else {
        row.status = Status::UnknownVariant;
        row.reason = lang.fill("batch.unknown_variant", &[("id", id)]);
        return row;
    };
    if sub.checksum.is_none() {
        row.status = Status::WrongVariant;
        row.reason = lang.get("grade.checksum_missing").to_string();
        return row;
    }
    if sub.checksum.as_deref() != Some(variant.checksum.as_str()) {
        row.status = Status::WrongVariant;
        row.reason = lang.fill("batch.checksum_wrong", &[("id", id)]);
        return row;
    }
    if let Some(owner) = &variant.student
        && sub
            .student
            .as_deref()
            .is_some_and(|s| !s.eq_ignore_ascii_case(owner))
    {
        row.status = Status::WrongVariant;
        row.reason = lang.fill(
            "batch.other_student",
            &[
                ("id", id),
                ("owner", owner),
                ("student", sub.student.as_deref().unwrap_or("")),
            ],
        );
        return row;
    }
    if row.student.is_none() {
        row.student = variant.student.clone();
    }
    for key in &sub.unknown {
        row.problems
            .push(lang.fill("grade.unknown_question", &[("key", key)]));
    }
    for (n, _) in &sub.questions {
        if !variant.questions.iter().any(|q| q.number == *n) {
            row.problems
                .push(lang.fill("grade.unknown_question", &[("key", &format!("q{n}"))]));
        }
    }
    for q in &variant.questions {
        if !sub.questions.iter().any(|(n, _)| *n == q.number) {
            row.problems
                .push(lang.fill("grade.question_missing", &[("n", &q.number.to_string())]));
        }
        let given = sub
            .questions
            .iter()
            .find(|(n, _)| *n == q.number)
            .map_or(&[][..], |(_, f)| f.as_slice());
        let (scored, problems) = score(q, given, lang, hide_key);
        row.problems.extend(problems);
        row.questions.push(scored);
    }
    row.total = round2(
        row.questions
            .iter()
            .flat_map(|q| q.fields.iter())
            .map(|f| f.earned)
            .sum(),
    );
    row.max = round2(row.questions.iter().map(|q| q.max).sum());
    row
}

/// Grades every file; a second file with the same student id is marked a duplicate.
///
/// Linear in the number of files and variants: variants, duplicates and
/// missing students are found through hash maps, which are only looked up,
/// never iterated, so rows keep the order of `files` and then of the book.
pub fn grade_all(book: &KeyBook, files: &[PathBuf], lang: &Lang, hide_key: bool) -> Vec<Row> {
    // Files are independent: grade them on every core, keeping their order.
    let mut rows: Vec<Row> = crate::parallel::map(files, |f| grade_file(book, f, lang, hide_key));
    // Several files with one student id: all are flagged and none counts, so the
    // teacher decides (no rule about file names picks a resubmission silently).
    let ids: Vec<Option<String>> = rows
        .iter()
        .map(|r| {
            (r.status == Status::Graded)
                .then(|| r.student.clone())
                .flatten()
                .map(|s| s.to_lowercase())
        })
        .collect();
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for who in ids.iter().flatten() {
        *counts.entry(who).or_default() += 1;
    }
    for (row, who) in rows.iter_mut().zip(&ids) {
        let Some(who) = who else { continue };
        let count = counts[who.as_str()];
        if count > 1 {
            row.status = Status::Duplicate;
            row.reason = lang.fill(
                "batch.duplicate",
                &[
                    ("count", &count.to_string()),
                    ("student", row.student.as_deref().unwrap_or("")),
                ],
            );
        }
    }
    // Every student of the class set appears, handed in or not.
    let mut handed_in: HashSet<String> = rows
        .iter()
        .filter_map(|r| r.student.as_deref().map(str::to_ascii_lowercase))
        .collect();
    for v in &book.variants {
        if let Some(student) = &v.student
            && handed_in.insert(student.to_ascii_lowercase())
        {
            let mut row = Row::refused("", Status::Missing, lang.get("batch.missing").to_string());
            row.student = Some(student.clone());
            row.variant = Some(v.id.clone());
            rows.push(row);
        }
    }
    rows
}
