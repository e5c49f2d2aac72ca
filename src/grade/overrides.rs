//! A teacher's adjustments by hand (`grade --overrides FILE`): a CSV of
//! `student,question,points,reason` rows, applied after grading. `points` is
//! the question's new score (`5`), or a change to it (`+1`, `-0.5`). Every
//! adjustment is shown where the score is: the feedback, the CSVs (whose
//! totals include it) and the summary.

use std::ops::Range;

use serde::Serialize;

use super::batch::{Row, Status};
use super::score::round2;
use crate::input::{InputError, Source};

/// One row of an overrides file.
#[derive(Clone, Debug, PartialEq)]
pub struct Override {
    /// The student id, as the grade table spells it (any case).
    pub student: String,
    /// The question's number.
    pub question: usize,
    /// The new score, or the change.
    pub change: Change,
    /// Why (shown to the student).
    pub reason: String,
    /// Where the row is, for errors found when it is applied.
    span: Range<usize>,
}

/// What an override does to a question's points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Change {
    /// The question scores this.
    Set(f64),
    /// The question scores this much more (less, when negative).
    Add(f64),
}

/// An adjustment made to a question's score.
#[derive(Clone, Debug, Serialize)]
pub struct Adjusted {
    /// The points it had from grading.
    pub from: f64,
    /// Why, as the teacher wrote it.
    pub reason: String,
}

const COLUMNS: [&str; 4] = ["student", "question", "points", "reason"];
const HINT: &str = "the first row names the columns student,question,points,reason; a row such as s001,3,5,\"accepted the β-cut at F\" sets question 3 to 5 points, and +1 or -0.5 adds or takes away";

/// Reads an overrides file.
pub fn parse(source: &Source) -> Result<Vec<Override>, InputError> {
    let text = source.text.strip_prefix('\u{feff}').unwrap_or(&source.text);
    let bom = source.text.len() - text.len();
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(text.as_bytes());
    let at = |span: Range<usize>, message: String, hint: &str| {
        source.error_at(
            span.start + bom..span.end + bom,
            message,
            Some(hint.to_string()),
        )
    };
    let headers = reader
        .headers()
        .map_err(|e| at(0..0, format!("cannot read the header row: {e}"), HINT))?
        .clone();
    let column = |name: &str| {
        headers
            .iter()
            .position(|h| h.trim().eq_ignore_ascii_case(name))
    };
    let [student_col, question_col, points_col, reason_col] = COLUMNS.map(column);
    let (Some(student_col), Some(question_col), Some(points_col), Some(reason_col)) =
        (student_col, question_col, points_col, reason_col)
    else {
        let missing: Vec<&str> = COLUMNS
            .into_iter()
            .filter(|c| column(c).is_none())
            .collect();
        return Err(at(
            0..0,
            format!("the header row has no column {}", missing.join(", ")),
            HINT,
        ));
    };
    let mut out: Vec<Override> = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| {
            let byte = e.position().map_or(0, |p| p.byte() as usize);
            at(
                byte..byte,
                format!("cannot read this row: {e}"),
                "check the quotes and commas",
            )
        })?;
        if record.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        let start = record.position().map_or(0, |p| p.byte() as usize);
        let spans = field_spans(text, start);
        let cell = |i: usize| -> (&str, Range<usize>) {
            let span = spans.get(i).cloned().unwrap_or(start..start);
            (record.get(i).unwrap_or("").trim(), span)
        };
        let (student, span) = cell(student_col);
        if student.is_empty() {
            return Err(at(span, "this row names no student".into(), HINT));
        }
        let (question, span) = cell(question_col);
        let question = question
            .strip_prefix(['q', 'Q'])
            .unwrap_or(question)
            .parse::<usize>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| {
                at(
                    span.clone(),
                    format!("`{question}` is not a question number"),
                    "write the question's number as on the sheet: 3 or q3",
                )
            })?;
        let (points, span) = cell(points_col);
        let number = |s: &str| s.parse::<f64>().ok().filter(|v| v.is_finite());
        let change = match points.strip_prefix('+') {
            Some(d) => number(d).map(Change::Add),
            None if points.starts_with('-') => number(points).map(Change::Add),
            None => number(points).map(Change::Set),
        }
        .ok_or_else(|| {
            at(
                span.clone(),
                format!("`{points}` is not a number of points"),
                "write the question's new score (5, 4.5), or a change to it (+1, -0.5)",
            )
        })?;
        let (reason, span) = cell(reason_col);
        if reason.is_empty() {
            return Err(at(
                span,
                "this row gives no reason".into(),
                "say why in the reason column: the student reads it in their feedback",
            ));
        }
        let row_span = spans.first().cloned().unwrap_or(start..start);
        if let Some(earlier) = out
            .iter()
            .find(|o| o.student.eq_ignore_ascii_case(student) && o.question == question)
        {
            let (line, _) = source
                .error_at(earlier.span.clone(), "", None)
                .line_column()
                .unwrap_or((0, 0));
            return Err(at(
                row_span,
                format!("{student}'s question {question} is adjusted twice (line {line} too)"),
                "keep one row per student and question",
            ));
        }
        out.push(Override {
            student: student.to_string(),
            question,
            change,
            reason: reason.to_string(),
            span: row_span,
        });
    }
    Ok(out)
}

