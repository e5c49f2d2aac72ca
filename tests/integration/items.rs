//! Issue 30 §4: the summary's item analysis, over rows made by hand so that
//! every figure can be checked against a naive computation.

use std::collections::BTreeMap;

use treequiz::grade::batch::{Row, Status};
use treequiz::grade::items::Measures;
use treequiz::grade::report::{SummaryView, summary_view};
use treequiz::grade::score::{FieldScore, QuestionScore, State};
use treequiz::lang::Lang;

const FIELDS: [&str; 3] = ["value", "pruned", "best_move"];

/// A graded row: per question, per field, (points earned, points possible).
fn row(questions: &[Vec<(f64, f64)>]) -> Row {
    let questions: Vec<QuestionScore> = questions
        .iter()
        .enumerate()
        .map(|(i, fields)| QuestionScore {
            number: i + 1,
            kind: "minimax",
            max: fields.iter().map(|f| f.1).sum(),
            earned: fields.iter().map(|f| f.0).sum(),
            fields: fields
                .iter()
                .zip(FIELDS)
                .map(|(&(earned, max), field)| FieldScore {
                    field,
                    max,
                    earned,
                    state: if earned == max {
                        State::Correct
                    } else {
                        State::Wrong
                    },
                    given: String::new(),
                    key: String::new(),
                    reasons: Vec::new(),
                    tally: None,
                    slip: false,
                })
                .collect(),
            adjusted: None,
        })
        .collect();
    let mut r = Row {
        file: "a.toml".into(),
        student: None,
        name: None,
        variant: Some("A".into()),
        status: Status::Graded,
        reason: String::new(),
        max: questions.iter().map(|q| q.max).sum(),
        questions,
        total: 0.0,
        problems: Vec::new(),
        feedback: String::new(),
        sender: None,
    };
    r.add_up();
    r
}

fn en() -> Lang {
    Lang::builtin("en").unwrap()
}

/// The discrimination shown for question `q`'s row `item` (0: the whole question).
fn shown<'a>(view: &'a SummaryView<'_>, q: usize, item: usize) -> &'a str {
    &view.items[q].items[item].discrimination
}

/// Four students, two one-field questions worth 2 and 4 points (the class
/// of `grade::items`' hand-computed test): q1 2 2 0 0, q2 4 2 3 1. F = 50 %
/// and 62.5 %, SD = 57.7 % and 32.3 %, DI = 200/√20 = 44.7 % for both, DE
/// = 50 %, α = 8/13 = 0.62; the summary shows them rounded.
#[test]
fn the_summary_shows_a_hand_computed_class() {
    let rows: Vec<Row> = [(2.0, 4.0), (2.0, 2.0), (0.0, 3.0), (0.0, 1.0)]
        .into_iter()
        .map(|(a, b)| row(&[vec![(a, 2.0)], vec![(b, 4.0)]]))
        .collect();
    let lang = en();
    let view = summary_view(&rows, &[], &lang, "t", 0);
    let figures = |q: usize| {
        let i = &view.items[q].items[0];
        [
            i.facility.as_str(),
            &i.sd,
            &i.discrimination,
            &i.efficiency,
            &i.flag,
        ]
    };
    assert_eq!(figures(0), ["50 %", "58 %", "45 %", "50 %", ""]);
    // 62.5 rounds to even.
    assert_eq!(figures(1), ["62 %", "32 %", "45 %", "50 %", ""]);
    // Its one field is the whole question.
    assert_eq!(view.items[0].items[1].discrimination, "45 %");
    // Totals 6 4 3 1 of 6: mean 58.3 %, SD √(13/3)/6 = 34.7 %.
    assert_eq!(
        view.test_stats,
        "Whole test (n = 4): mean 58.3 %, SD 34.7 %, Cronbach's α 0.62."
    );
}

/// Naive Pearson on whole hundredths, in exact integers:
/// (nΣxy − ΣxΣy) / √((nΣx² − (Σx)²)(nΣy² − (Σy)²)); `None` when a
/// variance is 0 or under two pairs.
fn naive_pearson(x: &[i128], y: &[i128]) -> Option<f64> {
    let n = x.len() as i128;
    let (sx, sy): (i128, i128) = (x.iter().sum(), y.iter().sum());
    let sxy: i128 = x.iter().zip(y).map(|(a, b)| a * b).sum();
    let sxx: i128 = x.iter().map(|a| a * a).sum();
    let syy: i128 = y.iter().map(|b| b * b).sum();
    let (vx, vy) = (n * sxx - sx * sx, n * syy - sy * sy);
    if n < 2 || vx == 0 || vy == 0 {
        return None;
    }
    Some((n * sxy - sx * sy) as f64 / ((vx as f64) * (vy as f64)).sqrt())
}

