//! Learning-management systems' files as they come: who sent a file, as a
//! Moodle or Canvas download names it; a download zip read in memory; and
//! what Moodle takes back (a feedback zip and its offline grading worksheet).
//! Each naming rule is taken from the system's source; docs/grading.md cites
//! the files.

use std::path::Path;

use serde::Serialize;

use super::batch::{Row, Status};
use super::report::points;
use crate::lang::Lang;
use crate::output::spreadsheet_safe;

/// Who sent a file, as the LMS's download names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "lms", rename_all = "lowercase")]
pub enum Sender {
    /// Moodle's "Download submissions": a folder (or, with folders off, a
    /// file name) `Full Name_PARTICIPANT_assignsubmission_PLUGIN[_]`.
    Moodle {
        /// The assignment's participant number (not the user id): Moodle's
        /// worksheet `Identifier` and its feedback zip key on it.
        participant: String,
        /// The full name, with Moodle's `_` turned to spaces.
        name: String,
    },
    /// Canvas's "Download submissions": a flat file
    /// `name[_LATE]_USERID_ATTACHMENTID_file` (or `anon_ID_…`).
    Canvas {
        /// Canvas's user id (or `anon_…` when students are anonymised).
        user: String,
        /// Submitted after the due date: Canvas's `LATE` in the name.
        late: bool,
    },
}

impl Sender {
    /// Who sent the file at `path` (a path inside a download), if its name
    /// is an LMS's.
    pub fn of(path: &Path) -> Option<Sender> {
        let parts: Vec<&str> = path
            .components()
            .filter_map(|c| c.as_os_str().to_str())
            .collect();
        // Moodle names the student's folder, or with folders off the file.
        if let Some(sender) = parts.iter().rev().find_map(|p| moodle(p)) {
            return Some(sender);
        }
        canvas(parts.last()?)
    }

    /// The id the LMS knows the sender by.
    pub fn id(&self) -> &str {
        match self {
            Sender::Moodle { participant, .. } => participant,
            Sender::Canvas { user, .. } => user,
        }
    }

    /// Whether the LMS marked the file late.
    pub fn late(&self) -> bool {
        matches!(self, Sender::Canvas { late: true, .. })
    }
}

/// `Jane Doe_1234567_assignsubmission_file` (Moodle ≥ 4.1), with a trailing
/// `_` (≤ 4.0), or `…_assignsubmission_file_answers.toml` (folders off):
/// `mod/assign/classes/downloader.php` writes these, and
/// `mod/assign/feedback/file/importziplib.php` reads them back.
fn moodle(part: &str) -> Option<Sender> {
    let (head, plugin) = part.split_once("_assignsubmission_")?;
    let plugin = plugin.split('_').next()?;
    if plugin.is_empty() || !plugin.chars().all(|c| c.is_ascii_lowercase()) {
        return None;
    }
    let (name, participant) = head.rsplit_once('_')?;
    (!name.trim().is_empty()
        && !participant.is_empty()
        && participant.len() <= 18
        && participant.chars().all(|c| c.is_ascii_digit()))
    .then(|| Sender::Moodle {
        participant: participant.to_string(),
        name: name.to_string(),
    })
}

/// `doejane_12345_678901_answers.toml`, `doejane_LATE_12345_678901_…` or
/// `anon_Ab3xZ_678901_…`, as `lib/content_zipper.rb` names an attachment:
/// the sortable name with every non-word character removed, `LATE` when late,
/// the user id, the attachment id, then the file's own name. Canvas's own
/// reader (`infer_comment_context_from_filename`) drops every `LATE` and
/// takes the first two all-digit parts; this reader asks the name first and
/// the two ids right after it. A student's own `q_1_2_x.toml` still reads
/// as Canvas's: the id is only reported (grades.csv), never used to find
/// whose file it is.
fn canvas(file: &str) -> Option<Sender> {
    let mut parts: Vec<&str> = file.split('_').collect();
    let late = parts.get(1) == Some(&"LATE") || parts.first() == Some(&"LATE");
    parts.retain(|p| *p != "LATE");
    let digits = |p: &&str| !p.is_empty() && p.len() <= 18 && p.chars().all(|c| c.is_ascii_digit());
    let word = |p: &&str| !p.is_empty() && p.chars().all(|c| c.is_alphanumeric());
    if parts.len() < 4 || !parts[3..].iter().any(|p| !p.is_empty()) {
        return None;
    }
    let user = if parts[0] == "anon" {
        (word(&parts[1]) && digits(&parts[2])).then(|| format!("anon_{}", parts[1]))?
    } else {
        (word(&parts[0])
            && !digits(&parts[0])
            && !parts[0].chars().any(char::is_uppercase)
            && digits(&parts[1])
            && digits(&parts[2]))
        .then(|| parts[1].to_string())?
    };
    Some(Sender::Canvas { user, late })
}

