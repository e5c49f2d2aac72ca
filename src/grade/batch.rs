//! Grading a batch: every file gets a row, with its score or its reason.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde::Serialize;

use super::handed::Handed;
use super::key::{KeyBook, KeyVariant};
use super::lms::Sender;
use super::score::{QuestionScore, cents, round2, score};
use super::submission::{self, Submission};
use crate::input::{InputError, Location, Source};
use crate::lang::Lang;
use crate::manifest::Manifest;

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
    /// A symbolic link, FIFO, socket or device: never followed or opened.
    NotAFile,
    /// No variant line, or a variant this class set does not have.
    UnknownVariant,
    /// Written for another variant or another student.
    WrongVariant,
    /// One of several files with the same student id: none counts until the teacher decides.
    Duplicate,
    /// A file named for one student that holds another student's sheet: it does not count until the teacher decides.
    NameMismatch,
    /// A student of the class set handed in no file.
    Missing,
}

impl Status {
    /// Every status, in the order the summary counts them.
    pub const ALL: [Status; 11] = [
        Status::Graded,
        Status::Duplicate,
        Status::NameMismatch,
        Status::WrongVariant,
        Status::UnknownVariant,
        Status::Unreadable,
        Status::NotUtf8,
        Status::Empty,
        Status::TooLarge,
        Status::NotAFile,
        Status::Missing,
    ];

    /// The name in the grade table.
    pub fn name(self) -> &'static str {
        match self {
            Status::Graded => "graded",
            Status::Unreadable => "unreadable",
            Status::Empty => "empty",
            Status::TooLarge => "too-large",
            Status::NotUtf8 => "not-utf8",
            Status::NotAFile => "not-a-file",
            Status::UnknownVariant => "unknown-variant",
            Status::WrongVariant => "wrong-variant",
            Status::Duplicate => "duplicate",
            Status::NameMismatch => "name-mismatch",
            Status::Missing => "missing",
        }
    }

    /// Whether the row was scored (its question scores mean something), counted or not.
    pub fn scored(self) -> bool {
        matches!(
            self,
            Status::Graded | Status::Duplicate | Status::NameMismatch
        )
    }
}

/// One row of the grade table.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// The file as given.
    pub file: String,
    /// The student id: the roster's spelling when the file's id (or, for a
    /// file that cannot be graded, its name) is a roster student's.
    pub student: Option<String>,
    /// The student's name, from the roster.
    pub name: Option<String>,
    /// The variant id the file gives.
    pub variant: Option<String>,
    /// What happened.
    pub status: Status,
    /// Why it was not graded, when it was not.
    pub reason: String,
    /// Scores per question (empty when not graded).
    pub questions: Vec<QuestionScore>,
    /// Points earned: the sum of the questions' points as rounded to hundredths.
    pub total: f64,
    /// Points possible.
    pub max: f64,
    /// Problems found in a graded file (unknown questions, fields, labels).
    pub problems: Vec<String>,
    /// The feedback page's path in the report folder (set when reports are written).
    pub feedback: String,
    /// Who sent the file, as an LMS's download names it.
    pub sender: Option<Sender>,
}

impl Row {
    pub(super) fn refused(file: &str, status: Status, reason: String) -> Row {
        Row {
            file: file.to_string(),
            student: None,
            name: None,
            variant: None,
            status,
            reason,
            questions: Vec::new(),
            total: 0.0,
            max: 0.0,
            problems: Vec::new(),
            feedback: String::new(),
            sender: None,
        }
    }

    /// Sets the total from the questions: the sum of their points as they
    /// are printed (each rounded to hundredths), so that a spreadsheet that
    /// adds the columns agrees with it (after grading, and after an override).
    pub fn add_up(&mut self) {
        self.total = self.questions.iter().map(|q| cents(q.earned)).sum::<i64>() as f64 / 100.0;
    }

    /// The total as a share of the most, in percent (0 for a row worth nothing).
    pub fn percent(&self) -> f64 {
        if self.max > 0.0 {
            100.0 * self.total / self.max
        } else {
            0.0
        }
    }

