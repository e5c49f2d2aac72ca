//! An LMS's download zip, as `grade` reads it in memory: listing never
//! panics, every entry is read within its limits or refused with a reason,
//! and no entry's path leaves the zip.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let lang = treequiz::lang::Lang::builtin("en").unwrap();
    let mut out = Vec::new();
    let zip = Path::new("download.zip");
    if treequiz::grade::lms::read_zip_from(zip, std::io::Cursor::new(data), &mut out).is_ok() {
        for handed in &out {
            assert!(handed.path.starts_with(zip), "{}", handed.path.display());
            match handed.read(&lang) {
                Ok(source) => assert!(source.text.len() as u64 <= treequiz::grade::batch::MAX_ANSWER_BYTES),
                Err(row) => assert!(!row.reason.is_empty()),
            }
        }
    }
});
