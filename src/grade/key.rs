//! The keys to grade against: read from a manifest, or made from a set.

use std::collections::HashMap;

use crate::class_set::Variant;
use crate::exercise::{Conventions, Key, KindDef};
use crate::input::{InputError, Source};
use crate::instance::Instance;
use crate::manifest::Manifest;
use crate::problem_set::ProblemSet;
use crate::roster::folder_name;
use crate::scoring::Scoring;

/// One question of one variant: its instance, its key (as data, never solved
/// again), its points and rules.
#[derive(Clone, Debug)]
pub struct KeyQuestion {
    /// 1-based number.
    pub number: usize,
    /// The kind.
    pub kind: &'static KindDef,
    /// Points.
    pub points: f64,
    /// Asked fields.
    pub ask: Vec<&'static str>,
    /// Partial-credit rules.
    pub scoring: Scoring,
    /// The instance.
    pub instance: Instance,
    /// Its key.
    pub key: Key,
    /// The conventions of the set.
    pub conventions: Conventions,
}

/// One variant's keys.
#[derive(Clone, Debug)]
pub struct KeyVariant {
    /// Variant id.
    pub id: String,
    /// Checksum of its instances.
    pub checksum: String,
    /// Its student, if any.
    pub student: Option<String>,
    /// The student's name, if the roster gives one.
    pub name: Option<String>,
    /// Its questions. Empty in the class [`crate::grade::batch::grade_streamed`]
    /// returns: their keys were used and let go (their points and measures stay).
    pub questions: Vec<KeyQuestion>,
    /// The points its questions are worth, in hundredths.
    pub possible_cents: i64,
    /// Each question's generator measures, by question number.
    pub measures: super::items::Measures,
}

impl KeyVariant {
    /// A variant's keys, with what the reports need of them after grading.
    pub fn new(
        id: String,
        checksum: String,
        student: Option<String>,
        name: Option<String>,
        questions: Vec<KeyQuestion>,
    ) -> KeyVariant {
        KeyVariant {
            possible_cents: questions
                .iter()
                .map(|q| super::score::cents(q.points))
                .sum(),
            measures: questions
                .iter()
                .map(|q| {
                    let m = q.kind.measures_of(&q.instance, &q.key, &q.conventions);
                    (q.number, m)
                })
                .collect(),
            id,
            checksum,
            student,
            name,
            questions,
        }
    }

    /// The variant of a manifest's entry, every exercise checked.
    pub fn from_entry(
        source: &Source,
        index: usize,
        v: crate::manifest::VariantEntry,
        conventions: Conventions,
    ) -> Result<KeyVariant, InputError> {
        let mut questions = Vec::with_capacity(v.exercises.len());
        for (ei, mut e) in v.exercises.into_iter().enumerate() {
            let checked = Manifest::check(source, index, ei, &mut e)?;
            questions.push(KeyQuestion {
                number: e.number,
                kind: checked.kind,
                points: f64::from(e.points),
                ask: checked.ask,
                scoring: e.scoring,
                instance: checked.instance,
                key: e.key,
                conventions,
            });
        }
        Ok(KeyVariant::new(
            v.id,
            v.checksum,
            v.student.as_ref().map(|s| s.id.clone()),
            v.student.and_then(|s| s.name),
            questions,
        ))
    }

    /// Every question's slip rule, replaced (`grade --slips`).
    pub fn set_slips(&mut self, rule: crate::scoring::SlipRule) {
        for q in &mut self.questions {
            q.scoring.slips = rule;
        }
    }

    /// Lets its keys go, once graded: its names, points and measures stay.
    pub fn let_go(&mut self) {
        self.questions = Vec::new();
    }
}

/// Every variant of a class set, found by id in constant time.
#[derive(Clone, Debug, Default)]
pub struct KeyBook {
    /// The variants.
    pub variants: Vec<KeyVariant>,
    /// The language the sheets were made in.
    pub language: String,
    /// The set's title (the assignment's name in gradebook exports).
    pub title: String,
    /// Variant indices by upper-case id: one in a manifest (its ids are
    /// distinct); in a book made from a set, each student's variant is also
    /// found by its other candidate ids ([`KeyBook::alias`]).
    by_id: HashMap<String, Vec<usize>>,
    /// Variant index by the student's id and by their folder name, lower case.
    by_student: HashMap<String, usize>,
}

/// The variant ids of a manifest so far: each once (a hash set, not a
/// comparison of every pair); one listed twice means the file was edited.
#[derive(Default)]
pub struct Ids(std::collections::HashSet<String>);

impl Ids {
    /// Refuses `id` if it was seen before.
    pub fn check(&mut self, source: &Source, id: &str) -> Result<(), InputError> {
        if self.0.insert(id.to_ascii_uppercase()) {
            return Ok(());
        }
        Err(InputError::file(
            &source.path,
            format!("this manifest was changed: variant {id} is listed twice"),
            Some("use the manifest.json that `treequiz generate` wrote, unchanged".into()),
        ))
    }
}

impl KeyBook {
    fn new(variants: Vec<KeyVariant>, language: String, title: String) -> KeyBook {
        let mut by_id = HashMap::with_capacity(variants.len());
        let mut by_student = HashMap::with_capacity(variants.len());
        for (i, v) in variants.iter().enumerate() {
            by_id
                .entry(v.id.to_ascii_uppercase())
                .or_insert_with(Vec::new)
                .push(i);
            if let Some(id) = &v.student {
                by_student.entry(id.trim().to_lowercase()).or_insert(i);
                if let Some(folder) = folder_name(id) {
                    by_student.entry(folder.to_lowercase()).or_insert(i);
                }
            }
        }
        KeyBook {
            variants,
            language,
            title,
            by_id,
            by_student,
        }
    }

