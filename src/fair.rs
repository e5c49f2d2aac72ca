//! Exercises that make their point, and variants that weigh the same.
//!
//! A generated exercise is drawn again (from seeds derived from its own)
//! until its key meets every [`Limit`]: what makes the kind's point
//! ([`KindDef::point`]: an alpha-beta exercise has a cut), the teacher's
//! ranges (`evaluated = "14..18"`), and, unless `even = false`, a band around
//! the set's typical variant for the kind's work (its first measure). The
//! typical variant comes from a pilot draw that depends on the set and its
//! secret or seed only, never on the roster: adding a student changes no one
//! else's sheet. docs/generators.md states the rules.

use crate::exercise::{Conventions, Key, KindDef, Limit};
use crate::generate::GenerateError;
use crate::instance::{Instance, Params};
use crate::problem_set::{Exercise, InstanceSource, ProblemSet};
use crate::rng::Master;

/// Draws of one exercise for one variant before its limits are called unmet.
pub const ATTEMPTS: u64 = 200;
/// Variants drawn to find the typical one.
pub const PILOT: u64 = 25;
/// The band around the typical work: ± this percentage of the median (at least ± 1).
pub const BAND_PERCENT: u64 = 20;

/// The band each exercise's work keeps to (`None`: fixed, uneven or bounded by the teacher).
#[derive(Clone, Debug, Default)]
pub struct Plan {
    bands: Vec<Option<Limit>>,
}

impl Plan {
    /// Finds each generated exercise's typical work from a pilot draw.
    pub fn new(set: &ProblemSet, master: &Master) -> Result<Plan, (usize, GenerateError)> {
        let ctx = format!("treequiz/pilot\0{}", set.title);
        let bands = set
            .exercises
            .iter()
            .enumerate()
            .map(|(i, exercise)| {
                let Some(params) = banded(exercise) else {
                    return Ok(None);
                };
                let work = exercise.kind.measures[0];
                let mut works = (0..PILOT)
                    .map(|k| {
                        let seed = master.derive(&ctx, (i as u64) << 32 | k);
                        draw(exercise, params, seed, &set.conventions, None)
                            .map(|d| d.measures[0].1)
                    })
                    .collect::<Result<Vec<u64>, _>>()
                    .map_err(|e| (i, e))?;
                works.sort_unstable();
                let median = works[works.len() / 2];
                let d = (median * BAND_PERCENT / 100).max(1);
                Ok(Some(Limit {
                    measure: work,
                    lo: median.saturating_sub(d),
                    hi: median + d,
                }))
            })
            .collect::<Result<_, _>>()?;
        Ok(Plan { bands })
    }

    /// The band of exercise `i` (0-based).
    pub fn band(&self, i: usize) -> Option<Limit> {
        self.bands.get(i).copied().flatten()
    }

    /// The plan as text, to be read back by [`Plan::read`]: each exercise's
    /// band as `lo..hi`, or `-`, separated by spaces. The practice page
    /// carries its built-in set's plan so as not to run the pilot again.
    pub fn to_text(&self) -> String {
        let band = |b: &Option<Limit>| b.map_or("-".to_string(), |l| format!("{}..{}", l.lo, l.hi));
        self.bands.iter().map(band).collect::<Vec<_>>().join(" ")
    }

    /// A plan written by [`Plan::to_text`] for `set`; `None` when the text
    /// does not fit the set (another set, or one edited since), so that the
    /// caller makes the plan anew rather than draw other variants.
    pub fn read(set: &ProblemSet, text: &str) -> Option<Plan> {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.len() != set.exercises.len() {
            return None;
        }
        let bands = set
            .exercises
            .iter()
            .zip(words)
            .map(|(exercise, word)| match (banded(exercise), word) {
                (None, "-") => Some(None),
                (Some(_), band) => {
                    let (lo, hi) = band.split_once("..")?;
                    let (lo, hi) = (lo.parse().ok()?, hi.parse().ok()?);
                    (lo <= hi).then_some(Some(Limit {
                        measure: exercise.kind.measures[0],
                        lo,
                        hi,
                    }))
                }
                (None, _) => None,
            })
            .collect::<Option<_>>()?;
        Some(Plan { bands })
    }
}

/// The generator's parameters of an exercise the pilot finds a band for: a
/// generated one, kept even, whose work the teacher has not bounded.
fn banded(exercise: &Exercise) -> Option<&Params> {
    let InstanceSource::Generated(params) = &exercise.source else {
        return None;
    };
    let work = exercise.kind.measures[0];
    let bounded = exercise.limits.iter().any(|l| l.measure == work);
    (exercise.even && !bounded).then_some(params)
}

