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

/// How a field's order earns partial credit, as its kind declares it on the
/// field (the exercise layer's `Field::order`); a set's `order_rule =
/// "exact"` overrides it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OrderScoring {
    /// Longest common subsequence with the key, over the longer of the two:
    /// a visit order with one node out of place loses about that node.
    #[default]
    Lcs,
    /// The longest correct prefix, over the longer of the two: for an order
    /// that is a path (a principal variation), where nothing after the first
    /// wrong step lies on it.
    Prefix,
}

/// What a recoverable slip costs: a statement TOML cannot read (a Chinese
/// quotation mark, a list without quotes) that treequiz rewrote so that it
/// reads. A slip with no rewrite always costs its field.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SlipRule {
    /// The rewritten answer scores as if it had been typed so.
    #[default]
    Accept,
    /// The rewritten answer scores, less this many percent of what it earns.
    Penalty(u8),
    /// The field earns nothing.
    Refuse,
}

/// What an α-cut listed as a β-cut (or the other way round) earns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SwapRule {
    /// Nothing: it is a wrong item of the one list and a missed one of the other.
    #[default]
    Wrong,
    /// Half a hit in the list it belongs to, and no wrong item in the other.
    Half,
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
    /// Recoverable slips (left out of manifests when the default, which
    /// manifests written before it existed mean).
    #[serde(default, skip_serializing_if = "is_default")]
    pub slips: SlipRule,
    /// Items put in the other of two paired lists (α- and β-cuts).
    #[serde(default, skip_serializing_if = "is_default")]
    pub swaps: SwapRule,
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

impl SlipRule {
    /// `accept`, `refuse`, `penalty=0.25` (the `grade --slips` spelling).
    pub fn parse(text: &str) -> Option<SlipRule> {
        match text {
            "accept" => Some(SlipRule::Accept),
            "refuse" => Some(SlipRule::Refuse),
            _ => {
                let f: f64 = text.strip_prefix("penalty=")?.trim().parse().ok()?;
                SlipRule::penalty(f)
            }
        }
    }

    /// A penalty of `fraction` (0 to 1, in hundredths) of what the answer earns.
    pub fn penalty(fraction: f64) -> Option<SlipRule> {
        let percent = (fraction * 100.0).round();
        ((0.0..=1.0).contains(&fraction) && (fraction * 100.0 - percent).abs() < 1e-6)
            .then_some(SlipRule::Penalty(percent as u8))
    }

    /// The share of a slipped answer's points that it keeps (`None`: refused).
    pub fn keeps(self) -> Option<f64> {
        match self {
            SlipRule::Accept => Some(1.0),
            SlipRule::Penalty(p) => Some(1.0 - f64::from(p) / 100.0),
            SlipRule::Refuse => None,
        }
    }
}

impl SwapRule {
    /// The name used in problem sets.
    pub fn parse(name: &str) -> Option<SwapRule> {
        match name {
            "wrong" => Some(SwapRule::Wrong),
            "half" => Some(SwapRule::Half),
            _ => None,
        }
    }
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
    set_fraction_with_halves(rule, n, hits, 0, wrong)
}

