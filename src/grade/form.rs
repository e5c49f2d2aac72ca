//! An exam sheet checked before hand-in, with no key anywhere.
//!
//! `generate` writes `form.json` beside each exam worksheet: per question the
//! asked fields, the shape of each answer, the labels the student's figure
//! has (the targets the sheet's figure draws: nodes, connectors, moves, a
//! board's squares), the points and the slip rule. Nothing in it is derived
//! from the key, so it holds no answer and no hint of one; a test proves it
//! is the same for two instances that differ only in their numbers.
//!
//! `treequiz check` reads it and the sheet, and says per question what the
//! grader will read (with the grader's own readers and slip recovery), what
//! it cannot read and why, which labels name nothing in the figure, and what
//! each slip costs under the set's rule. Its words depend on the form of the
//! answers only: the same for the key and for a wrong answer of the same form.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::recover::Broken;
use super::score::{
    blank, doc_text, fold_doc, read_bound, read_fraction, read_list, read_list_strict, read_slip,
    read_value,
};
use super::submission::Submission;
use crate::class_set::Variant;
use crate::draw::Pick;
use crate::exercise::{Domain, Shape};
use crate::games::grundy::{State, split_move};
use crate::input::{Doc, DocKind, InputError, Source, label_key, label_text};
use crate::instance::Model;
use crate::lang::Lang;
use crate::reason::{Phrase, Reason};
use crate::scoring::SlipRule;

/// The form's file name, in a student's folder beside the worksheet.
pub const FILE: &str = "form.json";

/// The version of the form's layout; a form of another is refused.
pub const FORMAT: u32 = 1;

/// Forms larger than this are not read (a 40-student midterm's are 2–6 KB).
pub const MAX_FORM_BYTES: u64 = 4 * 1024 * 1024;

/// What `check` needs to read one exam sheet: its questions' fields and the
/// labels of its figures, nothing of the key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Form {
    /// [`FORMAT`].
    pub format: u32,
    /// The variant id the sheet carries.
    pub variant: String,
    /// The student the sheet is for, if a roster named one.
    pub student: Option<String>,
    /// The language the sheets are in (`check` answers in it).
    pub language: String,
    /// The questions, in sheet order.
    pub questions: Vec<Question>,
}

/// One question of the sheet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    /// Its number, as in `[qN]`.
    pub number: usize,
    /// Its exercise kind.
    pub kind: String,
    /// Its points, shared equally among its fields.
    pub points: u32,
    /// What a slip costs in it.
    pub slips: SlipRule,
    /// The asked fields, in sheet order.
    pub fields: Vec<Field>,
    /// The labels of its figure.
    pub figure: Figure,
}

/// One asked field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Field {
    /// Its key in `[qN]`.
    pub name: String,
    /// The shape of its answer.
    pub shape: Shape,
    /// What the labels of its answer name.
    pub names: Names,
}

/// What a field's labels name (its table's rows, for a table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Names {
    /// Nothing: the answer is a number.
    Nothing,
    /// Nodes (states, or a game's moves written with the board's squares).
    Nodes,
    /// AND/OR connectors.
    Connectors,
    /// Moves between two states of a game graph.
    Moves,
    /// `MAX` or `MIN`.
    Players,
}

/// How the figure's labels are written and compared, as the grader's model
/// compares them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Spelling {
    /// Any case (trimmed, in Unicode NFC).
    Labels,
    /// With case (a tree whose `a` and `A` are two nodes).
    CasedLabels,
    /// Grundy states `(6,1,MAX)`: piles in any order, parentheses optional.
    States,
    /// A game's moves: squares of the board, a reply after its move (`b2-a1`).
    Squares,
}

/// The labels a figure shows, as the sheet draws them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Figure {
    /// How they are compared.
    pub spelling: Spelling,
    /// Its nodes (states, or a board's squares), in the figure's order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nodes: Vec<String>,
    /// Its connectors.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub connectors: Vec<Joined>,
    /// Its moves between states.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<Joined>,
}

/// A connector or a move, by the labels it joins (kept apart, so that the
/// file never spells a connector as an answer would).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Joined {
    /// Where it starts.
    pub from: String,
    /// Where it leads.
    pub to: Vec<String>,
}

