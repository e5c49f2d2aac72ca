//! `treequiz grade`: a folder of answer files in, a grade table, gradebook
//! exports, a summary and one feedback page per file out. Nothing is dropped:
//! every file gets a row.

use std::path::{Path, PathBuf};

use treequiz::grade::batch::{self, Row};
use treequiz::grade::handed::{self, Handed};
use treequiz::grade::key::{KeyBook, KeyVariant};
use treequiz::grade::lms;
use treequiz::grade::rules::SlipRule;
use treequiz::grade::{export, overrides, report};
use treequiz::input::{self, Source};
use treequiz::instance;
use treequiz::lang::Lang;
use treequiz::output::write_atomic;
use treequiz::problem_set;
use treequiz::render::Renderer;
use treequiz::rng::Master;
use treequiz::roster::folder_name;

use super::UsageError;
use super::progress::Progress;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// Answer files, or folders: every file in them is graded, whatever its
    /// name (.toml, .txt, none; hidden files are skipped). A `.zip` is an
    /// LMS's download (Moodle's "Download submissions", Canvas's "Download
    /// Submissions"), read as it is.
    #[arg(required = true)]
    submissions: Vec<PathBuf>,
    /// The manifest.json written by `generate` (an exam's is in DIR/keys/),
    /// or the folder `generate` wrote.
    #[arg(long, conflicts_with = "set", value_name = "FILE|DIR")]
    manifest: Option<PathBuf>,
    /// The problem set, to regenerate keys from each sheet's student id.
    #[arg(long, requires = "keys_from")]
    set: Option<PathBuf>,
    /// With --set: the exam's secret file.
    #[arg(long, group = "keys_from", value_name = "FILE")]
    secret: Option<PathBuf>,
    /// With --set: the practice seed.
    #[arg(long, group = "keys_from")]
    seed: Option<u64>,
    /// The folder for grades.csv, canvas.csv and moodle.csv (with a roster),
    /// summary.md, summary.html and feedback/; from a Moodle download also
    /// moodle-worksheet.csv and moodle-feedback.zip, to upload back.
    #[arg(long, default_value = "grading")]
    out: PathBuf,
    /// Write the CSV files with a UTF-8 byte-order mark, so that Excel shows
    /// Chinese (and other non-ASCII) names; Canvas and Moodle accept it too.
    #[arg(long)]
    excel: bool,
    /// The assignment's name in canvas.csv and moodle.csv (default: the set's title).
    #[arg(long, value_name = "NAME")]
    assignment: Option<String>,
    /// What a recoverable slip (a Chinese quotation mark, a list without
    /// quotes) costs, for every question: accept (it scores as rewritten),
    /// penalty=0.25 (it loses that share), refuse (it earns nothing).
    /// Default: each exercise's `slips` in the set (accept).
    #[arg(long, value_name = "RULE", value_parser = slip_rule)]
    slips: Option<SlipRule>,
    /// A CSV of adjustments by hand (student,question,points,reason),
    /// applied after grading and shown in the feedback, CSVs and summary.
    #[arg(long, value_name = "FILE")]
    overrides: Option<PathBuf>,
    /// Feedback that does not reveal the key (for a retake).
    #[arg(long)]
    hide_key: bool,
    /// Replace an existing report folder.
    #[arg(long)]
    force: bool,
    /// A folder of templates and string tables that replace the built-in ones.
    #[arg(long, value_name = "DIR")]
    templates: Option<PathBuf>,
}

fn slip_rule(text: &str) -> Result<SlipRule, String> {
    SlipRule::parse(text).ok_or_else(|| {
        format!("`{text}` is not a slip rule: write accept, refuse or penalty=0.25 (a fraction from 0 to 1, in hundredths)")
    })
}

fn usage(e: impl std::fmt::Display) -> UsageError {
    UsageError(e.to_string())
}

