//! Game values: integers, exact decimals (CS188's `-4.01`), plus `+inf` /
//! `-inf` for won and lost positions.

use std::cmp::Ordering;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Most decimal places a value may have.
pub const MAX_PLACES: u32 = 9;

/// Most digits a decimal may have, the point left out (a whole number has
/// all of an `i64`); a binary float's shortest form has no more.
pub const MAX_DIGITS: u32 = 17;

/// A number with a fractional part, exactly: `units / 10^places`. Made only
/// normalised (1 ≤ places ≤ [`MAX_PLACES`], units not a multiple of 10 and
/// of at most [`MAX_DIGITS`] digits), so a decimal is never a whole number
/// (that is [`Value::Finite`]) and each number has one form: the derived
/// equality and hash are numeric.
///
/// Packed in one `i64`, units above 4 bits of places, so that a [`Value`]
/// stays a tag and an `i64`, which the searches pass in two registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Decimal(i64);

impl Decimal {
    /// The digits without the point, signed: `-401` for −4.01.
    pub fn units(self) -> i64 {
        self.0 >> 4
    }

    /// Digits after the point: 2 for −4.01.
    pub fn places(self) -> u32 {
        (self.0 & 0xf) as u32
    }

    /// The packed form, for the arena and the trace.
    pub(crate) fn to_bits(self) -> i64 {
        self.0
    }

    /// What [`Decimal::to_bits`] gave.
    pub(crate) fn from_bits(bits: i64) -> Decimal {
        Decimal(bits)
    }
}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scale = 10u64.pow(self.places());
        let magnitude = self.units().unsigned_abs();
        let sign = if self.units() < 0 { "-" } else { "" };
        let (whole, fraction) = (magnitude / scale, magnitude % scale);
        write!(
            f,
            "{sign}{whole}.{fraction:0width$}",
            width = self.places() as usize
        )
    }
}

/// A leaf or backed-up value of a game tree.
///
/// Ordered as the textbook orders values: `-inf` < every number < `+inf`,
/// numbers (whole or decimal) by their exact value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// A position lost for MAX.
    NegInf,
    /// A heuristic or exact score.
    Finite(i64),
    /// A score with a fractional part, exactly (never a whole number).
    Decimal(Decimal),
    /// A position won for MAX.
    PosInf,
}

/// Why a text is not a number [`Value::parse_number`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumberError {
    /// Not digits with an optional point and exponent.
    Malformed,
    /// More than [`MAX_PLACES`] places once trailing zeros are dropped.
    TooManyPlaces,
    /// A whole number past 64 bits, or a decimal of more than
    /// [`MAX_DIGITS`] digits.
    TooLarge,
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

    /// `units / 10^places` as a value: whole numbers are [`Value::Finite`];
    /// `None` past [`MAX_PLACES`] places or [`MAX_DIGITS`] digits (trailing
    /// zeros dropped first).
    pub fn decimal(mut units: i64, mut places: u32) -> Option<Value> {
        if units == 0 {
            return Some(Value::Finite(0));
        }
        while places > 0 && units % 10 == 0 {
            units /= 10;
            places -= 1;
        }
        if places == 0 {
            return Some(Value::Finite(units));
        }
        (places <= MAX_PLACES && units.unsigned_abs() < 10u64.pow(MAX_DIGITS))
            .then(|| Value::Decimal(Decimal(units << 4 | i64::from(places))))
    }

    /// A number written in decimal, exactly: `12`, `-4.01`, `+.5`, `3.`,
    /// `1.5e2` (a float literal of Python, TOML or JSON without `_`). `3.0`
    /// is the whole number 3. Infinities are not numbers here.
    pub fn parse_number(text: &str) -> Result<Value, NumberError> {
        let t = text.trim();
        let (negative, t) = match t.as_bytes().first() {
            Some(b'-') => (true, &t[1..]),
            Some(b'+') => (false, &t[1..]),
            _ => (false, t),
        };
        let (mantissa, exponent) = match t.find(['e', 'E']) {
            Some(i) => (&t[..i], Some(&t[i + 1..])),
            None => (t, None),
        };
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits_only = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if whole.len() + fraction.len() == 0 || !digits_only(whole) || !digits_only(fraction) {
            return Err(NumberError::Malformed);
        }
        let exponent: i64 = match exponent {
            None => 0,
            Some(e) => {
                let body = e.strip_prefix(['-', '+']).unwrap_or(e);
                if body.is_empty() || !digits_only(body) {
                    return Err(NumberError::Malformed);
                }
                // Saturates: an exponent this long is too large or too small either way.
                let magnitude = body
                    .parse::<i64>()
                    .unwrap_or(i64::MAX / 4)
                    .min(i64::MAX / 4);
                if e.starts_with('-') {
                    -magnitude
                } else {
                    magnitude
                }
            }
        };
        // Significant digits, and the power of ten they are scaled by.
        let all = format!("{whole}{fraction}");
        let digits = all.trim_start_matches('0');
        let significant = digits.trim_end_matches('0');
        if significant.is_empty() {
            return Ok(Value::Finite(0));
        }
        let dropped = (digits.len() - significant.len()) as i64;
        // value = significant × 10^(dropped + exponent − fraction digits)
        let power = dropped + exponent - fraction.len() as i64;
        if power < -i64::from(MAX_PLACES) {
            return Err(NumberError::TooManyPlaces);
        }
        // Past 19 digits no i64 holds it; a decimal has fewer.
        let most = if power < 0 { MAX_DIGITS as i64 } else { 19 };
        if significant.len() as i64 + power.max(0) > most {
            return Err(NumberError::TooLarge);
        }
        let mut units: i128 = significant.parse().map_err(|_| NumberError::TooLarge)?;
        units *= 10i128.pow(power.max(0) as u32);
        if negative {
            units = -units;
        }
        let units = i64::try_from(units).map_err(|_| NumberError::TooLarge)?;
        Value::decimal(units, (-power).max(0) as u32).ok_or(NumberError::TooManyPlaces)
    }

    /// A number in units of 10^−[`MAX_PLACES`] (exact in 128 bits); `None`
    /// for an infinity.
    fn scaled(self) -> Option<i128> {
        match self {
            Value::Finite(n) => Some(i128::from(n) * 10i128.pow(MAX_PLACES)),
            Value::Decimal(d) => Some(i128::from(d.units()) * 10i128.pow(MAX_PLACES - d.places())),
            Value::NegInf | Value::PosInf => None,
        }
    }
}

