//! `generate --format moodle`: the question bank, checked against Moodle's own
//! rules. The cloze parser below is a literal transcription of Moodle's
//! (`question/type/multianswer/questiontype.php`: the `ANSWER_*` regex
//! constants, `qtype_multianswer_extract_question` and
//! `qtype_multianswer_validate_question`), and the allowed grades are
//! `question_bank::fraction_options_full()` (`question/engine/bank.php`).

use std::sync::LazyLock;

use fancy_regex::Regex;
use treequiz::class_set::{self, Variant};
use treequiz::exercise::{Answer, Item, Shape};
use treequiz::gametree::{NodeId, Order};
use treequiz::instance::Model;
use treequiz::lang::Lang;
use treequiz::moodle;
use treequiz::problem_set::{self, ProblemSet};
use treequiz::rng::Master;
use treequiz::scoring::OrderRule;

use crate::common::{generate, root, run, scratch, shipped_sets};

// --- Moodle's regexes, as question/type/multianswer/questiontype.php defines them.
// PHP's '\\\\' is the regex `\\`, a backslash. The answer's lookbehind
// `(?<!\\|&|&amp;)` is written as three lookbehinds, which match the same.
const ANSWER_ALTERNATIVE_FRACTION_REGEX: &str = r"=|%(-?[0-9]+(?:[.,][0-9]*)?)%";
const ANSWER_ALTERNATIVE_ANSWER_REGEX: &str = r".+?(?<!\\)(?<!&)(?<!&amp;)(?=[~#}]|$)";
const ANSWER_ALTERNATIVE_FEEDBACK_REGEX: &str = r".*?(?<!\\)(?=[~}]|$)";
const NUMBER_REGEX: &str = r"-?(([0-9]+[.,]?[0-9]*|[.,][0-9]+)([eE][-+]?[0-9]+)?)";
const ANSWER_TYPE_DEF_REGEX: &str = concat!(
    "(NUMERICAL|NM)|(MULTICHOICE|MC)|(MULTICHOICE_V|MCV)|(MULTICHOICE_H|MCH)|",
    "(SHORTANSWER|SA|MW)|(SHORTANSWER_C|SAC|MWC)|",
    "(MULTICHOICE_S|MCS)|(MULTICHOICE_VS|MCVS)|(MULTICHOICE_HS|MCHS)|",
    "(MULTIRESPONSE|MR)|(MULTIRESPONSE_H|MRH)|(MULTIRESPONSE_S|MRS)|(MULTIRESPONSE_HS|MRHS)"
);
// Parenthesis positions (ANSWER_REGEX_* and ANSWER_ALTERNATIVE_REGEX_*).
const ANSWER_REGEX_NORM: usize = 1;
const ANSWER_REGEX_ANSWER_TYPE_NUMERICAL: usize = 3;
const ANSWER_REGEX_ANSWER_TYPE_SHORTANSWER: usize = 7;
const ANSWER_REGEX_ANSWER_TYPE_SHORTANSWER_C: usize = 8;
const ANSWER_REGEX_ANSWER_TYPE_MULTIRESPONSE: usize = 12;
const ANSWER_REGEX_ALTERNATIVES: usize = 16;
const ANSWER_ALTERNATIVE_REGEX_FRACTION: usize = 1;
const ANSWER_ALTERNATIVE_REGEX_PERCENTILE_FRACTION: usize = 2;
const ANSWER_ALTERNATIVE_REGEX_ANSWER: usize = 3;
const ANSWER_ALTERNATIVE_REGEX_FEEDBACK: usize = 5;

struct Moodle {
    answer: Regex,
    alternative: Regex,
    numerical: Regex,
}

impl Moodle {
    fn new() -> Moodle {
        let alt = format!(
            "({ANSWER_ALTERNATIVE_FRACTION_REGEX})?({ANSWER_ALTERNATIVE_ANSWER_REGEX})(#({ANSWER_ALTERNATIVE_FEEDBACK_REGEX}))?"
        );
        let start = format!(r"\{{([0-9]*):({ANSWER_TYPE_DEF_REGEX}):");
        Moodle {
            // preg_match('/'.ANSWER_REGEX.'/s', …)
            answer: Regex::new(&format!(r"(?s){start}({alt}(~{alt})*)\}}")).unwrap(),
            // preg_match('/~?'.ANSWER_ALTERNATIVE_REGEX.'/s', …)
            alternative: Regex::new(&format!("(?s)~?{alt}")).unwrap(),
            numerical: Regex::new(&format!("(?s)^({NUMBER_REGEX})(:{NUMBER_REGEX})?$")).unwrap(),
        }
    }
}

#[derive(Debug, PartialEq, Clone, Copy)]
enum Type {
    Numerical,
    ShortAnswer,
    MultiChoice,
    MultiResponse,
}

#[derive(Debug)]
struct Sub {
    weight: String,
    kind: Type,
    /// (fraction after Moodle's normalisation, answer as Moodle stores it,
    /// whether a percentage was written); a choice as the student reads it,
    /// without the nolink span around it.
    answers: Vec<(f64, String, Option<String>)>,
    /// Each answer as Moodle stores it (a choice's HTML, which Moodle filters).
    stored: Vec<String>,
    /// The sub-question as written.
    raw: String,
}