/// One drawn exercise: its instance, key and measures.
pub struct Drawn {
    /// The seed its family generator was given (`sample` with it gives the instance).
    pub seed: u64,
    /// The instance.
    pub instance: Instance,
    /// Its key.
    pub key: Key,
    /// The kind's measures of it, by name.
    pub measures: Vec<(&'static str, u64)>,
}

/// Every limit an exercise's variants meet: the kind's point, the teacher's
/// ranges, and the band.
pub fn limits(exercise: &Exercise, band: Option<Limit>) -> Vec<Limit> {
    let mut out = (exercise.kind.point)(&exercise.ask);
    out.extend(&exercise.limits);
    out.extend(band);
    out
}

/// The first of the seeds derived from `seed` whose instance meets every
/// limit; attempt 0 is `seed` itself. Unmet, the error names the limit
/// missed most often.
pub fn draw(
    exercise: &Exercise,
    params: &Params,
    seed: u64,
    conventions: &Conventions,
    band: Option<Limit>,
) -> Result<Drawn, GenerateError> {
    let limits = limits(exercise, band);
    let mut missed = vec![0u32; limits.len()];
    let mut unusable = None;
    for attempt in 0..ATTEMPTS {
        let s = attempt_seed(seed, attempt);
        let instance = params.generate(s, conventions.alpha_beta)?;
        // A kind solves only what it can use: the set's reader gives each
        // kind its own horizon, so this never fires; if it did, an error
        // rather than a solver handed an instance it cannot read.
        if let Some(why) = (exercise.kind.unusable)(&instance) {
            unusable = Some(why);
            continue;
        }
        let key = (exercise.kind.solve)(&instance, conventions);
        let measures = exercise.kind.measures_of(&instance, &key, conventions);
        let unmet: Vec<usize> = (0..limits.len())
            .filter(|&j| !holds(&measures, limits[j]))
            .collect();
        if unmet.is_empty() {
            return Ok(Drawn {
                seed: s,
                instance,
                key,
                measures,
            });
        }
        for j in unmet {
            missed[j] += 1;
        }
    }
    let worst = (0..limits.len())
        .filter(|&j| missed[j] > 0)
        .max_by_key(|&j| (missed[j], std::cmp::Reverse(j)));
    let Some(worst) = worst else {
        let why = unusable.unwrap_or_default();
        return Err(GenerateError::Invalid(format!(
            "no generated instance can be used for {}: {why}",
            exercise.kind.name
        )));
    };
    Err(GenerateError::Unsatisfied {
        what: "exercise",
        constraint: format!("{} (missed by {} of them)", limits[worst], missed[worst]),
        attempts: ATTEMPTS as u32,
    })
}

/// Whether the measures meet `limit`; a limit on a measure they lack is
/// never met (exercise::check holds a kind's limits to its measures).
fn holds(measures: &[(&str, u64)], limit: Limit) -> bool {
    measures
        .iter()
        .find(|(name, _)| *name == limit.measure.name())
        .is_some_and(|&(_, v)| limit.holds(v))
}

/// Seed of attempt `k`: `seed` itself first, then SplitMix64 steps from it.
fn attempt_seed(seed: u64, k: u64) -> u64 {
    if k == 0 {
        return seed;
    }
    let mut z = seed.wrapping_add(k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The measures of every variant's exercises, as `generate` collects them.
pub struct Row {
    /// The variant's id.
    pub id: String,
    /// Per exercise, its measures.
    pub exercises: Vec<Vec<(&'static str, u64)>>,
}

/// The variant report: per generated exercise, each measure's spread over
/// the class and the variants far from the rest, then one line on how even
/// the set is. Markdown, in the set's language.
pub fn report(set: &ProblemSet, plan: &Plan, rows: &[Row], lang: &crate::lang::Lang) -> String {
    let mut out = format!(
        "# {}\n\n",
        lang.fill("variants.title", &[("title", &set.title)])
    );
    out += &lang.fill("variants.intro", &[("n", &rows.len().to_string())]);
    out += "\n\n";
    // The largest spread of work, in percent of its median: (spread, question, measure, least, median, most).
    let mut widest: Option<(u64, usize, &str, u64, u64, u64)> = None;
    for (i, exercise) in set.exercises.iter().enumerate() {
        let kind: &KindDef = exercise.kind;
        out += &format!(
            "## {}\n\n",
            lang.fill(
                "variants.question",
                &[("number", &(i + 1).to_string()), ("kind", kind.name)]
            )
        );
        if !matches!(exercise.source, InstanceSource::Generated(_)) {
            out += lang.get("variants.fixed");
            out += "\n\n";
            continue;
        }
        let limits = limits(exercise, plan.band(i));
        if !limits.is_empty() {
            let list: Vec<String> = limits.iter().map(|l| format!("`{l}`")).collect();
            out += &lang.fill("variants.limits", &[("limits", &list.join(", "))]);
            out += "\n\n";
        }
        out += &format!(
            "| {} | {} | {} | {} | {} |\n|---|---|---|---|---|\n",
            lang.get("variants.measure"),
            lang.get("variants.min"),
            lang.get("variants.median"),
            lang.get("variants.max"),
            lang.get("variants.outliers")
        );
        for (m, &name) in kind.measures.iter().enumerate() {
            let mut values: Vec<(u64, &str)> = rows
                .iter()
                .filter_map(|r| {
                    r.exercises
                        .get(i)
                        .and_then(|e| e.get(m))
                        .map(|v| (v.1, r.id.as_str()))
                })
                .collect();
            if values.is_empty() {
                continue;
            }
            values.sort_unstable();
            let at = |q: usize| values[(values.len() - 1) * q / 4].0;
            let (q1, median, q3) = (at(1), at(2), at(3));
            // Tukey's fences, at least 2 from the quartiles (most measures are small counts).
            let fence = ((q3 - q1) * 3 / 2).max(2);
            let (lo, hi) = (q1.saturating_sub(fence), q3 + fence);
            let outliers: Vec<String> = values
                .iter()
                .filter(|(v, _)| *v < lo || *v > hi)
                .map(|(v, id)| format!("{id} ({v})"))
                .collect();
            let (least, most) = (values[0].0, values[values.len() - 1].0);
            if m == 0 && median > 0 {
                let spread = (most - least) * 100 / median;
                if widest.is_none_or(|w| spread > w.0) {
                    widest = Some((spread, i + 1, name.name(), least, median, most));
                }
            }
            out += &format!(
                "| `{name}` | {} | {median} | {} | {} |\n",
                values[0].0,
                values[values.len() - 1].0,
                if outliers.is_empty() {
                    "—".to_string()
                } else {
                    outliers.join(", ")
                }
            );
        }
        out += "\n";
    }
    out += &match widest {
        Some((spread, number, measure, least, median, most)) => lang.fill(
            "variants.evenness",
            &[
                ("spread", &spread.to_string()),
                ("number", &number.to_string()),
                ("measure", measure),
                ("least", &least.to_string()),
                ("median", &median.to_string()),
                ("most", &most.to_string()),
            ],
        ),
        None => lang.get("variants.all_fixed").to_string(),
    };
    out += "\n";
    out
}

/// The report's last line, for `generate` to print.
pub fn evenness(report: &str) -> &str {
    report.trim_end().lines().last().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Source;

    fn set(text: &str) -> ProblemSet {
        let source = Source {
            path: "set.toml".into(),
            text: text.to_string(),
        };
        crate::problem_set::parse(&source, std::path::Path::new("")).expect("a set")
    }

    const SET: &str = "title = \"t\"\nseed = 7\n\n\
        [[exercise]]\nkind = \"minimax\"\npoints = 1\n\n\
        [[exercise]]\nkind = \"alpha-beta\"\npoints = 1\neven = false\n";

    /// The practice page carries a plan as text: read back, it gives the
    /// same bands, so the page draws the variants `generate` draws.
    #[test]
    fn a_plan_read_back_from_its_text_is_the_same_plan() {
        let set = set(SET);
        let plan = Plan::new(&set, &Master::from_seed(set.seed)).expect("a plan");
        let text = plan.to_text();
        assert!(plan.band(0).is_some() && plan.band(1).is_none(), "{text}");
        assert!(text.ends_with(" -"), "{text}");
        let read = Plan::read(&set, &text).expect("its own text");
        assert_eq!(read.to_text(), text);
        assert_eq!(read.band(0), plan.band(0));
    }

    /// A plan that does not fit the set is refused (the page then runs the
    /// pilot), never read as some other plan.
    #[test]
    fn a_plan_that_does_not_fit_the_set_is_refused() {
        let set = set(SET);
        for text in [
            "",
            "3..5",
            "- -",
            "3..5 3..5",
            "5..3 -",
            "3..x -",
            "3..5 - -",
        ] {
            assert!(Plan::read(&set, text).is_none(), "{text:?}");
        }
        assert!(Plan::read(&set, "3..5 -").is_some());
    }
}