// The searches compare values millions of times: without a decimal, two
// values compare as a derived order would (the tags, then two whole
// numbers' digits), inline; a decimal goes out of the way.
impl Ord for Value {
    #[inline]
    fn cmp(&self, other: &Value) -> Ordering {
        match (self, other) {
            (Value::Finite(a), Value::Finite(b)) => a.cmp(b),
            (Value::Decimal(_), _) | (_, Value::Decimal(_)) => self.cmp_decimal(*other),
            // −∞ < a whole number < +∞ is the variants' order.
            _ => self.tag().cmp(&other.tag()),
        }
    }
}

impl PartialOrd for Value {
    #[inline]
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Value {
    /// The variant's place in the declaration (the enum's own tag).
    #[inline]
    fn tag(self) -> u8 {
        match self {
            Value::NegInf => 0,
            Value::Finite(_) => 1,
            Value::Decimal(_) => 2,
            Value::PosInf => 3,
        }
    }

    /// The order where a decimal is involved: beside an infinity by rank,
    /// beside a number exactly, in 128 bits.
    #[inline(never)]
    fn cmp_decimal(self, other: Value) -> Ordering {
        match (self.scaled(), other.scaled()) {
            (Some(a), Some(b)) => a.cmp(&b),
            _ => self.tag().cmp(&other.tag()),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::NegInf => f.write_str("-inf"),
            Value::Finite(v) => write!(f, "{v}"),
            Value::Decimal(d) => write!(f, "{d}"),
            Value::PosInf => f.write_str("+inf"),
        }
    }
}

/// Integers as JSON numbers; decimals and infinities as strings (`"-4.01"`,
/// `"+inf"`), so that no reader turns a decimal into a binary float.
impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Finite(v) => s.serialize_i64(*v),
            other => s.serialize_str(&other.to_string()),
        }
    }
}

/// An integer, a decimal, `"+inf"` or `"-inf"` (any form
/// [`Value::parse_infinity`] and [`Value::parse_number`] take).
pub(crate) fn parse_value(s: &str) -> Option<Value> {
    Value::parse_infinity(s).or_else(|| Value::parse_number(s).ok())
}

