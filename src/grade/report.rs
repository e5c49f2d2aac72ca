//! What grading writes: the grade table, a summary for the teacher, and the
//! views of per-student feedback.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use super::batch::{Row, Status};
use super::score::{State, cents};
use crate::lang::Lang;
use crate::output::spreadsheet_safe;
use crate::reason::{Phrase, Reason};

/// How many students must give one wrong answer, or make one kind of
/// mistake, before the summary lists it: what one student did is theirs,
/// not the class's.
pub const CLASS_FLOOR: usize = 2;

/// The byte-order mark `--excel` puts first, so that Excel reads the CSV as UTF-8.
pub const BOM: &str = "\u{feff}";

/// The grade table as CSV (UTF-8, no byte-order mark): one row per
/// submission and per missing student, the student's id and name first, one
/// column per question.
///
/// A row that was scored shows its question scores, each rounded to
/// hundredths as printed; only a counted (`graded`) row has a total, and the
/// total is exactly the sum of the printed question columns. Duplicates and
/// name mismatches show their scores for the teacher to compare, with no total.
pub fn grades_csv(rows: &[Row]) -> String {
    let questions = rows.iter().map(|r| r.questions.len()).max().unwrap_or(0);
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header = vec![
        "student".to_string(),
        "name".into(),
        "file".into(),
        "variant".into(),
        "status".into(),
    ];
    header.extend((1..=questions).map(|n| format!("q{n}")));
    header.extend([
        "total".into(),
        "max".into(),
        "reason".into(),
        "problems".into(),
        "adjusted".into(),
        "feedback".into(),
    ]);
    // From an LMS's download: the id it knows each sender by, and its late mark.
    let lms = rows.iter().any(|r| r.sender.is_some());
    if lms {
        header.extend(["lms_id".into(), "late".into()]);
    }
    w.write_record(&header).expect("writing to memory");
    for r in rows {
        let mut record = vec![
            r.student.clone().unwrap_or_default(),
            r.name.clone().unwrap_or_default(),
            r.file.clone(),
            r.variant.clone().unwrap_or_default(),
            r.status.name().to_string(),
        ];
        let scored = r.status.scored();
        record.extend((0..questions).map(|i| match r.questions.get(i) {
            Some(q) if scored => points(q.earned),
            _ => String::new(),
        }));
        record.push(if r.status == Status::Graded {
            points(r.total)
        } else {
            String::new()
        });
        record.push(if scored { points(r.max) } else { String::new() });
        record.push(r.reason.clone());
        record.push(r.problems.join("; "));
        record.push(
            r.questions
                .iter()
                .filter_map(|q| {
                    let a = q.adjusted.as_ref()?;
                    Some(format!(
                        "q{}: {} -> {} ({})",
                        q.number,
                        points(a.from),
                        points(q.earned),
                        a.reason
                    ))
                })
                .collect::<Vec<_>>()
                .join("; "),
        );
        record.push(r.feedback.clone());
        if lms {
            let sender = r.sender.as_ref();
            record.push(sender.map(|s| s.id().to_string()).unwrap_or_default());
            record.push(
                if sender.is_some_and(|s| s.late()) {
                    "late"
                } else {
                    ""
                }
                .into(),
            );
        }
        let record: Vec<String> = record.iter().map(|c| spreadsheet_safe(c)).collect();
        w.write_record(&record).expect("writing to memory");
    }
    String::from_utf8(w.into_inner().expect("writing to memory")).expect("CSV of UTF-8 strings")
}

/// How many files have one status.
#[derive(Serialize)]
pub struct CountView {
    /// The status, in the report's language.
    pub status: String,
    /// How many files.
    pub n: usize,
}

/// One 10 % bin of the score distribution.
#[derive(Serialize)]
pub struct BinView {
    /// `0–10`, …, `90–100`.
    pub range: String,
    /// How many graded files.
    pub n: usize,
    /// A bar of `n` blocks (at most 60).
    pub bar: String,
}

/// A wrong answer given by several students.
#[derive(Serialize)]
pub struct WrongView {
    /// The answer as the grader read it.
    pub answer: String,
    /// How many students gave it.
    pub n: usize,
}

