//! Reading instance files: a spanned document tree and errors that point at it.
//!
//! TOML and JSON are both read into one [`Doc`] tree, so that every check on
//! a file's content is written once. TOML values keep their byte spans, so an
//! error names the line and column; JSON values (for programs, not people)
//! carry their key path instead, and JSON syntax errors their line and column.
//!
//! One job per file: `diagnostics` (where an error is and how it is shown),
//! `unicode` (hidden characters, labels, full-width marks), `doc` (the
//! spanned document and its parsing), `reader` (typed readers and hints),
//! `file` (reading a file from disk). Everything is re-exported here, so
//! callers name `crate::input::X`.

mod diagnostics;
mod doc;
mod file;
mod reader;
mod unicode;

pub use diagnostics::{InputError, Location, Site, Source};
pub use doc::{Doc, DocKind, Key, json_doc};
pub use file::{
    FileKind, MAX_FILE_BYTES, ReadError, open_capped, read_capped, read_capped_no_follow,
    read_source, read_source_capped,
};
pub use reader::{Reader, Table, closest, did_you_mean, parse_range, toml_key, toml_string};
pub use unicode::{
    WideKind, WideMark, hidden_char, hidden_char_error, hidden_char_message, label_key, label_text,
    printable, wide_ascii, wide_mark,
};
