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

/// An integer, `"+inf"` or `"-inf"` (any form [`Value::parse_infinity`] takes).
pub(crate) fn parse_value(s: &str) -> Option<Value> {
    s.trim()
        .parse()
        .ok()
        .map(Value::Finite)
        .or_else(|| Value::parse_infinity(s))
}

/// Reads what `Serialize` writes: an integer, or the string `"+inf"` / `"-inf"`.
impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Value;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(r#"an integer, "+inf" or "-inf""#)
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Value, E> {
                Ok(Value::Finite(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Value, E> {
                i64::try_from(v)
                    .map(Value::Finite)
                    .map_err(|_| E::custom(format!("{v} is too large for a value")))
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Value, E> {
                Value::parse_infinity(s)
                    .ok_or_else(|| E::invalid_value(serde::de::Unexpected::Str(s), &self))
            }
        }
        d.deserialize_any(Visitor)
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

    #[test]
    fn values_deserialize_from_what_they_serialize() {
        let back: Vec<Value> = serde_json::from_str(r#"["-inf",4,-7,"+inf"]"#).unwrap();
        assert_eq!(
            back,
            [
                Value::NegInf,
                Value::Finite(4),
                Value::Finite(-7),
                Value::PosInf
            ]
        );
        assert!(serde_json::from_str::<Value>(r#""four""#).is_err());
        assert!(serde_json::from_str::<Value>("18446744073709551615").is_err());
    }
}