/// Figures for one field, or for a whole question.
#[derive(Serialize)]
pub struct StatsView {
    /// The field's name, or "whole question".
    pub label: String,
    /// Whether this is the whole question.
    pub whole: bool,
    /// Points possible.
    pub max: String,
    /// Mean points earned.
    pub mean: String,
    /// Share of graded files at full marks (`85 %`).
    pub full: String,
    /// Share of graded files that left it blank.
    pub blank: String,
    /// How many answers were read from a slip (by the set's slip rule).
    pub slips: usize,
    /// The most common wrong answers (given by at least [`CLASS_FLOOR`] students), at most three.
    pub wrong: Vec<WrongView>,
}

/// One question's figures: the whole question first, then each field.
#[derive(Serialize)]
pub struct QuestionStatsView {
    /// Its number.
    pub number: usize,
    /// "Question 2".
    pub heading: String,
    /// The whole question, then its fields.
    pub rows: Vec<StatsView>,
}

/// One kind of mistake across the class.
#[derive(Serialize)]
pub struct MistakeView {
    /// Share of graded files that make it (`40 %`).
    pub share: String,
    /// The question.
    pub question: usize,
    /// The field.
    pub field: String,
    /// One student's instance of it, worded as what they did.
    pub example: String,
}

/// A student of the roster.
#[derive(Serialize)]
pub struct StudentView {
    /// Id.
    pub id: String,
    /// Name (empty when the roster has none).
    pub name: String,
}

/// A file the teacher should look at.
#[derive(Serialize)]
pub struct AttentionView {
    /// The file.
    pub file: String,
    /// The student it was given to (empty when none).
    pub student: String,
    /// Their name.
    pub name: String,
    /// The status, in the report's language.
    pub status: String,
    /// Why.
    pub why: String,
}

/// A question's score adjusted by hand (`grade --overrides`).
#[derive(Serialize)]
pub struct AdjustmentView {
    /// The student.
    pub student: String,
    /// The question.
    pub question: usize,
    /// Points from grading, for people.
    pub from: String,
    /// Points after the adjustment, for people.
    pub to: String,
    /// Why.
    pub reason: String,
}

/// The teacher's summary, as `summary.md` and `summary.html` render it.
#[derive(Serialize)]
pub struct SummaryView<'a> {
    /// String table.
    pub t: &'a serde_json::Value,
    /// The language's code (for `<html lang>`).
    pub language: &'a str,
    /// The set's title.
    pub title: &'a str,
    /// Files handed in and students missing, counted apart.
    pub headline: String,
    /// Counts per status, of the files handed in.
    pub counts: Vec<CountView>,
    /// How many files were graded (and count).
    pub graded: usize,
    /// "mean 71.3 %, median 75.0 %".
    pub mean_median: String,
    /// The score distribution.
    pub bins: Vec<BinView>,
    /// Per question and field.
    pub questions: Vec<QuestionStatsView>,
    /// The head of the per-field wrong answers' column, naming [`CLASS_FLOOR`].
    pub col_wrong: String,
    /// The head of the common mistakes, naming [`CLASS_FLOOR`].
    pub common: String,
    /// The most common mistakes, one line per (question, field, kind of
    /// reason) made by at least [`CLASS_FLOOR`] students.
    pub mistakes: Vec<MistakeView>,
    /// Students of the roster with no file.
    pub missing: Vec<StudentView>,
    /// Files that need the teacher's attention.
    pub attention: Vec<AttentionView>,
    /// Questions adjusted by hand.
    pub adjustments: Vec<AdjustmentView>,
}

/// `n` out of `of` as a whole percentage: `40 %`.
fn share(n: usize, of: usize) -> String {
    if of == 0 {
        return "0 %".into();
    }
    format!("{:.0} %", 100.0 * n as f64 / of as f64)
}

/// Running figures for one field or question.
#[derive(Default)]
struct Tally {
    max: f64,
    n: usize,
    earned_cents: i64,
    full: usize,
    blank: usize,
    slips: usize,
    wrong: HashMap<String, usize>,
}

