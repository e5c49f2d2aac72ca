//! Named alpha-beta conventions: each is the procedure a course's reference
//! uses, so a teacher picks a name instead of three options
//! (docs/conventions.md has each one's pseudocode).

use super::alpha_beta::{Options, Order, ValueMode};

/// A named set of [`Options`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// The Chinese course notes' rules: α/β of a node is the best value its
    /// children have backed up, cuts compare with the ancestors' α/β, equality
    /// prunes. The default.
    Textbook,
    /// Russell & Norvig's ALPHA-BETA-SEARCH: fail-soft, `v ≥ β` prunes, and
    /// the initial window counts.
    Aima,
    /// Berkeley CS188's pseudocode: fail-soft, only `v > β` prunes.
    Cs188,
    /// Knuth & Moore's F1: fail-hard, `m ≥ β` prunes, the initial window counts.
    KnuthMoore,
}

impl Preset {
    /// Every preset, the default first.
    pub const ALL: [Preset; 4] = [
        Preset::Textbook,
        Preset::Aima,
        Preset::Cs188,
        Preset::KnuthMoore,
    ];

    /// The name problem sets and `--conventions` use.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Textbook => "textbook",
            Preset::Aima => "aima",
            Preset::Cs188 => "cs188",
            Preset::KnuthMoore => "knuth-moore",
        }
    }

    /// The preset called `name`.
    pub fn from_name(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Every preset's name.
    pub fn names() -> Vec<&'static str> {
        Preset::ALL.iter().map(|p| p.name()).collect()
    }

    /// Where a teacher looks the procedure up.
    pub fn source(self) -> &'static str {
        match self {
            Preset::Textbook => "the course notes' rules: compare with the ancestors' α and β",
            Preset::Aima => "Russell & Norvig, AIMA, ALPHA-BETA-SEARCH",
            Preset::Cs188 => "Berkeley CS188's alpha-beta pseudocode",
            Preset::KnuthMoore => "Knuth & Moore 1975, procedure F1",
        }
    }

    /// Its options (children left to right).
    pub fn options(self) -> Options {
        let (values, prune_on_equal, initial_window_counts) = match self {
            Preset::Textbook => (ValueMode::FailSoft, true, false),
            Preset::Aima => (ValueMode::FailSoft, true, true),
            Preset::Cs188 => (ValueMode::FailSoft, false, true),
            Preset::KnuthMoore => (ValueMode::FailHard, true, true),
        };
        Options {
            order: Order::LeftToRight,
            prune_on_equal,
            values,
            initial_window_counts,
        }
    }

    /// The preset whose procedure `options` run (child order aside), if any.
    /// Under the strict rule the initial window cannot cause a cut (nothing
    /// is beyond ±∞), so that option does not tell presets apart there.
    pub fn of(options: Options) -> Option<Preset> {
        Preset::ALL
            .into_iter()
            .find(|p| differences(p.options(), options).is_empty())
    }

    /// The preset closest to `options`, with the options that differ from it
    /// (never empty: for options that are no preset's).
    pub fn nearest(options: Options) -> (Preset, Vec<Difference>) {
        Preset::ALL
            .into_iter()
            .map(|p| (p, differences(p.options(), options)))
            .min_by_key(|(_, d)| d.len())
            .expect("there are presets")
    }
}

/// An option in which some [`Options`] differ from a preset's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Difference {
    /// `prune_on_equal`, with the value the options have.
    PruneOnEqual(bool),
    /// `values`.
    Values(ValueMode),
    /// `initial_window_counts`.
    InitialWindowCounts(bool),
}

/// How `options` differ from `preset` in what the search does and reports.
fn differences(preset: Options, options: Options) -> Vec<Difference> {
    let mut out = Vec::new();
    if preset.prune_on_equal != options.prune_on_equal {
        out.push(Difference::PruneOnEqual(options.prune_on_equal));
    }
    if preset.values != options.values {
        out.push(Difference::Values(options.values));
    }
    if options.prune_on_equal && preset.initial_window_counts != options.initial_window_counts {
        out.push(Difference::InitialWindowCounts(
            options.initial_window_counts,
        ));
    }
    out
}

impl std::fmt::Display for Difference {
    /// As a problem set writes it: `values = "fail-hard"`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Difference::PruneOnEqual(b) => write!(f, "prune_on_equal = {b}"),
            Difference::Values(ValueMode::FailHard) => write!(f, "values = \"fail-hard\""),
            Difference::Values(ValueMode::FailSoft) => write!(f, "values = \"fail-soft\""),
            Difference::InitialWindowCounts(b) => write!(f, "initial_window_counts = {b}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_found_from_its_options_and_the_default_is_textbook() {
        for p in Preset::ALL {
            assert_eq!(Preset::of(p.options()), Some(p));
            assert_eq!(Preset::from_name(p.name()), Some(p));
        }
        assert_eq!(Preset::of(Options::default()), Some(Preset::Textbook));
    }

    #[test]
    fn the_textbook_rule_made_strict_is_cs188s_search() {
        let strict = Options {
            prune_on_equal: false,
            ..Options::default()
        };
        assert_eq!(Preset::of(strict), Some(Preset::Cs188));
        let hard = Options {
            values: ValueMode::FailHard,
            ..Options::default()
        };
        assert_eq!(Preset::of(hard), None);
        let (near, diff) = Preset::nearest(hard);
        assert_eq!(near, Preset::Textbook);
        assert_eq!(diff, [Difference::Values(ValueMode::FailHard)]);
    }
}
