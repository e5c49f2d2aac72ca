//! Reading instance files: a spanned document tree and errors that point at it.
//!
//! TOML and JSON are both read into one [`Doc`] tree, so that every check on
//! a file's content is written once. TOML values keep their byte spans, so an
//! error names the line and column; JSON values (for programs, not people)
//! carry their key path instead, and JSON syntax errors their line and column.

use std::fmt;
use std::ops::Range;

use toml::de::{DeTable, DeValue};

/// Files larger than this are refused before they are parsed.
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// An input file's name and text.
#[derive(Clone, Debug)]
pub struct Source {
    /// The path as the user wrote it, for messages.
    pub path: String,
    /// The whole text.
    pub text: String,
}

/// Where an input error is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// A line and column (1-based, columns in characters), with the line's text and the marked width.
    At {
        /// 1-based line.
        line: u32,
        /// 1-based column, in characters.
        column: u32,
        /// The text of the line (a window around the mark if the line is long).
        text: String,
        /// 1-based position of the mark in `text`, in characters.
        marker: u32,
        /// How many characters to underline.
        width: u32,
    },
    /// A key path such as `connectors[2].to`, where no position is known.
    Key(String),
    /// The file as a whole.
    File,
}

/// A place in an input file, kept to report a problem found later (when a
/// set's exercise cannot be generated, or its language has no strings).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    path: String,
    location: Location,
}

impl Site {
    /// A problem at this place.
    pub fn error(&self, message: impl Into<String>, hint: impl Into<Option<String>>) -> InputError {
        InputError {
            path: self.path.clone(),
            location: self.location.clone(),
            message: message.into(),
            hint: hint.into(),
        }
    }
}

/// A problem in an input file: what, where, and how to fix it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct InputError {
    /// The file's path.
    pub path: String,
    /// Where in the file.
    pub location: Location,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub hint: Option<String>,
}

impl InputError {
    /// An error about the file as a whole.
    pub fn file(path: &str, message: impl Into<String>, hint: Option<String>) -> InputError {
        InputError {
            path: path.to_string(),
            location: Location::File,
            message: message.into(),
            hint,
        }
    }

    /// The error on one line, for a table cell: message, place, hint.
    pub fn one_line(&self) -> String {
        let place = match &self.location {
            Location::At { line, column, .. } => format!("{}:{line}:{column}", self.path),
            Location::Key(key) => format!("{} at `{key}`", self.path),
            Location::File => self.path.clone(),
        };
        let hint = self
            .hint
            .as_ref()
            .map(|h| format!("; {h}"))
            .unwrap_or_default();
        printable(&format!(
            "{} ({place}){hint}",
            self.message.replace('\n', " ")
        ))
        .into_owned()
    }

    /// The 1-based line and column, when known.
    pub fn line_column(&self) -> Option<(u32, u32)> {
        match self.location {
            Location::At { line, column, .. } => Some((line, column)),
            _ => None,
        }
    }
}

/// Rendered like rustc: message, `--> file:line:col`, the line, a caret, the hint.
impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", printable(&self.message))?;
        match &self.location {
            Location::At {
                line,
                column,
                text,
                marker,
                width,
            } => {
                let gutter = " ".repeat(line.to_string().len());
                writeln!(f, "{gutter}--> {}:{line}:{column}", printable(&self.path))?;
                writeln!(f, "{gutter} |")?;
                // Control characters are shown as their control pictures (one
                // column each), so the caret is placed by display width.
                let text = printable(text);
                writeln!(f, "{line} | {text}")?;
                let before = *marker as usize - 1;
                let pad: String = text
                    .chars()
                    .take(before)
                    .map(|c| {
                        if c == '\t' {
                            "\t".to_string()
                        } else {
                            " ".repeat(display_width(c))
                        }
                    })
                    .collect();
                let marked: usize = text
                    .chars()
                    .skip(before)
                    .take(*width as usize)
                    .map(display_width)
                    .sum();
                write!(f, "{gutter} | {pad}{}", "^".repeat(marked.max(1)))?;
            }
            Location::Key(key) => {
                write!(f, " --> {}: at `{}`", printable(&self.path), printable(key))?
            }
            Location::File => write!(f, " --> {}", printable(&self.path))?,
        }
        if let Some(hint) = &self.hint {
            write!(f, "\n  = hint: {}", printable(hint))?;
        }
        Ok(())
    }
}

