//! The library's modules form layers, and data flows one way: a module may use
//! only the modules before it in [`ORDER`] (docs/architecture.md draws it).
//! This test reads each module's `crate::` paths, so a new circle fails here.

use std::collections::BTreeSet;
use std::path::Path;

/// Lowest first: the models and their solvers, drawing, the instance and kind
/// registries, sets, the manifest, views, grading.
const ORDER: &[&str] = &[
    "value",
    "parallel",
    "output",
    "rng",
    "generate",
    "input",
    "document",
    "lang",
    "reason",
    "scoring",
    "gametree",
    "chance",
    "andor",
    "games",
    "draw",
    "instance",
    "exercise",
    "roster",
    "problem_set",
    "fair",
    "class_set",
    "manifest",
    "view",
    "render",
    "docx",
    "moodle",
    "grade",
];

/// Every `crate::name` a file mentions (in `use` lines and in paths).
fn uses(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + "crate::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            out.insert(name);
        }
        // `use crate::{a, b::c}`: each name in the braces.
        if rest.starts_with('{') {
            let inner = &rest[1..rest.find('}').unwrap_or(rest.len())];
            for part in inner.split(',') {
                let name: String = part
                    .trim()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        }
    }
    out
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn modules_use_only_the_layers_below_them() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    files(&src, &mut all);
    let mut checked = BTreeSet::new();
    let mut wrong = Vec::new();
    for path in all {
        let rel = path.strip_prefix(&src).unwrap();
        let module = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        // The binary (main.rs, cli/) sits above every layer; lib.rs only declares.
        if matches!(module.as_str(), "main" | "cli" | "lib") {
            continue;
        }
        let at = ORDER
            .iter()
            .position(|m| *m == module)
            .unwrap_or_else(|| panic!("{module} is not in ORDER: give it its layer"));
        checked.insert(module.clone());
        let text = std::fs::read_to_string(&path).unwrap();
        for used in uses(&text) {
            if used == module {
                continue;
            }
            match ORDER.iter().position(|m| *m == used) {
                Some(u) if u < at => {}
                Some(_) => wrong.push(format!("{} uses {used}", rel.display())),
                None => {}
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "uses against the layer order:\n{}",
        wrong.join("\n")
    );
    assert_eq!(
        checked.len(),
        ORDER.len(),
        "every layer has a module: {checked:?}"
    );
}