/// Refuses a report folder that is, holds or lies inside a submission:
/// `--force` empties the report's `feedback/`, and writing there would
/// replace or remove handed-in files.
fn check_out_apart(out: &Path, submissions: &[PathBuf]) -> Result<(), UsageError> {
    let Some(report) = super::resolved(out) else {
        return Ok(());
    };
    for given in submissions {
        let Ok(input) = given.canonicalize() else {
            continue;
        };
        let how = if report == input {
            "is"
        } else if report.starts_with(&input) {
            "is inside"
        } else if input.starts_with(&report) {
            "holds"
        } else {
            continue;
        };
        return Err(UsageError(format!(
            "--out {} {how} the submissions {}: the report folder must be apart from what is graded (--force would remove handed-in files); choose another --out",
            out.display(),
            given.display()
        )));
    }
    Ok(())
}

pub(crate) fn run(args: &Args) -> Result<(String, bool), UsageError> {
    check_out_apart(&args.out, &args.submissions)?;
    if args.out.exists() && !args.force {
        return Err(UsageError(format!(
            "{} exists; pass --force to replace its reports, or choose another --out",
            args.out.display()
        )));
    }
    let renderer = Renderer::new(args.templates.as_deref()).map_err(usage)?;
    let files = handed::collect(&args.submissions).map_err(usage)?;
    if files.is_empty() {
        return Err(UsageError(
            "no answer files found in the given paths (every file counts, whatever its name; hidden files are skipped)".into(),
        ));
    }
    // Read before grading: a mistake in it stops the run before anything is written.
    let overrides = match &args.overrides {
        Some(path) => {
            let source = instance::read_source(path).map_err(usage)?;
            let list = overrides::parse(&source).map_err(usage)?;
            Some((source, list))
        }
        None => None,
    };
    let slips = |v: &mut KeyVariant| {
        if let Some(rule) = args.slips {
            v.set_slips(rule);
        }
    };
    let grading = Progress::stderr("grading", files.len());
    let (book, mut rows, lang) = match (&args.manifest, &args.set) {
        // A class's manifest is read as a stream, each variant's keys used
        // for its files as they go by: never every key at once.
        (Some(path), _) => {
            let path = manifest_in(path);
            let reader = input::open_capped(&path, 1 << 30).map_err(usage)?;
            let source = Source {
                path: path.display().to_string(),
                text: String::new(),
            };
            batch::grade_streamed(
                reader,
                &source,
                &files,
                |code| renderer.lang(code),
                &slips,
                args.hide_key,
                &|| grading.tick(),
            )
            .map_err(usage)?
        }
        (None, Some(set_path)) => {
            let set = problem_set::load(set_path).map_err(usage)?;
            let lang = renderer.set_lang(&set).map_err(usage)?;
            let master = match (&args.secret, args.seed) {
                (Some(path), _) => super::secret::load(path)?,
                (None, seed) => Master::from_seed(seed.unwrap_or(set.seed)),
            };
            let students = files.iter().filter_map(|f| student_of(f, &lang)).collect();
            let mut book = KeyBook::from_set(&set, &master, students).map_err(usage)?;
            book.variants.iter_mut().for_each(slips);
            let rows = batch::grade_all_with(&book, &files, &lang, args.hide_key, &|| grading.tick());
            (book, rows, lang)
        }
        (None, None) => return Err(UsageError("say where the keys are: --manifest DIR (the folder generate wrote), or --set SET.toml with --secret FILE or --seed N".into())),
    };
    grading.finish();
    let assignment = args
        .assignment
        .clone()
        .unwrap_or_else(|| book.title.clone());
    if book.has_roster() {
        export::check_assignment(&assignment).map_err(|m| {
            UsageError(format!(
                "{m}; name the gradebook column with --assignment NAME{}",
                if args.assignment.is_some() {
                    String::new()
                } else {
                    " (it defaults to the set's title)".to_string()
                }
            ))
        })?;
    }
    if let Some((source, list)) = &overrides {
        overrides::apply(&mut rows, list, source).map_err(usage)?;
    }
    let out = Output {
        dir: &args.out,
        lang: &lang,
        renderer: &renderer,
        hide_key: args.hide_key,
        excel: args.excel,
        assignment: &assignment,
        downloaded: downloaded(&args.submissions),
    };
    let written = write_reports(&out, &book, &mut rows)?;
    let attention = report::needing_attention(&rows).count();
    let graded = rows
        .iter()
        .filter(|r| r.status == batch::Status::Graded)
        .count();
    let missing = rows
        .iter()
        .filter(|r| r.status == batch::Status::Missing)
        .count();
    let mut text = format!(
        "graded {graded} of {} ({}{}); wrote {}\n",
        match rows.iter().filter(|r| !r.file.is_empty()).count() {
            1 => "1 file".to_string(),
            n => format!("{n} files"),
        },
        match attention {
            1 => "1 file needs attention".to_string(),
            n => format!("{n} files need attention"),
        },
        if book.has_roster() {
            match missing {
                1 => ", 1 student handed in nothing".to_string(),
                n => format!(", {n} students handed in nothing"),
            }
        } else {
            String::new()
        },
        written.join(", ")
    );
    let possible = export::points_possible(&book);
    if book.has_roster() && possible > 100.0 {
        text.push_str(&format!(
            "note: totals go up to {}; Moodle imports grades above 100 only with \"Unlimited grades\" on (Site administration > Grades > General settings)\n",
            report::points(possible)
        ));
    }
    // A student who handed in nothing needs the teacher too.
    Ok((text, attention + missing > 0))
}

