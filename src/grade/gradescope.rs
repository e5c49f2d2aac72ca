//! Gradescope's autograder results: `results.json` as the "Autograder
//! Specifications" page documents it (gradescope-autograders.readthedocs.io,
//! `specs`; source gradescope/autograder_samples `docs/specs.md`). One test
//! per answer field, scored, whose output never shows the key; and one
//! test without a score that gives the whole feedback with the key, shown
//! only when the teacher chooses (after the due date by default).

use serde::{Deserialize, Serialize};

use super::batch::{Row, Status};
use super::report::{feedback_view, points};
use super::score::cents;
use crate::lang::Lang;

/// When Gradescope shows a test: the values the specification lists.
pub const VISIBILITIES: [&str; 4] = ["hidden", "after_due_date", "after_published", "visible"];

/// `results.json`.
#[derive(Serialize, Debug)]
pub struct Results {
    /// The total: the counted points, or 0 when the sheet does not count.
    pub score: f64,
    /// What the student reads first.
    pub output: String,
    /// Stdout is the autograder's, not the student's.
    pub stdout_visibility: &'static str,
    /// One per field, then the worked feedback.
    pub tests: Vec<Test>,
}

/// One entry of `tests`.
#[derive(Serialize, Debug)]
pub struct Test {
    /// `q1 value`.
    pub name: String,
    /// `1.1`: the question and the field's place.
    pub number: String,
    /// Points earned (absent for the feedback, which scores nothing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// Points possible.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_score: Option<f64>,
    /// What the student reads (plain text).
    pub output: String,
    /// When it is shown.
    pub visibility: String,
}

/// What `submission_metadata.json` says of the submitters (the
/// specification's `submission_metadata` page: `users` with `email`, `id`,
/// `name`; `sid` is read when present, though not documented).
#[derive(Deserialize, Debug, Default)]
pub struct Metadata {
    /// The submitters (several for a group submission).
    #[serde(default)]
    pub users: Vec<User>,
}

/// A submitter.
#[derive(Deserialize, Debug, Default)]
pub struct User {
    /// Their email.
    #[serde(default)]
    pub email: Option<String>,
    /// Their name.
    #[serde(default)]
    pub name: Option<String>,
    /// Their student id, where the course set one.
    #[serde(default)]
    pub sid: Option<String>,
}

impl Metadata {
    /// Whether the sheet's student is one of the submitters: their `sid`, or
    /// their email before the `@`, is the sheet's id (any case). `None` when
    /// the metadata names nobody to compare with.
    pub fn submitted_by(&self, student: &str) -> Option<bool> {
        let ids: Vec<&str> = self
            .users
            .iter()
            .flat_map(|u| {
                let local = u.email.as_deref().and_then(|e| e.split('@').next());
                [u.sid.as_deref(), local]
            })
            .flatten()
            .filter(|s| !s.is_empty())
            .collect();
        (!ids.is_empty()).then(|| ids.iter().any(|id| id.eq_ignore_ascii_case(student)))
    }

