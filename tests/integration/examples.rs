//! Examples never give an answer away (issue 27): over every shipped set and
//! 200 variants of each, as `generate --variants 200` makes them, every asked
//! field's example as the sheet shows it, copied unchanged into an answer
//! file, is read by the grader (valid TOML of the field's form) and earns
//! nothing for its field.

use treequiz::class_set;
use treequiz::grade::key::KeyBook;
use treequiz::grade::score::{State, score};
use treequiz::grade::submission;
use treequiz::input::Source;
use treequiz::lang::Lang;
use treequiz::problem_set;
use treequiz::rng::Master;
use treequiz::roster;
use treequiz::view;

use crate::common::shipped_sets;

const VARIANTS: usize = 200;

#[test]
fn no_example_scores_for_its_field() {
    let mut offending = Vec::new();
    let mut checked = 0;
    for path in shipped_sets() {
        let set = problem_set::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let lang = Lang::builtin(&set.language).unwrap_or_else(|| Lang::builtin("en").unwrap());
        let master = Master::from_seed(set.seed);
        let students = roster::anonymous(VARIANTS);
        let variants = class_set::build(&set, &master, &students).unwrap();
        let keys = KeyBook::from_variants(&set, &variants);
        for (variant, key) in variants.iter().zip(&keys.variants) {
            let sheet = view::sheet(&set, variant, &lang, false, None);
            for (exercise, q) in sheet.exercises.iter().zip(&key.questions) {
                for field in &exercise.fields {
                    checked += 1;
                    let where_ = format!(
                        "{name} {} q{} {}: `{}`",
                        variant.id, q.number, field.name, field.example
                    );
                    let text = format!(
                        "variant = \"{}\"\nchecksum = \"{}\"\n\n[q{}]\n{}\n",
                        variant.id, variant.checksum, q.number, field.example
                    );
                    let sub = submission::parse(&Source {
                        path: "example.toml".into(),
                        text,
                    })
                    .unwrap();
                    if !sub.broken.is_empty() {
                        offending.push(format!("{where_} is not valid TOML"));
                        continue;
                    }
                    let given = &sub.questions[0].1;
                    let (scored, _) = score(q, given, &[], &lang, false);
                    let fs = scored
                        .fields
                        .iter()
                        .find(|f| f.field == field.name)
                        .unwrap();
                    match fs.state {
                        State::Wrong => {}
                        State::Invalid => {
                            offending.push(format!("{where_} is not read as the field's form"))
                        }
                        _ => offending.push(format!(
                            "{where_} earns {} of {} (the answer is {})",
                            fs.earned, fs.max, fs.key
                        )),
                    }
                }
            }
        }
    }
    assert!(checked > 5000, "only {checked} examples checked");
    assert!(
        offending.is_empty(),
        "{} of {checked} examples give an answer away or cannot be read:\n{}",
        offending.len(),
        offending
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
