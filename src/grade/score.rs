//! Scoring one question: normalise what the student wrote into the key's ids,
//! compare it with the key by the exercise's rules, and say why every lost
//! point was lost. The reasons are typed ([`Reason`]): the kind explains each
//! mistake ([`KindDef::teach`](crate::exercise::KindDef)), and they are put into
//! words only when a page or a summary is written.

use std::collections::HashSet;

use serde::Serialize;

use super::key::KeyQuestion;
use super::recover::Broken;
use crate::andor::Cost;
use crate::exercise::example::example;
use crate::exercise::{Answer, Context, Domain, Item, Mistake, Shape, plain, relation};
use crate::gametree::{Bound, NodeId};
use crate::input::{Doc, DocKind, Source, wide_ascii};
use crate::instance::Model;
use crate::lang::Lang;
use crate::reason::{Phrase, Reason};
use crate::scoring::{
    OrderScoring, SwapRule, order_fraction, set_fraction, set_fraction_with_halves,
};
use crate::value::Value;

/// How a field was answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum State {
    /// Full points.
    Correct,
    /// Some points.
    Partial,
    /// No points.
    Wrong,
    /// Left blank (kept apart from wrong).
    NotAttempted,
    /// Not in a form that can be read.
    Invalid,
}

/// One field's score.
/// One field's score.
#[derive(Clone, Debug, Serialize)]
pub struct FieldScore {
    /// The field.
    pub field: &'static str,
    /// Points it is worth.
    pub max: f64,
    /// Points earned.
    pub earned: f64,
    /// How it was answered.
    pub state: State,
    /// What the student wrote, normalised.
    pub given: String,
    /// The key's answer (empty when the key is hidden).
    pub key: String,
    /// Why points were lost.
    pub reasons: Vec<Reason>,
    /// For set answers: how many items were right and wrong.
    pub tally: Option<Reason>,
    /// Whether its answer was read from a rewritten slip (by the set's slip rule).
    pub slip: bool,
}

impl FieldScore {
    /// Whether the answer, as read from a slip, is right: only the slip
    /// rule's penalty took points (its one reason is the slip's note).
    pub fn right_but_slipped(&self) -> bool {
        self.slip && self.reasons.iter().all(|r| r.phrase == Phrase::SlipRead)
    }
}

/// One question's score.
#[derive(Clone, Debug, Serialize)]
pub struct QuestionScore {
    /// Its number.
    pub number: usize,
    /// Its kind.
    pub kind: &'static str,
    /// Points it is worth.
    pub max: f64,
    /// Points earned.
    pub earned: f64,
    /// Per field.
    pub fields: Vec<FieldScore>,
    /// The teacher's adjustment by hand, when there is one (`earned` includes it).
    pub adjusted: Option<super::overrides::Adjusted>,
}

/// Rounds to hundredths, so sums print cleanly and compare exactly.
pub fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// Points in hundredths, as printed: sums of these agree with the printed figures.
pub fn cents(v: f64) -> i64 {
    (v * 100.0).round() as i64
}

pub(crate) fn blank(doc: &Doc) -> bool {
    matches!(&doc.kind, DocKind::Str(s) if s.trim().is_empty())
}

/// What a Chinese input method types for ASCII, made ASCII: `"G，L"` and
/// `"X、Y"` are lists, `（7，MIN）` a Grundy state, `《=2` a bound, `Ａ` a label.
fn fold_wide(s: &str) -> String {
    s.chars()
        .map(|c| wide_ascii(c).map_or(c, |(a, _)| a))
        .collect()
}

/// The answer with every string and table key folded by [`fold_wide`].
pub(crate) fn fold_doc(doc: &Doc) -> Doc {
    let kind = match &doc.kind {
        DocKind::Str(s) => DocKind::Str(fold_wide(s)),
        DocKind::Array(items) => DocKind::Array(items.iter().map(fold_doc).collect()),
        DocKind::Table(entries) => DocKind::Table(
            entries
                .iter()
                .map(|(k, v)| {
                    let mut k = k.clone();
                    k.name = fold_wide(&k.name);
                    (k, fold_doc(v))
                })
                .collect(),
        ),
        other => other.clone(),
    };
    Doc {
        span: doc.span.clone(),
        path: doc.path.clone(),
        kind,
    }
}

pub(crate) fn read_value(doc: &Doc) -> Option<Value> {
    match &doc.kind {
        DocKind::Int(v) => Some(Value::Finite(*v)),
        // TOML's own `inf` / `-inf`, written without quotes.
        DocKind::Float(f) if f.is_infinite() => Some(if *f > 0.0 {
            Value::PosInf
        } else {
            Value::NegInf
        }),
        // `8.0` is 8; `8.5` is not a value of these exercises.
        DocKind::Float(f) if f.fract() == 0.0 && f.abs() < 1e15 => Some(Value::Finite(*f as i64)),
        DocKind::Str(s) => {
            // The sheets print "−3" with a true minus sign; a student may copy it.
            let s = s.replace('−', "-");
            Value::parse_infinity(&s).or_else(|| s.trim().parse::<i64>().ok().map(Value::Finite))
        }
        _ => None,
    }
}

/// An exact value: `4`, `"23/3"`, `8.5` or `"8.5"` (a decimal is the number
/// it writes, so `7.67` is not 23/3).
pub(crate) fn read_fraction(doc: &Doc) -> Option<crate::value::Ratio> {
    match &doc.kind {
        DocKind::Int(v) => Some(crate::value::Ratio::integer(*v)),
        // The float's shortest form is the literal the student typed.
        DocKind::Float(f) if f.is_finite() => crate::value::Ratio::parse(&f.to_string()),
        DocKind::Str(s) => crate::value::Ratio::parse(&s.replace('−', "-")),
        _ => None,
    }
}