/// How a character of a message is shown on a terminal, as rustc shows it:
/// a C0 control character or DEL as its Unicode control picture (NUL as `␀`,
/// ESC as `␛`, BEL as `␇`), a C1 control or a bidirectional control (which
/// would reorder the text around it) as `�`; `None` for a character shown as
/// it is (newlines and tabs included: messages are laid out with them).
fn shown(c: char) -> Option<char> {
    match c {
        '\n' | '\t' => None,
        '\0'..='\u{1f}' => char::from_u32(0x2400 + c as u32),
        '\u{7f}' => Some('\u{2421}'),
        c if c.is_control() || is_bidi_control(c) => Some('\u{FFFD}'),
        _ => None,
    }
}

/// The text with every character that could steer a terminal made visible
/// (see [`shown`]): what every error message shows of a user's file.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if text.chars().all(|c| shown(c).is_none()) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(text.chars().map(|c| shown(c).unwrap_or(c)).collect())
}

/// How many terminal columns a character of a shown line takes: 2 for wide
/// (CJK) characters, 0 for combining marks.
fn display_width(c: char) -> usize {
    unicode_width::UnicodeWidthChar::width(c).unwrap_or(0)
}

/// U+061C, U+200E, U+200F, U+202A..U+202E and U+2066..U+2069: they change
/// the direction of the text around them (the "Trojan Source" characters).
fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
    )
}

/// The first character of a label or id that no one could see or that moves
/// text about: a control character, a bidirectional control, or an invisible
/// one (U+200B zero-width space, U+2060 word joiner, U+FEFF), with what it is.
pub fn hidden_char(text: &str) -> Option<(char, &'static str)> {
    text.chars().find_map(|c| {
        if c.is_control() {
            Some((c, "a control character"))
        } else if is_bidi_control(c) {
            Some((c, "a bidirectional control character"))
        } else if matches!(c, '\u{200B}' | '\u{2060}' | '\u{FEFF}') {
            Some((c, "an invisible character"))
        } else {
            None
        }
    })
}

/// The error for a label or id (`what`, e.g. "the label") holding a
/// [`hidden_char`], at `doc`; `None` when it has none.
pub fn hidden_char_error(source: &Source, doc: &Doc, what: &str, text: &str) -> Option<InputError> {
    hidden_char(text).map(|(c, kind)| {
        source.error(
            doc,
            hidden_char_message(what, text, c, kind),
            "labels and ids are plain text: retype it without the hidden character".to_string(),
        )
    })
}

/// `the label `A␛` holds U+001B, a control character`.
pub fn hidden_char_message(what: &str, text: &str, c: char, kind: &str) -> String {
    format!(
        "{what} `{}` holds U+{:04X}, {kind}",
        printable(text),
        c as u32
    )
}

/// A label or id as treequiz keeps it: trimmed, in Unicode NFC, so that `é`
/// typed as one character and as `e` + a combining accent is one label.
pub fn label_text(text: &str) -> String {
    let text = text.trim();
    if unicode_normalization::is_nfc(text) {
        text.to_string()
    } else {
        unicode_normalization::UnicodeNormalization::nfc(text).collect()
    }
}

/// The form labels are compared in: [`label_text`], lower case.
pub fn label_key(text: &str) -> String {
    label_text(text).to_lowercase()
}

