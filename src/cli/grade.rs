//! `treequiz grade`: a folder of answer files in, a grade table, a summary and
//! one feedback page per file out. Nothing is dropped: every file gets a row.

use std::path::{Path, PathBuf};

use treequiz::class_set;
use treequiz::grade::batch::{self, Row};
use treequiz::grade::key::KeyBook;
use treequiz::grade::report;
use treequiz::instance;
use treequiz::lang::Lang;
use treequiz::output::write_atomic;
use treequiz::problem_set::{self, ProblemSet};
use treequiz::render::Renderer;
use treequiz::rng::Master;
use treequiz::roster::{Student, folder_name};

use super::UsageError;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// Answer files, or folders searched for *.toml.
    #[arg(required = true)]
    submissions: Vec<PathBuf>,
    /// The manifest.json written by `generate`.
    #[arg(long, conflicts_with = "set")]
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
    /// The folder for grades.csv, summary.md and feedback/.
    #[arg(long, default_value = "grading")]
    out: PathBuf,
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

fn usage(e: impl std::fmt::Display) -> UsageError {
    UsageError(e.to_string())
}

/// Keys for the students whose sheets are given, regenerated from the set.
pub(crate) fn book_from_set(
    set: &ProblemSet,
    master: &Master,
    students: Vec<String>,
    lang: &Lang,
) -> Result<KeyBook, UsageError> {
    let students: Vec<Student> = students
        .into_iter()
        .filter_map(|id| {
            folder_name(&id).map(|folder| Student {
                id,
                name: None,
                folder,
            })
        })
        .collect();
    let mut variants = class_set::build(set, master, &[], lang).map_err(usage)?;
    if !students.is_empty() {
        variants.extend(class_set::build(set, master, &students, lang).map_err(usage)?);
    }
    Ok(KeyBook::from_variants(set, &variants, lang))
}

pub(crate) fn run(args: &Args) -> Result<(String, bool), UsageError> {
    if args.out.exists() && !args.force {
        return Err(UsageError(format!(
            "{} exists; pass --force to replace its reports, or choose another --out",
            args.out.display()
        )));
    }
    let renderer = Renderer::new(args.templates.as_deref()).map_err(usage)?;
    let files = batch::collect(&args.submissions).map_err(usage)?;
    if files.is_empty() {
        return Err(UsageError(
            "no answer files (*.toml) found in the given paths".into(),
        ));
    }
    let (book, lang) = match (&args.manifest, &args.set) {
        (Some(path), _) => {
            let source = instance::read_source_capped(path, 1 << 30).map_err(usage)?;
            let lang = renderer.lang(&KeyBook::language(&source)).map_err(usage)?;
            (KeyBook::from_manifest(&source, &lang).map_err(usage)?, lang)
        }
        (None, Some(set_path)) => {
            let set = problem_set::load(set_path).map_err(usage)?;
            let lang = renderer.lang(&set.language).map_err(usage)?;
            let master = match (&args.secret, args.seed) {
                (Some(path), _) => Master::from_secret(&instance::read_source(path).map_err(usage)?.text).map_err(|m| UsageError(format!("{}: {m}", path.display())))?,
                (None, seed) => Master::from_seed(seed.unwrap_or(set.seed)),
            };
            let students = files.iter().filter_map(|f| student_of(f)).collect();
            (book_from_set(&set, &master, students, &lang)?, lang)
        }
        (None, None) => return Err(UsageError("say where the keys are: --manifest DIR/manifest.json, or --set SET.toml with --secret FILE or --seed N".into())),
    };
    let rows = batch::grade_all(&book, &files, &lang, args.hide_key);
    write_reports(&args.out, &rows, &lang, &renderer, args.hide_key)?;
    let attention = rows.iter().filter(|r| r.needs_attention()).count();
    let graded = rows
        .iter()
        .filter(|r| r.status == batch::Status::Graded)
        .count();
    let text = format!(
        "graded {graded} of {} files ({attention} need attention); wrote {}\n",
        rows.len(),
        args.out.join("grades.csv").display()
    );
    Ok((text, attention > 0))
}

/// The student id a sheet gives, read leniently (for regenerating its key).
fn student_of(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let table: toml::Table = text.parse().ok()?;
    table
        .get("student")?
        .as_str()
        .map(str::to_string)
        .filter(|s| !s.is_empty())
}

fn write_reports(
    out: &Path,
    rows: &[Row],
    lang: &Lang,
    renderer: &Renderer,
    hide_key: bool,
) -> Result<(), UsageError> {
    let mut files = vec![
        (out.join("grades.csv"), report::grades_csv(rows)),
        (out.join("summary.md"), report::summary(rows, lang)),
    ];
    let mut names: Vec<String> = Vec::new();
    for row in rows {
        // One page per file: its name made safe, numbered when two files share a name.
        let stem = Path::new(&row.file)
            .file_stem()
            .and_then(|s| s.to_str())
            .and_then(folder_name)
            .unwrap_or_else(|| "answers".into());
        let mut name = stem.clone();
        let mut n = 2;
        while names.contains(&name) {
            name = format!("{stem}-{n}");
            n += 1;
        }
        names.push(name.clone());
        let view = report::feedback_view(row, lang, hide_key);
        for ext in ["md", "html"] {
            files.push((
                out.join("feedback").join(format!("{name}.{ext}")),
                renderer
                    .render(&format!("feedback.{ext}"), &view)
                    .map_err(usage)?,
            ));
        }
    }
    for (path, text) in files {
        write_atomic(&path, text.as_bytes())
            .map_err(|e| UsageError(format!("{}: cannot write: {e}", path.display())))?;
    }
    Ok(())
}
