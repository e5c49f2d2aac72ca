//! The keys to grade against: read from a manifest, or made from a set.

use crate::class_set::Variant;
use crate::exercise::{self, Conventions, KindDef, Solved};
use crate::grade::rules::Scoring;
use crate::input::{InputError, Source};
use crate::instance::{self, Instance};
use crate::lang::Lang;
use crate::problem_set::ProblemSet;

/// One question of one variant, solved again from its instance (so feedback can
/// quote the search's trace), with its points and rules.
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
    /// Its solution, traces included: solved when first needed, so a large
    /// manifest costs only the variants that are graded.
    solved: std::sync::OnceLock<Solved>,
    /// The language of the explanations.
    lang: std::sync::Arc<Lang>,
    /// The conventions of the set.
    pub conventions: Conventions,
}

impl KeyQuestion {
    /// The solution, traces included.
    pub fn solved(&self) -> &Solved {
        self.solved
            .get_or_init(|| (self.kind.solve)(&self.instance, &self.conventions, &self.lang))
    }
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
    /// Its questions.
    pub questions: Vec<KeyQuestion>,
}

/// Every variant of a class set.
#[derive(Clone, Debug, Default)]
pub struct KeyBook {
    /// The variants.
    pub variants: Vec<KeyVariant>,
}

impl KeyBook {
    /// The keys of variants made from a set (for `--set` and `check`).
    pub fn from_variants(set: &ProblemSet, variants: &[Variant], lang: &Lang) -> KeyBook {
        let shared = std::sync::Arc::new(lang.clone());
        let variants = variants
            .iter()
            .map(|v| KeyVariant {
                id: v.id.clone(),
                checksum: v.checksum.clone(),
                student: v.student.as_ref().map(|s| s.id.clone()),
                questions: v
                    .items
                    .iter()
                    .map(|item| KeyQuestion {
                        number: item.number,
                        kind: item.exercise.kind,
                        points: f64::from(item.exercise.points),
                        ask: item.exercise.ask.clone(),
                        scoring: item.exercise.scoring,
                        instance: item.instance.clone(),
                        solved: std::sync::OnceLock::from(item.solved.clone()),
                        lang: shared.clone(),
                        conventions: set.conventions,
                    })
                    .collect(),
            })
            .collect();
        KeyBook { variants }
    }

    /// Reads a manifest written by `treequiz generate`.
    pub fn from_manifest(source: &Source, lang: &Lang) -> Result<KeyBook, InputError> {
        let bad = |what: &str| {
            InputError::file(
                &source.path,
                format!("this manifest is incomplete: {what}"),
                Some("use the manifest.json that `treequiz generate` wrote, unchanged".into()),
            )
        };
        let json: serde_json::Value = serde_json::from_str(&source.text).map_err(|e| {
            InputError::file(
                &source.path,
                format!("this is not a manifest: {e}"),
                Some("pass the manifest.json that `treequiz generate` wrote".into()),
            )
        })?;
        let conventions = Conventions {
            alpha_beta: serde_json::from_value(json["conventions"]["alpha_beta"].clone())
                .map_err(|_| bad("no conventions"))?,
        };
        let shared = std::sync::Arc::new(lang.clone());
        let mut variants = Vec::new();
        for v in json["variants"]
            .as_array()
            .ok_or_else(|| bad("no variants"))?
        {
            let mut questions = Vec::new();
            for q in v["exercises"]
                .as_array()
                .ok_or_else(|| bad("a variant without exercises"))?
            {
                let kind_name = q["kind"]
                    .as_str()
                    .ok_or_else(|| bad("an exercise without a kind"))?;
                let kind = exercise::kind(kind_name)
                    .ok_or_else(|| bad(&format!("unknown kind {kind_name}")))?;
                // The instance is already JSON: read it as a document, without printing and re-parsing it.
                let inst_source = Source {
                    path: format!("{} (an instance)", source.path),
                    text: String::new(),
                };
                let doc = crate::input::json_doc(q["instance"].clone(), String::new());
                let inst = instance::parse_doc(
                    &crate::input::Reader {
                        source: &inst_source,
                    },
                    &doc,
                )?;
                let ask = q["ask"]
                    .as_array()
                    .ok_or_else(|| bad("an exercise without fields"))?
                    .iter()
                    .map(|f| {
                        kind.fields
                            .iter()
                            .map(|k| k.name)
                            .find(|&k| Some(k) == f.as_str())
                            .ok_or_else(|| bad("an unknown field"))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                questions.push(KeyQuestion {
                    number: q["number"]
                        .as_u64()
                        .ok_or_else(|| bad("an exercise without a number"))?
                        as usize,
                    kind,
                    points: q["points"]
                        .as_f64()
                        .ok_or_else(|| bad("an exercise without points"))?,
                    ask,
                    scoring: serde_json::from_value(q["scoring"].clone()).unwrap_or_default(),
                    instance: inst,
                    solved: std::sync::OnceLock::new(),
                    lang: shared.clone(),
                    conventions,
                });
            }
            variants.push(KeyVariant {
                id: v["id"]
                    .as_str()
                    .ok_or_else(|| bad("a variant without an id"))?
                    .to_string(),
                checksum: v["checksum"]
                    .as_str()
                    .ok_or_else(|| bad("a variant without a checksum"))?
                    .to_string(),
                student: v["student"]["id"].as_str().map(str::to_string),
                questions,
            });
        }
        Ok(KeyBook { variants })
    }

    /// The variant with this id.
    pub fn variant(&self, id: &str) -> Option<&KeyVariant> {
        self.variants
            .iter()
            .find(|v| v.id.eq_ignore_ascii_case(id.trim()))
    }

    /// The language the manifest was made in.
    pub fn language(source: &Source) -> String {
        serde_json::from_str::<serde_json::Value>(&source.text)
            .ok()
            .and_then(|j| j["language"].as_str().map(str::to_string))
            .unwrap_or_else(|| "en".into())
    }
}
