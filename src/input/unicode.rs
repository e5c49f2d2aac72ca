//! What a user's text may hold that the eye cannot check: characters that
//! steer a terminal or hide, labels typed in two Unicode forms, and the
//! full-width punctuation a Chinese input method types where TOML needs ASCII.

use super::{Doc, InputError, Source};

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
pub(super) fn display_width(c: char) -> usize {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_marks_toml_cannot_read_are_found() {
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
}