    /// Whether the teacher must look at this row.
    pub fn needs_attention(&self) -> bool {
        self.status != Status::Graded || !self.problems.is_empty()
    }
}

/// Grades one handed-in file against the book.
pub fn grade_file(book: &KeyBook, handed: &Handed, lang: &Lang, hide_key: bool) -> Row {
    match read_submission(handed, lang) {
        Ok((path, sub)) => grade_submission(book, &path, sub, lang, hide_key),
        Err(row) => *row,
    }
}

/// A handed-in file read as answers, with its path; or, when it cannot be,
/// its row.
fn read_submission(handed: &Handed, lang: &Lang) -> Result<(String, Submission), Box<Row>> {
    match handed.read(lang) {
        Ok(source) => parse_source(&source, lang).map(|sub| (source.path, sub)),
        Err(row) => {
            let mut row = *row;
            // Text that cannot be graded may still say whose it is.
            if matches!(
                row.status,
                Status::NotUtf8 | Status::Unreadable | Status::TooLarge
            ) {
                row.student = handed.bytes().and_then(|b| sniff_bytes(&b));
            }
            Err(Box::new(row))
        }
    }
}

/// How much of a file that cannot be graded is searched for its `student` line.
const SNIFF_BYTES: usize = 64 * 1024;

/// The `student = "…"` line of a file that is not UTF-8 TOML: UTF-16 (with
/// its byte-order mark) is decoded, anything else read as lossy UTF-8.
fn sniff_bytes(bytes: &[u8]) -> Option<String> {
    let bytes = &bytes[..bytes.len().min(SNIFF_BYTES)];
    let utf16 = |big: bool| {
        let units: Vec<u16> = bytes[2..]
            .chunks_exact(2)
            .map(|c| {
                if big {
                    u16::from_be_bytes([c[0], c[1]])
                } else {
                    u16::from_le_bytes([c[0], c[1]])
                }
            })
            .collect();
        String::from_utf16_lossy(&units)
    };
    let text = if bytes.starts_with(b"\xFF\xFE") {
        utf16(false)
    } else if bytes.starts_with(b"\xFE\xFF") {
        utf16(true)
    } else {
        String::from_utf8_lossy(bytes).into_owned()
    };
    sniff_student(&text)
}

/// The id of the first `student = "…"` line (either quote), read without a
/// TOML parser, for files that are not valid TOML.
pub fn sniff_student(text: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let rest = line.trim_start_matches(['\u{feff}', ' ', '\t']);
        let rest = rest.strip_prefix("student")?.trim_start();
        let rest = rest.strip_prefix('=')?.trim_start();
        let quote = rest.chars().next().filter(|c| matches!(c, '"' | '\''))?;
        let value = &rest[1..];
        let id = crate::input::label_text(&value[..value.find(quote)?]);
        let id = id.as_str();
        (!id.is_empty() && id.chars().count() <= 64 && crate::input::hidden_char(id).is_none())
            .then(|| id.to_string())
    })
}

/// Grades one answer file's text; its variant is found through the book's index.
pub fn grade_source(book: &KeyBook, source: &Source, lang: &Lang, hide_key: bool) -> Row {
    match parse_source(source, lang) {
        Ok(sub) => grade_submission(book, &source.path, sub, lang, hide_key),
        Err(row) => *row,
    }
}

/// An answer file's text read as answers; or, when it is not TOML, its row.
fn parse_source(source: &Source, lang: &Lang) -> Result<Submission, Box<Row>> {
    match submission::parse(source) {
        Ok(sub) => Ok(sub),
        Err(e) => {
            // The parser's own words stay as they are; the sentence around them
            // is in the set's language.
            let reason = match (
                &e.location,
                e.message.strip_prefix("this is not valid TOML: "),
            ) {
                (Location::At { line, column, .. }, Some(detail)) => lang.fill(
                    "batch.not_toml",
                    &[
                        ("place", &format!("{}:{line}:{column}", e.path)),
                        ("detail", detail),
                    ],
                ),
                _ => e.one_line(),
            };
            let mut row = Row::refused(&source.path, Status::Unreadable, reason);
            row.student = sniff_student(&source.text);
            Err(Box::new(row))
        }
    }
}

