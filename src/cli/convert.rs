//! `treequiz convert FILE --to FORM`: an instance in another form, so that a
//! teacher can run students' programs on treequiz's exercises (a game tree as
//! a Python nested list or a CS188 test, an Othello position on one line)
//! and bring such files in (`solve` and problem sets read them too).

use std::path::PathBuf;

use treequiz::instance::{self, Instance};

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
    let tree = || match &instance {
        Instance::GameTree(t) => Ok(t),
        Instance::BudgetTree(_) => Err(UsageError(format!(
            "{shown}: a game tree searched under a node budget; Python nested lists and CS188 tests have no place for its estimates and budget, so --to python and --to cs188 would drop them: write it with --to toml or --to json"
        ))),
        other => Err(UsageError(format!(
            "{shown}: --to python and --to cs188 write game trees, and this is {}",
            other.family().noun()
        ))),
    };
    // A chance tree has its own Python and CS188 forms (`ExpectimaxAgent`).
    if let Instance::Chance(c) = &instance {
        match args.to {
            Form::Python => {
                return treequiz::chance::file::write_python(c).ok_or_else(|| {
                    UsageError(format!(
                        "{shown}: a Python nested list holds a chance tree of MAX and uniform chance levels only; write this one with --to toml"
                    ))
                });
            }
            Form::Cs188 => {
                return treequiz::chance::file::write_cs188(c)
                    .map_err(|why| UsageError(format!("{shown}: {why}")));
            }
            _ => {}
        }
    }
    match args.to {
        Form::Toml => Ok(instance.to_toml()),
        Form::Json => Ok(instance.to_json()),
        Form::Python => treequiz::gametree::pylist::write(tree()?).ok_or_else(|| {
            UsageError(format!(
                "{shown}: the root is MIN, and a Python nested list's root is MAX; write it with --to toml"
            ))
        }),
        Form::Cs188 => treequiz::gametree::cs188::write(tree()?, &args.alg)
            .map_err(|why| UsageError(format!("{shown}: {why}"))),
        Form::Board => match &instance {
            Instance::Othello(g) => Ok(format!("{} {}\n", g.board.line(), match g.to_move {
                treequiz::games::othello::Side::Black => 'X',
                treequiz::games::othello::Side::White => 'O',
            })),
            other => Err(UsageError(format!(
                "{shown}: --to board writes Othello positions, and this is {}",
                other.family().noun()
            ))),
        },
    }
}
