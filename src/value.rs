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

/// An exact rational number, `numer / denom` in lowest terms with a positive
/// denominator: what a chance node's expectation is (23/3 is not a decimal).
/// Separate from [`Value`], which the integer searches keep at 16 bytes;
/// arithmetic is checked and says `None` past 128 bits, never wraps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ratio {
    numer: i128,
    denom: i128,
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    // On magnitudes: i128::MIN is never a numerator (see `Ratio::new`).
    a = a.abs();
    b = b.abs();
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Ratio {
    /// Zero.
    pub const ZERO: Ratio = Ratio { numer: 0, denom: 1 };
    /// One.
    pub const ONE: Ratio = Ratio { numer: 1, denom: 1 };

    /// `numer / denom` in lowest terms; `None` for a zero denominator or a
    /// magnitude no `i128` negates (so that every ratio has a negation).
    pub fn new(numer: i128, denom: i128) -> Option<Ratio> {
        if denom == 0 || numer == i128::MIN || denom == i128::MIN {
            return None;
        }
        let g = gcd(numer, denom).max(1);
        let sign = if denom < 0 { -1 } else { 1 };
        Some(Ratio {
            numer: sign * numer / g,
            denom: sign * denom / g,
        })
    }

    /// A whole number.
    pub fn integer(n: i64) -> Ratio {
        Ratio {
            numer: i128::from(n),
            denom: 1,
        }
    }

    /// The numerator (carries the sign).
    pub fn numer(self) -> i128 {
        self.numer
    }

    /// The denominator, at least 1.
    pub fn denom(self) -> i128 {
        self.denom
    }

    /// Whether it is a whole number.
    pub fn is_integer(self) -> bool {
        self.denom == 1
    }

    /// A number [`Value`] exactly; `None` for an infinity.
    pub fn from_value(v: Value) -> Option<Ratio> {
        match v {
            Value::Finite(n) => Some(Ratio::integer(n)),
            Value::Decimal(d) => Ratio::new(i128::from(d.units()), 10i128.pow(d.places())),
            Value::NegInf | Value::PosInf => None,
        }
    }

    /// The same number as a [`Value`] when it is one (a whole number, or a
    /// decimal of at most [`MAX_PLACES`] places).
    pub fn to_value(self) -> Option<Value> {
        let scale = 10i128.pow(MAX_PLACES);
        if scale % self.denom != 0 {
            return None;
        }
        let units = i64::try_from(self.numer.checked_mul(scale / self.denom)?).ok()?;
        Value::decimal(units, MAX_PLACES)
    }

    /// As a student would write it: a decimal where it is one (`7.67`,
    /// `3.5`), else the fraction (`23/3`).
    pub fn as_written(self) -> String {
        self.to_value()
            .map_or_else(|| self.to_string(), |v| v.to_string())
    }

    /// `self + other`, `None` past 128 bits.
    pub fn checked_add(self, other: Ratio) -> Option<Ratio> {
        let g = gcd(self.denom, other.denom);
        let (a, b) = (self.denom / g, other.denom / g);
        let numer = self
            .numer
            .checked_mul(b)?
            .checked_add(other.numer.checked_mul(a)?)?;
        Ratio::new(numer, a.checked_mul(other.denom)?)
    }

    /// `self × other`, `None` past 128 bits.
    pub fn checked_mul(self, other: Ratio) -> Option<Ratio> {
        // Cross-cancelled first, so that the products stay as small as they can.
        let g1 = gcd(self.numer, other.denom).max(1);
        let g2 = gcd(other.numer, self.denom).max(1);
        let numer = (self.numer / g1).checked_mul(other.numer / g2)?;
        let denom = (self.denom / g2).checked_mul(other.denom / g1)?;
        Ratio::new(numer, denom)
    }

    /// Reads `"23/3"`, `"-2/4"` (as −1/2), or a number as
    /// [`Value::parse_number`] reads it (`"0.25"`, `"7"`).
    pub fn parse(text: &str) -> Option<Ratio> {
        let t = text.trim();
        match t.split_once('/') {
            Some((n, d)) => {
                let digits = |s: &str| {
                    let body = s.trim().strip_prefix(['-', '+']).unwrap_or(s.trim());
                    !body.is_empty() && body.bytes().all(|b| b.is_ascii_digit())
                };
                if !digits(n) || !digits(d) {
                    return None;
                }
                Ratio::new(n.trim().parse().ok()?, d.trim().parse().ok()?)
            }
            None => Ratio::from_value(Value::parse_number(t).ok()?),
        }
    }

    /// The nearest decimal of `places` places, halves away from zero:
    /// `7.67` for 23/3 at 2 places; `-0` is written `0`.
    pub fn rounded(self, places: u32) -> String {
        let denom = self.denom.unsigned_abs();
        let magnitude = self.numer.unsigned_abs();
        let (mut whole, mut rest) = (magnitude / denom, magnitude % denom);
        // Long division, digit by digit: `rest * 10` could pass 128 bits, ten
        // additions of `rest` (< denom < 2^127) never do.
        let mut digits = Vec::with_capacity(places as usize);
        for _ in 0..places {
            let (mut digit, mut r) = (0u8, 0u128);
            for _ in 0..10 {
                r += rest;
                if r >= denom {
                    r -= denom;
                    digit += 1;
                }
            }
            digits.push(digit);
            rest = r;
        }
        // Half away from zero: carry up through the nines.
        if rest >= denom - rest {
            let mut i = digits.len();
            loop {
                if i == 0 {
                    whole += 1;
                    break;
                }
                i -= 1;
                if digits[i] == 9 {
                    digits[i] = 0;
                } else {
                    digits[i] += 1;
                    break;
                }
            }
        }
        let zero = whole == 0 && digits.iter().all(|&d| d == 0);
        let sign = if self.numer < 0 && !zero { "-" } else { "" };
        let fraction: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
        if places == 0 {
            format!("{sign}{whole}")
        } else {
            format!("{sign}{whole}.{fraction}")
        }
    }
}

