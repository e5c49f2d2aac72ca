//! What was handed in: files as given, every file of the given folders, and
//! every entry of an LMS's download zip, read in memory. Each is one
//! [`Handed`], and each gets its row in the grade table, whatever it holds.

use std::path::{Path, PathBuf};

use super::batch::{MAX_ANSWER_BYTES, Row, Status};
use super::lms::Sender;
use crate::input::{FileKind, Source};
use crate::lang::Lang;

/// How deep [`collect`] searches a handed-in folder: deeper folders get a
/// row of their own (an LMS download nests three or four levels).
pub const MAX_FOLDER_DEPTH: usize = 16;

/// One handed-in file.
#[derive(Clone, Debug)]
pub struct Handed {
    /// Where it is: a path on disk, or for a zip's entry the zip's path
    /// joined with the entry's name (its stem and folder may name the
    /// student, as a file's do).
    pub path: PathBuf,
    /// Who sent it, as an LMS's download names it.
    pub sender: Option<Sender>,
    body: Body,
}

#[derive(Clone, Debug)]
enum Body {
    /// A file on disk, read when it is graded.
    Disk,
    /// A zip's entry, read when the zip was listed (or why it was not).
    Memory(Result<Vec<u8>, Refused>),
}

/// Why a zip's entry was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// Its name is absolute, climbs out with `..` or holds a NUL.
    UnsafeName,
    /// A symbolic link stored in the zip: never followed.
    Link,
    /// Over [`MAX_ANSWER_BYTES`] (the size it claims, or the bytes it gave).
    TooLarge(u64),
    /// It would inflate more than [`MAX_RATIO`] times its stored size.
    Ratio(u64),
    /// Encrypted.
    Encrypted,
    /// The zip's data for it is broken (its words).
    Broken(String),
    /// The zip's entries before it already gave [`MAX_ZIP_BYTES`].
    ZipFull,
}

impl Handed {
    /// A file on disk.
    pub fn file(path: PathBuf) -> Handed {
        let sender = Sender::of(&path);
        Handed {
            path,
            sender,
            body: Body::Disk,
        }
    }

    /// A zip's entry `name` of `zip`, read (or refused).
    pub fn entry(zip: &Path, name: &str, read: Result<Vec<u8>, Refused>) -> Handed {
        let path = zip.join(name);
        let sender = Sender::of(Path::new(name));
        Handed {
            path,
            sender,
            body: Body::Memory(read),
        }
    }

    /// As the grade table shows it.
    pub fn shown(&self) -> String {
        crate::output::portable(&self.path)
    }

    /// Whether it lies on disk (a zip's entry does not).
    pub fn on_disk(&self) -> bool {
        matches!(self.body, Body::Disk)
    }

    /// Its bytes, within the cap, when it is a file that can be read.
    pub fn bytes(&self) -> Option<Vec<u8>> {
        match &self.body {
            Body::Disk => crate::input::read_capped_no_follow(&self.path, MAX_ANSWER_BYTES).ok(),
            Body::Memory(read) => read.as_ref().ok().cloned(),
        }
    }

    /// Its text, or the row that says why it has none (see [`read_answer`]).
    pub fn read(&self, lang: &Lang) -> Result<Source, Box<Row>> {
        match &self.body {
            Body::Disk => read_answer(&self.path, lang),
            Body::Memory(Ok(bytes)) => text_of(bytes, self.shown(), lang),
            Body::Memory(Err(why)) => Err(Box::new(Row::refused(
                &self.shown(),
                match why {
                    Refused::TooLarge(_) | Refused::Ratio(_) | Refused::ZipFull => Status::TooLarge,
                    Refused::UnsafeName | Refused::Link => Status::NotAFile,
                    Refused::Encrypted | Refused::Broken(_) => Status::Unreadable,
                },
                match why {
                    Refused::UnsafeName => lang.get("batch.zip_unsafe_name").to_string(),
                    Refused::Link => lang.get("batch.zip_link").to_string(),
                    Refused::TooLarge(bytes) => lang.fill(
                        "batch.too_large",
                        &[
                            ("bytes", &bytes.to_string()),
                            ("max", &MAX_ANSWER_BYTES.to_string()),
                        ],
                    ),
                    Refused::Ratio(ratio) => lang.fill(
                        "batch.zip_ratio",
                        &[
                            ("ratio", &ratio.to_string()),
                            ("max", &MAX_RATIO.to_string()),
                        ],
                    ),
                    Refused::Encrypted => lang.get("batch.zip_encrypted").to_string(),
                    Refused::Broken(error) => lang.fill("batch.cannot_read", &[("error", error)]),
                    Refused::ZipFull => lang.fill(
                        "batch.zip_full",
                        &[("max", &(MAX_ZIP_BYTES >> 20).to_string())],
                    ),
                },
            ))),
        }
    }
}