/// `3`, `"<=2"`, `"≤ 2"`, `"le 2"`, `">=5"`, `"ge 5"`: one bound, however written.
pub(crate) fn read_bound(doc: &Doc) -> Option<Bound> {
    if matches!(doc.kind, DocKind::Int(_) | DocKind::Float(_)) {
        return read_value(doc).map(Bound::Exact);
    }
    let DocKind::Str(s) = &doc.kind else {
        return None;
    };
    let s = s.trim().to_lowercase().replace('−', "-");
    let (make, rest): (fn(Value) -> Bound, &str) = if let Some(r) = s
        .strip_prefix("<=")
        .or_else(|| s.strip_prefix('≤'))
        .or_else(|| s.strip_prefix("le "))
        .or_else(|| s.strip_prefix('<'))
    {
        (Bound::AtMost, r)
    } else if let Some(r) = s
        .strip_prefix(">=")
        .or_else(|| s.strip_prefix('≥'))
        .or_else(|| s.strip_prefix("ge "))
        .or_else(|| s.strip_prefix('>'))
    {
        (Bound::AtLeast, r)
    } else {
        (Bound::Exact, s.as_str())
    };
    let rest = rest.trim();
    let v = Value::parse_infinity(rest).or_else(|| rest.parse::<i64>().ok().map(Value::Finite))?;
    Some(make(v))
}

/// A list of strings. A single string (its brackets, if any, dropped) is
/// split into items at commas, semicolons and spaces outside parentheses (a Grundy state has commas
/// inside); spaces around a path's or a move's joiner stay in the item
/// (`b2 - a1`, `(7,MIN) -> (6,1,MAX)`); `"none"` and `"[]"` are the empty list.
pub(crate) fn read_list(doc: &Doc) -> Option<Vec<String>> {
    match &doc.kind {
        DocKind::Array(items) => items
            .iter()
            .map(|d| match &d.kind {
                DocKind::Str(s) => Some(s.trim().to_string()),
                _ => None,
            })
            .collect(),
        DocKind::Str(s)
            if matches!(s.trim().to_lowercase().as_str(), "none" | "[]" | "-" | "—") =>
        {
            Some(Vec::new())
        }
        DocKind::Str(s) => {
            // A whole list in one string, brackets and all: `"[G, L]"`.
            let s = s.trim();
            let s = s
                .strip_prefix('[')
                .and_then(|s| s.strip_suffix(']'))
                .unwrap_or(s);
            let mut items = Vec::new();
            let (mut depth, mut item) = (0i32, String::new());
            for c in join_around_joiners(s).chars().chain([',']) {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
                if depth <= 0 && (matches!(c, ',' | ';') || c.is_whitespace()) {
                    if !item.is_empty() {
                        items.push(std::mem::take(&mut item));
                    }
                } else {
                    item.push(c);
                }
            }
            Some(items)
        }
        _ => None,
    }
}

/// `b2 - a1` → `b2-a1`, `(7) -> (6,1)` → `(7)->(6,1)`: whitespace next to a
/// joiner is dropped, so that splitting at spaces keeps paths and moves whole.
/// Linear in the text (an answer file may hold a long string).
fn join_around_joiners(s: &str) -> String {
    let joiner = |c: char| matches!(c, '-' | '–' | '>' | '→' | '=');
    let chars: Vec<char> = s.chars().collect();
    // Whether the nearest non-space character before / after each position is a joiner.
    let mut before = vec![false; chars.len()];
    let mut last = false;
    for (i, &c) in chars.iter().enumerate() {
        before[i] = last;
        if !c.is_whitespace() {
            last = joiner(c);
        }
    }
    let mut after = vec![false; chars.len()];
    let mut next = false;
    for (i, &c) in chars.iter().enumerate().rev() {
        after[i] = next;
        if !c.is_whitespace() {
            next = joiner(c);
        }
    }
    chars
        .iter()
        .enumerate()
        .filter(|&(i, c)| !(c.is_whitespace() && (before[i] || after[i])))
        .map(|(_, &c)| c)
        .collect()
}

/// Connectors are lists of strings; a lone string is one connector.
pub(crate) fn read_list_strict(doc: &Doc) -> Option<Vec<String>> {
    match &doc.kind {
        DocKind::Str(s) => Some(vec![s.trim().to_string()]),
        _ => read_list(doc),
    }
}