impl Form {
    /// The form of an exam variant, in `language`: its asked fields and the
    /// labels its sheet's figures draw. Nothing here reads the key.
    pub fn of(variant: &Variant, language: &str) -> Form {
        let questions = variant
            .items
            .iter()
            .map(|item| {
                let kind = item.exercise.kind;
                let fields = item
                    .exercise
                    .ask
                    .iter()
                    .map(|&name| {
                        let field = kind.field(name);
                        Field {
                            name: name.to_string(),
                            shape: field.shape,
                            names: names_of(field.shape, field.domain),
                        }
                    })
                    .collect();
                Question {
                    number: item.number,
                    kind: kind.name.to_string(),
                    points: item.exercise.points,
                    slips: item.exercise.scoring.slips,
                    fields,
                    figure: figure_of(&item.instance),
                }
            })
            .collect();
        Form {
            format: FORMAT,
            variant: variant.id.clone(),
            student: variant.student.as_ref().map(|s| s.id.clone()),
            language: language.to_string(),
            questions,
        }
    }

    /// The form as `generate` writes it: pretty JSON, one label a line.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("a form is plain data");
        text.push('\n');
        text
    }

    /// Reads a form written by `generate`; a changed or foreign file is
    /// refused with its line and column and what to do.
    pub fn parse(source: &Source) -> Result<Form, InputError> {
        let hint = || {
            Some(format!(
                "use the {FILE} from the folder your teacher gave you, unchanged"
            ))
        };
        let mut de = serde_json::Deserializer::from_str(&source.text);
        let form: Form = match serde_path_to_error::deserialize(&mut de) {
            Ok(form) => form,
            Err(e) => {
                let path = e.path().to_string();
                let inner = e.into_inner();
                let at = crate::manifest::offset(&source.text, inner.line(), inner.column());
                let what = if path.is_empty() || path == "." {
                    format!("this is not a treequiz answer form: {inner}")
                } else {
                    format!("this is not a treequiz answer form: at `{path}`: {inner}")
                };
                return Err(source.error_at(at..at, what, hint()));
            }
        };
        if form.format != FORMAT {
            return Err(InputError::file(
                &source.path,
                format!(
                    "this answer form has format {}; this treequiz reads format {FORMAT}",
                    form.format
                ),
                Some("check the sheet with the treequiz your teacher uses".into()),
            ));
        }
        Ok(form)
    }

    /// Reads the form of `sheet`'s sheet (`sub`): one of another student or
    /// variant is refused, with what to do. `treequiz check` and the page
    /// both read it so.
    pub fn of_sheet(source: &Source, sub: &Submission, sheet: &str) -> Result<Form, InputError> {
        let form = Form::parse(source)?;
        match form.mismatch(sub) {
            None => Ok(form),
            Some(why) => Err(InputError::file(
                &source.path,
                format!("{why}: it is not this sheet's form"),
                Some(format!(
                    "check {sheet} with the {FILE} of the folder it came from (your own)"
                )),
            )),
        }
    }

    /// Why this form is not the one of `sub`'s sheet (another student's or
    /// another variant's), when it is not.
    fn mismatch(&self, sub: &Submission) -> Option<String> {
        let variant = sub.variant.as_deref().map(str::trim).unwrap_or("");
        let same_variant = variant.eq_ignore_ascii_case(self.variant.trim());
        let same_student = match (&self.student, &sub.student) {
            (Some(a), Some(b)) => a.trim().eq_ignore_ascii_case(b.trim()),
            (None, None) => true,
            _ => false,
        };
        (!(same_variant && same_student)).then(|| {
            let who = |variant: &str, student: Option<&str>| match student {
                Some(s) => format!("variant {variant} of student {s}"),
                None => format!("variant {variant}"),
            };
            format!(
                "this form is for {}, but the sheet is {}",
                who(&self.variant, self.student.as_deref()),
                who(
                    if variant.is_empty() {
                        "(none)"
                    } else {
                        variant
                    },
                    sub.student.as_deref()
                )
            )
        })
    }
}