impl Tally {
    fn view(self, label: String, whole: bool) -> StatsView {
        let mut wrong: Vec<(String, usize)> = self
            .wrong
            .into_iter()
            .filter(|(_, n)| *n >= CLASS_FLOOR)
            .collect();
        wrong.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let mean = if self.n == 0 {
            0.0
        } else {
            self.earned_cents as f64 / 100.0 / self.n as f64
        };
        StatsView {
            label,
            whole,
            max: points(self.max),
            mean: points(mean),
            full: share(self.full, self.n),
            blank: share(self.blank, self.n),
            slips: self.slips,
            wrong: wrong
                .into_iter()
                .take(3)
                .map(|(answer, n)| {
                    let shown: String = if answer.chars().count() > 60 {
                        answer.chars().take(59).chain(['…']).collect()
                    } else {
                        answer
                    };
                    WrongView { answer: shown, n }
                })
                .collect(),
        }
    }
}

/// Per question (whole, then per field), over the graded files.
fn question_stats(graded: &[&Row], lang: &Lang) -> Vec<QuestionStatsView> {
    // Every variant of a set has the same questions and fields: the first
    // graded file gives their order.
    let mut order: Vec<(usize, Vec<&'static str>)> = Vec::new();
    let mut tallies: HashMap<(usize, Option<&'static str>), Tally> = HashMap::new();
    for r in graded {
        for q in &r.questions {
            let at = match order.iter().position(|(n, _)| *n == q.number) {
                Some(at) => at,
                None => {
                    order.push((q.number, Vec::new()));
                    order.len() - 1
                }
            };
            let whole = tallies.entry((q.number, None)).or_default();
            whole.max = q.max;
            whole.n += 1;
            whole.earned_cents += cents(q.earned);
            whole.full += usize::from(cents(q.earned) == cents(q.max));
            whole.blank += usize::from(q.fields.iter().all(|f| f.state == State::NotAttempted));
            whole.slips += q.fields.iter().filter(|f| f.slip).count();
            for f in &q.fields {
                if !order[at].1.contains(&f.field) {
                    order[at].1.push(f.field);
                }
                let t = tallies.entry((q.number, Some(f.field))).or_default();
                t.max = f.max;
                t.n += 1;
                t.earned_cents += cents(f.earned);
                t.full += usize::from(f.state == State::Correct);
                t.blank += usize::from(f.state == State::NotAttempted);
                t.slips += usize::from(f.slip);
                if matches!(f.state, State::Wrong | State::Partial | State::Invalid)
                    && !f.given.trim().is_empty()
                    && !f.right_but_slipped()
                {
                    *t.wrong.entry(f.given.clone()).or_default() += 1;
                }
            }
        }
    }
    order.sort_by_key(|(n, _)| *n);
    order
        .into_iter()
        .map(|(number, fields)| {
            let mut rows = vec![
                tallies
                    .remove(&(number, None))
                    .unwrap_or_default()
                    .view(lang.get("batch.whole_question").to_string(), true),
            ];
            rows.extend(fields.into_iter().map(|f| {
                tallies
                    .remove(&(number, Some(f)))
                    .unwrap_or_default()
                    .view(f.to_string(), false)
            }));
            QuestionStatsView {
                number,
                heading: lang.fill("grade.question", &[("n", &number.to_string())]),
                rows,
            }
        })
        .collect()
}

/// The most common mistakes: the same kind of reason on the same question and
/// field across the class (node names and numbers differ from variant to
/// variant, the phrase does not, in any language), and fields left blank,
/// made by at least [`CLASS_FLOOR`] students. Each group shows its first
/// example, worded as a mistake, and is counted once per student.
fn common_mistakes(graded: &[&Row], lang: &Lang) -> Vec<MistakeView> {
    let mut mistakes: BTreeMap<(usize, &str, Phrase), (usize, String)> = BTreeMap::new();
    for r in graded {
        for q in &r.questions {
            for f in &q.fields {
                let blank = Reason::new(Phrase::LeftBlank);
                let mut reasons: Vec<&Reason> = Vec::new();
                if f.state == State::NotAttempted {
                    reasons.push(&blank);
                }
                if matches!(f.state, State::Wrong | State::Partial | State::Invalid) {
                    // A slip read as its rewrite is no mistake of the answer:
                    // the slips column counts it.
                    for reason in f.reasons.iter().filter(|r| r.phrase != Phrase::SlipRead) {
                        if !reasons.iter().any(|r| r.phrase == reason.phrase) {
                            reasons.push(reason);
                        }
                    }
                }
                for reason in reasons {
                    let e = mistakes
                        .entry((q.number, f.field, reason.phrase))
                        .or_insert_with(|| (0, reason.render_mistake(lang)));
                    e.0 += 1;
                }
            }
        }
    }
    let mut common: Vec<_> = mistakes
        .into_iter()
        .map(|((q, field, _), (n, example))| (n, q, field, example))
        .filter(|(n, ..)| *n >= CLASS_FLOOR)
        .collect();
    common.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(b.2)));
    common
        .into_iter()
        .take(12)
        .map(|(n, question, field, example)| MistakeView {
            share: share(n, graded.len()),
            question,
            field: field.to_string(),
            example,
        })
        .collect()
}