/// html_entity_decode($s, ENT_QUOTES, 'UTF-8'), for what this export writes.
fn html_decode(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest.find(';').filter(|&e| e <= 10);
        let decoded = end.and_then(|e| {
            let name = &rest[1..e];
            let c = match name {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" | "#039" => Some('\''),
                n if n.starts_with("#x") => u32::from_str_radix(&n[2..], 16)
                    .ok()
                    .and_then(char::from_u32),
                n if n.starts_with('#') => n[1..].parse().ok().and_then(char::from_u32),
                _ => None,
            };
            c.map(|c| (c, e))
        });
        match decoded {
            Some((c, e)) => {
                out.push(c);
                rest = &rest[e + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// A choice's label without the nolink span the export puts around a label
/// that is not all letters and digits (what a browser shows).
fn unwrap_nolink(s: &str) -> &str {
    s.strip_prefix("<span class=\"nolink\">")
        .and_then(|s| s.strip_suffix("</span>"))
        .unwrap_or(s)
}

/// qtype_multianswer_extract_question: the sub-questions, in order, and the
/// text left with `{#1}`, `{#2}`, … in their place.
fn extract(m: &Moodle, text: &str) -> (Vec<Sub>, String) {
    let mut text = text.to_string();
    let mut subs = Vec::new();
    let mut position = 1;
    while let Some(regs) = m.answer.captures(&text).unwrap() {
        let whole = regs.get(0).unwrap().as_str().to_string();
        let group = |i: usize| regs.get(i).map_or("", |g| g.as_str());
        let weight = if group(ANSWER_REGEX_NORM).is_empty() {
            "1".to_string()
        } else {
            group(ANSWER_REGEX_NORM).to_string()
        };
        let kind = if !group(ANSWER_REGEX_ANSWER_TYPE_NUMERICAL).is_empty() {
            Type::Numerical
        } else if !group(ANSWER_REGEX_ANSWER_TYPE_SHORTANSWER).is_empty()
            || !group(ANSWER_REGEX_ANSWER_TYPE_SHORTANSWER_C).is_empty()
        {
            Type::ShortAnswer
        } else if (ANSWER_REGEX_ANSWER_TYPE_MULTIRESPONSE..ANSWER_REGEX_ALTERNATIVES)
            .any(|i| !group(i).is_empty())
        {
            Type::MultiResponse
        } else {
            Type::MultiChoice
        };
        let mut remaining = group(ANSWER_REGEX_ALTERNATIVES).to_string();
        let mut answers = Vec::new();
        let mut stored = Vec::new();
        let mut specific = false;
        while let Some(alt) = m.alternative.captures(&remaining).unwrap() {
            let g = |i: usize| alt.get(i).map(|x| x.as_str());
            let (fraction, percent) = if g(ANSWER_ALTERNATIVE_REGEX_FRACTION) == Some("=") {
                (1.0, None)
            } else if let Some(p) = g(ANSWER_ALTERNATIVE_REGEX_PERCENTILE_FRACTION) {
                specific = true;
                (
                    0.01 * p.replace(',', ".").parse::<f64>().unwrap(),
                    Some(p.to_string()),
                )
            } else {
                (0.0, None)
            };
            if let Some(feedback) = g(ANSWER_ALTERNATIVE_REGEX_FEEDBACK) {
                panic!("the export writes no answer feedback, found {feedback:?} in {whole}");
            }
            let raw = g(ANSWER_ALTERNATIVE_REGEX_ANSWER).unwrap();
            let answer = if kind == Type::Numerical {
                let num = m.numerical.captures(raw).unwrap();
                assert!(num.is_some(), "not a number: {raw:?} in {whole}");
                num.unwrap().get(1).unwrap().as_str().to_string()
            } else {
                html_decode(raw).replace("\\}", "}").replace("\\#", "#")
            };
            stored.push(answer.clone());
            let answer = match kind {
                Type::MultiChoice | Type::MultiResponse => unwrap_nolink(&answer).to_string(),
                _ => answer,
            };
            answers.push((fraction, answer, percent));
            let matched = alt.get(0).unwrap().as_str().to_string();
            remaining = remaining
                .split_once(&matched)
                .map_or(String::new(), |(_, r)| r.to_string());
        }
        // Positive fractions of a multi-response are scaled to sum to 1.
        if kind == Type::MultiResponse {
            let total: f64 = answers.iter().map(|a| a.0).filter(|&f| f > 0.0).sum();
            if total > 0.0 {
                for a in &mut answers {
                    if a.0 > 0.0 {
                        a.0 /= total;
                    } else if !specific {
                        a.0 = -1.0 / total;
                    }
                }
            }
        }
        subs.push(Sub {
            weight,
            kind,
            answers,
            stored,
            raw: whole.clone(),
        });
        text = text.replacen(&whole, &format!("{{#{position}}}"), 1);
        position += 1;
    }
    (subs, text)
}

/// qtype_multianswer_validate_question's errors (and is_valid_number).
fn validate(subs: &[Sub]) -> Vec<String> {
    let mut errors = Vec::new();
    if subs.is_empty() {
        errors.push("questionsmissing".to_string());
    }
    for (i, s) in subs.iter().enumerate() {
        let answers: Vec<_> = s
            .answers
            .iter()
            .filter(|a| !a.1.trim().is_empty())
            .collect();
        let mut max = answers.iter().any(|a| a.0 == 1.0);
        if s.kind == Type::MultiResponse {
            max |= answers.iter().any(|a| a.0 > 0.0);
        }
        // Two answers for a choice, one for any other.
        let choice = matches!(s.kind, Type::MultiChoice | Type::MultiResponse);
        if answers.len() < if choice { 2 } else { 1 } {
            errors.push(format!("sub {}: notenoughanswers", i + 1));
        }
        if !max {
            errors.push(format!("sub {}: fractionsnomax", i + 1));
        }
    }
    errors
}

/// question_bank::fraction_options_full(), as fractions.
fn allowed_fraction(f: f64) -> bool {
    const RAW: [f64; 19] = [
        0.9, 0.8333333, 0.8, 0.75, 0.7, 0.6666667, 0.6, 0.5, 0.4, 0.3333333, 0.3, 0.25, 0.2,
        0.1666667, 0.1428571, 0.125, 0.1111111, 0.1, 0.05,
    ];
    let close = |a: f64, b: f64| (a - b).abs() < 1e-6;
    close(f, 0.0)
        || close(f, 1.0)
        || close(f, -1.0)
        || RAW.iter().any(|&r| close(f, r) || close(f, -r))
}

pub(crate) fn base64_decode(s: &str) -> Vec<u8> {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let digits: Vec<u32> = s
        .bytes()
        .filter(|&b| b != b'=' && !b.is_ascii_whitespace())
        .map(|b| ABC.iter().position(|&a| a == b).expect("a base64 digit") as u32)
        .collect();
    let mut out = Vec::new();
    for chunk in digits.chunks(4) {
        let v = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &d)| acc | (d << (18 - 6 * i)));
        for i in 0..chunk.len().saturating_sub(1) {
            out.push((v >> (16 - 8 * i)) as u8);
        }
    }
    out
}

fn variants(set: &ProblemSet, n: usize) -> Vec<Variant> {
    let students = treequiz::roster::anonymous(n);
    class_set::build(set, &Master::from_seed(set.seed), &students).unwrap()
}

/// The field that asks `field`'s entry for the root on its own, as
/// docs/moodle.md says (minimax's `value`, Grundy's `winner`), when asked.
fn root_field(item: &class_set::Item, field: &str) -> Option<&'static str> {
    let root_field = match (item.exercise.kind.name, field) {
        ("minimax", "values") => "value",
        ("grundy", "max_wins") => "winner",
        _ => return None,
    };
    item.exercise
        .ask
        .contains(&root_field)
        .then_some(root_field)
}

/// Whether `field`'s entry for the root is left out: another field asks it.
fn root_apart(item: &class_set::Item, field: &str) -> bool {
    root_field(item, field).is_some()
}

/// The sub-questions a variant's exercise must have, per askable field: the
/// share of a field's points each takes (treequiz splits the points evenly
/// over the fields asked): a table's rows 1/n each of its n rows, the root's
/// row going to the field that asks the root where that field is asked
/// (treequiz counts the root in both); a long order's part as many labels
/// as it has; any other field one box worth the whole field.
fn expected_subs(item: &class_set::Item) -> Vec<(&'static str, Vec<f64>)> {
    let mut out: Vec<(&'static str, Vec<f64>)> = Vec::new();
    let mut folded = Vec::new();
    for &f in &item.exercise.ask {
        if moodle::askable(&item.exercise, f).is_err() {
            continue;
        }
        let shares = match item.key.answer(f).unwrap() {
            Answer::Values(p) if root_apart(item, f) && p.len() > 1 => {
                folded.push((root_field(item, f).unwrap(), 1.0 / p.len() as f64));
                vec![1.0 / p.len() as f64; p.len() - 1]
            }
            Answer::Values(p) => vec![1.0 / p.len() as f64; p.len()],
            Answer::Fractions(p) => vec![1.0 / p.len() as f64; p.len()],
            Answer::Sequence(s)
                if s.len() > 7 && item.exercise.scoring.orders == OrderRule::Lcs =>
            {
                s.chunks(7)
                    .map(|c| c.len() as f64 / s.len() as f64)
                    .collect()
            }
            _ => vec![1.0],
        };
        out.push((f, shares));
    }
    for (to, share) in folded {
        let (_, shares) = out.iter_mut().find(|(f, _)| *f == to).unwrap();
        shares[0] += share;
    }
    out
}

/// Checks one bank against Moodle's rules and against the variants it holds.
fn check_bank(xml: &str, set: &ProblemSet, variants: &[Variant], lang: &Lang) {
    let m = Moodle::new();
    let doc = roxmltree::Document::parse(xml).expect("well-formed XML");
    let quiz = doc.root_element();
    assert_eq!(quiz.tag_name().name(), "quiz");
    let questions: Vec<_> = quiz.children().filter(|n| n.is_element()).collect();
    assert_eq!(
        questions.len(),
        set.exercises.len() * (1 + variants.len()),
        "a category and a question per variant, per exercise"
    );
    let text_of = |q: roxmltree::Node, tag: &str| -> String {
        let node = q
            .children()
            .find(|c| c.has_tag_name(tag))
            .unwrap_or_else(|| panic!("<{tag}>"));
        node.children()
            .find(|c| c.has_tag_name("text"))
            .and_then(|t| t.text())
            .unwrap_or("")
            .to_string()
    };
    for (i, chunk) in questions.chunks(1 + variants.len()).enumerate() {
        let number = i + 1;
        let category = chunk[0];
        assert_eq!(category.attribute("type"), Some("category"));
        let path = text_of(category, "category");
        // question/format.php split_category_path.
        let names: Vec<String> = Regex::new("(?<!/)/(?!/)")
            .unwrap()
            .split(&path)
            .map(|n| n.unwrap().replace("//", "/").trim().to_string())
            .collect();
        assert_eq!(names[..2], ["$course$", "top"], "{path}");
        assert_eq!(names[2], set.title.trim(), "{path}");
        assert!(names[3].starts_with(&format!("Q{number} ")), "{path}");
        assert_eq!(names.len(), 4, "{path}");
        for (v, q) in variants.iter().zip(&chunk[1..]) {
            let item = &v.items[i];
            let what = format!("{} Q{number} {} ({})", set.title, v.id, lang.code);
            assert_eq!(q.attribute("type"), Some("cloze"), "{what}");
            assert_eq!(text_of(*q, "name"), format!("Q{number} {}", v.id));
            let text = text_of(*q, "questiontext");
            let (subs, rest) = extract(&m, &text);
            assert_eq!(validate(&subs), Vec::<String>::new(), "{what}");
            // No text of ours reads as a sub-question or breaks one.
            let marked = rest.clone();
            let rest = Regex::new(r"\{#[0-9]+\}").unwrap().replace_all(&rest, "");
            assert!(!rest.contains(['{', '}', '~']), "{what}: {rest}");
            // Each line asks one question, ended by the one colon before its
            // box (a table's rows, `B =`, have none).
            for line in marked.split("<p>").skip(1) {
                let Some(end) = line.find("{#") else { continue };
                let ask = line[..end].split("<br>").next().unwrap();
                let ask = ask
                    .replace("<span class=\"nolink\">", "")
                    .replace("</span>", "");
                let ask = ask.trim_end();
                let colons = ask.matches([':', '：']).count();
                assert!(
                    colons == 0 || (colons == 1 && ask.ends_with([':', '：'])),
                    "{what}: {ask}"
                );
            }
            let expected = expected_subs(item);
            assert_eq!(
                subs.len(),
                expected.iter().map(|e| e.1.len()).sum::<usize>(),
                "{what}"
            );
            // Weights: integers in treequiz's proportions (expected_subs).
            let weights: Vec<u64> = subs
                .iter()
                .map(|s| s.weight.parse::<u64>().expect("an integer weight"))
                .collect();
            assert!(weights.iter().all(|&w| w >= 1), "{what}");
            let shares: Vec<f64> = expected.iter().flat_map(|e| e.1.clone()).collect();
            let (wsum, ssum) = (
                weights.iter().sum::<u64>() as f64,
                shares.iter().sum::<f64>(),
            );
            for (w, s) in weights.iter().zip(&shares) {
                assert!(
                    (*w as f64 / wsum - s / ssum).abs() < 1e-9,
                    "{what}: {weights:?} for {expected:?}"
                );
            }
            // The points themselves when they split into whole numbers.
            let field_points = f64::from(item.exercise.points) / item.exercise.ask.len() as f64;
            let whole: Vec<f64> = shares.iter().map(|s| s * field_points).collect();
            if whole.iter().all(|p| (p - p.round()).abs() < 1e-9) {
                let whole: Vec<u64> = whole.iter().map(|p| p.round() as u64).collect();
                assert_eq!(weights, whole, "{what}");
            }
            // Every sub-question against the key.
            let model = item.instance.model();
            let mut subs = subs.iter();
            let order = set.conventions.alpha_beta.order;
            for (field, units) in &expected {
                let shape = item
                    .exercise
                    .kind
                    .fields
                    .iter()
                    .find(|f| f.name == *field)
                    .unwrap()
                    .shape;
                let field = Asked {
                    name: field,
                    shape,
                    parts: units.len(),
                    root_apart: root_apart(item, field),
                    order,
                };
                check_field(&what, &field, item, &model, &mut subs, lang);
            }
            // The figure: a file of the question text, named in it, the sheet's SVG.
            let sheet = treequiz::view::sheet(set, v, lang, true, None);
            let ev = &sheet.exercises[i];
            let files = |tag: &str| -> Vec<(String, Vec<u8>)> {
                q.children()
                    .find(|c| c.has_tag_name(tag))
                    .unwrap()
                    .children()
                    .filter(|c| c.has_tag_name("file"))
                    .map(|f| {
                        assert_eq!(f.attribute("path"), Some("/"));
                        assert_eq!(f.attribute("encoding"), Some("base64"));
                        (
                            f.attribute("name").unwrap().to_string(),
                            base64_decode(f.text().unwrap_or("")),
                        )
                    })
                    .collect()
            };
            let figures = files("questiontext");
            assert_eq!(figures.len(), 1, "{what}");
            assert!(text.contains(&format!("src=\"@@PLUGINFILE@@/{}\"", figures[0].0)));
            assert_eq!(
                String::from_utf8(figures[0].1.clone()).unwrap(),
                ev.figure_svg
            );
            roxmltree::Document::parse(&ev.figure_svg).expect("the figure is SVG");
            let feedback = text_of(*q, "generalfeedback");
            let key_figures = files("generalfeedback");
            assert_eq!(key_figures.len(), 1, "{what}");
            assert!(feedback.contains(&format!("src=\"@@PLUGINFILE@@/{}\"", key_figures[0].0)));
            let key = ev.key.as_ref().unwrap();
            assert_eq!(
                String::from_utf8(key_figures[0].1.clone()).unwrap(),
                key.figure_svg
            );
            // The feedback: every answer and note of the key, and no `~`.
            for row in &key.answers {
                assert!(
                    feedback.contains(&html_escape(&row.text)),
                    "{what}: {}",
                    row.text
                );
            }
            for note in &key.notes {
                assert!(feedback.contains(&html_escape(note)), "{what}: {note}");
            }
            assert!(!feedback.contains('~'), "{what}");
        }
    }
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('{', "&#123;")
        .replace('}', "&#125;")
        .replace('~', "&#126;")
}

fn number_answers(v: treequiz::value::Value) -> Vec<String> {
    use treequiz::value::Value;
    match v {
        Value::Finite(n) => vec![n.to_string()],
        Value::Decimal(d) => vec![d.to_string()],
        Value::PosInf => vec!["+inf".into(), "inf".into(), "+∞".into(), "∞".into()],
        Value::NegInf => vec!["-inf".into(), "-∞".into()],
    }
}

fn check_value(what: &str, sub: &Sub, v: treequiz::value::Value) {
    let right: Vec<&str> = sub
        .answers
        .iter()
        .filter(|a| a.0 == 1.0)
        .map(|a| a.1.as_str())
        .collect();
    assert_eq!(right, number_answers(v), "{what}: {}", sub.raw);
    let expected = if matches!(v, treequiz::value::Value::Finite(_)) {
        Type::Numerical
    } else {
        Type::ShortAnswer
    };
    assert_eq!(sub.kind, expected, "{what}");
    assert!(sub.answers.iter().all(|a| allowed_fraction(a.0)), "{what}");
}

/// One asked field, as the bank must ask it.
struct Asked<'a> {
    name: &'a str,
    shape: Shape,
    /// Its sub-questions: a long order's parts.
    parts: usize,
    /// Its root's entry is asked by another field.
    root_apart: bool,
    /// The set's child order.
    order: Order,
}

/// The labels a set question offers, as docs/moodle.md says, in the
/// figure's order: alpha-beta's cut nodes are the inner nodes with two
/// children or more, its pruned roots every node but the root and the child
/// its parent searches first; Grundy's winning moves are the graph's moves;
/// every other set offers every node (state) or connector.
fn offered(field: &str, shape: Shape, model: &Model<'_>, order: Order) -> Vec<String> {
    if shape == Shape::Connectors {
        return (0..model.connectors() as u32)
            .map(|c| model.name(Item::Connector(c)))
            .collect();
    }
    if let Some(g) = model.grundy().filter(|_| field == "winning_moves") {
        return (0..g.states.len())
            .flat_map(|s| g.moves[s].iter().map(move |&m| g.move_name(s, m)))
            .collect();
    }
    let all = (0..model.nodes() as u32).map(|n| model.name(Item::Node(n)));
    let Some(t) = model.tree() else {
        return all.collect();
    };
    match field {
        "alpha_cuts" | "beta_cuts" => t
            .ids()
            .filter(|&n| t.children(n).count() >= 2)
            .map(|n| t.label(n).into_owned())
            .collect(),
        "pruned" => t
            .ids()
            .filter(|&n| {
                let Some(p) = t.parent(n) else { return false };
                let kids: Vec<NodeId> = t.children(p).collect();
                let first = if order == Order::LeftToRight {
                    kids[0]
                } else {
                    kids[kids.len() - 1]
                };
                n != first
            })
            .map(|n| t.label(n).into_owned())
            .collect(),
        _ => all.collect(),
    }
}

/// Where the exercise starts: the tree's root, the AND/OR start node,
/// Grundy's first state.
fn start(model: &Model<'_>) -> Item {
    match (model.tree(), model.graph()) {
        (Some(t), _) => Item::Node(t.root().0),
        (_, Some(g)) => Item::Node(g.start().0),
        _ => Item::Node(0),
    }
}

fn check_field<'s>(
    what: &str,
    field: &Asked<'_>,
    item: &class_set::Item,
    model: &Model<'_>,
    subs: &mut impl Iterator<Item = &'s Sub>,
    lang: &Lang,
) {
    use treequiz::value::Value;
    let what = format!("{what} `{}`", field.name);
    let answer = item.key.answer(field.name).unwrap();
    let root = start(model);
    match answer {
        Answer::Value(v) => check_value(&what, subs.next().unwrap(), *v),
        Answer::Cost(c) => check_value(
            &what,
            subs.next().unwrap(),
            c.get().map_or(Value::PosInf, |n| Value::Finite(n as i64)),
        ),
        Answer::Values(pairs) => {
            for &(row, v) in pairs {
                if field.root_apart && pairs.len() > 1 && row == root {
                    continue;
                }
                check_value(&what, subs.next().unwrap(), v);
            }
        }
        Answer::One(right) => {
            let sub = subs.next().unwrap();
            assert_eq!(sub.kind, Type::MultiChoice, "{what}");
            let names: Vec<String> = right.iter().map(|&i| model.name(i)).collect();
            // Every tied answer at 100 %, every other at 0: allowed grades.
            for (f, a, _) in &sub.answers {
                assert_eq!(*f == 1.0, names.contains(a), "{what}: {a}");
                assert!(allowed_fraction(*f), "{what}");
            }
            assert_eq!(
                sub.answers.iter().filter(|a| a.0 == 1.0).count(),
                names.len()
            );
        }
        Answer::Sequence(items) => {
            let labels: Vec<String> = items.iter().map(|&i| model.name(i)).collect();
            // A long order in parts of seven, each its own box.
            let parts: Vec<&[String]> = if field.parts > 1 {
                labels.chunks(7).collect()
            } else {
                vec![&labels[..]]
            };
            assert_eq!(parts.len(), field.parts, "{what}");
            for part in parts {
                let sub = subs.next().unwrap();
                assert_eq!(sub.kind, Type::ShortAnswer, "{what}");
                assert_eq!(sub.answers[0].1, part.join(", "), "{what}: canonical first");
                assert!(sub.answers.iter().any(|a| a.1 == part.join(",")));
                assert!(sub.answers.iter().all(|a| a.0 == 1.0), "{what}");
            }
        }
        Answer::Set(right) => {
            let sub = subs.next().unwrap();
            assert_eq!(sub.kind, Type::MultiResponse, "{what}");
            assert_eq!(
                field.shape == Shape::Connectors,
                field.name.contains("solution")
            );
            let choices: Vec<&str> = sub.answers.iter().map(|a| a.1.as_str()).collect();
            let none = lang.get("moodle.none");
            assert_eq!(choices.last(), Some(&none), "{what}");
            // Every label a student could tick is a label of the figure's model.
            for c in &choices[..choices.len() - 1] {
                let known = model.resolve(c).is_some() || model.connector(c).is_some();
                assert!(known, "{what}: {c}");
            }
            // Exactly the labels the field can name, by its definition (the
            // root apart where another field asks it).
            let root_name = model.name(root);
            let mut want = offered(field.name, field.shape, model, field.order);
            let apart = field.root_apart && want.iter().any(|w| *w != root_name);
            if apart {
                want.retain(|w| *w != root_name);
            }
            assert_eq!(choices[..choices.len() - 1], want, "{what}");
            let names: Vec<String> = right
                .iter()
                .map(|&i| model.name(i))
                .filter(|n| !(apart && *n == root_name))
                .collect();
            for n in &names {
                assert!(choices.contains(&n.as_str()), "{what}: {n} is a choice");
            }
            // Moodle's score of a selection: the sum of its fractions, in [0, 1].
            let score = |ticked: &dyn Fn(&str) -> bool| {
                sub.answers
                    .iter()
                    .filter(|a| ticked(&a.1))
                    .map(|a| a.0)
                    .sum::<f64>()
                    .clamp(0.0, 1.0)
            };
            let exact = |c: &str| {
                if names.is_empty() {
                    c == none
                } else {
                    names.iter().any(|n| n == c)
                }
            };
            assert!(
                (score(&exact) - 1.0).abs() < 1e-6,
                "{what}: the key scores 1"
            );
            // The set rule: each wrong choice costs 1/n (penalty) or nothing (hits).
            let n = names.len().max(1) as f64;
            let rule = item.exercise.scoring.sets;
            for (f, a, p) in &sub.answers {
                assert!(p.is_some(), "{what}: every fraction written");
                if exact(a) {
                    assert!((f - 1.0 / n).abs() < 1e-6, "{what}: {a}");
                } else if *f != 0.0 {
                    let cost = if names.is_empty() { 1.0 } else { 1.0 / n };
                    assert!((f + cost).abs() < 1e-6, "{what}: {a} {f}");
                    assert_ne!(rule, treequiz::scoring::SetRule::Hits, "{what}");
                } else {
                    // Costs nothing: hits, or a node below a pruned root.
                    assert!(
                        rule == treequiz::scoring::SetRule::Hits || field.name == "pruned",
                        "{what}: {a}"
                    );
                }
            }
        }
        Answer::Bounds(_) => panic!("{what}: bounds are not asked"),
        Answer::Fractions(pairs) => {
            for &(_, r) in pairs {
                let sub = subs.next().unwrap();
                match r.to_value() {
                    Some(v @ Value::Finite(_)) => check_value(&what, sub, v),
                    decimal => {
                        assert_eq!(sub.kind, Type::ShortAnswer, "{what}");
                        let right: Vec<String> = sub.answers.iter().map(|a| a.1.clone()).collect();
                        let mut want = vec![r.to_string()];
                        want.extend(decimal.map(|v| v.to_string()));
                        assert_eq!(right, want, "{what}: {}", sub.raw);
                    }
                }
            }
        }
    }
}

