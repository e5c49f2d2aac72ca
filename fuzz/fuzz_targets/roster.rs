//! Class rosters (CSV).
#![no_main]

use libfuzzer_sys::fuzz_target;
use treequiz::input::Source;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let _ = treequiz::roster::parse(&Source {
        path: "fuzz.csv".into(),
        text,
    });
});
