//! The catalogue of bad inputs: one folder per case under `tests/catalogue/`,
//! each with the files a user (or a hostile student) hands the tool and a
//! `case.toml` that says what to run and what must come back: the exit
//! status, the kind of error and where it is. Every case also holds the
//! promises that no input may break: no panic, no hang, no `.tmp-*` or
//! staging file left behind.
//!
//! ```toml
//! about = "what a person did"                      # shown when the case fails
//! run = ["solve", "tree.toml"]                     # treequiz's arguments, in the case's folder
//! status = 2
//! stderr = ["duplicate label `A`", "tree.toml:3:9"] # each appears in the error output
//! stdout = []                                      # each appears in standard output
//! hidden = ["3f9c2a71"]                            # appears in neither output
//! seconds = 10                                     # the run ends within this (a generous hang guard)
//! absent = ["out/key.md"]                          # no such path afterwards
//! unchanged = ["handed-in/a.toml"]                 # the same bytes afterwards
//! present = ["out/manifest.json"]                  # such a path afterwards
//! docx = ["out/worksheet.docx"]                    # a sound Word document afterwards (docx::problems)
//! before = [["generate", "set.toml", "--out", "exam"]]  # run first; each must succeed
//! stdout_to = "/dev/full"                          # or "closed-pipe" (its reader already gone)
//! [setup]                                          # made after `before` (replacing what is there): what git cannot hold
//! fifo = ["handed-in/pipe.toml"]
//! socket = ["handed-in/sock"]                      # a Unix socket file
//! symlink = { "handed-in/me.toml" = "../exam/keys/s1/key.toml" }
//! nest = { "handed-in/deep" = 3000 }                # folders d/d/d/… this deep under the path
//! [[setup.write]]                                  # a file too big to keep in git
//! path = "big.toml"
//! parts = ["tree = [", { each = "{i}, ", count = 300000 }, "0]\n"]  # `{i}` counts 0, 1, …; `{i+1}` 1, 2, …
//! ```
//!
//! To add a case: make its folder, run `cargo test --release --test
//! integration catalogue`, read what the tool printed, and write the
//! expected kind and position into its `case.toml`. A new case should fail
//! on the build before the fix: `TREEQUIZ_CATALOGUE_BIN=path/to/old/treequiz`
//! runs every case with that binary instead.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    about: String,
    run: Vec<String>,
    status: i32,
    #[serde(default)]
    stderr: Vec<String>,
    #[serde(default)]
    stdout: Vec<String>,
    #[serde(default)]
    hidden: Vec<String>,
    seconds: Option<u64>,
    #[serde(default)]
    absent: Vec<String>,
    #[serde(default)]
    unchanged: Vec<String>,
    #[serde(default)]
    present: Vec<String>,
    #[serde(default)]
    docx: Vec<String>,
    #[serde(default)]
    before: Vec<Vec<String>>,
    /// Where `run`'s standard output goes instead of being read (then
    /// `stdout` must be empty): a file such as `/dev/full`, or `closed-pipe`.
    #[serde(default)]
    stdout_to: Option<String>,
    #[serde(default)]
    setup: Setup,
}

#[derive(Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Setup {
    #[serde(default)]
    fifo: Vec<String>,
    #[serde(default)]
    socket: Vec<String>,
    #[serde(default)]
    symlink: BTreeMap<String, String>,
    #[serde(default)]
    write: Vec<Write>,
    /// Folders nested this deep under the path (past `PATH_MAX`: made one
    /// level at a time, relative to the last).
    #[serde(default)]
    nest: BTreeMap<String, usize>,
}

/// A file the case writes before it runs: its parts in order, a repeated
/// part written `count` times with `{i}` replaced by 0, 1, … (and `{i+1}` by 1, 2, …).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Write {
    path: String,
    parts: Vec<Part>,
}

#[derive(serde::Deserialize)]
#[serde(untagged)]
enum Part {
    Text(String),
    Repeat { each: String, count: usize },
}

/// Longer than any case takes; a case that waits this long hangs.
const PATIENCE: Duration = Duration::from_secs(60);

/// The binary under test: this build's, or `TREEQUIZ_CATALOGUE_BIN`.
fn treequiz() -> PathBuf {
    std::env::var_os("TREEQUIZ_CATALOGUE_BIN").map_or_else(
        || assert_cmd::cargo::cargo_bin!("treequiz").to_path_buf(),
        PathBuf::from,
    )
}

