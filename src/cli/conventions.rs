//! The alpha-beta conventions `solve` and `sample` take: a preset, then
//! options that override it, as a problem set's `[conventions]` does.

use treequiz::gametree::{self, Order, Preset, ValueMode};

use super::UsageError;

/// Whether `key` (`no_prune_on_equal`) is one of the flags below: `sample`
/// tells them from generator keys. Read off the definition, never a copy.
pub(crate) fn is_flag(key: &str) -> bool {
    use clap::Args as _;
    ConventionArgs::augment_args(clap::Command::new("conventions"))
        .get_arguments()
        .any(|a| a.get_id() == key)
}

#[derive(clap::Args)]
pub(crate) struct ConventionArgs {
    /// The alpha-beta preset: textbook, aima, cs188 or knuth-moore
    /// (docs/conventions.md); the options below override it.
    #[arg(long, value_name = "NAME", default_value = "textbook")]
    conventions: String,
    /// Child order for alpha-beta.
    #[arg(long, value_enum)]
    order: Option<OrderArg>,
    /// Prune only when the bounds cross strictly (`<` / `>`), not when equal.
    #[arg(long, conflicts_with = "prune_on_equal")]
    no_prune_on_equal: bool,
    /// Prune when the bounds are equal (`≤` / `≥`).
    #[arg(long)]
    prune_on_equal: bool,
    /// Fail-soft (F2): a node's value is the best its children back up.
    #[arg(long, conflicts_with = "fail_hard")]
    fail_soft: bool,
    /// Fail-hard (F1): a node's value starts at the bound in force.
    #[arg(long)]
    fail_hard: bool,
    /// The initial window (−∞, +∞) can cause a cut: a child of +∞ ends a MAX node's search.
    #[arg(long, conflicts_with = "no_initial_window_counts")]
    initial_window_counts: bool,
    /// Only bounds backed up by ancestors cause cuts.
    #[arg(long)]
    no_initial_window_counts: bool,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum OrderArg {
    /// Left to right.
    Ltr,
    /// Right to left.
    Rtl,
}

impl ConventionArgs {
    /// The preset's options with the flags given applied over them.
    pub(crate) fn options(&self) -> Result<gametree::Options, UsageError> {
        let preset = Preset::from_name(&self.conventions).ok_or_else(|| {
            UsageError(format!(
                "`{}` is not a preset; {}",
                self.conventions,
                treequiz::input::did_you_mean(
                    &self.conventions,
                    &Preset::names(),
                    "the presets are"
                )
            ))
        })?;
        let mut o = preset.options();
        if let Some(order) = self.order {
            o.order = match order {
                OrderArg::Ltr => Order::LeftToRight,
                OrderArg::Rtl => Order::RightToLeft,
            };
        }
        let flag = |on: bool, off: bool| (on || off).then_some(on);
        if let Some(b) = flag(self.prune_on_equal, self.no_prune_on_equal) {
            o.prune_on_equal = b;
        }
        if let Some(hard) = flag(self.fail_hard, self.fail_soft) {
            o.values = if hard {
                ValueMode::FailHard
            } else {
                ValueMode::FailSoft
            };
        }
        if let Some(b) = flag(self.initial_window_counts, self.no_initial_window_counts) {
            o.initial_window_counts = b;
        }
        Ok(o)
    }
}