/// The teacher's summary: files and missing students counted apart, the score
/// distribution, per question and field the mean, the share at full marks, the
/// share left blank and the most common wrong answers, the most common
/// mistakes, the students who handed in nothing and the files that need a
/// look, all in the set's language. `students` is the roster's size (0 in
/// practice mode).
pub fn summary_view<'a>(
    rows: &[Row],
    lang: &'a Lang,
    title: &'a str,
    students: usize,
) -> SummaryView<'a> {
    let graded: Vec<&Row> = rows.iter().filter(|r| r.status == Status::Graded).collect();
    let handed: Vec<&Row> = rows.iter().filter(|r| !r.file.is_empty()).collect();
    let missing: Vec<&Row> = rows
        .iter()
        .filter(|r| r.status == Status::Missing)
        .collect();
    let mut counts: Vec<(Status, usize)> = Vec::new();
    for r in &handed {
        match counts.iter_mut().find(|(s, _)| *s == r.status) {
            Some((_, n)) => *n += 1,
            None => counts.push((r.status, 1)),
        }
    }
    counts.sort_by_key(|(s, _)| Status::ALL.iter().position(|a| a == s));
    let counts: Vec<CountView> = counts
        .into_iter()
        .map(|(s, n)| CountView {
            status: status_name(s.name(), lang),
            n,
        })
        .collect();
    let counts_text = counts
        .iter()
        .map(|c| format!("{} {}", c.n, c.status))
        .collect::<Vec<_>>()
        .join(lang.get("batch.sep"));
    let headline = if handed.is_empty() {
        lang.get("batch.no_files").to_string()
    } else if students == 0 {
        lang.fill(
            "batch.files",
            &[("n", &handed.len().to_string()), ("counts", &counts_text)],
        )
    } else {
        lang.fill(
            "batch.headline",
            &[
                ("files", &handed.len().to_string()),
                ("counts", &counts_text),
                ("missing", &missing.len().to_string()),
                ("students", &students.to_string()),
            ],
        )
    };
    let mut percents: Vec<f64> = graded
        .iter()
        .map(|r| {
            if r.max > 0.0 {
                100.0 * r.total / r.max
            } else {
                0.0
            }
        })
        .collect();
    percents.sort_by(f64::total_cmp);
    let (mean_median, bins) = if percents.is_empty() {
        (String::new(), Vec::new())
    } else {
        let mean = percents.iter().sum::<f64>() / percents.len() as f64;
        let median = percents[percents.len() / 2];
        let bins = (0..10)
            .map(|bin| {
                let (lo, hi) = (bin * 10, bin * 10 + 10);
                let n = percents
                    .iter()
                    .filter(|&&p| {
                        p >= f64::from(lo) && (p < f64::from(hi) || (bin == 9 && p <= 100.0))
                    })
                    .count();
                BinView {
                    range: format!("{lo}–{hi}"),
                    n,
                    bar: "█".repeat(n.min(60)),
                }
            })
            .collect();
        (
            lang.fill(
                "batch.mean_median",
                &[
                    ("mean", &format!("{mean:.1}")),
                    ("median", &format!("{median:.1}")),
                ],
            ),
            bins,
        )
    };
    let attention = needing_attention(rows)
        .map(|r| AttentionView {
            file: r.file.clone(),
            student: r.student.clone().unwrap_or_default(),
            name: r.name.clone().unwrap_or_default(),
            status: status_name(r.status.name(), lang),
            why: std::iter::once(&r.reason)
                .filter(|_| r.status != Status::Graded)
                .chain(&r.problems)
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join(lang.get("punct.sep")),
        })
        .collect();
    SummaryView {
        t: lang.nested(),
        language: &lang.code,
        title,
        headline,
        counts,
        graded: graded.len(),
        mean_median,
        bins,
        questions: question_stats(&graded, lang),
        col_wrong: lang.fill("batch.col_wrong", &[("n", &CLASS_FLOOR.to_string())]),
        common: lang.fill("grade.common", &[("n", &CLASS_FLOOR.to_string())]),
        mistakes: common_mistakes(&graded, lang),
        missing: missing
            .iter()
            .map(|r| StudentView {
                id: r.student.clone().unwrap_or_default(),
                name: r.name.clone().unwrap_or_default(),
            })
            .collect(),
        attention,
        adjustments: graded
            .iter()
            .flat_map(|r| {
                r.questions.iter().filter_map(move |q| {
                    let a = q.adjusted.as_ref()?;
                    Some(AdjustmentView {
                        student: r.student.clone().unwrap_or_default(),
                        question: q.number,
                        from: points(a.from),
                        to: points(q.earned),
                        reason: a.reason.clone(),
                    })
                })
            })
            .collect(),
    }
}

