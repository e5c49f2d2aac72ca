//! Manifests (JSON, as `generate` writes them, or hand-edited / damaged) to
//! `KeyBook::from_manifest`, the only door through which `grade --manifest`
//! trusts one; a book that is accepted then grades a blank sheet.
#![no_main]

use libfuzzer_sys::fuzz_target;
use treequiz::grade::key::KeyBook;
use treequiz::input::Source;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let source = Source {
        path: "manifest.json".into(),
        text,
    };
    let Ok(book) = KeyBook::from_manifest(&source) else {
        return;
    };
    let Some(lang) = treequiz::lang::Lang::builtin("en") else {
        return;
    };
    let blank = Source {
        path: "sheet.toml".into(),
        text: "variant = \"ZZZZZZ\"\n".into(),
    };
    let _ = treequiz::grade::batch::grade_source(&book, &blank, &lang, false);
});
