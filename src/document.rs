//! Writing instance files: every family states its instance once, as a
//! [`Table`] of ordered keys, and three writers turn that one tree into text —
//! TOML for people, JSON for programs, and the canonical form the variant
//! checksum hashes.
//!
//! TOML strings and keys are quoted by the `toml` crate (through
//! [`crate::input::toml_string`] and [`crate::input::toml_key`]), never by
//! Rust's `Debug`; JSON is written by `serde_json`. The canonical form is
//! written here, by a fixed rule (see [`canonical`]), so that no crate update
//! changes a checksum.

use crate::input::{toml_key, toml_string};

/// How a TOML writer lays out an array (JSON and the canonical form ignore it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// On one line: `[1, 2, 3]`.
    Inline,
    /// One element per line, indented by two spaces, each followed by a comma.
    Lines,
    /// On one line, each element right-aligned in this many characters and
    /// separated by bare commas: `[ 100, -20]` (a board of weights).
    Padded(usize),
}

/// A value in an instance file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// A signed integer.
    Int(i64),
    /// An unsigned integer (costs, h values).
    UInt(u64),
    /// A number with a fractional part: a TOML float literal written as its
    /// exact digits (`-4.01`); a string in JSON and the canonical form, so
    /// that no JSON reader rounds it to a binary float.
    Decimal(crate::value::Decimal),
    /// `true` or `false`.
    Bool(bool),
    /// A string.
    Str(String),
    /// A list, with its TOML layout.
    Array(Vec<Node>, Layout),
    /// A table of keys, in order.
    Table(Table),
}

/// A table: keys in the order they are written, and for a TOML section a
/// comment line above its header.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    entries: Vec<(String, Node)>,
    comment: Option<String>,
}

impl Table {
    /// An empty table.
    pub fn new() -> Table {
        Table::default()
    }

    /// Adds a key (after the ones already there).
    pub fn with(mut self, key: impl Into<String>, value: impl Into<Node>) -> Table {
        self.entries.push((key.into(), value.into()));
        self
    }

    /// Adds a key in place.
    pub fn push(&mut self, key: impl Into<String>, value: impl Into<Node>) {
        self.entries.push((key.into(), value.into()));
    }

    /// The comment written above the table when it is a TOML section.
    pub fn with_comment(mut self, comment: impl Into<String>) -> Table {
        self.comment = Some(comment.into());
        self
    }

    /// The keys and values, in order.
    pub fn entries(&self) -> &[(String, Node)] {
        &self.entries
    }
}

impl From<i64> for Node {
    fn from(v: i64) -> Node {
        Node::Int(v)
    }
}
impl From<u64> for Node {
    fn from(v: u64) -> Node {
        Node::UInt(v)
    }
}
impl From<u32> for Node {
    fn from(v: u32) -> Node {
        Node::UInt(u64::from(v))
    }
}
impl From<bool> for Node {
    fn from(v: bool) -> Node {
        Node::Bool(v)
    }
}
impl From<&str> for Node {
    fn from(v: &str) -> Node {
        Node::Str(v.to_string())
    }
}
impl From<String> for Node {
    fn from(v: String) -> Node {
        Node::Str(v)
    }
}
impl From<Table> for Node {
    fn from(v: Table) -> Node {
        Node::Table(v)
    }
}

impl Node {
    /// A list on one line.
    pub fn inline<T: Into<Node>>(items: impl IntoIterator<Item = T>) -> Node {
        Node::Array(items.into_iter().map(Into::into).collect(), Layout::Inline)
    }

    /// A list with one element per line.
    pub fn lines<T: Into<Node>>(items: impl IntoIterator<Item = T>) -> Node {
        Node::Array(items.into_iter().map(Into::into).collect(), Layout::Lines)
    }
}

/// The document as a TOML file: plain keys first, in order, then each table
/// as a `[section]` (after a blank line and its comment). Tables deeper down
/// are inline tables.
pub fn to_toml(doc: &Table) -> String {
    let mut out = String::new();
    for (key, value) in &doc.entries {
        if !matches!(value, Node::Table(_)) {
            out.push_str(&toml_key(key));
            out.push_str(" = ");
            toml_value(value, &mut out);
            out.push('\n');
        }
    }
    for (key, value) in &doc.entries {
        if let Node::Table(table) = value {
            out.push('\n');
            if let Some(comment) = &table.comment {
                for line in comment.lines() {
                    out.push_str("# ");
                    out.push_str(line);
                    out.push('\n');
                }
            }
            out.push('[');
            out.push_str(&toml_key(key));
            out.push_str("]\n");
            for (key, value) in &table.entries {
                out.push_str(&toml_key(key));
                out.push_str(" = ");
                toml_value(value, &mut out);
                out.push('\n');
            }
        }
    }
    out
}

