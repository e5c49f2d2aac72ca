//! `treequiz templates export DIR`: the built-in templates, copied out for editing.

use std::path::PathBuf;

use super::UsageError;

#[derive(clap::Subcommand)]
pub(crate) enum Command {
    /// Copy the built-in templates and string tables into DIR, to edit and pass back with --templates DIR.
    Export {
        /// The folder to write into.
        dir: PathBuf,
        /// Overwrite templates in DIR that differ from the built-in ones.
        #[arg(long)]
        force: bool,
    },
}

pub(crate) fn run(command: &Command) -> Result<String, UsageError> {
    match command {
        Command::Export { dir, force } => super::listed(dir, treequiz::render::export(dir, *force)),
    }
}