/// What a field's labels name, by its shape and domain alone.
fn names_of(shape: Shape, domain: Domain) -> Names {
    match (shape, domain) {
        (Shape::Value | Shape::Cost, _) => Names::Nothing,
        (Shape::Connectors, _) => Names::Connectors,
        (_, Domain::Players) => Names::Players,
        (_, Domain::Moves) => Names::Moves,
        _ => Names::Nodes,
    }
}

/// The labels the worksheet's figure of `instance` draws: what a student
/// can name, and nothing the search or the key decides (a game's figure is
/// its board, so its labels are squares, never the moves searched).
fn figure_of(instance: &crate::instance::Instance) -> Figure {
    let model = instance.model();
    let (figure, _) = model.sheet_figure(instance);
    let spelling = match &model {
        Model::Grundy(_) => Spelling::States,
        Model::TicTacToe(_) | Model::Othello(_) => Spelling::Squares,
        Model::Tree(t) | Model::BudgetTree(_, t) if t.case_sensitive() => Spelling::CasedLabels,
        _ => Spelling::Labels,
    };
    let mut seen = HashSet::new();
    let mut out = Figure {
        spelling,
        nodes: Vec::new(),
        connectors: Vec::new(),
        moves: Vec::new(),
    };
    for target in &figure.targets {
        if !seen.insert((target.pick.name(), target.label.clone())) {
            continue;
        }
        let label = target.label.to_string();
        match target.pick {
            Pick::Node => out.nodes.push(label),
            Pick::Connector => out.connectors.extend(joined(&label, &['+'])),
            Pick::Move => out.moves.extend(joined(&label, &[])),
        }
    }
    out
}

/// `a -> b + c` as its parts (`to` split at `split`, which a move's
/// states, written with commas, are not).
fn joined(text: &str, split: &[char]) -> Option<Joined> {
    let (from, to) = split_move(text)?;
    let to = if split.is_empty() {
        vec![to.trim().to_string()]
    } else {
        to.split(split).map(|t| t.trim().to_string()).collect()
    };
    Some(Joined {
        from: from.trim().to_string(),
        to,
    })
}

/// A figure's labels, ready to look a student's up in.
struct Index {
    spelling: Spelling,
    nodes: HashSet<String>,
    connectors: HashSet<(String, Vec<String>)>,
    moves: HashSet<(String, String)>,
}

impl Index {
    fn new(figure: &Figure) -> Index {
        let spelling = figure.spelling;
        let mut index = Index {
            spelling,
            nodes: HashSet::new(),
            connectors: HashSet::new(),
            moves: HashSet::new(),
        };
        index.nodes = figure
            .nodes
            .iter()
            .filter_map(|n| index.node_key(n))
            .collect();
        index.connectors = figure
            .connectors
            .iter()
            .filter_map(|c| index.connector_key(&c.from, c.to.iter().map(String::as_str)))
            .collect();
        index.moves = figure
            .moves
            .iter()
            .filter_map(|m| Some((index.node_key(&m.from)?, index.node_key(m.to.first()?)?)))
            .collect();
        index
    }

    /// A label in the form it is compared in (a square path's parts joined by `-`).
    fn node_key(&self, text: &str) -> Option<String> {
        match self.spelling {
            Spelling::Labels => Some(label_key(text)),
            Spelling::CasedLabels => Some(label_text(text)),
            Spelling::States => State::parse(text).map(|s| s.name()),
            Spelling::Squares => Some(label_key(text)),
        }
    }

