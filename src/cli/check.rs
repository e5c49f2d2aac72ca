//! `treequiz check ANSWERS.toml`: a student checks a practice sheet.

use std::path::PathBuf;

use treequiz::grade::batch;
use treequiz::grade::report;
use treequiz::grade::submission;
use treequiz::instance;
use treequiz::problem_set;
use treequiz::render::Renderer;
use treequiz::rng::Master;

use super::UsageError;
use super::grade::book_from_set;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// Your answer sheet.
    answers: PathBuf,
    /// The problem set (default: the one the practice sheet names).
    #[arg(long)]
    set: Option<PathBuf>,
    /// The practice seed (default: the one the practice sheet names).
    #[arg(long)]
    seed: Option<u64>,
}

fn usage(e: impl std::fmt::Display) -> UsageError {
    UsageError(e.to_string())
}

pub(crate) fn run(args: &Args) -> Result<(String, bool), UsageError> {
    let source = instance::read_source(&args.answers).map_err(usage)?;
    let sub = submission::parse(&source).map_err(usage)?;
    let (set_path, seed) = match (&args.set, args.seed, &sub.practice) {
        (Some(set), Some(seed), _) => (set.clone(), seed),
        (set, seed, Some((named, named_seed))) => (
            set.clone().unwrap_or_else(|| PathBuf::from(named)),
            seed.unwrap_or(*named_seed),
        ),
        _ => {
            return Err(UsageError(format!(
                "{}: this sheet names no practice set and seed (exam sheets are graded by the teacher); pass --set SET.toml --seed N",
                args.answers.display()
            )));
        }
    };
    let set = problem_set::load(&set_path).map_err(usage)?;
    let renderer = Renderer::new(None).map_err(usage)?;
    let lang = renderer
        .lang(&set.language)
        .map_err(|e| set.unknown_language(e))
        .map_err(usage)?;
    let book = book_from_set(
        &set,
        &Master::from_seed(seed),
        sub.student.clone().into_iter().collect(),
    )?;
    let row = batch::grade_source(&book, &source, &lang, false);
    let text = renderer
        .render("feedback.md", &report::feedback_view(&row, &lang, false))
        .map_err(usage)?;
    Ok((text, row.needs_attention()))
}