impl Source {
    /// An error at a byte span of this file.
    pub fn error_at(
        &self,
        span: Range<usize>,
        message: impl Into<String>,
        hint: Option<String>,
    ) -> InputError {
        // Parsers may report byte offsets inside a character: round to boundaries.
        let floor = |mut i: usize| {
            i = i.min(self.text.len());
            while !self.text.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        let start = floor(span.start);
        let line_start = self.text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = self.text[start..]
            .find('\n')
            .map_or(self.text.len(), |i| start + i);
        let text = self.text[line_start..line_end]
            .trim_end_matches('\r')
            .to_string();
        let line = self.text[..start].matches('\n').count() + 1;
        let column = self.text[line_start..start].chars().count() + 1;
        let end = floor(span.end.clamp(start, line_end));
        let mut width = self.text[start..end].chars().count();
        // A long (minified) line is shown as a window around the mark.
        let mut text = text;
        let mut shown_column = column;
        if text.chars().count() > 120 {
            let from = column.saturating_sub(40);
            let total = text.chars().count();
            let window: String = text.chars().skip(from).take(100).collect();
            let before = if from > 0 { "…" } else { "" };
            let after = if from + 100 < total { "…" } else { "" };
            text = format!("{before}{window}{after}");
            shown_column = column - from + before.chars().count();
            width = width.min(100);
        }
        // Positions in an 8 MiB file fit in u32.
        let [line, column, marker, width] = [line, column, shown_column, width].map(|n| n as u32);
        let location = Location::At {
            line,
            column,
            text,
            marker,
            width,
        };
        InputError {
            path: self.path.clone(),
            location,
            message: message.into(),
            hint,
        }
    }

    /// The place of a document node, for a problem found later.
    pub fn site(&self, doc: &Doc) -> Site {
        let e = self.error(doc, "", None);
        Site {
            path: e.path,
            location: e.location,
        }
    }

    /// An error at a document node: its span in TOML, its key path in JSON.
    pub fn error(
        &self,
        doc: &Doc,
        message: impl Into<String>,
        hint: impl Into<Option<String>>,
    ) -> InputError {
        match &doc.span {
            Some(span) => self.error_at(span.clone(), message, hint.into()),
            None => InputError {
                path: self.path.clone(),
                location: Location::Key(doc.path.clone()),
                message: message.into(),
                hint: hint.into(),
            },
        }
    }

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

/// A full-width or Chinese punctuation mark, as a Chinese input method types
/// it, where TOML needs an ASCII character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WideKind {
    /// `“ ” ‘ ’`.
    ChineseQuote,
    /// `＂ ＇`.
    WideQuote,
    /// `，`.
    Comma,
    /// `、`.
    EnumerationComma,
    /// `＝`.
    Equals,
    /// `［ ］`.
    Bracket,
    /// `【 】`.
    ChineseBracket,
    /// `｛ ｝`.
    Brace,
    /// `（ ）`.
    Parenthesis,
    /// `：`.
    Colon,
    /// `；`.
    Semicolon,
    /// The ideographic space U+3000.
    Space,
    /// `《 》`, typed for `<` and `>`.
    AngleBracket,
    /// `。`.
    FullStop,
    /// Any other full-width form of an ASCII character (`＋`, `１`, `Ａ`).
    Other,
}

impl WideKind {
    /// What the mark is, in English.
    pub fn name(self) -> &'static str {
        match self {
            WideKind::ChineseQuote => "Chinese quotation mark",
            WideKind::WideQuote => "full-width quotation mark",
            WideKind::Comma => "Chinese comma",
            WideKind::EnumerationComma => "Chinese enumeration comma",
            WideKind::Equals => "full-width equals sign",
            WideKind::Bracket => "full-width bracket",
            WideKind::ChineseBracket => "Chinese bracket",
            WideKind::Brace => "full-width brace",
            WideKind::Parenthesis => "full-width parenthesis",
            WideKind::Colon => "full-width colon",
            WideKind::Semicolon => "full-width semicolon",
            WideKind::Space => "full-width space",
            WideKind::AngleBracket => "Chinese angle bracket",
            WideKind::FullStop => "Chinese full stop",
            WideKind::Other => "full-width character",
        }
    }

    /// What its ASCII character is called, in English.
    pub fn ascii_name(self) -> &'static str {
        match self {
            WideKind::ChineseQuote | WideKind::WideQuote => "quote",
            WideKind::Comma | WideKind::EnumerationComma => "comma",
            WideKind::Equals => "equals sign",
            WideKind::Bracket | WideKind::ChineseBracket => "bracket",
            WideKind::Brace => "brace",
            WideKind::Parenthesis => "parenthesis",
            WideKind::Colon => "colon",
            WideKind::Semicolon => "semicolon",
            WideKind::Space => "space",
            WideKind::AngleBracket => "angle bracket",
            WideKind::FullStop => "full stop",
            WideKind::Other => "character",
        }
    }
}

