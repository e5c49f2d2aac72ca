//! The manifest: every variant of a class set with its instances and typed
//! keys, written by `generate` and read by `grade`, both through this one
//! type. What is read back is checked (format, kinds against instances, asked
//! fields, every id in every key) before anything trusts it.

use serde::{Deserialize, Serialize};

use crate::class_set::{self, GENERATOR_VERSION, Variant};
use crate::exercise::{self, Conventions, Key, KindDef};
use crate::input::{InputError, Reader, Source};
use crate::instance::{self, Instance};
use crate::problem_set::ProblemSet;
use crate::scoring::Scoring;

/// The manifest format this build writes. Version 1 (treequiz before typed
/// keys) held rendered answers only; it is refused with a hint.
pub const FORMAT: u32 = 3;

/// The oldest format this build reads: format 2 differs from 3 only in that a
/// minimax trace lists every node's value, the deepest level's leaves too
/// (which the tree holds), and [`crate::gametree::Minimax`] reads both.
pub const OLDEST_READ: u32 = 2;

/// Most values (numbers, strings, booleans, lists and table keys) the
/// instance of one exercise may hold in a manifest: 16 for each node of the
/// largest figure a page shows ([`instance::MAX_EXERCISE_NODES`]). What
/// `generate` writes stays far below it; an instance edited to hold more is
/// refused before it is read, so no later check or grading loop runs on it.
pub const MAX_INSTANCE_VALUES: usize = 16 * instance::MAX_EXERCISE_NODES as usize;

/// Whether `value` holds at most `limit` values (counted as
/// [`MAX_INSTANCE_VALUES`] counts them); stops counting past the limit.
fn values_at_most(value: &serde_json::Value, limit: usize) -> bool {
    use serde_json::Value as J;
    let mut todo = vec![value];
    let mut n = 0usize;
    while let Some(v) = todo.pop() {
        n += 1;
        match v {
            J::Array(items) => todo.extend(items),
            J::Object(map) => {
                n += map.len();
                todo.extend(map.values());
            }
            _ => {}
        }
        if n > limit {
            return false;
        }
    }
    true
}

/// A whole manifest.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// [`FORMAT`].
    pub format: u32,
    /// The treequiz version that wrote it.
    pub treequiz: String,
    /// The generators' and the seed derivation's version.
    pub generator_version: String,
    /// The problem set.
    pub set: SetInfo,
    /// The language of the sheets.
    pub language: String,
    /// `practice` or `exam`.
    pub mode: Mode,
    /// The practice seed (as a string: JSON numbers lose precision above 2^53);
    /// never an exam's secret.
    pub seed: Option<String>,
    /// The conventions every key assumes.
    pub conventions: Conventions,
    /// Every variant.
    pub variants: Vec<VariantEntry>,
}

/// Where the set came from.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetInfo {
    /// Its title.
    pub title: String,
    /// Its file, as given to `generate`.
    pub file: String,
}

/// How the seeds were chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// From a public seed.
    Practice,
    /// From a secret.
    Exam,
}

/// One student's variant.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantEntry {
    /// The six-character variant id printed on the sheets.
    pub id: String,
    /// The checksum printed on the answer sheet.
    pub checksum: String,
    /// The student, in roster mode.
    pub student: Option<StudentEntry>,
    /// The seed derivation's context (generator version, set title, student id).
    pub context: String,
    /// The exercises, in order.
    pub exercises: Vec<ExerciseEntry>,
}

/// A student of the roster.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StudentEntry {
    /// Their id.
    pub id: String,
    /// Their name.
    pub name: Option<String>,
    /// The folder their sheets are in.
    pub folder: String,
}

/// One exercise of one variant.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExerciseEntry {
    /// 1-based question number.
    pub number: usize,
    /// The kind.
    pub kind: String,
    /// Points.
    pub points: u32,
    /// The fields asked.
    pub ask: Vec<String>,
    /// Partial-credit rules.
    pub scoring: Scoring,
    /// The derived seed (as a string), `None` for a fixed instance.
    pub seed: Option<String>,
    /// The instance, as an instance file in JSON.
    pub instance: serde_json::Value,
    /// The key.
    pub key: Key,
}