    fn connector_key<'a>(
        &self,
        from: &str,
        to: impl Iterator<Item = &'a str>,
    ) -> Option<(String, Vec<String>)> {
        let mut to: Vec<String> = to.map(|t| self.node_key(t)).collect::<Option<_>>()?;
        to.sort_unstable();
        Some((self.node_key(from)?, to))
    }

    /// Whether a node label names something in the figure, as the grader
    /// reads it: for a game, every square of the path is on the board.
    fn knows_node(&self, text: &str) -> bool {
        match self.spelling {
            Spelling::Squares => {
                let path: Vec<&str> = text
                    .split(|c: char| c.is_whitespace() || matches!(c, '-' | '–' | '>' | '→'))
                    .filter(|p| !p.is_empty())
                    .collect();
                !path.is_empty() && path.iter().all(|p| self.nodes.contains(&label_key(p)))
            }
            // The grader reads MAX and MIN as the players in any of Grundy's fields.
            Spelling::States if is_player(text) => true,
            _ => self.node_key(text).is_some_and(|k| self.nodes.contains(&k)),
        }
    }

    fn knows_connector(&self, text: &str) -> bool {
        let Some((from, to)) = text.split_once("->").or_else(|| text.split_once('→')) else {
            return false;
        };
        self.connector_key(from, to.split(['+', ',']))
            .is_some_and(|k| self.connectors.contains(&k))
    }

    fn knows_move(&self, text: &str) -> bool {
        split_move(text)
            .and_then(|(a, b)| Some((self.node_key(a)?, self.node_key(b)?)))
            .is_some_and(|k| self.moves.contains(&k))
    }

    /// Why a label of a field naming `names` names nothing here, if it does not.
    fn unknown(&self, names: Names, text: &str) -> Option<Reason> {
        let known = match names {
            Names::Nothing => true,
            Names::Nodes => self.knows_node(text),
            Names::Connectors => self.knows_connector(text),
            Names::Moves => self.knows_move(text),
            Names::Players => is_player(text),
        };
        if known {
            return None;
        }
        Some(match (names, self.spelling) {
            (Names::Connectors, _) => {
                Reason::new(Phrase::ConnectorUnknown).with("connector", text.trim())
            }
            (Names::Players, _) => Reason::new(Phrase::WriteMaxOrMin),
            (_, Spelling::States) => Reason::new(Phrase::UnknownState).with("label", text.trim()),
            (_, Spelling::Squares) => Reason::new(Phrase::NotSquares).with("label", text.trim()),
            _ => Reason::new(Phrase::UnknownLabel).with("label", text.trim()),
        })
    }
}

fn is_player(text: &str) -> bool {
    matches!(text.trim().to_ascii_uppercase().as_str(), "MAX" | "MIN")
}

/// What a check found, ready to print.
pub struct Checked {
    /// The report, in the form's language.
    pub text: String,
    /// How many things it asks the student to fix (a blank field is not one).
    pub to_fix: usize,
}

/// One field as the grader will read it.
enum Read {
    /// No line for it: not attempted.
    Missing,
    /// `""`: not attempted.
    Blank,
    /// Earns nothing as written.
    Unreadable,
    /// Its section cannot be read.
    Lost,
    /// Read: what it holds, counted (never its values).
    Given(String),
}

