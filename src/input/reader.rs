//! Typed reading of a [`Doc`]: each reader checks a value's type and says
//! how to write it when it is wrong; names, ranges and TOML text helpers.

use super::{Doc, DocKind, InputError, Key, Source};

/// Typed access to a document, producing positioned errors.
pub struct Reader<'a> {
    /// The file being read.
    pub source: &'a Source,
}

impl<'a> Reader<'a> {
    /// An error for a value of the wrong type.
    pub fn wrong_type(&self, doc: &Doc, what: &str, example: &str) -> InputError {
        self.source.error(
            doc,
            format!("expected {what} here, found {}", doc.type_name()),
            format!("write it like {example}"),
        )
    }

    /// An integer value.
    pub fn int(&self, doc: &Doc, example: &str) -> Result<i64, InputError> {
        match doc.kind {
            DocKind::Int(i) => Ok(i),
            DocKind::HugeInt => Err(self.source.error(
                doc,
                "this integer is too large",
                "use a number between -2^63 and 2^63-1".to_string(),
            )),
            _ => Err(self.wrong_type(doc, "an integer", example)),
        }
    }

    /// A string value.
    pub fn str<'d>(&self, doc: &'d Doc, example: &str) -> Result<&'d str, InputError> {
        match &doc.kind {
            DocKind::Str(s) => Ok(s),
            _ => Err(self.wrong_type(doc, "a string", example)),
        }
    }

    /// A boolean value.
    pub fn bool(&self, doc: &Doc, example: &str) -> Result<bool, InputError> {
        match doc.kind {
            DocKind::Bool(b) => Ok(b),
            _ => Err(self.wrong_type(doc, "true or false", example)),
        }
    }

    /// A list value.
    pub fn array<'d>(&self, doc: &'d Doc, example: &str) -> Result<&'d [Doc], InputError> {
        match &doc.kind {
            DocKind::Array(items) => Ok(items),
            _ => Err(self.wrong_type(doc, "a list", example)),
        }
    }

    /// A table value, checked for unknown keys.
    pub fn table<'d>(
        &self,
        doc: &'d Doc,
        allowed: &[&str],
        example: &str,
    ) -> Result<Table<'d>, InputError> {
        let DocKind::Table(entries) = &doc.kind else {
            return Err(self.wrong_type(doc, "a table", example));
        };
        for (key, value) in entries {
            if !allowed.contains(&key.name.as_str()) {
                let hint = did_you_mean(&key.name, allowed, "the keys allowed here are");
                let span = key.span.clone();
                let at = Doc {
                    span,
                    path: value.path.clone(),
                    kind: DocKind::Null,
                };
                return Err(self
                    .source
                    .error(&at, format!("unknown key `{}`", key.name), hint));
            }
        }
        Ok(Table { doc, entries })
    }
}

/// A table whose keys were checked.
pub struct Table<'d> {
    /// The table itself, for errors about missing keys.
    pub doc: &'d Doc,
    entries: &'d [(Key, Doc)],
}

impl<'d> Table<'d> {
    /// The value of `key`, if present.
    pub fn get(&self, key: &str) -> Option<&'d Doc> {
        self.entries
            .iter()
            .find(|(k, _)| k.name == key)
            .map(|(_, v)| v)
    }

    /// The value of a required `key`, or an error that shows how to write it.
    pub fn require(
        &self,
        source: &Source,
        key: &str,
        example: &str,
    ) -> Result<&'d Doc, InputError> {
        self.get(key).ok_or_else(|| {
            let at = Doc {
                span: self.doc.span.clone().map(|s| s.start..s.start),
                path: self.doc.path.clone(),
                kind: DocKind::Null,
            };
            source.error(
                &at,
                format!("missing key `{key}`"),
                format!("add a line like `{example}`"),
            )
        })
    }
}

/// Parses `2`, `2..3`, `2..=3` or `2-3` into an inclusive range.
pub fn parse_range<T: std::str::FromStr + PartialOrd + Copy>(s: &str) -> Result<(T, T), String> {
    let s = s.trim();
    let parse = |x: &str| {
        x.trim()
            .parse::<T>()
            .map_err(|_| format!("`{x}` is not a number"))
    };
    // A `-` after the first character separates the bounds; a leading one is a sign.
    let dash = s
        .char_indices()
        .skip(1)
        .find(|&(_, c)| c == '-')
        .map(|(i, _)| (&s[..i], &s[i + 1..]));
    let split = s.split_once("..=").or_else(|| s.split_once("..")).or(dash);
    let (lo, hi) = match split {
        Some((a, b)) => (parse(a)?, parse(b)?),
        None => {
            let v = parse(s)?;
            (v, v)
        }
    };
    if lo > hi {
        return Err(format!(
            "the range `{s}` is empty: write lo..hi with lo <= hi"
        ));
    }
    Ok((lo, hi))
}