/// One exercise read back and checked: its kind, instance and key agree.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The kind.
    pub kind: &'static KindDef,
    /// The asked fields, in the kind's order.
    pub ask: Vec<&'static str>,
    /// The instance.
    pub instance: Instance,
}

impl VariantEntry {
    /// The entry of one variant of `set`.
    pub fn new(set: &ProblemSet, v: &Variant) -> VariantEntry {
        VariantEntry {
            id: v.id.clone(),
            checksum: v.checksum.clone(),
            student: v.student.as_ref().map(|s| StudentEntry {
                id: s.id.clone(),
                name: s.name.clone(),
                folder: s.folder.clone(),
            }),
            context: class_set::context(set, v.student.as_ref()),
            exercises: v
                .items
                .iter()
                .map(|item| ExerciseEntry {
                    number: item.number,
                    kind: item.exercise.kind.name.to_string(),
                    points: item.exercise.points,
                    ask: item.exercise.ask.iter().map(|f| f.to_string()).collect(),
                    scoring: item.exercise.scoring,
                    seed: item.seed.map(|s| s.to_string()),
                    instance: item.instance.to_json_value(),
                    key: item.key.clone(),
                })
                .collect(),
        }
    }

    /// The entry as it stands in the manifest's `variants` (compact JSON).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("manifest entries serialise")
    }
}

/// Writes a manifest one variant at a time, so that a class of any size is
/// never held whole: the bytes are those of [`Manifest::to_json`] for the
/// same variants (`variants` is the last field, so its entries end the file).
pub struct Writer<W: std::io::Write> {
    out: W,
    variants: usize,
}

impl<W: std::io::Write> Writer<W> {
    /// Starts a manifest (arguments as for [`Manifest::new`]); write its
    /// variants with [`Writer::push`] and end it with [`Writer::finish`].
    pub fn new(
        mut out: W,
        set: &ProblemSet,
        path: &str,
        language: &str,
        seed: Option<u64>,
    ) -> std::io::Result<Writer<W>> {
        let empty = serde_json::to_string(&Manifest::new(set, path, language, seed, &[]))
            .expect("manifests serialise");
        let head = empty
            .strip_suffix("[]}")
            .expect("`variants` is the manifest's last field");
        out.write_all(head.as_bytes())?;
        out.write_all(b"[")?;
        Ok(Writer { out, variants: 0 })
    }

    /// Appends one variant's entry, as [`VariantEntry::to_json`] wrote it.
    pub fn push(&mut self, entry_json: &str) -> std::io::Result<()> {
        if self.variants > 0 {
            self.out.write_all(b",")?;
        }
        self.variants += 1;
        self.out.write_all(entry_json.as_bytes())
    }

    /// Ends the manifest and flushes it; returns the writer.
    pub fn finish(mut self) -> std::io::Result<W> {
        self.out.write_all(b"]}\n")?;
        self.out.flush()?;
        Ok(self.out)
    }
}

impl Manifest {
    /// The manifest of a class set.
    pub fn new(
        set: &ProblemSet,
        path: &str,
        language: &str,
        seed: Option<u64>,
        variants: &[Variant],
    ) -> Manifest {
        Manifest {
            format: FORMAT,
            treequiz: env!("CARGO_PKG_VERSION").to_string(),
            generator_version: GENERATOR_VERSION.to_string(),
            set: SetInfo {
                title: set.title.clone(),
                file: path.to_string(),
            },
            language: language.to_string(),
            mode: if seed.is_some() {
                Mode::Practice
            } else {
                Mode::Exam
            },
            seed: seed.map(|s| s.to_string()),
            conventions: set.conventions,
            variants: variants.iter().map(|v| VariantEntry::new(set, v)).collect(),
        }
    }