/// A small seeded generator (xorshift): the same classes every run.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn cents(v: f64) -> i128 {
    (v * 100.0).round() as i128
}

/// The flag of an item says what its figures, as shown, say: negative or
/// weak (under 30 %) discrimination, facility 95 % or more, or 5 % or less.
fn flag_agrees(item: &treequiz::grade::report::ItemView, case: usize) {
    let number = |s: &str| s.trim_end_matches(" %").parse::<f64>().ok();
    let d = number(&item.discrimination);
    let f = number(&item.facility);
    let want = [
        (d.is_some_and(|d| d < 0.0), "negative discrimination"),
        (
            d.is_some_and(|d| (0.0..30.0).contains(&d)),
            "weak discrimination",
        ),
        (f.is_some_and(|f| f >= 95.0), "very easy"),
        (f.is_some_and(|f| f <= 5.0), "very hard"),
    ];
    for (flagged, words) in want {
        assert_eq!(
            item.flag.contains(words),
            flagged,
            "case {case}: {} with facility {}, discrimination {}: `{}`",
            item.label,
            item.facility,
            item.discrimination,
            item.flag
        );
    }
}

/// Over many random classes, every item's discrimination is Pearson's r of
/// its points with the rest of the test (total − item), computed naively,
/// and "—" exactly when that is undefined; every flag agrees with its row.
#[test]
fn discrimination_is_the_correlation_with_the_rest_of_the_test() {
    let lang = en();
    let mut dice = Dice(0x9E37_79B9_7F4A_7C15);
    let mut defined = 0;
    for case in 0..300 {
        let students = 1 + dice.below(9) as usize;
        let shape: Vec<Vec<f64>> = (0..1 + dice.below(3))
            .map(|_| {
                (0..1 + dice.below(3))
                    .map(|_| [1.0, 2.5, 3.33][dice.below(3) as usize])
                    .collect()
            })
            .collect();
        let rows: Vec<Row> = (0..students)
            .map(|_| {
                let marks: Vec<Vec<(f64, f64)>> = shape
                    .iter()
                    .map(|q| {
                        q.iter()
                            .map(|&max| {
                                let quarters = dice.below(5) as f64;
                                ((max * quarters / 4.0 * 100.0).round() / 100.0, max)
                            })
                            .collect()
                    })
                    .collect();
                row(&marks)
            })
            .collect();
        let view = summary_view(&rows, &[], &lang, "t", 0);
        let totals: Vec<i128> = rows.iter().map(|r| cents(r.total)).collect();
        for (qi, q) in shape.iter().enumerate() {
            let mut items: Vec<Vec<i128>> =
                vec![rows.iter().map(|r| cents(r.questions[qi].earned)).collect()];
            for fi in 0..q.len() {
                items.push(
                    rows.iter()
                        .map(|r| cents(r.questions[qi].fields[fi].earned))
                        .collect(),
                );
            }
            for (at, x) in items.iter().enumerate() {
                let rest: Vec<i128> = totals.iter().zip(x).map(|(t, x)| t - x).collect();
                let got = shown(&view, qi, at);
                flag_agrees(&view.items[qi].items[at], case);
                match naive_pearson(x, &rest) {
                    None => assert_eq!(got, "—", "case {case}, q{} item {at}", qi + 1),
                    Some(r) => {
                        defined += 1;
                        let n: f64 = got.trim_end_matches(" %").parse().unwrap_or_else(|_| {
                            panic!("case {case}, q{} item {at}: {got}", qi + 1)
                        });
                        assert!(
                            (n - 100.0 * r).abs() <= 0.5 + 1e-9,
                            "case {case}, q{} item {at}: shown {got}, naive {}",
                            qi + 1,
                            100.0 * r
                        );
                    }
                }
            }
        }
    }
    assert!(defined > 300, "only {defined} defined discriminations");
}

