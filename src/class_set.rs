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
    /// A short id printed on the sheets (6 characters, from the derivation,
    /// distinct within the class set: [`variant_ids`]).
    pub id: String,
    /// A checksum of the variant's instances, printed on the answer sheet.
    pub checksum: String,
    /// The exercises.
    pub items: Vec<Item>,
}

/// Why a class set could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ClassSetError {
    /// An exercise could not be generated.
    #[error("question {number} ({kind}): {source}")]
    Exercise {
        /// The question.
        number: usize,
        /// Its kind.
        kind: &'static str,
        /// What failed.
        source: GenerateError,
    },
    /// Every variant id offered to a student is taken by earlier students.
    #[error(
        "student `{student}`: the {ID_CANDIDATES} variant ids derived for this student are all taken by students above it in the roster; split the roster into two class sets (with two set titles)"
    )]
    NoFreeId {
        /// The student's id.
        student: String,
    },
}

/// The derivation context of a student: generator version, set title, student id.
pub fn context(set: &ProblemSet, student: Option<&Student>) -> String {
    format!(
        "treequiz/{GENERATOR_VERSION}\0{}\0{}",
        set.title,
        student.map_or("", |s| s.id.as_str())
    )
}

/// The checksum of a variant's instances, in exercise order: FNV-1a 64 of
/// their canonical forms ([`Instance::canonical`]) joined by a line feed,
/// as 16 lowercase hex digits. docs/class-sets.md states the form;
/// `tests/integration/golden.rs` pins values.
pub fn checksum<'a>(instances: impl IntoIterator<Item = &'a Instance>) -> String {
    let forms: Vec<String> = instances.into_iter().map(Instance::canonical).collect();
    format!("{:016x}", fnv1a64(forms.join("\n").as_bytes()))
}

/// How many ids a student may be offered before a class set is refused: in
/// about one class of 10,000 in 22, some student finds its first candidate
/// taken (30 bits); sixteen taken in a row needs hundreds of millions of students.
pub const ID_CANDIDATES: u32 = 16;

/// Six Crockford base-32 characters (no I, L, O, U: easy to read aloud and
/// to copy) from the low 30 bits of `v`.
fn short_id(v: u64) -> String {
    const ALPHABET: &[u8] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    (0..6)
        .map(|i| ALPHABET[((v >> (5 * i)) & 31) as usize] as char)
        .collect()
}

/// The `k`-th variant id offered to the context `ctx` ([`context`]): the
/// derivation at index 2^63 − 1 − `k`, far from the exercises' indices
/// 0, 1, 2, …, as six characters. Candidate 0 is the id a student gets
/// unless an earlier student of the roster has it ([`assign_ids`]).
pub fn id_candidate(master: &Master, ctx: &str, k: u32) -> String {
    short_id(master.derive(ctx, (u64::MAX >> 1) - u64::from(k)))
}

/// Gives each of `n` students (in roster order) the first of its candidate
/// ids (`candidate(student, k)` for `k` = 0, 1, …, [`ID_CANDIDATES`] − 1)
/// that no earlier student has: the ids are distinct, a student's id depends
/// only on the students before it, so a student added at the end of the
/// roster changes nobody's id. `Err(i)` when student `i` finds every
/// candidate taken.
pub fn assign_ids(
    n: usize,
    candidate: impl Fn(usize, u32) -> String,
) -> Result<Vec<String>, usize> {
    let mut taken = std::collections::HashSet::with_capacity(n);
    let mut ids = Vec::with_capacity(n);
    for i in 0..n {
        let id = (0..ID_CANDIDATES)
            .map(|k| candidate(i, k))
            .find(|id| !taken.contains(id))
            .ok_or(i)?;
        taken.insert(id.clone());
        ids.push(id);
    }
    Ok(ids)
}