#[test]
fn every_shipped_set_exports_a_bank_moodle_would_import() {
    for path in shipped_sets() {
        let set = problem_set::load(&path).unwrap();
        let variants = variants(&set, 3);
        for code in ["en", "zh"] {
            let lang = Lang::builtin(code).unwrap();
            let xml = moodle::export(&set, &variants, &lang);
            check_bank(&xml, &set, &variants, &lang);
        }
    }
}

#[test]
fn many_variants_keep_to_the_rules() {
    // More draws: empty sets (no cut), ties, AND/OR graphs without a solution.
    for name in ["game-tree-quiz", "and-or-quiz", "games"] {
        let set = problem_set::load(&root().join(format!("problem-sets/{name}.toml"))).unwrap();
        let variants = variants(&set, 40);
        let lang = Lang::builtin("en").unwrap();
        check_bank(
            &moodle::export(&set, &variants, &lang),
            &set,
            &variants,
            &lang,
        );
    }
}

#[test]
fn the_transcribed_parser_rejects_what_moodle_rejects() {
    let m = Moodle::new();
    // An unescaped `}` ends the sub-question early; `\}` does not.
    let (subs, rest) = extract(&m, "{1:SHORTANSWER:=a}b~=c}");
    assert_eq!(subs[0].answers.len(), 1);
    assert_eq!(rest, "{#1}b~=c}");
    let (subs, _) = extract(&m, r"{1:SHORTANSWER:=a\}b~=c}");
    let answers: Vec<&str> = subs[0].answers.iter().map(|a| a.1.as_str()).collect();
    assert_eq!(answers, ["a}b", "c"]);
    // A `~` splits an answer in two, whatever precedes it but `&`.
    let (subs, _) = extract(&m, "{1:MULTICHOICE:=a~b~c}");
    assert_eq!(subs[0].answers.len(), 3);
    // Our escaping reads back as the label.
    let label = "x}#~\\&<y";
    let text = format!("{{1:MULTICHOICE:={}~%0%z}}", moodle::cloze_answer(label));
    let (subs, _) = extract(&m, &text);
    assert_eq!(subs[0].answers[0].1, label);
    // No 100 % answer: the import refuses the question.
    let (subs, _) = extract(&m, "{2:NUMERICAL:%50%5:0~%0%6:0}");
    assert_eq!(validate(&subs), ["sub 1: fractionsnomax"]);
    let (subs, _) = extract(&m, "{1:MULTICHOICE:=a}");
    assert_eq!(validate(&subs), ["sub 1: notenoughanswers"]);
    assert_eq!(
        validate(&extract(&m, "no sub-question").0),
        ["questionsmissing"]
    );
    // Allowed grades.
    assert!(allowed_fraction(0.3333333) && allowed_fraction(-0.05));
    assert!(!allowed_fraction(0.35) && !allowed_fraction(1.0 / 13.0));
    // Multi-response fractions scale to sum to 1.
    let (subs, _) = extract(&m, "{1:MULTIRESPONSE:=a~=b~c}");
    let f: Vec<f64> = subs[0].answers.iter().map(|a| a.0).collect();
    assert_eq!(f, [0.5, 0.5, -0.5]);
}