/// The ASCII character a full-width or Chinese punctuation mark stands for,
/// and what kind of mark it is; `None` for every other character. Quotation
/// marks all stand for `"`, the quote answer sheets use.
pub fn wide_ascii(c: char) -> Option<(char, WideKind)> {
    let kind = match c {
        '“' | '”' | '‘' | '’' => return Some(('"', WideKind::ChineseQuote)),
        '＂' | '＇' => return Some(('"', WideKind::WideQuote)),
        '、' => return Some((',', WideKind::EnumerationComma)),
        '【' => return Some(('[', WideKind::ChineseBracket)),
        '】' => return Some((']', WideKind::ChineseBracket)),
        '《' => return Some(('<', WideKind::AngleBracket)),
        '》' => return Some(('>', WideKind::AngleBracket)),
        '。' => return Some(('.', WideKind::FullStop)),
        '\u{3000}' => return Some((' ', WideKind::Space)),
        '，' => WideKind::Comma,
        '＝' => WideKind::Equals,
        '［' | '］' => WideKind::Bracket,
        '｛' | '｝' => WideKind::Brace,
        '（' | '）' => WideKind::Parenthesis,
        '：' => WideKind::Colon,
        '；' => WideKind::Semicolon,
        '\u{FF01}'..='\u{FF5E}' => WideKind::Other,
        _ => return None,
    };
    // The full-width forms U+FF01..U+FF5E are ASCII 0x21..0x7E moved up by 0xFEE0.
    let ascii = char::from_u32(c as u32 - 0xFEE0).unwrap_or('?');
    Some((ascii, kind))
}

/// A full-width mark found in a TOML line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WideMark {
    /// Its byte offset in the text.
    pub offset: usize,
    /// The mark.
    pub ch: char,
    /// The ASCII character to type instead.
    pub ascii: char,
    /// What kind of mark it is.
    pub kind: WideKind,
}

impl WideMark {
    /// `type the ASCII quote " instead`, in English.
    pub fn instead(&self) -> String {
        if self.kind == WideKind::Space {
            "type an ASCII space instead".to_string()
        } else {
            format!(
                "type the ASCII {} {} instead",
                self.kind.ascii_name(),
                self.ascii
            )
        }
    }
}

/// The first full-width mark on the line holding byte `at` that TOML cannot
/// read there: one outside strings and comments, or a quotation mark inside a
/// string that the line leaves open (`"G”`, where `”` was meant to close it).
pub fn wide_mark(text: &str, at: usize) -> Option<WideMark> {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let mark = |offset: usize, ch: char| {
        wide_ascii(ch).map(|(ascii, kind)| WideMark {
            offset,
            ch,
            ascii,
            kind,
        })
    };
    // Outside strings (`None`), in a basic (`"`) or a literal (`'`) string.
    let mut quote: Option<char> = None;
    let mut escaped = false;
    // A quotation mark inside the string that is open.
    let mut inside: Option<WideMark> = None;
    for (i, c) in text[start..end].char_indices() {
        let offset = start + i;
        match quote {
            None => match c {
                '"' | '\'' => {
                    quote = Some(c);
                    inside = None;
                }
                '#' => break,
                _ => {
                    if let Some(m) = mark(offset, c) {
                        return Some(m);
                    }
                }
            },
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' && q == '"' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                } else if inside.is_none() {
                    inside = mark(offset, c)
                        .filter(|m| matches!(m.kind, WideKind::ChineseQuote | WideKind::WideQuote));
                }
            }
        }
    }
    quote.and(inside)
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

/// Reads a file as UTF-8 text, refusing files over [`MAX_FILE_BYTES`].
pub fn read_source(path: &std::path::Path) -> Result<Source, InputError> {
    read_source_capped(path, MAX_FILE_BYTES)
}

