//! An answer file as handed in: read leniently, every problem kept.

use crate::input::{Doc, DocKind, InputError, Source};

/// What a student's file says.
#[derive(Clone, Debug, Default)]
pub struct Submission {
    /// The variant id it claims.
    pub variant: Option<String>,
    /// The checksum it carries.
    pub checksum: Option<String>,
    /// The student id it gives (empty in practice mode).
    pub student: Option<String>,
    /// The practice set's path and seed (practice sheets only).
    pub practice: Option<(String, u64)>,
    /// `[qN]` sections: question number and its fields.
    pub questions: Vec<(usize, Vec<(String, Doc)>)>,
    /// Keys that are not questions.
    pub unknown: Vec<String>,
}

/// Reads an answer file (TOML).
pub fn parse(source: &Source) -> Result<Submission, InputError> {
    let doc = source.parse()?;
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
            "student" => sub.student = text(value).filter(|s| !s.is_empty()),
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
    Ok(sub)
}
