//! Template folders (`--templates DIR`): the first line names the template
//! or string table that the rest replaces (`worksheet.md`, `lang/zh.toml`;
//! any other first line picks one by its length); the folder is loaded and,
//! when it loads, every template is rendered with it for the sheets (blank
//! and key, in English and Chinese) of the textbook set's practice variant.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use treequiz::class_set::Variant;
use treequiz::problem_set::ProblemSet;

fn fixture() -> &'static (ProblemSet, Vec<Variant>, PathBuf) {
    static FIXTURE: OnceLock<(ProblemSet, Vec<Variant>, PathBuf)> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../problem-sets/textbook.toml");
        let set = treequiz::problem_set::load(std::path::Path::new(path)).expect("the textbook set");
        let master = treequiz::rng::Master::from_seed(set.seed);
        let variants = treequiz::class_set::build(&set, &master, &[]).expect("it builds");
        let dir = std::env::temp_dir().join(format!("treequiz-fuzz-templates-{}", std::process::id()));
        (set, variants, dir)
    })
}

fuzz_target!(|data: &[u8]| {
    let (first, content) = match data.iter().position(|&b| b == b'\n') {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &[][..]),
    };
    let (set, variants, dir) = fixture();
    let names: Vec<String> = treequiz::render::TEMPLATES
        .iter()
        .map(|(n, _)| n.to_string())
        .chain(treequiz::lang::BUILTIN.iter().map(|b| format!("lang/{}.toml", b.code)))
        .collect();
    let name = names
        .iter()
        .find(|n| n.as_bytes() == first)
        .unwrap_or(&names[first.len() % names.len()]);
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir.join("lang")).expect("a scratch folder");
    std::fs::write(dir.join(name), content).expect("a scratch file");
    let Ok(renderer) = treequiz::render::Renderer::new(Some(dir)) else {
        return;
    };
    for code in ["en", "zh"] {
        let Ok(lang) = renderer.lang(code) else {
            continue;
        };
        for with_key in [false, true] {
            let view = treequiz::view::sheet(set, &variants[0], &lang, with_key, None);
            for (template, _) in treequiz::render::TEMPLATES {
                let _ = renderer.render(template, &view);
            }
        }
    }
});
