//! Writing files: every file whole or not at all, and a set of files
//! all together or not at all ([`Staging`]).

use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` through a temporary file in the same folder and a
/// rename, so a reader never sees a half-written file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        // No fsync: the rename already keeps readers from a partial file, and
        // 2,400 fsyncs would cost more than the whole class set.
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// The name of the staging folder inside an output folder that exists.
pub const STAGING: &str = ".treequiz-partial";

/// A folder that a set of files is written into before it becomes the
/// output folder, so that nobody sees part of the set: a new output folder
/// is the staging folder renamed (`DIR/../.DIR.treequiz-partial`, next to
/// it), and an output folder that exists receives its staging folder's
/// entries (`DIR/.treequiz-partial`, on the same file system) one rename
/// each, the `marker` file (the one that says the set is complete) removed
/// first and moved in last. Dropped before [`Staging::publish`], the staging
/// folder and everything in it is removed; a process killed while writing
/// leaves it, and the next run into the same folder names it.
#[derive(Debug)]
pub struct Staging {
    dir: PathBuf,
    out: PathBuf,
    inside: bool,
    published: bool,
}

impl Staging {
    /// Claims the staging folder of `out` (created empty; refused if it is
    /// there already, since another run may be writing into it).
    pub fn new(out: &Path) -> Result<Staging, String> {
        let inside = out.is_dir();
        let dir = if inside {
            out.join(STAGING)
        } else {
            let name = out.file_name().ok_or_else(|| {
                format!(
                    "--out {} names no folder; give a folder name",
                    out.display()
                )
            })?;
            let parent = out
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("{}: cannot create: {e}", parent.display()))?;
            parent.join(format!(".{}.treequiz-partial", name.to_string_lossy()))
        };
        match std::fs::create_dir(&dir) {
            Ok(()) => Ok(Staging {
                dir,
                out: out.to_path_buf(),
                inside,
                published: false,
            }),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(format!(
                "{} exists: another `treequiz generate` is writing {}, or one was interrupted; if none is running, delete {} and run again",
                dir.display(),
                out.display(),
                dir.display()
            )),
            Err(e) => Err(format!("{}: cannot create: {e}", dir.display())),
        }
    }

    /// The staging folder: write the set here, by the paths it will have under the output folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Makes the staged set the output folder's. Into an output folder that
    /// exists: checks that no staged file meets a folder (or a folder a file),
    /// removes `marker`, runs `clean` (which may remove what an earlier set
    /// left), moves every staged entry in and `marker` last. An error on the
    /// way leaves the output folder without `marker`, and says so.
    pub fn publish(
        mut self,
        marker: &str,
        clean: impl FnOnce() -> Result<(), String>,
    ) -> Result<(), String> {
        if !self.inside {
            std::fs::rename(&self.dir, &self.out).map_err(|e| {
                format!(
                    "cannot rename {} to {}: {e}",
                    self.dir.display(),
                    self.out.display()
                )
            })?;
            self.published = true;
            return Ok(());
        }
        check_into(&self.dir, &self.out)?;
        let incomplete = |e: String| {
            format!(
                "{e}; {} is incomplete (it has no {marker}): run the command again",
                self.out.display()
            )
        };
        let old = self.out.join(marker);
        if old.exists() {
            std::fs::remove_file(&old)
                .map_err(|e| format!("{}: cannot remove: {e}", old.display()))?;
        }
        clean().map_err(incomplete)?;
        let mut entries = Vec::new();
        for entry in std::fs::read_dir(&self.dir)
            .map_err(|e| incomplete(format!("{}: cannot read: {e}", self.dir.display())))?
        {
            let entry = entry
                .map_err(|e| incomplete(format!("{}: cannot read: {e}", self.dir.display())))?;
            if entry.file_name() != marker {
                entries.push(entry.file_name());
            }
        }
        entries.sort();
        entries.push(marker.into());
        for name in entries {
            let from = self.dir.join(&name);
            if from.exists() {
                move_into(&from, &self.out.join(&name)).map_err(incomplete)?;
            }
        }
        std::fs::remove_dir(&self.dir)
            .map_err(|e| format!("{}: cannot remove: {e}", self.dir.display()))?;
        self.published = true;
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.published {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// Whether `from` can be moved onto `to`: nowhere does a file meet a folder.
fn check_into(from: &Path, to: &Path) -> Result<(), String> {
    let Ok(there) = std::fs::symlink_metadata(to) else {
        return Ok(());
    };
    let here = std::fs::symlink_metadata(from)
        .map_err(|e| format!("{}: cannot read: {e}", from.display()))?;
    match (here.is_dir(), there.is_dir()) {
        (true, true) => {
            for entry in std::fs::read_dir(from)
                .map_err(|e| format!("{}: cannot read: {e}", from.display()))?
            {
                let entry = entry.map_err(|e| format!("{}: cannot read: {e}", from.display()))?;
                let name = entry.file_name();
                check_into(&from.join(&name), &to.join(&name))?;
            }
            Ok(())
        }
        (false, false) => Ok(()),
        (true, false) => Err(format!(
            "{} is a file where a folder goes; move it away, or choose another --out",
            to.display()
        )),
        (false, true) => Err(format!(
            "{} is a folder where a file goes; move it away, or choose another --out",
            to.display()
        )),
    }
}

/// Moves `from` onto `to`: a rename when `to` is absent or a file, else
/// entry by entry into the folder that is there (whose other files stay).
fn move_into(from: &Path, to: &Path) -> Result<(), String> {
    let cannot =
        |e: std::io::Error| format!("cannot move {} to {}: {e}", from.display(), to.display());
    if from.is_dir() && std::fs::symlink_metadata(to).is_ok_and(|m| m.is_dir()) {
        for entry in std::fs::read_dir(from).map_err(cannot)? {
            let name = entry.map_err(cannot)?.file_name();
            move_into(&from.join(&name), &to.join(&name))?;
        }
        std::fs::remove_dir(from).map_err(cannot)
    } else {
        std::fs::rename(from, to).map_err(cannot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("treequiz-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
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
        assert!(
            second.contains("delete") && second.contains("treequiz-partial"),
            "{second}"
        );
        stage.publish("manifest.json", || Ok(())).unwrap();
        assert_eq!(std::fs::read_to_string(out.join("a/x.txt")).unwrap(), "x");
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
    fn an_existing_folder_gets_the_set_merged_in_with_the_marker_last() {
        let out = scratch("merge");
        std::fs::create_dir_all(out.join("s1")).unwrap();
        std::fs::write(out.join("s1/old.md"), "old").unwrap();
        std::fs::write(out.join("s1/sheet.md"), "old sheet").unwrap();
        std::fs::write(out.join("notes.txt"), "mine").unwrap();
        std::fs::write(out.join("manifest.json"), "old").unwrap();
        let stage = Staging::new(&out).unwrap();
        assert!(stage.dir().starts_with(&out));
        std::fs::create_dir_all(stage.dir().join("s1")).unwrap();
        std::fs::create_dir_all(stage.dir().join("s2")).unwrap();
        std::fs::write(stage.dir().join("s1/sheet.md"), "new sheet").unwrap();
        std::fs::write(stage.dir().join("s2/sheet.md"), "s2").unwrap();
        std::fs::write(stage.dir().join("manifest.json"), "new").unwrap();
        let marker_gone = std::cell::Cell::new(false);
        stage
            .publish("manifest.json", || {
                marker_gone.set(!out.join("manifest.json").exists());
                Ok(())
            })
            .unwrap();
        assert!(
            marker_gone.get(),
            "the old marker is removed before anything moves"
        );
        let read = |p: &str| std::fs::read_to_string(out.join(p)).unwrap();
        assert_eq!(
            [
                read("s1/sheet.md"),
                read("s1/old.md"),
                read("s2/sheet.md"),
                read("notes.txt"),
                read("manifest.json")
            ],
            ["new sheet", "old", "s2", "mine", "new"]
        );
        assert!(!out.join(STAGING).exists());
    }

    #[test]
    fn a_file_in_the_way_is_refused_before_anything_moves() {
        let out = scratch("conflict");
        std::fs::write(out.join("s1"), "a file").unwrap();
        std::fs::write(out.join("manifest.json"), "old").unwrap();
        let stage = Staging::new(&out).unwrap();
        std::fs::create_dir_all(stage.dir().join("s1")).unwrap();
        std::fs::write(stage.dir().join("s1/sheet.md"), "new").unwrap();
        std::fs::write(stage.dir().join("manifest.json"), "new").unwrap();
        let err = stage.publish("manifest.json", || Ok(())).unwrap_err();
        assert!(err.contains("s1 is a file where a folder goes"), "{err}");
        assert_eq!(
            std::fs::read_to_string(out.join("manifest.json")).unwrap(),
            "old"
        );
        assert!(
            !out.join(STAGING).exists(),
            "the stage is removed when dropped"
        );
    }
}
