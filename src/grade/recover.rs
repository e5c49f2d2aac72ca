//! What can be read of an answer file that is not valid TOML.
//!
//! One slip (`pruned = [G, L]`, a Chinese quotation mark) makes a TOML parser
//! refuse the whole file. Here the file is cut into statements (a section
//! header, or a `key = value` line with the lines that continue it), each is
//! parsed alone, the ones TOML cannot read are blanked out (spaces, so every
//! byte keeps its offset and every span of the rest stays true), and the rest
//! is read as usual. A broken statement costs the field it sets; a broken
//! section header costs its question. Each one says where it is, what is
//! wrong and, where a rewrite that TOML reads was found, what to write.

use std::ops::Range;

use toml::de::DeTable;

use crate::input::{
    Doc, InputError, Source, WideKind, WideMark, toml_string, wide_ascii, wide_mark,
};
use crate::reason::{Phrase, Reason};

/// How many statements may follow a broken one and still be tried as its
/// continuation (a multi-line inline table is cut at each of its keys).
const MAX_MERGE: usize = 8;

/// A file with more broken statements than this is not an answer sheet with
/// slips: it stays unreadable (and recovery stays linear in its size).
const MAX_BROKEN: usize = 100;

/// How many times the file is parsed whole again after the statements that
/// fail alone are out (each time one more statement is taken out).
const MAX_RETRIES: usize = 16;

/// A statement of an answer file that TOML cannot read, taken out so that the
/// rest of the file can be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broken {
    /// The `[qN]` section it is in (`None` in the header part, or in a section not named `qN`).
    pub question: Option<usize>,
    /// Whether it comes before the first section (the header part: variant, checksum, student).
    pub in_header: bool,
    /// The key it sets, when that can be read (`pruned` in `pruned: ["A"]` too).
    pub field: Option<String>,
    /// Whether it is the section's header line (or a repeated one): the whole section is lost.
    pub section_header: bool,
    /// Its value as written, shortened (what "you wrote" shows).
    pub text: String,
    /// What is wrong, where, and how to fix it.
    pub slip: Slip,
    /// The same as a positioned error (English), for a file that cannot be graded at all.
    pub error: InputError,
}

/// A syntax slip: where it is, what it is, and the statement rewritten so that TOML reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slip {
    /// 1-based line of the mark.
    pub line: u32,
    /// 1-based column of the mark, in characters.
    pub column: u32,
    /// What is wrong.
    pub kind: SlipKind,
    /// The statement rewritten on one line so that TOML reads it, when one was found.
    pub fix: Option<String>,
}

/// What is wrong with a statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SlipKind {
    /// A full-width or Chinese punctuation mark where TOML needs ASCII.
    Wide(WideMark),
    /// Answers without quotes (`[G, L]`, `n0 -> n1`): the items, as written.
    Unquoted(String),
    /// A string that its line leaves open.
    UnclosedString,
    /// A list without its `]`.
    UnclosedList,
    /// `pruned: [...]`: no `=` between the key and its value.
    NoEquals,
    /// A key or a section written twice: its name.
    Duplicate(String),
    /// Anything else: the parser's message (English).
    Other(String),
}

/// Reads `source` as TOML, taking out the statements that TOML cannot read.
/// The list is empty when the whole file is valid. A file that still gives
/// no table (or JSON, which is not cut into statements) gets its first error.
pub fn parse(source: &Source) -> Result<(Doc, Vec<Broken>), InputError> {
    match source.parse() {
        Ok(doc) => Ok((doc, Vec::new())),
        Err(e) => {
            let json = source.path.to_ascii_lowercase().ends_with(".json")
                || source.text.trim_start().starts_with('{');
            if json {
                return Err(e);
            }
            recover(source).ok_or(e)
        }
    }
}

#[derive(Clone, Debug)]
enum Kind {
    /// `[qN]` (the number, when the header names one).
    Header(Option<usize>),
    /// `key = value` (the key, when it can be read), or text that is neither.
    Entry(Option<String>),
}

#[derive(Clone, Debug)]
struct Stmt {
    span: Range<usize>,
    kind: Kind,
    /// The parser's error (span in the file, message), when it is broken.
    error: Option<(Range<usize>, String)>,
}