#[test]
fn a_small_bank_is_pinned() {
    let set = problem_set::load(&root().join("problem-sets/demo.toml")).unwrap();
    let variants = variants(&set, 1);
    for code in ["en", "zh"] {
        let lang = Lang::builtin(code).unwrap();
        let xml = moodle::export(&set, &variants, &lang);
        // The figures are checked above; here their size stands for them.
        let mut redacted = String::new();
        let mut rest = xml.as_str();
        while let Some(at) = rest.find("encoding=\"base64\">") {
            let (head, tail) = rest.split_at(at + "encoding=\"base64\">".len());
            let end = tail.find('<').unwrap();
            redacted.push_str(head);
            redacted.push_str(&format!("[{} base64 digits]", end));
            rest = &tail[end..];
        }
        redacted.push_str(rest);
        insta::assert_snapshot!(format!("moodle_demo_{code}"), redacted);
    }
}

#[test]
fn generate_writes_the_bank_where_the_keys_go() {
    let out = scratch("moodle");
    let dir = |d: &str| out.join(d).display().to_string();
    // Practice, --variants: a folder per variant, the bank with the manifest.
    let (code, stdout, err) = generate(
        "problem-sets/game-tree-quiz.toml",
        &dir("practice"),
        &["--format", "md,moodle", "--variants", "3"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("3 variants"), "{stdout}");
    let set = problem_set::load(&root().join("problem-sets/game-tree-quiz.toml")).unwrap();
    let q = question_of(&set, "alpha-beta");
    assert!(
        err.contains(&format!("leaves out question {q}'s `values`")),
        "{err}"
    );
    let practice = out.join("practice");
    for v in ["v01", "v02", "v03"] {
        assert!(practice.join(v).join("answer-sheet.toml").is_file());
        assert!(practice.join("keys").join(v).join("key.toml").is_file());
    }
    let xml = std::fs::read_to_string(practice.join("moodle.xml")).unwrap();
    assert_eq!(
        xml.matches("<question type=\"cloze\">").count(),
        3 * set.exercises.len()
    );
    assert!(!practice.join("worksheet.xml").exists());
    // A variant's answer sheet is graded by treequiz like a student's.
    let sheet = practice.join("v02/answer-sheet.toml");
    let (code, _, err) = run(&[
        "grade",
        "--manifest",
        &practice.join("manifest.json").display().to_string(),
        "--out",
        &dir("grading"),
        &sheet.display().to_string(),
    ]);
    assert!(code == 0 || code == 1, "{err}");
    // An exam: the bank is in keys/, never beside the sheets handed out.
    let (_, secret, _) = run(&["secret"]);
    std::fs::write(out.join("exam.secret"), secret).unwrap();
    std::fs::write(out.join("class.csv"), "id\ns1\ns2\n").unwrap();
    let (code, _, err) = generate(
        "problem-sets/and-or-quiz.toml",
        &dir("exam"),
        &[
            "--format",
            "moodle",
            "--roster",
            &dir("class.csv"),
            "--secret",
            &dir("exam.secret"),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let exam = out.join("exam");
    assert!(exam.join("keys/moodle.xml").is_file());
    assert!(!exam.join("moodle.xml").exists());
    for s in ["s1", "s2"] {
        assert!(!exam.join(s).join("moodle.xml").exists());
    }
    // Again with --force: the bank is generate's own file, replaced.
    let (code, _, err) = generate(
        "problem-sets/and-or-quiz.toml",
        &dir("exam"),
        &[
            "--format",
            "md",
            "--roster",
            &dir("class.csv"),
            "--secret",
            &dir("exam.secret"),
            "--force",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(!exam.join("keys/moodle.xml").exists());
    // --variants and --roster do not mix.
    let (code, _, err) = generate(
        "problem-sets/demo.toml",
        &dir("both"),
        &["--variants", "2", "--roster", &dir("class.csv")],
    );
    assert_eq!(code, 2, "{err}");
}

/// Expectiminimax's exact values (issue 28): fractions typed, decimals
/// where they are exact, whole numbers as numbers, through the transcribed
/// parser, over 20 variants of weighted trees.
#[test]
fn a_chance_set_exports_a_bank_moodle_would_import() {
    let set = set_of(
        "title = \"Chance\"\nseed = 3\n[[exercise]]\nkind = \"expectiminimax\"\ndepth = 2\nweighted = true\n[[exercise]]\nkind = \"expectiminimax\"\ndepth = 4\nbranching = 2\nlevels = [\"max\", \"chance\", \"min\", \"chance\"]\n",
    );
    let variants = variants(&set, 20);
    for code in ["en", "zh"] {
        let lang = Lang::builtin(code).unwrap();
        let xml = moodle::export(&set, &variants, &lang);
        assert!(xml.contains("SHORTANSWER:="), "{xml}");
        check_bank(&xml, &set, &variants, &lang);
    }
}

/// The principal variation (issue 28): its path a short answer of the
/// labels in order, its value a number, over 20 variants of generated trees
/// whose ties on the path are drawn again.
#[test]
fn a_principal_variation_set_exports_a_bank_moodle_would_import() {
    let set = set_of(
        "title = \"Paths\"\nseed = 3\n[[exercise]]\nkind = \"principal-variation\"\ndepth = 3\n",
    );
    let variants = variants(&set, 20);
    for code in ["en", "zh"] {
        let lang = Lang::builtin(code).unwrap();
        let xml = moodle::export(&set, &variants, &lang);
        check_bank(&xml, &set, &variants, &lang);
    }
}

/// The number (1-based) of `set`'s first question of `kind`: a test reads
/// a shipped set's question by what it is, not by where it stands.
fn question_of(set: &ProblemSet, kind: &str) -> usize {
    1 + set
        .exercises
        .iter()
        .position(|e| e.kind.name == kind)
        .unwrap_or_else(|| panic!("the set has a {kind} question"))
}

/// A set typed here, read as `problem_set::load` reads a file.
fn set_of(text: &str) -> ProblemSet {
    let source = treequiz::input::Source {
        path: "test.toml".into(),
        text: text.into(),
    };
    problem_set::parse(&source, root()).unwrap()
}

/// The text of the question named `name` in a bank.
fn question_text(xml: &str, name: &str) -> String {
    let doc = roxmltree::Document::parse(xml).unwrap();
    let q = doc
        .descendants()
        .find(|q| {
            q.has_tag_name("question")
                && q.children()
                    .find(|c| c.has_tag_name("name"))
                    .and_then(|n| n.children().find(|c| c.has_tag_name("text")))
                    .and_then(|t| t.text())
                    == Some(name)
        })
        .unwrap_or_else(|| panic!("question {name}"));
    let text = q
        .children()
        .find(|c| c.has_tag_name("questiontext"))
        .unwrap();
    text.children()
        .find(|c| c.has_tag_name("text"))
        .and_then(|t| t.text())
        .unwrap()
        .to_string()
}

fn weights<'a>(subs: impl IntoIterator<Item = &'a Sub>) -> Vec<u64> {
    subs.into_iter()
        .map(|s| s.weight.parse().unwrap())
        .collect()
}

/// The labels a multi-response sub-question offers, without “(none)”.
fn ticks(sub: &Sub) -> Vec<&str> {
    assert_eq!(sub.kind, Type::MultiResponse, "{}", sub.raw);
    let all: Vec<&str> = sub.answers.iter().map(|a| a.1.as_str()).collect();
    all[..all.len() - 1].to_vec()
}

/// Trial point 1: minimax asked the root's value twice (the `value` line and
/// row A of `values`), Grundy whether MAX wins the start twice (`winner` and
/// a check box of `max_wins`). Asked with its own field, the root's entry
/// leaves the other, whose points spread over the rest; asked alone, it stays.
#[test]
fn the_root_is_asked_once() {
    let m = Moodle::new();
    let lang = Lang::builtin("en").unwrap();
    let set = problem_set::load(&root().join("problem-sets/demo.toml")).unwrap();
    let q = question_of(&set, "minimax");
    let vs = variants(&set, 4);
    let xml = moodle::export(&set, &vs, &lang);
    for v in &vs {
        let Answer::Values(rows) = v.items[q - 1].key.answer("values").unwrap() else {
            panic!("minimax's values are a table")
        };
        let (subs, rest) = extract(&m, &question_text(&xml, &format!("Q{q} {}", v.id)));
        // value, every inner node but A, best_move.
        assert_eq!(subs.len(), 1 + (rows.len() - 1) + 1, "{}", v.id);
        assert!(!rest.contains(">A =</span> {#"), "{rest}");
        assert!(rest.contains(">B =</span> {#"), "{rest}");
        assert!(rest.contains("except A (asked above)"), "{rest}");
        // Each field its third of the points, each row of `values` a
        // seventh of its third; row A's seventh goes to `value`'s box, which
        // a student fills once for both (trial point 3: treequiz counts the
        // root in `value` and in `values`).
        let w = weights(&subs);
        let (value, rows_w, best) = (w[0], &w[1..w.len() - 1], w[w.len() - 1]);
        let m = rows.len() as u64;
        assert!(rows_w.iter().all(|&r| r * m == best), "{w:?}");
        assert_eq!(value, best + rows_w[0], "{w:?}");
    }
    // Without `value`, row A is the only place the root's value is asked.
    let alone = set_of(
        "title = \"t\"\nseed = 3\n[[exercise]]\nkind = \"minimax\"\npoints = 4\nask = [\"values\", \"best_move\"]\n",
    );
    let vs = variants(&alone, 1);
    let (subs, rest) = extract(
        &m,
        &question_text(
            &moodle::export(&alone, &vs, &lang),
            &format!("Q1 {}", vs[0].id),
        ),
    );
    let Answer::Values(rows) = vs[0].items[0].key.answer("values").unwrap() else {
        panic!()
    };
    assert_eq!(subs.len(), rows.len() + 1);
    assert!(rest.contains(">A =</span> {#"), "{rest}");
    assert!(!rest.contains("asked above"), "{rest}");
    // A table of the root alone keeps it: a field needs a sub-question.
    let flat = set_of(
        "title = \"t\"\nseed = 3\n[[exercise]]\nkind = \"minimax\"\npoints = 4\ninstance = { kind = \"game-tree\", tree = [3, 5] }\n",
    );
    let vs = variants(&flat, 1);
    let xml = moodle::export(&flat, &vs, &lang);
    check_bank(&xml, &flat, &vs, &lang);
    let (subs, rest) = extract(&m, &question_text(&xml, &format!("Q1 {}", vs[0].id)));
    assert_eq!(subs.len(), 3);
    assert!(rest.contains(">A =</span> {#"), "{rest}");
    assert!(!rest.contains("asked above"), "{rest}");
    // Grundy: the start state is no check box of max_wins beside `winner`.
    let grundy = |ask: &str| {
        set_of(&format!(
            "title = \"t\"\nseed = 3\n[[exercise]]\nkind = \"grundy\"\npoints = 6\nask = {ask}\ninstance = {{ kind = \"grundy\", coins = 7, first = \"min\" }}\n"
        ))
    };
    for (ask, offered) in [
        ("[\"winner\", \"max_wins\"]", false),
        ("[\"max_wins\", \"winning_moves\"]", true),
    ] {
        let set = grundy(ask);
        let vs = variants(&set, 1);
        let xml = moodle::export(&set, &vs, &lang);
        let (subs, _) = extract(&m, &question_text(&xml, &format!("Q1 {}", vs[0].id)));
        let max_wins = subs
            .iter()
            .find(|s| s.kind == Type::MultiResponse && !s.raw.contains(" -&gt; "))
            .unwrap();
        let choices = ticks(max_wins);
        assert_eq!(choices.contains(&"(7,MIN)"), offered, "{ask}: {choices:?}");
        assert!(choices.contains(&"(6,1,MAX)"), "{choices:?}");
        // MAX wins from (7,MIN): beside `winner`, the key lists the other states.
        let right: Vec<&str> = max_wins
            .answers
            .iter()
            .filter(|a| a.0 > 0.0)
            .map(|a| a.1.as_str())
            .collect();
        assert_eq!(right.contains(&"(7,MIN)"), offered, "{ask}: {right:?}");
    }
}

/// An alpha-beta question on 40 nodes under fail-hard (game-tree-quiz's
/// second), asking every field.
const ALPHA_BETA_40: &str = "title = \"t\"\nseed = 7\nconventions = \"knuth-moore\"\n[[exercise]]\nkind = \"alpha-beta\"\npoints = 8\ndepth = 3\nbranching = 3\nvalues = \"0..9\"\ndistinct = false\nmin_cuts = 3\nunique_best = true\n";

/// Trial point 2: set questions offered every node of the figure (41 check
/// boxes for a 27-leaf tree). Cuts can only happen at inner nodes with two
/// children or more; a pruned root is never the root nor the child its
/// parent searches first. Nothing else narrows the choices (MIN nodes stay
/// among the α-cut choices).
#[test]
fn set_questions_offer_only_what_the_field_can_name() {
    let m = Moodle::new();
    let lang = Lang::builtin("en").unwrap();
    // Depth 3, branching 3: 40 nodes, 13 inner.
    let set = set_of(ALPHA_BETA_40);
    let vs = variants(&set, 4);
    let xml = moodle::export(&set, &vs, &lang);
    for v in &vs {
        assert_eq!(v.items[0].instance.model().nodes(), 40);
        let (subs, _) = extract(&m, &question_text(&xml, &format!("Q1 {}", v.id)));
        let sets: Vec<&Sub> = subs
            .iter()
            .filter(|s| s.kind == Type::MultiResponse)
            .collect();
        let [pruned, alpha, beta] = sets[..] else {
            panic!("pruned, alpha_cuts, beta_cuts")
        };
        // Every node but the root and the 13 first children: 26, and (none).
        assert_eq!(pruned.answers.len(), 27, "{}", pruned.raw);
        for c in ["A", "B", "E", "N"] {
            assert!(!ticks(pruned).contains(&c), "{c}");
        }
        for c in ["C", "D", "O", "AN"] {
            assert!(ticks(pruned).contains(&c), "{c}");
        }
        // The 13 inner nodes, MAX and MIN alike, and (none).
        for cuts in [alpha, beta] {
            assert_eq!(
                ticks(cuts),
                [
                    "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M"
                ]
            );
        }
    }
    // Searched right to left, the last child is the one never pruned.
    let rtl = set_of(
        "title = \"t\"\nseed = 5\n[conventions]\npreset = \"textbook\"\norder = \"rtl\"\n[[exercise]]\nkind = \"alpha-beta\"\npoints = 6\ndepth = 2\nbranching = 3\nmin_cuts = 1\nask = [\"pruned\"]\n",
    );
    let vs = variants(&rtl, 1);
    let (subs, _) = extract(
        &m,
        &question_text(
            &moodle::export(&rtl, &vs, &lang),
            &format!("Q1 {}", vs[0].id),
        ),
    );
    assert_eq!(ticks(&subs[0]), ["B", "C", "E", "F", "H", "I", "K", "L"]);
}

/// Trial point 3: a 21-leaf `evaluated` order was one all-or-nothing box. A
/// long order is asked seven labels to a box, each box graded on its own and
/// worth its labels' share; the last box is open-ended, so the boxes do not
/// give the order's length away. `order_rule = "exact"` keeps one box.
#[test]
fn a_long_order_is_asked_in_parts_each_graded_alone() {
    let m = Moodle::new();
    let lang = Lang::builtin("en").unwrap();
    let set = set_of(ALPHA_BETA_40);
    let vs = variants(&set, 12);
    let xml = moodle::export(&set, &vs, &lang);
    let mut three = 0;
    for v in &vs {
        let Answer::Sequence(order) = v.items[0].key.answer("evaluated").unwrap() else {
            panic!("an order")
        };
        let model = v.items[0].instance.model();
        let labels: Vec<String> = order.iter().map(|&i| model.name(i)).collect();
        let n = labels.len();
        let (subs, rest) = extract(&m, &question_text(&xml, &format!("Q1 {}", v.id)));
        let parts: Vec<&Sub> = subs
            .iter()
            .filter(|s| s.kind == Type::ShortAnswer)
            .collect();
        assert_eq!(parts.len(), n.div_ceil(7), "{} with {n} leaves", v.id);
        let canonical: Vec<&str> = parts.iter().map(|p| p.answers[0].1.as_str()).collect();
        assert_eq!(canonical.join(", "), labels.join(", "));
        for part in &canonical[..parts.len() - 1] {
            assert_eq!(part.split(", ").count(), 7);
        }
        assert!(rest.contains("Positions 1–7:</span> {#"), "{rest}");
        if n > 14 {
            three += 1;
            assert!(rest.contains("Positions 8–14:</span> {#"), "{rest}");
            assert!(rest.contains("From position 15 on:</span> {#"), "{rest}");
        }
        // The last box is open-ended: the boxes do not tell n.
        assert!(!rest.contains(&format!("–{n}:")), "{rest}");
        // A student who swaps two leaves in the first box loses that box
        // only: Moodle grades each box by the answer it matches.
        let mut response: Vec<String> = labels.clone();
        response.swap(0, 1);
        let graded = |part: &Sub, text: &str| {
            part.answers
                .iter()
                .filter(|a| a.1.eq_ignore_ascii_case(text.trim()))
                .map(|a| a.0)
                .fold(0.0, f64::max)
        };
        let w = weights(parts.iter().copied());
        let earned: f64 = parts
            .iter()
            .zip(response.chunks(7))
            .zip(&w)
            .map(|((p, chunk), &w)| graded(p, &chunk.join(", ")) * w as f64)
            .sum();
        let total: u64 = w.iter().sum();
        assert!(
            (earned / total as f64 - (n - 7) as f64 / n as f64).abs() < 1e-9,
            "{w:?} for {n} leaves"
        );
        // Typed with another separator, each box is still right.
        assert_eq!(graded(parts[1], &labels[7..14.min(n)].join(" → ")), 1.0);
    }
    assert!(three > 0, "some variant evaluates 15 leaves or more");
    // Under order_rule = "exact" treequiz gives all or nothing: one box.
    let exact = set_of(
        "title = \"t\"\nseed = 7\n[[exercise]]\nkind = \"alpha-beta\"\npoints = 8\ndepth = 3\nbranching = 3\nmin_cuts = 3\norder_rule = \"exact\"\nask = [\"evaluated\"]\n",
    );
    let vs = variants(&exact, 1);
    let (subs, _) = extract(
        &m,
        &question_text(
            &moodle::export(&exact, &vs, &lang),
            &format!("Q1 {}", vs[0].id),
        ),
    );
    assert_eq!(subs.len(), 1);
    assert!(subs[0].answers[0].1.split(", ").count() > 7);
}

// --- What Moodle shows: its text filters.

/// Moodle's default emoticons, in its order: `default_emoticons()` in
/// `lib/classes/emoticon_manager.php` (moodle/moodle). The emoticon filter is
/// on in every new site (`filter/emoticon/db/install.php`).
const EMOTICONS: [&str; 30] = [
    ":-)", ":)", ":-D", ";-)", ":-/", "V-.", ":-P", ":-p", "B-)", "^-)", "8-)", ":o)", ":-(", ":(",
    "8-.", ":-I", ":-X", "8-o", "P-|", "8-[", "(grr)", "xx-P", "|-.", "}-]", "(h)", "(heart)",
    "(y)", "(n)", "(martin)", "( )",
];

/// HTML as Moodle's `format_text` gives it to the filters: HTML Purifier
/// (`clean_text`) has written each character reference as its character,
/// but for `&lt;`, `&gt;` and `&amp;`.
fn cleaned(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    loop {
        let next = ["&lt;", "&gt;", "&amp;"]
            .iter()
            .filter_map(|t| rest.find(t).map(|at| (at, *t)))
            .min();
        let Some((at, t)) = next else {
            out.push_str(&html_decode(rest));
            return out;
        };
        out.push_str(&html_decode(&rest[..at]));
        out.push_str(t);
        rest = &rest[at + t.len()..];
    }
}

/// The emoticons Moodle's filter turns into icons in `html`: a
/// transcription of `replace_emoticons` (`filter/emoticon/classes/text_filter.php`).
/// The text is split at span, script and pre tags; a span whose class
/// begins `nolink`, a script or a pre opens a zone left alone up to its
/// closing tag (nested tags counted as Moodle counts them); every other
/// fragment gets `str_replace` of the emoticons (case-sensitive).
fn emoticons_shown(html: &str) -> Vec<&'static str> {
    let html = cleaned(html);
    // preg_split('/(<\/?(?:span|script|pre)[^>]*>)/is', …, DELIM_CAPTURE | NO_EMPTY)
    static TAGS: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?is)(</?(?:span|script|pre)[^>]*>)").unwrap());
    static STARTS: LazyLock<[Regex; 3]> = LazyLock::new(|| {
        [
            Regex::new(r"(?is)^<script").unwrap(),
            Regex::new(r#"(?is)^<span[^>]+class="nolink[^"]*""#).unwrap(),
            Regex::new(r"(?is)^<pre").unwrap(),
        ]
    });
    let tags = &*TAGS;
    let mut fragments = Vec::new();
    let mut at = 0;
    for m in tags.find_iter(&html) {
        let m = m.unwrap();
        fragments.push(&html[at..m.start()]);
        fragments.push(m.as_str());
        at = m.end();
    }
    fragments.push(&html[at..]);
    let starts = &*STARTS;
    let mut exclude = 0;
    let mut shown = Vec::new();
    for fragment in fragments.into_iter().filter(|f| !f.is_empty()) {
        if exclude == 0 && starts.iter().any(|p| p.is_match(fragment).unwrap()) {
            exclude += 1;
        }
        if exclude > 0 {
            if ["</span", "</script", "</pre"]
                .iter()
                .any(|t| fragment.contains(t))
            {
                exclude -= 1;
                // "needed because of a double increment at the first element"
                if exclude == 1 {
                    exclude -= 1;
                }
            } else if ["<span", "<script", "<pre"]
                .iter()
                .any(|t| fragment.contains(t))
            {
                exclude += 1;
            }
        } else if !fragment.contains("<span") || !fragment.contains("</span") {
            shown.extend(EMOTICONS.iter().filter(|e| fragment.contains(*e)));
        }
    }
    shown
}

/// Every text of a bank that Moodle filters as HTML, with where it is: each
/// question's text as the cloze renderer filters it (each sub-question a
/// nolink token, `qtype_multianswer_renderer::formulation_and_controls`),
/// its general feedback, and each choice of a drop-down or check boxes
/// (`format_text` of the answer). Names go through `format_string`, which
/// the emoticon filter leaves alone; the export writes no answer feedback
/// and no hints (`extract` refuses answer feedback).
fn filtered_texts(m: &Moodle, xml: &str) -> Vec<(String, String)> {
    let doc = roxmltree::Document::parse(xml).unwrap();
    let text_of = |q: roxmltree::Node, tag: &str| {
        q.children()
            .find(|c| c.has_tag_name(tag))
            .and_then(|n| n.children().find(|c| c.has_tag_name("text")))
            .and_then(|t| t.text())
            .unwrap_or("")
            .to_string()
    };
    let mut out = Vec::new();
    for q in doc
        .descendants()
        .filter(|q| q.has_tag_name("question") && q.attribute("type") == Some("cloze"))
    {
        let name = text_of(q, "name");
        let (subs, rest) = extract(m, &text_of(q, "questiontext"));
        let rendered = Regex::new(r"\{#([0-9]+)\}")
            .unwrap()
            .replace_all(
                &rest,
                r#"<span class="nolink">qtypemultianswer${1}marker</span>"#,
            )
            .to_string();
        out.push((format!("{name}: question text"), rendered));
        out.push((
            format!("{name}: general feedback"),
            text_of(q, "generalfeedback"),
        ));
        for (i, sub) in subs.iter().enumerate() {
            if matches!(sub.kind, Type::MultiChoice | Type::MultiResponse) {
                for choice in &sub.stored {
                    out.push((
                        format!("{name}: sub-question {} choice", i + 1),
                        choice.clone(),
                    ));
                }
            }
        }
    }
    out
}

/// Trial (issue 27, section 5): in Moodle 5.2 the AND/OR legend "n (h)"
/// showed a heart and "h(n)" a "No" icon. Every text of ours is in a nolink
/// span, which the emoticon filter skips; character references would not
/// help (Moodle decodes them before filtering).
#[test]
fn no_text_of_ours_turns_into_an_emoticon() {
    // The transcription does what Moodle's own tests say
    // (filter/emoticon/tests/text_filter_test.php).
    assert_eq!(emoticons_shown("Hello(n)"), ["(n)"]);
    assert!(emoticons_shown(r#"<span class="nolink">(n)</span>"#).is_empty());
    assert_eq!(
        emoticons_shown(r#"<span class="nolink"><span>(n)</span>(n)</span>(n)"#),
        ["(n)"]
    );
    assert_eq!(emoticons_shown("<pre><pre>(n)</pre>(n)</pre>(n)"), ["(n)"]);
    assert!(emoticons_shown("<script language='javascript'>alert('(grr)');</script>").is_empty());
    // What the trial saw, and why a reference does not help.
    assert_eq!(
        emoticons_shown("<p><small>n (h): node n with heuristic value h</small></p>"),
        ["(h)"]
    );
    assert_eq!(emoticons_shown("h&#40;n) = min"), ["(n)"]);
    let m = Moodle::new();
    for path in shipped_sets() {
        let set = problem_set::load(&path).unwrap();
        let variants = variants(&set, 8);
        for code in ["en", "zh"] {
            let lang = Lang::builtin(code).unwrap();
            let xml = moodle::export(&set, &variants, &lang);
            for (what, html) in filtered_texts(&m, &xml) {
                let shown = emoticons_shown(&html);
                assert!(
                    shown.is_empty(),
                    "{} ({code}) {what}: {shown:?} in\n{html}",
                    path.display()
                );
            }
        }
    }
    // A teacher's labels may be anything: as a choice, in a row and in the
    // key, each stays a label (a choice that is not all letters and digits
    // is wrapped; `A` is not).
    let labels = r#"["(y)", "8-)", "A", ":(", "(h)", "(n)", "B-)"]"#;
    let tree = format!(
        "instance = {{ kind = \"game-tree\", tree = [[3, 5], [2, 9]], labels = {labels} }}"
    );
    let set = set_of(&format!(
        "title = \"t\"\nseed = 1\n[[exercise]]\nkind = \"minimax\"\npoints = 3\n{tree}\n[[exercise]]\nkind = \"alpha-beta\"\npoints = 4\nask = [\"value\", \"evaluated\", \"pruned\", \"alpha_cuts\"]\n{tree}\n"
    ));
    let vs = variants(&set, 1);
    let lang = Lang::builtin("en").unwrap();
    let xml = moodle::export(&set, &vs, &lang);
    check_bank(&xml, &set, &vs, &lang);
    let texts = filtered_texts(&m, &xml);
    assert!(
        texts.iter().any(|(_, t)| t.contains("8-) =")),
        "a row of values"
    );
    assert!(
        texts.iter().any(|(_, t)| t == "A"),
        "a plain label unwrapped"
    );
    for (what, html) in texts {
        assert!(emoticons_shown(&html).is_empty(), "{what}: {html}");
    }
}

// --- What the order boxes accept.

/// `qtype_shortanswer_question::compare_string_with_wildcard`
/// (`question/type/shortanswer/question.php`): both NFC-normalised, the
/// pattern split at runs of unescaped `*` (each "anything"), `\*` a star,
/// the rest literal, matched against the whole trimmed response; case
/// ignored unless the sub-question is SHORTANSWER_C.
fn wildcard_matches(response: &str, pattern: &str, ignore_case: bool) -> bool {
    use unicode_normalization::UnicodeNormalization;
    let pattern: String = pattern.nfc().collect();
    let response: String = response.nfc().collect();
    static STARS: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?<!\\)\*+").unwrap());
    let bits: Vec<String> = STARS
        .split(&pattern)
        .map(|b| fancy_regex::escape(&b.unwrap().replace("\\*", "*")).into_owned())
        .collect();
    let case = if ignore_case { "(?i)" } else { "" };
    Regex::new(&format!("{case}(?s)^{}$", bits.join(".*")))
        .unwrap()
        .is_match(response.trim())
        .unwrap()
}

/// Whether Moodle gives a short-answer sub-question full marks for `response`
/// (the first answer that matches grades it).
fn accepts(sub: &Sub, response: &str) -> bool {
    let ignore_case = !sub.raw.contains(":SHORTANSWER_C:");
    sub.answers
        .iter()
        .find(|a| wildcard_matches(response, &a.1, ignore_case))
        .is_some_and(|a| a.0 == 1.0)
}

/// Trial (issue 27, section 5): an order box took only a few spellings
/// ("A, B, C", "A,B,C", …) and its hint named one. It accepts the ones
/// students type (a space after a comma or not, a comma at the end, `;`,
/// `->`, `→`, a space, and the Chinese separators), and its hint shows
/// nothing that it does not accept; a spelling with two separators, a wrong
/// order or a missing label stay wrong.
#[test]
fn order_boxes_accept_what_students_type_and_the_hint_says_so() {
    assert!(wildcard_matches(" a, b ", "A, B", true));
    assert!(!wildcard_matches("a, b", "A, B", false));
    assert!(wildcard_matches("A, x, B", "A*B", true));
    assert!(!wildcard_matches("A, x, B", r"A\*B", true));
    assert!(wildcard_matches("A*B", r"A\*B", true));
    let m = Moodle::new();

    let mut boxes = 0;
    for (name, kind) in [
        ("game-tree-quiz", "alpha-beta"),
        ("and-or-quiz", "ao-star"),
        ("demo", "ao-star"),
    ] {
        let set = problem_set::load(&root().join(format!("problem-sets/{name}.toml"))).unwrap();
        let q = question_of(&set, kind);
        let vs = variants(&set, 6);
        for code in ["en", "zh"] {
            let lang = Lang::builtin(code).unwrap();
            let xml = moodle::export(&set, &vs, &lang);
            for v in &vs {
                let item = &v.items[q - 1];
                let model = item.instance.model();
                let field = ["evaluated", "expanded"]
                    .into_iter()
                    .find(|f| item.exercise.ask.contains(f))
                    .unwrap();
                let Answer::Sequence(order) = item.key.answer(field).unwrap() else {
                    panic!("an order")
                };
                let labels: Vec<String> = order.iter().map(|&i| model.name(i)).collect();
                let (subs, rest) = extract(&m, &question_text(&xml, &format!("Q{q} {}", v.id)));
                let rest = html_decode(&rest);
                let parts: Vec<&Sub> = subs
                    .iter()
                    .filter(|s| s.kind == Type::ShortAnswer)
                    .collect();
                let chunks: Vec<&[String]> = if parts.len() > 1 {
                    labels.chunks(7).collect()
                } else {
                    vec![&labels[..]]
                };
                assert_eq!(parts.len(), chunks.len(), "{name} {}", v.id);
                // The hint's examples (of labels the figure lacks), as separators.
                let spare = treequiz::exercise::example::spare_labels(&model, 3);
                let example = Regex::new(&format!(
                    r"{}([^A-Za-z0-9]{{1,4}}){}\1{}(\1)?,?",
                    fancy_regex::escape(&spare[0]),
                    fancy_regex::escape(&spare[1]),
                    fancy_regex::escape(&spare[2])
                ))
                .unwrap();
                let hint: Vec<(String, bool)> = example
                    .captures_iter(&rest)
                    .map(|c| {
                        let c = c.unwrap();
                        let sep = c.get(1).unwrap().as_str().to_string();
                        (sep, c.get(0).unwrap().as_str().ends_with(','))
                    })
                    .collect();
                assert!(hint.len() >= 6, "{name} ({code}): {hint:?} in {rest}");
                for (part, chunk) in parts.iter().zip(&chunks) {
                    boxes += 1;
                    let what = format!("{name} ({code}) {}: {}", v.id, part.raw);
                    let mut typed: Vec<String> = Vec::new();
                    for sep in [
                        ", ", ",", "; ", ";", " ", " -> ", "->", " → ", "→", "，", "、", "；",
                    ] {
                        typed.push(chunk.join(sep));
                        typed.push(format!("  {}  ", chunk.join(sep)));
                    }
                    for sep in [", ", ",", "，"] {
                        typed.push(format!("{}{}", chunk.join(sep), sep.trim_end()));
                    }
                    typed.push(chunk.join(", ").to_lowercase());
                    for (sep, trailing) in &hint {
                        let end = if *trailing { sep.trim_end() } else { "" };
                        typed.push(format!("{}{end}", chunk.join(sep)));
                    }
                    for t in &typed {
                        assert!(accepts(part, t), "{what}: {t:?} refused");
                    }
                    if chunk.len() >= 3 {
                        let mixed = format!("{}, {};{}", chunk[0], chunk[1], chunk[2..].join(";"));
                        assert!(!accepts(part, &mixed), "{what}: {mixed:?}");
                        let mut swapped = chunk.to_vec();
                        swapped.swap(0, 1);
                        assert!(!accepts(part, &swapped.join(", ")), "{what}");
                        assert!(!accepts(part, &chunk[1..].join(", ")), "{what}");
                    }
                }
            }
        }
    }
    assert!(boxes > 30, "{boxes} boxes");
    // A label with a star is that star, not "anything".
    let set = set_of(
        "title = \"t\"\nseed = 1\n[[exercise]]\nkind = \"alpha-beta\"\npoints = 4\nask = [\"evaluated\"]\ninstance = { kind = \"game-tree\", tree = [[3, 5], [2, 9]], labels = [\"A\", \"B\", \"C\", \"x*\", \"y\", \"z\", \"w\"] }\n",
    );
    let vs = variants(&set, 1);
    let xml = moodle::export(&set, &vs, &Lang::builtin("en").unwrap());
    let (subs, _) = extract(&m, &question_text(&xml, &format!("Q1 {}", vs[0].id)));
    assert!(accepts(&subs[0], "x*, y, z"), "{}", subs[0].raw);
    assert!(!accepts(&subs[0], "xq, y, z"), "{}", subs[0].raw);
}

// --- The same score in Moodle as in treequiz.

/// Trial (issue 27, section 5): a partly wrong minimax attempt scored 2.44
/// of 4 in treequiz and 2.48 in Moodle. treequiz counts the root's value
/// twice, in `value` and as row A of `values`; Moodle asks it once and
/// weighed that box as `value` alone. The box now also carries row A's
/// share, so every attempt scores the same in both (a Moodle student types
/// the root once; on treequiz's sheet the same student writes it in both).
#[test]
fn minimax_scores_the_same_in_moodle_and_in_treequiz() {
    use treequiz::grade::{batch::grade_source, key::KeyBook};
    use treequiz::value::Value;
    let m = Moodle::new();
    let lang = Lang::builtin("en").unwrap();
    // demo's minimax question: 4 points, value + values + best_move.
    let set = problem_set::load(&root().join("problem-sets/demo.toml")).unwrap();
    let qn = question_of(&set, "minimax");
    let vs = variants(&set, 4);
    let xml = moodle::export(&set, &vs, &lang);
    let book = KeyBook::from_variants(&set, &vs);
    let renderer = treequiz::render::Renderer::new(None).unwrap();
    let mut attempts = 0;
    for v in &vs {
        let item = &v.items[qn - 1];
        let model = item.instance.model();
        let t = model.tree().unwrap();
        let root = Item::Node(t.root().0);
        let Answer::Values(rows) = item.key.answer("values").unwrap() else {
            panic!("a table")
        };
        let Answer::One(best) = item.key.answer("best_move").unwrap() else {
            panic!("one label")
        };
        let other_move = t
            .children(t.root())
            .map(|c| Item::Node(c.0))
            .find(|c| !best.contains(c))
            .unwrap();
        let (subs, _) = extract(&m, &question_text(&xml, &format!("Q{qn} {}", v.id)));
        let w = weights(&subs);
        assert_eq!(
            w.len(),
            1 + (rows.len() - 1) + 1,
            "value, rows but A, best_move"
        );
        let sheet = renderer
            .render(
                "answer-sheet.toml",
                &treequiz::view::sheet(&set, v, &lang, true, None),
            )
            .unwrap();
        let header = &sheet[..sheet.find("[q1]").unwrap()];
        let number = |v: Value, right: bool| match v {
            Value::Finite(n) if right => n,
            Value::Finite(n) => n + 100,
            other => panic!("demo's leaves are finite: {other}"),
        };
        let root_value = rows.iter().find(|r| r.0 == root).unwrap().1;
        let others: Vec<(Item, Value)> = rows.iter().copied().filter(|r| r.0 != root).collect();
        for root_right in [true, false] {
            for wrong in 0..=others.len() {
                for best_right in [true, false] {
                    attempts += 1;
                    // treequiz: the root in `value` and in row A alike.
                    let mut table = vec![format!(
                        "\"{}\" = {}",
                        model.name(root),
                        number(root_value, root_right)
                    )];
                    table.extend(others.iter().enumerate().map(|(i, &(n, v))| {
                        format!("\"{}\" = {}", model.name(n), number(v, i >= wrong))
                    }));
                    let moves = if best_right { best[0] } else { other_move };
                    let text = format!(
                        "{header}[q{qn}]\nvalue = {}\nvalues = {{ {} }}\nbest_move = \"{}\"\n",
                        number(root_value, root_right),
                        table.join(", "),
                        model.name(moves)
                    );
                    let row = grade_source(
                        &book,
                        &treequiz::input::Source {
                            path: "attempt.toml".into(),
                            text,
                        },
                        &lang,
                        false,
                    );
                    let q = &row.questions[qn - 1];
                    let treequiz: f64 = q.fields.iter().map(|f| f.earned).sum();
                    // Moodle: the weighted sum of the boxes, scaled to the slot's 4 points.
                    let right: Vec<bool> = std::iter::once(root_right)
                        .chain((0..others.len()).map(|i| i >= wrong))
                        .chain([best_right])
                        .collect();
                    let earned: u64 = w
                        .iter()
                        .zip(&right)
                        .filter(|(_, r)| **r)
                        .map(|(w, _)| w)
                        .sum();
                    let moodle = q.max * earned as f64 / w.iter().sum::<u64>() as f64;
                    assert!(
                        (treequiz - moodle).abs() < 1e-9,
                        "{}: root right {root_right}, {wrong} other rows wrong, best move right {best_right}: treequiz {treequiz}, Moodle {moodle} ({w:?})",
                        v.id
                    );
                }
            }
        }
    }
    assert!(attempts > 40, "{attempts}");
}