/// What the student wrote, as TOML would show it (shortened when long).
pub(crate) fn doc_text(doc: &Doc) -> String {
    let text = match &doc.kind {
        DocKind::Int(v) => v.to_string(),
        DocKind::Float(f) => f.to_string(),
        DocKind::Str(s) => format!("\"{s}\""),
        DocKind::Bool(b) => b.to_string(),
        DocKind::Array(items) => format!(
            "[{}]",
            items.iter().map(doc_text).collect::<Vec<_>>().join(", ")
        ),
        DocKind::Table(entries) => format!(
            "{{ {} }}",
            entries
                .iter()
                .map(|(k, v)| format!("{} = {}", k.name, doc_text(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => doc.type_name().to_string(),
    };
    if text.chars().count() > 80 {
        text.chars().take(77).chain("…".chars()).collect()
    } else {
        text
    }
}

/// What one question's scoring reads: the key and what its labels name.
struct Ctx<'a> {
    q: &'a KeyQuestion,
    kind: Context<'a>,
    hide: bool,
    /// Every field the student answered (folded, slips read), for paired lists.
    answers: &'a [(String, Doc)],
}

impl Ctx<'_> {
    fn model(&self) -> &Model<'_> {
        self.kind.model
    }

    fn name(&self, item: Item) -> String {
        self.kind.name(item)
    }

    /// Why a mistake in `field` is one: the kind's teaching reasons.
    fn teach(&self, field: &str, mistake: Mistake<'_>) -> Vec<Reason> {
        (self.q.kind.teach)(&self.kind, field, mistake, self.hide)
    }
}

/// Scores one question. `given` holds the fields of the student's `[qN]`
/// section, `broken` the statements of it that TOML could not read (a
/// broken field earns nothing and says why; a broken section header loses
/// every field); the second result lists problems with the file, in `lang`.
pub fn score(
    q: &KeyQuestion,
    given: &[(String, Doc)],
    broken: &[&Broken],
    lang: &Lang,
    hide: bool,
) -> (QuestionScore, Vec<String>) {
    let model = q.instance.model();
    let per_field = q.points / q.ask.len().max(1) as f64;
    // A broken line may name a field the kind does not have: no example then.
    let example_of = |field: &str| {
        let field = q.kind.fields.iter().find(|f| f.name == field)?;
        Some(example(field, &q.instance, &model, q.scoring.tolerance))
    };
    let slip_reason = |b: &Broken| {
        let example = b.field.as_deref().and_then(example_of);
        b.slip.reason(example.as_deref())
    };
    let lost = broken.iter().find(|b| b.section_header);
    // A slip in a field the rule lets count is read as its rewrite.
    let keeps = q.scoring.slips.keeps();
    let read: Vec<(&Broken, Doc)> = broken
        .iter()
        .filter(|_| lost.is_none() && keeps.is_some())
        .filter_map(|b| Some((*b, read_slip(b, &q.ask)?)))
        .collect();
    let mut problems: Vec<Reason> = given
        .iter()
        .filter(|(name, _)| !q.ask.iter().any(|f| f == name))
        .map(|(name, _)| {
            Reason::new(Phrase::UnknownField)
                .with("n", q.number.to_string())
                .with("field", name.as_str())
        })
        .collect();
    // A slip the rule lets count is no problem for the teacher to act on:
    // its field's feedback and the summary's slip count say what happened.
    problems.extend(
        broken
            .iter()
            .filter(|b| !read.iter().any(|(r, _)| std::ptr::eq(*r, **b)))
            .map(|b| {
                let n = q.number.to_string();
                match &b.field {
                    Some(field) if !b.section_header => Reason::new(Phrase::SlipInField)
                        .with("n", n)
                        .with("field", field.as_str())
                        .nested("why", slip_reason(b)),
                    _ => Reason::new(Phrase::SlipInQuestion)
                        .with("n", n)
                        .nested("why", slip_reason(b)),
                }
            }),
    );
    let answers: Vec<(String, Doc)> = given
        .iter()
        .map(|(name, doc)| (name.clone(), fold_doc(doc)))
        .chain(
            read.iter()
                .map(|(b, doc)| (b.field.clone().unwrap_or_default(), fold_doc(doc))),
        )
        .collect();
    let ctx = Ctx {
        q,
        kind: Context {
            instance: &q.instance,
            model: &model,
            key: &q.key,
            conventions: &q.conventions,
        },
        hide,
        answers: &answers,
    };
    let fields: Vec<FieldScore> = q
        .ask
        .iter()
        .enumerate()
        .map(|(i, &field)| {
            let shape = q
                .kind
                .fields
                .iter()
                .find(|f| f.name == field)
                .expect("asked fields belong to the kind")
                .shape;
            let key = q
                .key
                .answer(field)
                .expect("a checked key answers every field");
            let mut fs = FieldScore {
                field,
                max: per_field,
                earned: 0.0,
                state: State::NotAttempted,
                given: String::new(),
                key: if hide {
                    String::new()
                } else {
                    key.to_text(&model)
                },
                reasons: Vec::new(),
                tally: None,
                slip: false,
            };
            if let Some(b) = lost {
                fs.state = State::Invalid;
                fs.reasons.push(if i == 0 {
                    Reason::new(Phrase::SectionLost)
                        .with("n", q.number.to_string())
                        .nested("why", slip_reason(b))
                } else {
                    Reason::new(Phrase::SectionLostSame).with("n", q.number.to_string())
                });
                return fs;
            }
            let slipped = read.iter().find(|(b, _)| b.field.as_deref() == Some(field));
            if slipped.is_none()
                && let Some(b) = broken.iter().find(|b| b.field.as_deref() == Some(field))
            {
                fs.state = State::Invalid;
                fs.given = b.text.clone();
                fs.reasons.push(slip_reason(b));
                return fs;
            }
            match answers.iter().find(|(n, _)| n == field) {
                None => {}
                Some((_, doc)) if blank(doc) => {}
                Some((_, doc)) => {
                    let mut fraction =
                        score_field(&ctx, field, shape, key, doc, &mut fs, &mut problems);
                    if let Some((b, _)) = slipped {
                        let kept = keeps.unwrap_or(1.0);
                        let cost = per_field * fraction * (1.0 - kept);
                        fraction *= kept;
                        fs.slip = true;
                        fs.reasons.insert(0, slip_read_reason(b, cost));
                    }
                    // Unrounded: a perfect sheet must sum to exactly the points.
                    fs.earned = per_field * fraction;
                    if fs.state != State::Invalid {
                        fs.state = if fraction >= 1.0 {
                            State::Correct
                        } else if fraction > 0.0 {
                            State::Partial
                        } else {
                            State::Wrong
                        };
                    }
                }
            }
            fs
        })
        .collect();
    problems.dedup();
    let earned = round2(fields.iter().map(|f| f.earned).sum());
    (
        QuestionScore {
            number: q.number,
            kind: q.kind.name,
            max: round2(q.points),
            earned,
            fields,
            adjusted: None,
        },
        problems.iter().map(|p| p.render(lang, false)).collect(),
    )
}

/// The answer a slip's rewrite gives its field, when there is a rewrite,
/// TOML reads it, and it sets a field the question asks.
pub(crate) fn read_slip(b: &Broken, ask: &[&str]) -> Option<Doc> {
    if b.section_header {
        return None;
    }
    let field = b.field.as_deref()?;
    if !ask.contains(&field) {
        return None;
    }
    let fix = b.slip.fix.as_deref()?;
    let doc = Source {
        path: String::new(),
        text: fix.to_string(),
    }
    .parse()
    .ok()?;
    doc.get(field).cloned()
}

/// What a slip that counts was read as, and what it cost.
fn slip_read_reason(b: &Broken, cost: f64) -> Reason {
    b.slip.read_as(if cost > 0.0 {
        Reason::new(Phrase::SlipCost).with("points", super::report::points(cost))
    } else {
        Reason::new(Phrase::SlipFree)
    })
}

/// Scores one field; returns the fraction earned and fills `given` and
/// `reasons`. Each answer shape has its own scorer; a shape that does not
/// match the key's answer (a kind's mistake, never the student's) reads as
/// unreadable rather than panicking.
fn score_field(
    ctx: &Ctx<'_>,
    field: &str,
    shape: Shape,
    key: &Answer,
    doc: &Doc,
    fs: &mut FieldScore,
    problems: &mut Vec<Reason>,
) -> f64 {
    match (shape, key) {
        (Shape::Value, Answer::Value(k)) => score_value(ctx, field, *k, doc, fs),
        (Shape::Cost, Answer::Cost(k)) => score_cost(ctx, *k, doc, fs),
        (Shape::Label, Answer::One(accepted)) => {
            score_label(ctx, field, accepted, doc, fs, problems)
        }
        (Shape::Values | Shape::Bounds, Answer::Values(p)) => {
            let key: Vec<(Item, Bound)> = p.iter().map(|&(i, v)| (i, Bound::Exact(v))).collect();
            score_bounds(ctx, field, &key, doc, fs, problems)
        }
        (Shape::Values | Shape::Bounds, Answer::Bounds(p)) => {
            score_bounds(ctx, field, p, doc, fs, problems)
        }
        (Shape::Fractions, Answer::Fractions(p)) => {
            score_fractions(ctx, field, p, doc, fs, problems)
        }
        (Shape::Labels, Answer::Set(k) | Answer::Sequence(k)) => {
            score_labels(ctx, field, k, doc, fs, problems)
        }
        (Shape::Sequence, Answer::Set(k) | Answer::Sequence(k)) => {
            score_sequence(ctx, field, k, doc, fs, problems)
        }
        (Shape::Connectors, Answer::Set(k)) => score_connectors(ctx, k, doc, fs, problems),
        _ => unreadable(doc, fs, "grade.what_value"),
    }
}

/// An answer that cannot be read as `what` (a term, e.g. `grade.what_value`):
/// it earns nothing, the field is invalid, and the reason quotes it.
fn unreadable(doc: &Doc, fs: &mut FieldScore, what: &'static str) -> f64 {
    fs.state = State::Invalid;
    fs.given = doc_text(doc);
    fs.reasons.push(
        Reason::new(Phrase::Unreadable)
            .term("what", what)
            .with("given", fs.given.clone()),
    );
    0.0
}

/// A game value: right when within the scoring's tolerance of the key
/// (infinities only equal themselves); the kind says why a wrong one is.
fn score_value(ctx: &Ctx<'_>, field: &str, key: Value, doc: &Doc, fs: &mut FieldScore) -> f64 {
    let Some(v) = read_value(doc) else {
        return unreadable(doc, fs, "grade.what_value");
    };
    fs.given = v.to_string();
    let ok = match (v, key) {
        (Value::Finite(a), Value::Finite(b)) => a.abs_diff(b) <= ctx.q.scoring.tolerance,
        (a, b) => a == b,
    };
    if !ok {
        fs.reasons
            .extend(ctx.teach(field, Mistake::Number { key, given: v }));
    }
    f64::from(u8::from(ok))
}

/// A cost: a non-negative number within the tolerance of the key, or `inf`
/// for a key that cannot be solved.
fn score_cost(ctx: &Ctx<'_>, key: Cost, doc: &Doc, fs: &mut FieldScore) -> f64 {
    let Some(v) = read_value(doc) else {
        return unreadable(doc, fs, "grade.what_cost");
    };
    fs.given = v.to_string();
    let ok = match (v, key.get()) {
        (Value::Finite(a), Some(b)) => a >= 0 && (a as u64).abs_diff(b) <= ctx.q.scoring.tolerance,
        (Value::PosInf, None) => true,
        _ => false,
    };
    if !ok {
        fs.reasons.push(
            Reason::new(Phrase::CostWrong)
                .with("key", key.to_string())
                .with("given", fs.given.clone()),
        );
    }
    f64::from(u8::from(ok))
}

/// One label: right when it names any of the `accepted` items (tied best
/// moves are all right); a label that names nothing earns nothing.
fn score_label(
    ctx: &Ctx<'_>,
    field: &str,
    accepted: &[Item],
    doc: &Doc,
    fs: &mut FieldScore,
    problems: &mut Vec<Reason>,
) -> f64 {
    let DocKind::Str(s) = &doc.kind else {
        return unreadable(doc, fs, "grade.what_label");
    };
    fs.given = s.trim().to_string();
    let Some(item) = ctx.model().resolve(s) else {
        unknown_label(ctx, field, s.trim(), fs, problems);
        return 0.0;
    };
    fs.given = ctx.name(item);
    let right = accepted.contains(&item);
    if !right {
        fs.reasons.extend(ctx.teach(field, Mistake::WrongOne(item)));
    }
    f64::from(u8::from(right))
}

/// The items a list of labels names, each once and in the order written,
/// and the same with `None` where a label names nothing (each also
/// reported), in its place: a path's correct prefix stops there. `fs.given`
/// shows every label. `None` when the answer is not a list.
fn read_items(
    ctx: &Ctx<'_>,
    field: &str,
    doc: &Doc,
    fs: &mut FieldScore,
    problems: &mut Vec<Reason>,
) -> Option<(Vec<Item>, Vec<Option<Item>>)> {
    let list = read_list(doc)?;
    let mut items: Vec<Item> = Vec::new();
    let mut seen = HashSet::new();
    let mut written = Vec::new();
    // "You wrote" shows every item, including those that name nothing.
    let mut shown: Vec<String> = Vec::new();
    for text in &list {
        match ctx.model().resolve(text) {
            // A repeated item counts once (in a sequence, too: nodes are evaluated once).
            Some(i) if !seen.insert(i) => {}
            Some(i) => {
                shown.push(ctx.name(i));
                items.push(i);
                written.push(Some(i));
            }
            None => {
                shown.push(text.clone());
                written.push(None);
                unknown_label(ctx, field, text, fs, problems);
            }
        }
    }
    if ctx.q.kind.field(field).domain == Domain::PrunedRoots {
        items = prune_roots(ctx.model(), items);
    }
    fs.given = if shown.is_empty() {
        "—".to_string()
    } else {
        shown.join(", ")
    };
    Some((items, written))
}

/// Labels in any order, scored by the set rule. Under the half swap rule
/// (α- and β-cuts mixed up), a key item written in the paired field earns
/// half a hit here, and the paired field's key item written here is not
/// counted wrong.
fn score_labels(
    ctx: &Ctx<'_>,
    field: &str,
    key: &[Item],
    doc: &Doc,
    fs: &mut FieldScore,
    problems: &mut Vec<Reason>,
) -> f64 {
    let Some((items, written)) = read_items(ctx, field, doc, fs, problems) else {
        return unreadable(doc, fs, "grade.what_list");
    };
    let unknown = written.iter().filter(|w| w.is_none()).count();
    let in_key: HashSet<&Item> = key.iter().collect();
    let hits = items.iter().filter(|i| in_key.contains(i)).count();
    let swap = swap_of(ctx, field, key, &items, unknown);
    let half = ctx.q.scoring.swaps == SwapRule::Half;
    let wrong = items.len() - hits + unknown - if half { swap.put_here } else { 0 };
    set_reasons(ctx, field, key, &items, fs, wrong, &swap);
    let halves = if half { swap.put_there } else { 0 };
    set_fraction_with_halves(ctx.q.scoring.sets, key.len(), hits, halves, wrong)
}

/// Labels in order, scored by the order rule.
fn score_sequence(
    ctx: &Ctx<'_>,
    field: &str,
    key: &[Item],
    doc: &Doc,
    fs: &mut FieldScore,
    problems: &mut Vec<Reason>,
) -> f64 {
    let Some((mut items, mut written)) = read_items(ctx, field, doc, fs, problems) else {
        return unreadable(doc, fs, "grade.what_list");
    };
    // A path asked from below the root may be written from the root: it
    // names the same path, and costs nothing.
    let root = ctx.model().root();
    if ctx.q.kind.field(field).order == OrderScoring::Prefix
        && !key.contains(&root)
        && items.first() == Some(&root)
    {
        items.remove(0);
        written.remove(0);
    }
    order_reasons(ctx, field, key, &items, fs);
    // A label that names nothing is a wrong item of the order too (it
    // lengthens the answer): the key and ten made-up labels are not the key.
    // It matches nothing where it stands, so a path's right prefix ends there.
    let key: Vec<Option<Item>> = key.iter().copied().map(Some).collect();
    order_fraction(
        ctx.q.scoring.orders,
        ctx.q.kind.field(field).order,
        &key,
        &written,
    )
}

/// Connectors, scored by the set rule. A lone string is one connector (never
/// split like a list of labels); a connector the graph does not have is a
/// wrong item and a problem with the file.
fn score_connectors(
    ctx: &Ctx<'_>,
    key: &[Item],
    doc: &Doc,
    fs: &mut FieldScore,
    problems: &mut Vec<Reason>,
) -> f64 {
    let Some(list) = read_list_strict(doc) else {
        return unreadable(doc, fs, "grade.what_connectors");
    };
    let mut items = Vec::new();
    let mut seen = HashSet::new();
    let mut wrong = 0;
    for text in &list {
        match ctx.model().connector(text) {
            Some(c) => {
                if seen.insert(c) {
                    items.push(c);
                }
            }
            None => {
                wrong += 1;
                let why = Reason::new(Phrase::ConnectorUnknown).with("connector", text.as_str());
                problems.push(why.clone());
                fs.reasons.push(why);
            }
        }
    }
    fs.given = items
        .iter()
        .map(|&c| ctx.name(c))
        .collect::<Vec<_>>()
        .join("; ");
    let in_key: HashSet<&Item> = key.iter().collect();
    for &c in items.iter().filter(|c| !in_key.contains(c)) {
        wrong += 1;
        fs.reasons
            .push(Reason::new(Phrase::ConnectorWrong).with("connector", ctx.name(c)));
    }
    let missed = key.iter().filter(|c| !seen.contains(c));
    // With the key hidden, one line: a line per connector would count them.
    for &c in missed.take(if ctx.hide { 1 } else { usize::MAX }) {
        fs.reasons
            .push(Reason::new(Phrase::ConnectorMissed).with("connector", ctx.name(c)));
    }
    let hits = items.iter().filter(|c| in_key.contains(c)).count();
    set_fraction(ctx.q.scoring.sets, key.len(), hits, wrong)
}

/// A table of a value or a bound per node (game trees' values; alpha-beta's
/// bounds where fail-hard backs one up): a node with the key's value, or one
/// the key also accepts, is a hit.
fn score_bounds(
    ctx: &Ctx<'_>,
    field: &str,
    key: &[(Item, Bound)],
    doc: &Doc,
    fs: &mut FieldScore,
    problems: &mut Vec<Reason>,
) -> f64 {
    let table = Table {
        what: "grade.what_value",
        read: read_bound,
        show: |label, b| format!("{label} {}", relation(b)),
        right: |item, key, given| key == given || ctx.kind.key.also_right(item) == Some(given),
        mistake: |item, key, given| Mistake::Value { item, key, given },
    };
    score_table(ctx, field, doc, key, &table, fs, problems)
}

/// A table of exact values per node (a chance tree's expectations): right
/// only when equal as fractions (`23/3`, `7.5`, `15/2` are one value).
fn score_fractions(
    ctx: &Ctx<'_>,
    field: &str,
    key: &[(Item, crate::value::Ratio)],
    doc: &Doc,
    fs: &mut FieldScore,
    problems: &mut Vec<Reason>,
) -> f64 {
    let table = Table {
        what: "grade.what_fraction",
        read: read_fraction,
        show: |label, r| format!("{label} = {}", r.as_written()),
        right: |_, key, given| key == given,
        mistake: |item, key, given| Mistake::Fraction { item, key, given },
    };
    score_table(ctx, field, doc, key, &table, fs, problems)
}

/// How a table answer (a value per node) is read and judged: the values of
/// game trees (exact or bounds) and of chance trees (exact fractions).
struct Table<V, Read, Show, Right, Wrong>
where
    Read: Fn(&Doc) -> Option<V>,
    Show: Fn(&str, V) -> String,
    Right: Fn(Item, V, V) -> bool,
    Wrong: Fn(Item, V, V) -> Mistake<'static>,
{
    /// What an unreadable value should have been (a string-table key).
    what: &'static str,
    read: Read,
    show: Show,
    right: Right,
    mistake: Wrong,
}

/// Scores a table: a node with a wrong value is a miss; only nodes that are
/// not in the key (or unreadable) count against the set rule's penalty.
fn score_table<V: Copy, Read, Show, Right, Wrong>(
    ctx: &Ctx<'_>,
    field: &str,
    doc: &Doc,
    key_pairs: &[(Item, V)],
    table: &Table<V, Read, Show, Right, Wrong>,
    fs: &mut FieldScore,
    problems: &mut Vec<Reason>,
) -> f64
where
    Read: Fn(&Doc) -> Option<V>,
    Show: Fn(&str, V) -> String,
    Right: Fn(Item, V, V) -> bool,
    Wrong: Fn(Item, V, V) -> Mistake<'static>,
{
    let DocKind::Table(entries) = &doc.kind else {
        return unreadable(doc, fs, "grade.what_table");
    };
    let (mut right, mut extra) = (0usize, 0usize);
    let mut seen = HashSet::new();
    // Nodes the answer names at all, readable or not: only the others are missing.
    let mut named = HashSet::new();
    let mut given = Vec::new();
    for (k, d) in entries {
        let Some(item) = ctx.model().resolve(&k.name) else {
            unknown_label(ctx, field, &k.name, fs, problems);
            extra += 1;
            continue;
        };
        named.insert(item);
        let label = ctx.name(item);
        let Some(v) = (table.read)(d) else {
            fs.reasons.push(
                Reason::new(Phrase::NodeUnreadable)
                    .with("node", label)
                    .nested(
                        "why",
                        Reason::new(Phrase::Unreadable)
                            .term("what", table.what)
                            .with("given", doc_text(d)),
                    ),
            );
            extra += 1;
            continue;
        };
        if !seen.insert(item) {
            continue; // a node written twice counts once
        }
        given.push((table.show)(&label, v));
        match key_pairs.iter().find(|(i, _)| *i == item) {
            Some(&(_, k)) if (table.right)(item, k, v) => right += 1,
            Some(&(_, k)) => fs
                .reasons
                .extend(ctx.teach(field, (table.mistake)(item, k, v))),
            None => {
                extra += 1;
                fs.reasons.extend(ctx.teach(field, Mistake::Extra(item)));
            }
        }
    }
    let missing = key_pairs.iter().filter(|(i, _)| !named.contains(i));
    // With the key hidden, one line: a line per node would count them.
    for (item, _) in missing.take(if ctx.hide { 1 } else { usize::MAX }) {
        fs.reasons
            .push(Reason::new(Phrase::NodeMissing).with("node", ctx.name(*item)));
    }
    fs.given = given.join(", ");
    set_fraction(ctx.q.scoring.sets, key_pairs.len(), right, extra)
}

/// A label the answer gives that names nothing in the figure: a mistake in
/// the field, and a problem with the file (a typo or an invented label the
/// teacher should see), unless it names a node the search never reaches,
/// which is a mistake in the answer only.
fn unknown_label(
    ctx: &Ctx<'_>,
    field: &str,
    text: &str,
    fs: &mut FieldScore,
    problems: &mut Vec<Reason>,
) {
    let why = ctx.teach(field, Mistake::Unknown(text));
    problems.extend(why.iter().filter(|r| !r.phrase.names_a_node()).cloned());
    fs.reasons.extend(why);
}

/// Pruned nodes may be given as cut-branch roots or as every unexamined node:
/// keep only those whose parent is not listed too.
fn prune_roots(model: &Model<'_>, items: Vec<Item>) -> Vec<Item> {
    let Some(t) = model.tree() else {
        return items;
    };
    let listed: HashSet<Item> = items.iter().copied().collect();
    items
        .into_iter()
        .filter(|i| match *i {
            Item::Node(n) => !t
                .parent(NodeId(n))
                .is_some_and(|p| listed.contains(&Item::Node(p.0))),
            _ => true,
        })
        .collect()
}

/// How a list and its paired list ([`Field::swaps_with`](crate::exercise::Field)) mix up their items.
#[derive(Default)]
struct Swap {
    /// The paired field.
    other: Option<&'static str>,
    /// Items listed here that the key lists in the other field.
    put_here: usize,
    /// Key items of this field that the answer lists in the other field.
    put_there: usize,
    /// Each list holds exactly the other's key (and the keys differ).
    whole: bool,
}

fn swap_of(ctx: &Ctx<'_>, field: &str, key: &[Item], given: &[Item], unknown: usize) -> Swap {
    let Some(other) = ctx.q.kind.field(field).swaps_with else {
        return Swap::default();
    };
    let Some(Answer::Set(other_key)) = ctx.q.key.answer(other) else {
        return Swap::default();
    };
    // What the answer lists in the other field, as far as it can be read.
    let other_given: HashSet<Item> = ctx
        .answers
        .iter()
        .find(|(n, _)| n == other)
        .and_then(|(_, d)| read_list(d))
        .unwrap_or_default()
        .iter()
        .filter_map(|t| ctx.model().resolve(t))
        .collect();
    let set = |v: &[Item]| v.iter().copied().collect::<HashSet<Item>>();
    let (key_set, other_key_set, given_set) = (set(key), set(other_key), set(given));
    Swap {
        other: Some(other),
        put_here: given_set
            .iter()
            .filter(|i| !key_set.contains(i) && other_key_set.contains(i))
            .count(),
        put_there: key_set
            .iter()
            .filter(|i| !given_set.contains(i) && other_given.contains(i))
            .count(),
        whole: unknown == 0
            && key_set != other_key_set
            && given_set == other_key_set
            && other_given == key_set,
    }
}

fn set_reasons(
    ctx: &Ctx<'_>,
    field: &str,
    key: &[Item],
    given: &[Item],
    fs: &mut FieldScore,
    wrong: usize,
    swap: &Swap,
) {
    let in_key: HashSet<&Item> = key.iter().collect();
    let listed: HashSet<&Item> = given.iter().collect();
    let hits = given.iter().filter(|g| in_key.contains(g)).count();
    // Saying that two lists are swapped would give a hidden key away.
    if let (true, false, Some(other)) = (swap.whole, ctx.hide, swap.other) {
        fs.reasons
            .extend(ctx.teach(field, Mistake::Swapped { other }));
        fs.tally = Some(tally(hits, key.len(), swap.put_there, wrong));
        return;
    }
    for &extra in given.iter().filter(|g| !in_key.contains(g)) {
        // With the key hidden, say only that the item does not belong.
        fs.reasons.extend(if ctx.hide {
            plain(&ctx.kind, field, Mistake::Extra(extra), true)
        } else {
            ctx.teach(field, Mistake::Extra(extra))
        });
    }
    let missed: Vec<Item> = key
        .iter()
        .filter(|k| !listed.contains(k))
        .copied()
        .collect();
    if !missed.is_empty() {
        // Naming the missing items would give a hidden key away.
        fs.reasons.extend(if ctx.hide {
            plain(&ctx.kind, field, Mistake::Missed(&missed), true)
        } else {
            ctx.teach(field, Mistake::Missed(&missed))
        });
    }
    if !fs.reasons.is_empty() && !ctx.hide {
        fs.tally = Some(tally(hits, key.len(), swap.put_there, wrong));
    }
}

/// `2 of 3 right, 1 wrong`; never `0 of 0 right`.
fn tally(hits: usize, n: usize, swapped: usize, wrong: usize) -> Reason {
    let phrase = match (n, swapped) {
        (0, _) => Phrase::ItemsNone,
        (_, 0) => Phrase::Items,
        _ => Phrase::ItemsSwapped,
    };
    Reason::new(phrase)
        .with("hits", hits.to_string())
        .with("n", n.to_string())
        .with("swapped", swapped.to_string())
        .with("wrong", wrong.to_string())
}

fn order_reasons(ctx: &Ctx<'_>, field: &str, key: &[Item], given: &[Item], fs: &mut FieldScore) {
    let first_diff = key.iter().zip(given).position(|(k, g)| k != g);
    let mistake = match first_diff {
        Some(pos) => Some(Mistake::Diverges {
            pos,
            key: key[pos],
            given: given[pos],
        }),
        None if given.len() < key.len() => Some(Mistake::Short {
            count: key.len() - given.len(),
            last: given.last().copied(),
        }),
        None if given.len() > key.len() => Some(Mistake::Long {
            given: given[key.len()],
        }),
        None => None,
    };
    if let Some(m) = mistake {
        fs.reasons.extend(ctx.teach(field, m));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The principal variation's path, graded: scored by its longest
    /// correct prefix (`OrderScoring::Prefix`), worded by the kind.
    mod path {
        use super::*;
        use crate::input::Source;
        use crate::instance::Instance;

        /// A minimax of value 3, principal variation A → B → E → J: at B, MIN
        /// chooses E (3) over F (12), G (8) and H (5); C's only child is I.
        const TREE: &str = "kind = \"game-tree\"\ntree = [[[3, 1], 12, 8, 5], [2], 1]\n";

        fn question() -> KeyQuestion {
            let t = crate::gametree::file::tests::read_file("t.toml", TREE).unwrap();
            let instance = Instance::GameTree(t);
            let kind = crate::exercise::kind("principal-variation").unwrap();
            let key = (kind.solve)(&instance, &Default::default());
            KeyQuestion {
                number: 1,
                kind,
                points: 3.0,
                ask: vec!["path"],
                scoring: Default::default(),
                instance,
                key,
                conventions: Default::default(),
            }
        }

        /// The path's points and its reasons in `lang`, key shown or hidden.
        fn grade(path: &str, lang: &str, hide: bool) -> (f64, Vec<String>, Vec<String>) {
            let source = Source {
                path: "answers.toml".into(),
                text: format!("path = {path}\n"),
            };
            let DocKind::Table(entries) = source.parse().unwrap().kind else {
                unreachable!("a TOML file is a table")
            };
            let given: Vec<_> = entries.into_iter().map(|(k, d)| (k.name, d)).collect();
            let lang = Lang::builtin(lang).unwrap();
            let (score, problems) = score(&question(), &given, &[], &lang, hide);
            let field = &score.fields[0];
            let reasons = field
                .reasons
                .iter()
                .map(|r| r.render(&lang, hide))
                .collect();
            (field.earned, reasons, problems)
        }

        #[test]
        fn the_key_earns_full_marks() {
            let (earned, reasons, problems) = grade(r#"["B", "E", "J"]"#, "en", false);
            assert_eq!((earned, reasons, problems), (3.0, vec![], vec![]));
        }

        /// The issue's example: `B, H, J` against `B, E, J` keeps its one right
        /// step (a third), not the common subsequence's two, and says where
        /// and why the path leaves the principal variation.
        #[test]
        fn a_path_that_leaves_the_variation_keeps_its_right_prefix_and_learns_why() {
            let (earned, reasons, _) = grade(r#"["B", "H", "J"]"#, "en", false);
            assert_eq!(earned, 1.0);
            assert_eq!(reasons, ["at B, MIN chooses E (value 3), not H (value 5)"]);
            let (_, reasons, _) = grade(r#"["B", "H", "J"]"#, "zh", false);
            assert_eq!(
                reasons,
                ["在 B 处，MIN 选择 E（值为 3），而不是 H（值为 5）"]
            );
            // With the key hidden: where, but not which child is right.
            let (earned, reasons, _) = grade(r#"["B", "H", "J"]"#, "en", true);
            assert_eq!(earned, 1.0);
            assert_eq!(
                reasons,
                ["your path leaves the principal variation at B: MIN does not choose H there"]
            );
            // A wrong first move earns nothing.
            let (earned, reasons, _) = grade(r#"["C", "I"]"#, "en", false);
            assert_eq!(earned, 0.0);
            assert_eq!(reasons, ["at A, MAX chooses B (value 3), not C (value 2)"]);
        }

        #[test]
        fn a_path_that_is_no_path_says_so() {
            let (earned, reasons, _) = grade(r#"["B", "I"]"#, "en", false);
            assert_eq!(earned, 1.0);
            assert_eq!(
                reasons,
                [
                    "I is not a child of B: each node of the path is a move from the one before it; at B, MIN chooses E (value 3)"
                ]
            );
            // Written from the root, it is the same path.
            let (earned, reasons, _) = grade(r#"["A", "B", "E", "J"]"#, "en", false);
            assert_eq!(earned, 3.0);
            assert!(reasons.is_empty(), "{reasons:?}");
            let (earned, reasons, _) = grade(r#"["B", "E"]"#, "en", false);
            assert_eq!(earned, 2.0);
            assert_eq!(
                reasons,
                ["E is not a leaf: the path goes on 1 more level(s) down, to a leaf"]
            );
            let (earned, reasons, _) = grade(r#"["B", "E", "J", "K"]"#, "en", false);
            assert_eq!(earned, 2.25);
            assert_eq!(
                reasons,
                ["J is a leaf, where the path ends: K does not belong after it"]
            );
        }

        /// Labels the figure does not have earn nothing, never a panic, and
        /// are problems with the file.
        #[test]
        fn an_invented_label_earns_nothing() {
            let (earned, _, problems) = grade(r#"["X", "Y", "Z"]"#, "en", false);
            assert_eq!(earned, 0.0);
            assert!(!problems.is_empty());
            let (earned, _, _) = grade(r#"["B", "Z", "J"]"#, "en", false);
            assert_eq!(earned, 1.0);
            // Where it stands: a path whose first step is made up has no right prefix.
            let (earned, _, _) = grade(r#"["Z", "B", "E", "J"]"#, "en", false);
            assert_eq!(earned, 0.0);
        }
    }

    #[test]
    fn a_tally_never_reads_none_of_none() {
        let en = Lang::builtin("en").unwrap();
        assert_eq!(
            tally(0, 0, 0, 2).render(&en, false),
            "there are none; you listed 2"
        );
        assert_eq!(
            tally(1, 3, 0, 1).render(&en, false),
            "1 of 3 right, 1 wrong"
        );
        assert_eq!(
            tally(1, 3, 2, 0).render(&en, false),
            "1 of 3 right, 2 in the other list, 0 wrong"
        );
    }
}