/// The rows that came from a Moodle download, one per participant: the row
/// that counts when there is one, else the first.
fn moodle_rows(rows: &[Row]) -> Vec<(&str, &str, &Row)> {
    let mut out: Vec<(&str, &str, &Row)> = Vec::new();
    for row in rows {
        let Some(Sender::Moodle { participant, name }) = &row.sender else {
            continue;
        };
        match out.iter_mut().find(|(p, _, _)| p == participant) {
            Some(seen) if seen.2.status != Status::Graded && row.status == Status::Graded => {
                seen.2 = row;
            }
            Some(_) => {}
            None => out.push((participant, name, row)),
        }
    }
    out.sort_by_key(|(p, _, _)| p.parse::<u64>().unwrap_or(u64::MAX));
    out
}

/// Whether any row came from a Moodle download.
pub fn from_moodle(rows: &[Row]) -> bool {
    rows.iter()
        .any(|r| matches!(r.sender, Some(Sender::Moodle { .. })))
}

/// Moodle's offline grading worksheet, as "Grading action → Upload grading
/// worksheet" reads it (`mod/assign/feedback/offline/importgradeslib.php`):
/// it finds the columns `Identifier`, `Grade` and `Last modified (grade)` by
/// their English headers (all three are required) and `Feedback comments`
/// when that feedback type is on; it skips a row whose grade is empty.
/// `Identifier` is `Participant ` and the participant number, as Moodle
/// writes it. `Last modified (grade)` is `when` (the time of the download
/// graded, in UTC): Moodle keeps a grade changed in Moodle after that
/// rather than overwrite it. A participant whose file does not count gets
/// no grade and a comment that says why not.
pub fn moodle_worksheet(rows: &[Row], when: &str, comment: &dyn Fn(&Row) -> String) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "Identifier",
        "Full name",
        "Grade",
        "Maximum Grade",
        "Last modified (grade)",
        "Feedback comments",
    ])
    .expect("writing to memory");
    for (participant, name, row) in moodle_rows(rows) {
        let counts = row.status == Status::Graded;
        w.write_record([
            format!("Participant {participant}"),
            spreadsheet_safe(name),
            if counts {
                points(row.total)
            } else {
                String::new()
            },
            if counts {
                points(row.max)
            } else {
                String::new()
            },
            when.to_string(),
            spreadsheet_safe(&comment(row)),
        ])
        .expect("writing to memory");
    }
    String::from_utf8(w.into_inner().expect("writing to memory")).expect("CSV of UTF-8 strings")
}