// Compared by continued fractions, never by cross products, which could
// overflow: whole parts first, then the remainders' reciprocals reversed.
impl Ord for Ratio {
    fn cmp(&self, other: &Ratio) -> Ordering {
        let (mut a, mut b, mut c, mut d) = (self.numer, self.denom, other.numer, other.denom);
        let mut flipped = false;
        loop {
            let (q1, r1) = (a.div_euclid(b), a.rem_euclid(b));
            let (q2, r2) = (c.div_euclid(d), c.rem_euclid(d));
            let order = q1.cmp(&q2).then_with(|| match (r1 == 0, r2 == 0) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Less,
                (false, true) => Ordering::Greater,
                (false, false) => Ordering::Equal,
            });
            if order != Ordering::Equal || r1 == 0 {
                return if flipped { order.reverse() } else { order };
            }
            // a/b = q + r1/b: compare r1/b with r2/d, that is d/r2 with b/r1.
            (a, b, c, d) = (b, r1, d, r2);
            flipped = !flipped;
        }
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Ratio) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.denom == 1 {
            write!(f, "{}", self.numer)
        } else {
            write!(f, "{}/{}", self.numer, self.denom)
        }
    }
}

/// A whole number as a JSON number, anything else as its text (`"23/3"`).
impl Serialize for Ratio {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match i64::try_from(self.numer) {
            Ok(n) if self.denom == 1 => s.serialize_i64(n),
            _ => s.serialize_str(&self.to_string()),
        }
    }
}

