//! Reading an input file from disk: regular files only, never waiting on a
//! FIFO or device, capped in size, UTF-8 with an optional byte-order mark.

use std::fmt;

use super::{InputError, Source};

/// Files larger than this are refused before they are parsed.
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

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
    let mut bytes = Vec::new();
    open_file(path, follow)?
        .take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > cap {
        return Err(ReadError::TooLarge);
    }
    Ok(bytes)
}

/// Opens a regular file (see [`read_opened`]).
fn open_file(path: &std::path::Path, follow: bool) -> Result<std::fs::File, ReadError> {
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
    Ok(file)
}

/// What [`read_source_capped`] says when a file cannot be read.
fn read_error(shown: &str, cap: u64, e: ReadError) -> InputError {
    match e {
        ReadError::Io(e) => InputError::file(
            shown,
            format!("cannot open the file: {e}"),
            Some("check the path".into()),
        ),
        ReadError::NotAFile(kind) => InputError::file(
            shown,
            format!("this is {kind}, not a file"),
            Some("give the path of a text file".into()),
        ),
        ReadError::TooLarge => InputError::file(
            shown,
            format!("the file is larger than {} MiB", cap >> 20),
            Some("instance files are small text files; check that this is the right file".into()),
        ),
    }
}

/// Opens a file to be read as a stream (a byte-order mark skipped), refusing
/// files over `cap` bytes as [`read_source_capped`] does; for a file too
/// large to hold (a class's manifest), read once from start to end.
pub fn open_capped(
    path: &std::path::Path,
    cap: u64,
) -> Result<std::io::BufReader<std::io::Take<std::fs::File>>, InputError> {
    use std::io::{BufRead, Read};
    let shown = path.display().to_string();
    let file = open_file(path, true).map_err(|e| read_error(&shown, cap, e))?;
    let len = file.metadata().map_or(0, |m| m.len());
    if len > cap {
        return Err(read_error(&shown, cap, ReadError::TooLarge));
    }
    let mut reader = std::io::BufReader::with_capacity(1 << 16, file.take(cap));
    let bom = reader
        .fill_buf()
        .map_err(|e| read_error(&shown, cap, ReadError::Io(e)))?
        .starts_with(b"\xEF\xBB\xBF");
    if bom {
        reader.consume(3);
    }
    Ok(reader)
}

/// Reads a file as UTF-8 text, refusing files over `cap` bytes (a class's
/// manifest holds every variant and may be large).
pub fn read_source_capped(path: &std::path::Path, cap: u64) -> Result<Source, InputError> {
    let shown = path.display().to_string();
    let bytes = read_capped(path, cap).map_err(|e| read_error(&shown, cap, e))?;
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

#[cfg(test)]
mod tests {
    use super::*;

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