    /// Keys for practice sheets, regenerated from the set: the practice
    /// variant, and each given student's own (a roster made with a public
    /// seed). The roster is not here, so every id candidate of a student
    /// finds their variant; the checksum and the student id are still checked.
    pub fn from_set(
        set: &ProblemSet,
        master: &crate::rng::Master,
        students: Vec<String>,
    ) -> Result<KeyBook, crate::class_set::ClassSetError> {
        use crate::class_set;
        let students: Vec<crate::roster::Student> = students
            .into_iter()
            .filter_map(|id| {
                folder_name(&id).map(|folder| crate::roster::Student {
                    id,
                    name: None,
                    folder,
                })
            })
            .collect();
        let mut variants = class_set::build(set, master, &[])?;
        if !students.is_empty() {
            variants.extend(class_set::build(set, master, &students)?);
        }
        let mut book = KeyBook::from_variants(set, &variants);
        for (i, v) in variants.iter().enumerate() {
            if v.student.is_some() {
                let ctx = class_set::context(set, v.student.as_ref());
                for k in 0..class_set::ID_CANDIDATES {
                    book.alias(&class_set::id_candidate(master, &ctx, k), i);
                }
            }
        }
        Ok(book)
    }

    /// The keys of variants made from a set (for `--set` and `check`).
    pub fn from_variants(set: &ProblemSet, variants: &[Variant]) -> KeyBook {
        let variants = variants
            .iter()
            .map(|v| {
                KeyVariant::new(
                    v.id.clone(),
                    v.checksum.clone(),
                    v.student.as_ref().map(|s| s.id.clone()),
                    v.student.as_ref().and_then(|s| s.name.clone()),
                    v.items
                        .iter()
                        .map(|item| KeyQuestion {
                            number: item.number,
                            kind: item.exercise.kind,
                            points: f64::from(item.exercise.points),
                            ask: item.exercise.ask.clone(),
                            scoring: item.exercise.scoring,
                            instance: item.instance.clone(),
                            key: item.key.clone(),
                            conventions: set.conventions,
                        })
                        .collect(),
                )
            })
            .collect();
        KeyBook::new(variants, set.language.clone(), set.title.clone())
    }

    /// Reads a manifest written by `treequiz generate`, checking every exercise.
    pub fn from_manifest(source: &Source) -> Result<KeyBook, InputError> {
        KeyBook::read_manifest(source.text.as_bytes(), source, |_| true)
    }

    /// Reads a manifest from `reader` as a stream (see [`Manifest::stream`]),
    /// checking every exercise, and keeps the keys of the variants `keep`
    /// says yes to (by id); the others' keys are let go as they are read
    /// (their names, points and measures stay). One student's autograder
    /// needs one variant's keys, never a class's.
    pub fn read_manifest(
        reader: impl std::io::Read,
        source: &Source,
        keep: impl Fn(&str) -> bool,
    ) -> Result<KeyBook, InputError> {
        let mut ids = Ids::default();
        let mut variants = Vec::new();
        let manifest = Manifest::stream(reader, source, |m, raw| {
            let v = raw.parse(source)?;
            ids.check(source, &v.id)?;
            let mut variant = KeyVariant::from_entry(source, raw.index(), v, m.conventions)?;
            if !keep(&variant.id) {
                variant.let_go();
            }
            variants.push(variant);
            Ok(())
        })?;
        Ok(KeyBook::new(
            variants,
            manifest.language,
            manifest.set.title,
        ))
    }

    /// A book of variants read elsewhere (from a manifest's stream).
    pub fn of(variants: Vec<KeyVariant>, language: String, title: String) -> KeyBook {
        KeyBook::new(variants, language, title)
    }

    /// Every question's slip rule, replaced (`grade --slips`).
    pub fn set_slips(&mut self, rule: crate::scoring::SlipRule) {
        for v in &mut self.variants {
            v.set_slips(rule);
        }
    }

    /// Lets variant `index` be found by `id` as well (after the variants
    /// already found by it).
    pub fn alias(&mut self, id: &str, index: usize) {
        let found = self.by_id.entry(id.to_ascii_uppercase()).or_default();
        if !found.contains(&index) {
            found.push(index);
        }
    }

    /// The variant with this id (any case).
    pub fn variant(&self, id: &str) -> Option<&KeyVariant> {
        self.variant_for(id, None)
    }

    /// The variant with this id (any case) of `student` if one of the
    /// variants found by the id is theirs, else the first found.
    pub fn variant_for(&self, id: &str, student: Option<&str>) -> Option<&KeyVariant> {
        let found = self.by_id.get(&id.trim().to_ascii_uppercase())?;
        let mine = student.and_then(|who| {
            found.iter().find(|&&i| {
                self.variants[i]
                    .student
                    .as_deref()
                    .is_some_and(|s| s.eq_ignore_ascii_case(who))
            })
        });
        mine.or(found.first()).map(|&i| &self.variants[i])
    }

    /// The variant of the student with this id or folder name (any case).
    pub fn student(&self, id: &str) -> Option<&KeyVariant> {
        self.student_position(id).map(|i| &self.variants[i])
    }

    /// Where that student's variant is in [`KeyBook::variants`]: their place
    /// on the roster.
    pub fn student_position(&self, id: &str) -> Option<usize> {
        self.by_student.get(&id.trim().to_lowercase()).copied()
    }

    /// Whether the variants belong to students of a roster.
    pub fn has_roster(&self) -> bool {
        self.variants.iter().any(|v| v.student.is_some())
    }
}
