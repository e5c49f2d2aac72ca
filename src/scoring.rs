//! Named partial-credit rules, set per exercise in the problem set.

use serde::{Deserialize, Serialize};

/// How a set answer (pruned nodes, solvable nodes, connectors) scores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SetRule {
    /// Each correct item +1/n, each wrong item −1/n (n = items in the key), floor 0.
    #[default]
    Penalty,
    /// Each correct item +1/n; wrong items cost nothing.
    Hits,
    /// Full points for exactly the key's set, else 0.
    AllOrNothing,
}

/// How an ordered answer (leaf order, AO* expansion order) scores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OrderRule {
    /// Longest common subsequence with the key, over the longer of the two.
    #[default]
    Lcs,
    /// Full points for exactly the key's sequence, else 0.
    Exact,
}

/// The rules of one exercise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scoring {
    /// Set answers.
    pub sets: SetRule,
    /// Ordered answers.
    pub orders: OrderRule,
    /// Numbers within this distance of the key count as right.
    pub tolerance: u64,
}

impl SetRule {
    /// The name used in problem sets.
    pub fn parse(name: &str) -> Option<SetRule> {
        match name {
            "penalty" => Some(SetRule::Penalty),
            "hits" => Some(SetRule::Hits),
            "all-or-nothing" => Some(SetRule::AllOrNothing),
            _ => None,
        }
    }
}

impl OrderRule {
    /// The name used in problem sets.
    pub fn parse(name: &str) -> Option<OrderRule> {
        match name {
            "lcs" => Some(OrderRule::Lcs),
            "exact" => Some(OrderRule::Exact),
            _ => None,
        }
    }
}

/// The fraction earned by a set answer with `hits` correct and `wrong` wrong items against `n` key items.
pub fn set_fraction(rule: SetRule, n: usize, hits: usize, wrong: usize) -> f64 {
    if n == 0 {
        return if wrong == 0 { 1.0 } else { 0.0 };
    }
    match rule {
        SetRule::Penalty => ((hits as f64 - wrong as f64) / n as f64).max(0.0),
        SetRule::Hits => hits as f64 / n as f64,
        SetRule::AllOrNothing => f64::from(u8::from(hits == n && wrong == 0)),
    }
}

/// Length of the longest common subsequence.
pub fn lcs<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    let mut row = vec![0usize; b.len() + 1];
    for x in a {
        let mut diagonal = 0;
        for (j, y) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = if x == y {
                diagonal + 1
            } else {
                row[j + 1].max(row[j])
            };
            diagonal = up;
        }
    }
    row[b.len()]
}

/// The fraction earned by an ordered answer.
pub fn order_fraction<T: PartialEq>(rule: OrderRule, key: &[T], given: &[T]) -> f64 {
    if key.is_empty() && given.is_empty() {
        return 1.0;
    }
    match rule {
        OrderRule::Exact => f64::from(u8::from(key == given)),
        OrderRule::Lcs => lcs(key, given) as f64 / key.len().max(given.len()) as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_rules_score_as_documented() {
        assert_eq!(set_fraction(SetRule::Penalty, 4, 3, 1), 0.5);
        assert_eq!(set_fraction(SetRule::Penalty, 2, 0, 3), 0.0);
        assert_eq!(set_fraction(SetRule::Hits, 4, 3, 1), 0.75);
        assert_eq!(set_fraction(SetRule::AllOrNothing, 2, 2, 0), 1.0);
        assert_eq!(set_fraction(SetRule::AllOrNothing, 2, 2, 1), 0.0);
        assert_eq!(set_fraction(SetRule::Penalty, 0, 0, 0), 1.0);
        assert_eq!(set_fraction(SetRule::Penalty, 0, 0, 1), 0.0);
    }

    #[test]
    fn orders_score_by_longest_common_subsequence() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(lcs(&s(&["E", "F", "G", "H"]), &s(&["E", "G", "H"])), 3);
        assert_eq!(
            order_fraction(
                OrderRule::Lcs,
                &s(&["E", "F", "G", "H"]),
                &s(&["E", "G", "H"])
            ),
            0.75
        );
        assert_eq!(
            order_fraction(OrderRule::Lcs, &s(&["E", "F"]), &s(&["E", "F", "X", "Y"])),
            0.5
        );
        assert_eq!(
            order_fraction(OrderRule::Exact, &s(&["E", "F"]), &s(&["F", "E"])),
            0.0
        );
    }
}