/// The parser's error for `text` alone, its span moved by `offset`.
fn toml_error(text: &str, offset: usize) -> Option<(Range<usize>, String)> {
    DeTable::parse(text).err().map(|e| {
        let span = e.span().unwrap_or(0..0);
        (
            span.start + offset..span.end + offset,
            e.message().trim_end().to_string(),
        )
    })
}

fn parses(text: &str) -> bool {
    DeTable::parse(text).is_ok()
}

/// Each character a Chinese input method types for ASCII, as that ASCII character.
fn fold(s: &str) -> String {
    s.chars()
        .map(|c| wide_ascii(c).map_or(c, |(a, _)| a))
        .collect()
}

/// A bare key at the start of `s`, and the rest.
fn leading_word(s: &str) -> Option<(&str, &str)> {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(s.len());
    (end > 0).then(|| (&s[..end], &s[end..]))
}

/// What a line starts: a section header, a key's statement, or `None` (it
/// continues the statement before it: a comment, a blank line, more of a list).
fn classify(line: &str) -> Option<Kind> {
    let folded = fold(line);
    let t = folded.trim();
    if t.is_empty() || t.starts_with('#') {
        return None;
    }
    let head = t.split('#').next().unwrap_or("");
    if let Some(rest) = head.strip_prefix('[') {
        let inner = rest.trim_start_matches('[').trim();
        let starts_key = inner
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if starts_key && !inner.contains([',', '"', '\'', '=']) {
            let name = inner.trim_end_matches(']').trim();
            let number = name
                .strip_prefix(['q', 'Q'])
                .and_then(|n| n.trim().parse::<usize>().ok());
            return Some(Kind::Header(number));
        }
        return None;
    }
    if let Some(eq) = t.find('=') {
        let key = t[..eq].trim();
        let quoted = key.len() >= 2
            && ((key.starts_with('"') && key.ends_with('"'))
                || (key.starts_with('\'') && key.ends_with('\'')));
        let plain = !key.is_empty() && !key.contains(['[', ']', '{', '}', ',', '#', '"', '\'']);
        if quoted || plain {
            let name = if quoted { &key[1..key.len() - 1] } else { key };
            return Some(Kind::Entry(Some(name.to_string())));
        }
    }
    // `pruned: ["A"]`: a key and a colon where `=` belongs.
    if let Some((word, rest)) = leading_word(t)
        && rest.trim_start().starts_with(':')
    {
        return Some(Kind::Entry(Some(word.to_string())));
    }
    None
}

/// The file cut into statements, in order, covering every byte.
fn statements(text: &str) -> Vec<Stmt> {
    let mut out: Vec<Stmt> = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        match (classify(line), out.last_mut()) {
            (Some(kind), _) => out.push(Stmt {
                span: start..offset,
                kind,
                error: None,
            }),
            (None, Some(last)) => last.span.end = offset,
            (None, None) => out.push(Stmt {
                span: start..offset,
                kind: Kind::Entry(None),
                error: None,
            }),
        }
    }
    out
}

/// Parses each statement alone; a broken one is tried with the statements
/// after it (a multi-line value cut at its keys), and a broken multi-line one
/// whose first line reads alone keeps that line and loses only the rest.
fn check_alone(text: &str, stmts: Vec<Stmt>) -> Option<Vec<Stmt>> {
    let mut out = Vec::with_capacity(stmts.len());
    let mut i = 0;
    let mut broken = 0;
    'next: while i < stmts.len() {
        if broken > MAX_BROKEN {
            return None;
        }
        let s = &stmts[i];
        let Some(error) = toml_error(&text[s.span.clone()], s.span.start) else {
            out.push(s.clone());
            i += 1;
            continue;
        };
        broken += 1;
        if matches!(s.kind, Kind::Entry(Some(_))) {
            for j in i + 1..stmts.len().min(i + 1 + MAX_MERGE) {
                if matches!(stmts[j].kind, Kind::Header(_)) {
                    break;
                }
                if parses(&text[s.span.start..stmts[j].span.end]) {
                    out.push(Stmt {
                        span: s.span.start..stmts[j].span.end,
                        kind: s.kind.clone(),
                        error: None,
                    });
                    i = j + 1;
                    continue 'next;
                }
            }
        }
        let first_end = text[s.span.clone()]
            .find('\n')
            .map_or(s.span.end, |n| s.span.start + n + 1);
        if first_end < s.span.end && parses(&text[s.span.start..first_end]) {
            out.push(Stmt {
                span: s.span.start..first_end,
                kind: s.kind.clone(),
                error: None,
            });
            // Stray text after a field that reads: it names no field (were
            // it `key = …` or `key: …`, it would be a statement of its own).
            let rest = first_end..s.span.end;
            out.push(Stmt {
                error: toml_error(&text[rest.clone()], rest.start),
                span: rest,
                kind: Kind::Entry(None),
            });
        } else {
            out.push(Stmt {
                error: Some(error),
                ..s.clone()
            });
        }
        i += 1;
    }
    Some(out)
}