    /// The manifest as the file `generate` writes: compact JSON on one line
    /// (pretty-printed, the traces' arrays make it four times larger; a class
    /// of 10,000 then reads in a quarter of the memory). `jq .` shows it indented.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("manifests serialise") + "\n"
    }

    /// Reads a manifest whole; a file that is not one, or that was changed
    /// so that its parts disagree, is refused with where and why.
    pub fn parse(source: &Source) -> Result<Manifest, InputError> {
        let mut variants = Vec::new();
        let mut manifest = Manifest::stream(source.text.as_bytes(), source, |_, raw| {
            variants.push(raw.parse(source)?);
            Ok(())
        })?;
        manifest.variants = variants;
        Ok(manifest)
    }

    /// Reads a manifest as a stream from `reader`: its head (returned, with
    /// no variants), then each variant's text, handed to `each` as soon as
    /// it is read (to be parsed there, on any thread), so that no more than
    /// one is held here. `source` names the file;
    /// its text is used only to show where a broken file breaks, and may be
    /// read again for that ([`Source::text`] empty: read from `source.path`).
    /// `variants` must be the last field, as `generate` writes it.
    pub fn stream(
        reader: impl std::io::Read,
        source: &Source,
        mut each: impl FnMut(&Manifest, Raw) -> Result<(), InputError>,
    ) -> Result<Manifest, InputError> {
        let mut failed = None;
        let mut de = serde_json::Deserializer::from_reader(reader);
        let read = serde::de::DeserializeSeed::deserialize(
            Streamed {
                each: &mut each,
                failed: &mut failed,
            },
            &mut de,
        )
        .and_then(|m| de.end().map(|()| m));
        let manifest = match (read, failed) {
            (_, Some(e)) => return Err(e),
            (Ok(m), None) => m,
            (Err(e), None) => return Err(refusal(source, e)),
        };
        Ok(manifest)
    }
    /// Checks one exercise read back (variant `variant`, exercise `exercise`,
    /// for messages): a known kind on an instance of its family, fields the
    /// kind has, a key whose ids the instance has. Consumes the entry's
    /// instance document, so a large manifest is not held twice.
    pub fn check(
        source: &Source,
        variant: usize,
        exercise: usize,
        e: &mut ExerciseEntry,
    ) -> Result<Checked, InputError> {
        let at = format!("variants[{variant}].exercises[{exercise}]");
        let bad = |what: String| {
            InputError::file(
                &source.path,
                format!("this manifest was changed: {at}: {what}"),
                Some("use the manifest.json that `treequiz generate` wrote, unchanged".into()),
            )
        };
        let kind =
            exercise::kind(&e.kind).ok_or_else(|| bad(format!("unknown kind `{}`", e.kind)))?;
        if e.number != exercise + 1 {
            return Err(bad(format!(
                "it is numbered {}, but it is question {}",
                e.number,
                exercise + 1
            )));
        }
        if !values_at_most(&e.instance, MAX_INSTANCE_VALUES) {
            return Err(bad(format!(
                "its instance holds more than {MAX_INSTANCE_VALUES} values, more than any sheet's figure ({} nodes at most)",
                instance::MAX_EXERCISE_NODES
            )));
        }
        let inst_source = Source {
            path: format!("{} ({at}.instance)", source.path),
            text: String::new(),
        };
        let doc = crate::input::json_doc(std::mem::take(&mut e.instance), String::new());
        let instance = instance::parse_doc(
            &Reader {
                source: &inst_source,
            },
            &doc,
        )?;
        if instance.family() != kind.family {
            return Err(bad(format!(
                "a {} exercise needs {}, but its instance is {}",
                kind.name,
                kind.family.noun(),
                instance.family().noun()
            )));
        }
        if let Some(why) = (kind.unusable)(&instance).or_else(|| instance.exercise_refusal()) {
            return Err(bad(format!(
                "its instance cannot be used for {}: {why}",
                kind.name
            )));
        }
        let mut ask = Vec::new();
        for name in &e.ask {
            let field = kind
                .fields
                .iter()
                .find(|f| f.name == name)
                .ok_or_else(|| bad(format!("`{name}` is not a field of {}", kind.name)))?;
            if ask.contains(&field.name) {
                return Err(bad(format!("`{name}` is asked twice")));
            }
            ask.push(field.name);
        }
        if ask.is_empty() {
            return Err(bad("the exercise asks for nothing".into()));
        }
        kind.check(&e.key, &instance.model()).map_err(bad)?;
        Ok(Checked {
            kind,
            ask: kind.in_field_order(&ask),
            instance,
        })
    }
}