/// The variant ids of a class set: one per student in roster order (see
/// [`assign_ids`]), or the practice variant's alone without a roster.
pub fn variant_ids(
    set: &ProblemSet,
    master: &Master,
    students: &[Student],
) -> Result<Vec<String>, ClassSetError> {
    if students.is_empty() {
        return Ok(vec![id_candidate(master, &context(set, None), 0)]);
    }
    let contexts: Vec<String> = students.iter().map(|s| context(set, Some(s))).collect();
    assign_ids(students.len(), |i, k| id_candidate(master, &contexts[i], k)).map_err(|i| {
        ClassSetError::NoFreeId {
            student: students[i].id.clone(),
        }
    })
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
    let ids = variant_ids(set, master, students)?;
    let who: Vec<(Option<&Student>, String)> = if students.is_empty() {
        vec![(None, ids[0].clone())]
    } else {
        students.iter().map(Some).zip(ids).collect()
    };
    // Variants are independent: make them on every core, in roster order.
    crate::parallel::map(&who, |(student, id)| {
        variant(set, master, plan, *student, id.clone())
    })
    .into_iter()
    .collect()
}

/// The set's typical variant, which every variant's work keeps near.
pub fn plan(set: &ProblemSet, master: &Master) -> Result<Plan, ClassSetError> {
    Plan::new(set, master).map_err(|(i, source)| ClassSetError::Exercise {
        number: i + 1,
        kind: set.exercises[i].kind.name,
        source,
    })
}

/// Generates and solves one variant, for `student` (`None`: practice), with
/// its id from [`variant_ids`].
pub fn variant(
    set: &ProblemSet,
    master: &Master,
    plan: &Plan,
    student: Option<&Student>,
    id: String,
) -> Result<Variant, ClassSetError> {
    let ctx = context(set, student);
    let conventions: Conventions = set.conventions;
    let mut items = Vec::with_capacity(set.exercises.len());
    for (i, exercise) in set.exercises.iter().enumerate() {
        let fail = |source| ClassSetError::Exercise {
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
        id,
        checksum: checksum(items.iter().map(|i| &i.instance)),
        items,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An id space of `size` ids, the candidates of each student a fixed walk through it.
    fn small_space(size: u64) -> impl Fn(usize, u32) -> String {
        move |i, k| {
            let v = crate::rng::fnv1a64(format!("{i}/{k}").as_bytes()) % size;
            format!("{v:03}")
        }
    }

    #[test]
    fn ids_are_distinct_and_the_first_student_keeps_its_candidate() {
        // 40 students in 64 ids: many first candidates collide.
        let candidate = small_space(64);
        let ids = assign_ids(40, &candidate).unwrap();
        let distinct: std::collections::HashSet<&String> = ids.iter().collect();
        assert_eq!(distinct.len(), 40);
        let bumped = (0..40).filter(|&i| ids[i] != candidate(i, 0)).count();
        assert!(bumped > 0, "the test needs collisions");
        // Each student takes its first candidate that no student above it has.
        for (i, id) in ids.iter().enumerate() {
            let k = (0..ID_CANDIDATES)
                .find(|&k| candidate(i, k) == *id)
                .unwrap();
            for j in 0..k {
                assert!(
                    ids[..i].contains(&candidate(i, j)),
                    "student {i}, candidate {j}"
                );
            }
        }
        // The same students give the same ids; one more at the end changes nobody's.
        assert_eq!(assign_ids(40, &candidate).unwrap(), ids);
        assert_eq!(assign_ids(41, &candidate).unwrap()[..40], ids[..]);
    }

    #[test]
    fn a_chain_of_collisions_moves_each_student_once() {
        // Student 1 loses A to student 0; student 2 then finds B and A taken.
        let table = [["A", "B", "C"], ["A", "B", "C"], ["B", "A", "C"]];
        let candidate = |i: usize, k: u32| table[i].get(k as usize).unwrap_or(&"Z").to_string();
        assert_eq!(assign_ids(3, candidate).unwrap(), ["A", "B", "C"]);
        // One id for everyone: the second student finds no free id.
        assert_eq!(assign_ids(3, |_, _| "A".to_string()), Err(1));
    }

    #[test]
    fn the_first_candidate_is_the_id_before_collisions_were_checked() {
        let master = Master::from_seed(2026);
        let ctx = "treequiz/x\0Quiz\0s1";
        assert_eq!(
            id_candidate(&master, ctx, 0),
            short_id(master.derive(ctx, u64::MAX >> 1))
        );
        assert_ne!(id_candidate(&master, ctx, 0), id_candidate(&master, ctx, 1));
        assert_eq!(id_candidate(&master, ctx, 1).len(), 6);
    }
}