/// The feedback comment beside a grade in the LMS: the total and each
/// question's points, or why the file does not count yet. Moodle stores the
/// comment as HTML, so it is escaped (a reason can quote the file).
pub fn comment(row: &Row, lang: &Lang) -> String {
    let text = if row.status == Status::Graded {
        let questions: Vec<String> = row
            .questions
            .iter()
            .map(|q| format!("q{} {}/{}", q.number, points(q.earned), points(q.max)))
            .collect();
        lang.fill(
            "batch.lms_comment",
            &[
                ("total", &points(row.total)),
                ("max", &points(row.max)),
                ("questions", &questions.join(lang.get("batch.sep"))),
            ],
        )
    } else {
        not_counted(row, lang)
    };
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Why a row's file does not count yet, for the student reading it in the
/// LMS (Moodle's comment, Gradescope's output).
pub fn not_counted(row: &Row, lang: &Lang) -> String {
    lang.fill(
        "batch.lms_not_counted",
        &[
            (
                "status",
                &super::report::status_name(row.status.name(), lang),
            ),
            ("reason", &row.reason),
        ],
    )
}

/// The files of Moodle's "Upload multiple feedback files in a zip": each
/// participant's feedback pages in a folder
/// `Full Name_PARTICIPANT_assignfeedback_file/`, which the importer
/// (`mod/assign/feedback/file/importziplib.php`) splits on `_` and matches by
/// the participant number. `page` renders a row's feedback page.
pub fn moodle_feedback_files<E>(
    rows: &[Row],
    mut page: impl FnMut(&Row) -> Result<String, E>,
) -> Result<Vec<(String, Vec<u8>)>, E> {
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    for row in rows {
        let Some(Sender::Moodle { participant, name }) = &row.sender else {
            continue;
        };
        if row.feedback.is_empty() {
            continue;
        }
        let text = page(row)?;
        // The importer splits each path part on `_`: a name keeps none; nor
        // a slash of either kind, which an unzip tool could take for a folder.
        let name: String = name
            .replace('_', " ")
            .chars()
            .filter(|c| !c.is_control() && !matches!(c, '/' | '\\'))
            .collect();
        let folder = format!("{}_{participant}_assignfeedback_file", name.trim());
        let mut file = format!("{folder}/feedback.html");
        let mut n = 2;
        while out.iter().any(|(f, _)| *f == file) {
            file = format!("{folder}/feedback-{n}.html");
            n += 1;
        }
        out.push((file, text.into_bytes()));
    }
    Ok(out)
}

/// Reads an LMS's download zip in memory: every entry but folders and hidden
/// files becomes a [`super::handed::Handed`], read within its own limits or
/// refused with why (never written to disk, never followed).
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub fn read_zip(path: &Path, out: &mut Vec<super::handed::Handed>) -> std::io::Result<()> {
    let file = std::fs::File::open(path)
        .map_err(|e| std::io::Error::other(format!("{}: cannot open: {e}", path.display())))?;
    read_zip_from(path, std::io::BufReader::new(file), out)
}

/// [`read_zip`] of the zip `reader` reads, named `path`.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub fn read_zip_from(
    path: &Path,
    reader: impl std::io::Read + std::io::Seek,
    out: &mut Vec<super::handed::Handed>,
) -> std::io::Result<()> {
    use super::batch::MAX_ANSWER_BYTES;
    use super::handed::{Handed, MAX_RATIO, MAX_ZIP_BYTES, MAX_ZIP_ENTRIES, Refused};
    use std::io::Read;
    let fail = |what: String| std::io::Error::other(format!("{}: {what}", path.display()));
    let mut zip = zip::ZipArchive::new(reader).map_err(|e| {
        fail(format!(
            "not a zip that can be read ({e}); download it again, or unpack it and grade the folder"
        ))
    })?;
    if zip.len() > MAX_ZIP_ENTRIES {
        return Err(fail(format!(
            "the zip has {} entries, more than {MAX_ZIP_ENTRIES}; unpack it and grade the folder",
            zip.len()
        )));
    }
    let mut budget = MAX_ZIP_BYTES;
    for i in 0..zip.len() {
        // The entry's header alone: its name, kind and sizes.
        let (name, safe, dir, link, encrypted, size, packed) = match zip.by_index_raw(i) {
            Ok(e) => (
                e.name()
                    .map(|n| n.into_owned())
                    .unwrap_or_else(|_| String::from_utf8_lossy(e.name_raw()).into_owned()),
                e.enclosed_name().is_some() && inside(&String::from_utf8_lossy(e.name_raw())),
                e.is_dir(),
                e.is_symlink(),
                e.encrypted(),
                e.size(),
                e.compressed_size(),
            ),
            Err(e) => {
                out.push(Handed::entry(
                    path,
                    &format!("entry {}", i + 1),
                    Err(Refused::Broken(e.to_string())),
                ));
                continue;
            }
        };
        let hidden = name
            .split(['/', '\\'])
            .any(|p| p.starts_with('.') && p != "." && p != ".." || p == "__MACOSX");
        if dir || hidden && safe {
            continue;
        }
        // A name that is not safe is shown as it is, never used as a path.
        let shown = if safe {
            name.clone()
        } else {
            name.replace(['/', '\\'], "∕")
        };
        let refused = if !safe {
            Some(Refused::UnsafeName)
        } else if link {
            Some(Refused::Link)
        } else if encrypted {
            Some(Refused::Encrypted)
        } else if size > MAX_ANSWER_BYTES {
            Some(Refused::TooLarge(size))
        } else if size / packed.max(1) > MAX_RATIO {
            Some(Refused::Ratio(size / packed.max(1)))
        } else if size > budget {
            Some(Refused::ZipFull)
        } else {
            None
        };
        let read = match refused {
            Some(why) => Err(why),
            None => {
                let mut bytes = Vec::new();
                match zip.by_index(i) {
                    // The declared size is enforced by the reader; the cap too.
                    Ok(e) => match e.take(MAX_ANSWER_BYTES + 1).read_to_end(&mut bytes) {
                        Ok(n) if n as u64 > MAX_ANSWER_BYTES => Err(Refused::TooLarge(n as u64)),
                        Ok(n) => {
                            budget -= (n as u64).min(budget);
                            Ok(bytes)
                        }
                        Err(e) => Err(Refused::Broken(e.to_string())),
                    },
                    Err(e) => Err(Refused::Broken(e.to_string())),
                }
            }
        };
        out.push(Handed::entry(path, &shown, read));
    }
    Ok(())
}

