//! What can be counted of a solved exercise, and ranges it must lie in.

/// Something counted of a solved exercise (docs/generators.md), which a
/// problem set may bound by its name (`cuts = "1..3"`). A kind declares its
/// own ([`KindDef::measures`](super::KindDef::measures)) and names them in
/// its limits through the same constants; [`check`](super::check) holds
/// every limit a kind sets to a measure it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Measure(&'static str);

impl Measure {
    /// A measure called `name`: the key a problem set bounds it with.
    pub const fn new(name: &'static str) -> Measure {
        Measure(name)
    }

    /// Its name.
    pub const fn name(self) -> &'static str {
        self.0
    }
}

impl std::fmt::Display for Measure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

/// A range a measure must lie in, both ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// The measure.
    pub measure: Measure,
    /// The least value allowed.
    pub lo: u64,
    /// The largest value allowed.
    pub hi: u64,
}

impl Limit {
    /// `measure` at least `lo`.
    pub const fn at_least(measure: Measure, lo: u64) -> Limit {
        Limit {
            measure,
            lo,
            hi: u64::MAX,
        }
    }

    /// `measure` exactly `v` (a yes/no measure: 0 or 1).
    pub const fn exactly(measure: Measure, v: u64) -> Limit {
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