fn toml_value(value: &Node, out: &mut String) {
    match value {
        Node::Int(v) => out.push_str(&v.to_string()),
        Node::UInt(v) => out.push_str(&v.to_string()),
        Node::Decimal(d) => out.push_str(&d.to_string()),
        Node::Bool(v) => out.push_str(if *v { "true" } else { "false" }),
        Node::Str(s) => out.push_str(&toml_string(s)),
        Node::Array(items, Layout::Inline) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                toml_value(item, out);
            }
            out.push(']');
        }
        Node::Array(items, Layout::Lines) => {
            out.push_str("[\n");
            for item in items {
                out.push_str("  ");
                toml_value(item, out);
                out.push_str(",\n");
            }
            out.push(']');
        }
        Node::Array(items, Layout::Padded(width)) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let mut cell = String::new();
                toml_value(item, &mut cell);
                out.push_str(&format!("{cell:>width$}"));
            }
            out.push(']');
        }
        Node::Table(table) if table.entries.is_empty() => out.push_str("{}"),
        Node::Table(table) => {
            out.push_str("{ ");
            for (i, (key, value)) in table.entries.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&toml_key(key));
                out.push_str(" = ");
                toml_value(value, out);
            }
            out.push_str(" }");
        }
    }
}

/// The document as a JSON value, keys in order.
pub fn to_json_value(doc: &Table) -> serde_json::Value {
    fn value(node: &Node) -> serde_json::Value {
        match node {
            Node::Int(v) => (*v).into(),
            Node::UInt(v) => (*v).into(),
            Node::Decimal(d) => d.to_string().into(),
            Node::Bool(v) => (*v).into(),
            Node::Str(s) => s.as_str().into(),
            Node::Array(items, _) => items.iter().map(value).collect(),
            Node::Table(t) => object(t),
        }
    }
    fn object(table: &Table) -> serde_json::Value {
        serde_json::Value::Object(
            table
                .entries
                .iter()
                .map(|(k, v)| (k.clone(), value(v)))
                .collect(),
        )
    }
    object(doc)
}

/// The document as a JSON file (serde_json's pretty form, with a final newline).
pub fn to_json(doc: &Table) -> String {
    serde_json::to_string_pretty(&to_json_value(doc)).expect("JSON values serialise") + "\n"
}

/// The canonical form of a document, which checksums hash: compact JSON
/// written by this function alone. Tables are `{"key":value,…}` with keys in
/// document order; arrays `[a,b]`; no whitespace anywhere; integers in
/// decimal with a leading `-` when negative; `true`/`false`; strings in
/// double quotes with `"` and `\` escaped by a backslash, U+0000–U+001F and
/// U+007F as `\u00xx` (lowercase hex), and every other character as its own
/// UTF-8 bytes (no Unicode normalisation). Layouts and comments are not part
/// of it.
pub fn canonical(doc: &Table) -> String {
    let mut out = String::new();
    canonical_table(doc, &mut out);
    out
}

fn canonical_table(table: &Table, out: &mut String) {
    out.push('{');
    for (i, (key, value)) in table.entries.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        canonical_string(key, out);
        out.push(':');
        canonical_value(value, out);
    }
    out.push('}');
}

fn canonical_value(value: &Node, out: &mut String) {
    match value {
        Node::Int(v) => out.push_str(&v.to_string()),
        Node::UInt(v) => out.push_str(&v.to_string()),
        Node::Decimal(d) => canonical_string(&d.to_string(), out),
        Node::Bool(v) => out.push_str(if *v { "true" } else { "false" }),
        Node::Str(s) => canonical_string(s, out),
        Node::Array(items, _) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical_value(item, out);
            }
            out.push(']');
        }
        Node::Table(t) => canonical_table(t, out),
    }
}

fn canonical_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{0}'..='\u{1f}' | '\u{7f}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Table {
        let crate::value::Value::Decimal(d) = crate::value::Value::decimal(-401, 2).unwrap() else {
            panic!("-4.01 is a decimal")
        };
        Table::new()
            .with("kind", "x")
            .with("n", -3i64)
            .with("d", Node::Decimal(d))
            .with("ok", true)
            .with("list", Node::inline([1u64, 2]))
            .with("rows", Node::lines([Table::new().with("a", "é\"\\\u{1}")]))
            .with("nodes", Table::new().with("n 0", 3u64).with_comment("h"))
    }

    #[test]
    fn canonical_is_compact_json_in_document_order() {
        assert_eq!(
            canonical(&sample()),
            r#"{"kind":"x","n":-3,"d":"-4.01","ok":true,"list":[1,2],"rows":[{"a":"é\"\\\u0001"}],"nodes":{"n 0":3}}"#
        );
        // It is JSON, and the same value the JSON writer writes.
        let parsed: serde_json::Value = serde_json::from_str(&canonical(&sample())).unwrap();
        assert_eq!(parsed, to_json_value(&sample()));
    }

    #[test]
    fn toml_puts_tables_last_as_sections() {
        let text = to_toml(&sample());
        assert!(text.starts_with(
            "kind = \"x\"\nn = -3\nd = -4.01\nok = true\nlist = [1, 2]\nrows = [\n  { a = "
        ));
        assert!(text.ends_with("]\n\n# h\n[nodes]\n\"n 0\" = 3\n"), "{text}");
        let back: toml::Table = text.parse().unwrap();
        assert_eq!(back["rows"][0]["a"].as_str(), Some("é\"\\\u{1}"));
        // A TOML float, whose digits are the decimal's.
        assert_eq!(back["d"].as_float(), Some(-4.01));
    }
}
