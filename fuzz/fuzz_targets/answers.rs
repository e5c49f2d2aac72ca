//! Answer files graded against the keys of problem-sets/textbook.toml (its
//! practice variant: AIMA 5.2, the AO* example, tic-tac-toe, Grundy, Othello).
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use treequiz::grade::batch::grade_source;
use treequiz::grade::key::KeyBook;
use treequiz::input::Source;
use treequiz::lang::Lang;

fn keys() -> &'static (KeyBook, Lang) {
    static KEYS: OnceLock<(KeyBook, Lang)> = OnceLock::new();
    KEYS.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../problem-sets/textbook.toml");
        let set =
            treequiz::problem_set::load(std::path::Path::new(path)).expect("the textbook set");
        let lang = Lang::builtin("en").expect("English is built in");
        let master = treequiz::rng::Master::from_seed(set.seed);
        let variants =
            treequiz::class_set::build(&set, &master, &[]).expect("the textbook set builds");
        (KeyBook::from_variants(&set, &variants), lang)
    })
}

fuzz_target!(|data: &[u8]| {
    let (book, lang) = keys();
    let text = String::from_utf8_lossy(data).into_owned();
    let source = Source {
        path: "fuzz.toml".into(),
        text,
    };
    let _ = grade_source(book, &source, lang, false);
    let _ = grade_source(book, &source, lang, true);
});
