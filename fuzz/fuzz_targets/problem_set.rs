//! Problem sets: parsed with `instance_file` paths resolved in problem-sets/.
//! (Generating a class set is left out: a valid set may ask for minutes of work.)
#![no_main]

use libfuzzer_sys::fuzz_target;
use treequiz::input::Source;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../problem-sets"));
    let _ = treequiz::problem_set::parse(
        &Source {
            path: "fuzz.toml".into(),
            text,
        },
        dir,
    );
});