    /// The submitters, for a message: `Ann Lee <ann@x.edu>`.
    pub fn who(&self) -> String {
        self.users
            .iter()
            .map(|u| match (&u.name, &u.email) {
                (Some(n), Some(e)) => format!("{n} <{e}>"),
                (Some(n), None) => n.clone(),
                (None, Some(e)) => e.clone(),
                (None, None) => "?".into(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The results of one graded sheet: `hidden` graded with the key hidden,
/// `worked` the whole feedback (the key's `feedback.txt`), shown at
/// `visibility`; `notes` go before the headline.
pub fn results(
    hidden: &Row,
    worked: String,
    visibility: &str,
    notes: &[String],
    lang: &Lang,
) -> Results {
    let view = feedback_view(hidden, lang, true);
    let counts = hidden.status == Status::Graded;
    let mut tests = Vec::new();
    if hidden.status.scored() {
        for (q, score) in view.questions.iter().zip(&hidden.questions) {
            let number = score.number;
            let exact: Vec<f64> = score.fields.iter().map(|f| f.max).collect();
            let max = apportion(&exact, cents(score.max));
            let earned: Vec<i64> = score
                .fields
                .iter()
                .zip(&max)
                .map(|(f, &m)| {
                    if counts {
                        earned_share(f.earned, f.max, m)
                    } else {
                        0
                    }
                })
                .collect();
            for (i, f) in q.fields.iter().enumerate() {
                let colon = lang.get("punct.colon");
                let mut output = format!("{}{colon}{} / {}", f.state, f.earned, f.max);
                if !f.given.is_empty() {
                    output.push_str(&format!(
                        "\n{}{colon}{}",
                        lang.get("grade.you_wrote"),
                        f.given
                    ));
                }
                for line in f.reasons.iter().chain(&f.tally) {
                    output.push_str(&format!("\n- {line}"));
                }
                tests.push(Test {
                    name: format!("q{number} {}", f.field),
                    number: format!("{number}.{}", i + 1),
                    // A sheet that does not count as it stands scores nothing.
                    score: Some(earned[i] as f64 / 100.0),
                    max_score: Some(max[i] as f64 / 100.0),
                    output,
                    visibility: "visible".into(),
                });
            }
        }
    }
    tests.push(Test {
        name: lang.get("grade.gradescope_worked").to_string(),
        number: String::new(),
        score: None,
        max_score: None,
        output: worked,
        visibility: visibility.to_string(),
    });
    let mut output: Vec<String> = notes.to_vec();
    output.push(if counts {
        lang.fill(
            "grade.gradescope_total",
            &[
                ("total", &points(hidden.total)),
                ("max", &points(hidden.max)),
            ],
        )
    } else {
        super::lms::not_counted(hidden, lang)
    });
    output.extend(hidden.problems.iter().map(|p| format!("- {p}")));
    Results {
        // What Gradescope would add up (a full sheet's is the grade table's total).
        score: tests
            .iter()
            .filter_map(|t| t.score)
            .map(|s| (s * 100.0).round() as i64)
            .sum::<i64>() as f64
            / 100.0,
        output: output.join("\n"),
        stdout_visibility: "hidden",
        tests,
    }
}

/// A question's field points in hundredths that add up to `total`, as
/// Gradescope adds the tests (three fields of 4/3 points are 1.34, 1.33 and
/// 1.33): each its floor, then the hundredths left over to the largest
/// remainders, first first.
fn apportion(values: &[f64], total: i64) -> Vec<i64> {
    let mut out: Vec<i64> = values
        .iter()
        .map(|v| (v * 100.0 + 1e-6).floor() as i64)
        .collect();
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| {
        let rest = |i: usize| values[i] * 100.0 - out[i] as f64;
        rest(b).total_cmp(&rest(a)).then(a.cmp(&b))
    });
    let left = (total - out.iter().sum::<i64>()).max(0) as usize;
    for &i in order.iter().cycle().take(left.min(values.len() * 2)) {
        out[i] += 1;
    }
    out
}

/// A field's earned hundredths within its share `max` of the question: all
/// of it when the field is right, none when it earned nothing, else its
/// points rounded (at most a hundredth off the grade table).
fn earned_share(earned: f64, exact_max: f64, max: i64) -> i64 {
    if earned >= exact_max - 1e-9 {
        max
    } else {
        ((earned * 100.0).round() as i64).clamp(0, max)
    }
}

#[cfg(test)]
mod tests {
    use super::{apportion, earned_share};

    #[test]
    fn shares_add_up_to_the_question_and_stay_within_their_field() {
        let third = 4.0 / 3.0;
        let max = apportion(&[third; 3], 400);
        assert_eq!(max, [134, 133, 133]);
        assert_eq!(apportion(&[2.5, 2.5], 500), [250, 250]);
        assert_eq!(apportion(&[], 0), Vec::<i64>::new());
        // Right fields earn their whole share, wrong ones nothing.
        let earned: Vec<i64> = [0.0, third, third]
            .iter()
            .zip(&max)
            .map(|(&e, &m)| earned_share(e, third, m))
            .collect();
        assert_eq!(earned, [0, 133, 133]);
        assert_eq!(earned_share(third / 2.0, third, 133), 67);
    }
}
