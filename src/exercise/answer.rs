//! Answers: what a key holds and what a student writes, one value per asked field.

use serde::Serialize;

use crate::andor::Cost;
use crate::value::Value;

/// One answer to one field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Answer {
    /// A game value (integer or ±inf).
    Value(Value),
    /// A cost (integer or +inf).
    Cost(Cost),
    /// One node label.
    Label(String),
    /// One of several equally right labels (tied best moves); the first is the key's.
    Choice(Vec<String>),
    /// A set of labels (order does not matter).
    Labels(Vec<String>),
    /// A sequence of labels (order matters).
    Sequence(Vec<String>),
    /// A set of connectors written `n0 -> n1 + n2`.
    Connectors(Vec<String>),
    /// A value per node label, in label order of the drawing.
    Values(Vec<(String, Value)>),
    /// A value or a bound (`"<=2"`, `">=5"`) per node label.
    Bounds(Vec<(String, crate::gametree::Bound)>),
}

use crate::input::{toml_key as key, toml_string as quote};

fn list(items: &[String]) -> String {
    format!(
        "[{}]",
        items
            .iter()
            .map(|s| quote(s))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

fn value(v: Value) -> String {
    match v {
        Value::Finite(n) => n.to_string(),
        other => quote(&other.to_string()),
    }
}

impl Answer {
    /// The answer as a TOML value, as a student would write it in the answer sheet.
    pub fn to_toml(&self) -> String {
        match self {
            Answer::Value(v) => value(*v),
            Answer::Cost(c) => c.get().map_or_else(|| quote("+inf"), |v| v.to_string()),
            Answer::Label(l) => quote(l),
            Answer::Choice(ls) => quote(&ls[0]),
            Answer::Labels(ls) | Answer::Sequence(ls) | Answer::Connectors(ls) => list(ls),
            Answer::Bounds(pairs) => {
                let inner: Vec<String> = pairs
                    .iter()
                    .map(|(l, b)| {
                        let v = match b {
                            crate::gametree::Bound::Exact(v) => value(*v),
                            crate::gametree::Bound::AtMost(v) => quote(&format!("<={v}")),
                            crate::gametree::Bound::AtLeast(v) => quote(&format!(">={v}")),
                        };
                        format!("{} = {v}", key(l))
                    })
                    .collect();
                format!("{{ {} }}", inner.join(", "))
            }
            Answer::Values(pairs) => {
                let inner: Vec<String> = pairs
                    .iter()
                    .map(|(l, v)| format!("{} = {}", key(l), value(*v)))
                    .collect();
                format!("{{ {} }}", inner.join(", "))
            }
        }
    }

    /// The answer for people: `3`, `I, J`, `E → F → G`, `B = 3, C = 2`, or `—` for nothing.
    pub fn to_text(&self) -> String {
        let or_none = |s: String| if s.is_empty() { "—".to_string() } else { s };
        match self {
            Answer::Value(v) => v.to_string(),
            Answer::Cost(c) => c.to_string(),
            Answer::Label(l) => l.clone(),
            Answer::Choice(ls) => ls.join(" / "),
            Answer::Labels(ls) => or_none(ls.join(", ")),
            Answer::Sequence(ls) => or_none(ls.join(" → ")),
            Answer::Connectors(cs) => or_none(cs.join("; ")),
            Answer::Bounds(pairs) => or_none(
                pairs
                    .iter()
                    .map(|(l, b)| match b {
                        crate::gametree::Bound::Exact(v) => format!("{l} = {v}"),
                        crate::gametree::Bound::AtMost(v) => format!("{l} ≤ {v}"),
                        crate::gametree::Bound::AtLeast(v) => format!("{l} ≥ {v}"),
                    })
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            Answer::Values(pairs) => or_none(
                pairs
                    .iter()
                    .map(|(l, v)| format!("{l} = {v}"))
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
        }
    }
}

/// The kinds of answer a field takes, for the blank sheet's hints and for grading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Shape {
    /// An integer or `"+inf"` / `"-inf"`.
    Value,
    /// A non-negative integer or `"+inf"`.
    Cost,
    /// One label.
    Label,
    /// Labels in any order.
    Labels,
    /// Labels in order.
    Sequence,
    /// Connectors `"n0 -> n1 + n2"` in any order.
    Connectors,
    /// A table `{ B = 3, C = 2 }`.
    Values,
    /// A table of values and bounds `{ B = 3, C = "<=2" }`.
    Bounds,
}
