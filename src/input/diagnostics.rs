//! Positioned errors: where a problem in an input file is, and how it is
//! shown (rustc's layout: message, `--> file:line:col`, the line, a caret, a hint).

use std::fmt;
use std::ops::Range;

use super::unicode::display_width;
use super::{Doc, printable};

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
}
