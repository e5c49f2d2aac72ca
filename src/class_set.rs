//! A class set: one variant of a problem set per student (or one for practice),
//! each with its instances and their solved keys.

use crate::exercise::{Conventions, Key};
use crate::fair::{Drawn, Plan};
use crate::generate::GenerateError;
use crate::instance::Instance;
use crate::problem_set::{Exercise, InstanceSource, ProblemSet};
use crate::rng::{Master, fnv1a64};
use crate::roster::Student;

/// The version of seed → exercise: both generators' versions, the
/// derivation's, and the redraw rule of [`crate::fair`].
pub const GENERATOR_VERSION: &str = "gametree-1/andor-1/derive-1/fair-1";

/// One exercise of one variant.
#[derive(Clone, Debug)]
pub struct Item {
    /// 1-based question number.
    pub number: usize,
    /// The exercise of the set.
    pub exercise: Exercise,
    /// The seed the family generator made the instance from (`None` for a
    /// fixed instance): the derived seed, or the redraw that met the limits.
    pub seed: Option<u64>,
    /// The instance.
    pub instance: Instance,
    /// Its key.
    pub key: Key,
    /// The kind's measures of it, by name (docs/generators.md).
    pub measures: Vec<(&'static str, u64)>,
}

/// One student's version of the set.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The student, or `None` in practice mode.
    pub student: Option<Student>,
    /// A short id printed on the sheets (6 characters, from the derivation).
    pub id: String,
    /// A checksum of the variant's instances, printed on the answer sheet.
    pub checksum: String,
    /// The exercises.
    pub items: Vec<Item>,
}

/// Why a class set could not be made.
#[derive(Debug, thiserror::Error)]
#[error("question {number} ({kind}): {source}")]
pub struct ClassSetError {
    /// The question.
    pub number: usize,
    /// Its kind.
    pub kind: &'static str,
    /// What failed.
    pub source: GenerateError,
}

/// The derivation context of a student: generator version, set title, student id.
pub fn context(set: &ProblemSet, student: Option<&Student>) -> String {
    format!(
        "treequiz/{GENERATOR_VERSION}\0{}\0{}",
        set.title,
        student.map_or("", |s| s.id.as_str())
    )
}

/// Crockford base-32 without I, L, O, U: easy to read aloud and to copy.
/// The checksum of a variant's instances, in exercise order: FNV-1a 64 of
/// their canonical forms ([`Instance::canonical`]) joined by a line feed,
/// as 16 lowercase hex digits. docs/class-sets.md states the form;
/// `tests/integration/golden.rs` pins values.
pub fn checksum<'a>(instances: impl IntoIterator<Item = &'a Instance>) -> String {
    let forms: Vec<String> = instances.into_iter().map(Instance::canonical).collect();
    format!("{:016x}", fnv1a64(forms.join("\n").as_bytes()))
}

fn short_id(v: u64) -> String {
    const ALPHABET: &[u8] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    (0..6)
        .map(|i| ALPHABET[((v >> (5 * i)) & 31) as usize] as char)
        .collect()
}

/// Generates and solves every variant: one per student, or one without a roster.
pub fn build(
    set: &ProblemSet,
    master: &Master,
    students: &[Student],
) -> Result<Vec<Variant>, ClassSetError> {
    build_planned(set, master, &plan(set, master)?, students)
}

/// [`build`] with the set's [`Plan`] already made.
pub fn build_planned(
    set: &ProblemSet,
    master: &Master,
    plan: &Plan,
    students: &[Student],
) -> Result<Vec<Variant>, ClassSetError> {
    let practice = [None];
    let who: Vec<Option<&Student>> = if students.is_empty() {
        practice.to_vec()
    } else {
        students.iter().map(Some).collect()
    };
    // Variants are independent: make them on every core, in roster order.
    crate::parallel::map(&who, |&student| variant(set, master, plan, student))
        .into_iter()
        .collect()
}

/// The set's typical variant, which every variant's work keeps near.
pub fn plan(set: &ProblemSet, master: &Master) -> Result<Plan, ClassSetError> {
    Plan::new(set, master).map_err(|(i, source)| ClassSetError {
        number: i + 1,
        kind: set.exercises[i].kind.name,
        source,
    })
}

/// One student's variant (or the practice one).
pub fn variant(
    set: &ProblemSet,
    master: &Master,
    plan: &Plan,
    student: Option<&Student>,
) -> Result<Variant, ClassSetError> {
    let ctx = context(set, student);
    let conventions: Conventions = set.conventions;
    let mut items = Vec::with_capacity(set.exercises.len());
    for (i, exercise) in set.exercises.iter().enumerate() {
        let fail = |source| ClassSetError {
            number: i + 1,
            kind: exercise.kind.name,
            source,
        };
        let (seed, drawn) = match &exercise.source {
            InstanceSource::Fixed(inst) => {
                let instance = (**inst).clone();
                let key = (exercise.kind.solve)(&instance, &conventions);
                let measures = exercise.kind.measures_of(&instance, &key, &conventions);
                (
                    None,
                    Drawn {
                        seed: 0,
                        instance,
                        key,
                        measures,
                    },
                )
            }
            InstanceSource::Generated(params) => {
                let seed = master.derive(&ctx, i as u64);
                let drawn = crate::fair::draw(exercise, params, seed, &conventions, plan.band(i))
                    .map_err(fail)?;
                (Some(drawn.seed), drawn)
            }
        };
        items.push(Item {
            number: i + 1,
            exercise: exercise.clone(),
            seed,
            instance: drawn.instance,
            key: drawn.key,
            measures: drawn.measures,
        });
    }
    Ok(Variant {
        student: student.cloned(),
        id: short_id(master.derive(&ctx, u64::MAX >> 1)),
        checksum: checksum(items.iter().map(|i| &i.instance)),
        items,
    })
}
