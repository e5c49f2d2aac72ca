//! What an installed treequiz has without a checkout (a wheel, `cargo
//! install`): the start page, its version and commit, the shipped sets and
//! the practice page's module, all built in.

use crate::common::{files, root, run, run_in, scratch};

#[test]
fn the_start_page_commands_work_as_printed_in_an_empty_folder() {
    let dir = scratch("start-page");
    let (code, page, err) = run_in(&dir, &[]);
    assert_eq!((code, err.as_str()), (0, ""), "{page}");
    let commands: Vec<Vec<&str>> = page
        .lines()
        .filter_map(|l| l.strip_prefix("  treequiz "))
        .map(|l| l.split_whitespace().collect())
        .collect();
    let verbs: Vec<&str> = commands.iter().map(|c| c[0]).collect();
    assert_eq!(verbs, ["sets", "generate", "grade", "practice"], "{page}");
    for command in &commands {
        if command[0] == "grade" {
            // What a student would hand in: the key itself, a perfect file.
            std::fs::create_dir_all(dir.join("handed-in")).unwrap();
            std::fs::copy(dir.join("demo/key.toml"), dir.join("handed-in/key.toml")).unwrap();
        }
        if command[0] == "practice" && !cfg!(treequiz_page_module) {
            let (code, _, err) = run_in(&dir, command);
            assert_eq!(code, 2);
            assert!(err.contains("web/build --page"), "{err}");
            continue;
        }
        let (code, out, err) = run_in(&dir, command);
        assert_eq!(code, 0, "treequiz {}: {out}{err}", command.join(" "));
    }
    let grades = std::fs::read_to_string(dir.join("report/grades.csv")).unwrap();
    let row: Vec<&str> = grades.lines().nth(1).unwrap().split(',').collect();
    // status graded, total = max: the key earns full marks.
    assert_eq!((row[4], row[8]), ("graded", row[9]), "{grades}");
}

#[test]
fn sets_export_writes_every_shipped_file_and_keeps_edits() {
    let dir = scratch("sets-export");
    let out = dir.join("problem-sets");
    let (code, listed, err) = run(&["sets", "export", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let shipped = root().join("problem-sets");
    // Every file of problem-sets/, byte for byte, each listed.
    let exported = files(&out);
    assert!(exported == files(&shipped), "{:?}", exported.keys());
    for rel in exported.keys() {
        assert!(listed.contains(rel.as_str()), "{listed}");
    }
    // A teacher's edit is kept unless --force.
    std::fs::write(out.join("demo.toml"), "# mine\n").unwrap();
    let (code, _, err) = run(&["sets", "export", out.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("1 file here differs from the shipped problem sets (edited?): demo.toml"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(out.join("demo.toml")).unwrap(),
        "# mine\n"
    );
    let (code, _, err) = run(&["sets", "export", out.to_str().unwrap(), "--force"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read(out.join("demo.toml")).unwrap(),
        std::fs::read(shipped.join("demo.toml")).unwrap()
    );
}

#[test]
fn version_names_the_commit_it_was_built_from() {
    let (code, out, _) = run(&["--version"]);
    assert_eq!(code, 0);
    let version = format!("treequiz {}", env!("CARGO_PKG_VERSION"));
    assert!(out.starts_with(&version), "{out}");
    // In a checkout (CI's clone is one) the commit is named, as git names it.
    let head = std::process::Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(root())
        .output();
    if let Some(head) = head.ok().filter(|h| h.status.success()) {
        let head = String::from_utf8(head.stdout).unwrap();
        assert_eq!(
            out.trim_end(),
            format!("{version} (commit {})", head.trim())
        );
    }
}

/// Built with the module (`web/build` ran first, as in every release), the
/// page needs no --module, and holds exactly that module (deflated, in
/// base64: what the page unpacks is this build's module, byte for byte).
#[test]
fn practice_uses_the_module_built_in() {
    let dir = scratch("practice-built-in");
    let (code, out, err) = run_in(&dir, &["practice", "--out", "site"]);
    if !cfg!(treequiz_page_module) {
        assert_eq!(code, 2, "{out}");
        assert!(
            err.contains("built without the practice page's WebAssembly module"),
            "{err}"
        );
        assert!(!dir.join("site").exists());
        return;
    }
    assert_eq!(code, 0, "{err}");
    let page = std::fs::read_to_string(dir.join("site/practice.html")).unwrap();
    // The page was built in (code 0), so its module's path was set at build time.
    let Some(built) = option_env!("TREEQUIZ_PAGE_MODULE") else {
        panic!("practice wrote a page, but TREEQUIZ_PAGE_MODULE was not set at build time");
    };
    let module = std::fs::read(built).unwrap();
    let tag = r#"<script id="tq-module" type="application/octet-stream">"#;
    let text = &page[page.find(tag).expect("the module's element") + tag.len()..];
    let text = &text[..text.find("</script>").unwrap()];
    let packed = crate::moodle::base64_decode(text);
    let unpacked = miniz_oxide::inflate::decompress_to_vec_zlib(&packed)
        .expect("the page's module is zlib-deflated, as DecompressionStream(\"deflate\") reads it");
    assert!(
        unpacked == module,
        "the page's module ({} bytes unpacked) is not {built} ({} bytes)",
        unpacked.len(),
        module.len()
    );
    assert!(
        packed.len() < module.len() / 2,
        "{} bytes packed",
        packed.len()
    );
}