/// Checks an exam sheet's answers against its form, in `lang`. The report
/// depends on the form of the answers only (how many items, which labels
/// name nothing, where a slip is), never on whether they are right: it has
/// no key to know.
pub fn check(form: &Form, sheet: &str, form_path: &str, sub: &Submission, lang: &Lang) -> Checked {
    let mut out = Vec::new();
    let mut to_fix = 0;
    let who = sub.student.clone().or_else(|| form.student.clone());
    out.push(lang.fill(
        if who.is_some() {
            "check.exam_intro"
        } else {
            "check.exam_intro_anonymous"
        },
        &[
            ("sheet", sheet),
            ("student", who.as_deref().unwrap_or("")),
            ("variant", &form.variant),
            ("form", form_path),
        ],
    ));
    out.push(lang.get("check.exam_no_key").to_string());
    // The top of the sheet and sections it should not have.
    let mut top = Vec::new();
    top.extend(sub.student_problem.clone());
    for b in sub.broken.iter().filter(|b| {
        b.in_header
            || !b
                .question
                .is_some_and(|n| form.questions.iter().any(|q| q.number == n))
    }) {
        top.push(b.slip.reason(None).render(lang, false));
    }
    for key in &sub.unknown {
        top.push(lang.fill("grade.unknown_question", &[("key", key)]));
    }
    for (n, _) in &sub.questions {
        if !form.questions.iter().any(|q| q.number == *n) {
            top.push(lang.fill("grade.unknown_question", &[("key", &format!("q{n}"))]));
        }
    }
    if !top.is_empty() {
        out.push(String::new());
        out.push(lang.get("check.exam_top").to_string());
        to_fix += top.len();
        out.extend(top.into_iter().map(|line| format!("  - {line}")));
    }
    let mut graded = Vec::new();
    for q in &form.questions {
        let (lines, fixes, reads) = check_question(q, sub, lang);
        to_fix += fixes;
        out.push(String::new());
        let heading = lang.fill(
            "check.exam_question",
            &[
                ("n", &q.number.to_string()),
                ("kind", lang.get(&format!("kind.{}", q.kind))),
                ("points", &q.points.to_string()),
            ],
        );
        out.push(if lines.is_empty() {
            lang.fill("check.exam_question_ok", &[("question", heading.as_str())])
        } else {
            lang.fill(
                "check.exam_question_to_fix",
                &[("question", heading.as_str())],
            )
        });
        out.extend(lines.into_iter().map(|line| format!("  - {line}")));
        graded.push((q.number, reads));
    }
    out.push(String::new());
    out.push(lang.get("check.exam_graded").to_string());
    for (n, reads) in graded {
        let fields: Vec<String> = reads
            .iter()
            .map(|(field, read, slip)| {
                let what = match read {
                    Read::Missing | Read::Blank => lang.get("check.read_blank").to_string(),
                    Read::Unreadable => lang.get("check.read_unreadable").to_string(),
                    Read::Lost => lang.get("check.read_lost").to_string(),
                    Read::Given(what) => what.clone(),
                };
                let slip = if *slip {
                    lang.get("check.read_from_slip").to_string()
                } else {
                    String::new()
                };
                format!("`{field}` {what}{slip}")
            })
            .collect();
        out.push(format!(
            "  - q{n}: {}",
            fields.join(lang.get("check.read_sep"))
        ));
    }
    out.push(String::new());
    out.push(if to_fix == 0 {
        lang.get("check.exam_ready").to_string()
    } else {
        lang.fill("check.exam_to_fix", &[("count", &to_fix.to_string())])
    });
    let mut text = out.join("\n");
    text.push('\n');
    Checked { text, to_fix }
}

