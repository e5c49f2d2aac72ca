//! Instance files (TOML, or JSON when the text starts with `{`; the same
//! bytes as a Python nested list and as a CS188 test too): read, then solved;
//! a game tree is written in every form `convert` has and read back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use treequiz::input::Source;
use treequiz::instance::{Instance, parse};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let path = if text.trim_start().starts_with('{') {
        "fuzz.json"
    } else {
        "fuzz.toml"
    };
    for path in [path, "fuzz.py", "fuzz.test"] {
        let Ok(instance) = parse(&Source {
            path: path.into(),
            text: text.clone(),
        }) else {
            continue;
        };
        solve(&instance);
    }
});

fn solve(instance: &Instance) {
    match instance {
        Instance::GameTree(t) => {
            let _ = treequiz::gametree::alpha_beta(t, Default::default());
            // What `convert` writes reads back as the same tree: decimals
            // exactly, labels compared with case where they were.
            let written = [
                ("back.toml", Some(instance.to_toml())),
                ("back.json", Some(instance.to_json())),
                ("back.py", treequiz::gametree::pylist::write(t)),
                ("back.test", treequiz::gametree::cs188::write(t, "MinimaxAgent").ok()),
            ];
            for (path, text) in written {
                let Some(text) = text else { continue };
                let back = parse(&Source {
                    path: path.into(),
                    text,
                })
                .expect("what convert writes reads back");
                let Instance::GameTree(back) = back else {
                    panic!("a game tree reads back as a game tree")
                };
                let nodes = |t: &treequiz::gametree::Tree| -> Vec<_> {
                    t.ids()
                        .map(|i| (t.label(i).into_owned(), t.leaf(i), t.children(i).count()))
                        .collect()
                };
                assert_eq!(nodes(t), nodes(&back), "{path}");
                // A Python list or CS188 test needs case only where labels differ by it.
                if path.ends_with(".toml") || path.ends_with(".json") || t.case_sensitive() {
                    assert_eq!(t.case_sensitive(), back.case_sensitive(), "{path}");
                }
            }
        }
        Instance::AndOr(g) => {
            let _ = treequiz::andor::ao_star(g, Default::default());
        }
        // Grundy's game is solved, a board's lookahead built, by `model`.
        other => {
            if let Some(t) = other.model().tree() {
                let _ = treequiz::gametree::alpha_beta(t, Default::default());
            }
        }
    }
}
