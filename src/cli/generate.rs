//! `treequiz generate SET.toml --out DIR`: worksheets, answer sheets, keys and a manifest.

use std::path::{Path, PathBuf};

use treequiz::class_set::{self, Variant};
use treequiz::instance;
use treequiz::manifest::Manifest;
use treequiz::output::write_atomic;
use treequiz::problem_set;
use treequiz::render::Renderer;
use treequiz::rng::Master;
use treequiz::roster;
use treequiz::view;

use super::UsageError;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// The problem set (TOML).
    set: PathBuf,
    /// The folder to write into (created if needed).
    #[arg(long)]
    out: PathBuf,
    /// A public seed (practice); overrides the set's own.
    #[arg(long, conflicts_with = "secret")]
    seed: Option<u64>,
    /// A file holding an exam secret (`treequiz secret > exam.secret`).
    #[arg(long, value_name = "FILE")]
    secret: Option<PathBuf>,
    /// A CSV roster with an `id` column (and optionally `name`), or a Moodle or
    /// Canvas export as it comes: one variant per student.
    #[arg(long, value_name = "CSV")]
    roster: Option<PathBuf>,
    /// The roster's column of student ids: its header, or its number from 1
    /// (default: `id`, else 学号, `ID number`, … as docs/class-sets.md lists).
    #[arg(long, value_name = "COLUMN", requires = "roster")]
    id_column: Option<String>,
    /// The roster's column of names; repeat it to join several (first and last name).
    #[arg(long, value_name = "COLUMN", requires = "roster")]
    name_column: Vec<String>,
    /// Output formats, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "md,html,tex")]
    format: Vec<Format>,
    /// The language of the sheets (overrides the set's).
    #[arg(long)]
    lang: Option<String>,
    /// A folder whose templates (and lang/*.toml) replace the built-in ones, file by file.
    #[arg(long, value_name = "DIR")]
    templates: Option<PathBuf>,
    /// Write into a folder that is not empty; folders of students from an earlier run are removed.
    #[arg(long)]
    force: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Md,
    Html,
    Tex,
}

impl Format {
    fn ext(self) -> &'static str {
        match self {
            Format::Md => "md",
            Format::Html => "html",
            Format::Tex => "tex",
        }
    }
}

/// How the seeds were chosen, for the manifest (never the secret itself).
#[derive(Clone, Copy)]
enum Mode {
    Practice(u64),
    Exam,
}

fn usage(e: impl std::fmt::Display) -> UsageError {
    UsageError(e.to_string())
}

/// Checks `--out` before anything is generated; with `--force`, removes the
/// student folders an earlier run's manifest lists, so no stale sheet stays.
fn prepare_out(out: &Path, force: bool) -> Result<(), UsageError> {
    if out.exists() && !out.is_dir() {
        return Err(UsageError(format!(
            "--out {} is a file; give a folder",
            out.display()
        )));
    }
    let non_empty = out.is_dir() && std::fs::read_dir(out).map_err(usage)?.next().is_some();
    if !non_empty {
        return Ok(());
    }
    if !force {
        return Err(UsageError(format!(
            "{} is not empty; pass --force to write into it (sheets of an earlier run are replaced), or choose another --out",
            out.display()
        )));
    }
    let old = out.join("manifest.json");
    if let Ok(text) = std::fs::read_to_string(&old) {
        let json: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        for v in json["variants"].as_array().into_iter().flatten() {
            // Only folder names this tool made (safe names), only inside `out`.
            if let Some(folder) = v["student"]["folder"]
                .as_str()
                .filter(|f| treequiz::roster::folder_name(f).as_deref() == Some(*f))
            {
                for dir in [out.join(folder), out.join("keys").join(folder)] {
                    if dir.is_dir() {
                        std::fs::remove_dir_all(&dir).map_err(|e| {
                            UsageError(format!("{}: cannot remove: {e}", dir.display()))
                        })?;
                    }
                }
            }
        }
    }
    Ok(())
}