/// The files that need the teacher's attention: each handed-in row that does
/// not count as it stands or has problems. Students who handed in nothing are
/// counted apart. The summary lists exactly these and `grade` counts them.
pub fn needing_attention(rows: &[Row]) -> impl Iterator<Item = &Row> {
    rows.iter()
        .filter(|r| r.status != Status::Missing && r.needs_attention())
}

/// A status in the report's language (`grades.csv` keeps the stable English name).
pub fn status_name(name: &str, lang: &Lang) -> String {
    let key = format!("batch.status_{}", name.replace('-', "_"));
    if lang.has(&key) {
        lang.get(&key).to_string()
    } else {
        name.to_string()
    }
}

/// One field in feedback.
#[derive(Serialize)]
pub struct FieldView<'a> {
    /// The field.
    pub field: &'a str,
    /// "correct", "wrong", …, in the sheet's language.
    pub state: String,
    /// Points earned, for people (at most two decimals).
    pub earned: String,
    /// Points possible, for people.
    pub max: String,
    /// What the student wrote.
    pub given: &'a str,
    /// The key (empty when hidden).
    pub key: &'a str,
    /// Why points were lost.
    pub reasons: Vec<String>,
    /// Right and wrong items, for set answers.
    pub tally: Option<String>,
}

/// One question in feedback.
#[derive(Serialize)]
pub struct QuestionView<'a> {
    /// "Question 2".
    pub heading: String,
    /// Points earned, for people.
    pub earned: String,
    /// Points possible, for people.
    pub max: String,
    /// The teacher's adjustment by hand, in words (empty when none).
    pub adjusted: String,
    /// The fields.
    pub fields: Vec<FieldView<'a>>,
}

/// A student's feedback.
#[derive(Serialize)]
pub struct FeedbackView<'a> {
    /// String table.
    pub t: &'a serde_json::Value,
    /// The row.
    pub row: &'a Row,
    /// The status, in the sheet's language.
    pub status: String,
    /// Whether the key is hidden.
    pub hide_key: bool,
    /// Whether the file counts (`graded`): only then is there a total.
    pub counts: bool,
    /// Whether its answers were scored (a duplicate's, a name mismatch's),
    /// counted or not: their points are shown for comparison.
    pub scored: bool,
    /// Points earned, for people.
    pub total: String,
    /// Points possible, for people.
    pub max: String,
    /// The questions.
    pub questions: Vec<QuestionView<'a>>,
    /// The hints taken (`check --hint N`), after the questions.
    pub hints: Vec<HintView>,
    /// How many hints were taken, in a sentence; empty when none were.
    pub hints_taken: String,
}

/// One hint taken, as `check --hint N` shows it.
#[derive(Serialize)]
pub struct HintView {
    /// "Question 1 · Hint 2".
    pub heading: String,
    /// The step asked.
    pub question: String,
    /// Its answer; empty where the question has no hint of that number
    /// (then `question` says so).
    pub answer: String,
}

