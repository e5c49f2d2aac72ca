//! Helpers every test module shares.

use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;

/// The project's folder.
pub(crate) fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every shipped problem set (`problem-sets/*.toml`), in name order.
pub(crate) fn shipped_sets() -> Vec<PathBuf> {
    let mut sets: Vec<PathBuf> = std::fs::read_dir(root().join("problem-sets"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    sets.sort();
    sets
}

/// Every file under `dir`, by path relative to it.
pub(crate) fn files(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else {
                out.insert(
                    path.strip_prefix(dir).unwrap().display().to_string(),
                    std::fs::read(&path).unwrap(),
                );
            }
        }
    }
    out
}

/// A fresh, empty folder for one test, outside the project folder. Named
/// for the test and the checkout (not the run), so that each run replaces
/// the last one's instead of leaving gigabytes behind in the temp folder.
pub(crate) fn scratch(name: &str) -> PathBuf {
    use std::hash::{Hash, Hasher};
    let mut checkout = std::collections::hash_map::DefaultHasher::new();
    env!("CARGO_MANIFEST_DIR").hash(&mut checkout);
    let dir =
        std::env::temp_dir().join(format!("treequiz-{name}-{:08x}", checkout.finish() as u32));
    remove_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Removes a folder, with the folders a test made unreadable in it.
fn remove_all(dir: &Path) {
    if std::fs::remove_dir_all(dir).is_ok() || !dir.exists() {
        return;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mut todo = vec![dir.to_path_buf()];
        while let Some(d) = todo.pop() {
            let _ = std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o700));
            for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.symlink_metadata().is_ok_and(|m| m.is_dir()) {
                    todo.push(path);
                }
            }
        }
    }
    std::fs::remove_dir_all(dir)
        .unwrap_or_else(|e| panic!("{}: cannot remove: {e}", dir.display()));
}

/// Runs treequiz in the project folder; returns (exit code, stdout, stderr).
pub(crate) fn run(args: &[&str]) -> (i32, String, String) {
    run_in(Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

/// `treequiz generate SET --out OUT EXTRA…` in the project folder.
pub(crate) fn generate(set: &str, out: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["generate", set, "--out", out];
    args.extend_from_slice(extra);
    run(&args)
}

/// Runs treequiz in `dir`; returns (exit code, stdout, stderr).
/// A class set of `set` for the roster `rows` (id, name) in `dir/exam`, as
/// Markdown, with the practice seed 1.
pub(crate) fn exam_for(dir: &Path, rows: &[(&str, &str)], set: &str) {
    let mut csv = String::from("id,name\n");
    for (id, name) in rows {
        csv.push_str(&format!(
            "\"{}\",\"{}\"\n",
            id.replace('"', "\"\""),
            name.replace('"', "\"\"")
        ));
    }
    std::fs::write(dir.join("class.csv"), csv).unwrap();
    let (code, _, err) = run_in(
        dir,
        &[
            "generate",
            set,
            "--roster",
            "class.csv",
            "--seed",
            "1",
            "--out",
            "exam",
            "--format",
            "md",
        ],
    );
    assert_eq!((code, err.as_str()), (0, ""));
}

pub(crate) fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = cargo_bin_cmd!("treequiz")
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// What `solve --json` answers for the file at `path`: each kind with its
/// fields, in order (for comparing the same instance in several forms).
pub(crate) fn solve_fields(path: &Path) -> Vec<(serde_json::Value, serde_json::Value)> {
    let (code, out, err) = run(&["solve", path.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{}: {err}", path.display());
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    json["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["kind"].clone(), s["fields"].clone()))
        .collect()
}

/// `text` with a few random one-character edits (delete, replace, insert).
pub(crate) fn mangle(
    text: &str,
    rng: &mut treequiz::rng::Rng,
    alphabet: &[char],
    edits: (i64, i64),
) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..rng.between(edits.0, edits.1) {
        let at = rng.below(chars.len() as u64 + 1) as usize;
        match rng.below(3) {
            0 if at < chars.len() => {
                chars.remove(at);
            }
            1 if at < chars.len() => chars[at] = *rng.choose(alphabet).unwrap(),
            _ => chars.insert(at, *rng.choose(alphabet).unwrap()),
        }
    }
    chars.into_iter().collect()
}

/// How many cases a seeded never-panic test runs: `default`, or the number in
/// `TREEQUIZ_FUZZ_CASES` (to run more, e.g. before a release).
pub(crate) fn fuzz_cases(default: u64) -> u64 {
    match std::env::var("TREEQUIZ_FUZZ_CASES") {
        Ok(n) => n
            .trim()
            .replace(['_', ','], "")
            .parse()
            .unwrap_or_else(|_| panic!("TREEQUIZ_FUZZ_CASES={n} is not a number of cases")),
        Err(_) => default,
    }
}

/// Runs `case(seed)` for seeds `0..fuzz_cases(default)`; a panic fails the test
/// with its seed and what `describe(seed)` says of its input (a seed alone
/// reproduces a case: every random choice comes from it). Returns how many
/// cases returned `true` (e.g. the inputs that were still valid).
pub(crate) fn never_panics(
    what: &str,
    default: u64,
    describe: impl Fn(u64) -> String,
    case: impl Fn(u64) -> bool + std::panic::RefUnwindSafe,
) -> u64 {
    let cases = fuzz_cases(default);
    let mut ok = 0;
    for seed in 0..cases {
        match std::panic::catch_unwind(|| case(seed)) {
            Ok(true) => ok += 1,
            Ok(false) => {}
            Err(_) => panic!("{what}: seed {seed} panicked on:\n{}", describe(seed)),
        }
    }
    eprintln!("{what}: {cases} cases without a panic, {ok} accepted");
    ok
}