fn cases() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/catalogue")
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        let meta = std::fs::symlink_metadata(entry.path()).unwrap();
        if meta.is_dir() {
            copy_tree(&entry.path(), &target);
        } else if meta.file_type().is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(entry.path()).unwrap(), &target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Every path under `dir` (not following links), relative to it.
fn walk(dir: &Path, base: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        out.push(path.strip_prefix(base).unwrap().to_path_buf());
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
            walk(&path, base, out);
        }
    }
}

/// Runs treequiz in `dir` with a deadline; (status, stdout, stderr), or a
/// message when it hung.
fn run(dir: &Path, args: &[String]) -> Result<(i32, String, String), String> {
    let out = assert_cmd::Command::new(treequiz())
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .timeout(PATIENCE)
        .output()
        .map_err(|e| format!("could not run: {e}"))?;
    let code = out.status.code().ok_or_else(|| {
        format!(
            "killed after {}s (it hung) or by a signal",
            PATIENCE.as_secs()
        )
    })?;
    Ok((
        code,
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

/// Runs treequiz in `dir` with its standard output sent to `to` (a file
/// opened for writing, or `closed-pipe`: a pipe whose reading end is closed
/// before treequiz starts); (status, "", stderr), or a message when it hung.
fn run_to(dir: &Path, args: &[String], to: &str) -> Result<(i32, String, String), String> {
    use std::io::Read;
    let stdout = if to == "closed-pipe" {
        let (reader, writer) = std::io::pipe().map_err(|e| e.to_string())?;
        drop(reader);
        std::process::Stdio::from(writer)
    } else {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(to)
            .map_err(|e| format!("{to}: {e}"))?;
        std::process::Stdio::from(file)
    };
    let mut child = std::process::Command::new(treequiz())
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null())
        .stdout(stdout)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("could not run: {e}"))?;
    let mut stderr = child.stderr.take().unwrap();
    let reading = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = stderr.read_to_end(&mut text);
        text
    });
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if start.elapsed() > PATIENCE {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("killed after {}s (it hung)", PATIENCE.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let err = reading.join().unwrap();
    let code = status.code().ok_or("killed by a signal")?;
    Ok((
        code,
        String::new(),
        String::from_utf8_lossy(&err).into_owned(),
    ))
}

/// What is wrong with one case's run; empty when it kept every promise.
fn check(name: &str, case: &Case, dir: &Path) -> Vec<String> {
    let mut wrong = Vec::new();
    for args in &case.before {
        match run(dir, args) {
            Ok((0, _, _)) => {}
            Ok((code, _, err)) => wrong.push(format!(
                "`{}` (before) exited {code}: {err}",
                args.join(" ")
            )),
            Err(e) => wrong.push(format!("`{}` (before): {e}", args.join(" "))),
        }
    }
    // After `before`, so a link or FIFO may take the place of what it wrote.
    let clear = |path: &Path| {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        match std::fs::symlink_metadata(path) {
            Ok(m) if m.is_dir() => std::fs::remove_dir_all(path).unwrap(),
            Ok(_) => std::fs::remove_file(path).unwrap(),
            Err(_) => {}
        }
    };
    for write in &case.setup.write {
        let mut text = String::new();
        for part in &write.parts {
            match part {
                Part::Text(t) => text.push_str(t),
                Part::Repeat { each, count } => {
                    for i in 0..*count {
                        let next = each.replace("{i+1}", &(i + 1).to_string());
                        text.push_str(&next.replace("{i}", &i.to_string()));
                    }
                }
            }
        }
        std::fs::write(dir.join(&write.path), text).unwrap();
    }
    for path in &case.setup.fifo {
        let path = dir.join(path);
        clear(&path);
        let status = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap();
        assert!(status.success(), "{name}: mkfifo {}", path.display());
    }
    // A socket file is made by binding it; it stays when the listener is gone.
    for path in &case.setup.socket {
        let path = dir.join(path);
        clear(&path);
        drop(std::os::unix::net::UnixListener::bind(&path).unwrap());
    }
    for (link, target) in &case.setup.symlink {
        let link = dir.join(link);
        clear(&link);
        std::os::unix::fs::symlink(target, &link).unwrap();
    }
    for (path, depth) in &case.setup.nest {
        use rustix::fs::{Mode, OFlags, mkdirat, openat};
        let path = dir.join(path);
        std::fs::create_dir_all(&path).unwrap();
        let flags = OFlags::DIRECTORY | OFlags::RDONLY;
        let mut here = openat(rustix::fs::CWD, &path, flags, Mode::empty()).unwrap();
        for _ in 0..*depth {
            mkdirat(&here, "d", Mode::RWXU).unwrap();
            here = openat(&here, "d", flags, Mode::empty()).unwrap();
        }
    }
    if !wrong.is_empty() {
        return wrong;
    }
    let kept: Vec<(String, Option<Vec<u8>>)> = case
        .unchanged
        .iter()
        .map(|p| (p.clone(), std::fs::read(dir.join(p)).ok()))
        .collect();
    let started = std::time::Instant::now();
    let ran = match &case.stdout_to {
        Some(to) => run_to(dir, &case.run, to),
        None => run(dir, &case.run),
    };
    let (code, out, err) = match ran {
        Ok(r) => r,
        Err(e) => return vec![e],
    };
    let took = started.elapsed();
    if let Some(limit) = case.seconds.filter(|&s| took > Duration::from_secs(s)) {
        wrong.push(format!(
            "it took {:.1} s, more than {limit} s",
            took.as_secs_f64()
        ));
    }
    if code != case.status {
        wrong.push(format!("exit status {code}, expected {}", case.status));
    }
    if err.contains("panicked") || code == 101 {
        wrong.push("it panicked".into());
    }
    for want in &case.stderr {
        if !err.contains(want.as_str()) {
            wrong.push(format!("the error output lacks {want:?}"));
        }
    }
    for want in &case.stdout {
        if !out.contains(want.as_str()) {
            wrong.push(format!("standard output lacks {want:?}"));
        }
    }
    for text in &case.hidden {
        if out.contains(text.as_str()) || err.contains(text.as_str()) {
            wrong.push(format!("the output shows {text:?}"));
        }
    }
    for path in &case.absent {
        if std::fs::symlink_metadata(dir.join(path)).is_ok() {
            wrong.push(format!("{path} exists"));
        }
    }
    for path in &case.present {
        if std::fs::symlink_metadata(dir.join(path)).is_err() {
            wrong.push(format!("{path} is missing"));
        }
    }
    for path in &case.docx {
        match std::fs::read(dir.join(path)) {
            Ok(bytes) => wrong.extend(
                super::docx::problems(&bytes)
                    .into_iter()
                    .map(|p| format!("{path}: {p}")),
            ),
            Err(e) => wrong.push(format!("{path}: {e}")),
        }
    }
    for (path, before) in kept {
        if std::fs::read(dir.join(&path)).ok() != before {
            wrong.push(format!("{path} changed"));
        }
    }
    let mut all = Vec::new();
    walk(dir, dir, &mut all);
    for path in all {
        let name = path.file_name().unwrap().to_string_lossy();
        // A link the case planted at such a name is the case's, not a leftover.
        let planted = case.setup.symlink.contains_key(&*path.to_string_lossy());
        if (name.contains(".tmp-") || name.contains("treequiz-partial")) && !planted {
            wrong.push(format!("{} was left behind", path.display()));
        }
    }
    if !wrong.is_empty() {
        wrong.push(format!("standard output:\n{out}\nerror output:\n{err}"));
    }
    wrong
}

#[test]
fn every_bad_input_gets_its_message_and_position() {
    let scratch = super::common::scratch("catalogue");
    let mut names: Vec<String> = std::fs::read_dir(cases())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut failures = Vec::new();
    for name in &names {
        let folder = cases().join(name);
        let text = std::fs::read_to_string(folder.join("case.toml"))
            .unwrap_or_else(|e| panic!("{name}/case.toml: {e}"));
        let case: Case = toml::from_str(&text).unwrap_or_else(|e| panic!("{name}/case.toml: {e}"));
        let dir = scratch.join(name);
        copy_tree(&folder, &dir);
        std::fs::remove_file(dir.join("case.toml")).unwrap();
        let wrong = check(name, &case, &dir);
        if !wrong.is_empty() {
            failures.push(format!(
                "{name} ({}):\n  {}",
                case.about,
                wrong.join("\n  ")
            ));
        }
    }
    assert!(
        names.len() >= 2,
        "the catalogue is in tests/catalogue/ ({} cases found)",
        names.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} catalogue cases failed:\n\n{}",
        failures.len(),
        names.len(),
        failures.join("\n\n")
    );
    eprintln!("{} catalogue cases", names.len());
}
