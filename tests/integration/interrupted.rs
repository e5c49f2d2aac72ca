//! A class set over an earlier one, when the disk fills or the process is
//! killed part-way: the folder holds the old set or the new one, whole,
//! and no temporary file is left. A full disk is a file-size limit
//! (`ulimit -f`) with SIGXFSZ ignored, so a write past it fails with EFBIG as
//! it would with ENOSPC; a kill is SIGXFSZ's default action, or SIGKILL at a
//! random moment.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use super::common::scratch;

const BIN: &str = env!("CARGO_BIN_EXE_treequiz");

/// Every file under `dir` (relative path → bytes), and whether anything in
/// it or beside it is a staging folder or a temporary file.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(base, &path, out);
            } else {
                let rel = path.strip_prefix(base).unwrap().to_path_buf();
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Names in `root` and under it that a finished run must not leave.
fn leftovers(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.contains(".tmp-") || name.contains(".treequiz-") {
                found.push(entry.path().display().to_string());
            }
            if entry.path().is_dir() {
                stack.push(entry.path());
            }
        }
    }
    found
}

/// `generate` of the demo set for `students` into `root/out`, with `--seed`
/// `seed`, under a shell prefix (limits, traps); the child process.
fn generate(root: &Path, seed: u64, prefix: &str) -> Command {
    let set = concat!(env!("CARGO_MANIFEST_DIR"), "/problem-sets/demo.toml");
    let mut cmd = Command::new("bash");
    cmd.current_dir(root)
        .arg("-c")
        .arg(format!("{prefix} exec \"$0\" \"$@\""))
        .arg(BIN)
        .args(["generate", set, "--roster", "class.csv", "--seed"])
        .arg(seed.to_string())
        .args(["--out", "out", "--force"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    cmd
}

fn class(root: &Path, students: usize) {
    let mut csv = String::from("id,name\n");
    for i in 0..students {
        csv.push_str(&format!("s{i:03},Student {i}\n"));
    }
    std::fs::write(root.join("class.csv"), csv).unwrap();
}

#[test]
fn a_full_disk_leaves_the_old_set_whole() {
    let root = scratch("full-disk");
    class(&root, 30);
    let out = generate(&root, 1, "").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let old = snapshot(&root.join("out"));
    let largest = old.values().map(Vec::len).max().unwrap();
    // Limits below the largest file: the run fails at a sheet, a key or the
    // manifest, depending on the limit.
    for kib in [4, 16, 64, largest / 1024] {
        let out = generate(&root, 2, &format!("trap '' XFSZ; ulimit -f {kib};"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "limit {kib} KiB: {err}");
        assert!(
            err.contains("cannot write") && err.contains("File too large"),
            "limit {kib} KiB: {err}"
        );
        assert!(
            snapshot(&root.join("out")) == old,
            "limit {kib} KiB: the old set changed"
        );
        assert_eq!(leftovers(&root), Vec::<String>::new(), "limit {kib} KiB");
    }
}

#[test]
fn a_killed_run_leaves_the_old_set_or_the_new_one_whole() {
    let root = scratch("killed");
    class(&root, 120);
    let fresh = |seed: u64| {
        let dir = root.join(format!("fresh-{seed}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(root.join("class.csv"), dir.join("class.csv")).unwrap();
        let out = generate(&dir, seed, "").output().unwrap();
        assert!(out.status.success());
        snapshot(&dir.join("out"))
    };
    let (one, two) = (fresh(1), fresh(2));
    let out = generate(&root, 1, "").output().unwrap();
    assert!(out.status.success());

    // Killed by the kernel at its first write past 8 KiB (deterministic).
    let out = generate(&root, 2, "ulimit -f 8;").output().unwrap();
    assert_eq!(out.status.code(), None, "killed by SIGXFSZ");
    assert!(snapshot(&root.join("out")) == one, "the old set changed");

    // Killed at moments spread over a run: the old set or the new one, whole.
    let mut rng = treequiz::rng::Rng::from_seed(12);
    let mut outcomes = [0, 0];
    for _ in 0..8 {
        let mut child = generate(&root, 2, "").spawn().unwrap();
        std::thread::sleep(Duration::from_millis(rng.between(20, 1200) as u64));
        let _ = child.kill();
        let _ = child.wait();
        let now = snapshot(&root.join("out"));
        if now == one {
            outcomes[0] += 1;
        } else {
            assert!(now == two, "after a kill the folder is neither set");
            outcomes[1] += 1;
            // Back to the old set for the next kill.
            let out = generate(&root, 1, "").output().unwrap();
            assert!(out.status.success());
        }
    }
    eprintln!(
        "killed runs: {} left the old set, {} the new",
        outcomes[0], outcomes[1]
    );

    // The next run completes (reusing what a kill left) and leaves nothing behind.
    let out = generate(&root, 2, "").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(snapshot(&root.join("out")) == two);
    let left: Vec<String> = leftovers(&root)
        .into_iter()
        .filter(|p| !p.contains("fresh-"))
        .collect();
    assert_eq!(left, Vec::<String>::new());
}

/// Ctrl-C or SIGTERM while the browser prints the sheets: the staging
/// folder, which already holds every key, is removed, and the browser (with
/// any helper it started) is stopped, instead of both being left behind.
/// The browser here is a script that starts a helper and waits.
#[test]
fn a_signal_while_printing_removes_the_keys_and_stops_the_browser() {
    let root = scratch("interrupted-pdf");
    let browser = root.join("fake-browser");
    std::fs::write(
        &browser,
        format!(
            "#!/bin/sh\nsleep 120 &\necho $! > {0}/helper.pid\necho $$ > {0}/browser.pid\nwait\n",
            root.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(
        &browser,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let set = concat!(env!("CARGO_MANIFEST_DIR"), "/problem-sets/demo.toml");
    // Running: in /proc and not a zombie (killed, waiting to be reaped).
    let alive = |pid: &str| {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            let state = stat.rsplit(')').next().unwrap_or("").trim_start();
            !state.starts_with('Z') && !state.starts_with('X')
        })
    };
    for signal in ["-TERM", "-INT"] {
        let _ = std::fs::remove_file(root.join("browser.pid"));
        let mut run = Command::new(BIN)
            .current_dir(&root)
            .args([
                "generate", set, "--seed", "1", "--out", "exam", "--format", "pdf",
            ])
            .arg("--browser")
            .arg(&browser)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        while !root.join("browser.pid").exists() {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the browser never started"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(100));
        assert!(!leftovers(&root).is_empty(), "the set is being staged");
        let status = Command::new("kill")
            .args([signal, &run.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let code = run.wait().unwrap().code();
        assert_eq!(code, Some(130), "{signal}");
        let read = |f: &str| {
            std::fs::read_to_string(root.join(f))
                .unwrap()
                .trim()
                .to_string()
        };
        std::thread::sleep(Duration::from_millis(100));
        for pid in [read("browser.pid"), read("helper.pid")] {
            assert!(!alive(&pid), "{signal}: process {pid} still runs");
        }
        assert_eq!(leftovers(&root), Vec::<String>::new(), "{signal}");
        assert!(!root.join("exam").exists());
    }
}
