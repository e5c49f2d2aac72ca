//! `treequiz gradescope`: a Gradescope programming-assignment autograder
//! (`setup.sh`, `run_autograder`, this binary and the manifest in one zip),
//! and, run by that autograder (`--autograde ROOT`), the grading of one
//! submission into `ROOT/results/results.json`.

use std::path::{Path, PathBuf};

use treequiz::grade::gradescope::{self, Metadata, VISIBILITIES};
use treequiz::grade::handed::{self, Handed};
use treequiz::grade::key::KeyBook;
use treequiz::grade::{batch, report};
use treequiz::output::write_atomic;
use treequiz::render::Renderer;

use super::UsageError;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// The folder `generate` wrote (or its manifest.json): its keys go into
    /// the autograder, which Gradescope keeps from students.
    #[arg(value_name = "DIR|FILE")]
    manifest: PathBuf,
    /// The autograder zip to write.
    #[arg(long, default_value = "autograder.zip")]
    out: PathBuf,
    /// The treequiz that runs on Gradescope, a Linux x86-64 build (default:
    /// this one, when it is one).
    #[arg(long, value_name = "FILE")]
    binary: Option<PathBuf>,
    /// When students see the worked feedback with the key: after_due_date,
    /// after_published, visible or hidden. The points of each field, and why
    /// they were lost, are shown at once and never give the key away.
    #[arg(long, default_value = "after_due_date", value_parser = VISIBILITIES)]
    key_visibility: String,
    /// Run as the autograder inside Gradescope: read ROOT/submission and
    /// ROOT/submission_metadata.json, write ROOT/results/results.json.
    #[arg(long, value_name = "ROOT", hide = true)]
    autograde: Option<PathBuf>,
}

fn usage(e: impl std::fmt::Display) -> UsageError {
    UsageError(e.to_string())
}

/// Gradescope runs it once, when the image is built: nothing to install.
const SETUP: &str = "#!/usr/bin/env bash
# Written by treequiz gradescope: treequiz is one binary, nothing to install.
set -euo pipefail
chmod +x /autograder/source/treequiz /autograder/source/run_autograder
";

/// Gradescope runs it for each submission. `AUTOGRADER_ROOT` lets a test
/// lay out the folders elsewhere.
fn run_autograder(visibility: &str) -> String {
    format!(
        "#!/usr/bin/env bash
# Written by treequiz gradescope: grades /autograder/submission into
# /autograder/results/results.json (the worked feedback shown {visibility}).
set -euo pipefail
root=\"${{AUTOGRADER_ROOT:-/autograder}}\"
cd \"$root/source\"
exec ./treequiz gradescope manifest.json --autograde \"$root\" --key-visibility {visibility}
"
    )
}

pub(crate) fn run(args: &Args) -> Result<(String, bool), UsageError> {
    if let Some(root) = &args.autograde {
        return autograde(args, root).map(|t| (t, false));
    }
    // Checked as the autograder will read it; packed as it is.
    let book = keys(&args.manifest, |_| false)?;
    let manifest = super::grade::manifest_in(&args.manifest);
    let text = treequiz::input::read_capped(&manifest, 1 << 30)
        .map_err(|e| UsageError(format!("{}: cannot read: {e}", manifest.display())))?;
    let binary = match &args.binary {
        Some(path) => path.clone(),
        None if cfg!(all(target_os = "linux", target_arch = "x86_64")) => {
            std::env::current_exe()
                .map_err(|e| UsageError(format!("cannot find this treequiz: {e}")))?
        }
        None => {
            return Err(UsageError(
                "Gradescope runs Linux x86-64: pass --binary with a Linux x86-64 treequiz (from the release page)".into(),
            ));
        }
    };
    let exe = std::fs::read(&binary)
        .map_err(|e| UsageError(format!("{}: cannot read: {e}", binary.display())))?;
    if !exe.starts_with(b"\x7fELF") {
        return Err(UsageError(format!(
            "{} is not a Linux program; Gradescope runs Linux x86-64: pass --binary with a Linux x86-64 treequiz",
            binary.display()
        )));
    }
    let files = vec![
        ("setup.sh".to_string(), SETUP.as_bytes().to_vec()),
        (
            "run_autograder".to_string(),
            run_autograder(&args.key_visibility).into_bytes(),
        ),
        ("treequiz".to_string(), exe),
        ("manifest.json".to_string(), text),
    ];
    let zip = treequiz::output::zip_of(&files, &["setup.sh", "run_autograder", "treequiz"]);
    write_atomic(&args.out, &zip)
        .map_err(|e| UsageError(format!("{}: cannot write: {e}", args.out.display())))?;
    Ok((
        format!(
            "wrote {} ({} variants of {}): upload it as a programming assignment's autograder on Gradescope (Ubuntu 22.04 or later); students submit answer-sheet.toml\n",
            args.out.display(),
            book.variants.len(),
            book.title
        ),
        false,
    ))
}