pub(crate) fn run(args: &Args) -> Result<String, UsageError> {
    let set = problem_set::load(&args.set).map_err(usage)?;
    super::warn(&set.warnings);
    if let Some(dir) = args.templates.as_ref().filter(|d| !d.is_dir()) {
        return Err(UsageError(format!(
            "--templates {} is not a folder; `treequiz templates export DIR` makes one",
            dir.display()
        )));
    }
    let (master, mode) = match (&args.secret, args.seed) {
        (Some(path), _) => {
            let source = instance::read_source(path).map_err(usage)?;
            let master = Master::from_secret(&source.text)
                .map_err(|m| UsageError(format!("{}: {m}", path.display())))?;
            (master, Mode::Exam)
        }
        (None, Some(seed)) => (Master::from_seed(seed), Mode::Practice(seed)),
        (None, None) => (Master::from_seed(set.seed), Mode::Practice(set.seed)),
    };
    let renderer = Renderer::new(args.templates.as_deref()).map_err(usage)?;
    let lang = renderer
        .lang(args.lang.as_deref().unwrap_or(&set.language))
        .map_err(|e| match args.lang {
            Some(_) => e,
            None => set.unknown_language(e),
        })
        .map_err(usage)?;
    let students = match &args.roster {
        Some(path) => roster::load(
            path,
            &roster::Columns {
                id: args.id_column.clone(),
                name: args.name_column.clone(),
            },
        )
        .map_err(usage)?,
        None => Vec::new(),
    };
    prepare_out(&args.out, args.force)?;
    // A question that cannot be generated is reported at its table in the set.
    let failed = |e: class_set::ClassSetError| {
        let site = &set.exercises[e.number - 1].site;
        usage(site.error(
            format!("question {} ({}): {}", e.number, e.kind, e.source.what()),
            e.source.fix(),
        ))
    };
    let plan = class_set::plan(&set, &master).map_err(failed)?;
    let variants = class_set::build_planned(&set, &master, &plan, &students).map_err(failed)?;

    // Everything is rendered before anything is written: an error leaves no partial set.
    // Variants are independent: render them on every core, keeping their order.
    let roster_mode = !students.is_empty();
    let set_path = args.set.display().to_string();
    let mode = &mode;
    let render_variant = |variant: &Variant| -> Result<Vec<(PathBuf, String)>, UsageError> {
        let (sheet_dir, key_dir) = match &variant.student {
            Some(s) if roster_mode => (
                args.out.join(&s.folder),
                args.out.join("keys").join(&s.folder),
            ),
            _ => (args.out.clone(), args.out.clone()),
        };
        let practice = match *mode {
            Mode::Practice(seed) => Some((set_path.as_str(), seed)),
            Mode::Exam => None,
        };
        let blank = view::sheet(&set, variant, &lang, false, practice);
        let key = view::sheet(&set, variant, &lang, true, practice);
        let mut files = Vec::new();
        for format in &args.format {
            let ext = format.ext();
            files.push((
                sheet_dir.join(format!("worksheet.{ext}")),
                renderer
                    .render(&format!("worksheet.{ext}"), &blank)
                    .map_err(usage)?,
            ));
            files.push((
                key_dir.join(format!("key.{ext}")),
                renderer
                    .render(&format!("key.{ext}"), &key)
                    .map_err(usage)?,
            ));
        }
        files.push((
            sheet_dir.join("answer-sheet.toml"),
            renderer
                .render("answer-sheet.toml", &blank)
                .map_err(usage)?,
        ));
        files.push((
            key_dir.join("key.toml"),
            renderer.render("answer-sheet.toml", &key).map_err(usage)?,
        ));
        Ok(files)
    };
    let rendered = treequiz::parallel::map(&variants, render_variant);
    let mut files: Vec<(PathBuf, String)> = Vec::new();
    for variant_files in rendered {
        files.extend(variant_files?);
    }
    files.push((
        args.out.join("manifest.json"),
        Manifest::new(
            &set,
            &args.set.display().to_string(),
            &lang.code,
            match *mode {
                Mode::Practice(seed) => Some(seed),
                Mode::Exam => None,
            },
            &variants,
        )
        .to_json(),
    ));
    // A class set's variant report: how much work each variant's exercises are.
    let report = (variants.len() > 1).then(|| {
        let rows: Vec<treequiz::fair::Row> = variants
            .iter()
            .map(|v| treequiz::fair::Row {
                id: v.id.clone(),
                exercises: v.items.iter().map(|i| i.measures.clone()).collect(),
            })
            .collect();
        treequiz::fair::report(&set, &plan, &rows, &lang)
    });
    if let Some(text) = &report {
        files.push((args.out.join("variant-report.md"), text.clone()));
    }
    for (path, text) in &files {
        write_atomic(path, text.as_bytes())
            .map_err(|e| UsageError(format!("{}: cannot write: {e}", path.display())))?;
    }
    let ids: Vec<&str> = variants.iter().map(|v| v.id.as_str()).collect();
    let shown = if ids.len() > 5 {
        format!("{}, …", ids[..5].join(", "))
    } else {
        ids.join(", ")
    };
    Ok(format!(
        "wrote {} files to {}: {} variant{} ({shown}), {} exercise{} each\n{}",
        files.len(),
        args.out.display(),
        variants.len(),
        if variants.len() == 1 { "" } else { "s" },
        set.exercises.len(),
        if set.exercises.len() == 1 { "" } else { "s" },
        report
            .as_deref()
            .map(|r| format!("{} (variant-report.md)\n", treequiz::fair::evenness(r)))
            .unwrap_or_default(),
    ))
}
