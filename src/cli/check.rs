//! `treequiz check ANSWERS.toml`: a student checks a practice sheet against
//! its key, or an exam sheet's form (without any key) before handing it in.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use treequiz::grade::batch;
use treequiz::grade::form;
use treequiz::grade::report;
use treequiz::grade::submission;
use treequiz::input::Source;
use treequiz::instance;
use treequiz::problem_set;
use treequiz::render::Renderer;
use treequiz::rng::Master;

use super::UsageError;

/// How many folders above the answer sheet's own are searched for its set.
const SET_SEARCH_PARENTS: usize = 3;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// Your answer sheet.
    answers: PathBuf,
    /// The problem set (default: the one the practice sheet names, looked for
    /// from the current folder, then beside the sheet and up to three folders above it).
    #[arg(long)]
    set: Option<PathBuf>,
    /// The practice seed (default: the one the practice sheet names).
    #[arg(long)]
    seed: Option<u64>,
    /// An exam sheet's answer form (default: form.json beside the sheet, as
    /// `generate` writes it in each student's folder).
    #[arg(long, conflicts_with_all = ["set", "seed"])]
    form: Option<PathBuf>,
    /// Show hint N of each question (1 is its first step) after the
    /// feedback, question first, then its answer; counted in the feedback.
    /// Practice sheets only: an exam sheet is never hinted.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..), conflicts_with = "form")]
    hint: Option<u16>,
    /// With --hint: that question's hint only.
    #[arg(long, value_name = "Q", requires = "hint", value_parser = clap::value_parser!(u16).range(1..))]
    question: Option<u16>,
    /// How to print the feedback: plain text on a terminal and Markdown in a
    /// pipe or file (auto), or always one of them.
    #[arg(long, value_enum, default_value = "auto")]
    format: Format,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// Text on a terminal, Markdown otherwise.
    Auto,
    /// Plain text (`feedback.txt`).
    Text,
    /// Markdown, like the feedback pages of `grade` (`feedback.md`).
    Md,
}

fn usage(e: impl std::fmt::Display) -> UsageError {
    UsageError(e.to_string())
}

