//! Instance files (TOML, or JSON when the text starts with `{`): read, then solved.
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
    let Ok(instance) = parse(&Source {
        path: path.into(),
        text,
    }) else {
        return;
    };
    match &instance {
        Instance::GameTree(t) => {
            let _ = treequiz::gametree::alpha_beta(t, Default::default());
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
});