/// Spaces for every byte of `span` except line ends.
fn blank(bytes: &mut [u8], span: Range<usize>) {
    for b in &mut bytes[span] {
        if *b != b'\n' && *b != b'\r' {
            *b = b' ';
        }
    }
}

/// Blanks the broken statements (a broken header: its whole section) and
/// parses the rest; retries with one more statement out while the whole still
/// fails (a key written twice). `None` when nothing readable is left.
fn recover(source: &Source) -> Option<(Doc, Vec<Broken>)> {
    let text = &source.text;
    let mut stmts = check_alone(text, statements(text))?;
    let mut retries = 0;
    loop {
        let mut bytes = text.as_bytes().to_vec();
        let mut lost_section = false;
        for s in &stmts {
            match (&s.kind, &s.error) {
                (Kind::Header(_), Some(_)) => {
                    lost_section = true;
                    blank(&mut bytes, s.span.clone());
                }
                (Kind::Header(_), None) => {
                    lost_section = false;
                }
                (_, Some(_)) => blank(&mut bytes, s.span.clone()),
                (_, None) if lost_section => blank(&mut bytes, s.span.clone()),
                _ => {}
            }
        }
        let blanked = String::from_utf8(bytes).ok()?;
        let Err(e) = DeTable::parse(&blanked) else {
            let doc = Source {
                path: source.path.clone(),
                text: blanked,
            }
            .parse()
            .ok()?;
            return Some((doc, report(source, &stmts)));
        };
        retries += 1;
        if retries > MAX_RETRIES {
            return None;
        }
        let span = e.span().unwrap_or(0..0);
        let at = span.start.min(text.len().saturating_sub(1));
        let s = stmts
            .iter_mut()
            .find(|s| s.span.contains(&at) || (s.span.end == text.len() && at >= s.span.start))?;
        if s.error.is_some() {
            return None;
        }
        s.error = Some((span, e.message().trim_end().to_string()));
    }
}

/// The broken statements, each with its section, field and slip. Statements
/// of a section whose header is broken are not listed: the section is.
fn report(source: &Source, stmts: &[Stmt]) -> Vec<Broken> {
    let mut out = Vec::new();
    let mut question = None;
    let mut in_header = true;
    let mut lost_section = false;
    for s in stmts {
        if let Kind::Header(n) = s.kind {
            question = n;
            in_header = false;
            lost_section = s.error.is_some();
        } else if lost_section {
            continue;
        }
        let Some((span, message)) = &s.error else {
            continue;
        };
        let chunk = &source.text[s.span.clone()];
        let (field, header) = match &s.kind {
            Kind::Header(_) => (None, true),
            Kind::Entry(key) => (key.clone(), false),
        };
        let duplicate = message.contains("duplicate");
        let name = match &s.kind {
            Kind::Header(_) => chunk
                .trim()
                .split('#')
                .next()
                .unwrap_or("")
                .trim()
                .to_string(),
            Kind::Entry(key) => key.clone().unwrap_or_default(),
        };
        let wide = chunk
            .char_indices()
            .filter(|&(i, _)| i == 0 || chunk.as_bytes()[i - 1] == b'\n')
            .find_map(|(i, _)| wide_mark(&source.text, s.span.start + i))
            .filter(|m| s.span.contains(&m.offset));
        let (fix, repaired) = repair(chunk, header);
        let kind = match (duplicate, wide, repaired) {
            (true, _, _) => SlipKind::Duplicate(name),
            (_, Some(mark), _) => SlipKind::Wide(mark),
            (_, None, Some(kind)) => kind,
            (_, None, None) => SlipKind::Other(message.clone()),
        };
        let at = wide.map_or(span.start, |m| m.offset);
        let error = match wide {
            Some(_) => source.toml_error(at..at + 1, message),
            None => source.toml_error(span.clone(), message),
        };
        let (line, column) = error.line_column().unwrap_or((1, 1));
        out.push(Broken {
            question,
            in_header,
            field,
            section_header: header,
            text: shown(chunk),
            slip: Slip {
                line,
                column,
                kind,
                fix: if duplicate { None } else { fix },
            },
            error,
        });
    }
    out
}

