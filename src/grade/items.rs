//! Item analysis: how each question and field of a test behaved across the
//! class (the statistics of Moodle's quiz statistics report), and how each
//! generator measure of a question's variants goes with its mark.
//!
//! The formulas are Moodle's: per item `question/classes/statistics/questions/calculator.php`,
//! for the whole test `mod/quiz/report/statistics/classes/calculator.php`
//! (moodle/moodle; <https://docs.moodle.org/dev/Quiz_statistics_calculations>).
//! Marks come in hundredths of a point, as printed, so that equal marks are
//! exactly equal and a constant item has exactly no variance.

use std::collections::BTreeMap;

use super::batch::Row;
use super::key::KeyBook;

/// Each question's generator measures in one row's variant, by question
/// number; empty when the row was not graded or its variant is unknown.
pub type Measures = BTreeMap<usize, Vec<(&'static str, u64)>>;

/// The measures of every graded row's variant, parallel to `rows`.
pub fn measures(book: &KeyBook, rows: &[Row]) -> Vec<Measures> {
    rows.iter()
        .map(|r| {
            let variant = (r.status == super::batch::Status::Graded)
                .then_some(r.variant.as_deref())
                .flatten()
                .and_then(|id| book.variant_for(id, r.student.as_deref()));
            variant.map(|v| v.measures.clone()).unwrap_or_default()
        })
        .collect()
}

fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

/// Σ(x − x̄)(y − ȳ) / (n − 1); `None` under two values.
fn covariance(x: &[f64], y: &[f64]) -> Option<f64> {
    let n = x.len().min(y.len());
    if n < 2 {
        return None;
    }
    let (mx, my) = (mean(&x[..n]), mean(&y[..n]));
    Some(
        x.iter()
            .zip(y)
            .map(|(a, b)| (a - mx) * (b - my))
            .sum::<f64>()
            / (n - 1) as f64,
    )
}

/// Whether every value is the same (exactly: marks are whole hundredths).
fn constant(x: &[f64]) -> bool {
    x.windows(2).all(|w| w[0] == w[1])
}

/// Pearson's correlation of `x` and `y` (paired); `None` under two pairs or
/// when either is constant.
pub fn pearson(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.len() != y.len() || x.len() < 2 || constant(x) || constant(y) {
        return None;
    }
    let r = covariance(x, y)? / (covariance(x, x)? * covariance(y, y)?).sqrt();
    // Rounding may carry a perfect correlation a hair past ±1.
    Some(r.clamp(-1.0, 1.0)).filter(|r| r.is_finite())
}

/// One item's statistics, each in % (as Moodle shows them); `None` where
/// Moodle's is null.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ItemStats {
    /// Facility index: mean mark / max mark.
    pub facility: Option<f64>,
    /// Sample standard deviation of the marks (n − 1), as % of the max.
    pub sd: Option<f64>,
    /// Discrimination index: 100 × Pearson(item mark, rest of the test).
    pub discrimination: Option<f64>,
    /// Discriminative efficiency: 100 × Cov(item, rest) / the largest
    /// covariance these marks allow (both sorted and paired by rank).
    pub efficiency: Option<f64>,
}

impl ItemStats {
    /// The statistics of an item worth `max` whose marks are `marks`, each
    /// of a test whose total is the same row's entry of `totals` (both in
    /// points; the rest of the test is total − mark).
    pub fn of(marks: &[f64], totals: &[f64], max: f64) -> ItemStats {
        let x: Vec<f64> = marks.iter().map(|&m| hundredths(m)).collect();
        let y: Vec<f64> = totals
            .iter()
            .zip(&x)
            .map(|(&t, &m)| hundredths(t) - m)
            .collect();
        let max = hundredths(max);
        let facility = (!x.is_empty() && max > 0.0).then(|| 100.0 * mean(&x) / max);
        let sd = covariance(&x, &x)
            .filter(|_| max > 0.0)
            .map(|v| 100.0 * v.sqrt() / max);
        let discrimination = pearson(&x, &y).map(|r| 100.0 * r);
        let efficiency = discrimination.and_then(|_| {
            let (mut xs, mut ys) = (x.clone(), y.clone());
            xs.sort_by(f64::total_cmp);
            ys.sort_by(f64::total_cmp);
            let most = covariance(&xs, &ys).filter(|&m| m > 0.0)?;
            Some(100.0 * covariance(&x, &y)? / most)
        });
        ItemStats {
            facility,
            sd,
            discrimination,
            efficiency,
        }
    }
}

/// Points as whole hundredths (exact in `f64`).
fn hundredths(points: f64) -> f64 {
    super::score::cents(points) as f64
}

/// Cronbach's α of a test whose items' marks are `items` (one list per item,
/// each parallel to the rows) and whose totals are their sums: Moodle's
/// coefficient of internal consistency / 100, p/(p − 1) · (1 − ΣVar(item) /
/// Var(total)). `None` under two items or three rows, or when the totals
/// do not vary.
pub fn cronbach_alpha(items: &[Vec<f64>]) -> Option<f64> {
    let p = items.len();
    let s = items.first()?.len();
    if p < 2 || s < 3 || items.iter().any(|i| i.len() != s) {
        return None;
    }
    let items: Vec<Vec<f64>> = items
        .iter()
        .map(|i| i.iter().map(|&m| hundredths(m)).collect())
        .collect();
    let totals: Vec<f64> = (0..s).map(|a| items.iter().map(|i| i[a]).sum()).collect();
    if constant(&totals) {
        return None;
    }
    let sum: f64 = items
        .iter()
        .map(|i| covariance(i, i))
        .sum::<Option<f64>>()?;
    let alpha = p as f64 / (p - 1) as f64 * (1.0 - sum / covariance(&totals, &totals)?);
    alpha.is_finite().then_some(alpha)
}

