//! An exam's answer form (`form.json`) as `check` reads it: any bytes are
//! refused with a position or read, and a form read checks the textbook
//! set's key sheet without a panic; any sheet checks against the textbook
//! set's own form.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use treequiz::grade::form::{self, Form};
use treequiz::grade::submission;
use treequiz::input::Source;
use treequiz::lang::Lang;

fn textbook() -> &'static (Form, String, Lang) {
    static FORM: OnceLock<(Form, String, Lang)> = OnceLock::new();
    FORM.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../problem-sets/textbook.toml");
        let set =
            treequiz::problem_set::load(std::path::Path::new(path)).expect("the textbook set");
        let master = treequiz::rng::Master::from_seed(set.seed);
        let variant = treequiz::class_set::build(&set, &master, &[])
            .expect("the textbook set builds")
            .remove(0);
        let mut key = format!("variant = \"{}\"\nchecksum = \"0\"\n", variant.id);
        for item in &variant.items {
            key.push_str(&format!("\n[q{}]\n", item.number));
            let model = item.instance.model();
            for (field, answer) in &item.key.answers {
                key.push_str(&format!("{field} = {}\n", answer.to_toml(&model)));
            }
        }
        let lang = Lang::builtin("en").expect("English is built in");
        (Form::of(&variant, "en"), key, lang)
    })
}

fuzz_target!(|data: &[u8]| {
    let (own, key, lang) = textbook();
    let text = String::from_utf8_lossy(data).into_owned();
    let check = |form: &Form, sheet: &str| {
        let source = Source {
            path: "sheet.toml".into(),
            text: sheet.to_string(),
        };
        if let Ok(sub) = submission::parse(&source) {
            let _ = form::check(form, "sheet.toml", form::FILE, &sub, lang);
        }
    };
    let source = Source {
        path: form::FILE.into(),
        text: text.clone(),
    };
    let _ = Form::of_sheet(&source, &submission::Submission::default(), "sheet.toml");
    if let Ok(form) = Form::parse(&source) {
        check(&form, key);
    }
    check(own, &text);
});
