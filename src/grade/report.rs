//! What grading writes: the grade table, a summary for the teacher, and the
//! views of per-student feedback.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use super::batch::{Row, Status};
use super::items::{self, ItemStats, Measures};
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

/// One question's or field's item analysis, as Moodle's quiz statistics
/// report gives it ([`items`]); "—" where a figure is not defined.
#[derive(Serialize)]
pub struct ItemView {
    /// The field's name, or "whole question".
    pub label: String,
    /// Whether this is the whole question.
    pub whole: bool,
    /// Facility index: mean points as a share of the most (`62 %`).
    pub facility: String,
    /// Standard deviation of the points, as a share of the most.
    pub sd: String,
    /// Discrimination index: correlation with the rest of the test, in %.
    pub discrimination: String,
    /// Discriminative efficiency, in %.
    pub efficiency: String,
    /// What stands out, in words (empty when nothing does).
    pub flag: String,
}

/// How one generator measure of a question's variants goes with its points.
#[derive(Serialize)]
pub struct MeasureView {
    /// The measure (`evaluated`, `deep_cuts`, …).
    pub name: &'static str,
    /// Pearson's r with the question's points (`-0.43`), "—" when the
    /// measure (or the points) did not vary.
    pub r: String,
    /// How many graded files it is over.
    pub n: usize,
    /// Its smallest and largest value over them (`4–9`).
    pub range: String,
}

