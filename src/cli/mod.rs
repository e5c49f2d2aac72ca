//! Command-line parsing and dispatch; one file per subcommand.

mod booklet;
mod check;
mod conventions;
mod convert;
mod generate;
mod grade;
mod gradescope;
mod interrupt;
mod pdf;
mod practice;
mod progress;
mod sample;
mod secret;
mod sets;
mod solve;
mod templates;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exercises on game trees and AND/OR graphs for AI courses.
#[derive(Parser)]
#[command(name = "treequiz", version = env!("TREEQUIZ_VERSION"), about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// What `treequiz` alone prints: where to start, not every option.
fn start_page() -> String {
    format!(
        "treequiz {}: exercises on game trees and AND/OR graphs for AI courses

Start here:
  # the shipped problem sets, copied here to read and edit
  treequiz sets export problem-sets
  # a worksheet, its blank answer sheet and its key, in demo/
  treequiz generate problem-sets/demo.toml --out demo
  # grade a folder of handed-in answer files against demo's keys
  treequiz grade --manifest demo handed-in --out report
  # the practice page, one HTML file that works offline: site/practice.html
  treequiz practice --out site

Every command: treequiz help; one command: treequiz help generate
",
        env!("TREEQUIZ_VERSION")
    )
}

#[derive(Subcommand)]
enum Command {
    /// Solve an instance file and print the full, explained answer.
    Solve(solve::Args),
    /// Generate a random instance from a seed and print it as an instance file.
    Sample(sample::Args),
    /// Print an instance in another form: TOML, JSON, a Python nested list, a CS188 test, an Othello board line.
    Convert(convert::Args),
    /// Write worksheets, blank answer sheets, answer keys and a manifest from a problem set.
    Generate(generate::Args),
    /// Grade answer files: a grade table, a summary and feedback for every file.
    Grade(grade::Args),
    /// Write a Gradescope autograder (a zip to upload) for a generated set.
    Gradescope(gradescope::Args),
    /// Check your answers to a practice sheet.
    Check(check::Args),
    /// Write the practice page: one HTML file that makes, draws and grades exercises in a browser.
    Practice(practice::Args),
    /// Print a fresh exam secret (128 random bits) for `generate --secret`.
    Secret,
    /// Work with the built-in templates.
    #[command(subcommand)]
    Templates(templates::Command),
    /// Work with the shipped problem sets.
    #[command(subcommand)]
    Sets(sets::Command),
}

/// Prints what the user should know but need not fix, on stderr.
pub(crate) fn warn(warnings: &[treequiz::input::InputError]) {
    for w in warnings {
        eprintln!("warning: {w}");
    }
}

/// `path` made absolute with every link resolved, for a path that may not
/// exist yet: its nearest existing ancestor is canonicalized and the rest
/// (which holds no link, since it does not exist) is added component by
/// component, `..` taking one off.
pub(crate) fn resolved(path: &std::path::Path) -> Option<std::path::PathBuf> {
    let absolute = std::path::absolute(path).ok()?;
    let parts: Vec<_> = absolute.components().collect();
    for split in (1..=parts.len()).rev() {
        let base: std::path::PathBuf = parts[..split].iter().collect();
        let Ok(mut out) = base.canonicalize() else {
            continue;
        };
        for part in &parts[split..] {
            match part {
                std::path::Component::ParentDir => {
                    out.pop();
                }
                std::path::Component::Normal(name) => out.push(name),
                _ => {}
            }
        }
        return Some(out);
    }
    None
}

/// What an `export` printed: the files written, one a line (or why not, naming `dir`).
fn listed(
    dir: &std::path::Path,
    written: Result<Vec<std::path::PathBuf>, String>,
) -> Result<String, UsageError> {
    let written = written.map_err(|e| UsageError(format!("{}: {e}", dir.display())))?;
    Ok(written
        .iter()
        .map(|p| format!("{}\n", p.display()))
        .collect())
}

/// A failure the user must fix; printed without a backtrace, exit code 2.
pub(crate) struct UsageError(pub(crate) String);

pub(crate) fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // `--help` and `--version` are output too: written checked (clap's
        // own printing ignores a failed write), in colour only on a terminal.
        Err(e) if !e.use_stderr() && !std::io::IsTerminal::is_terminal(&std::io::stdout()) => {
            let status = ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
            return crate::print_output(&e.render().to_string(), status);
        }
        Err(e) => e.exit(),
    };
    // `Ok((text, attention))`: attention makes the exit code 1 (some rows need a look).
    let Some(command) = cli.command else {
        return crate::print_output(&start_page(), ExitCode::SUCCESS);
    };
    let result: Result<(String, bool), UsageError> = match command {
        Command::Solve(args) => solve::run(&args).map(|t| (t, false)),
        Command::Sample(args) => sample::run(&args).map(|t| (t, false)),
        Command::Convert(args) => convert::run(&args).map(|t| (t, false)),
        Command::Generate(args) => generate::run(&args).map(|t| (t, false)),
        Command::Grade(args) => grade::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Gradescope(args) => gradescope::run(&args),
        Command::Practice(args) => practice::run(&args).map(|t| (t, false)),
        Command::Secret => secret::run().map(|t| (t, false)),
        Command::Templates(command) => templates::run(&command).map(|t| (t, false)),
        Command::Sets(command) => sets::run(&command).map(|t| (t, false)),
    };
    match result {
        Ok((text, attention)) => crate::print_output(
            &text,
            if attention {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            },
        ),
        Err(UsageError(message)) => {
            // A user's text in a message never steers the terminal (control characters shown as pictures).
            eprintln!("error: {}", treequiz::input::printable(&message));
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use treequiz::input::parse_range;

    #[test]
    fn ranges_parse_in_every_spelling() {
        assert_eq!(parse_range::<u32>("2"), Ok((2, 2)));
        assert_eq!(parse_range::<u32>("2..3"), Ok((2, 3)));
        assert_eq!(parse_range::<u32>("2..=3"), Ok((2, 3)));
        assert_eq!(parse_range::<i64>("-5..5"), Ok((-5, 5)));
        assert_eq!(parse_range::<i64>("0-20"), Ok((0, 20)));
        assert_eq!(parse_range::<i64>("-9--2"), Ok((-9, -2)));
        assert!(parse_range::<u32>("3..2").is_err());
        assert!(parse_range::<u32>("x").is_err());
        assert!(parse_range::<u32>("").is_err());
        assert!(parse_range::<u32>("é-2").is_err());
    }
}
