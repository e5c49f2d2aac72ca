//! Game values: integers, plus `+inf` / `-inf` for won and lost positions.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A leaf or backed-up value of a game tree.
///
/// The variant order makes the derived `Ord` the textbook one:
/// `-inf` < every integer < `+inf`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    /// A position lost for MAX.
    NegInf,
    /// A heuristic or exact score.
    Finite(i64),
    /// A position won for MAX.
    PosInf,
}

impl Value {
    /// Parses `"+inf"`, `"inf"` or `"-inf"` (case-insensitive).
    pub fn parse_infinity(s: &str) -> Option<Value> {
        match s.trim().to_ascii_lowercase().as_str() {
            "+inf" | "inf" | "+∞" | "∞" => Some(Value::PosInf),
            "-inf" | "-∞" => Some(Value::NegInf),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::NegInf => f.write_str("-inf"),
            Value::Finite(v) => write!(f, "{v}"),
            Value::PosInf => f.write_str("+inf"),
        }
    }
}

/// Integers as JSON numbers, infinities as the strings `"+inf"` / `"-inf"`.
impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Finite(v) => s.serialize_i64(*v),
            other => s.serialize_str(&other.to_string()),
        }
    }
}

impl Value {
    /// Reads what [`Display`](fmt::Display) writes: an integer, `+inf` or `-inf`.
    pub fn parse(s: &str) -> Option<Value> {
        Value::parse_infinity(s).or_else(|| s.trim().parse().ok().map(Value::Finite))
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Int(i64),
            Text(String),
        }
        match Raw::deserialize(d)? {
            Raw::Int(v) => Ok(Value::Finite(v)),
            Raw::Text(s) => Value::parse_infinity(&s)
                .ok_or_else(|| serde::de::Error::custom(format!("`{s}` is not a value"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn infinities_order_around_integers() {
        assert!(Value::NegInf < Value::Finite(i64::MIN));
        assert!(Value::Finite(i64::MAX) < Value::PosInf);
        assert!(Value::Finite(-3) < Value::Finite(2));
    }

    #[test]
    fn infinities_serialize_as_strings() {
        let json =
            serde_json::to_string(&[Value::NegInf, Value::Finite(4), Value::PosInf]).unwrap();
        assert_eq!(json, r#"["-inf",4,"+inf"]"#);
    }
}