impl HintView {
    /// Hint `n` (1-based) of question `number`, one of its key's `hints`, as
    /// `check --hint N` and the practice page word it; past the last, a
    /// sentence that says how many there are.
    pub fn of(number: usize, n: usize, hints: &[crate::exercise::Hint], lang: &Lang) -> HintView {
        let heading = format!(
            "{} · {}",
            lang.fill("hint.question", &[("question", &number.to_string())]),
            lang.fill("hint.heading", &[("number", &n.to_string())])
        );
        match n.checked_sub(1).and_then(|i| hints.get(i)) {
            Some(h) => HintView {
                heading,
                question: h.question.render(lang, false),
                answer: h.answer.render(lang, false),
            },
            None => HintView {
                heading,
                question: lang.fill("hint.none", &[("count", &hints.len().to_string())]),
                answer: String::new(),
            },
        }
    }

    /// "2 hints taken."
    pub fn taken(count: usize, lang: &Lang) -> String {
        match count {
            1 => lang.get("hint.taken_one").to_string(),
            count => lang.fill("hint.taken", &[("count", &count.to_string())]),
        }
    }
}

impl FeedbackView<'_> {
    /// The feedback with hint `n` (1-based) of each of `questions` (number,
    /// its key's hints) shown after it, and counted.
    pub fn with_hints(
        mut self,
        n: usize,
        questions: &[(usize, Vec<crate::exercise::Hint>)],
        lang: &Lang,
    ) -> Self {
        let mut taken = 0;
        for (number, hints) in questions {
            taken += usize::from((1..=hints.len()).contains(&n));
            self.hints.push(HintView::of(*number, n, hints, lang));
        }
        self.hints_taken = HintView::taken(taken, lang);
        self
    }

    /// The feedback of a sheet answered with `count` hints taken (the
    /// practice page's), which says so; nothing when none were.
    pub fn with_hints_taken(mut self, count: usize, lang: &Lang) -> Self {
        if count > 0 {
            self.hints_taken = HintView::taken(count, lang);
        }
        self
    }
}

/// Points for people: `1.33`, `4`, `2.5`.
pub fn points(v: f64) -> String {
    let s = format!("{:.2}", super::score::round2(v));
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The view a feedback template renders.
pub fn feedback_view<'a>(row: &'a Row, lang: &'a Lang, hide_key: bool) -> FeedbackView<'a> {
    let state = |s: State| {
        lang.get(match s {
            State::Correct => "grade.correct",
            State::Partial => "grade.partial",
            State::Wrong => "grade.wrong",
            State::NotAttempted => "grade.not_attempted",
            State::Invalid => "grade.invalid",
        })
        .to_string()
    };
    FeedbackView {
        t: lang.nested(),
        row,
        status: status_name(row.status.name(), lang),
        hide_key,
        counts: row.status == Status::Graded,
        scored: row.status.scored(),
        total: points(row.total),
        max: points(row.max),
        questions: row
            .questions
            .iter()
            .map(|q| QuestionView {
                heading: lang.fill("grade.question", &[("n", &q.number.to_string())]),
                earned: points(q.earned),
                max: points(q.max),
                adjusted: q.adjusted.as_ref().map_or(String::new(), |a| {
                    lang.fill(
                        "grade.adjusted",
                        &[
                            ("from", &points(a.from)),
                            ("to", &points(q.earned)),
                            ("reason", &a.reason),
                        ],
                    )
                }),
                fields: q
                    .fields
                    .iter()
                    .map(|f| FieldView {
                        field: f.field,
                        state: state(f.state),
                        earned: points(f.earned),
                        max: points(f.max),
                        given: &f.given,
                        key: &f.key,
                        reasons: f.reasons.iter().map(|r| r.render(lang, hide_key)).collect(),
                        tally: f.tally.as_ref().map(|t| t.render(lang, hide_key)),
                    })
                    .collect(),
            })
            .collect(),
        hints: Vec::new(),
        hints_taken: String::new(),
    }
}

#[cfg(test)]
mod tests {
    use crate::output::spreadsheet_safe;

    #[test]
    fn formulas_from_student_files_stay_text() {
        assert_eq!(spreadsheet_safe("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(spreadsheet_safe("-3"), "-3");
        assert_eq!(spreadsheet_safe("s001"), "s001");
    }
}