/// Reads what `Serialize` writes: an integer, or a string holding a decimal,
/// `"+inf"` or `"-inf"`.
impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Value;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(r#"an integer, a decimal such as "-4.01", "+inf" or "-inf""#)
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
                parse_value(s).ok_or_else(|| E::invalid_value(serde::de::Unexpected::Str(s), &self))
            }
        }
        d.deserialize_any(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(s: &str) -> Value {
        Value::parse_number(s).unwrap_or_else(|e| panic!("{s}: {e:?}"))
    }

    #[test]
    fn a_value_is_sixteen_bytes() {
        assert_eq!(std::mem::size_of::<Value>(), 16);
    }

    #[test]
    fn infinities_order_around_integers() {
        assert!(Value::NegInf < Value::Finite(i64::MIN));
        assert!(Value::Finite(i64::MAX) < Value::PosInf);
        assert!(Value::Finite(-3) < Value::Finite(2));
    }

    #[test]
    fn decimals_order_among_integers_exactly() {
        // CS188's 1-1-minmax: -3.01 < -3 < -2.99, and so on at every scale.
        let sorted = [
            Value::NegInf,
            Value::Finite(i64::MIN),
            num("-4.01"),
            Value::Finite(-4),
            num("-3.01"),
            Value::Finite(-3),
            num("-2.99"),
            num("-0.000000001"),
            Value::Finite(0),
            num("0.000000001"),
            num("2.5"),
            num("2.50001"),
            num("99999999.999999999"),
            Value::Finite(100_000_000),
            Value::Finite(i64::MAX),
            Value::PosInf,
        ];
        for (i, a) in sorted.iter().enumerate() {
            for (j, b) in sorted.iter().enumerate() {
                assert_eq!(a.cmp(b), i.cmp(&j), "{a} against {b}");
                assert_eq!(a == b, i == j, "{a} == {b}");
            }
        }
    }

    #[test]
    fn numbers_parse_exactly_or_say_why_not() {
        for (text, shown) in [
            ("3.0", "3"),
            ("-4.01", "-4.01"),
            ("+.5", "0.5"),
            ("-0.50", "-0.5"),
            ("3.", "3"),
            ("-0.0", "0"),
            ("1.5e2", "150"),
            ("15E-3", "0.015"),
            ("0001.2500", "1.25"),
            ("-9223372036854775808", "-9223372036854775808"),
            ("-922337203.685477580", "-922337203.68547758"),
            ("12345678.123456789", "12345678.123456789"),
            ("0.123456789", "0.123456789"),
            ("1.0000000000000", "1"),
        ] {
            assert_eq!(num(text).to_string(), shown, "{text}");
        }
        for (text, why) in [
            ("", NumberError::Malformed),
            ("-", NumberError::Malformed),
            (".", NumberError::Malformed),
            ("1.2.3", NumberError::Malformed),
            ("1e", NumberError::Malformed),
            ("--1", NumberError::Malformed),
            ("1,5", NumberError::Malformed),
            ("nan", NumberError::Malformed),
            ("٣", NumberError::Malformed),
            ("0.0000000001", NumberError::TooManyPlaces),
            // Refused, never rounded.
            ("-922337203.6854775808", NumberError::TooManyPlaces),
            ("1e-10", NumberError::TooManyPlaces),
            ("9223372036854775808", NumberError::TooLarge),
            ("92233720368.54775808", NumberError::TooLarge),
            ("123456789.123456789", NumberError::TooLarge),
            ("1e19", NumberError::TooLarge),
            ("1e99999999999999999999", NumberError::TooLarge),
        ] {
            assert_eq!(Value::parse_number(text), Err(why), "{text}");
        }
        assert_eq!(num("0e99999999999999"), Value::Finite(0));
        assert_eq!(Value::decimal(0, u32::MAX), Some(Value::Finite(0)));
        assert_eq!(Value::decimal(15, 10), None);
        assert_eq!(Value::decimal(100_000_000_000_000_001, 1), None);
        assert_eq!(Value::decimal(-4010, 3), Some(num("-4.01")));
    }

    #[test]
    fn infinities_serialize_as_strings() {
        let json =
            serde_json::to_string(&[Value::NegInf, Value::Finite(4), num("-4.01"), Value::PosInf])
                .unwrap();
        assert_eq!(json, r#"["-inf",4,"-4.01","+inf"]"#);
    }

    #[test]
    fn values_deserialize_from_what_they_serialize() {
        let back: Vec<Value> = serde_json::from_str(r#"["-inf",4,-7,"0.05","+inf"]"#).unwrap();
        assert_eq!(
            back,
            [
                Value::NegInf,
                Value::Finite(4),
                Value::Finite(-7),
                num("0.05"),
                Value::PosInf
            ]
        );
        assert!(serde_json::from_str::<Value>(r#""four""#).is_err());
        assert!(serde_json::from_str::<Value>(r#""0.0000000001""#).is_err());
        assert!(serde_json::from_str::<Value>("18446744073709551615").is_err());
    }
}