/// Where the set a practice sheet names may be: the path as written (from the
/// current folder), then, in the sheet's folder and each of the
/// [`SET_SEARCH_PARENTS`] folders above it, that path and the file name alone
/// (a student keeps the set beside the sheet, or the teacher's folder layout).
fn set_candidates(named: &Path, sheet: &Path) -> Vec<PathBuf> {
    let mut out = vec![named.to_path_buf()];
    let sheet = std::path::absolute(sheet).unwrap_or_else(|_| sheet.to_path_buf());
    for dir in sheet
        .parent()
        .into_iter()
        .flat_map(Path::ancestors)
        .take(SET_SEARCH_PARENTS + 1)
    {
        if named.is_relative() {
            out.push(dir.join(named));
        }
        if let Some(name) = named.file_name() {
            out.push(dir.join(name));
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|p| seen.insert(p.clone()));
    out
}

/// The set a practice sheet names, found by [`set_candidates`]. A candidate
/// that is there but is not a regular file (a FIFO would block when opened)
/// is refused at the sheet's `set = …` line when no candidate is a file.
fn find_set(named: &str, sheet: &Path, source: &Source) -> Result<PathBuf, UsageError> {
    let candidates = set_candidates(Path::new(named), sheet);
    if let Some(found) = candidates.iter().find(|p| p.is_file()) {
        return Ok(found.clone());
    }
    if let Some((path, meta)) = candidates
        .iter()
        .find_map(|p| std::fs::metadata(p).ok().map(|m| (p, m)))
    {
        let message = format!(
            "the problem set this sheet names is {}, not a file: {}",
            treequiz::input::FileKind::of(&meta).words(),
            path.display()
        );
        return Err(at_set_line(source, message));
    }
    let looked: Vec<String> = candidates.iter().map(|p| p.display().to_string()).collect();
    Err(UsageError(format!(
        "{}: the sheet was made from the problem set `{named}`, which is not at {}; pass --set SET.toml with the set your teacher gave out (the seed comes from the sheet; --seed N overrides it)",
        sheet.display(),
        looked.join(", ")
    )))
}

/// Whether `path` holds a problem set, broken or not: TOML with
/// `[[exercise]]` tables. Only then may its errors quote its lines.
fn is_a_set(path: &Path) -> bool {
    instance::read_source(path).is_ok_and(|source| {
        toml::from_str::<toml::Table>(&source.text)
            .is_ok_and(|t| t.get("exercise").is_some_and(toml::Value::is_array))
    })
}

/// The refusal of a file the sheet's `set = …` line names that is no problem
/// set: any readable file could be named (a credentials file), so nothing of
/// it is shown but its path.
fn not_a_set(path: &Path, sheet: &Source) -> UsageError {
    let message = format!(
        "the problem set this sheet names, {}, is not a treequiz problem set (a TOML file with [[exercise]] tables); nothing of it is shown",
        path.display()
    );
    at_set_line(sheet, message)
}

/// `message` about the set a sheet names, at the sheet's `set = …` line.
fn at_set_line(sheet: &Source, message: String) -> UsageError {
    let hint = "pass --set SET.toml with the set your teacher gave out".to_string();
    usage(
        match sheet.parse().ok().and_then(|d| d.get("set").cloned()) {
            Some(line) => sheet.error(&line, message, hint),
            None => treequiz::input::InputError::file(&sheet.path, message, Some(hint)),
        },
    )
}

pub(crate) fn run(args: &Args) -> Result<(String, bool), UsageError> {
    let source = instance::read_source(&args.answers).map_err(usage)?;
    let sub = submission::parse(&source).map_err(usage)?;
    // An exam sheet names no practice set: its form is checked, never a key.
    if args.form.is_some() || (args.set.is_none() && args.seed.is_none() && sub.practice.is_none())
    {
        if args.hint.is_some() {
            return Err(UsageError(format!(
                "{}: hints are for practice sheets, and an exam sheet is never hinted: checking it shows what will be graded, never a step of an answer (drop --hint)",
                args.answers.display()
            )));
        }
        return check_exam(args, &sub);
    }
    // Only a sheet that says it is practice is hinted, even when --set and
    // --seed name its keys.
    if args.hint.is_some() && sub.practice.is_none() {
        return Err(UsageError(format!(
            "{}: hints are for practice sheets, and this sheet names no practice set: an exam sheet is never hinted (drop --hint)",
            args.answers.display()
        )));
    }
    let (set_path, seed) = match (&args.set, args.seed, &sub.practice) {
        (Some(set), Some(seed), _) => (set.clone(), seed),
        (set, seed, Some((named, named_seed))) => (
            match set {
                Some(set) => set.clone(),
                None => find_set(named, &args.answers, &source)?,
            },
            seed.unwrap_or(*named_seed),
        ),
        _ => {
            return Err(UsageError(format!(
                "{}: {}; pass --set SET.toml --seed N",
                args.answers.display(),
                submission::NOT_PRACTICE
            )));
        }
    };
    let set = problem_set::load(&set_path).map_err(|e| {
        if args.set.is_some() || is_a_set(&set_path) {
            usage(e)
        } else {
            not_a_set(&set_path, &source)
        }
    })?;
    let renderer = Renderer::new(None).map_err(usage)?;
    let lang = renderer.set_lang(&set).map_err(usage)?;
    let book = treequiz::grade::key::KeyBook::from_set(
        &set,
        &Master::from_seed(seed),
        sub.student.clone().into_iter().collect(),
    )
    .map_err(usage)?;
    let row = batch::grade_source(&book, &source, &lang, false);
    let text = match args.format {
        Format::Text => true,
        Format::Md => false,
        Format::Auto => std::io::stdout().is_terminal(),
    };
    let template = if text { "feedback.txt" } else { "feedback.md" };
    let mut view = report::feedback_view(&row, &lang, false);
    if let Some(n) = args.hint {
        view = view.with_hints(usize::from(n), &hints(args, &sub, &book)?, &lang);
    }
    let out = renderer.render(template, &view).map_err(usage)?;
    Ok((out, row.needs_attention()))
}

/// The hints of the sheet's questions (`--question`'s only), by number.
fn hints(
    args: &Args,
    sub: &submission::Submission,
    book: &treequiz::grade::key::KeyBook,
) -> Result<Vec<(usize, Vec<treequiz::exercise::Hint>)>, UsageError> {
    let variant = sub
        .variant
        .as_deref()
        .and_then(|id| book.variant_for(id, sub.student.as_deref()))
        .ok_or_else(|| {
            UsageError(format!(
                "{}: no hints: its variant is not one of the set's at this seed (see the feedback without --hint)",
                args.answers.display()
            ))
        })?;
    let asked = args.question.map(usize::from);
    let questions: Vec<_> = variant
        .questions
        .iter()
        .filter(|q| asked.is_none_or(|n| q.number == n))
        .map(|q| {
            (
                q.number,
                q.kind.hints_of(&q.instance, &q.key, &q.conventions),
            )
        })
        .collect();
    if questions.is_empty() {
        return Err(UsageError(format!(
            "{}: --question {}: the sheet's questions are 1 to {}",
            args.answers.display(),
            asked.unwrap_or_default(),
            variant.questions.len()
        )));
    }
    Ok(questions)
}

/// Checks an exam sheet against its form: what the grader will read, with
/// no key to say whether it is right.
fn check_exam(args: &Args, sub: &submission::Submission) -> Result<(String, bool), UsageError> {
    let path = match &args.form {
        Some(path) => path.clone(),
        None => {
            let beside = args
                .answers
                .parent()
                .unwrap_or(Path::new(""))
                .join(form::FILE);
            if std::fs::symlink_metadata(&beside).is_err() {
                return Err(UsageError(format!(
                    "{}: {}; an exam sheet is checked with its answer form, {}, which `generate` puts beside the worksheet in your folder, and it is not at {}: copy it next to the sheet, or pass --form PATH (a practice sheet: --set SET.toml --seed N)",
                    args.answers.display(),
                    submission::NOT_PRACTICE,
                    form::FILE,
                    beside.display()
                )));
            }
            beside
        }
    };
    let source = instance::read_source_capped(&path, form::MAX_FORM_BYTES).map_err(usage)?;
    let form =
        form::Form::of_sheet(&source, sub, &args.answers.display().to_string()).map_err(usage)?;
    let lang = Renderer::new(None)
        .map_err(usage)?
        .lang(&form.language)
        .map_err(usage)?;
    let checked = form::check(
        &form,
        &args.answers.display().to_string(),
        &source.path,
        sub,
        &lang,
    );
    Ok((checked.text, checked.to_fix > 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_set_is_looked_for_beside_the_sheet_and_above_it() {
        let c = set_candidates(
            Path::new("problem-sets/demo.toml"),
            Path::new("/home/ada/course/week3/demo-out/answer-sheet.toml"),
        );
        let c: Vec<String> = c.iter().map(|p| p.display().to_string()).collect();
        assert_eq!(
            c,
            [
                "problem-sets/demo.toml",
                "/home/ada/course/week3/demo-out/problem-sets/demo.toml",
                "/home/ada/course/week3/demo-out/demo.toml",
                "/home/ada/course/week3/problem-sets/demo.toml",
                "/home/ada/course/week3/demo.toml",
                "/home/ada/course/problem-sets/demo.toml",
                "/home/ada/course/demo.toml",
                "/home/ada/problem-sets/demo.toml",
                "/home/ada/demo.toml",
            ]
        );
    }
}
