//! Writing files: every file whole or not at all, and a set of files
//! all together or not at all ([`Staging`]).

use std::io::Write;
use std::path::{Path, PathBuf};

/// Standard base64 with padding (RFC 4648 §4), as browsers' `atob` and
/// Moodle's `base64_decode` read it: the practice page's module, the
/// figures of a Moodle bank.
pub fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let v = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[((v >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Whether a spreadsheet opening a CSV cell would run it as a formula
/// (OWASP's CSV injection): it starts with `=`, `+`, `-`, `@`, a tab or a
/// carriage return, and is not a number.
pub fn runs_as_formula(cell: &str) -> bool {
    cell.starts_with(['=', '+', '-', '@', '\t', '\r']) && cell.parse::<f64>().is_err()
}

/// A cell a spreadsheet will not run as a formula: text from students' files
/// or rosters that [`runs_as_formula`] gets a leading apostrophe.
pub fn spreadsheet_safe(cell: &str) -> String {
    if runs_as_formula(cell) {
        format!("'{cell}")
    } else {
        cell.to_string()
    }
}

/// A path as the files treequiz writes show it (a report's `file` column, a
/// practice sheet's `set = …`): `/` between its parts on every system, so
/// that a report or a sheet made on Windows has the same bytes as on Linux
/// and its paths read on both (Windows takes `/` as well, and `\` cannot be
/// part of a file name there). Messages on the terminal keep the system's
/// own separator.
pub fn portable(path: &Path) -> String {
    #[cfg(windows)]
    return path.display().to_string().replace('\\', "/");
    #[cfg(not(windows))]
    path.display().to_string()
}

/// `seconds` since 1970 as `2026-12-04 20:51:07 UTC` (a civil date from a
/// day count: Howard Hinnant's `civil_from_days`).
pub fn utc_time(seconds: u64) -> String {
    let (days, rest) = ((seconds / 86_400) as i64, seconds % 86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// A zip of `files` (name, bytes) in the order given, the same bytes for
/// the same files: every entry dated 1980-01-01 (the zip format's first
/// day), deflated but a PNG (deflated already, so stored), and executable
/// when its name is in `executable`.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub fn zip_of(files: &[(String, Vec<u8>)], executable: &[&str]) -> Vec<u8> {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in files {
        let method = match name.ends_with(".png") {
            true => zip::CompressionMethod::Stored,
            false => zip::CompressionMethod::Deflated,
        };
        let mode = if executable.contains(&name.as_str()) {
            0o755
        } else {
            0o644
        };
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(method)
            .last_modified_time(zip::DateTime::default())
            .unix_permissions(mode);
        // Writing to memory fails only if memory does.
        zip.start_file(name.as_str(), options)
            .expect("zip in memory");
        zip.write_all(bytes).expect("zip in memory");
    }
    zip.finish().expect("zip in memory").into_inner()
}

/// Writes `bytes` to `path` through a temporary file in the same folder and a
/// rename, so a reader never sees a half-written file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    // Created new, never opened: a link or file planted at the temporary
    // name (a student's, a shared folder's) is skipped, not written through.
    let mut made = None;
    for n in 0..100 {
        let tmp = match n {
            0 => dir.join(format!(".{name}.tmp-{}", std::process::id())),
            n => dir.join(format!(".{name}.tmp-{}-{n}", std::process::id())),
        };
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(file) => {
                made = Some((tmp, file));
                break;
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
    let (tmp, mut file) = made.ok_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            format!("100 files named .{name}.tmp-* are in the way; remove them"),
        )
    })?;
    let result = (|| {
        file.write_all(bytes)?;
        drop(file);
        // No fsync: the rename already keeps readers from a partial file, and
        // 2,400 fsyncs would cost more than the whole class set.
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// A folder that a set of files is written into before it becomes the
/// output folder `DIR`, so that nobody sees part of a set and an old set is
/// never lost to a half-written new one (as cargo stages a build).
///
/// The staging folder is `.DIR.treequiz-partial`, next to `DIR` (so on the
/// same disk). It is locked while a run writes into it (on Windows, held
/// open so that no other run can open it: `claim_folder`): a second run into
/// the same `DIR` is refused, and a staging folder that is not locked was
/// left by a killed run and is emptied and reused. [`Staging::publish`]
/// makes it `DIR`: a rename when `DIR` is new; else one atomic exchange of
/// the two folders (Linux's `RENAME_EXCHANGE`), after the files in `DIR`
/// that the old set did not write are linked into the new one. Dropped
/// before that, the staging folder and everything in it is removed.
#[derive(Debug)]
pub struct Staging {
    dir: PathBuf,
    out: PathBuf,
    /// Where the old set goes while it is removed, and where the fallback
    /// exchange puts it aside.
    trash: PathBuf,
    aside: PathBuf,
    /// The open staging folder, holding its lock until the process ends.
    _lock: std::fs::File,
    published: bool,
}

/// What publishing did besides replacing the set.
#[derive(Debug, Default)]
pub struct Published {
    /// Files in the output folder that the old set did not write, kept (relative paths).
    pub kept: Vec<PathBuf>,
}

impl Staging {
    /// Claims the staging folder of `out`: created, or emptied when an
    /// interrupted run left it; refused while another run holds it.
    pub fn new(out: &Path) -> Result<Staging, String> {
        let out = match std::fs::symlink_metadata(out) {
            // The teacher's own link to a folder: the set goes where it points.
            Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(out)
                .map_err(|e| format!("--out {}: cannot follow the link: {e}", out.display()))?,
            _ => out.to_path_buf(),
        };
        // The set replaces the whole folder; a shell or a program working
        // inside it would be left in a removed folder.
        if let (Ok(here), Ok(there)) = (current_folder(), std::fs::canonicalize(&out))
            && here.starts_with(&there)
        {
            return Err(format!(
                "--out {} is the current folder or holds it; give the set a folder of its own, e.g. --out quiz",
                out.display()
            ));
        }
        let name = out
            .file_name()
            .map(std::ffi::OsStr::to_os_string)
            .filter(|n| *n != "." && *n != "..")
            .ok_or_else(|| {
                format!(
                    "--out {} names no folder; give a folder name",
                    out.display()
                )
            })?;
        let parent = out
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf();
        std::fs::create_dir_all(&parent)
            .map_err(|e| format!("{}: cannot create: {e}", parent.display()))?;
        let beside =
            |what: &str| parent.join(format!(".{}.treequiz-{what}", name.to_string_lossy()));
        let (dir, aside) = (beside("partial"), beside("aside"));
        // Only this run's own folders are emptied, filled or moved: a link
        // at one of these names (an unpacked archive, a shared course
        // folder) could point at the handed-in work.
        for path in [&dir, &aside] {
            refuse_link(path)?;
        }
        // A fallback exchange killed half-way left the old set aside.
        if aside.is_dir() {
            if std::fs::symlink_metadata(&out).is_err() {
                std::fs::rename(&aside, &out).map_err(|e| {
                    format!(
                        "cannot restore {} from {}: {e}",
                        out.display(),
                        aside.display()
                    )
                })?;
            } else {
                let _ = std::fs::remove_dir_all(&aside);
            }
        }
        match std::fs::create_dir(&dir) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(format!("{}: cannot create: {e}", dir.display())),
        }
        let busy = || {
            format!(
                "another `treequiz generate` is writing {} (it holds {}); wait for it to finish, or choose another --out",
                out.display(),
                dir.display()
            )
        };
        #[cfg(not(windows))]
        let lock = {
            let lock = std::fs::File::open(&dir)
                .map_err(|e| format!("{}: cannot open: {e}", dir.display()))?;
            // A link put there since the look above: the folder opened is not ours.
            refuse_link(&dir)?;
            match lock.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => return Err(busy()),
                Err(std::fs::TryLockError::Error(e)) => {
                    return Err(format!("{}: cannot lock: {e}", dir.display()));
                }
            }
            lock
        };
        #[cfg(windows)]
        let lock = {
            let lock = claim_folder(&dir)
                .map_err(|e| format!("{}: cannot open: {e}", dir.display()))?
                .ok_or_else(busy)?;
            refuse_link(&dir)?;
            lock
        };
        // Unlocked and not empty: what a killed run left; so is an old set
        // that a run killed while removing it left under its trash name.
        empty(&dir).map_err(|e| format!("{}: cannot empty: {e}", dir.display()))?;
        let trash_prefix = format!(".{}.treequiz-old-", name.to_string_lossy());
        for entry in std::fs::read_dir(&parent).into_iter().flatten().flatten() {
            if entry
                .file_name()
                .to_string_lossy()
                .starts_with(&trash_prefix)
                && entry.file_type().is_ok_and(|t| t.is_dir())
            {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
        Ok(Staging {
            dir,
            out,
            trash: beside(&format!("old-{}", std::process::id())),
            aside,
            _lock: lock,
            published: false,
        })
    }

    /// The staging folder: write the set here, by the paths it will have under the output folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Makes the staged set the output folder's, in one step. What is in an
    /// existing output folder is replaced, but for the files `ours` does not
    /// claim (by their path in the folder): those are kept, linked into the
    /// new set first. A kept file where the new set writes a folder, or a
    /// kept folder where it writes a file, refuses the whole publication and
    /// leaves the old set as it was. Symbolic links in the old set are kept
    /// as links (never followed) unless the new set writes their path.
    pub fn publish(mut self, ours: impl Fn(&Path) -> bool) -> Result<Published, String> {
        let mut published = Published::default();
        match std::fs::symlink_metadata(&self.out) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::rename(&self.dir, &self.out).map_err(|e| {
                    format!(
                        "cannot rename {} to {}: {e}",
                        self.dir.display(),
                        self.out.display()
                    )
                })?;
                self.published = true;
                return Ok(published);
            }
            Err(e) => return Err(format!("{}: cannot read: {e}", self.out.display())),
            Ok(m) if !m.is_dir() => {
                return Err(format!(
                    "--out {} is not a folder; give a folder",
                    self.out.display()
                ));
            }
            Ok(_) => {}
        }
        carry(
            &self.out,
            &self.dir,
            Path::new(""),
            &ours,
            &mut published.kept,
        )?;
        exchange(&self.dir, &self.out, &self.aside)?;
        self.published = true;
        // The staging path now holds the old set. Renamed away first, so a
        // run that starts now cannot take it for its own staging folder.
        if std::fs::rename(&self.dir, &self.trash).is_ok() {
            let _ = std::fs::remove_dir_all(&self.trash);
        }
        Ok(published)
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.published {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// The current folder, as [`std::fs::canonicalize`] writes paths. On
/// Windows that is a verbatim path (`\\?\C:\…`) and `current_dir` a plain
/// one (`C:\…`), which never compare equal: `--out ..\here` went past the
/// check and failed later, at the swap, with a sharing violation.
fn current_folder() -> std::io::Result<PathBuf> {
    #[cfg(windows)]
    return std::env::current_dir().and_then(std::fs::canonicalize);
    #[cfg(not(windows))]
    std::env::current_dir()
}

/// Opens the staging folder `dir` and holds it for this run on Windows;
/// `None` when another run holds it.
///
/// Windows locks no folder as Unix's `flock` does: `File::open` cannot open
/// a folder at all (it lacks `FILE_FLAG_BACKUP_SEMANTICS`), and `LockFileEx`
/// locks bytes of files, not folders. So the folder is opened for writing
/// while sharing it with readers and renames only: a second run's open, for
/// writing too, fails with a sharing violation until this run's handle
/// closes, which the system does when the process ends, however it ends (a
/// killed run's folder is then emptied and reused, as on Unix). The handle
/// does not keep this run from renaming the folder (`FILE_SHARE_DELETE`),
/// and it is the link itself if `dir` is one (`FILE_FLAG_OPEN_REPARSE_POINT`),
/// never where it points; [`refuse_link`] then refuses it.
#[cfg(windows)]
fn claim_folder(dir: &Path) -> std::io::Result<Option<std::fs::File>> {
    use std::os::windows::fs::OpenOptionsExt;
    const FILE_SHARE_READ: u32 = 0x1;
    const FILE_SHARE_DELETE: u32 = 0x4;
    const FILE_FLAG_OPEN_REPARSE_POINT: u32 = 0x0020_0000;
    const FILE_FLAG_BACKUP_SEMANTICS: u32 = 0x0200_0000;
    const ERROR_SHARING_VIOLATION: i32 = 32;
    match std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .share_mode(FILE_SHARE_READ | FILE_SHARE_DELETE)
        .custom_flags(FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT)
        .open(dir)
    {
        Ok(file) => Ok(Some(file)),
        Err(e) if e.raw_os_error() == Some(ERROR_SHARING_VIOLATION) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Refuses a staging or aside name that is anything but a folder of its
/// own: a link is never followed, emptied or written through.
fn refuse_link(path: &Path) -> Result<(), String> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(format!(
            "{} is a symbolic link; treequiz builds the set in a folder of that name and never writes through a link: remove the link (it is not treequiz's), or choose another --out",
            path.display()
        )),
        Ok(m) if !m.is_dir() => Err(format!(
            "{} is a file, not treequiz's staging folder; remove it, or choose another --out",
            path.display()
        )),
        _ => Ok(()),
    }
}

/// Removes everything in `dir`, keeping `dir` (whose lock is held).
fn empty(dir: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let gone = if std::fs::symlink_metadata(&path)?.is_dir() {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
        match gone {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    Ok(())
}

/// Links every entry under `old/rel` that `ours` does not claim into the
/// same place under `new`, recording its path in `kept`.
fn carry(
    old: &Path,
    new: &Path,
    rel: &Path,
    ours: &dyn Fn(&Path) -> bool,
    kept: &mut Vec<PathBuf>,
) -> Result<(), String> {
    let here = old.join(rel);
    let cannot = |e: std::io::Error, p: &Path| format!("{}: cannot read: {e}", p.display());
    let mut entries: Vec<_> = std::fs::read_dir(&here)
        .map_err(|e| cannot(e, &here))?
        .map(|e| e.map(|e| e.file_name()))
        .collect::<Result<_, _>>()
        .map_err(|e| cannot(e, &here))?;
    entries.sort();
    for name in entries {
        let rel = rel.join(&name);
        let (from, to) = (old.join(&rel), new.join(&rel));
        let meta = std::fs::symlink_metadata(&from).map_err(|e| cannot(e, &from))?;
        let there = std::fs::symlink_metadata(&to).ok();
        if meta.is_dir() {
            match &there {
                Some(t) if !t.is_dir() => {
                    return Err(format!(
                        "{} is a folder where the new set writes a file; move it away, or choose another --out",
                        from.display()
                    ));
                }
                Some(_) => carry(old, new, &rel, ours, kept)?,
                None => {
                    std::fs::create_dir(&to)
                        .map_err(|e| format!("{}: cannot create: {e}", to.display()))?;
                    carry(old, new, &rel, ours, kept)?;
                    // A folder with nothing kept in it goes with the old set.
                    let _ = std::fs::remove_dir(&to);
                }
            }
        } else if meta.file_type().is_symlink() && there.is_some() {
            // A link where the new set writes: replaced, never written through.
        } else if !ours(&rel) {
            if there.as_ref().is_some_and(|t| t.is_dir()) {
                return Err(format!(
                    "{} is a file where the new set writes a folder; move it away, or choose another --out",
                    from.display()
                ));
            }
            if there.is_none() {
                std::fs::hard_link(&from, &to)
                    .or_else(|_| keep_copy(&from, &to, &meta))
                    .map_err(|e| format!("cannot keep {}: {e}", from.display()))?;
                kept.push(rel);
            }
        }
    }
    Ok(())
}

/// Keeps `from` at `to` where a hard link cannot: a link as a link, else a copy.
fn keep_copy(from: &Path, to: &Path, meta: &std::fs::Metadata) -> std::io::Result<()> {
    #[cfg(unix)]
    if meta.file_type().is_symlink() {
        return std::os::unix::fs::symlink(std::fs::read_link(from)?, to);
    }
    let _ = meta;
    std::fs::copy(from, to).map(drop)
}

/// Swaps two folders in one step where the file system can (Linux's
/// `renameat2(RENAME_EXCHANGE)`); elsewhere `b` is renamed to `aside`, `a`
/// into its place and the old `b` to `a`'s name. A failure in between puts
/// `b` back; a kill in between leaves it at `aside`, which [`Staging::new`]
/// restores.
fn exchange(a: &Path, b: &Path, aside: &Path) -> Result<(), String> {
    let cannot = |e: std::io::Error| {
        format!(
            "cannot move {} into place of {}: {e}",
            a.display(),
            b.display()
        )
    };
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        match renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE) {
            Ok(()) => return Ok(()),
            Err(e) if e == rustix::io::Errno::INVAL || e == rustix::io::Errno::NOSYS => {}
            Err(e) => return Err(cannot(e.into())),
        }
    }
    std::fs::rename(b, aside).map_err(cannot)?;
    if let Err(e) = std::fs::rename(a, b) {
        let _ = std::fs::rename(aside, b);
        return Err(cannot(e));
    }
    std::fs::rename(aside, a).map_err(cannot)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_times_read_as_php_reads_them() {
        // `php -r 'echo strtotime("2026-12-04 20:51:07 UTC");'` (PHP 8.2) prints 1796417467.
        assert_eq!(utc_time(1_796_417_467), "2026-12-04 20:51:07 UTC");
        assert_eq!(utc_time(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc_time(951_782_400), "2000-02-29 00:00:00 UTC");
        assert_eq!(utc_time(4_107_542_399), "2100-02-28 23:59:59 UTC");
    }

    #[test]
    fn base64_pads_as_rfc_4648_says() {
        // RFC 4648 §10's test vectors.
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(super::base64(plain.as_bytes()), coded);
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("treequiz-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn read(p: PathBuf) -> String {
        std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    }

    #[test]
    fn a_new_folder_appears_whole_and_a_dropped_stage_leaves_nothing() {
        let root = scratch("new");
        let out = root.join("set");
        let stage = Staging::new(&out).unwrap();
        std::fs::create_dir_all(stage.dir().join("a")).unwrap();
        std::fs::write(stage.dir().join("a/x.txt"), "x").unwrap();
        assert!(!out.exists(), "nothing is there before it is published");
        // A second run into the same folder is refused while the first writes.
        let second = Staging::new(&out).unwrap_err();
        assert!(second.contains("another `treequiz generate`"), "{second}");
        stage.publish(|_| true).unwrap();
        assert_eq!(read(out.join("a/x.txt")), "x");
        assert_eq!(
            std::fs::read_dir(&root).unwrap().count(),
            1,
            "no staging folder left"
        );

        let dropped = Staging::new(&root.join("other")).unwrap();
        std::fs::write(dropped.dir().join("m"), "m").unwrap();
        drop(dropped);
        assert_eq!(std::fs::read_dir(&root).unwrap().count(), 1);
    }

    #[test]
    fn a_killed_runs_staging_folder_is_emptied_and_reused() {
        let root = scratch("stale");
        let out = root.join("set");
        let stale = root.join(".set.treequiz-partial");
        std::fs::create_dir_all(stale.join("s1")).unwrap();
        std::fs::write(stale.join("s1/half.md"), "half").unwrap();
        let stage = Staging::new(&out).unwrap();
        assert_eq!(stage.dir(), stale);
        assert_eq!(std::fs::read_dir(stage.dir()).unwrap().count(), 0);
        std::fs::write(stage.dir().join("manifest.json"), "new").unwrap();
        stage.publish(|_| true).unwrap();
        assert_eq!(read(out.join("manifest.json")), "new");
        assert!(!out.join("s1").exists());
    }

    #[test]
    fn an_old_set_is_replaced_in_one_step_keeping_the_teachers_files() {
        let root = scratch("replace");
        let out = root.join("set");
        let elsewhere = root.join("elsewhere");
        std::fs::create_dir_all(out.join("s1")).unwrap();
        std::fs::create_dir_all(out.join("gone")).unwrap();
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::fs::write(out.join("s1/sheet.md"), "old sheet").unwrap();
        std::fs::write(out.join("s1/notes.txt"), "mine").unwrap();
        std::fs::write(out.join("gone/sheet.md"), "old").unwrap();
        std::fs::write(out.join("stale.md"), "old").unwrap();
        std::fs::write(out.join("notes.txt"), "mine").unwrap();
        std::fs::write(out.join("manifest.json"), "old").unwrap();
        // A link the old folder holds where the new set writes: replaced, never written through.
        // (Unix only: Windows makes links only with a privilege; the rest runs there too.)
        #[cfg(unix)]
        std::os::unix::fs::symlink(&elsewhere, out.join("s2")).unwrap();
        let stage = Staging::new(&out).unwrap();
        assert!(!stage.dir().starts_with(&out), "staged beside, not inside");
        std::fs::create_dir_all(stage.dir().join("s1")).unwrap();
        std::fs::create_dir_all(stage.dir().join("s2")).unwrap();
        std::fs::write(stage.dir().join("s1/sheet.md"), "new sheet").unwrap();
        std::fs::write(stage.dir().join("s2/sheet.md"), "s2").unwrap();
        std::fs::write(stage.dir().join("manifest.json"), "new").unwrap();
        let ours = |p: &Path| p.extension().is_some_and(|e| e == "md" || e == "json");
        let done = stage.publish(ours).unwrap();
        assert_eq!(
            done.kept,
            [PathBuf::from("notes.txt"), PathBuf::from("s1/notes.txt")]
        );
        assert_eq!(
            [
                read(out.join("s1/sheet.md")),
                read(out.join("s1/notes.txt")),
                read(out.join("s2/sheet.md")),
                read(out.join("notes.txt")),
                read(out.join("manifest.json"))
            ],
            ["new sheet", "mine", "s2", "mine", "new"]
        );
        assert!(!out.join("stale.md").exists() && !out.join("gone").exists());
        assert_eq!(
            std::fs::read_dir(&elsewhere).unwrap().count(),
            0,
            "nothing written through the link"
        );
        let mut left: Vec<_> = std::fs::read_dir(&root)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        left.sort();
        assert_eq!(left, ["elsewhere", "set"], "no staging or old set left");
    }

    #[test]
    fn a_file_in_the_way_is_refused_and_the_old_set_stays_whole() {
        let root = scratch("conflict");
        let out = root.join("set");
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(out.join("s1"), "a file").unwrap();
        std::fs::write(out.join("manifest.json"), "old").unwrap();
        let stage = Staging::new(&out).unwrap();
        std::fs::create_dir_all(stage.dir().join("s1")).unwrap();
        std::fs::write(stage.dir().join("s1/sheet.md"), "new").unwrap();
        std::fs::write(stage.dir().join("manifest.json"), "new").unwrap();
        let err = stage
            .publish(|p| p == Path::new("manifest.json"))
            .unwrap_err();
        assert!(
            err.contains("s1 is a file where the new set writes a folder"),
            "{err}"
        );
        assert_eq!(read(out.join("manifest.json")), "old");
        assert_eq!(read(out.join("s1")), "a file");
        assert_eq!(
            std::fs::read_dir(&root).unwrap().count(),
            1,
            "the stage is removed when dropped"
        );
    }

    #[cfg(unix)] // symbolic links: Windows makes them only with a privilege
    #[test]
    fn a_link_at_the_temporary_name_is_never_written_through() {
        let root = scratch("tmp-link");
        let victim = root.join("victim.txt");
        std::fs::write(&victim, "precious").unwrap();
        let planted = root.join(format!(".report.csv.tmp-{}", std::process::id()));
        std::os::unix::fs::symlink(&victim, &planted).unwrap();
        write_atomic(&root.join("report.csv"), b"grades").unwrap();
        assert_eq!(read(victim), "precious");
        assert_eq!(read(root.join("report.csv")), "grades");
        assert!(
            std::fs::symlink_metadata(&planted).unwrap().is_symlink(),
            "the planted link is left alone"
        );
    }

    #[cfg(unix)] // symbolic links: Windows makes them only with a privilege
    #[test]
    fn a_link_at_a_staging_name_is_refused_and_left_alone() {
        let root = scratch("stage-link");
        let handed_in = root.join("handed-in");
        std::fs::create_dir_all(&handed_in).unwrap();
        std::fs::write(handed_in.join("s1.toml"), "answers").unwrap();
        for name in [".set.treequiz-partial", ".set.treequiz-aside"] {
            let link = root.join(name);
            std::os::unix::fs::symlink(&handed_in, &link).unwrap();
            let err = Staging::new(&root.join("set")).unwrap_err();
            assert!(err.contains(&format!("{name} is a symbolic link")), "{err}");
            assert_eq!(read(handed_in.join("s1.toml")), "answers");
            assert!(!root.join("set").exists());
            std::fs::remove_file(link).unwrap();
        }
        // An old set's trash name that is a link is not removed through.
        std::os::unix::fs::symlink(&handed_in, root.join(".set.treequiz-old-1")).unwrap();
        drop(Staging::new(&root.join("set")).unwrap());
        assert_eq!(read(handed_in.join("s1.toml")), "answers");
    }

    #[test]
    fn an_old_set_left_aside_by_a_kill_is_put_back() {
        let root = scratch("aside");
        let out = root.join("set");
        let aside = root.join(".set.treequiz-aside");
        std::fs::create_dir_all(&aside).unwrap();
        std::fs::write(aside.join("manifest.json"), "old").unwrap();
        let stage = Staging::new(&out).unwrap();
        assert_eq!(read(out.join("manifest.json")), "old");
        assert!(!aside.exists());
        drop(stage);
    }
}
