//! Build facts the binary and the tests need, and nothing else:
//!
//! - the practice page's WebAssembly module, `web/dist/treequiz.wasm`, built
//!   in when `web/build` has made it (`treequiz practice` then needs no
//!   toolchain), named by `TREEQUIZ_PAGE_MODULE` under `cfg(treequiz_page_module)`;
//! - the version and commit this is built from, for `treequiz --version`
//!   (`TREEQUIZ_VERSION`; the commit from `TREEQUIZ_COMMIT`, else git, else
//!   the `.cargo_vcs_info.json` that `cargo package` writes);
//! - which tools the test suite looks for are missing here, so that their tests
//!   show as ignored, not as passed (never under `CI`, where they must run).

use std::path::Path;
use std::process::Command;

fn main() {
    page_module();
    commit();
    missing_tools();
}

fn page_module() {
    println!("cargo::rustc-check-cfg=cfg(treequiz_page_module)");
    let module = Path::new("web/dist/treequiz.wasm");
    if module.is_file() {
        println!("cargo::rerun-if-changed={}", module.display());
        let full = std::fs::canonicalize(module).expect("an existing file has a full path");
        println!("cargo::rustc-env=TREEQUIZ_PAGE_MODULE={}", full.display());
        println!("cargo::rustc-cfg=treequiz_page_module");
    } else if Path::new("web/dist").is_dir() {
        // A missing file would rerun this script (and rebuild the crate) on
        // every build; the folder `web/build` writes it into changes instead.
        println!("cargo::rerun-if-changed=web/dist");
    }
}

fn commit() {
    println!("cargo::rerun-if-env-changed=TREEQUIZ_COMMIT");
    let commit = std::env::var("TREEQUIZ_COMMIT")
        .ok()
        .or_else(from_git)
        .or_else(from_package)
        .unwrap_or_default();
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let line = if commit.is_empty() {
        version
    } else {
        format!("{version} (commit {commit})")
    };
    println!("cargo::rustc-env=TREEQUIZ_VERSION={line}");
}

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}

fn from_git() -> Option<String> {
    // Only a checkout of this crate itself (not a parent repository's).
    let top = git(&["rev-parse", "--show-toplevel"])?;
    let here = std::fs::canonicalize(".").ok()?;
    if std::fs::canonicalize(top).ok()? != here {
        return None;
    }
    // A new commit, or another branch, changes HEAD or a branch's ref (a
    // file under refs/heads, or packed-refs).
    // Only files that are there: a missing one would rerun this script, and
    // rebuild the crate, on every build.
    for name in ["HEAD", "packed-refs", "refs/heads"] {
        if let Some(path) = git(&["rev-parse", "--git-path", name])
            && Path::new(&path).exists()
        {
            println!("cargo::rerun-if-changed={path}");
        }
    }
    git(&["rev-parse", "--short=12", "HEAD"])
}

fn from_package() -> Option<String> {
    // {"git": {"sha1": "…"}, …}: the one 40-digit value after "sha1".
    let text = std::fs::read_to_string(".cargo_vcs_info.json").ok()?;
    let after = &text[text.find("\"sha1\"")? + 6..];
    let sha: String = after
        .chars()
        .skip_while(|c| !c.is_ascii_hexdigit())
        .take_while(char::is_ascii_hexdigit)
        .collect();
    (sha.len() == 40).then(|| sha[..12].to_string())
}

/// Sets `treequiz_without_TOOL` for each tool the tests use that is not on
/// `PATH`. It is read when this script runs: after installing a tool, `touch
/// build.rs` (or `cargo clean`) so that its tests run.
fn missing_tools() {
    const TOOLS: [&str; 5] = ["chromium", "xelatex", "pdftotext", "script", "libreoffice"];
    for tool in TOOLS {
        println!("cargo::rustc-check-cfg=cfg(treequiz_without_{tool})");
    }
    println!("cargo::rerun-if-env-changed=CI");
    if std::env::var_os("CI").is_some() {
        return;
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let found = |names: &[&str]| {
        std::env::split_paths(&path).any(|dir| names.iter().any(|n| dir.join(n).is_file()))
    };
    for tool in TOOLS {
        let names: &[&str] = match tool {
            "chromium" => &["chromium", "chromium-browser", "google-chrome"],
            other => &[other],
        };
        if !found(names) {
            println!("cargo::rustc-cfg=treequiz_without_{tool}");
        }
    }
}
