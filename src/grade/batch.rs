//! Grading a batch: every file gets a row, with its score or its reason.

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
    /// A second submission from the same student (the first one counts).
    Duplicate,
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
        }
    }

    /// Whether the teacher must look at this row.
    pub fn needs_attention(&self) -> bool {
        self.status != Status::Graded || !self.problems.is_empty()
    }
}

/// The answer files among `paths`: files as given, folders searched for `*.toml`, sorted.
pub fn collect(paths: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut todo = vec![p.clone()];
            while let Some(d) = todo.pop() {
                let mut entries: Vec<PathBuf> = std::fs::read_dir(&d)?
                    .map(|e| e.map(|e| e.path()))
                    .collect::<Result<_, _>>()?;
                entries.sort();
                for e in entries {
                    if e.is_dir() {
                        todo.push(e);
                    } else if e.extension().is_some_and(|x| x == "toml") {
                        out.push(e);
                    }
                }
            }
        } else {
            out.push(p.clone());
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// Reads one file within the size cap; the row's reason when it cannot be text.
fn read(path: &Path) -> Result<Source, Box<Row>> {
    let shown = path.display().to_string();
    let refuse = |status, reason: String| Box::new(Row::refused(&shown, status, reason));
    let meta = std::fs::metadata(path)
        .map_err(|e| refuse(Status::Unreadable, format!("cannot open the file: {e}")))?;
    if meta.len() > MAX_ANSWER_BYTES {
        return Err(refuse(
            Status::TooLarge,
            format!(
                "the file has {} bytes; answer files are at most {MAX_ANSWER_BYTES}",
                meta.len()
            ),
        ));
    }
    let bytes = std::fs::read(path)
        .map_err(|e| refuse(Status::Unreadable, format!("cannot read the file: {e}")))?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(refuse(Status::Empty, "the file is empty".into()));
    }
    if bytes.contains(&0) {
        return Err(refuse(
            Status::Unreadable,
            "the file holds binary data, not text".into(),
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
            format!("the file is not UTF-8 text (line {line}); save it as UTF-8"),
        )
    })?;
    Ok(Source {
        path: shown,
        text: text.to_string(),
    })
}

/// Grades one answer file against the book.
pub fn grade_file(book: &KeyBook, path: &Path, lang: &Lang, hide_key: bool) -> Row {
    match read(path) {
        Ok(source) => grade_source(book, &source, lang, hide_key),
        Err(row) => *row,
    }
}

/// Grades one answer file's text.
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
        row.reason =
            "the file has no `variant = \"…\"` line: start from the answer sheet you were given"
                .into();
        return row;
    };
    let Some(variant) = book.variant(id) else {
        row.status = Status::UnknownVariant;
        row.reason = format!("this class set has no variant {id}");
        return row;
    };
    if sub.checksum.as_deref() != Some(variant.checksum.as_str()) {
        row.status = Status::WrongVariant;
        row.reason = format!(
            "the checksum does not match variant {id}: the sheet was edited or belongs to another set"
        );
        return row;
    }
    if let Some(owner) = &variant.student
        && sub.student.as_deref().is_some_and(|s| s != owner)
    {
        row.status = Status::WrongVariant;
        row.reason = format!(
            "variant {id} belongs to student {owner}, not {}",
            sub.student.as_deref().unwrap_or("")
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
pub fn grade_all(book: &KeyBook, files: &[PathBuf], lang: &Lang, hide_key: bool) -> Vec<Row> {
    let mut rows: Vec<Row> = files
        .iter()
        .map(|f| grade_file(book, f, lang, hide_key))
        .collect();
    let mut seen: Vec<String> = Vec::new();
    for row in rows.iter_mut().filter(|r| r.status == Status::Graded) {
        // Only a student id makes two files one student's (practice sheets may carry none).
        let Some(who) = row.student.clone() else {
            continue;
        };
        if seen.contains(&who) {
            row.status = Status::Duplicate;
            row.reason = format!(
                "another file from {who} was graded first (the first in file-name order counts)"
            );
        } else {
            seen.push(who);
        }
    }
    rows
}
