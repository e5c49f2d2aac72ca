//! An answer file as handed in: read leniently, every problem kept.

use super::recover::{self, Broken};
use crate::input::{Doc, DocKind, InputError, Source};

/// Why `check` refuses a sheet without a practice set and seed: an exam
/// sheet's key stays with the teacher.
pub const NOT_PRACTICE: &str =
    "this sheet names no practice set and seed (exam sheets are graded by the teacher)";

/// What a student's file says.
#[derive(Clone, Debug, Default)]
pub struct Submission {
    /// The variant id it claims.
    pub variant: Option<String>,
    /// The checksum it carries.
    pub checksum: Option<String>,
    /// The student id it gives (empty in practice mode), trimmed and in
    /// Unicode NFC as roster ids are (`José` typed either way is one student);
    /// a hidden character in it is shown as a visible picture.
    pub student: Option<String>,
    /// Why the id it gives is not plain text (a control or bidirectional
    /// character), when it is not.
    pub student_problem: Option<String>,
    /// The practice set's path and seed (practice sheets only).
    pub practice: Option<(String, u64)>,
    /// `[qN]` sections: question number and its fields.
    pub questions: Vec<(usize, Vec<(String, Doc)>)>,
    /// Keys that are not questions.
    pub unknown: Vec<String>,
    /// Statements TOML cannot read, taken out so that the rest could be read
    /// (each costs the field, or the section, it is in).
    pub broken: Vec<Broken>,
}

/// Reads an answer file (TOML). A statement TOML cannot read is taken out
/// and listed in [`Submission::broken`]; the file is refused only when its
/// header cannot be read (no variant or checksum, and a broken line among the
/// header's) or nothing of it can.
pub fn parse(source: &Source) -> Result<Submission, InputError> {
    let (doc, broken) = recover::parse(source)?;
    let DocKind::Table(entries) = &doc.kind else {
        return Err(source.error(
            &doc,
            "an answer file is a TOML table",
            "start from the answer-sheet.toml you were given".to_string(),
        ));
    };
    let mut sub = Submission::default();
    let text = |d: &Doc| match &d.kind {
        DocKind::Str(s) => Some(s.trim().to_string()),
        DocKind::Int(i) => Some(i.to_string()),
        _ => None,
    };
    let mut set = None;
    let mut seed = None;
    for (key, value) in entries {
        match key.name.as_str() {
            "variant" => sub.variant = text(value),
            "checksum" => sub.checksum = text(value),
            "student" => {
                sub.student = text(value)
                    .map(|s| crate::input::label_text(&s))
                    .filter(|s| !s.is_empty());
            }
            "set" => set = text(value),
            "seed" => seed = text(value).and_then(|s| s.parse::<u64>().ok()),
            name => match name
                .strip_prefix('q')
                .and_then(|n| n.parse::<usize>().ok())
                .zip(match &value.kind {
                    DocKind::Table(fields) => Some(fields),
                    _ => None,
                }) {
                Some((n, fields)) => sub.questions.push((
                    n,
                    fields
                        .iter()
                        .map(|(k, d)| (k.name.clone(), d.clone()))
                        .collect(),
                )),
                None => sub.unknown.push(name.to_string()),
            },
        }
    }
    sub.practice = set.zip(seed);
    // Refused as a label is: never raw in the grade table, a terminal or a page.
    if let Some(id) = &sub.student
        && let Some((c, kind)) = crate::input::hidden_char(id)
    {
        sub.student_problem = Some(format!(
            "{}; retype it without the hidden character",
            crate::input::hidden_char_message("the student id", id, c, kind)
        ));
        sub.student = Some(crate::input::printable(id).into_owned());
    }
    // The header must be read for the file to be matched to its variant; a
    // file of which nothing but broken lines gives no variant stays unreadable.
    let header_broken = broken.iter().find(|b| b.in_header);
    if sub.variant.is_none()
        && let Some(b) = header_broken.or(broken.first())
    {
        return Err(b.error.clone());
    }
    if sub.checksum.is_none()
        && let Some(b) = header_broken
    {
        return Err(b.error.clone());
    }
    sub.broken = broken;
    Ok(sub)
}