/// Reads what `Serialize` writes.
impl<'de> Deserialize<'de> for Ratio {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Ratio, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Ratio;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(r#"an integer or a fraction such as "23/3""#)
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Ratio, E> {
                Ok(Ratio::integer(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Ratio, E> {
                Ratio::new(i128::from(v), 1).ok_or_else(|| E::custom("too large"))
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Ratio, E> {
                Ratio::parse(s)
                    .ok_or_else(|| E::invalid_value(serde::de::Unexpected::Str(s), &self))
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

    fn ratio(n: i128, d: i128) -> Ratio {
        Ratio::new(n, d).unwrap()
    }

    #[test]
    fn ratios_are_kept_in_lowest_terms_with_a_positive_denominator() {
        assert_eq!(ratio(6, -4), ratio(-3, 2));
        assert_eq!(ratio(-6, -4).to_string(), "3/2");
        assert_eq!(ratio(0, -7), Ratio::ZERO);
        assert_eq!(ratio(8, 4).to_string(), "2");
        assert_eq!(Ratio::new(1, 0), None);
        assert_eq!(Ratio::new(i128::MIN, 1), None);
    }

    #[test]
    fn ratio_arithmetic_is_exact_and_checked() {
        // AIMA's chance node: (3 + 12 + 8) / 3.
        let third = ratio(1, 3);
        let sum = [3, 12, 8]
            .iter()
            .map(|&v| third.checked_mul(Ratio::integer(v)).unwrap())
            .fold(Ratio::ZERO, |a, b| a.checked_add(b).unwrap());
        assert_eq!(sum, ratio(23, 3));
        assert_eq!(ratio(1, 6).checked_add(ratio(5, 6)), Some(Ratio::ONE));
        assert_eq!(ratio(-1, 2).checked_add(ratio(1, 3)), Some(ratio(-1, 6)));
        let huge = ratio(i128::MAX, 1);
        assert_eq!(huge.checked_add(Ratio::ONE), None);
        assert_eq!(huge.checked_mul(ratio(2, 1)), None);
        assert_eq!(huge.checked_mul(ratio(1, 3)), Some(ratio(i128::MAX, 3)));
    }

    #[test]
    fn ratios_order_exactly_without_overflow() {
        let big = i128::MAX;
        let sorted = [
            ratio(-big, 1),
            ratio(-7, 2),
            ratio(-3, 1),
            ratio(-1, big),
            Ratio::ZERO,
            ratio(1, big),
            ratio(big - 1, big),
            Ratio::ONE,
            ratio(big, big - 1),
            ratio(23, 3),
            ratio(big, 3),
            ratio(big, 2),
            ratio(big, 1),
        ];
        for (i, a) in sorted.iter().enumerate() {
            for (j, b) in sorted.iter().enumerate() {
                assert_eq!(a.cmp(b), i.cmp(&j), "{a} against {b}");
            }
        }
    }

    #[test]
    fn ratios_read_write_and_round() {
        for (text, shown) in [
            ("23/3", "23/3"),
            (" -2/4 ", "-1/2"),
            ("0.25", "1/4"),
            ("-4.01", "-401/100"),
            ("7", "7"),
            ("+3/-6", "-1/2"),
        ] {
            assert_eq!(Ratio::parse(text).unwrap().to_string(), shown, "{text}");
        }
        for text in ["", "1/0", "a/3", "1//2", "1/2/3", "/3", "1.5/2", "inf"] {
            assert_eq!(Ratio::parse(text), None, "{text}");
        }
        assert_eq!(ratio(23, 3).rounded(2), "7.67");
        assert_eq!(ratio(-23, 3).rounded(2), "-7.67");
        assert_eq!(ratio(-1, 1000).rounded(2), "0.00");
        assert_eq!(ratio(1, 8).rounded(2), "0.13");
        assert_eq!(ratio(199, 2).rounded(0), "100");
        assert_eq!(ratio(1999, 2000).rounded(2), "1.00");
        assert_eq!(ratio(i128::MAX - 1, i128::MAX).rounded(3), "1.000");
        assert_eq!(
            ratio(1, i128::MAX).rounded(40),
            format!("0.{}59", "0".repeat(38))
        );
        assert_eq!(ratio(-401, 100).to_value(), Some(num("-4.01")));
        assert_eq!(ratio(23, 3).to_value(), None);
        assert_eq!(ratio(767, 100).as_written(), "7.67");
        assert_eq!(ratio(23, 3).as_written(), "23/3");
        assert_eq!(Ratio::from_value(num("-4.01")), Some(ratio(-401, 100)));
        assert_eq!(Ratio::from_value(Value::PosInf), None);
        let json = serde_json::to_string(&[ratio(23, 3), Ratio::integer(-4)]).unwrap();
        assert_eq!(json, r#"["23/3",-4]"#);
        let back: Vec<Ratio> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, [ratio(23, 3), Ratio::integer(-4)]);
    }
}