/// One question's item analysis: the question, then its fields.
#[derive(Serialize)]
pub struct ItemAnalysisView {
    /// Its number.
    pub number: usize,
    /// "Question 2".
    pub heading: String,
    /// The whole question, then its fields.
    pub items: Vec<ItemView>,
    /// Its generator's measures.
    pub measures: Vec<MeasureView>,
    /// The items as bars, and the measure that goes most with the points
    /// against them, as inline SVG (HTML only).
    pub plot: String,
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
    /// The whole test in one line: mean, SD, Cronbach's α.
    pub test_stats: String,
    /// Per question and field, the item statistics and generator measures.
    pub items: Vec<ItemAnalysisView>,
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

/// A share in whole per cent, "—" when not defined.
fn percent(v: Option<f64>, lang: &Lang) -> String {
    match v {
        // `-0.4` is 0, not "-0".
        Some(v) if v.round() == 0.0 => "0 %".into(),
        Some(v) => format!("{v:.0} %"),
        None => lang.get("batch.none").to_string(),
    }
}

/// Below this discrimination index (%) an item discriminates weakly (see
/// docs/grading.md, "Item analysis").
pub const WEAK_DISCRIMINATION: f64 = 30.0;
/// At or above this facility (%) an item is very easy; at or below
/// 100 − this, very hard.
pub const EXTREME_FACILITY: f64 = 95.0;

/// What stands out about an item, in words; judged on the figures as
/// shown (whole per cent), so that a flag never contradicts its row.
fn item_flag(stats: &ItemStats, lang: &Lang) -> String {
    let mut flags = Vec::new();
    match stats.discrimination.map(f64::round) {
        Some(d) if d < 0.0 => flags.push(lang.get("batch.item_negative")),
        Some(d) if d < WEAK_DISCRIMINATION => flags.push(lang.get("batch.item_weak")),
        _ => {}
    }
    match stats.facility.map(f64::round) {
        Some(f) if f >= EXTREME_FACILITY => flags.push(lang.get("batch.item_easy")),
        Some(f) if f <= 100.0 - EXTREME_FACILITY => flags.push(lang.get("batch.item_hard")),
        _ => {}
    }
    flags.join(lang.get("punct.sep"))
}

/// A measure's (value, question's points as % of the most), one per file.
type MeasurePoints = (&'static str, Vec<(u64, f64)>);

/// The measure a question's plot draws against its points.
struct Scatter<'a> {
    name: &'a str,
    points: &'a [(u64, f64)],
    r: &'a str,
}

/// One item's marks, each with its file's total.
#[derive(Default)]
struct ItemMarks {
    label: String,
    whole: bool,
    max: f64,
    marks: Vec<f64>,
    totals: Vec<f64>,
}

impl ItemMarks {
    fn push(&mut self, max: f64, mark: f64, total: f64) {
        self.max = max;
        self.marks.push(mark);
        self.totals.push(total);
    }
}

/// Per question (whole, then per field), the item statistics over the
/// graded files, and how each of the question's generator measures goes
/// with its points; `measures` is parallel to `graded`.
fn item_analysis(
    graded: &[&Row],
    measures: &[Option<&Measures>],
    lang: &Lang,
) -> Vec<ItemAnalysisView> {
    let mut questions: BTreeMap<usize, Vec<ItemMarks>> = BTreeMap::new();
    // Per question, each measure's (value, points as % of the most).
    let mut by_measure: BTreeMap<usize, Vec<MeasurePoints>> = BTreeMap::new();
    for (i, r) in graded.iter().enumerate() {
        for q in &r.questions {
            let items = questions.entry(q.number).or_insert_with(|| {
                vec![ItemMarks {
                    label: lang.get("batch.whole_question").to_string(),
                    whole: true,
                    ..ItemMarks::default()
                }]
            });
            items[0].push(q.max, q.earned, r.total);
            for f in &q.fields {
                let at = match items.iter().position(|m| !m.whole && m.label == f.field) {
                    Some(at) => at,
                    None => {
                        items.push(ItemMarks {
                            label: f.field.to_string(),
                            ..ItemMarks::default()
                        });
                        items.len() - 1
                    }
                };
                items[at].push(f.max, f.earned, r.total);
            }
            let Some(values) = measures
                .get(i)
                .copied()
                .flatten()
                .and_then(|m| m.get(&q.number))
            else {
                continue;
            };
            let share = if q.max > 0.0 {
                100.0 * q.earned / q.max
            } else {
                0.0
            };
            let seen = by_measure.entry(q.number).or_default();
            for &(name, value) in values {
                match seen.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, points)) => points.push((value, share)),
                    None => seen.push((name, vec![(value, share)])),
                }
            }
        }
    }
    questions
        .into_iter()
        .map(|(number, marks)| {
            let stats: Vec<(String, bool, ItemStats)> = marks
                .into_iter()
                .map(|m| {
                    let stats = ItemStats::of(&m.marks, &m.totals, m.max);
                    (m.label, m.whole, stats)
                })
                .collect();
            let seen = by_measure.remove(&number).unwrap_or_default();
            let mut measures = Vec::new();
            let mut strongest: Option<(f64, usize)> = None;
            for (at, (name, points)) in seen.iter().enumerate() {
                let x: Vec<f64> = points.iter().map(|p| p.0 as f64).collect();
                let y: Vec<f64> = points.iter().map(|p| p.1).collect();
                let r = items::pearson(&x, &y);
                if let Some(r) = r
                    && strongest.is_none_or(|(s, _)| r.abs() > s)
                {
                    strongest = Some((r.abs(), at));
                }
                let lo = points.iter().map(|p| p.0).min().unwrap_or(0);
                let hi = points.iter().map(|p| p.0).max().unwrap_or(0);
                measures.push(MeasureView {
                    name,
                    r: r.map_or_else(
                        || lang.get("batch.none").to_string(),
                        // `-0.001` is 0.00, not "-0.00".
                        |r| format!("{:.2}", if r.abs() < 0.005 { 0.0 } else { r }),
                    ),
                    n: points.len(),
                    range: if lo == hi {
                        lo.to_string()
                    } else {
                        format!("{lo}–{hi}")
                    },
                });
            }
            let scatter = strongest.map(|(_, at)| Scatter {
                name: seen[at].0,
                points: &seen[at].1,
                r: &measures[at].r,
            });
            let plot = item_plot(&stats, scatter, lang);
            ItemAnalysisView {
                number,
                heading: lang.fill("grade.question", &[("n", &number.to_string())]),
                items: stats
                    .iter()
                    .map(|(label, whole, s)| ItemView {
                        label: label.clone(),
                        whole: *whole,
                        facility: percent(s.facility, lang),
                        sd: percent(s.sd, lang),
                        discrimination: percent(s.discrimination, lang),
                        efficiency: percent(s.efficiency, lang),
                        flag: item_flag(s, lang),
                    })
                    .collect(),
                measures,
                plot,
            }
        })
        .collect()
}

