//! What grading writes: the grade table, a summary for the teacher, and the
//! views of per-student feedback.

use std::collections::BTreeMap;

use serde::Serialize;

use super::batch::{Row, Status};
use super::score::State;
use crate::lang::Lang;
use crate::reason::{Phrase, Reason};

/// The grade table as CSV (UTF-8): one row per submission, one column per question.
pub fn grades_csv(rows: &[Row]) -> String {
    let questions = rows.iter().map(|r| r.questions.len()).max().unwrap_or(0);
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header = vec![
        "file".to_string(),
        "student".into(),
        "variant".into(),
        "status".into(),
    ];
    header.extend((1..=questions).map(|n| format!("q{n}")));
    header.extend([
        "total".into(),
        "max".into(),
        "reason".into(),
        "problems".into(),
        "feedback".into(),
    ]);
    w.write_record(&header).expect("writing to memory");
    for r in rows {
        let mut record = vec![
            r.file.clone(),
            r.student.clone().unwrap_or_default(),
            r.variant.clone().unwrap_or_default(),
            r.status.name().to_string(),
        ];
        let graded = matches!(r.status, Status::Graded | Status::Duplicate);
        record.extend((0..questions).map(|i| {
            if graded {
                r.questions
                    .get(i)
                    .map(|q| points(q.earned))
                    .unwrap_or_default()
            } else {
                String::new()
            }
        }));
        record.push(if graded {
            points(r.total)
        } else {
            String::new()
        });
        record.push(if graded { points(r.max) } else { String::new() });
        record.push(r.reason.clone());
        record.push(r.problems.join("; "));
        record.push(r.feedback.clone());
        let record: Vec<String> = record.iter().map(|c| spreadsheet_safe(c)).collect();
        w.write_record(&record).expect("writing to memory");
    }
    String::from_utf8(w.into_inner().expect("writing to memory")).expect("CSV of UTF-8 strings")
}

/// A cell a spreadsheet will not run as a formula: text from students' files
/// that starts with `=`, `+`, `-` or `@` gets a leading apostrophe (numbers are
/// left alone).
fn spreadsheet_safe(cell: &str) -> String {
    let risky = cell.starts_with(['=', '+', '-', '@', '\t', '\r']) && cell.parse::<f64>().is_err();
    if risky {
        format!("'{cell}")
    } else {
        cell.to_string()
    }
}

/// The teacher's summary (Markdown): counts, score distribution, most common mistakes.
pub fn summary(rows: &[Row], lang: &Lang) -> String {
    let graded: Vec<&Row> = rows.iter().filter(|r| r.status == Status::Graded).collect();
    let mut out = format!("# {}\n\n", lang.get("grade.summary"));
    let mut by_status: BTreeMap<&str, usize> = BTreeMap::new();
    for r in rows {
        *by_status.entry(r.status.name()).or_default() += 1;
    }
    let counts: Vec<String> = by_status
        .iter()
        .map(|(s, n)| format!("{n} {}", status_name(s, lang)))
        .collect();
    out.push_str(&lang.fill(
        "batch.files",
        &[
            ("n", &rows.len().to_string()),
            ("counts", &counts.join(", ")),
        ],
    ));
    out.push_str("\n\n");
    if !graded.is_empty() {
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
        let mean = percents.iter().sum::<f64>() / percents.len() as f64;
        let median = percents[percents.len() / 2];
        out.push_str(&format!(
            "## {}\n\n{}\n\n| % | n |\n|---|---|\n",
            lang.get("grade.distribution"),
            lang.fill(
                "batch.mean_median",
                &[
                    ("mean", &format!("{mean:.1}")),
                    ("median", &format!("{median:.1}"))
                ],
            )
        ));
        for bin in 0..10 {
            let (lo, hi) = (bin * 10, bin * 10 + 10);
            let n = percents
                .iter()
                .filter(|&&p| p >= f64::from(lo) && (p < f64::from(hi) || (bin == 9 && p <= 100.0)))
                .count();
            out.push_str(&format!("| {lo}–{hi} | {n} {} |\n", "█".repeat(n.min(60))));
        }
        // Mistakes: the same kind of reason on the same question and field
        // across the class (node names and numbers differ from variant to
        // variant, the phrase does not, in any language), and fields left blank.
        // Each group shows its first example, counted once per student.
        let mut mistakes: BTreeMap<(usize, &str, Phrase), (usize, String)> = BTreeMap::new();
        for r in &graded {
            for q in &r.questions {
                for f in &q.fields {
                    let mut phrases: Vec<(Phrase, Option<&Reason>)> = Vec::new();
                    if f.state == State::NotAttempted {
                        phrases.push((Phrase::LeftBlank, None));
                    }
                    if matches!(f.state, State::Wrong | State::Partial | State::Invalid) {
                        for reason in &f.reasons {
                            if !phrases.iter().any(|(p, _)| *p == reason.phrase) {
                                phrases.push((reason.phrase, Some(reason)));
                            }
                        }
                    }
                    for (phrase, example) in phrases {
                        let e = mistakes
                            .entry((q.number, f.field, phrase))
                            .or_insert_with(|| {
                                let text = match example {
                                    Some(r) => r.render(lang, false),
                                    None => lang.get(phrase.key()).to_string(),
                                };
                                (0, text)
                            });
                        e.0 += 1;
                    }
                }
            }
        }
        let mut common: Vec<_> = mistakes
            .into_iter()
            .map(|((q, field, _), (n, example))| (n, q, field, example))
            .collect();
        common.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(b.2)));
        out.push_str(&format!("\n## {}\n\n", lang.get("grade.common")));
        for (n, q, field, reason) in common.into_iter().take(12) {
            out.push_str(&format!(
                "- {:.0} % (q{q} `{field}`): {reason}\n",
                100.0 * n as f64 / graded.len() as f64
            ));
        }
    }
    let attention: Vec<&Row> = rows.iter().filter(|r| r.needs_attention()).collect();
    if !attention.is_empty() {
        out.push_str(&format!("\n## {}\n\n", lang.get("grade.problems")));
        for r in attention {
            let why = if r.status == Status::Graded {
                r.problems.join("; ")
            } else {
                r.reason.clone()
            };
            out.push_str(&format!(
                "- `{}`: {} — {why}\n",
                r.file,
                status_name(r.status.name(), lang)
            ));
        }
    }
    out
}

/// A status in the report's language (`grades.csv` keeps the stable English name).
fn status_name(name: &str, lang: &Lang) -> String {
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
    /// Status name.
    pub status: &'static str,
    /// Whether the key is hidden.
    pub hide_key: bool,
    /// Points earned, for people.
    pub total: String,
    /// Points possible, for people.
    pub max: String,
    /// The questions.
    pub questions: Vec<QuestionView<'a>>,
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
        status: row.status.name(),
        hide_key,
        total: points(row.total),
        max: points(row.max),
        questions: row
            .questions
            .iter()
            .map(|q| QuestionView {
                heading: lang.fill("grade.question", &[("n", &q.number.to_string())]),
                earned: points(q.earned),
                max: points(q.max),
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
    }
}

#[cfg(test)]
mod tests {
    use super::spreadsheet_safe;

    #[test]
    fn formulas_from_student_files_stay_text() {
        assert_eq!(spreadsheet_safe("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(spreadsheet_safe("-3"), "-3");
        assert_eq!(spreadsheet_safe("s001"), "s001");
    }
}