/// One question: its lines to fix (or note), how many are to fix, and what
/// each field will be read as (and whether from a slip).
fn check_question(
    q: &Question,
    sub: &Submission,
    lang: &Lang,
) -> (Vec<String>, usize, Vec<(String, Read, bool)>) {
    let index = Index::new(&q.figure);
    let ask: Vec<&str> = q.fields.iter().map(|f| f.name.as_str()).collect();
    let per_field = f64::from(q.points) / ask.len().max(1) as f64;
    let broken: Vec<&Broken> = sub
        .broken
        .iter()
        .filter(|b| !b.in_header && b.question == Some(q.number))
        .collect();
    let mut lines = Vec::new();
    let mut fixes = 0;
    let every = |read: fn() -> Read| -> Vec<(String, Read, bool)> {
        q.fields
            .iter()
            .map(|f| (f.name.clone(), read(), false))
            .collect()
    };
    if let Some(b) = broken.iter().find(|b| b.section_header) {
        let why = b.slip.reason(None).render(lang, false);
        lines.push(lang.fill("check.exam_lost", &[("why", &why)]));
        return (lines, 1, every(|| Read::Lost));
    }
    let Some((_, given)) = sub.questions.iter().find(|(n, _)| *n == q.number) else {
        lines.push(lang.fill("check.exam_no_section", &[("n", &q.number.to_string())]));
        return (lines, 1, every(|| Read::Missing));
    };
    for (name, _) in given
        .iter()
        .filter(|(name, _)| !ask.contains(&name.as_str()))
    {
        lines.push(
            Reason::new(Phrase::UnknownField)
                .with("n", q.number.to_string())
                .with("field", name.as_str())
                .render(lang, false),
        );
        fixes += 1;
    }
    // A slip in a line that sets no asked field.
    for b in broken
        .iter()
        .filter(|b| !b.field.as_deref().is_some_and(|f| ask.contains(&f)))
    {
        lines.push(b.slip.reason(None).render(lang, false));
        fixes += 1;
    }
    let keeps = q.slips.keeps();
    let mut reads = Vec::new();
    for field in &q.fields {
        let name = field.name.as_str();
        let say = |line: String| format!("`{name}`: {line}");
        let slip = broken.iter().find(|b| b.field.as_deref() == Some(name));
        let rewrite = slip.and_then(|b| read_slip(b, &ask));
        let mut from_slip = false;
        let doc = match (slip, &rewrite, keeps) {
            (Some(b), Some(doc), Some(kept)) => {
                let cost = if kept >= 1.0 {
                    Reason::new(Phrase::SlipFree)
                } else {
                    Reason::new(Phrase::SlipCostUpTo)
                        .with("percent", format!("{:.0}", (1.0 - kept) * 100.0))
                        .with("points", super::report::points(per_field * (1.0 - kept)))
                };
                lines.push(say(b.slip.read_as(cost).render(lang, false)));
                fixes += 1;
                from_slip = true;
                // As the grader: the field's own line first, then the rewrite.
                Some(
                    given
                        .iter()
                        .find(|(n, _)| n == name)
                        .map_or_else(|| doc.clone(), |(_, d)| d.clone()),
                )
            }
            (Some(b), _, _) => {
                let key = if rewrite.is_some() {
                    "check.slip_refused"
                } else {
                    "check.slip_unread"
                };
                let why = b.slip.reason(None).render(lang, false);
                lines.push(say(lang.fill(key, &[("why", &why)])));
                fixes += 1;
                reads.push((name.to_string(), Read::Unreadable, false));
                continue;
            }
            (None, _, _) => given
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, d)| d.clone()),
        };
        let read = match doc {
            None => {
                lines.push(say(lang.get("check.field_missing").to_string()));
                fixes += 1;
                Read::Missing
            }
            Some(doc) if blank(&doc) => {
                lines.push(say(lang.get("check.field_blank").to_string()));
                Read::Blank
            }
            Some(doc) => {
                let (read, problems) = read_field(field, &fold_doc(&doc), &index, lang);
                fixes += problems.len();
                lines.extend(problems.into_iter().map(|p| say(p.render(lang, false))));
                read
            }
        };
        reads.push((name.to_string(), read, from_slip));
    }
    (lines, fixes, reads)
}