/// Where and how the reports are written.
struct Output<'a> {
    dir: &'a Path,
    lang: &'a Lang,
    renderer: &'a Renderer,
    hide_key: bool,
    excel: bool,
    assignment: &'a str,
    /// When the submissions were downloaded (see [`downloaded`]).
    downloaded: String,
}

/// The student id a sheet gives, read leniently (for regenerating its key):
/// a sheet with a slip in one answer still names its student. Read as
/// grading reads it (capped; no link followed, no FIFO opened).
fn student_of(handed: &Handed, lang: &Lang) -> Option<String> {
    let source = handed.read(lang).ok()?;
    treequiz::grade::submission::parse(&source).ok()?.student
}

/// Writes every report; returns the names of the files written besides the
/// feedback pages.
fn write_reports(
    out: &Output<'_>,
    book: &KeyBook,
    rows: &mut [Row],
) -> Result<Vec<String>, UsageError> {
    // A page per file, named after its path (stable from run to run), listed in the table.
    // Membership only: the set's order never reaches the output.
    let mut names: std::collections::HashSet<String> = std::collections::HashSet::new();
    for row in rows.iter_mut().filter(|r| !r.file.is_empty()) {
        let flat: String = Path::new(&row.file)
            .with_extension("")
            .components()
            .filter_map(|c| c.as_os_str().to_str())
            .filter(|c| *c != "." && *c != "..")
            .collect::<Vec<_>>()
            .join("_");
        let stem = folder_name(&flat).unwrap_or_else(|| "answers".into());
        let mut name = stem.clone();
        let mut n = 2;
        while names.contains(&name) {
            name = format!("{stem}-{n}");
            n += 1;
        }
        names.insert(name.clone());
        row.feedback = format!("feedback/{name}.html");
    }
    let csv = |text: String| {
        if out.excel {
            format!("{}{text}", report::BOM)
        } else {
            text
        }
    };
    let mut files = vec![("grades.csv", csv(report::grades_csv(rows)))];
    if book.has_roster() {
        files.push((
            "canvas.csv",
            csv(export::canvas_csv(book, rows, out.assignment)),
        ));
        files.push((
            "moodle.csv",
            csv(export::moodle_csv(book, rows, out.assignment)),
        ));
    }
    let mut zips: Vec<(&str, Vec<u8>)> = Vec::new();
    if lms::from_moodle(rows) {
        let comment = |row: &Row| lms::comment(row, out.lang);
        files.push((
            "moodle-worksheet.csv",
            format!(
                "{}{}",
                report::BOM,
                lms::moodle_worksheet(rows, &out.downloaded, &comment)
            ),
        ));
        let pages = lms::moodle_feedback_files(rows, |row| {
            let view = report::feedback_view(row, out.lang, out.hide_key);
            out.renderer.render("feedback.html", &view).map_err(usage)
        })?;
        zips.push(("moodle-feedback.zip", treequiz::output::zip_of(&pages, &[])));
    }
    let students = book.variants.iter().filter(|v| v.student.is_some()).count();
    let summary = report::summary_view(
        rows,
        &treequiz::grade::items::measures(book, rows),
        out.lang,
        &book.title,
        students,
    );
    for name in ["summary.md", "summary.html"] {
        files.push((name, out.renderer.render(name, &summary).map_err(usage)?));
    }
    let written: Vec<String> = files
        .iter()
        .map(|(name, _)| name)
        .chain(zips.iter().map(|(name, _)| name))
        .map(|name| out.dir.join(name).display().to_string())
        .collect();
    let files: Vec<(PathBuf, Vec<u8>)> = files
        .into_iter()
        .map(|(name, text)| (out.dir.join(name), text.into_bytes()))
        .chain(
            zips.into_iter()
                .map(|(name, bytes)| (out.dir.join(name), bytes)),
        )
        .collect();
    let pages: Vec<&Row> = rows.iter().filter(|r| !r.feedback.is_empty()).collect();
    // A feedback page per file, rendered and written a window at a time (a
    // class's pages are not held at once); the first is rendered before
    // anything is written or removed, so a broken template stops the run
    // with the folder as it was.
    let page = |row: &Row| -> Result<Vec<(PathBuf, Vec<u8>)>, UsageError> {
        let view = report::feedback_view(row, out.lang, out.hide_key);
        let stem = row.feedback.trim_end_matches(".html");
        ["md", "html"]
            .into_iter()
            .map(|ext| {
                let text = (out.renderer)
                    .render(&format!("feedback.{ext}"), &view)
                    .map_err(usage)?;
                Ok((out.dir.join(format!("{stem}.{ext}")), text.into_bytes()))
            })
            .collect()
    };
    if let Some(first) = pages.first() {
        page(first)?;
    }
    // Files of an earlier run (with --force) must not linger beside the new ones.
    for name in [
        "canvas.csv",
        "moodle.csv",
        "moodle-worksheet.csv",
        "moodle-feedback.zip",
    ] {
        let path = out.dir.join(name);
        if !files.iter().any(|(p, _)| *p == path) && path.is_file() {
            std::fs::remove_file(&path)
                .map_err(|e| UsageError(format!("{}: cannot remove: {e}", path.display())))?;
        }
    }
    let old = out.dir.join("feedback");
    if old.is_dir() {
        std::fs::remove_dir_all(&old)
            .map_err(|e| UsageError(format!("{}: cannot remove: {e}", old.display())))?;
    }
    let write = |(path, text): (PathBuf, Vec<u8>)| {
        write_atomic(&path, &text)
            .map_err(|e| UsageError(format!("{}: cannot write: {e}", path.display())))
    };
    let writing = Progress::stderr("writing files", files.len() + 2 * pages.len());
    for file in files {
        write(file)?;
        writing.tick();
    }
    treequiz::parallel::stream(
        &pages,
        64,
        |row| page(row),
        |rendered| {
            for file in rendered? {
                write(file)?;
                writing.tick();
            }
            Ok::<(), UsageError>(())
        },
    )?;
    writing.finish();
    Ok(written)
}

/// When the submissions were downloaded, for Moodle's worksheet: the newest
/// modification time of the paths given (a zip as downloaded, a folder as
/// unpacked), in UTC, as PHP's `strtotime` reads it. Moodle then keeps any
/// grade a teacher changes in Moodle after the download.
fn downloaded(paths: &[PathBuf]) -> String {
    let newest = paths
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok()?.modified().ok())
        .max()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs());
    treequiz::output::utc_time(newest)
}

/// The manifest `--manifest` names: the file itself, or in the folder
/// `generate` wrote, an exam's `keys/manifest.json`, else a practice set's
/// `manifest.json`.
pub(crate) fn manifest_in(path: &Path) -> PathBuf {
    if !path.is_dir() {
        return path.to_path_buf();
    }
    let exam = path.join("keys").join("manifest.json");
    if exam.is_file() {
        exam
    } else {
        path.join("manifest.json")
    }
}
