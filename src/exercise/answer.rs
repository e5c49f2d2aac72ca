//! Answers for people and for answer files: a key's typed answer rendered
//! with the instance's labels.

use super::key::Answer;
use crate::gametree::Bound;
use crate::input::{toml_key as key, toml_string as quote};
use crate::instance::Item;
use crate::instance::Model;
use crate::value::Value;

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
        Value::Decimal(d) => d.to_string(),
        other => quote(&other.to_string()),
    }
}

/// A whole number as itself, a fraction as the string `"23/3"`.
fn fraction(r: crate::value::Ratio) -> String {
    match r.to_value() {
        Some(Value::Finite(n)) => n.to_string(),
        _ => quote(&r.to_string()),
    }
}

fn bound(b: Bound) -> String {
    match b {
        Bound::Exact(v) => value(v),
        Bound::AtMost(v) => quote(&format!("<={v}")),
        Bound::AtLeast(v) => quote(&format!(">={v}")),
    }
}

impl Answer {
    /// The answer as a TOML value, as a student would write it in the answer sheet.
    pub fn to_toml(&self, model: &Model<'_>) -> String {
        let names = |items: &[Item]| items.iter().map(|&i| model.name(i)).collect::<Vec<_>>();
        let table = |pairs: Vec<(String, String)>| {
            let inner: Vec<String> = pairs
                .iter()
                .map(|(l, v)| format!("{} = {v}", key(l)))
                .collect();
            format!("{{ {} }}", inner.join(", "))
        };
        match self {
            Answer::Value(v) => value(*v),
            Answer::Cost(c) => c.get().map_or_else(|| quote("+inf"), |v| v.to_string()),
            Answer::One(items) => items
                .first()
                .map_or_else(|| quote(""), |&i| quote(&model.name(i))),
            Answer::Set(items) | Answer::Sequence(items) => list(&names(items)),
            Answer::Values(pairs) => table(
                pairs
                    .iter()
                    .map(|&(i, v)| (model.name(i), value(v)))
                    .collect(),
            ),
            Answer::Bounds(pairs) => table(
                pairs
                    .iter()
                    .map(|&(i, b)| (model.name(i), bound(b)))
                    .collect(),
            ),
            Answer::Fractions(pairs) => table(
                pairs
                    .iter()
                    .map(|&(i, r)| (model.name(i), fraction(r)))
                    .collect(),
            ),
        }
    }

    /// The answer for people: `3`, `I, J`, `E → F → G`, `B = 3, C = 2`, or `—`
    /// for nothing. Connectors are joined by `; ` (their names hold commas).
    pub fn to_text(&self, model: &Model<'_>) -> String {
        let or_none = |s: String| if s.is_empty() { "—".to_string() } else { s };
        let names = |items: &[Item]| items.iter().map(|&i| model.name(i)).collect::<Vec<_>>();
        let pairs = |pairs: Vec<String>| or_none(pairs.join(", "));
        match self {
            Answer::Value(v) => v.to_string(),
            Answer::Cost(c) => c.to_string(),
            Answer::One(items) => names(items).join(" / "),
            Answer::Set(items) if matches!(items.first(), Some(Item::Connector(_))) => {
                or_none(names(items).join("; "))
            }
            Answer::Set(items) => or_none(names(items).join(", ")),
            Answer::Sequence(items) => or_none(names(items).join(" → ")),
            Answer::Bounds(ps) => pairs(
                ps.iter()
                    .map(|&(i, b)| format!("{} {}", model.name(i), relation(b)))
                    .collect(),
            ),
            Answer::Values(ps) => pairs(
                ps.iter()
                    .map(|&(i, v)| format!("{} = {v}", model.name(i)))
                    .collect(),
            ),
            Answer::Fractions(ps) => pairs(
                ps.iter()
                    .map(|&(i, r)| format!("{} = {r}", model.name(i)))
                    .collect(),
            ),
        }
    }
}

impl Answer {
    /// The answer as JSON with the figure's labels (for `solve --json`):
    /// numbers or `"+inf"`, a label (the key's first when several are right),
    /// a list of labels, or a table from labels to values and bounds.
    pub fn to_labelled_json(&self, model: &Model<'_>) -> serde_json::Value {
        use serde_json::{Value as Json, json};
        let names =
            |items: &[Item]| Json::from(items.iter().map(|&i| model.name(i)).collect::<Vec<_>>());
        match self {
            Answer::Value(v) => json!(v),
            Answer::Cost(c) => json!(c),
            Answer::One(items) => items.first().map_or(Json::Null, |&i| json!(model.name(i))),
            Answer::Set(items) | Answer::Sequence(items) => names(items),
            Answer::Values(pairs) => Json::Object(
                pairs
                    .iter()
                    .map(|&(i, v)| (model.name(i), json!(v)))
                    .collect(),
            ),
            Answer::Bounds(pairs) => Json::Object(
                pairs
                    .iter()
                    .map(|&(i, b)| (model.name(i), json!(b)))
                    .collect(),
            ),
            Answer::Fractions(pairs) => Json::Object(
                pairs
                    .iter()
                    .map(|&(i, r)| (model.name(i), json!(r)))
                    .collect(),
            ),
        }
    }
}

/// `= 3`, `≤ 2`, `≥ 5`: a bound after a node's name.
pub fn relation(b: Bound) -> String {
    match b {
        Bound::Exact(v) => format!("= {v}"),
        Bound::AtMost(v) => format!("≤ {v}"),
        Bound::AtLeast(v) => format!("≥ {v}"),
    }
}