/// The byte spans of the fields of the CSV record that starts at `start`
/// (the csv crate gives a record's place, not its fields'): commas outside
/// quotes end a field, a line break outside quotes the record.
fn field_spans(text: &str, start: usize) -> Vec<Range<usize>> {
    let start = start.min(text.len());
    let mut spans = Vec::new();
    let (mut from, mut quoted, mut end) = (start, false, text.len());
    for (i, c) in text[start..].char_indices() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => {
                spans.push(from..start + i);
                from = start + i + 1;
            }
            '\r' | '\n' if !quoted => {
                end = start + i;
                break;
            }
            _ => {}
        }
    }
    spans.push(from..end);
    spans
}

/// Applies `overrides` to the graded rows (totals follow). Nothing changes
/// unless every override names a graded question and stays within its points.
pub fn apply(rows: &mut [Row], overrides: &[Override], source: &Source) -> Result<(), InputError> {
    let error = |o: &Override, message: String, hint: &str| {
        source.error_at(o.span.clone(), message, Some(hint.to_string()))
    };
    let mut changes = Vec::with_capacity(overrides.len());
    for o in overrides {
        let of_student = |r: &Row| {
            r.student
                .as_deref()
                .is_some_and(|s| s.eq_ignore_ascii_case(&o.student))
        };
        let Some(index) = rows
            .iter()
            .position(|r| of_student(r) && r.status == Status::Graded)
        else {
            let hint = "an override changes a question of a graded file; decide the file's status first (rename, remove a copy), then adjust";
            return Err(match rows.iter().find(|r| of_student(r)) {
                Some(r) => error(
                    o,
                    format!(
                        "{}'s file is not graded ({}), so it has no question to adjust",
                        o.student,
                        r.status.name()
                    ),
                    hint,
                ),
                None => error(
                    o,
                    format!("no file of this batch is {}'s", o.student),
                    "check the id against grades.csv's student column",
                ),
            });
        };
        let row = &rows[index];
        let Some(q) = row.questions.iter().position(|q| q.number == o.question) else {
            return Err(error(
                o,
                format!(
                    "{}'s sheet has no question {} (it has {})",
                    o.student,
                    o.question,
                    row.questions.len()
                ),
                "check the question's number on the student's sheet",
            ));
        };
        let score = &row.questions[q];
        let to = round2(match o.change {
            Change::Set(v) => v,
            Change::Add(d) => score.earned + d,
        });
        if !(0.0..=score.max).contains(&to) {
            return Err(error(
                o,
                format!(
                    "question {} is worth {} points: {} is out of range",
                    o.question,
                    super::report::points(score.max),
                    super::report::points(to)
                ),
                "a question's score is from 0 to its points",
            ));
        }
        changes.push((index, q, to, o.reason.clone()));
    }
    for (index, q, to, reason) in changes {
        let row = &mut rows[index];
        let score = &mut row.questions[q];
        score.adjusted = Some(Adjusted {
            from: score.adjusted.as_ref().map_or(score.earned, |a| a.from),
            reason,
        });
        score.earned = to;
        row.add_up();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(text: &str) -> Source {
        Source {
            path: "overrides.csv".into(),
            text: text.into(),
        }
    }

    #[test]
    fn reads_scores_and_changes() {
        let o = parse(&source(
            "\u{feff}Student,Question,Points,Reason\ns001,3,5,regraded\n\nS002,q1,+1.5,\"typo, not a mistake\"\ns003,2,-0.5,late\n",
        ))
        .unwrap();
        assert_eq!(o.len(), 3);
        assert_eq!((o[0].question, o[0].change), (3, Change::Set(5.0)));
        assert_eq!(
            (o[1].student.as_str(), o[1].change),
            ("S002", Change::Add(1.5))
        );
        assert_eq!(o[1].reason, "typo, not a mistake");
        assert_eq!(o[2].change, Change::Add(-0.5));
    }

    #[test]
    fn bad_rows_name_their_place() {
        let cases = [
            ("student,question,points\n", 1, "no column reason"),
            (
                "student,question,points,reason\ns001,three,5,x\n",
                2,
                "`three` is not a question number",
            ),
            (
                "student,question,points,reason\ns001,3,lots,x\n",
                2,
                "`lots` is not a number of points",
            ),
            (
                "student,question,points,reason\ns001,3,NaN,x\n",
                2,
                "`NaN` is not a number of points",
            ),
            (
                "student,question,points,reason\ns001,3,5,\n",
                2,
                "gives no reason",
            ),
            (
                "student,question,points,reason\n,3,5,x\n",
                2,
                "names no student",
            ),
            (
                "student,question,points,reason\ns001,3,5,x\nS001,q3,+1,y\n",
                3,
                "adjusted twice (line 2 too)",
            ),
        ];
        for (text, line, message) in cases {
            let e = parse(&source(text)).unwrap_err();
            assert!(e.message.contains(message), "{text:?}: {}", e.message);
            assert_eq!(e.line_column().map(|(l, _)| l), Some(line), "{text:?}");
        }
        // The column is the field's, quotes and all.
        let e = parse(&source(
            "student,question,points,reason\n\"s,1\",3,=1+1,x\n",
        ))
        .unwrap_err();
        assert_eq!(e.line_column(), Some((2, 9)));
    }
}
