//! `treequiz secret`: a fresh exam secret.

use super::UsageError;

pub(crate) fn run() -> Result<String, UsageError> {
    let secret = treequiz::rng::fresh_secret().map_err(UsageError)?;
    Ok(format!("{secret}\n"))
}