/// The most entries a zip may have.
pub const MAX_ZIP_ENTRIES: usize = 100_000;
/// The most bytes all of a zip's entries may give, read in memory.
pub const MAX_ZIP_BYTES: u64 = 512 << 20;
/// The most an entry may inflate: real answer sheets deflate 3 to 10 times.
pub const MAX_RATIO: u64 = 200;

/// Whether a given path is a zip to open (the teacher's download), not a
/// file to grade: its name ends in `.zip` and it starts as a zip does.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
fn is_zip(path: &Path) -> bool {
    use std::io::Read;
    let named = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("zip"));
    let mut magic = [0u8; 4];
    named
        && std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
        && std::fs::File::open(path).is_ok_and(|mut f| f.read_exact(&mut magic).is_ok())
        && (magic == *b"PK\x03\x04" || magic == *b"PK\x05\x06")
}

/// The files among `paths`: files as given, every entry of the given
/// folders (not only `*.toml`: a misnamed file still gets its row), and every
/// entry of a given zip (an LMS's download, read in memory by
/// [`super::lms::read_zip`]), sorted by path.
/// Hidden entries are skipped. Symbolic links, FIFOs, sockets and devices are
/// listed too, so that each gets its row, but they are never followed or
/// opened (see [`read_answer`]): a link in a handed-in folder could point at a
/// key outside it, and opening a FIFO waits for a writer. A path given that is
/// a link is not followed either (a shell's `handed-in/*` names students'
/// links too); `handed-in/` with its slash names the folder a link points to.
/// A folder inside that cannot be read, or lies deeper than
/// [`MAX_FOLDER_DEPTH`], is listed itself, so that it gets its row and every
/// other file is still graded; only a given folder that cannot be read, or a
/// given zip that cannot be listed, is an error.
pub fn collect(paths: &[PathBuf]) -> std::io::Result<Vec<Handed>> {
    let mut out = Vec::new();
    for p in paths {
        let is_dir = std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir());
        if !is_dir {
            // The browser's module reads no zips (and no folders).
            #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
            if is_zip(p) {
                let before = out.len();
                super::lms::read_zip(p, &mut out)?;
                if out.len() == before {
                    return Err(std::io::Error::other(format!(
                        "{}: no files in this zip",
                        p.display()
                    )));
                }
                continue;
            }
            out.push(Handed::file(p.clone()));
            continue;
        }
        let before = out.len();
        // Only a given folder that cannot be read stops the run.
        std::fs::read_dir(p)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", p.display())))?;
        // Paths, not open listings: a download of thousands of student
        // folders must not hold thousands of folders open.
        let mut todo = vec![(p.clone(), 0)];
        while let Some((d, depth)) = todo.pop() {
            let Ok(entries) = std::fs::read_dir(&d) else {
                out.push(Handed::file(d));
                continue;
            };
            for e in entries {
                let Ok(e) = e else {
                    // The folder's listing broke off: the folder is the row.
                    out.push(Handed::file(d.clone()));
                    break;
                };
                if e.file_name().to_string_lossy().starts_with('.') {
                    continue;
                }
                // The entry's own type: a link is not followed.
                if !e.file_type().is_ok_and(|t| t.is_dir()) {
                    out.push(Handed::file(e.path()));
                } else if depth < MAX_FOLDER_DEPTH {
                    todo.push((e.path(), depth + 1));
                } else {
                    out.push(Handed::file(e.path()));
                }
            }
        }
        if out.len() == before {
            return Err(std::io::Error::other(format!(
                "{}: no files in this folder",
                p.display()
            )));
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    // A path given twice, or inside a folder also given, is one file.
    out.dedup_by(|a, b| a.path == b.path && a.on_disk() && b.on_disk());
    Ok(out)
}

/// Reads one answer file within the size cap; the row's reason when it
/// cannot be text. Nothing outside the handed-in files is read: a symbolic
/// link is refused without being followed (whatever it points at, even a file
/// beside it: hand in the file itself), and a FIFO, socket or device without
/// being opened. Reading stops one byte past [`MAX_ANSWER_BYTES`], whatever
/// size the file claims.
pub fn read_answer(path: &Path, lang: &Lang) -> Result<Source, Box<Row>> {
    let shown = crate::output::portable(path);
    let refuse = |status, reason: String| Box::new(Row::refused(&shown, status, reason));
    let meta = std::fs::symlink_metadata(path).map_err(|e| {
        refuse(
            Status::Unreadable,
            lang.fill("batch.cannot_open", &[("error", &e.to_string())]),
        )
    })?;
    let key = match FileKind::of(&meta) {
        FileKind::File => None,
        FileKind::Link => {
            let target = std::fs::read_link(path)
                .map(|t| t.display().to_string())
                .unwrap_or_default();
            let target: String = target.chars().take(200).collect();
            return Err(refuse(
                Status::NotAFile,
                lang.fill("batch.symlink", &[("target", &target)]),
            ));
        }
        FileKind::Fifo => Some("batch.not_file_fifo"),
        FileKind::Socket => Some("batch.not_file_socket"),
        FileKind::Device => Some("batch.not_file_device"),
        // Listed by [`collect`] as a folder it could not search.
        FileKind::Folder => {
            return Err(match std::fs::read_dir(path) {
                Err(e) => refuse(
                    Status::Unreadable,
                    lang.fill("batch.folder_unreadable", &[("error", &e.to_string())]),
                ),
                Ok(_) => refuse(
                    Status::NotAFile,
                    lang.fill(
                        "batch.folder_too_deep",
                        &[("depth", &MAX_FOLDER_DEPTH.to_string())],
                    ),
                ),
            });
        }
        FileKind::Other => Some("batch.not_file_other"),
    };
    if let Some(key) = key {
        return Err(refuse(Status::NotAFile, lang.get(key).to_string()));
    }
    let too_large = |bytes: u64| {
        refuse(
            Status::TooLarge,
            lang.fill(
                "batch.too_large",
                &[
                    ("bytes", &bytes.to_string()),
                    ("max", &MAX_ANSWER_BYTES.to_string()),
                ],
            ),
        )
    };
    if meta.len() > MAX_ANSWER_BYTES {
        return Err(too_large(meta.len()));
    }
    // Not following a link even if one was put here since the look above.
    let bytes =
        crate::input::read_capped_no_follow(path, MAX_ANSWER_BYTES).map_err(|e| match e {
            crate::input::ReadError::TooLarge => too_large(meta.len().max(MAX_ANSWER_BYTES + 1)),
            e => refuse(
                Status::Unreadable,
                lang.fill("batch.cannot_read", &[("error", &e.to_string())]),
            ),
        })?;
    text_of(&bytes, shown, lang)
}

/// An answer file's bytes as text, or the row that says why they are not.
fn text_of(bytes: &[u8], shown: String, lang: &Lang) -> Result<Source, Box<Row>> {
    let refuse = |status, reason: String| Box::new(Row::refused(&shown, status, reason));
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(refuse(Status::Empty, lang.get("batch.empty").to_string()));
    }
    if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        return Err(refuse(Status::NotUtf8, lang.get("batch.utf16").to_string()));
    }
    if bytes.contains(&0) {
        return Err(refuse(
            Status::Unreadable,
            lang.get("batch.binary").to_string(),
        ));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        refuse(
            Status::NotUtf8,
            lang.fill("batch.not_utf8", &[("line", &line.to_string())]),
        )
    })?;
    Ok(Source {
        path: shown,
        text: text.to_string(),
    })
}
