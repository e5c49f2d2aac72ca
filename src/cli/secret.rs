//! `treequiz secret`: a fresh exam secret; and reading a secret file.

use std::path::Path;

use treequiz::rng::Master;

use super::UsageError;

pub(crate) fn run() -> Result<String, UsageError> {
    let secret = treequiz::rng::fresh_secret().map_err(UsageError)?;
    Ok(format!("{secret}\n"))
}

/// Most bytes a secret file may have: 64 hex digits and a little whitespace.
const MAX_SECRET_BYTES: u64 = 64 * 1024;

/// The master of the secret file at `path` (`--secret FILE`). Errors name the
/// file and the place, never the secret's text (see [`Master::from_secret_bytes`]).
pub(crate) fn load(path: &Path) -> Result<Master, UsageError> {
    let shown = path.display();
    let bytes = treequiz::input::read_capped(path, MAX_SECRET_BYTES).map_err(|e| {
        UsageError(format!(
            "{shown}: cannot read the secret file: {e}\n  = hint: give the file `treequiz secret > exam.secret` wrote"
        ))
    })?;
    Master::from_secret_bytes(&bytes).map_err(|m| UsageError(format!("{shown}: {m}")))
}
