//! Ranges a solved exercise's measures must lie in.

/// A range a measure must lie in, both ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// The measure's name.
    pub measure: &'static str,
    /// The least value allowed.
    pub lo: u64,
    /// The largest value allowed.
    pub hi: u64,
}

impl Limit {
    /// `measure` at least `lo`.
    pub const fn at_least(measure: &'static str, lo: u64) -> Limit {
        Limit {
            measure,
            lo,
            hi: u64::MAX,
        }
    }

    /// `measure` exactly `v` (a yes/no measure: 0 or 1).
    pub const fn exactly(measure: &'static str, v: u64) -> Limit {
        Limit {
            measure,
            lo: v,
            hi: v,
        }
    }

    /// Whether `value` lies in the range.
    pub fn holds(self, value: u64) -> bool {
        (self.lo..=self.hi).contains(&value)
    }
}

/// As a problem set writes it: `cuts >= 1`, `evaluated = 14..18`, `same_solution = 0`.
impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.lo, self.hi) {
            (lo, hi) if lo == hi => write!(f, "{} = {lo}", self.measure),
            (lo, u64::MAX) => write!(f, "{} >= {lo}", self.measure),
            (0, hi) => write!(f, "{} <= {hi}", self.measure),
            (lo, hi) => write!(f, "{} = {lo}..{hi}", self.measure),
        }
    }
}
