//! String tables: one TOML table per language, read by templates and by the
//! explanations Rust writes into keys.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::input::{DocKind, InputError, Source};

/// A language's strings, by dotted key (`note.cut`), and the same as a nested
/// table for templates (`t.sheet.key`).
///
/// Cheap to copy: the tables are shared (a request on the page, a sheet, a
/// grade row each take one).
#[derive(Clone, Debug)]
pub struct Lang {
    /// The language's code (`en`, `zh`, …).
    pub code: String,
    strings: Arc<BTreeMap<String, String>>,
    nested: Arc<serde_json::Value>,
}

/// A built-in language.
#[derive(Clone, Copy, Debug)]
pub struct Builtin {
    /// Its code, as a problem set's `language` names it.
    pub code: &'static str,
    /// Its name in itself, as a language picker shows it.
    pub name: &'static str,
    /// Its string table.
    pub text: &'static str,
}

/// The built-in languages.
pub const BUILTIN: &[Builtin] = &[
    Builtin {
        code: "en",
        name: "English",
        text: include_str!("../templates/lang/en.toml"),
    },
    Builtin {
        code: "zh",
        name: "中文",
        text: include_str!("../templates/lang/zh.toml"),
    },
];

impl Lang {
    /// Reads a string table; every value must be a string, in tables one level deep.
    pub fn parse(code: &str, source: &Source) -> Result<Lang, InputError> {
        let doc = source.parse()?;
        let mut strings = BTreeMap::new();
        // The same strings by section, in the file's order, for templates.
        let mut nested = serde_json::Map::new();
        let DocKind::Table(sections) = &doc.kind else {
            unreachable!("a TOML document is a table")
        };
        for (section, table) in sections {
            let mut own = serde_json::Map::new();
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
                own.insert(key.name.clone(), text.clone().into());
            }
            nested.insert(section.name.clone(), own.into());
        }
        Ok(Lang {
            code: code.to_string(),
            strings: Arc::new(strings),
            nested: Arc::new(nested.into()),
        })
    }

    /// A built-in language. Each table is parsed once a process, when first
    /// asked for (the practice page asks for one with every request, and
    /// never for the others), and shared.
    pub fn builtin(code: &str) -> Option<Lang> {
        static PARSED: [std::sync::OnceLock<Lang>; BUILTIN.len()] =
            [const { std::sync::OnceLock::new() }; BUILTIN.len()];
        let i = BUILTIN.iter().position(|b| b.code == code)?;
        let lang = PARSED[i].get_or_init(|| {
            let source = Source {
                path: format!("templates/lang/{code}.toml"),
                text: BUILTIN[i].text.to_string(),
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

    /// The nested table is the file's, read by a TOML reader: templates see
    /// every string where the file puts it.
    #[test]
    fn the_nested_table_is_the_files() {
        for b in BUILTIN {
            let lang = Lang::builtin(b.code).unwrap();
            let read: toml::Table = toml::from_str(b.text).unwrap();
            assert_eq!(
                lang.nested(),
                &serde_json::to_value(read).unwrap(),
                "{}",
                b.code
            );
        }
    }

    #[test]
    fn fill_replaces_placeholders() {
        let en = Lang::builtin("en").unwrap();
        assert_eq!(en.fill("sheet.points", &[("points", "10")]), "10 points");
        assert_eq!(en.get("no.such.key"), "no.such.key");
    }
}
