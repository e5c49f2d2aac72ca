//! The CSV files a teacher writes: class rosters, and grading's overrides
//! (read, then applied to an empty batch: every row must be refused, never panic).
#![no_main]

use libfuzzer_sys::fuzz_target;
use treequiz::input::Source;

fuzz_target!(|data: &[u8]| {
    let source = Source {
        path: "fuzz.csv".into(),
        text: String::from_utf8_lossy(data).into_owned(),
    };
    let _ = treequiz::roster::parse(&source);
    if let Ok(rows) = treequiz::grade::overrides::parse(&source) {
        assert!(rows.is_empty() || treequiz::grade::overrides::apply(&mut [], &rows, &source).is_err());
    }
});