/// Grades answers read from `path`; their variant is found through the book's index.
fn grade_submission(
    book: &KeyBook,
    path: &str,
    sub: Submission,
    lang: &Lang,
    hide_key: bool,
) -> Row {
    let variant =
        (sub.variant.as_deref()).and_then(|id| book.variant_for(id, sub.student.as_deref()));
    score_submission(variant, path, &sub, lang, hide_key)
}

/// Grades answers read from `path` against `variant`, the one their
/// `variant` line names (`None`: no variant has that id).
fn score_submission(
    variant: Option<&KeyVariant>,
    path: &str,
    sub: &Submission,
    lang: &Lang,
    hide_key: bool,
) -> Row {
    let mut row = Row::refused(path, Status::Graded, String::new());
    row.student = sub.student.clone();
    row.problems.extend(sub.student_problem.clone());
    row.variant = sub.variant.clone();
    let Some(id) = sub.variant.as_deref() else {
        row.status = Status::UnknownVariant;
        row.reason = lang.get("batch.no_variant").to_string();
        return row;
    };
    let Some(variant) = variant else {
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
    // Slips in the header part, and in sections this variant does not have.
    for b in sub.broken.iter().filter(|b| {
        b.in_header
            || !b
                .question
                .is_some_and(|n| variant.questions.iter().any(|q| q.number == n))
    }) {
        row.problems.push(b.slip.reason(None).render(lang, false));
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
        // A section whose header is broken is not missing: its slip says why.
        let lost = sub
            .broken
            .iter()
            .any(|b| b.section_header && b.question == Some(q.number));
        if !lost && !sub.questions.iter().any(|(n, _)| *n == q.number) {
            row.problems
                .push(lang.fill("grade.question_missing", &[("n", &q.number.to_string())]));
        }
        let given = sub
            .questions
            .iter()
            .find(|(n, _)| *n == q.number)
            .map_or(&[][..], |(_, f)| f.as_slice());
        let broken: Vec<_> = sub
            .broken
            .iter()
            .filter(|b| !b.in_header && b.question == Some(q.number))
            .collect();
        let (scored, problems) = score(q, given, &broken, lang, hide_key);
        row.problems.extend(problems);
        row.questions.push(scored);
    }
    row.add_up();
    row.max = round2(row.questions.iter().map(|q| q.max).sum());
    row
}

/// Grades every file; a second file with the same student id is marked a duplicate.
pub fn grade_all(book: &KeyBook, files: &[Handed], lang: &Lang, hide_key: bool) -> Vec<Row> {
    grade_all_with(book, files, lang, hide_key, &|| {})
}

/// `student (name)`, or the id alone.
fn who(v: &KeyVariant) -> String {
    let id = v.student.as_deref().unwrap_or("");
    match &v.name {
        Some(name) => format!("{id} ({name})"),
        None => id.to_string(),
    }
}

/// The roster student a file is named for: its stem, or else its folder's
/// name, is a student's id or folder name (any case).
fn named_for<'a>(book: &'a KeyBook, path: &Path) -> Option<&'a KeyVariant> {
    let stem = path.file_stem().and_then(|s| s.to_str());
    let parent = path
        .parent()
        .and_then(|p| p.file_name())
        .and_then(|s| s.to_str());
    [stem, parent]
        .into_iter()
        .flatten()
        .find_map(|name| book.student(name))
        .filter(|v| v.student.is_some())
}

/// [`grade_all`], calling `progress` once per file graded (from any thread).
///
/// Every file gets one row, and every student of the book who has none a
/// `missing` row: in roster order, then the files that match no roster
/// student in the order of `files`. A row's student is the roster's
/// spelling of the id its file gives; a file that cannot be graded is
/// given to the student its `student` line, or else its file name, names
/// (the file name wins over an id that is not on the roster).
/// A file named for one student that holds another's sheet is a
/// `name-mismatch`; several graded files of one student are all
/// `duplicate`s, each naming the others, unless they are copies of one file
/// (the same bytes): then the first counts and the others are `duplicate`s
/// naming it. Linear in the number of files and
/// variants: students are found through hash maps, which are only looked up,
/// never iterated.
pub fn grade_all_with(
    book: &KeyBook,
    files: &[Handed],
    lang: &Lang,
    hide_key: bool,
    progress: &(dyn Fn() + Sync),
) -> Vec<Row> {
    // Files are independent: grade them on every core, keeping their order.
    let rows: Vec<Row> = crate::parallel::map(files, |f| {
        let row = grade_file(book, f, lang, hide_key);
        progress();
        row
    });
    settle(book, files, rows, lang)
}