/// [`set_fraction`] where `halves` more items earn half a hit each (a
/// swapped cut under [`SwapRule::Half`]); all-or-nothing gives them nothing.
pub fn set_fraction_with_halves(
    rule: SetRule,
    n: usize,
    hits: usize,
    halves: usize,
    wrong: usize,
) -> f64 {
    if n == 0 {
        return if wrong == 0 { 1.0 } else { 0.0 };
    }
    let earned = hits as f64 + halves as f64 / 2.0;
    match rule {
        SetRule::Penalty => ((earned - wrong as f64) / n as f64).max(0.0),
        SetRule::Hits => earned / n as f64,
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

/// The fraction earned by an ordered answer to a field scored `own`, under
/// the set's `rule`.
pub fn order_fraction<T: PartialEq>(
    rule: OrderRule,
    own: OrderScoring,
    key: &[T],
    given: &[T],
) -> f64 {
    if key.is_empty() && given.is_empty() {
        return 1.0;
    }
    let longer = key.len().max(given.len()) as f64;
    match (rule, own) {
        (OrderRule::Exact, _) => f64::from(u8::from(key == given)),
        (OrderRule::Lcs, OrderScoring::Lcs) => lcs(key, given) as f64 / longer,
        (OrderRule::Lcs, OrderScoring::Prefix) => {
            key.iter().zip(given).take_while(|(k, g)| k == g).count() as f64 / longer
        }
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
        assert_eq!(set_fraction_with_halves(SetRule::Penalty, 2, 1, 1, 0), 0.75);
        assert_eq!(set_fraction_with_halves(SetRule::Hits, 2, 0, 2, 1), 0.5);
        assert_eq!(
            set_fraction_with_halves(SetRule::AllOrNothing, 2, 1, 1, 0),
            0.0
        );
    }

    #[test]
    fn slip_rules_read_as_written() {
        assert_eq!(SlipRule::parse("accept"), Some(SlipRule::Accept));
        assert_eq!(SlipRule::parse("refuse"), Some(SlipRule::Refuse));
        assert_eq!(SlipRule::parse("penalty=0.25"), Some(SlipRule::Penalty(25)));
        assert_eq!(SlipRule::parse("penalty=1"), Some(SlipRule::Penalty(100)));
        assert_eq!(SlipRule::parse("penalty=1.5"), None);
        assert_eq!(SlipRule::parse("penalty=0.125"), None);
        assert_eq!(SlipRule::parse("penalty=-0.1"), None);
        assert_eq!(SlipRule::parse("lenient"), None);
        assert_eq!(SlipRule::Penalty(25).keeps(), Some(0.75));
        assert_eq!(SlipRule::Refuse.keeps(), None);
    }

    #[test]
    fn default_rules_stay_out_of_manifests() {
        let json = serde_json::to_string(&Scoring::default()).unwrap();
        assert_eq!(json, r#"{"sets":"penalty","orders":"lcs","tolerance":0}"#);
        let strict = Scoring {
            slips: SlipRule::Penalty(25),
            ..Scoring::default()
        };
        let json = serde_json::to_string(&strict).unwrap();
        assert!(json.contains(r#""slips":{"penalty":25}"#), "{json}");
        assert_eq!(serde_json::from_str::<Scoring>(&json).unwrap(), strict);
    }

    #[test]
    fn orders_score_by_longest_common_subsequence() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(lcs(&s(&["E", "F", "G", "H"]), &s(&["E", "G", "H"])), 3);
        assert_eq!(
            order_fraction(
                OrderRule::Lcs,
                OrderScoring::Lcs,
                &s(&["E", "F", "G", "H"]),
                &s(&["E", "G", "H"])
            ),
            0.75
        );
        assert_eq!(
            order_fraction(
                OrderRule::Lcs,
                OrderScoring::Lcs,
                &s(&["E", "F"]),
                &s(&["E", "F", "X", "Y"])
            ),
            0.5
        );
        assert_eq!(
            order_fraction(
                OrderRule::Exact,
                OrderScoring::Lcs,
                &s(&["E", "F"]),
                &s(&["F", "E"])
            ),
            0.0
        );
    }

    /// A path scored by its longest correct prefix: a principal variation
    /// `B, H, J` whose first step is wrong earns nothing, where the common
    /// subsequence gave it 2/3; `exact` still overrides the field's own rule.
    #[test]
    fn a_path_scores_its_longest_correct_prefix() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let key = s(&["C", "H", "J"]);
        let prefix =
            |given: &[&str]| order_fraction(OrderRule::Lcs, OrderScoring::Prefix, &key, &s(given));
        assert_eq!(prefix(&["B", "H", "J"]), 0.0);
        assert_eq!(
            order_fraction(
                OrderRule::Lcs,
                OrderScoring::Lcs,
                &key,
                &s(&["B", "H", "J"])
            ),
            2.0 / 3.0
        );
        assert_eq!(prefix(&["C", "H", "K"]), 2.0 / 3.0);
        assert_eq!(prefix(&["C", "H"]), 2.0 / 3.0);
        assert_eq!(prefix(&["C", "H", "J", "K"]), 0.75);
        assert_eq!(prefix(&["C", "H", "J"]), 1.0);
        assert_eq!(
            order_fraction(
                OrderRule::Exact,
                OrderScoring::Prefix,
                &key,
                &s(&["C", "H"])
            ),
            0.0
        );
    }
}