/// Why [`read_capped`] read nothing.
#[derive(Debug)]
pub enum ReadError {
    /// The path names a folder, FIFO, socket or device, not a file (its kind, for messages).
    NotAFile(&'static str),
    /// More than the cap: reading stopped there.
    TooLarge,
    /// The operating system's error.
    Io(std::io::Error),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::NotAFile(kind) => write!(f, "it is {kind}, not a file"),
            ReadError::TooLarge => write!(f, "it is too large"),
            ReadError::Io(e) => write!(f, "{e}"),
        }
    }
}

/// What a path names, by its metadata (of the link itself when read with
/// `symlink_metadata`): the one place file kinds are told apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A regular file.
    File,
    /// A folder.
    Folder,
    /// A symbolic link.
    Link,
    /// A FIFO (named pipe): opening it waits for a writer.
    Fifo,
    /// A Unix socket.
    Socket,
    /// A block or character device (`/dev/zero` never ends).
    Device,
    /// Anything else the system has.
    Other,
}

impl FileKind {
    /// The kind of what `meta` describes.
    pub fn of(meta: &std::fs::Metadata) -> FileKind {
        let t = meta.file_type();
        if t.is_file() {
            FileKind::File
        } else if t.is_dir() {
            FileKind::Folder
        } else if t.is_symlink() {
            FileKind::Link
        } else {
            FileKind::special(&t)
        }
    }

    #[cfg(unix)]
    fn special(t: &std::fs::FileType) -> FileKind {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            FileKind::Fifo
        } else if t.is_socket() {
            FileKind::Socket
        } else if t.is_block_device() || t.is_char_device() {
            FileKind::Device
        } else {
            FileKind::Other
        }
    }

    #[cfg(not(unix))]
    fn special(_: &std::fs::FileType) -> FileKind {
        FileKind::Other
    }

    /// In words, for messages: "a folder", "a FIFO (named pipe)".
    pub fn words(self) -> &'static str {
        match self {
            FileKind::File => "a file",
            FileKind::Folder => "a folder",
            FileKind::Link => "a symbolic link",
            FileKind::Fifo => "a FIFO (named pipe)",
            FileKind::Socket => "a socket",
            FileKind::Device => "a device",
            FileKind::Other => "not a regular file",
        }
    }
}

/// The bytes of the regular file at `path` (symbolic links followed), at
/// most `cap` of them. A FIFO, socket or device is refused, never waited on
/// (opening a FIFO waits for a writer; `/dev/zero` never ends), and reading
/// stops one byte past the cap whatever the file claims its size is.
pub fn read_capped(path: &std::path::Path, cap: u64) -> Result<Vec<u8>, ReadError> {
    read_opened(path, cap, true)
}

/// [`read_capped`], but a symbolic link at `path` is not followed: it is an
/// error (`ELOOP`), even when it appears after the caller looked.
pub fn read_capped_no_follow(path: &std::path::Path, cap: u64) -> Result<Vec<u8>, ReadError> {
    read_opened(path, cap, false)
}

/// Opens without blocking (a FIFO opens at once), then asks the open file
/// what it is: nothing can be swapped in between the look and the read.
fn read_opened(path: &std::path::Path, cap: u64, follow: bool) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    let look = || {
        if follow {
            std::fs::metadata(path)
        } else {
            std::fs::symlink_metadata(path)
        }
    };
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::OFlags;
        use std::os::unix::fs::OpenOptionsExt;
        let mut flags = OFlags::NONBLOCK;
        if !follow {
            flags |= OFlags::NOFOLLOW;
        }
        options.custom_flags(flags.bits() as i32);
    }
    #[cfg(not(target_os = "linux"))]
    {
        // Elsewhere: look first (a FIFO must not be opened).
        let meta = look().map_err(ReadError::Io)?;
        if !meta.is_file() {
            return Err(ReadError::NotAFile(FileKind::of(&meta).words()));
        }
    }
    let file = options.open(path).map_err(|e| {
        // A socket cannot be opened at all: say what it is, not ENXIO.
        match look() {
            Ok(m) if !m.is_file() && !m.file_type().is_symlink() => {
                ReadError::NotAFile(FileKind::of(&m).words())
            }
            _ => ReadError::Io(e),
        }
    })?;
    let meta = file.metadata().map_err(ReadError::Io)?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile(FileKind::of(&meta).words()));
    }
    let mut bytes = Vec::new();
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > cap {
        return Err(ReadError::TooLarge);
    }
    Ok(bytes)
}