/// Variants whose keys are made and used at a time while a manifest streams
/// by: enough to keep every core busy, few enough to hold.
const STREAM_BATCH: usize = 256;

/// [`grade_all_with`] against a manifest read as a stream (`reader`, the
/// file `source` names; the language its `language` says, through `lang_of`;
/// each variant changed by `adjust`, as `--slips` does): the files are read
/// as soon as the manifest's head is, then each variant's keys are made as
/// the manifest goes by, used for the files that name it, and let go.
/// Memory holds the files' answers and rows and the class's names, never
/// every key at once. Returns the class (its keys let go), the rows as
/// [`grade_all_with`] has them, and the language.
pub fn grade_streamed(
    reader: impl std::io::Read,
    source: &Source,
    files: &[Handed],
    lang_of: impl FnOnce(&str) -> Result<Lang, InputError>,
    adjust: &(dyn Fn(&mut KeyVariant) + Sync),
    hide_key: bool,
    progress: &(dyn Fn() + Sync),
) -> Result<(KeyBook, Vec<Row>, Lang), InputError> {
    let mut lang_of = Some(lang_of);
    let mut stream: Option<Streaming> = None;
    let mut ids = super::key::Ids::default();
    let head = Manifest::stream(reader, source, |m, raw| {
        if stream.is_none() {
            let of = lang_of.take().expect("the language is found once");
            stream = Some(Streaming::new(files, of(&m.language)?, m.conventions));
        }
        let stream = stream.as_mut().expect("made above");
        stream.batch.push(raw);
        if stream.batch.len() == STREAM_BATCH {
            stream.flush(source, &mut ids, adjust, hide_key, progress)?;
        }
        Ok(())
    });
    let head = head?;
    let mut stream = match stream {
        Some(stream) => stream,
        // No variants: the files are read all the same.
        None => {
            let of = lang_of.take().expect("not taken without variants");
            Streaming::new(files, of(&head.language)?, head.conventions)
        }
    };
    stream.flush(source, &mut ids, adjust, hide_key, progress)?;
    let Streaming {
        read,
        mut rows,
        class,
        lang,
        ..
    } = stream;
    // Files that name no variant of the class, or none at all.
    for (f, r) in read.into_iter().enumerate() {
        let row = match r {
            Some(Ok(_)) => match read_submission(&files[f], &lang) {
                Ok((path, sub)) => score_submission(None, &path, &sub, &lang, hide_key),
                Err(row) => *row,
            },
            Some(Err(row)) => *row,
            None => continue,
        };
        rows[f] = Some(row);
        progress();
    }
    let rows: Vec<Row> = (rows.into_iter())
        .map(|r| r.expect("every file has its row"))
        .collect();
    let book = KeyBook::of(class, head.language, head.set.title);
    let rows = settle(&book, files, rows, &lang);
    Ok((book, rows, lang))
}

/// A file read as answers (the variant it names, if any: it is read again
/// when graded, so that a class's answers are not all held), or its row;
/// `None` once graded.
type Read = Option<Result<Option<String>, Box<Row>>>;

/// Grading while a manifest streams by.
struct Streaming<'a> {
    files: &'a [Handed],
    lang: Lang,
    conventions: crate::exercise::Conventions,
    /// Every file, read; taken when graded.
    read: Vec<Read>,
    /// Files by the upper-case variant id they name: a manifest's ids are
    /// distinct, and only its own id finds a variant (no aliases).
    waiting: HashMap<String, Vec<usize>>,
    /// The rows of the files graded so far.
    rows: Vec<Option<Row>>,
    /// The variants read so far, their keys let go.
    class: Vec<KeyVariant>,
    /// Variants read and not yet used, as their text.
    batch: Vec<crate::manifest::Raw>,
}