/// The whole test in one line: mean and SD of the scores (% of the most),
/// Cronbach's α over the questions.
fn test_stats(graded: &[&Row], lang: &Lang) -> String {
    let percents: Vec<f64> = graded.iter().map(|r| r.percent()).collect();
    let Some((mean, sd)) = items::mean_sd(&percents) else {
        return String::new();
    };
    let questions = graded.first().map_or(0, |r| r.questions.len());
    let alpha = if graded.iter().all(|r| r.questions.len() == questions) {
        let by_question: Vec<Vec<f64>> = (0..questions)
            .map(|i| graded.iter().map(|r| r.questions[i].earned).collect())
            .collect();
        items::cronbach_alpha(&by_question)
    } else {
        None
    };
    let none = lang.get("batch.none");
    lang.fill(
        "batch.test_stats",
        &[
            ("mean", &format!("{mean:.1}")),
            (
                "sd",
                &sd.map_or_else(|| none.to_string(), |sd| format!("{sd:.1} %")),
            ),
            (
                "alpha",
                &alpha.map_or_else(|| none.to_string(), |a| format!("{a:.2}")),
            ),
            ("n", &graded.len().to_string()),
        ],
    )
}

/// A question's item analysis drawn for the teacher: per item a bar of its
/// facility (0–100 %) and one of its discrimination (−100–100 %, with the
/// weak line at 30 %); beside them, when a measure varied, each file's
/// points (% of the most) against the measure that goes most with them.
/// Grey and black only, so that it prints.
fn item_plot(
    items: &[(String, bool, ItemStats)],
    scatter: Option<Scatter<'_>>,
    lang: &Lang,
) -> String {
    use std::fmt::Write;
    let esc = crate::draw::svg_escape;
    const ROW: f64 = 16.0;
    const TOP: f64 = 22.0;
    const LABEL: f64 = 110.0;
    const PANEL: f64 = 140.0;
    const GAP: f64 = 36.0;
    let (f0, d0) = (LABEL, LABEL + PANEL + GAP);
    let dz = d0 + PANEL / 2.0;
    let bars_w = d0 + PANEL + 10.0;
    let bars_h = TOP + ROW * items.len() as f64 + 16.0;
    let (sc_w, sc_h) = (230.0, 170.0);
    let width = if scatter.is_some() {
        bars_w + 20.0 + sc_w
    } else {
        bars_w
    };
    let height = if scatter.is_some() {
        bars_h.max(sc_h)
    } else {
        bars_h
    };
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" class="item-plot" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-size="10" font-family="sans-serif">"##
    );
    let _ = write!(
        s,
        r##"<text x="{f0}" y="12">{}</text><text x="{d0}" y="12">{}</text>"##,
        esc(lang.get("batch.col_facility")),
        esc(lang.get("batch.col_discrimination"))
    );
    let bottom = TOP + ROW * items.len() as f64;
    // Gridlines: facility 0, 50, 100 %; discrimination −100, 0, 30, 100 %.
    for (x, dash) in [
        (f0, false),
        (f0 + PANEL / 2.0, true),
        (f0 + PANEL, true),
        (d0, true),
        (dz, false),
        (dz + PANEL / 2.0 * WEAK_DISCRIMINATION / 100.0, true),
        (d0 + PANEL, true),
    ] {
        let _ = write!(
            s,
            r##"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{bottom:.1}" stroke="{}" stroke-width="0.8"{}/>"##,
            TOP - 4.0,
            if dash { "#999" } else { "#333" },
            if dash {
                r#" stroke-dasharray="3 2""#
            } else {
                ""
            }
        );
    }
    for (x, text) in [
        (f0, "0"),
        (f0 + PANEL, "100"),
        (d0, "−100"),
        (dz, "0"),
        (dz + PANEL / 2.0 * WEAK_DISCRIMINATION / 100.0, "30"),
        (d0 + PANEL, "100"),
    ] {
        let _ = write!(
            s,
            r##"<text x="{x:.1}" y="{:.1}" text-anchor="middle" fill="#444" font-size="8">{text}</text>"##,
            bottom + 11.0
        );
    }
    for (i, (label, whole, st)) in items.iter().enumerate() {
        let y = TOP + ROW * i as f64;
        let _ = write!(
            s,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end"{}>{}</text>"##,
            LABEL - 6.0,
            y + 11.0,
            if *whole { r#" font-weight="bold""# } else { "" },
            esc(label)
        );
        if let Some(f) = st.facility {
            let w = PANEL * f.clamp(0.0, 100.0) / 100.0;
            let _ = write!(
                s,
                r##"<rect x="{f0:.1}" y="{:.1}" width="{w:.1}" height="{:.1}" fill="#888"/>"##,
                y + 2.0,
                ROW - 5.0
            );
        }
        match st.discrimination {
            Some(d) => {
                let w = PANEL / 2.0 * d.clamp(-100.0, 100.0) / 100.0;
                let (x, w) = if w < 0.0 { (dz + w, -w) } else { (dz, w) };
                let fill = if d >= WEAK_DISCRIMINATION {
                    "#222"
                } else {
                    "#bbb"
                };
                let _ = write!(
                    s,
                    r##"<rect x="{x:.1}" y="{:.1}" width="{w:.1}" height="{:.1}" fill="{fill}" stroke="#222" stroke-width="0.6"/>"##,
                    y + 2.0,
                    ROW - 5.0
                );
            }
            None => {
                let _ = write!(
                    s,
                    r##"<text x="{:.1}" y="{:.1}" fill="#444">{}</text>"##,
                    dz + 4.0,
                    y + 11.0,
                    esc(lang.get("batch.none"))
                );
            }
        }
    }
    if let Some(Scatter { name, points, r }) = scatter {
        // Axes: the measure's range (x), 0–100 % of the question's points
        // (y), inset so that a dot at an end is not cut by the frame.
        const PAD: f64 = 6.0;
        let (x0, y0) = (bars_w + 50.0, 20.0);
        let (pw, ph) = (sc_w - 60.0, sc_h - 60.0);
        let lo = points.iter().map(|p| p.0).min().unwrap_or(0);
        let hi = points.iter().map(|p| p.0).max().unwrap_or(0).max(lo + 1);
        let _ = write!(
            s,
            r##"<text x="{:.1}" y="12">{}</text>"##,
            x0 - 40.0,
            esc(&lang.fill("batch.scatter_title", &[("measure", name), ("r", r)]))
        );
        let _ = write!(
            s,
            r##"<rect x="{x0:.1}" y="{y0:.1}" width="{pw:.1}" height="{ph:.1}" fill="none" stroke="#333" stroke-width="0.8"/>"##
        );
        for (x, y, anchor, text) in [
            (x0 - 4.0, y0 + PAD + 3.0, "end", "100 %".to_string()),
            (x0 - 4.0, y0 + ph - PAD + 3.0, "end", "0 %".to_string()),
            (x0 + PAD, y0 + ph + 12.0, "middle", lo.to_string()),
            (x0 + pw - PAD, y0 + ph + 12.0, "middle", hi.to_string()),
        ] {
            let _ = write!(
                s,
                r##"<text x="{x:.1}" y="{y:.1}" text-anchor="{anchor}" fill="#444" font-size="8">{}</text>"##,
                esc(&text)
            );
        }
        let _ = write!(
            s,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
            x0 + pw / 2.0,
            y0 + ph + 26.0,
            esc(name)
        );
        // Files on the same spot (a measure takes few values) make one dot,
        // its area growing with their number.
        let mut spots: BTreeMap<(u64, i64), usize> = BTreeMap::new();
        for &(value, share) in points {
            *spots.entry((value, share.round() as i64)).or_default() += 1;
        }
        for ((value, share), n) in spots {
            let x =
                x0 + PAD + (pw - 2.0 * PAD) * (value.saturating_sub(lo)) as f64 / (hi - lo) as f64;
            let y = y0 + PAD + (ph - 2.0 * PAD) * (1.0 - (share as f64).clamp(0.0, 100.0) / 100.0);
            let radius = (2.5 * (n as f64).sqrt()).min(PAD * 1.5);
            let _ = write!(
                s,
                r##"<circle cx="{x:.1}" cy="{y:.1}" r="{radius:.1}" fill="#222" fill-opacity="0.45"><title>{n}</title></circle>"##
            );
        }
    }
    s.push_str("</svg>");
    s
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
/// practice mode). `measures` gives the generator measures of each row's
/// variant ([`items::measures`], parallel to `rows`; shorter when unknown).
pub fn summary_view<'a>(
    rows: &[Row],
    measures: &[Measures],
    lang: &'a Lang,
    title: &'a str,
    students: usize,
) -> SummaryView<'a> {
    let graded: Vec<&Row> = rows.iter().filter(|r| r.status == Status::Graded).collect();
    let graded_measures: Vec<Option<&Measures>> = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| r.status == Status::Graded)
        .map(|(i, _)| measures.get(i))
        .collect();
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
    let mut percents: Vec<f64> = graded.iter().map(|r| r.percent()).collect();
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
        test_stats: test_stats(&graded, lang),
        items: item_analysis(&graded, &graded_measures, lang),
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
