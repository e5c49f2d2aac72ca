//! The spanned document: TOML and JSON read into one [`Doc`] tree, TOML
//! values with their byte spans, JSON values with their key paths.

use std::fmt;
use std::ops::Range;

use toml::de::{DeTable, DeValue};

use super::{InputError, Source, wide_mark};

impl Source {
    /// Parses the text as JSON when the path ends in `.json` or the text starts with `{`, else as TOML.
    pub fn parse(&self) -> Result<Doc, InputError> {
        let is_json = self.path.to_ascii_lowercase().ends_with(".json")
            || self.text.trim_start().starts_with('{');
        if is_json {
            self.parse_json()
        } else {
            self.parse_toml()
        }
    }

    fn parse_toml(&self) -> Result<Doc, InputError> {
        let table = DeTable::parse(&self.text)
            .map_err(|e| self.toml_error(e.span().unwrap_or(0..0), e.message().trim_end()))?;
        let span = table.span();
        Ok(toml_table(table.into_inner(), Some(span), String::new()))
    }

    /// The error for a TOML syntax error at `span` with the parser's `message`:
    /// a full-width or Chinese punctuation mark on that line (outside strings,
    /// or in a string the line leaves open) is named, at its own position, with
    /// the ASCII character to type instead.
    pub fn toml_error(&self, span: Range<usize>, message: &str) -> InputError {
        if let Some(mark) = wide_mark(&self.text, span.start) {
            return self.error_at(
                mark.offset..mark.offset + mark.ch.len_utf8(),
                format!(
                    "this is not valid TOML: `{}` is a {}",
                    mark.ch,
                    mark.kind.name()
                ),
                Some(mark.instead()),
            );
        }
        self.error_at(
            span,
            format!("this is not valid TOML: {message}"),
            Some("check the quoting, commas and brackets near the mark".into()),
        )
    }

    fn parse_json(&self) -> Result<Doc, InputError> {
        use serde::de::DeserializeSeed;
        let duplicate = std::cell::RefCell::new(None);
        let mut de = serde_json::Deserializer::from_str(&self.text);
        let parsed = JsonSeed {
            path: String::new(),
            duplicate: &duplicate,
        }
        .deserialize(&mut de)
        .and_then(|doc| de.end().map(|()| doc));
        parsed.map_err(|e| {
            let line = e.line().max(1);
            let offset = self
                .text
                .split_inclusive('\n')
                .take(line - 1)
                .map(str::len)
                .sum::<usize>();
            // serde_json counts columns in bytes; `error_at` rounds to a character.
            let byte_col = e.column().saturating_sub(1);
            let at = offset + byte_col;
            if let Some(path) = duplicate.borrow_mut().take() {
                return self.error_at(
                    json_key_span(&self.text, at),
                    format!("the key `{path}` is given twice"),
                    Some(
                        "give each key once: JSON readers differ on which of the two counts".into(),
                    ),
                );
            }
            self.error_at(
                at..at + 1,
                format!("this is not valid JSON: {e}"),
                Some("check the quotes, commas and brackets near the mark".into()),
            )
        })
    }
}

/// The span of the quoted JSON key that ends at or just before byte `at`
/// (where serde_json stops after reading a key), for a duplicate key's error.
fn json_key_span(text: &str, at: usize) -> Range<usize> {
    let bytes = text.as_bytes();
    let mut close = at.min(bytes.len().saturating_sub(1));
    while close > 0 && bytes[close] != b'"' {
        close -= 1;
    }
    // The opening quote: the nearest `"` before it not escaped by a backslash.
    let mut open = close;
    while open > 0 {
        open -= 1;
        if bytes[open] == b'"' {
            let backslashes = bytes[..open]
                .iter()
                .rev()
                .take_while(|&&b| b == b'\\')
                .count();
            if backslashes % 2 == 0 {
                return open..close + 1;
            }
        }
    }
    at..at + 1
}

/// Reads JSON straight into a [`Doc`], refusing a key given twice in one
/// object (serde_json's own `Value` keeps the last one silently). The first
/// duplicate's key path is left in `duplicate`.
struct JsonSeed<'a> {
    path: String,
    duplicate: &'a std::cell::RefCell<Option<String>>,
}

impl<'de> serde::de::DeserializeSeed<'de> for JsonSeed<'_> {
    type Value = Doc;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Doc, D::Error> {
        d.deserialize_any(self)
    }
}