impl Streaming<'_> {
    fn new(
        files: &[Handed],
        lang: Lang,
        conventions: crate::exercise::Conventions,
    ) -> Streaming<'_> {
        let read: Vec<Read> = crate::parallel::map(files, |f| {
            Some(read_submission(f, &lang).map(|(_, sub)| sub.variant))
        });
        let mut waiting: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, r) in read.iter().enumerate() {
            if let Some(Ok(Some(id))) = r {
                waiting
                    .entry(id.trim().to_ascii_uppercase())
                    .or_default()
                    .push(i);
            }
        }
        Streaming {
            files,
            lang,
            conventions,
            rows: (0..read.len()).map(|_| None).collect(),
            read,
            waiting,
            class: Vec::new(),
            batch: Vec::with_capacity(STREAM_BATCH),
        }
    }

    /// Makes the batch's keys (parsed and checked on every core), grades
    /// the files waiting for them, and lets the keys go.
    fn flush(
        &mut self,
        source: &Source,
        ids: &mut super::key::Ids,
        adjust: &(dyn Fn(&mut KeyVariant) + Sync),
        hide_key: bool,
        progress: &(dyn Fn() + Sync),
    ) -> Result<(), InputError> {
        let batch = std::mem::take(&mut self.batch);
        let made = crate::parallel::map(&batch, |raw| {
            let v = raw.parse(source)?;
            let mut variant = KeyVariant::from_entry(source, raw.index(), v, self.conventions)?;
            adjust(&mut variant);
            let graded: Vec<(usize, Row)> = (self.waiting.get(&variant.id.to_ascii_uppercase()))
                .into_iter()
                .flatten()
                .map(|&f| {
                    // Read again (see [`Read`]); a file that now names
                    // another variant changed under us, and is not guessed at.
                    let row = match read_submission(&self.files[f], &self.lang) {
                        Ok((path, sub))
                            if (sub.variant.as_deref())
                                .is_some_and(|id| id.trim().eq_ignore_ascii_case(&variant.id)) =>
                        {
                            score_submission(Some(&variant), &path, &sub, &self.lang, hide_key)
                        }
                        Ok((path, _)) => Row::refused(
                            &path,
                            Status::Unreadable,
                            self.lang.get("batch.changed").to_string(),
                        ),
                        Err(row) => *row,
                    };
                    progress();
                    (f, row)
                })
                .collect();
            variant.let_go();
            Ok::<_, InputError>((variant, graded))
        });
        for result in made {
            let (variant, graded) = result?;
            ids.check(source, &variant.id)?;
            for (f, row) in graded {
                self.read[f] = None;
                self.rows[f] = Some(row);
            }
            self.class.push(variant);
        }
        Ok(())
    }
}

