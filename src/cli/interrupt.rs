//! Ctrl-C, SIGTERM and SIGHUP while a set is written: the half-built
//! staging folder (keys included) is removed and the browsers printing it
//! are stopped, instead of being left behind when the process ends.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// What to undo if the run is interrupted now.
struct Pending {
    folders: Vec<PathBuf>,
    /// Process groups of the browsers running (each its own group, so that
    /// the helpers a browser starts go with it).
    browsers: Vec<u32>,
}

static PENDING: Mutex<Pending> = Mutex::new(Pending {
    folders: Vec::new(),
    browsers: Vec::new(),
});

/// The pending list, even if a thread panicked holding it (it is only pushed to and filtered).
fn pending() -> std::sync::MutexGuard<'static, Pending> {
    PENDING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Takes over Ctrl-C, SIGTERM and SIGHUP for the whole run: what is pending
/// is undone, then the process exits with status 130 (as a shell reports
/// Ctrl-C). A handler that cannot be set leaves the default behaviour.
pub(crate) fn install() {
    let _ = ctrlc::set_handler(|| {
        let pending = pending();
        for &group in &pending.browsers {
            stop(group);
        }
        for folder in &pending.folders {
            // Workers may still be writing into it: try until it is gone.
            for _ in 0..20 {
                if std::fs::remove_dir_all(folder).is_ok() || !folder.exists() {
                    break;
                }
            }
        }
        eprintln!("interrupted: nothing was written");
        std::process::exit(130);
    });
}

/// Removes `folder` if the run is interrupted before the guard is dropped.
pub(crate) fn remove_on_interrupt(folder: &Path) -> Registered {
    let mut pending = pending();
    pending.folders.push(folder.to_path_buf());
    Registered(Entry::Folder(folder.to_path_buf()))
}

/// Stops the browser `pid` (the leader of its own process group) if the
/// run is interrupted before the guard is dropped.
pub(crate) fn stop_on_interrupt(pid: u32) -> Registered {
    let mut pending = pending();
    pending.browsers.push(pid);
    Registered(Entry::Browser(pid))
}

enum Entry {
    Folder(PathBuf),
    Browser(u32),
}

/// Undone on interrupt while it lives.
pub(crate) struct Registered(Entry);

impl Drop for Registered {
    fn drop(&mut self) {
        let mut pending = pending();
        match &self.0 {
            Entry::Folder(f) => pending.folders.retain(|p| p != f),
            Entry::Browser(b) => pending.browsers.retain(|p| p != b),
        }
    }
}

/// Kills a browser's process group.
fn stop(group: u32) {
    #[cfg(target_os = "linux")]
    if let Some(pid) = i32::try_from(group)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
    #[cfg(all(unix, not(target_os = "linux")))]
    let _ = std::process::Command::new("kill")
        .args(["-KILL", &format!("-{group}")])
        .status();
    #[cfg(not(unix))]
    let _ = group;
}