/// A TOML string literal, escaped as TOML (not as Rust) escapes.
pub fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A TOML key: bare when it can be, quoted otherwise, as the `toml` crate
/// writes keys (a key is never a multi-line string, which a value may be).
pub fn toml_key(label: &str) -> String {
    let mut table = toml::Table::new();
    table.insert(label.to_string(), toml::Value::Integer(0));
    let line = toml::to_string(&table).expect("a table of one integer serialises");
    match line.strip_suffix(" = 0\n") {
        Some(key) => key.to_string(),
        None => line,
    }
}

/// The hint for an unknown name: the nearest known one if it is a plausible
/// typo, and the list of known names.
pub fn did_you_mean(name: &str, known: &[&str], list_intro: &str) -> String {
    match closest(name, known) {
        Some(near) => {
            let mut intro = list_intro.chars();
            let capital: String = intro
                .next()
                .map(|c| c.to_uppercase().chain(intro).collect())
                .unwrap_or_default();
            format!("did you mean \"{near}\"? {capital}: {}", known.join(", "))
        }
        None => format!("{list_intro}: {}", known.join(", ")),
    }
}

/// The allowed word nearest to `word` by edit distance, if it is a plausible typo.
pub fn closest<'w>(word: &str, allowed: &[&'w str]) -> Option<&'w str> {
    allowed
        .iter()
        .map(|a| (edit_distance(&word.to_lowercase(), &a.to_lowercase()), *a))
        .filter(|(d, a)| *d <= 2.max(a.len() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, a)| a)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (row[j + 1] + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// Generator parameters as problem sets (and `sample`) write them: one
/// reader per shape, so every family reads its keys the same way.
impl Reader<'_> {
    /// `3`, `"2..3"` or `[2, 3]`.
    pub fn range(&self, doc: &Doc) -> Result<(i64, i64), InputError> {
        let example = "`2`, `\"2..3\"` or `[2, 3]`";
        let (lo, hi) = match &doc.kind {
            DocKind::Int(v) => (*v, *v),
            DocKind::Str(s) => parse_range::<i64>(s)
                .map_err(|m| self.source.error(doc, m, format!("write {example}")))?,
            DocKind::Array(items) if items.len() == 2 => {
                (self.int(&items[0], "2")?, self.int(&items[1], "3")?)
            }
            _ => return Err(self.wrong_type(doc, "a number or a range", example)),
        };
        if lo > hi {
            return Err(self.source.error(
                doc,
                format!("the range {lo}..{hi} is empty"),
                "write the smaller bound first".to_string(),
            ));
        }
        Ok((lo, hi))
    }

    /// Both ends of a range as small non-negative numbers.
    pub fn small(&self, doc: &Doc, (lo, hi): (i64, i64)) -> Result<(u32, u32), InputError> {
        let fit = |v: i64| {
            u32::try_from(v).map_err(|_| {
                self.source.error(
                    doc,
                    format!("{v} is out of range"),
                    "use numbers from 0 up".to_string(),
                )
            })
        };
        Ok((fit(lo)?, fit(hi)?))
    }

    /// A range of small non-negative numbers: `2`, `"2..3"`, `[2, 3]`.
    pub fn small_range(&self, doc: &Doc) -> Result<(u32, u32), InputError> {
        self.small(doc, self.range(doc)?)
    }

    /// A small non-negative number.
    pub fn small_int(&self, doc: &Doc, example: &str) -> Result<u32, InputError> {
        let v = self.int(doc, example)?;
        Ok(self.small(doc, (v, v))?.0)
    }

    /// The count at `key`, if the table has it.
    pub fn count(&self, t: &Table<'_>, key: &str) -> Result<Option<u32>, InputError> {
        t.get(key).map(|d| self.small_int(d, "3")).transpose()
    }

    /// Impossible generator parameters, reported at the exercise's table.
    pub fn check_generator(
        &self,
        t: &Table<'_>,
        error: Option<crate::generate::GenerateError>,
    ) -> Result<(), InputError> {
        match error {
            Some(e @ crate::generate::GenerateError::Invalid(_)) => Err(self.source.error(
                t.doc,
                format!("this exercise cannot be generated: {e}"),
                "change its parameters".to_string(),
            )),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_keys_and_strings_read_back_as_written() {
        assert_eq!(toml_key("n0"), "n0");
        assert_eq!(toml_key("a-b_C"), "a-b_C");
        for s in [
            "e\u{301}",
            "say\"hi\"",
            "back\\slash",
            "漢字",
            "🎲",
            "it's\"both",
            "a b",
            "",
            "x\ny",
            "\u{7}",
        ] {
            let line = format!("{} = {}", toml_key(s), toml_string(s));
            let table: toml::Table = line.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(table.get(s).and_then(|v| v.as_str()), Some(s), "{line}");
        }
    }
    #[test]
    fn suggests_near_keys() {
        assert_eq!(
            closest("connecters", &["start", "connectors", "nodes"]),
            Some("connectors")
        );
        assert_eq!(closest("zzz", &["start", "connectors"]), None);
    }
}
