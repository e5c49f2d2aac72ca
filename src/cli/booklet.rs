//! A class's booklets without the class in memory: each sheet, rendered as
//! its variant is done, goes to a spill file in the staging folder, and a
//! booklet is its template rendered around markers, each replaced by its
//! sheet's bytes as the booklet is written. Memory stays flat in the class
//! size; the bytes are those of the template rendered over every sheet.

use std::collections::BTreeSet;
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

use treequiz::render::Renderer;
use treequiz::view::{BookletSheet, BookletView};

use super::UsageError;

/// Opens a marker; `{sheet}.{part}` and [`END`] follow. A private-use
/// character, which no template or set writes next to such a number.
const START: char = '\u{E000}';
const END: char = '\u{E001}';

/// Where one sheet's running head and body are in the spill file.
#[derive(Clone, Debug)]
pub(crate) struct Kept {
    parts: [Range<u64>; 2],
}

/// Sheets kept on disk as they are rendered.
pub(crate) struct Spill {
    out: BufWriter<File>,
    path: PathBuf,
    len: u64,
    /// The characters a font must draw, of every sheet, for the PDF font
    /// check (`None`: not printed, not gathered).
    glyphs: Option<BTreeSet<char>>,
}

fn cannot(path: &Path, e: std::io::Error) -> UsageError {
    UsageError(format!("{}: cannot write: {e}", path.display()))
}

impl Spill {
    /// A new spill file at `path` (in the staging folder: it goes with it);
    /// `printed`: its sheets' glyphs are gathered for the font check.
    pub(crate) fn create(path: PathBuf, printed: bool) -> Result<Spill, UsageError> {
        let file = File::create(&path).map_err(|e| cannot(&path, e))?;
        Ok(Spill {
            out: BufWriter::new(file),
            path,
            len: 0,
            glyphs: printed.then(BTreeSet::new),
        })
    }

    /// Keeps `sheet`; returns where it is.
    pub(crate) fn keep(&mut self, sheet: &BookletSheet) -> Result<Kept, UsageError> {
        let mut part = |text: &str| {
            self.out
                .write_all(text.as_bytes())
                .map_err(|e| cannot(&self.path, e))?;
            if let Some(glyphs) = &mut self.glyphs {
                glyphs.extend(super::pdf::glyphs(text));
            }
            let start = self.len;
            self.len += text.len() as u64;
            Ok::<_, UsageError>(start..self.len)
        };
        Ok(Kept {
            parts: [part(&sheet.running)?, part(&sheet.body)?],
        })
    }

    /// The characters a font must draw, of every sheet kept (if gathered).
    pub(crate) fn glyphs(&self) -> Option<&BTreeSet<char>> {
        self.glyphs.as_ref()
    }

    /// Ends the spill file: its sheets can be written out.
    pub(crate) fn finish(self) -> Result<Spilled, UsageError> {
        drop(
            self.out
                .into_inner()
                .map_err(|e| cannot(&self.path, e.into_error()))?,
        );
        let file = File::open(&self.path)
            .map_err(|e| UsageError(format!("{}: cannot read back: {e}", self.path.display())))?;
        Ok(Spilled {
            file,
            path: self.path,
        })
    }
}

/// A finished spill file.
pub(crate) struct Spilled {
    file: File,
    path: PathBuf,
}

impl Spilled {
    /// Writes `template` rendered with `view` (its `sheets` empty: they are
    /// filled here) over the `sheets` kept, to `out`. Returns the glyphs of
    /// the template's own text (its title, its words), for the font check.
    pub(crate) fn write(
        &self,
        renderer: &Renderer,
        template: &str,
        view: BookletView,
        sheets: &[&Kept],
        out: &Path,
    ) -> Result<BTreeSet<char>, UsageError> {
        let markers: Vec<BookletSheet> = (0..sheets.len())
            .map(|i| BookletSheet {
                running: format!("{START}{i}.0{END}"),
                body: format!("{START}{i}.1{END}"),
            })
            .collect();
        let refs: Vec<&BookletSheet> = markers.iter().collect();
        let frame = renderer
            .render(
                template,
                &BookletView {
                    sheets: &refs,
                    ..view
                },
            )
            .map_err(|e| UsageError(e.to_string()))?;
        let file = File::create(out).map_err(|e| cannot(out, e))?;
        let mut w = BufWriter::new(file);
        let mut rest = frame.as_str();
        let failed = |e: std::io::Error| cannot(out, e);
        while let Some(at) = rest.find(START) {
            w.write_all(&rest.as_bytes()[..at]).map_err(failed)?;
            let after = &rest[at + START.len_utf8()..];
            match marker(after, sheets.len()) {
                Some((i, part, len)) => {
                    self.copy(&sheets[i].parts[part], &mut w)?;
                    rest = &after[len..];
                }
                None => {
                    w.write_all(&rest.as_bytes()[at..at + START.len_utf8()])
                        .map_err(failed)?;
                    rest = after;
                }
            }
        }
        w.write_all(rest.as_bytes()).map_err(failed)?;
        w.flush().map_err(failed)?;
        Ok(super::pdf::glyphs(&frame)
            .filter(|&c| c != START && c != END)
            .collect())
    }

    /// Copies one part of the spill file into `w`.
    fn copy(&self, range: &Range<u64>, w: &mut impl Write) -> Result<(), UsageError> {
        let unreadable = |e: std::io::Error| {
            UsageError(format!("{}: cannot read back: {e}", self.path.display()))
        };
        let mut file = &self.file;
        file.seek(SeekFrom::Start(range.start))
            .map_err(unreadable)?;
        let copied =
            std::io::copy(&mut file.take(range.end - range.start), w).map_err(unreadable)?;
        if copied != range.end - range.start {
            return Err(unreadable(std::io::ErrorKind::UnexpectedEof.into()));
        }
        Ok(())
    }

    /// Removes the spill file.
    pub(crate) fn remove(self) -> Result<(), UsageError> {
        drop(self.file);
        std::fs::remove_file(&self.path).map_err(|e| cannot(&self.path, e))
    }
}

/// The sheet and part a marker names (its text after [`START`]), and its
/// length up to and with [`END`]; `None` if it is no marker of `n` sheets.
fn marker(text: &str, n: usize) -> Option<(usize, usize, usize)> {
    let end = text.find(END)?;
    let (sheet, part) = text[..end].split_once('.')?;
    let sheet: usize = sheet.parse().ok().filter(|&i| i < n)?;
    let part = match part {
        "0" => 0,
        "1" => 1,
        _ => return None,
    };
    Some((sheet, part, end + END.len_utf8()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_are_read_and_others_are_text() {
        assert_eq!(marker("12.1\u{E001}rest", 13), Some((12, 1, 5 + 3)));
        assert_eq!(marker("12.1\u{E001}", 12), None, "out of range");
        assert_eq!(marker("1.2\u{E001}", 5), None, "no such part");
        assert_eq!(marker("x.1\u{E001}", 5), None);
        assert_eq!(marker("1.1", 5), None, "unterminated");
    }
}