/// Reads a file as UTF-8 text, refusing files over `cap` bytes (a class's
/// manifest holds every variant and may be large).
pub fn read_source_capped(path: &std::path::Path, cap: u64) -> Result<Source, InputError> {
    let shown = path.display().to_string();
    let bytes = read_capped(path, cap).map_err(|e| match e {
        ReadError::Io(e) => InputError::file(
            &shown,
            format!("cannot open the file: {e}"),
            Some("check the path".into()),
        ),
        ReadError::NotAFile(kind) => InputError::file(
            &shown,
            format!("this is {kind}, not a file"),
            Some("give the path of a text file".into()),
        ),
        ReadError::TooLarge => InputError::file(
            &shown,
            format!("the file is larger than {} MiB", cap >> 20),
            Some("instance files are small text files; check that this is the right file".into()),
        ),
    })?;
    let bytes = bytes
        .strip_prefix(b"\xEF\xBB\xBF")
        .map(<[u8]>::to_vec)
        .unwrap_or(bytes);
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let valid = String::from_utf8_lossy(&e.as_bytes()[..at]).into_owned();
        let source = Source {
            path: shown.clone(),
            text: valid,
        };
        source.error_at(
            at..at,
            "the file is not UTF-8 text",
            Some("save it as UTF-8 (most editors offer this under \"Save as\" / encoding)".into()),
        )
    })?;
    Ok(Source { path: shown, text })
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

    fn source(text: &str) -> Source {
        Source {
            path: "t.toml".into(),
            text: text.into(),
        }
    }

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
        // Punctuation inside a closed string or a comment is no error's cause.
        assert_eq!(wide_mark("a = \"x，y\" # ，\nb = [1，2]\n", 0), None);
        let mark = wide_mark("a = \"x，y\" # ，\nb = [1，2]\n", 22).unwrap();
        assert_eq!(
            (mark.ch, mark.ascii, mark.kind),
            ('，', ',', WideKind::Comma)
        );
        assert_eq!(wide_ascii('、'), Some((',', WideKind::EnumerationComma)));
        assert_eq!(wide_ascii('Ａ'), Some(('A', WideKind::Other)));
        assert_eq!(wide_ascii('→'), None);
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

    #[test]
    fn suggests_near_keys() {
        assert_eq!(
            closest("connecters", &["start", "connectors", "nodes"]),
            Some("connectors")
        );
        assert_eq!(closest("zzz", &["start", "connectors"]), None);
    }

    // Unix only: symbolic links (Windows makes them only with a privilege),
    // ELOOP and FIFOs.
    #[cfg(unix)]
    #[test]
    fn capped_reads_follow_links_only_when_asked_and_never_wait_on_a_fifo() {
        let dir = std::env::temp_dir().join(format!("treequiz-input-links-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("key.toml"), "secret answers").unwrap();
        std::os::unix::fs::symlink(dir.join("key.toml"), dir.join("me.toml")).unwrap();
        assert_eq!(
            read_capped(&dir.join("me.toml"), 100).unwrap(),
            b"secret answers"
        );
        match read_capped_no_follow(&dir.join("me.toml"), 100) {
            Err(ReadError::Io(e)) => assert_eq!(e.raw_os_error(), Some(40), "ELOOP: {e}"),
            other => panic!("a link was read: {other:?}"),
        }
        assert!(matches!(
            read_capped(&dir.join("key.toml"), 5),
            Err(ReadError::TooLarge)
        ));
        let fifo = dir.join("pipe.toml");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        // Opened without blocking, then refused by what the open file is.
        assert!(matches!(
            read_capped(&fifo, 100),
            Err(ReadError::NotAFile("a FIFO (named pipe)"))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