/// The rows of `files` (in their order) made whole: the roster's
/// spelling and names, name mismatches, duplicates, a `missing` row per
/// student who handed in nothing, and the roster's order.
fn settle(book: &KeyBook, files: &[Handed], mut rows: Vec<Row>, lang: &Lang) -> Vec<Row> {
    for (row, f) in rows.iter_mut().zip(files) {
        row.sender = f.sender.clone();
    }
    // The roster's spelling of every id, and the student's name.
    for row in &mut rows {
        if let Some(v) = row.student.as_deref().and_then(|s| book.student(s)) {
            row.student = v.student.clone();
            row.name = v.name.clone();
        }
    }
    // A file's name may say whose it is; the sheet inside may say otherwise.
    let mut named_elsewhere: HashMap<String, (String, String)> = HashMap::new();
    for (row, path) in rows.iter_mut().zip(files) {
        let Some(named) = named_for(book, &path.path) else {
            continue;
        };
        let owner = named.student.as_deref().unwrap_or("");
        let Some(student) = row.student.clone() else {
            if row.status != Status::Graded {
                row.student = named.student.clone();
                row.name = named.name.clone();
            }
            continue;
        };
        if student.eq_ignore_ascii_case(owner) {
            continue;
        }
        let known = book.student(&student).is_some();
        let holder = book.student(&student).map_or_else(|| student.clone(), who);
        let text = lang.fill(
            "batch.name_mismatch",
            &[("named", &who(named)), ("student", &holder)],
        );
        if row.status == Status::Graded {
            row.status = Status::NameMismatch;
            row.reason = text;
            named_elsewhere
                .entry(owner.to_lowercase())
                .or_insert_with(|| (row.file.clone(), holder));
        } else {
            // A file that does not count anyway: an id the roster does not
            // know (a typo) yields to the student the file is named for.
            if !known {
                row.student = named.student.clone();
                row.name = named.name.clone();
            }
            row.problems.push(text);
        }
    }
    // Several different graded files with one student id: all are flagged and
    // none counts, so the teacher decides (no rule about file names picks a
    // resubmission silently).
    let ids: Vec<Option<String>> = rows
        .iter()
        .map(|r| {
            (r.status == Status::Graded)
                .then(|| r.student.as_deref().map(str::to_lowercase))
                .flatten()
        })
        .collect();
    let mut files_of: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, who) in ids.iter().enumerate() {
        if let Some(who) = who {
            files_of.entry(who).or_default().push(i);
        }
    }
    // Copies of one file (byte for byte: handed in twice, or in two
    // folders) are one answer: the first counts, the others say so.
    let mut copy_of: HashMap<usize, usize> = HashMap::new();
    for same in files_of.values().filter(|same| same.len() > 1) {
        let bytes: Vec<Option<Vec<u8>>> = same.iter().map(|&i| files[i].bytes()).collect();
        if bytes[0].is_some() && bytes.iter().all(|b| *b == bytes[0]) {
            for &i in &same[1..] {
                copy_of.insert(i, same[0]);
            }
        }
    }
    let reasons: Vec<Option<String>> = ids
        .iter()
        .enumerate()
        .map(|(i, who)| {
            if let Some(&first) = copy_of.get(&i) {
                return Some(lang.fill("batch.duplicate_copy", &[("file", &rows[first].file)]));
            }
            let same = &files_of[who.as_deref()?];
            (same.len() > 1 && !copy_of.contains_key(&same[1])).then(|| {
                let others: Vec<&str> = same
                    .iter()
                    .filter(|&&j| j != i)
                    .map(|&j| rows[j].file.as_str())
                    .collect();
                lang.fill(
                    "batch.duplicate",
                    &[
                        ("count", &same.len().to_string()),
                        ("student", rows[i].student.as_deref().unwrap_or("")),
                        ("others", &others.join(lang.get("batch.sep"))),
                    ],
                )
            })
        })
        .collect();
    for (row, reason) in rows.iter_mut().zip(reasons) {
        if let Some(reason) = reason {
            row.status = Status::Duplicate;
            row.reason = reason;
        }
    }
    // Every student of the class set appears, handed in or not.
    let mut handed_in: HashSet<String> = rows
        .iter()
        .filter_map(|r| r.student.as_deref().map(str::to_lowercase))
        .collect();
    for v in &book.variants {
        if let Some(student) = &v.student
            && handed_in.insert(student.to_lowercase())
        {
            let reason = match named_elsewhere.get(&student.to_lowercase()) {
                Some((file, holder)) => lang.fill(
                    "batch.missing_named",
                    &[("file", file), ("student", holder)],
                ),
                None => lang.get("batch.missing").to_string(),
            };
            let mut row = Row::refused("", Status::Missing, reason);
            row.student = Some(student.clone());
            row.name = v.name.clone();
            row.variant = Some(v.id.clone());
            rows.push(row);
        }
    }
    // The roster's order, as the teacher's gradebook has it (a student's
    // files, and a file before a `missing` row, in file order); then the
    // files that match no roster student, in file order.
    rows.sort_by_key(|r| {
        r.student
            .as_deref()
            .and_then(|s| book.student_position(s))
            .filter(|&i| book.variants[i].student.is_some())
            .unwrap_or(usize::MAX)
    });
    rows
}