/// An item every student scored the same on, and a class of one, show "—",
/// never NaN or infinity, in every figure and in the rendered summary.
#[test]
fn undefined_figures_show_a_dash_never_nan() {
    let lang = en();
    let renderer = treequiz::render::Renderer::new(None).unwrap();
    let same = |a: f64| row(&[vec![(1.0, 1.0), (a, 2.0)], vec![(0.0, 0.0)]]);
    let classes: Vec<Vec<Row>> = vec![
        vec![same(0.0), same(1.0), same(2.0)],
        vec![same(1.0), same(1.0), same(1.0)],
        vec![same(2.0)],
        Vec::new(),
    ];
    for rows in &classes {
        let view = summary_view(rows, &[], &lang, "t", 0);
        if let Some(q1) = view.items.first() {
            // The field everyone got right: full facility, no spread, no discrimination.
            let f = &q1.items[1];
            assert_eq!(f.facility, "100 %");
            assert_eq!(
                (f.discrimination.as_str(), f.efficiency.as_str()),
                ("—", "—")
            );
            assert_eq!(f.flag, "very easy");
            // A question worth nothing has no facility.
            assert_eq!(view.items[1].items[0].facility, "—");
        }
        for name in ["summary.md", "summary.html"] {
            let text = renderer.render(name, &view).unwrap();
            for bad in ["NaN", "inf", "-0 %"] {
                assert!(!text.contains(bad), "{bad} in {name}:\n{text}");
            }
        }
    }
    let one = summary_view(&classes[2], &[], &lang, "t", 0);
    assert!(
        one.items[0]
            .items
            .iter()
            .all(|i| i.discrimination == "—" && i.sd == "—")
    );
    assert_eq!(
        one.test_stats,
        "Whole test (n = 1): mean 100.0 %, SD —, Cronbach's α —."
    );
}

/// A generator measure's r is Pearson's with the question's points, "—"
/// when the measure or the points do not vary.
#[test]
fn measures_correlate_with_the_question_points() {
    let lang = en();
    // More evaluated leaves, fewer points: r = −1.
    let rows: Vec<Row> = [4.0, 3.0, 2.0, 1.0]
        .into_iter()
        .map(|a| row(&[vec![(a, 4.0)], vec![(1.0, 1.0)]]))
        .collect();
    let measures: Vec<Measures> = [10, 12, 14, 16]
        .into_iter()
        .map(|evaluated| {
            BTreeMap::from([
                (1, vec![("evaluated", evaluated), ("deep_cuts", 2)]),
                (2, vec![("evaluated", evaluated)]),
            ])
        })
        .collect();
    let view = summary_view(&rows, &measures, &lang, "t", 0);
    let q1: Vec<(&str, &str, &str, usize)> = view.items[0]
        .measures
        .iter()
        .map(|m| (m.name, m.range.as_str(), m.r.as_str(), m.n))
        .collect();
    assert_eq!(
        q1,
        [
            ("evaluated", "10–16", "-1.00", 4),
            ("deep_cuts", "2", "—", 4)
        ]
    );
    // Question 2's points never vary.
    assert_eq!(view.items[1].measures[0].r, "—");
    // The plot draws the strongest measure against the points, one dot per file.
    let plot = &view.items[0].plot;
    assert!(
        plot.starts_with("<svg") && plot.contains("evaluated, r = -1.00"),
        "{plot}"
    );
    assert_eq!(plot.matches("<circle").count(), 4);
    assert!(!view.items[1].plot.contains("<circle"));
    // Files on the same spot make one bigger dot.
    let same: Vec<Measures> = [10, 10, 14, 16]
        .into_iter()
        .map(|evaluated| BTreeMap::from([(1, vec![("evaluated", evaluated)])]))
        .collect();
    let rows2: Vec<Row> = [4.0, 4.0, 2.0, 1.0]
        .into_iter()
        .map(|a| row(&[vec![(a, 4.0)], vec![(1.0, 1.0)]]))
        .collect();
    let plot = summary_view(&rows2, &same, &lang, "t", 0).items[0]
        .plot
        .clone();
    assert_eq!(plot.matches("<circle").count(), 3, "{plot}");
    assert_eq!(plot.matches("<title>2</title>").count(), 1, "{plot}");
    // Rows with no measures (unknown variant) are left out of n.
    let view = summary_view(&rows, &measures[..2], &lang, "t", 0);
    assert_eq!(view.items[0].measures[0].n, 2);
}
