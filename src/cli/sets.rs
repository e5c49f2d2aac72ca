//! `treequiz sets export DIR`: the shipped problem sets, built in, so that an
//! installed treequiz (a wheel, `cargo install`) has them without a checkout.

use std::path::PathBuf;

use super::UsageError;

/// Every file of `problem-sets/`, by its path there (a test checks that none
/// is missing).
pub(crate) const SHIPPED: [(&str, &str); 9] = [
    ("demo.toml", include_str!("../../problem-sets/demo.toml")),
    (
        "game-tree-quiz.toml",
        include_str!("../../problem-sets/game-tree-quiz.toml"),
    ),
    (
        "and-or-quiz.toml",
        include_str!("../../problem-sets/and-or-quiz.toml"),
    ),
    ("games.toml", include_str!("../../problem-sets/games.toml")),
    (
        "midterm-zh.toml",
        include_str!("../../problem-sets/midterm-zh.toml"),
    ),
    (
        "textbook.toml",
        include_str!("../../problem-sets/textbook.toml"),
    ),
    (
        "instances/aima-fig-5-2.toml",
        include_str!("../../problem-sets/instances/aima-fig-5-2.toml"),
    ),
    (
        "instances/and-or-example.toml",
        include_str!("../../problem-sets/instances/and-or-example.toml"),
    ),
    (
        "instances/othello-opening.toml",
        include_str!("../../problem-sets/instances/othello-opening.toml"),
    ),
];

#[derive(clap::Subcommand)]
pub(crate) enum Command {
    /// Copy the shipped problem sets (and the instance files they read) into DIR, to generate from and edit.
    Export {
        /// The folder to write into (`problem-sets` makes the README's commands work as written).
        dir: PathBuf,
        /// Overwrite files in DIR that differ from the shipped ones.
        #[arg(long)]
        force: bool,
    },
}

pub(crate) fn run(command: &Command) -> Result<String, UsageError> {
    match command {
        Command::Export { dir, force } => super::listed(
            dir,
            treequiz::render::export_files(dir, &SHIPPED, *force, "the shipped problem sets"),
        ),
    }
}