/// Mean and sample standard deviation (`None` under two values).
pub fn mean_sd(x: &[f64]) -> Option<(f64, Option<f64>)> {
    (!x.is_empty()).then(|| (mean(x), covariance(x, x).map(f64::sqrt)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Option<f64>, b: f64) -> bool {
        a.is_some_and(|a| (a - b).abs() < 1e-9)
    }

    // Four students, two questions worth 2 and 4 points:
    //
    // | student | q1 | q2 | total | rest of q1 (= q2) |
    // |---------|----|----|-------|-------------------|
    // | a       | 2  | 4  | 6     | 4                 |
    // | b       | 2  | 2  | 4     | 2                 |
    // | c       | 0  | 3  | 3     | 3                 |
    // | d       | 0  | 1  | 1     | 1                 |
    //
    // q1: mean 1, F = 1/2 = 50 %; Σ(x − x̄)² = 4, Var = 4/3, SD = 1.1547 =
    // 57.735 % of 2. Rest ȳ = 2.5; Σ(x − x̄)(y − ȳ) = 1·1.5 + 1·(−0.5) +
    // (−1)·0.5 + (−1)·(−1.5) = 2, Cov = 2/3; Σ(y − ȳ)² = 2.25 + 0.25 + 0.25
    // + 2.25 = 5, Var = 5/3; DI = 100 · (2/3) / √(4/3 · 5/3) = 200/√20 =
    // 44.721 %. Sorted and paired by rank, (0,1) (0,2) (2,3) (2,4):
    // Σ = 1.5 + 0.5 + 0.5 + 1.5 = 4, CovMax = 4/3, DE = (2/3)/(4/3) = 50 %.
    // q2: mean 2.5, F = 62.5 %; Σ(x − x̄)² = 5, SD = √(5/3) = 1.291 =
    // 32.275 % of 4; its rest is q1, so the same Cov, DI and DE.
    // α: p = 2, ΣVar = 4/3 + 5/3 = 3; totals 6 4 3 1, mean 3.5, Σ(d)² =
    // 6.25 + 0.25 + 0.25 + 6.25 = 13, Var = 13/3; α = 2 · (1 − 3/(13/3))
    // = 8/13 = 0.615.
    #[test]
    fn statistics_match_a_hand_computed_class() {
        let q1 = [2.0, 2.0, 0.0, 0.0];
        let q2 = [4.0, 2.0, 3.0, 1.0];
        let totals = [6.0, 4.0, 3.0, 1.0];
        let s1 = ItemStats::of(&q1, &totals, 2.0);
        assert!(close(s1.facility, 50.0), "{s1:?}");
        assert!(close(s1.sd, 100.0 * (4.0f64 / 3.0).sqrt() / 2.0), "{s1:?}");
        assert!(close(s1.discrimination, 200.0 / 20f64.sqrt()), "{s1:?}");
        assert!(close(s1.efficiency, 50.0), "{s1:?}");
        let s2 = ItemStats::of(&q2, &totals, 4.0);
        assert!(close(s2.facility, 62.5), "{s2:?}");
        assert!(close(s2.sd, 100.0 * (5.0f64 / 3.0).sqrt() / 4.0), "{s2:?}");
        assert!(close(s2.discrimination, 200.0 / 20f64.sqrt()), "{s2:?}");
        assert!(close(s2.efficiency, 50.0), "{s2:?}");
        assert!(close(
            cronbach_alpha(&[q1.to_vec(), q2.to_vec()]),
            8.0 / 13.0
        ));
    }

    #[test]
    fn a_constant_item_has_no_discrimination() {
        let s = ItemStats::of(&[1.0, 1.0, 1.0], &[3.0, 2.0, 1.0], 1.0);
        assert_eq!((s.facility, s.sd), (Some(100.0), Some(0.0)));
        assert_eq!((s.discrimination, s.efficiency), (None, None));
        // A rest of the test that does not vary: no discrimination either.
        let s = ItemStats::of(&[1.0, 0.0], &[3.0, 2.0], 1.0);
        assert_eq!(s.discrimination, None);
        // One row: no spread, no correlation.
        let s = ItemStats::of(&[1.0], &[3.0], 2.0);
        assert_eq!(
            (s.facility, s.sd, s.discrimination),
            (Some(50.0), None, None)
        );
        // Nothing at all, or an item worth nothing.
        assert_eq!(ItemStats::of(&[], &[], 2.0).facility, None);
        assert_eq!(ItemStats::of(&[0.0, 0.0], &[1.0, 2.0], 0.0).sd, None);
        assert_eq!(cronbach_alpha(&[vec![1.0; 4], vec![2.0; 4]]), None);
        assert_eq!(cronbach_alpha(&[vec![1.0, 2.0, 3.0]]), None);
    }

    /// Hundredths that add up in floating point to a hair off (7.33 − 3.33)
    /// are still one mark: no spurious correlation.
    #[test]
    fn marks_are_compared_in_hundredths() {
        let s = ItemStats::of(&[3.33, 4.33, 2.1], &[7.33, 8.33, 6.1], 5.0);
        assert_eq!(s.discrimination, None);
    }
}
