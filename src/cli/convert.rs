//! `treequiz convert FILE --to FORM`: an instance in another form, so that a
//! teacher can run students' programs on treequiz's exercises (a game tree as
//! a Python nested list or a CS188 test, an Othello position on one line)
//! and bring such files in (`solve` and problem sets read them too).

use std::path::PathBuf;

use treequiz::instance::{self, Family};

use super::UsageError;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// The instance file: TOML, JSON, a Python nested list (`.py`) or a CS188 test (`.test`).
    file: PathBuf,
    /// The form to print.
    #[arg(long, value_enum)]
    to: Form,
    /// With `--to cs188`: the agent class the test runs (`MinimaxAgent`,
    /// `AlphaBetaAgent`; a chance tree's is always `ExpectimaxAgent`).
    #[arg(long, default_value = "MinimaxAgent", value_name = "CLASS")]
    alg: String,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Form {
    /// treequiz's TOML instance file.
    Toml,
    /// The same fields as JSON.
    Json,
    /// A game tree as a Python nested list: `tree = ['A', ('B', 5), ['C', …]]`.
    Python,
    /// A game tree as a Berkeley CS188 `GraphGameTreeTest` file.
    Cs188,
    /// An Othello position on one line: 64 squares (X, O, -) and the side to move.
    Board,
}

pub(crate) fn run(args: &Args) -> Result<String, UsageError> {
    let instance = instance::load(&args.file).map_err(|e| UsageError(e.to_string()))?;
    let shown = args.file.display();
    let form = match args.to {
        Form::Toml => return Ok(instance.to_toml()),
        Form::Json => return Ok(instance.to_json()),
        Form::Python => "python",
        Form::Cs188 => "cs188",
        Form::Board => "board",
    };
    // The families that write the form, for the message when this one does not.
    let writers: Vec<&str> = Family::ALL
        .iter()
        .filter(|f| f.def().forms.iter().any(|w| w.name == form))
        .map(|f| f.def().noun)
        .collect();
    let family = instance.family();
    let Some(writer) = family.def().forms.iter().find(|w| w.name == form) else {
        return Err(UsageError(format!(
            "{shown}: --to {form} writes {}, and this is {}",
            writers.join(" or "),
            family.noun()
        )));
    };
    (writer.write)(&instance, &args.alg).map_err(|why| UsageError(format!("{shown}: {why}")))
}