/// Why a manifest cannot be read, where it breaks: the file's text is read
/// again (only now) to show the place.
fn refusal(source: &Source, e: serde_json::Error) -> InputError {
    let text = match source.text.is_empty() {
        true => std::fs::read_to_string(&source.path).unwrap_or_default(),
        false => source.text.clone(),
    };
    let source = Source {
        path: source.path.clone(),
        text,
    };
    // A manifest of the first format has no `format` and no keys.
    let old = serde_json::from_str::<serde_json::Value>(&source.text)
        .ok()
        .is_some_and(|v| v.get("format").is_none() && v.get("variants").is_some());
    let hint = if old {
        "this manifest was written by an older treequiz, before keys were stored as data: run the same `treequiz generate` command again (with the same secret or seed) to write a current one".to_string()
    } else {
        HINT.to_string()
    };
    let at = offset(&source.text, e.line(), e.column());
    let what = format!("this is not a treequiz manifest: {e}");
    source.error_at(at..at, what, Some(hint))
}

/// The manifest's fields, read in any order; `variants`, the last, one by one.
struct Streamed<'a, F> {
    each: &'a mut F,
    /// The first refusal of a variant (the parser is stopped with a bare error).
    failed: &'a mut Option<InputError>,
}

impl<'de, F> serde::de::DeserializeSeed<'de> for Streamed<'_, F>
where
    F: FnMut(&Manifest, Raw) -> Result<(), InputError>,
{
    type Value = Manifest;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Manifest, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, F> serde::de::Visitor<'de> for Streamed<'_, F>
where
    F: FnMut(&Manifest, Raw) -> Result<(), InputError>,
{
    type Value = Manifest;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a treequiz manifest (a JSON object)")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Manifest, A::Error> {
        use serde::de::Error;
        let mut head = Head::default();
        let mut seen_variants = false;
        while let Some(key) = map.next_key::<String>()? {
            if seen_variants {
                return Err(A::Error::custom(format!(
                    "`{key}` comes after `variants`, which `generate` writes last"
                )));
            }
            match key.as_str() {
                "format" => head.format = Some(map.next_value()?),
                "treequiz" => head.treequiz = Some(map.next_value()?),
                "generator_version" => head.generator_version = Some(map.next_value()?),
                "set" => head.set = Some(map.next_value()?),
                "language" => head.language = Some(map.next_value()?),
                "mode" => head.mode = Some(map.next_value()?),
                "seed" => head.seed = Some(map.next_value()?),
                "conventions" => head.conventions = Some(map.next_value()?),
                "variants" => {
                    seen_variants = true;
                    let manifest = head.manifest().map_err(A::Error::custom)?;
                    map.next_value_seed(Variants {
                        manifest: &manifest,
                        each: &mut *self.each,
                        failed: &mut *self.failed,
                    })?;
                    head.done = Some(manifest);
                }
                other => {
                    return Err(A::Error::unknown_field(other, FIELDS));
                }
            }
        }
        match head.done.take() {
            Some(m) => Ok(m),
            None => Err(A::Error::missing_field("variants")),
        }
    }
}

const FIELDS: &[&str] = &[
    "format",
    "treequiz",
    "generator_version",
    "set",
    "language",
    "mode",
    "seed",
    "conventions",
    "variants",
];

/// The fields before `variants`, as they are read.
#[derive(Default)]
struct Head {
    format: Option<u32>,
    treequiz: Option<String>,
    generator_version: Option<String>,
    set: Option<SetInfo>,
    language: Option<String>,
    mode: Option<Mode>,
    seed: Option<Option<String>>,
    conventions: Option<Conventions>,
    done: Option<Manifest>,
}

