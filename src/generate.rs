//! What every generator shares: the error type, the size limit, the retry loop.

use crate::rng::Rng;

/// Most nodes a generator may be asked for; checked before anything is allocated.
pub const MAX_GENERATED_NODES: u64 = 2_000_000;
/// Attempts before an unsatisfiable constraint is reported.
pub const MAX_ATTEMPTS: u32 = 10_000;
/// Nodes drawn over all attempts before giving up: large instances get fewer attempts.
pub const MAX_WORK: usize = 5_000_000;

/// Why no instance was generated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// The parameters themselves are impossible.
    #[error("{0}")]
    Invalid(String),
    /// No instance met the constraints within [`MAX_ATTEMPTS`] attempts.
    #[error(
        "no {what} with {constraint} was found in {attempts} attempts; relax the constraint, or {}",
        advice(what)
    )]
    Unsatisfied {
        /// "tree", "graph" or "position".
        what: &'static str,
        /// The constraint last unmet, as the user would write it.
        constraint: String,
        /// How many instances were tried.
        attempts: u32,
    },
}

impl GenerateError {
    /// What went wrong, without the advice.
    pub fn what(&self) -> String {
        match self {
            GenerateError::Invalid(m) => m.clone(),
            GenerateError::Unsatisfied {
                what,
                constraint,
                attempts,
            } => format!("no {what} with {constraint} was found in {attempts} attempts"),
        }
    }

    /// How to fix it.
    pub fn fix(&self) -> String {
        match self {
            GenerateError::Invalid(_) => "change the exercise's parameters".to_string(),
            GenerateError::Unsatisfied { what, .. } => {
                format!("relax the constraint, or {}", advice(what))
            }
        }
    }
}

/// How to make a constraint easier to meet, for what is generated.
fn advice(what: &str) -> String {
    if what == "position" {
        "change the number of marks or plies, or the depth of the search".to_string()
    } else if what == "exercise" {
        "change the generator's keys so that the kind's measures reach it (docs/generators.md)"
            .to_string()
    } else {
        format!("make the {what} deeper or wider")
    }
}

/// `n nodes`, or a plain "more than 10^19 nodes" once the count saturated.
pub fn count_nodes(n: u64) -> String {
    if n == u64::MAX {
        "more than 10^19 nodes".to_string()
    } else {
        format!("up to {n} nodes")
    }
}

/// Draws instances from one seeded stream until one meets every constraint
/// (`unmet` returns the first unmet one, with its stage: 0 for the shape a
/// draw must have, such as the node range, 1 for a constraint on the drawn
/// instance), at most [`MAX_ATTEMPTS`] times and at most [`MAX_WORK`] nodes in
/// all (`size` counts a candidate's nodes). Unmet, the error names the last
/// constraint of the furthest stage reached: the one to relax, not the node
/// range most candidates missed on the way. One stream for all attempts: the
/// result depends only on the seed and parameters.
pub fn first_satisfying<T, Why: std::fmt::Display>(
    what: &'static str,
    seed: u64,
    mut draw: impl FnMut(&mut Rng) -> T,
    size: impl Fn(&T) -> usize,
    mut unmet: impl FnMut(&T) -> Option<(u8, Why)>,
) -> Result<T, GenerateError> {
    let mut rng = Rng::from_seed(seed);
    // Said in words only if every draw fails: a rejection costs no message.
    let mut last: Option<(u8, Why)> = None;
    let mut work = 0usize;
    let mut attempts = 0;
    while attempts < MAX_ATTEMPTS && work < MAX_WORK {
        let candidate = draw(&mut rng);
        attempts += 1;
        work += size(&candidate);
        match unmet(&candidate) {
            None => return Ok(candidate),
            Some(found) if last.as_ref().is_none_or(|l| found.0 >= l.0) => last = Some(found),
            Some(_) => {}
        }
    }
    Err(GenerateError::Unsatisfied {
        what,
        constraint: last.map_or_else(String::new, |(_, why)| why.to_string()),
        attempts,
    })
}
