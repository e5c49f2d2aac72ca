//! Class rosters: a CSV file with an id column and, optionally, names: the
//! teacher's own (`id`, `name`), or an LMS export as it comes (Moodle's
//! participants, Canvas's gradebook), comma, semicolon or tab separated.

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
    // Windows drops trailing dots: `a.` and `a..` would be the folder `a`.
    while out.ends_with('.') {
        out.pop();
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

/// Which columns of a roster hold the ids and the names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Columns {
    /// The id column: a header (case, spaces and `_` ignored), or its number
    /// from 1. `None`: `id`, else the first of [`ID_COLUMNS`] the roster has.
    pub id: Option<String>,
    /// The name: one column, or several joined (first name, last name). Empty:
    /// `name`, else a known export's columns (see [`parse_with`]).
    pub name: Vec<String>,
}

/// The id columns tried, in order, when none is chosen: `id` (treequiz's own),
/// a Chinese roster's 学号, Moodle's participants export (`ID number`, else
/// `Username` or `Email address`, whichever it has), Canvas's gradebook export
/// (whose `ID` the first entry already takes; `--id-column "SIS User ID"` takes
/// the university's number instead).
pub const ID_COLUMNS: &[&str] = &[
    "id",
    "学号",
    "student id",
    "student number",
    "id number",
    "sis user id",
    "username",
    "email address",
    "email",
];

/// Headers compare without case, spaces, `_` or `-`: `ID number` = `id_number`.
fn header_key(h: &str) -> String {
    h.trim_start_matches('\u{feff}')
        .chars()
        .filter(|c| !(c.is_whitespace() || matches!(c, '_' | '-')))
        .flat_map(char::to_lowercase)
        .collect()
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x2FA1F)
        || matches!(c, '·' | '・')
}

/// Name parts joined by spaces; Chinese names without one (and, for Moodle's
/// first and last name, family name first: 李 + 伟 is 李伟).
fn join_name(parts: &[&str], family_first: bool) -> Option<String> {
    let mut parts: Vec<&str> = parts.iter().copied().filter(|p| !p.is_empty()).collect();
    if parts.is_empty() {
        return None;
    }
    if parts.iter().all(|p| p.chars().all(is_cjk)) {
        if family_first {
            parts.reverse();
        }
        return Some(parts.concat());
    }
    Some(parts.join(" "))
}

/// Reads a roster with the default columns (see [`parse_with`]).
pub fn parse(source: &Source) -> Result<Vec<Student>, InputError> {
    parse_with(source, &Columns::default())
}

/// `n` anonymous students `v01`, `v02`, … (`v001` from 100 on), for
/// `generate --variants N`: each is a variant of its own, with its folder,
/// its answer sheet and its key, graded like a roster's student.
pub fn anonymous(n: usize) -> Vec<Student> {
    let width = n.to_string().len().max(2);
    (1..=n)
        .map(|i| {
            let id = format!("v{i:0width$}");
            Student {
                folder: id.clone(),
                id,
                name: None,
            }
        })
        .collect()
}

/// Reads a roster file: the bytes are checked first, so that a workbook, a
/// UTF-16 text or a CSV in a local code page (GBK) is named with the way to
/// save it as CSV UTF-8; then [`parse_with`].
pub fn load(path: &std::path::Path, columns: &Columns) -> Result<Vec<Student>, InputError> {
    let shown = path.display().to_string();
    let at_start = |message: &str, hint: &str| {
        Source {
            path: shown.clone(),
            text: String::new(),
        }
        .error_at(0..0, message, Some(hint.to_string()))
    };
    let save_as = "save it as CSV UTF-8 (in Excel: File → Save As → \"CSV UTF-8 (Comma delimited) (*.csv)\"; in LibreOffice: Save As → Text CSV, character set UTF-8)";
    // Capped before reading, and a FIFO or device refused before it is opened.
    let bytes = match crate::input::read_capped(path, crate::input::MAX_FILE_BYTES) {
        Ok(bytes) => bytes,
        Err(crate::input::ReadError::TooLarge) => {
            return Err(at_start(
                "the roster is larger than 8 MiB",
                "a roster is a small CSV file with one row per student; check that this is the right file",
            ));
        }
        Err(crate::input::ReadError::NotAFile(kind)) => {
            return Err(InputError::file(
                &shown,
                format!("the roster is {kind}, not a file"),
                Some("give the path of a CSV file".into()),
            ));
        }
        Err(crate::input::ReadError::Io(e)) => {
            return Err(InputError::file(
                &shown,
                format!("cannot read the roster: {e}"),
                Some("check the path".into()),
            ));
        }
    };
    if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"\xD0\xCF\x11\xE0") {
        return Err(at_start(
            "this is a spreadsheet workbook (.xlsx, .xls or .ods), not a CSV file",
            save_as,
        ));
    }
    if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        return Err(at_start(
            "the roster is UTF-16 text (Excel's \"Unicode Text\")",
            save_as,
        ));
    }
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let valid = String::from_utf8_lossy(&e.as_bytes()[..at]).into_owned();
            return Err(Source {
                path: shown,
                text: valid,
            }
            .error_at(
                at..at,
                "the roster is not UTF-8 text (Excel's plain \"CSV\" is saved in the local code page, GBK on Chinese Windows)",
                Some(save_as.to_string()),
            ));
        }
    };
    parse_with(&Source { path: shown, text }, columns)
}

