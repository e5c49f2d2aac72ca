//! String tables: one TOML table per language, read by templates and by the
//! explanations Rust writes into keys.

use std::collections::BTreeMap;

use crate::input::{DocKind, InputError, Source};

/// A language's strings, by dotted key (`note.cut`), and the same as a nested
/// table for templates (`t.sheet.key`).
#[derive(Clone, Debug)]
pub struct Lang {
    /// The language's name (`en`, `zh`, …).
    pub code: String,
    strings: BTreeMap<String, String>,
    nested: serde_json::Value,
}

/// The built-in languages.
pub const BUILTIN: &[(&str, &str)] = &[
    ("en", include_str!("../templates/lang/en.toml")),
    ("zh", include_str!("../templates/lang/zh.toml")),
];

impl Lang {
    /// Reads a string table; every value must be a string, in tables one level deep.
    pub fn parse(code: &str, source: &Source) -> Result<Lang, InputError> {
        let doc = source.parse()?;
        let mut strings = BTreeMap::new();
        let DocKind::Table(sections) = &doc.kind else {
            unreachable!("a TOML document is a table")
        };
        for (section, table) in sections {
            let DocKind::Table(entries) = &table.kind else {
                return Err(source.error(
                    table,
                    format!("`{}` should be a table of strings", section.name),
                    "write [section] and then key = \"text\" lines".to_string(),
                ));
            };
            for (key, value) in entries {
                let DocKind::Str(text) = &value.kind else {
                    return Err(source.error(
                        value,
                        "expected a string",
                        "put the text in double quotes".to_string(),
                    ));
                };
                strings.insert(format!("{}.{}", section.name, key.name), text.clone());
            }
        }
        let nested = toml::from_str::<toml::Table>(&source.text)
            .map(|t| serde_json::to_value(t).unwrap_or_default())
            .unwrap_or_default();
        Ok(Lang {
            code: code.to_string(),
            strings,
            nested,
        })
    }

    /// A built-in language. Each table is parsed once a process, when first
    /// asked for (the practice page asks for one with every request, and
    /// never for the others), and copied out.
    pub fn builtin(code: &str) -> Option<Lang> {
        static PARSED: [std::sync::OnceLock<Lang>; BUILTIN.len()] =
            [const { std::sync::OnceLock::new() }; BUILTIN.len()];
        let i = BUILTIN.iter().position(|(c, _)| *c == code)?;
        let lang = PARSED[i].get_or_init(|| {
            let source = Source {
                path: format!("templates/lang/{code}.toml"),
                text: BUILTIN[i].1.to_string(),
            };
            Lang::parse(code, &source).expect("built-in string tables are valid")
        });
        Some(lang.clone())
    }

    /// The string for `key`; a missing key shows itself, so a gap is visible, never fatal.
    pub fn get<'a>(&'a self, key: &'a str) -> &'a str {
        self.strings.get(key).map_or(key, String::as_str)
    }

    /// Whether the table has `key`.
    pub fn has(&self, key: &str) -> bool {
        self.strings.contains_key(key)
    }

    /// `section.name_kind` where a kind words a field its own way, else `section.name`.
    pub fn for_kind<'a>(&'a self, section: &str, name: &'a str, kind: &str) -> &'a str {
        let own = format!("{section}.{name}_{kind}");
        match self.strings.get(&own) {
            Some(text) => text,
            None => self
                .strings
                .get(&format!("{section}.{name}"))
                .map_or(name, String::as_str),
        }
    }

    /// The string for `key` with each `{name}` replaced by its value.
    pub fn fill(&self, key: &str, values: &[(&str, &str)]) -> String {
        let mut out = self.get(key).to_string();
        for (name, value) in values {
            out = out.replace(&format!("{{{name}}}"), value);
        }
        out
    }

    /// Every key, for checking that two languages have the same.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.strings.keys().map(String::as_str)
    }

    /// The nested table, for templates.
    pub fn nested(&self) -> &serde_json::Value {
        &self.nested
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_languages_have_the_same_keys() {
        let en = Lang::builtin("en").unwrap();
        let zh = Lang::builtin("zh").unwrap();
        assert_eq!(en.keys().collect::<Vec<_>>(), zh.keys().collect::<Vec<_>>());
        assert!(en.keys().count() > 80);
    }

    #[test]
    fn fill_replaces_placeholders() {
        let en = Lang::builtin("en").unwrap();
        assert_eq!(en.fill("sheet.points", &[("points", "10")]), "10 points");
        assert_eq!(en.get("no.such.key"), "no.such.key");
    }
}