impl Head {
    /// The manifest's head, once `variants` begins; every field must be there.
    fn manifest(&mut self) -> Result<Manifest, String> {
        let missing = |name: &str| {
            format!("`{name}` must come before `variants`, which `generate` writes last")
        };
        let format = self.format.ok_or_else(|| missing("format"))?;
        if !(OLDEST_READ..=FORMAT).contains(&format) {
            return Err(format!(
                "this manifest has format {format}; this treequiz reads formats {OLDEST_READ} to {FORMAT}: write it again with this treequiz's `generate`"
            ));
        }
        Ok(Manifest {
            format,
            treequiz: self.treequiz.take().ok_or_else(|| missing("treequiz"))?,
            generator_version: (self.generator_version.take())
                .ok_or_else(|| missing("generator_version"))?,
            set: self.set.take().ok_or_else(|| missing("set"))?,
            language: self.language.take().ok_or_else(|| missing("language"))?,
            mode: self.mode.ok_or_else(|| missing("mode"))?,
            seed: self.seed.take().unwrap_or(None),
            conventions: self.conventions.ok_or_else(|| missing("conventions"))?,
            variants: Vec::new(),
        })
    }
}

/// `variants`, each entry handed on as soon as it is read.
struct Variants<'a, F> {
    manifest: &'a Manifest,
    each: &'a mut F,
    failed: &'a mut Option<InputError>,
}

impl<'de, F> serde::de::DeserializeSeed<'de> for Variants<'_, F>
where
    F: FnMut(&Manifest, Raw) -> Result<(), InputError>,
{
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de, F> serde::de::Visitor<'de> for Variants<'_, F>
where
    F: FnMut(&Manifest, Raw) -> Result<(), InputError>,
{
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a list of variants")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut index = 0usize;
        while let Some(text) = seq.next_element::<Box<serde_json::value::RawValue>>()? {
            if let Err(e) = (self.each)(self.manifest, Raw { index, text }) {
                *self.failed = Some(e);
                return Err(serde::de::Error::custom("a variant was refused"));
            }
            index += 1;
        }
        Ok(())
    }
}

/// One variant of a manifest as its JSON text, read (a copy, no more) as the
/// manifest streams by; [`Raw::parse`] makes it an entry, on any thread.
pub struct Raw {
    index: usize,
    text: Box<serde_json::value::RawValue>,
}

impl Raw {
    /// Its place in `variants`.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The entry; one that is not an entry is refused where it breaks in
    /// the file `source` names (read again then: the slow path).
    pub fn parse(&self, source: &Source) -> Result<VariantEntry, InputError> {
        let mut de = serde_json::Deserializer::from_str(self.text.get());
        serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            whole_file_refusal(source).unwrap_or_else(|| {
                let sep = if path.is_empty() || path == "." {
                    ""
                } else {
                    "."
                };
                InputError::file(
                    &source.path,
                    format!(
                        "this is not a treequiz manifest: at `variants[{}]{sep}{path}`: {inner}",
                        self.index
                    ),
                    Some(HINT.into()),
                )
            })
        })
    }
}

/// What to do with a manifest that cannot be read.
const HINT: &str = "use the manifest.json that `treequiz generate` wrote, unchanged";

/// Why the file `source` names is no manifest, read whole with every key
/// path tracked, at its line and column; `None` if it reads.
fn whole_file_refusal(source: &Source) -> Option<InputError> {
    let text = match source.text.is_empty() {
        true => std::fs::read_to_string(&source.path).ok()?,
        false => source.text.clone(),
    };
    let mut de = serde_json::Deserializer::from_str(&text);
    let e = serde_path_to_error::deserialize::<_, Manifest>(&mut de).err()?;
    let path = e.path().to_string();
    let inner = e.into_inner();
    let at = offset(&text, inner.line(), inner.column());
    let what = match path.is_empty() || path == "." {
        true => format!("this is not a treequiz manifest: {inner}"),
        false => format!("this is not a treequiz manifest: at `{path}`: {inner}"),
    };
    let whole = Source {
        path: source.path.clone(),
        text,
    };
    Some(whole.error_at(at..at, what, Some(HINT.into())))
}

/// The byte offset of a 1-based line and column, for serde_json's positions.
pub(crate) fn offset(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let rest = &text[start.min(text.len())..];
    let col = rest
        .char_indices()
        .nth(column.saturating_sub(1))
        .map_or(rest.len(), |(i, _)| i);
    (start + col).min(text.len())
}