/// Reads a roster: a header row, then one row per student. The separator is
/// `,`, or `;` (or a tab) when the header has no comma; Excel's `sep=;` first
/// line is read too; a BOM is dropped. Every row needs an id; ids must stay
/// distinct as folder names. Without a chosen name column, `name`, 姓名 or
/// `full name` is the name, else Moodle's `First name` and `Last name` (or
/// `Surname`), else Canvas's `Student`. Empty rows and the `Points Possible`
/// (and `Manual Posting`) rows of a Canvas gradebook export are skipped.
pub fn parse_with(source: &Source, columns: &Columns) -> Result<Vec<Student>, InputError> {
    let full = source.text.strip_prefix('\u{feff}').unwrap_or(&source.text);
    // Excel's `sep=;` line names the separator; it is not the header.
    let first = full.lines().next().unwrap_or("");
    let (text, skipped, sep) = match first.trim().strip_prefix("sep=") {
        Some(sep) if sep.len() == 1 => (
            full.find('\n').map_or("", |n| &full[n + 1..]),
            1,
            Some(sep.as_bytes()[0]),
        ),
        _ => (full, 0, None),
    };
    let at_line = |line: u64, message: String, hint: &str| {
        let offset = source
            .text
            .split_inclusive('\n')
            .take((line + skipped).saturating_sub(1) as usize)
            .map(str::len)
            .sum::<usize>();
        source.error_at(offset..offset, message, Some(hint.to_string()))
    };
    let header_line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let delimiter = sep.unwrap_or(if header_line.contains(',') {
        b','
    } else if header_line.contains(';') {
        b';'
    } else if header_line.contains('\t') {
        b'\t'
    } else {
        b','
    });
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .delimiter(delimiter)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers: Vec<String> = reader
        .headers()
        .map_err(|e| {
            at_line(
                1,
                format!("cannot read the header row: {e}"),
                "the first row names the columns, e.g. id,name",
            )
        })?
        .iter()
        .map(|h| h.trim_start_matches('\u{feff}').trim().to_string())
        .collect();
    let listed = {
        let mut shown: Vec<String> = headers
            .iter()
            .filter(|h| !h.is_empty())
            .take(12)
            .map(|h| format!("`{h}`"))
            .collect();
        if headers.len() > 12 {
            shown.push("…".into());
        }
        if shown.is_empty() {
            "none".to_string()
        } else {
            shown.join(", ")
        }
    };
    let find = |name: &str| {
        let want = header_key(name);
        headers.iter().position(|h| header_key(h) == want)
    };
    // A chosen column: its header, or its number from 1.
    let chosen = |name: &str, flag: &str| -> Result<usize, InputError> {
        find(name)
            .or_else(|| {
                name.trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (1..=headers.len()).contains(n))
                    .map(|n| n - 1)
            })
            .ok_or_else(|| {
                let known: Vec<&str> = headers.iter().map(String::as_str).collect();
                let give = format!(
                    "give {flag} a column's header as the first row writes it, or its number (1 for the first)"
                );
                let hint = match crate::input::closest(name, &known) {
                    Some(n) => format!("did you mean {flag} \"{n}\"? Otherwise {give}"),
                    None => give,
                };
                at_line(
                    1,
                    format!("the roster has no column `{name}` (its columns: {listed})"),
                    &hint,
                )
            })
    };
    let id_col = match &columns.id {
        Some(name) => chosen(name, "--id-column")?,
        None => ID_COLUMNS.iter().find_map(|c| find(c)).ok_or_else(|| {
            at_line(
                1,
                format!("the roster has no `id` column (its columns: {listed})"),
                "choose the column of student ids with --id-column NAME (e.g. --id-column \"SIS User ID\"), or name a column id in the first row",
            )
        })?,
    };
    let id_header = headers.get(id_col).cloned().unwrap_or_default();
    // The name's columns, and whether they are Moodle's first and last name.
    let (name_cols, family_first): (Vec<usize>, bool) = if columns.name.is_empty() {
        let single = ["name", "姓名", "full name"].iter().find_map(|c| find(c));
        let moodle = find("first name").zip(find("last name").or_else(|| find("surname")));
        match (single, moodle, find("student")) {
            (Some(c), _, _) => (vec![c], false),
            (None, Some((first, last)), _) => (vec![first, last], true),
            (None, None, Some(c)) if c != id_col => (vec![c], false),
            _ => (Vec::new(), false),
        }
    } else {
        let cols = columns
            .name
            .iter()
            .map(|n| chosen(n, "--name-column"))
            .collect::<Result<Vec<_>, _>>()?;
        (cols, false)
    };
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
        // Ids are kept in Unicode NFC, like labels: `José` typed either way is one student.
        let id = crate::input::label_text(record.get(id_col).unwrap_or(""));
        // Canvas's gradebook export: the points of each assignment, its posting policy.
        let first = record.iter().find(|c| !c.is_empty()).unwrap_or("");
        if first.eq_ignore_ascii_case("points possible")
            || (id.is_empty()
                && record
                    .iter()
                    .any(|c| c.eq_ignore_ascii_case("manual posting")))
        {
            continue;
        }
        if id.is_empty() {
            return Err(at_line(
                line,
                format!("this row has no student id (column `{id_header}`)"),
                "fill in the id, or delete the row; or take the ids from another column with --id-column NAME",
            ));
        }
        let hidden = std::iter::once(("the student id", id.as_str()))
            .chain(
                name_cols
                    .iter()
                    .map(|&c| ("the name", record.get(c).unwrap_or(""))),
            )
            .find_map(|(what, text)| crate::input::hidden_char(text).map(|h| (what, text, h)));
        if let Some((what, text, (c, kind))) = hidden {
            return Err(at_line(
                line,
                crate::input::hidden_char_message(what, text, c, kind),
                "ids and names are plain text: retype the cell without the hidden character",
            ));
        }
        // A gradebook import matches students by their exact id, so an id a
        // spreadsheet would run as a formula cannot be neutralised in the
        // exports (`'=1` would match no one): it is refused here.
        if crate::output::runs_as_formula(&id) {
            return Err(at_line(
                line,
                format!(
                    "the id `{id}` starts with `{}`: a spreadsheet opening the gradebook files (canvas.csv, moodle.csv) would run it as a formula",
                    id.chars().next().unwrap_or(' ')
                ),
                "ids must match the LMS exactly, so treequiz does not alter them: correct the id, or take the ids from another column with --id-column NAME",
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
        let parts: Vec<&str> = name_cols
            .iter()
            .map(|&c| record.get(c).unwrap_or(""))
            .collect();
        let name = join_name(&parts, family_first).map(|n| crate::input::label_text(&n));
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
        // Windows drops trailing dots: these would be one folder there.
        assert_eq!(folder_name("a.").as_deref(), Some("a"));
        assert_eq!(folder_name("a..").as_deref(), Some("a"));
        assert_eq!(folder_name("a.b").as_deref(), Some("a.b"));
        let err = roster("id\na\na.\n").unwrap_err().to_string();
        assert!(
            err.contains("the id `a.` appears twice") && err.contains("r.csv:3"),
            "{err}"
        );
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

    fn with(text: &str, id: Option<&str>, name: &[&str]) -> Result<Vec<Student>, InputError> {
        parse_with(
            &Source {
                path: "r.csv".into(),
                text: text.into(),
            },
            &Columns {
                id: id.map(str::to_string),
                name: name.iter().map(|n| n.to_string()).collect(),
            },
        )
    }

    fn pairs(students: &[Student]) -> Vec<(&str, Option<&str>)> {
        students
            .iter()
            .map(|s| (s.id.as_str(), s.name.as_deref()))
            .collect()
    }

    #[test]
    fn the_teacher_chooses_the_columns() {
        let text = "No.,学号,姓名,班级\n1,2026001,张三,1\n2,2026002,李四,1\n";
        // 学号 and 姓名 are found without options.
        assert_eq!(
            pairs(&roster(text).unwrap()),
            [("2026001", Some("张三")), ("2026002", Some("李四"))]
        );
        // A header (any case and spacing) or a column's number.
        let s = with(text, Some("no."), &["班级"]).unwrap();
        assert_eq!(pairs(&s), [("1", Some("1")), ("2", Some("1"))]);
        let s = with(text, Some("2"), &["3"]).unwrap();
        assert_eq!(s[0].id, "2026001");
        // Several name columns are joined.
        let s = with("id,first,last\ns1,Ada,Lovelace\n", None, &["first", "last"]).unwrap();
        assert_eq!(s[0].name.as_deref(), Some("Ada Lovelace"));
        // A column that is not there: its line, the columns there are, a near one.
        let e = with(text, Some("学号码"), &[]).unwrap_err();
        assert_eq!(e.line_column(), Some((1, 1)), "{e}");
        assert!(
            e.message.contains("no column `学号码`") && e.message.contains("`姓名`"),
            "{e}"
        );
        let e = with("id,Email address\ns1,a@b\n", Some("email adress"), &[]).unwrap_err();
        assert!(
            e.hint
                .as_deref()
                .unwrap()
                .starts_with("did you mean --id-column \"Email address\"?"),
            "{e:?}"
        );
    }

    #[test]
    fn semicolons_tabs_and_a_bom_are_read() {
        for text in [
            "\u{feff}id;name\r\ns1;Li, Wei\r\ns2;Ada\r\n",
            "id\tname\ns1\tLi, Wei\ns2\tAda\n",
            "sep=;\nid;name\ns1;Li, Wei\ns2;Ada\n",
            "\u{feff}\"id\",\"name\"\n\"s1\",\"Li, Wei\"\ns2,Ada\n",
        ] {
            let s = roster(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
            assert_eq!(
                pairs(&s),
                [("s1", Some("Li, Wei")), ("s2", Some("Ada"))],
                "{text:?}"
            );
        }
        // After a `sep=` line, errors still name the file's own line.
        let e = roster("sep=;\nid;name\ns1;A\n;B\n").unwrap_err();
        assert_eq!(e.line_column(), Some((4, 1)), "{e}");
    }

    #[test]
    fn moodle_and_canvas_exports_are_read_as_they_come() {
        // Moodle: Participants → select all → "Download table data as" CSV.
        let moodle = "\u{feff}\"First name\",\"Last name\",\"ID number\",\"Email address\"\n\
                      Ada,Lovelace,2026001,ada@example.org\n伟,李,2026002,li@example.org\n";
        assert_eq!(
            pairs(&roster(moodle).unwrap()),
            [("2026001", Some("Ada Lovelace")), ("2026002", Some("李伟"))]
        );
        // Older Moodle says Surname; a site without ID numbers has e-mail addresses.
        let moodle = "First name,Surname,Email address\nAda,Lovelace,ada@example.org\n";
        let s = roster(moodle).unwrap();
        assert_eq!(pairs(&s), [("ada@example.org", Some("Ada Lovelace"))]);
        assert_eq!(s[0].folder, "ada_example.org");
        // Canvas: Grades → Export; its Points Possible row is skipped.
        let canvas = "Student,ID,SIS User ID,SIS Login ID,Section,Quiz 1 (1234)\n\
                      \"    Points Possible\",,,,,10.00\n\
                      \"Lovelace, Ada\",101,2026001,ada,AI-01,9.00\n\
                      \"Li, Wei\",102,2026002,liwei,AI-01,\n";
        assert_eq!(
            pairs(&roster(canvas).unwrap()),
            [("101", Some("Lovelace, Ada")), ("102", Some("Li, Wei"))]
        );
        let s = with(canvas, Some("SIS User ID"), &[]).unwrap();
        assert_eq!(s[1].id, "2026002");
        // A Moodle user without an ID number: the line, and how to choose another column.
        let e = roster("First name,Last name,ID number,Email address\nAda,L,,ada@x\n").unwrap_err();
        assert_eq!(e.line_column(), Some((2, 1)));
        assert!(
            e.message.contains("column `ID number`")
                && e.hint.as_deref().unwrap().contains("--id-column"),
            "{e:?}"
        );
        // No id column at all: the columns there are, and the option.
        let e = roster("Student,Section\nAda,1\n").unwrap_err();
        assert!(
            e.message.contains("(its columns: `Student`, `Section`)")
                && e.hint.as_deref().unwrap().contains("--id-column"),
            "{e:?}"
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