/// Reads one answer as the grader's readers do: what it holds (counted) and
/// what in it cannot be read or names nothing in the figure.
fn read_field(field: &Field, doc: &Doc, index: &Index, lang: &Lang) -> (Read, Vec<Reason>) {
    let unreadable = |what: &'static str| {
        (
            Read::Unreadable,
            vec![
                Reason::new(Phrase::Unreadable)
                    .term("what", what)
                    .with("given", doc_text(doc)),
            ],
        )
    };
    let count = |key: &str, n: usize| {
        let key = if n == 1 {
            format!("{key}_one")
        } else {
            key.to_string()
        };
        Read::Given(lang.fill(&key, &[("count", &n.to_string())]))
    };
    let labels = |items: &[String]| -> Vec<Reason> {
        let mut seen = HashSet::new();
        items
            .iter()
            .filter(|t| seen.insert(t.trim().to_string()))
            .filter_map(|t| index.unknown(field.names, t))
            .collect()
    };
    match field.shape {
        Shape::Value | Shape::Cost => match read_value(doc) {
            Some(_) => (
                Read::Given(lang.get("check.read_number").to_string()),
                vec![],
            ),
            None if field.shape == Shape::Cost => unreadable("grade.what_cost"),
            None => unreadable("grade.what_value"),
        },
        Shape::Label => match &doc.kind {
            DocKind::Str(s) => (
                Read::Given(lang.get("check.read_label").to_string()),
                labels(std::slice::from_ref(s)),
            ),
            _ => unreadable("grade.what_label"),
        },
        Shape::Labels | Shape::Sequence => match read_list(doc) {
            Some(items) => {
                let key = if field.shape == Shape::Sequence {
                    "check.read_sequence"
                } else {
                    "check.read_labels"
                };
                (count(key, items.len()), labels(&items))
            }
            None => unreadable("grade.what_list"),
        },
        Shape::Connectors => match read_list_strict(doc) {
            Some(items) => (count("check.read_connectors", items.len()), labels(&items)),
            None => unreadable("grade.what_connectors"),
        },
        Shape::Values | Shape::Bounds | Shape::Fractions => {
            let DocKind::Table(entries) = &doc.kind else {
                return unreadable("grade.what_table");
            };
            let (read, what): (fn(&Doc) -> bool, &'static str) = if field.shape == Shape::Fractions
            {
                (|d| read_fraction(d).is_some(), "grade.what_fraction")
            } else {
                (|d| read_bound(d).is_some(), "grade.what_value")
            };
            let rows: Vec<String> = entries.iter().map(|(k, _)| k.name.clone()).collect();
            let mut problems = labels(&rows);
            for (k, d) in entries.iter().filter(|(_, d)| !read(d)) {
                problems.push(
                    Reason::new(Phrase::NodeUnreadable)
                        .with("node", k.name.trim())
                        .nested(
                            "why",
                            Reason::new(Phrase::Unreadable)
                                .term("what", what)
                                .with("given", doc_text(d)),
                        ),
                );
            }
            (count("check.read_rows", entries.len()), problems)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Master;

    /// A set of one alpha-beta, one AO* and one solution-cost question on
    /// fixed instances, with these leaf values and node estimates.
    fn set(leaves: &str, h: [u32; 3]) -> crate::problem_set::ProblemSet {
        let text = format!(
            r#"title = "Form"
language = "en"
seed = 1
conventions = "textbook"

[[exercise]]
kind = "alpha-beta"
points = 6
slips = "refuse"
instance = {{ kind = "game-tree", tree = {leaves} }}

[[exercise]]
kind = "ao-star"
points = 8
slips = {{ penalty = 0.25 }}
instance = {{ kind = "and-or-graph", start = "S", cost = "sum", nodes = {{ S = {}, A = {}, B = {}, t1 = 0, t2 = 0 }}, terminal = ["t1", "t2"], connectors = [{{ from = "S", to = ["A"] }}, {{ from = "S", to = ["B"] }}, {{ from = "A", to = ["t1"] }}, {{ from = "B", to = ["t1", "t2"] }}] }}

[[exercise]]
kind = "grundy"
points = 4
instance = {{ kind = "grundy", coins = 7 }}
"#,
            h[0], h[1], h[2]
        );
        let source = Source {
            path: "form.toml".into(),
            text,
        };
        crate::problem_set::parse(&source, std::path::Path::new(".")).unwrap()
    }

    fn variant(set: &crate::problem_set::ProblemSet) -> Variant {
        let mut v = crate::class_set::build(set, &Master::from_seed(7), &[])
            .unwrap()
            .remove(0);
        // Two sets of one student: the id is the roster's, not the numbers'.
        v.id = "FORM01".into();
        v
    }

    /// Issue 29: the form changes with nothing that only a key would: two
    /// sets whose figures have the same labels but other numbers (and so
    /// other keys) give the same bytes.
    #[test]
    fn a_form_is_the_same_for_two_keys_of_one_figure() {
        let a = variant(&set("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]", [2, 1, 1]));
        let b = variant(&set("[[9, 1, 1], [7, 8, 0], [3, 3, 20]]", [1, 5, 1]));
        for (x, y) in a.items.iter().zip(&b.items).take(2) {
            assert_ne!(x.key, y.key, "q{}: the keys differ", x.number);
        }
        let (fa, fb) = (Form::of(&a, "en").to_json(), Form::of(&b, "en").to_json());
        assert_eq!(fa, fb);
        // What is in it: fields, labels, slip rules; read back the same.
        assert!(fa.contains(r#""spelling": "states""#), "{fa}");
        assert!(fa.contains(r#""penalty": 25"#), "{fa}");
        let source = Source {
            path: FILE.into(),
            text: fa.clone(),
        };
        assert_eq!(Form::parse(&source).unwrap(), Form::of(&a, "en"));
    }

    /// A figure's labels are read as the grader's model reads them: any
    /// case, a connector's children in any order, a state's piles in any
    /// order; a game's moves only as squares of its board.
    #[test]
    fn labels_are_looked_up_as_the_grader_reads_them() {
        let v = variant(&set("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]", [2, 1, 1]));
        let form = Form::of(&v, "en");
        let tree = Index::new(&form.questions[0].figure);
        assert!(tree.unknown(Names::Nodes, " b ").is_none());
        assert!(tree.unknown(Names::Nodes, "Z").is_some());
        let graph = Index::new(&form.questions[1].figure);
        assert!(graph.unknown(Names::Connectors, "b -> T2 + t1").is_none());
        assert!(graph.unknown(Names::Connectors, "S → a").is_none());
        assert!(graph.unknown(Names::Connectors, "A -> t2").is_some());
        let grundy = Index::new(&form.questions[2].figure);
        assert!(grundy.unknown(Names::Nodes, "1, 6, min").is_none());
        assert!(grundy.unknown(Names::Nodes, "(8,MAX)").is_some());
        assert!(
            grundy
                .unknown(Names::Moves, "(7,MAX) => (1,6,MIN)")
                .is_none()
        );
        assert!(
            grundy
                .unknown(Names::Moves, "(7,MAX) -> (4,2,1,MAX)")
                .is_some()
        );
        assert!(grundy.unknown(Names::Players, "min").is_none());
        let board = Index {
            spelling: Spelling::Squares,
            nodes: ["a1", "b2", "c3"].iter().map(|s| s.to_string()).collect(),
            connectors: HashSet::new(),
            moves: HashSet::new(),
        };
        assert!(board.unknown(Names::Nodes, "B2 - a1").is_none());
        assert!(board.unknown(Names::Nodes, "d4").is_some());
        assert!(board.unknown(Names::Nodes, " - ").is_some());
    }

    /// What a slip costs is said by the set's rule, without the key: read
    /// and free, read less a share of what it earns (at most the field's
    /// share), or refused; a broken section header loses its question.
    #[test]
    fn a_slip_costs_what_the_rule_says_without_the_key() {
        let v = variant(&set("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]", [2, 1, 1]));
        let form = Form::of(&v, "en");
        let text = "variant = \"FORM01\"\nchecksum = \"0\"\n\n[q1]\nvalue = 3\npruned = [“C”]\n\n[q2]\nexpanded = [\"S\"， \"A\"]\ncost = 2\nsolution = [\"S -> A\"]\n\n[q3\nwinner = \"MAX\"\n";
        let source = Source {
            path: "sheet.toml".into(),
            text: text.into(),
        };
        let sub = super::super::submission::parse(&source).unwrap();
        let en = Lang::builtin("en").unwrap();
        let checked = check(&form, "sheet.toml", FILE, &sub, &en);
        let out = &checked.text;
        for line in [
            "  - `pruned`: line 6, column 11: `“` is a Chinese quotation mark; type the ASCII quote \" instead: pruned = [\"C\"]; this set does not accept slips, so as it is the answer earns nothing\n",
            "  - `evaluated`: there is no line for it, so it would count as not answered",
            "  - `expanded`: line 9, column 16: `，` is a Chinese comma; read as expanded = [\"S\", \"A\"], which costs 25% of the points the answer earns, at most 0.67 points (this set's penalty for a slip)\n",
            "q3 (Grundy's game, 4 points):\n  - this question cannot be read, so none of its answers would count: line 13, column ",
            "  - q1: `value` a number; `values` not answered; `evaluated` not answered; `pruned` not readable (earns nothing);",
            "  - q2: `expanded` 2 labels in order (read from a slip); `cost` a number; `solution` 1 connector\n",
            "  - q3: `winner` not read (its section cannot be read);",
        ] {
            assert!(out.contains(line), "{line}\n---\n{out}");
        }
        assert!(
            out.starts_with(
                "sheet.toml: the exam answer sheet of variant FORM01, checked against form.json.\n"
            ),
            "{out}"
        );
        assert_eq!(checked.to_fix, 7, "{out}");
    }
}
