//! A class's booklets without the class in memory: each sheet, rendered as
//! its variant is done, goes to a spill file in the staging folder, and a
//! booklet is its template rendered around markers, each replaced by its
//! sheet's bytes as the booklet is written. Memory stays flat in the class
//! size; the bytes are those of the template rendered over every sheet.
//!
//! A marker is `{sheet}.{part}` between two of one private-use character
//! that the template's own text (its title and words, rendered over empty
//! sheets) does not hold: no set's title can forge one.

use std::collections::BTreeSet;
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

use treequiz::render::Renderer;
use treequiz::view::{BookletSheet, BookletView};

use super::UsageError;

/// The private-use characters markers may be made of.
const PRIVATE: std::ops::RangeInclusive<char> = '\u{E000}'..='\u{F8FF}';

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
        let render = |sheets: &[BookletSheet]| {
            let refs: Vec<&BookletSheet> = sheets.iter().collect();
            (renderer.render(
                template,
                &BookletView {
                    sheets: &refs,
                    ..view.clone()
                },
            ))
            .map_err(|e| UsageError(e.to_string()))
        };
        let blank = BookletSheet {
            running: String::new(),
            body: String::new(),
        };
        let own = render(&vec![blank; sheets.len()])?;
        let mark = PRIVATE.clone().find(|&c| !own.contains(c)).ok_or_else(|| {
            UsageError(format!(
                "{template}: its text holds every private-use character, so no sheet can be marked in it"
            ))
        })?;
        let markers: Vec<BookletSheet> = (0..sheets.len())
            .map(|i| BookletSheet {
                running: format!("{mark}{i}.0{mark}"),
                body: format!("{mark}{i}.1{mark}"),
            })
            .collect();
        let frame = render(&markers)?;
        let file = File::create(out).map_err(|e| cannot(out, e))?;
        let mut w = BufWriter::new(file);
        let mut rest = frame.as_str();
        let failed = |e: std::io::Error| cannot(out, e);
        // Every `mark` in the frame opens a marker: the template's own text has none.
        while let Some(at) = rest.find(mark) {
            w.write_all(&rest.as_bytes()[..at]).map_err(failed)?;
            let after = &rest[at + mark.len_utf8()..];
            let (i, part, len) = marker(after, mark, sheets.len()).ok_or_else(|| {
                UsageError(format!(
                    "{template}: a sheet's marker was changed by the template"
                ))
            })?;
            self.copy(&sheets[i].parts[part], &mut w)?;
            rest = &after[len..];
        }
        w.write_all(rest.as_bytes()).map_err(failed)?;
        w.flush().map_err(failed)?;
        Ok(super::pdf::glyphs(&own).collect())
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

/// The sheet and part a marker names (its text after the opening `mark`),
/// and its length up to and with the closing one; `None` if it is no marker
/// of `n` sheets.
fn marker(text: &str, mark: char, n: usize) -> Option<(usize, usize, usize)> {
    let end = text.find(mark)?;
    let (sheet, part) = text[..end].split_once('.')?;
    let sheet: usize = sheet.parse().ok().filter(|&i| i < n)?;
    let part = match part {
        "0" => 0,
        "1" => 1,
        _ => return None,
    };
    Some((sheet, part, end + mark.len_utf8()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_are_read_and_others_are_text() {
        let m = '\u{E000}';
        assert_eq!(marker("12.1\u{E000}rest", m, 13), Some((12, 1, 4 + 3)));
        assert_eq!(marker("12.1\u{E000}", m, 12), None, "out of range");
        assert_eq!(marker("1.2\u{E000}", m, 5), None, "no such part");
        assert_eq!(marker("x.1\u{E000}", m, 5), None);
        assert_eq!(marker("1.1", m, 5), None, "unterminated");
    }
}