/// The value part of a statement on one line, without comments, shortened.
fn shown(chunk: &str) -> String {
    let one = one_line(chunk);
    let value = match one.split_once('=') {
        Some((_, v)) => v.trim(),
        None => one.trim(),
    };
    if value.chars().count() > 80 {
        value.chars().take(77).chain("…".chars()).collect()
    } else {
        value.to_string()
    }
}

/// A statement's lines joined by spaces, comment lines left out.
fn one_line(chunk: &str) -> String {
    chunk
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `line` with every full-width mark outside strings (or, with `everywhere`,
/// also inside them) made ASCII, and a comment at its end left out.
fn asciify(line: &str, everywhere: bool) -> String {
    let mut out = String::with_capacity(line.len());
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in line.chars() {
        let ascii = wide_ascii(c).map(|(a, _)| a);
        match quote {
            None => {
                let c = ascii.unwrap_or(c);
                match c {
                    '#' => break,
                    '"' | '\'' => quote = Some(c),
                    _ => {}
                }
                out.push(c);
            }
            Some(q) => {
                let c = if everywhere { ascii.unwrap_or(c) } else { c };
                if escaped {
                    escaped = false;
                } else if c == '\\' && q == '"' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
                out.push(c);
            }
        }
    }
    out.trim_end().to_string()
}

/// `s` split at `sep` outside strings and brackets.
fn split_top(s: &str, sep: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut quote, mut start) = (0i32, None::<char>, 0);
    for (i, c) in s.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, c) if c == sep && depth <= 0 => {
                parts.push(&s[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

/// Whether `v` is a TOML value.
fn value_ok(v: &str) -> bool {
    parses(&format!("x = {v}"))
}

/// `v` in quotes (quotes around it that do not close it are dropped).
fn quoted(v: &str) -> String {
    toml_string(v.trim().trim_matches(['"', '\'']).trim())
}

/// `key = value` with every answer that TOML cannot read put in quotes: the
/// items of a list, the values of a table, or the value itself. The second
/// result lists what was quoted.
fn quote_items(s: &str) -> Option<(String, Vec<String>)> {
    let (key, value) = s.split_once('=')?;
    let key = key.trim();
    let value = value.trim();
    let mut quoted_items = Vec::new();
    let mut item = |v: &str| -> Option<String> {
        let v = v.trim();
        if v.is_empty() {
            return None;
        }
        if value_ok(v) {
            Some(v.to_string())
        } else {
            quoted_items.push(v.trim_matches(['"', '\'']).trim().to_string());
            Some(quoted(v))
        }
    };
    let rewritten = if let Some(inner) = value.strip_prefix('[') {
        let inner = inner.strip_suffix(']').unwrap_or(inner);
        let items: Vec<String> = split_top(inner, ',')
            .into_iter()
            .filter_map(&mut item)
            .collect();
        format!("{key} = [{}]", items.join(", "))
    } else if let Some(inner) = value.strip_prefix('{') {
        let inner = inner.strip_suffix('}').unwrap_or(inner);
        let mut entries = Vec::new();
        for entry in split_top(inner, ',') {
            let Some((k, v)) = entry.split_once('=') else {
                if !entry.trim().is_empty() {
                    return None;
                }
                continue;
            };
            entries.push(format!("{} = {}", k.trim(), item(v)?));
        }
        format!("{key} = {{ {} }}", entries.join(", "))
    } else {
        format!("{key} = {}", item(value)?)
    };
    (!quoted_items.is_empty()).then_some((rewritten, quoted_items))
}

/// A rewrite of a broken statement on one line that TOML reads, and what it
/// changed (`None`: only full-width marks were made ASCII).
fn repair(chunk: &str, header: bool) -> (Option<String>, Option<SlipKind>) {
    let line = one_line(chunk);
    // A rewrite is shown on one line: a longer statement gets none.
    if line.chars().count() > 400 {
        return (None, None);
    }
    let fits = |s: &str| s.chars().count() <= 160 && parses(s);
    let mut base = asciify(&line, false);
    if fits(&base) {
        return (Some(base), None);
    }
    let everywhere = asciify(&line, true);
    if fits(&everywhere) {
        return (Some(everywhere), None);
    }
    if header {
        let closed = format!("{}]", everywhere.trim_end_matches(']'));
        return (fits(&closed).then_some(closed), None);
    }
    // `pruned: [...]`: the colon is where `=` belongs.
    if !everywhere.contains('=')
        && let Some((word, rest)) = leading_word(&everywhere)
        && let Some(value) = rest.trim_start().strip_prefix(':')
    {
        let with_equals = format!("{word} = {}", value.trim());
        if fits(&with_equals) {
            return (Some(with_equals), Some(SlipKind::NoEquals));
        }
        base = with_equals;
    } else {
        base = everywhere;
    }
    // A string left open: closed at the end of the line, or before the list's `]`.
    if base.matches('"').count() % 2 == 1 {
        let at_end = format!("{base}\"");
        let before_bracket = base
            .strip_suffix(']')
            .map(|b| format!("{}\"]", b.trim_end()));
        for candidate in [Some(at_end), before_bracket].into_iter().flatten() {
            if fits(&candidate) {
                return (Some(candidate), Some(SlipKind::UnclosedString));
            }
        }
    }
    if let Some((rewritten, items)) = quote_items(&base) {
        let given = items.join(", ");
        if fits(&rewritten) {
            return (Some(rewritten), Some(SlipKind::Unquoted(given)));
        }
    }
    if base
        .split_once('=')
        .is_some_and(|(_, v)| v.trim().starts_with('['))
    {
        let closed = format!("{base}]");
        if fits(&closed) {
            return (Some(closed), Some(SlipKind::UnclosedList));
        }
        if let Some((rewritten, items)) = quote_items(&closed)
            && fits(&rewritten)
        {
            return (Some(rewritten), Some(SlipKind::Unquoted(items.join(", "))));
        }
    }
    (None, None)
}

/// The string-table key naming a kind of full-width mark.
fn wide_name(kind: WideKind) -> &'static str {
    match kind {
        WideKind::ChineseQuote => "grade.wide_chinese_quote",
        WideKind::WideQuote => "grade.wide_quote",
        WideKind::Comma => "grade.wide_comma",
        WideKind::EnumerationComma => "grade.wide_enumeration_comma",
        WideKind::Equals => "grade.wide_equals",
        WideKind::Bracket => "grade.wide_bracket",
        WideKind::ChineseBracket => "grade.wide_chinese_bracket",
        WideKind::Brace => "grade.wide_brace",
        WideKind::Parenthesis => "grade.wide_parenthesis",
        WideKind::Colon => "grade.wide_colon",
        WideKind::Semicolon => "grade.wide_semicolon",
        WideKind::Space => "grade.wide_space",
        WideKind::AngleBracket => "grade.wide_angle_bracket",
        WideKind::FullStop => "grade.wide_full_stop",
        WideKind::Other => "grade.wide_other",
    }
}

/// The string-table key naming the ASCII character a full-width mark stands for.
fn ascii_name(kind: WideKind) -> &'static str {
    match kind {
        WideKind::ChineseQuote | WideKind::WideQuote => "grade.ascii_quote",
        WideKind::Comma | WideKind::EnumerationComma => "grade.ascii_comma",
        WideKind::Equals => "grade.ascii_equals",
        WideKind::Bracket | WideKind::ChineseBracket => "grade.ascii_bracket",
        WideKind::Brace => "grade.ascii_brace",
        WideKind::Parenthesis => "grade.ascii_parenthesis",
        WideKind::Colon => "grade.ascii_colon",
        WideKind::Semicolon => "grade.ascii_semicolon",
        WideKind::Space => "grade.ascii_space",
        WideKind::AngleBracket => "grade.ascii_angle_bracket",
        WideKind::FullStop => "grade.ascii_full_stop",
        WideKind::Other => "grade.ascii_other",
    }
}

impl Slip {
    /// `line 14, column 17: n0 -> n1 is not in quotes; write it in quotes:
    /// sum_solution = ["n0 -> n1"]`. `example` is how the field is written
    /// (for a slip no rewrite was found for).
    pub fn reason(&self, example: Option<&str>) -> Reason {
        let (problem, fix) = self.problem_and_fix(example);
        Reason::new(Phrase::Syntax)
            .with("line", self.line.to_string())
            .with("column", self.column.to_string())
            .nested("problem", problem)
            .nested("fix", fix)
    }

    /// A slip that counts as its rewrite: where it is, what it is, what was
    /// read, and `cost`, what that cost.
    pub fn read_as(&self, cost: Reason) -> Reason {
        let (problem, _) = self.problem_and_fix(None);
        Reason::new(Phrase::SlipRead)
            .with("line", self.line.to_string())
            .with("column", self.column.to_string())
            .nested("problem", problem)
            .with("fixed", self.fix.clone().unwrap_or_default())
            .nested("cost", cost)
    }

    fn problem_and_fix(&self, example: Option<&str>) -> (Reason, Reason) {
        let fixed = self.fix.clone().unwrap_or_default();
        match &self.kind {
            SlipKind::Wide(mark) => {
                let problem = Reason::new(Phrase::SlipWide)
                    .with("char", mark.ch.to_string())
                    .term("what", wide_name(mark.kind));
                let ascii = if mark.kind == WideKind::Space {
                    String::new()
                } else {
                    format!(" {}", mark.ascii)
                };
                let fix = Reason::new(if self.fix.is_some() {
                    Phrase::FixWideAs
                } else {
                    Phrase::FixWide
                })
                .term("ascii_name", ascii_name(mark.kind))
                .with("ascii", ascii)
                .with("fixed", fixed);
                (problem, fix)
            }
            SlipKind::Unquoted(given) => (
                Reason::new(Phrase::SlipUnquoted).with("given", given.as_str()),
                Reason::new(Phrase::FixQuotes).with("fixed", fixed),
            ),
            SlipKind::UnclosedString => (
                Reason::new(Phrase::SlipUnclosedString),
                Reason::new(Phrase::FixCloseString).with("fixed", fixed),
            ),
            SlipKind::UnclosedList => (
                Reason::new(Phrase::SlipUnclosedList),
                Reason::new(Phrase::FixCloseList).with("fixed", fixed),
            ),
            SlipKind::NoEquals => (
                Reason::new(Phrase::SlipNoEquals),
                Reason::new(Phrase::FixEquals).with("fixed", fixed),
            ),
            SlipKind::Duplicate(key) => (
                Reason::new(Phrase::SlipDuplicate).with("key", key.as_str()),
                Reason::new(Phrase::FixKeepOne),
            ),
            SlipKind::Other(detail) => (
                Reason::new(Phrase::SlipOther).with("detail", detail.as_str()),
                match (&self.fix, example) {
                    (Some(fixed), _) => {
                        Reason::new(Phrase::FixWriteAs).with("fixed", fixed.as_str())
                    }
                    (None, Some(example)) => {
                        Reason::new(Phrase::FixExample).with("example", example)
                    }
                    (None, None) => Reason::new(Phrase::FixCheck),
                },
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (Doc, Vec<Broken>) {
        parse(&Source {
            path: "a.toml".into(),
            text: text.into(),
        })
        .unwrap_or_else(|e| panic!("{e}"))
    }

    fn keys(doc: &Doc) -> Vec<String> {
        let crate::input::DocKind::Table(entries) = &doc.kind else {
            panic!()
        };
        entries.iter().map(|(k, _)| k.name.clone()).collect()
    }

    #[test]
    fn one_unquoted_list_costs_its_field_only() {
        let text =
            "variant = \"X\"\n[q1]\nvalue = 3\nsum_solution = [n0 -> n1]\ncost = 4\n[q2]\nx = 1\n";
        let (doc, broken) = read(text);
        assert_eq!(keys(&doc), ["variant", "q1", "q2"]);
        let q1 = doc.get("q1").unwrap();
        assert!(q1.get("value").is_some() && q1.get("cost").is_some());
        assert!(q1.get("sum_solution").is_none());
        assert_eq!(broken.len(), 1);
        let b = &broken[0];
        assert_eq!(
            (b.question, b.field.as_deref()),
            (Some(1), Some("sum_solution"))
        );
        assert_eq!((b.slip.line, b.slip.column), (4, 17));
        assert_eq!(b.slip.kind, SlipKind::Unquoted("n0 -> n1".into()));
        assert_eq!(b.slip.fix.as_deref(), Some("sum_solution = [\"n0 -> n1\"]"));
        // Spans of what was read still point into the original text.
        let cost = q1.get("cost").unwrap();
        assert_eq!(&text[cost.span.clone().unwrap()], "4");
    }

    #[test]
    fn chinese_punctuation_is_named_at_its_own_column() {
        let (_, broken) =
            read("variant = \"X\"\n[q1]\nbest_move = “G”\npruned = [\"G\"，\"L\"]\nv = \"a”\n");
        let kinds: Vec<_> = broken
            .iter()
            .map(|b| (b.slip.line, b.slip.column, b.slip.fix.clone()))
            .collect();
        assert_eq!(
            kinds,
            [
                (3, 13, Some("best_move = \"G\"".to_string())),
                (4, 14, Some("pruned = [\"G\",\"L\"]".to_string())),
                (5, 7, Some("v = \"a\"".to_string())),
            ]
        );
        assert!(
            matches!(&broken[0].slip.kind, SlipKind::Wide(m) if m.ch == '“' && m.kind == WideKind::ChineseQuote)
        );
        assert!(matches!(&broken[1].slip.kind, SlipKind::Wide(m) if m.ch == '，'));
        assert!(
            broken[0]
                .error
                .to_string()
                .contains("`“` is a Chinese quotation mark")
        );
    }

    #[test]
    fn other_slips_get_their_rewrite() {
        let (_, broken) = read(
            "variant = \"X\"\n[q1]\nbest_move = \"G\nvalues = { A = 3, B = <=2 }\npruned: [\"Q\"]\nevaluated = [\"A\", \"B\"\nbeta_cuts = [\"F\"]\n",
        );
        let got: Vec<_> = broken
            .iter()
            .map(|b| {
                (
                    b.field.clone().unwrap(),
                    b.slip.kind.clone(),
                    b.slip.fix.clone().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (
                    "best_move".into(),
                    SlipKind::UnclosedString,
                    "best_move = \"G\"".into()
                ),
                (
                    "values".into(),
                    SlipKind::Unquoted("<=2".into()),
                    "values = { A = 3, B = \"<=2\" }".into()
                ),
                (
                    "pruned".into(),
                    SlipKind::NoEquals,
                    "pruned = [\"Q\"]".into()
                ),
                (
                    "evaluated".into(),
                    SlipKind::UnclosedList,
                    "evaluated = [\"A\", \"B\"]".into()
                ),
            ]
        );
    }

    #[test]
    fn a_broken_section_header_loses_its_section_and_a_repeated_key_is_named() {
        let (doc, broken) =
            read("variant = \"X\"\n[q1]\nvalue = 1\n[q2\nvalue = 2\n[q3]\nvalue = 3\nvalue = 4\n");
        assert_eq!(keys(&doc), ["variant", "q1", "q3"]);
        assert_eq!(
            doc.get("q1").unwrap().get("value").unwrap().span,
            Some(27..28)
        );
        assert_eq!(broken.len(), 2, "{broken:?}");
        assert!(broken[0].section_header && broken[0].question == Some(2));
        assert_eq!(broken[0].slip.fix.as_deref(), Some("[q2]"));
        assert_eq!(broken[1].slip.kind, SlipKind::Duplicate("value".into()));
        assert_eq!((broken[1].question, broken[1].slip.line), (Some(3), 8));
    }

    #[test]
    fn valid_multi_line_values_survive_a_slip_elsewhere() {
        let (doc, broken) = read(
            "variant = \"X\"\n[q1]\nvalues = {\n  A = 3,\n  B = 2 }\nevaluated = [\n  \"A\",\n]\nbad = [x]\n",
        );
        let q1 = doc.get("q1").unwrap();
        assert!(q1.get("values").is_some() && q1.get("evaluated").is_some());
        assert_eq!(broken.len(), 1);
        assert_eq!(broken[0].field.as_deref(), Some("bad"));
    }

    #[test]
    fn a_file_of_slips_stays_unreadable_and_fast() {
        let mut text = String::from("variant = \"X\"\n[q1]\n");
        for i in 0..20_000 {
            text.push_str(&format!("x{i} = [a, b]\n"));
        }
        let start = std::time::Instant::now();
        let source = Source {
            path: "a.toml".into(),
            text,
        };
        assert!(parse(&source).is_err());
        assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
    }

    #[test]
    fn stray_text_is_reported_without_taking_the_field_before_it() {
        let (doc, broken) =
            read("variant = \"X\"\n[q1]\nvalue = 3\nI am not sure about this one\n");
        assert!(doc.get("q1").unwrap().get("value").is_some());
        assert_eq!(broken.len(), 1);
        assert_eq!(broken[0].slip.line, 4);
    }
}