/// Whether a zip entry's name stays inside the zip on every system: not
/// absolute (`/`, `\`, `C:`), no `..` part, no NUL. The zip crate's
/// `enclosed_name` takes `/etc/x` for `etc/x`; a name that is not inside
/// is refused, never rewritten.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
fn inside(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(['/', '\\'])
        && name.chars().nth(1) != Some(':')
        && !name.contains('\0')
        && name.split(['/', '\\']).all(|p| p != "..")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(path: &str) -> Option<Sender> {
        Sender::of(Path::new(path))
    }

    #[test]
    fn moodle_names_in_every_form() {
        let jane = Some(Sender::Moodle {
            participant: "1234567".into(),
            name: "Jane Doe".into(),
        });
        assert_eq!(
            of("Jane Doe_1234567_assignsubmission_file/answer-sheet.toml"),
            jane
        );
        assert_eq!(
            of("Jane Doe_1234567_assignsubmission_file_/answer-sheet.toml"),
            jane
        );
        assert_eq!(
            of("Jane Doe_1234567_assignsubmission_file_answer-sheet.toml"),
            jane
        );
        assert_eq!(
            of("dl/Jane Doe_1234567_assignsubmission_file/sub/a.toml"),
            jane
        );
        assert_eq!(
            of("Participant_88_assignsubmission_onlinetext/onlinetext.html"),
            Some(Sender::Moodle {
                participant: "88".into(),
                name: "Participant".into()
            })
        );
        assert_eq!(of("Jane Doe_12x_assignsubmission_file/a.toml"), None);
        assert_eq!(of("_12_assignsubmission_file/a.toml"), None);
        assert_eq!(of("Jane Doe_12_assignsubmission_/a.toml"), None);
        assert_eq!(of("answers/s1.toml"), None);
    }

    #[test]
    fn a_feedback_folder_is_one_part_whatever_the_name() {
        let mut row = Row::refused("a.toml", Status::Graded, String::new());
        row.feedback = "feedback/a.html".into();
        row.sender = Some(Sender::Moodle {
            participant: "12".into(),
            name: "..\\..\\x/y_z\u{7}".into(),
        });
        let files = moodle_feedback_files(&[row], |_| Ok::<_, ()>("page".into())).unwrap();
        assert_eq!(files[0].0, "....xy z_12_assignfeedback_file/feedback.html");
    }

    #[test]
    fn canvas_names_in_every_form() {
        let user = |u: &str, late| {
            Some(Sender::Canvas {
                user: u.into(),
                late,
            })
        };
        assert_eq!(
            of("doejane_12345_678901_answer-sheet.toml"),
            user("12345", false)
        );
        assert_eq!(
            of("doejane_LATE_12345_678901_answer-sheet.toml"),
            user("12345", true)
        );
        assert_eq!(
            of("anon_Ab3xZ_678901_answer-sheet.toml"),
            user("anon_Ab3xZ", false)
        );
        assert_eq!(
            of("LATE_anon_Ab3xZ_678901_a.toml"),
            user("anon_Ab3xZ", true)
        );
        assert_eq!(of("张三_12345_678901_a.toml"), user("12345", false));
        // Only reported, never matched: a student's own name may read so.
        assert_eq!(
            of("q_1_2_answers.toml").map(|s| s.id().to_string()),
            Some("1".into())
        );
        assert_eq!(of("s1_answers.toml"), None);
        assert_eq!(of("Doe_12_34_a.toml"), None);
        assert_eq!(of("doejane_12345_678901_"), None);
        assert_eq!(of("12_34_56_a.toml"), None);
    }
}