/// The manifest `path` names (as `grade --manifest` finds it), read as a
/// stream and checked as grading checks it (a manifest that cannot grade is
/// refused), with the keys of the variants `keep` names only.
fn keys(path: &Path, keep: impl Fn(&str) -> bool) -> Result<KeyBook, UsageError> {
    let manifest = super::grade::manifest_in(path);
    let reader = treequiz::input::open_capped(&manifest, 1 << 30).map_err(usage)?;
    let source = treequiz::input::Source {
        path: manifest.display().to_string(),
        text: String::new(),
    };
    KeyBook::read_manifest(reader, &source, keep).map_err(usage)
}

/// The variant id a handed-in sheet names, if it can be read at all (its
/// keys are the ones the autograder keeps).
fn named_variant(sheet: &Handed) -> Option<String> {
    let bytes = sheet.bytes()?;
    let source = treequiz::input::Source {
        path: String::new(),
        text: String::from_utf8_lossy(&bytes).into_owned(),
    };
    let id = treequiz::grade::submission::parse(&source).ok()?.variant?;
    Some(id.trim().to_ascii_uppercase())
}

/// The most `submission_metadata.json` may hold.
const MAX_METADATA_BYTES: u64 = 1 << 20;

/// Grades the submission in `root` and writes its results. Whatever the
/// submission holds, results.json is written (a sheet that cannot be read
/// scores 0 and says why), so that the student always reads something.
fn autograde(args: &Args, root: &Path) -> Result<String, UsageError> {
    let submission = root.join("submission");
    let files = handed::collect(std::slice::from_ref(&submission)).unwrap_or_default();
    let wanted = pick(&files).and_then(named_variant);
    let book = keys(&args.manifest, |id| {
        wanted
            .as_deref()
            .is_some_and(|w| id.eq_ignore_ascii_case(w))
    })?;
    let renderer = Renderer::new(None).map_err(usage)?;
    let lang = renderer.lang(&book.language).map_err(usage)?;
    let results_path = root.join("results").join("results.json");
    let results = match pick(&files) {
        None => gradescope::Results {
            score: 0.0,
            output: lang.get("grade.gradescope_no_sheet").to_string(),
            stdout_visibility: "hidden",
            tests: Vec::new(),
        },
        Some(sheet) => {
            let hidden = batch::grade_file(&book, sheet, &lang, true);
            let worked = batch::grade_file(&book, sheet, &lang, false);
            let page = renderer
                .render(
                    "feedback.txt",
                    &report::feedback_view(&worked, &lang, false),
                )
                .map_err(usage)?;
            let metadata: Metadata = treequiz::input::read_capped_no_follow(
                &root.join("submission_metadata.json"),
                MAX_METADATA_BYTES,
            )
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default();
            let mut notes = Vec::new();
            if let Some(student) = hidden.student.as_deref()
                && metadata.submitted_by(student) == Some(false)
            {
                notes.push(lang.fill(
                    "grade.gradescope_other_student",
                    &[("student", student), ("who", &metadata.who())],
                ));
            }
            gradescope::results(&hidden, page, &args.key_visibility, &notes, &lang)
        }
    };
    let json = serde_json::to_string_pretty(&results).expect("results serialise") + "\n";
    if let Some(dir) = results_path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| UsageError(format!("{}: cannot create: {e}", dir.display())))?;
    }
    write_atomic(&results_path, json.as_bytes())
        .map_err(|e| UsageError(format!("{}: cannot write: {e}", results_path.display())))?;
    Ok(format!(
        "wrote {} (score {})\n",
        results_path.display(),
        results.score
    ))
}

/// The answer sheet among the submitted files: `answer-sheet.toml`, else the
/// one `.toml`, else the one file.
fn pick(files: &[Handed]) -> Option<&Handed> {
    let named = |f: &&Handed, name: &str| f.path.file_name().is_some_and(|n| n == name);
    files
        .iter()
        .find(|f| named(f, "answer-sheet.toml"))
        .or_else(|| {
            let tomls: Vec<&Handed> = files
                .iter()
                .filter(|f| f.path.extension().is_some_and(|e| e == "toml"))
                .collect();
            (tomls.len() == 1).then(|| tomls[0])
        })
        .or_else(|| (files.len() == 1).then(|| &files[0]))
}
