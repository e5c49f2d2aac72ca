//! Class rosters: a CSV file with an `id` column and, optionally, `name`.

use std::collections::BTreeSet;

use crate::input::{InputError, Source};

/// One student.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Student {
    /// The id as the roster gives it.
    pub id: String,
    /// The name, if the roster has a `name` column.
    pub name: Option<String>,
    /// The id made into a safe file name (the student's folder).
    pub folder: String,
}

/// The id as a file name: letters, digits, `-`, `_` and `.` kept, anything else
/// `_`, no leading dot, at most 64 characters. `None` if nothing is left.
pub fn folder_name(id: &str) -> Option<String> {
    let mut out: String = id
        .trim()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    while out.starts_with('.') {
        out.remove(0);
    }
    // Names the output folder uses, and device names Windows reserves (with any extension).
    let lower = out.to_lowercase();
    let stem = lower.split('.').next().unwrap_or("");
    let device = matches!(stem, "con" | "prn" | "aux" | "nul")
        || (stem.len() == 4
            && (stem.starts_with("com") || stem.starts_with("lpt"))
            && stem.as_bytes()[3].is_ascii_digit());
    if out.is_empty() || device || lower == "keys" || lower == "manifest.json" {
        return None;
    }
    Some(out)
}

/// Reads a roster. Every row needs an id; ids must stay distinct as folder names.
pub fn parse(source: &Source) -> Result<Vec<Student>, InputError> {
    let at_line = |line: u64, message: String, hint: &str| {
        let offset = source
            .text
            .split_inclusive('\n')
            .take(line.saturating_sub(1) as usize)
            .map(str::len)
            .sum::<usize>();
        source.error_at(offset..offset, message, Some(hint.to_string()))
    };
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(source.text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| {
            at_line(
                1,
                format!("cannot read the header row: {e}"),
                "the first row names the columns, e.g. id,name",
            )
        })?
        .clone();
    let column = |name: &str| {
        headers
            .iter()
            .position(|h| h.trim().eq_ignore_ascii_case(name))
    };
    let id_col = column("id").ok_or_else(|| {
        at_line(
            1,
            "the roster has no `id` column".into(),
            "name the first row's columns, e.g. id,name",
        )
    })?;
    let name_col = column("name");
    let mut students = Vec::new();
    let mut folders = BTreeSet::new();
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, csv::Position::line);
            at_line(
                line,
                format!("cannot read this row: {e}"),
                "check the quotes and commas",
            )
        })?;
        let line = record.position().map_or(0, csv::Position::line);
        if record.iter().all(str::is_empty) {
            continue;
        }
        let id = record.get(id_col).unwrap_or("").to_string();
        if id.is_empty() {
            return Err(at_line(
                line,
                "this row has no student id".into(),
                "fill in the id column, or delete the row",
            ));
        }
        let folder = folder_name(&id).ok_or_else(|| {
            at_line(
                line,
                format!("the id `{id}` cannot be a folder name"),
                "ids name the students' folders: avoid `keys`, `manifest.json` and device names such as CON or COM1",
            )
        })?;
        if !folders.insert(folder.to_lowercase()) {
            return Err(at_line(
                line,
                format!("the id `{id}` appears twice (as a folder name: {folder})"),
                "every student needs a distinct id",
            ));
        }
        let name = name_col
            .and_then(|c| record.get(c))
            .filter(|n| !n.is_empty())
            .map(str::to_string);
        students.push(Student { id, name, folder });
    }
    if students.is_empty() {
        return Err(at_line(
            1,
            "the roster lists no students".into(),
            "add one row per student under the header",
        ));
    }
    Ok(students)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roster(text: &str) -> Result<Vec<Student>, InputError> {
        parse(&Source {
            path: "r.csv".into(),
            text: text.into(),
        })
    }

    #[test]
    fn ids_become_safe_folder_names() {
        assert_eq!(folder_name("2026-001").as_deref(), Some("2026-001"));
        assert_eq!(
            folder_name("../../etc/passwd").as_deref(),
            Some("_.._etc_passwd")
        );
        assert_eq!(folder_name("a/b c").as_deref(), Some("a_b_c"));
        assert_eq!(folder_name("张三").as_deref(), Some("张三"));
        assert_eq!(folder_name("...").as_deref(), None);
        assert_eq!(folder_name("keys"), None);
        assert_eq!(folder_name("manifest.json"), None);
        assert_eq!(folder_name("COM1"), None);
        assert_eq!(folder_name("con.txt"), None);
        assert_eq!(folder_name("com").as_deref(), Some("com"));
    }

    #[test]
    fn reads_ids_and_names() {
        let s = roster("name,ID\n\"Li, Wei\",s1\nAda,s2\n\n").unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(
            (s[0].id.as_str(), s[0].name.as_deref()),
            ("s1", Some("Li, Wei"))
        );
    }

    #[test]
    fn refuses_duplicates_and_missing_ids() {
        let e = roster("id\ns1\nS1\n").unwrap_err();
        assert!(
            e.message.contains("twice") && e.line_column() == Some((3, 1)),
            "{e}"
        );
        assert!(
            roster("name\nAda\n")
                .unwrap_err()
                .message
                .contains("no `id` column")
        );
        assert!(
            roster("id,name\n,Ada\n")
                .unwrap_err()
                .message
                .contains("no student id")
        );
    }
}
