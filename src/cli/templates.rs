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
        Command::Export { dir, force } => {
            let written = treequiz::render::export(dir, *force)
                .map_err(|e| UsageError(format!("{}: {e}", dir.display())))?;
            let names: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
            Ok(format!("{}\n", names.join("\n")))
        }
    }
}