impl JsonSeed<'_> {
    fn doc(self, kind: DocKind) -> Doc {
        Doc {
            span: None,
            path: self.path,
            kind,
        }
    }
}

impl<'de> serde::de::Visitor<'de> for JsonSeed<'_> {
    type Value = Doc;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Doc, E> {
        Ok(self.doc(DocKind::Bool(v)))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Doc, E> {
        Ok(self.doc(DocKind::Int(v)))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Doc, E> {
        Ok(self.doc(i64::try_from(v).map_or(DocKind::HugeInt, DocKind::Int)))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Doc, E> {
        Ok(self.doc(DocKind::Float(v)))
    }

    fn visit_str<E>(self, v: &str) -> Result<Doc, E> {
        Ok(self.doc(DocKind::Str(v.to_string())))
    }

    fn visit_string<E>(self, v: String) -> Result<Doc, E> {
        Ok(self.doc(DocKind::Str(v)))
    }

    fn visit_unit<E>(self) -> Result<Doc, E> {
        Ok(self.doc(DocKind::Null))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Doc, A::Error> {
        let mut items = Vec::new();
        loop {
            let seed = JsonSeed {
                path: format!("{}[{}]", self.path, items.len()),
                duplicate: self.duplicate,
            };
            match seq.next_element_seed(seed)? {
                Some(item) => items.push(item),
                None => break,
            }
        }
        Ok(self.doc(DocKind::Array(items)))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Doc, A::Error> {
        let mut entries = Vec::new();
        let mut seen = std::collections::HashSet::new();
        while let Some(name) = map.next_key::<String>()? {
            let path = join(&self.path, &name);
            if !seen.insert(name.clone()) {
                *self.duplicate.borrow_mut() = Some(path);
                return Err(serde::de::Error::custom(format!(
                    "the key `{name}` is given twice"
                )));
            }
            let value = map.next_value_seed(JsonSeed {
                path,
                duplicate: self.duplicate,
            })?;
            entries.push((Key { name, span: None }, value));
        }
        Ok(self.doc(DocKind::Table(entries)))
    }
}

/// A value of an input file, with its position (TOML) and key path.
#[derive(Clone, Debug)]
pub struct Doc {
    /// Byte span in the file (TOML only).
    pub span: Option<Range<usize>>,
    /// Key path from the top, e.g. `connectors[2].to`.
    pub path: String,
    /// The value.
    pub kind: DocKind,
}

/// The value of a [`Doc`].
#[derive(Clone, Debug)]
pub enum DocKind {
    /// An integer (TOML integer, or a JSON number without fraction).
    Int(i64),
    /// An integer too large for 64 bits.
    HugeInt,
    /// A float.
    Float(f64),
    /// A string.
    Str(String),
    /// A boolean.
    Bool(bool),
    /// A TOML date or time.
    Datetime,
    /// JSON null.
    Null,
    /// An array.
    Array(Vec<Doc>),
    /// A table / object, in file order.
    Table(Vec<(Key, Doc)>),
}

/// A table key with its position.
#[derive(Clone, Debug)]
pub struct Key {
    /// The key's text.
    pub name: String,
    /// Byte span (TOML only).
    pub span: Option<Range<usize>>,
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn toml_table(table: DeTable<'_>, span: Option<Range<usize>>, path: String) -> Doc {
    let entries = table
        .into_iter()
        .map(|(k, v)| {
            let child_path = join(&path, k.get_ref());
            let key = Key {
                name: k.get_ref().to_string(),
                span: Some(k.span()),
            };
            (key, toml_value(v, child_path))
        })
        .collect();
    Doc {
        span,
        path,
        kind: DocKind::Table(entries),
    }
}

fn toml_value(value: toml::Spanned<DeValue<'_>>, path: String) -> Doc {
    let span = Some(value.span());
    let kind = match value.into_inner() {
        DeValue::String(s) => DocKind::Str(s.into_owned()),
        DeValue::Integer(i) => {
            let digits = i.as_str().replace('_', "");
            i64::from_str_radix(&digits, i.radix()).map_or(DocKind::HugeInt, DocKind::Int)
        }
        DeValue::Float(f) => {
            DocKind::Float(f.as_str().replace('_', "").parse().unwrap_or(f64::NAN))
        }
        DeValue::Boolean(b) => DocKind::Bool(b),
        DeValue::Datetime(_) => DocKind::Datetime,
        DeValue::Array(items) => DocKind::Array(
            items
                .iter()
                .cloned()
                .enumerate()
                .map(|(i, v)| toml_value(v, format!("{path}[{i}]")))
                .collect(),
        ),
        DeValue::Table(t) => return toml_table(t, span, path),
    };
    Doc { span, path, kind }
}

/// A document from an already parsed JSON value (no positions: errors name key paths).
pub fn json_doc(value: serde_json::Value, path: String) -> Doc {
    use serde_json::Value as J;
    let kind = match value {
        J::Null => DocKind::Null,
        J::Bool(b) => DocKind::Bool(b),
        J::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => DocKind::Int(i),
            (None, Some(_)) => DocKind::HugeInt,
            _ => DocKind::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        J::String(s) => DocKind::Str(s),
        J::Array(items) => DocKind::Array(
            items
                .into_iter()
                .enumerate()
                .map(|(i, v)| json_doc(v, format!("{path}[{i}]")))
                .collect(),
        ),
        J::Object(map) => DocKind::Table(
            map.into_iter()
                .map(|(k, v)| {
                    let child = json_doc(v, join(&path, &k));
                    (
                        Key {
                            name: k,
                            span: None,
                        },
                        child,
                    )
                })
                .collect(),
        ),
    };
    Doc {
        span: None,
        path,
        kind,
    }
}

impl Doc {
    /// The value of `key`, when this is a table that has it.
    pub fn get(&self, key: &str) -> Option<&Doc> {
        match &self.kind {
            DocKind::Table(entries) => entries.iter().find(|(k, _)| k.name == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The name of the value's type, for messages.
    pub fn type_name(&self) -> &'static str {
        match self.kind {
            DocKind::Int(_) | DocKind::HugeInt => "an integer",
            DocKind::Float(_) => "a decimal number",
            DocKind::Str(_) => "a string",
            DocKind::Bool(_) => "a boolean",
            DocKind::Datetime => "a date",
            DocKind::Null => "null",
            DocKind::Array(_) => "a list",
            DocKind::Table(_) => "a table",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Location;

    fn source(text: &str) -> Source {
        Source {
            path: "t.toml".into(),
            text: text.into(),
        }
    }
    #[test]
    fn toml_syntax_error_names_line_and_column() {
        let err = source("kind = \"game-tree\"\ntree = [[1, 2], [3,\n")
            .parse()
            .unwrap_err();
        assert_eq!(err.path, "t.toml");
        assert!(
            err.line_column().is_some_and(|(line, _)| line >= 2),
            "{err}"
        );
    }

    #[test]
    fn full_width_marks_are_named_at_their_own_column() {
        let err = source("kind = \"game-tree\"\nroot = “max”\n")
            .parse()
            .unwrap_err();
        assert_eq!(err.line_column(), Some((2, 8)), "{err}");
        assert_eq!(
            err.one_line(),
            "this is not valid TOML: `“` is a Chinese quotation mark (t.toml:2:8); type the ASCII quote \" instead"
        );
        // A Chinese quotation mark meant to close a string.
        let err = source("root = \"max”\n").parse().unwrap_err();
        assert_eq!(err.line_column(), Some((1, 12)), "{err}");
    }

    #[test]
    fn spans_point_at_values() {
        let src = source("a = 1\nb = [1, \"x\"]\n");
        let doc = src.parse().unwrap();
        let DocKind::Table(entries) = &doc.kind else {
            panic!()
        };
        let DocKind::Array(items) = &entries[1].1.kind else {
            panic!()
        };
        let err = src.error(&items[1], "bad", None);
        assert_eq!(err.line_column(), Some((2, 9)));
        assert_eq!(
            err.to_string(),
            "bad\n --> t.toml:2:9\n  |\n2 | b = [1, \"x\"]\n  |         ^^^"
        );
    }

    #[test]
    fn json_errors_carry_key_paths() {
        let src = Source {
            path: "t.json".into(),
            text: r#"{"a": {"b": [1, true]}}"#.into(),
        };
        let doc = src.parse().unwrap();
        let DocKind::Table(entries) = &doc.kind else {
            panic!()
        };
        let DocKind::Table(inner) = &entries[0].1.kind else {
            panic!()
        };
        let DocKind::Array(items) = &inner[0].1.kind else {
            panic!()
        };
        assert_eq!(
            src.error(&items[1], "bad", None).location,
            Location::Key("a.b[1]".into())
        );
    }
}
