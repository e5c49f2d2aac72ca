//! Scoring one question: normalise what the student wrote, compare it with the
//! key by the exercise's rules, and say why every lost point was lost.

use serde::Serialize;

use super::key::KeyQuestion;
use super::rules::{order_fraction, set_fraction};
use crate::andor::{ConnectorId, Graph};
use crate::exercise::{Answer, Shape};
use crate::games::grundy::GrundyGame;
use crate::games::lookahead::Lookahead;
use crate::gametree::{Bound, Event, NodeId, Player, Tree, alpha_beta};
use crate::input::{Doc, DocKind};
use crate::instance::Instance;
use crate::lang::Lang;
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
    pub reasons: Vec<String>,
    /// For set answers: how many items were right and wrong.
    pub tally: Option<String>,
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
}

/// Rounds to hundredths, so sums print cleanly and compare exactly.
pub fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

fn blank(doc: &Doc) -> bool {
    matches!(&doc.kind, DocKind::Str(s) if s.trim().is_empty())
}

fn read_value(doc: &Doc) -> Option<Value> {
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

/// `3`, `"<=2"`, `"≤ 2"`, `"le 2"`, `">=5"`, `"ge 5"`: one bound, however written.
fn read_bound(doc: &Doc) -> Option<Bound> {
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

/// A list of strings. A single string is split into items at commas,
/// semicolons and spaces outside parentheses (a Grundy state has commas
/// inside); spaces around a path's or a move's joiner stay in the item
/// (`b2 - a1`, `(7,MIN) -> (6,1,MAX)`); `"none"` and `"[]"` are the empty list.
fn read_list(doc: &Doc) -> Option<Vec<String>> {
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

/// `n0 -> n1 + n2` in canonical form: labels as drawn, children in connector order.
fn read_connector(graph: &Graph, text: &str) -> Option<ConnectorId> {
    let (from, to) = text.split_once("->").or_else(|| text.split_once('→'))?;
    let from = graph.find(from)?;
    let mut to: Vec<_> = to
        .split(['+', ','])
        .map(|t| graph.find(t))
        .collect::<Option<Vec<_>>>()?;
    to.sort_unstable();
    graph.connectors_of(from).iter().copied().find(|&c| {
        let mut kids = graph.connector(c).to.clone();
        kids.sort_unstable();
        kids == to
    })
}

struct Ctx<'a> {
    q: &'a KeyQuestion,
    lang: &'a Lang,
    hide: bool,
    /// What the answer's labels name, built once per question: the game tree,
    /// or a game position's lookahead tree; Grundy's game graph.
    tree: Option<std::borrow::Cow<'a, Tree>>,
    tictactoe: Option<Lookahead<crate::games::tictactoe::Node>>,
    grundy: Option<GrundyGame>,
}

impl<'a> Ctx<'a> {
    fn new(q: &'a KeyQuestion, lang: &'a Lang, hide: bool) -> Ctx<'a> {
        let (mut tree, mut tictactoe, mut grundy) = (None, None, None);
        match &q.instance {
            Instance::TicTacToe(g) => tictactoe = Some(g.lookahead()),
            Instance::Grundy { coins, first } => {
                grundy = Some(crate::games::grundy::solve(*coins, *first));
            }
            other => tree = other.game_tree(),
        }
        Ctx {
            q,
            lang,
            hide,
            tree,
            tictactoe,
            grundy,
        }
    }

    /// The searched game tree, if the question has one.
    fn tree(&self) -> Option<&Tree> {
        self.tictactoe
            .as_ref()
            .map(|l| &l.tree)
            .or(self.tree.as_deref())
    }

    /// A label as the figure spells it, whatever the case the student used.
    fn canonical(&self, label: &str) -> Option<String> {
        match &self.q.instance {
            Instance::AndOr(g) => g.find(label).map(|id| g.label(id).to_string()),
            Instance::Grundy { .. } => self.grundy.as_ref()?.canonical(label),
            Instance::GameTree(_) => {
                let t = self.tree()?;
                t.find(label).map(|id| t.label(id).into_owned())
            }
            Instance::TicTacToe(_) | Instance::Othello(_) => {
                // A move path: `b2-a1`, also written `B2 - A1` or `b2 a1`; never the root.
                let path: Vec<&str> = label
                    .split(|c: char| c.is_whitespace() || matches!(c, '-' | '–' | '>' | '→'))
                    .filter(|p| !p.is_empty())
                    .collect();
                let t = self.tree()?;
                let id = match &self.tictactoe {
                    // Mirror images of a searched move name the move that stands for them.
                    Some(look) => look.find_line(&path)?,
                    None => t.find(&path.join("-"))?,
                };
                (id != t.root()).then(|| t.label(id).into_owned())
            }
        }
    }

    /// A reason from the string table; with the key hidden, its `_hidden` variant if it has one.
    fn say(&self, key: &str, values: &[(&str, &str)]) -> String {
        let hidden = format!("grade.{key}_hidden");
        let full = format!("grade.{key}");
        let chosen = if self.hide && self.lang.get(&hidden) != hidden {
            hidden
        } else {
            full
        };
        self.lang.fill(&chosen, values)
    }

    fn key_answer(&self, field: &str) -> &Answer {
        &self
            .q
            .solved()
            .answers
            .iter()
            .find(|(f, _)| *f == field)
            .expect("the kind answers every field")
            .1
    }
}

/// Scores one question. `given` holds the fields of the student's `[qN]` section.
pub fn score(
    q: &KeyQuestion,
    given: &[(String, Doc)],
    lang: &Lang,
    hide: bool,
) -> (QuestionScore, Vec<String>) {
    let ctx = Ctx::new(q, lang, hide);
    let per_field = q.points / q.ask.len().max(1) as f64;
    let mut problems: Vec<String> = given
        .iter()
        .filter(|(name, _)| !q.ask.iter().any(|f| f == name))
        .map(|(name, _)| {
            lang.fill(
                "grade.unknown_field",
                &[("n", &q.number.to_string()), ("field", name)],
            )
        })
        .collect();
    let fields: Vec<FieldScore> = q
        .ask
        .iter()
        .map(|&field| {
            let shape = q
                .kind
                .fields
                .iter()
                .find(|f| f.name == field)
                .expect("asked fields belong to the kind")
                .shape;
            let key = ctx.key_answer(field);
            let mut fs = FieldScore {
                field,
                max: per_field,
                earned: 0.0,
                state: State::NotAttempted,
                given: String::new(),
                key: if hide { String::new() } else { key.to_text() },
                reasons: Vec::new(),
                tally: None,
            };
            match given.iter().find(|(n, _)| n == field) {
                None => {}
                Some((_, doc)) if blank(doc) => {}
                Some((_, doc)) => {
                    let fraction =
                        score_field(&ctx, field, shape, key, doc, &mut fs, &mut problems);
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
        },
        problems,
    )
}

/// Scores one field; returns the fraction earned and fills `given` and `reasons`.
fn score_field(
    ctx: &Ctx<'_>,
    field: &str,
    shape: Shape,
    key: &Answer,
    doc: &Doc,
    fs: &mut FieldScore,
    problems: &mut Vec<String>,
) -> f64 {
    let inst = &ctx.q.instance;
    let invalid = |fs: &mut FieldScore, what: &str| {
        fs.state = State::Invalid;
        fs.given = doc_text(doc);
        let what = ctx.lang.get(&format!("grade.what_{what}")).to_string();
        fs.reasons.push(ctx.lang.fill(
            "grade.unreadable_value",
            &[("what", &what), ("given", &fs.given)],
        ));
        0.0
    };
    match (shape, key) {
        (Shape::Value, Answer::Value(k)) => {
            let Some(v) = read_value(doc) else {
                return invalid(fs, "value");
            };
            fs.given = v.to_string();
            let ok = match (v, *k) {
                (Value::Finite(a), Value::Finite(b)) => a.abs_diff(b) <= ctx.q.scoring.tolerance,
                (a, b) => a == b,
            };
            if !ok {
                fs.reasons.push(ctx.say(
                    "value_wrong",
                    &[("key", &k.to_string()), ("given", &fs.given)],
                ));
            }
            f64::from(u8::from(ok))
        }
        (Shape::Cost, Answer::Cost(k)) => {
            let Some(v) = read_value(doc) else {
                return invalid(fs, "cost");
            };
            fs.given = v.to_string();
            let ok = match (v, k.get()) {
                (Value::Finite(a), Some(b)) => {
                    a >= 0 && (a as u64).abs_diff(b) <= ctx.q.scoring.tolerance
                }
                (Value::PosInf, None) => true,
                _ => false,
            };
            if !ok {
                fs.reasons.push(ctx.say(
                    "cost_wrong",
                    &[("key", &k.to_string()), ("given", &fs.given)],
                ));
            }
            f64::from(u8::from(ok))
        }
        (Shape::Label, Answer::Label(_) | Answer::Choice(_)) => {
            let accepted: Vec<&String> = match key {
                Answer::Label(k) => vec![k],
                Answer::Choice(ks) => ks.iter().collect(),
                _ => unreachable!("matched above"),
            };
            let DocKind::Str(s) = &doc.kind else {
                return invalid(fs, "label");
            };
            fs.given = s.trim().to_string();
            let Some(label) = ctx.canonical(s) else {
                fs.reasons.push(match inst {
                    Instance::Grundy { .. } => ctx.lang.get("grade.write_max_or_min").to_string(),
                    _ => unknown_reason(ctx, &fs.given),
                });
                return 0.0;
            };
            fs.given = label.clone();
            let right = accepted.contains(&&label);
            if !right {
                fs.reasons.push(match inst {
                    Instance::Grundy { .. } if !ctx.hide => grundy_why(ctx, 0),
                    _ => ctx.say("label_wrong", &[("key", &key.to_text()), ("given", &label)]),
                });
            }
            f64::from(u8::from(right))
        }
        (Shape::Values | Shape::Bounds, _) => {
            let DocKind::Table(entries) = &doc.kind else {
                return invalid(fs, "table");
            };
            let key_pairs: Vec<(String, Bound)> = match key {
                Answer::Values(p) => p
                    .iter()
                    .map(|(l, v)| (l.clone(), Bound::Exact(*v)))
                    .collect(),
                Answer::Bounds(p) => p.clone(),
                _ => unreachable!("a table field has a table key"),
            };
            // A node with a wrong value is a miss; only nodes that are not in the
            // key (or unreadable) count against the set rule's penalty.
            let mut right = 0usize;
            let mut extra = 0usize;
            let mut given = Vec::new();
            for (k, d) in entries {
                let Some(label) = ctx.canonical(&k.name) else {
                    fs.reasons.push(unknown_reason(ctx, &k.name));
                    extra += 1;
                    continue;
                };
                let Some(b) = read_bound(d) else {
                    let why = ctx.lang.fill(
                        "grade.unreadable_value",
                        &[
                            ("what", ctx.lang.get("grade.what_value")),
                            ("given", &doc_text(d)),
                        ],
                    );
                    fs.reasons.push(format!("{label}: {why}"));
                    extra += 1;
                    continue;
                };
                if given
                    .iter()
                    .any(|g: &String| g.split(' ').next() == Some(label.as_str()))
                {
                    continue; // a node written twice counts once
                }
                given.push(format!("{label} {}", bound_text(b)));
                match key_pairs.iter().find(|(l, _)| *l == label) {
                    Some((_, kb)) if *kb == b => right += 1,
                    Some((_, kb)) => fs.reasons.push(node_value_reason(ctx, &label, *kb, b)),
                    None => {
                        extra += 1;
                        fs.reasons
                            .push(ctx.lang.fill("grade.node_extra", &[("node", &label)]));
                    }
                }
            }
            for (label, _) in &key_pairs {
                if !entries
                    .iter()
                    .any(|(k, _)| ctx.canonical(&k.name).as_deref() == Some(label.as_str()))
                {
                    fs.reasons.push(ctx.say("node_missing", &[("node", label)]));
                }
            }
            fs.given = given.join(", ");
            let wrong = extra;
            set_fraction(ctx.q.scoring.sets, key_pairs.len(), right, wrong)
        }
        (Shape::Labels | Shape::Sequence, Answer::Labels(k) | Answer::Sequence(k)) => {
            let Some(list) = read_list(doc) else {
                return invalid(fs, "list");
            };
            let mut labels: Vec<String> = Vec::new();
            let mut unknown = 0;
            // "You wrote" shows every item, including those that name nothing.
            let mut shown: Vec<String> = Vec::new();
            for item in &list {
                match ctx.canonical(item) {
                    // A repeated item counts once (in a sequence, too: nodes are evaluated once).
                    Some(l) if labels.contains(&l) => {}
                    Some(l) => {
                        shown.push(l.clone());
                        labels.push(l);
                    }
                    None => {
                        shown.push(item.clone());
                        unknown += 1;
                        fs.reasons.push(unknown_reason(ctx, item));
                        problems.push(unknown_reason(ctx, item));
                    }
                }
            }
            if field == "pruned" {
                labels = prune_roots(ctx.tree(), labels);
            }
            fs.given = if shown.is_empty() {
                "—".to_string()
            } else {
                shown.join(", ")
            };
            if shape == Shape::Sequence {
                order_reasons(ctx, field, k, &labels, fs);
                return order_fraction(ctx.q.scoring.orders, k, &labels);
            }
            let hits = labels.iter().filter(|l| k.contains(l)).count();
            let wrong = labels.len() - hits + unknown;
            set_reasons(ctx, field, k, &labels, fs, wrong);
            set_fraction(ctx.q.scoring.sets, k.len(), hits, wrong)
        }
        (Shape::Connectors, Answer::Connectors(k)) => {
            let Instance::AndOr(g) = inst else {
                unreachable!("connectors belong to graphs")
            };
            let Some(list) = read_list_strict(doc) else {
                return invalid(fs, "connectors");
            };
            let mut names = Vec::new();
            let mut wrong = 0;
            for item in &list {
                match read_connector(g, item) {
                    Some(c) => names.push(g.connector_name(c)),
                    None => {
                        wrong += 1;
                        fs.reasons.push(
                            ctx.lang
                                .fill("grade.connector_unknown", &[("connector", item)]),
                        );
                    }
                }
            }
            let mut unique: Vec<String> = Vec::new();
            for n in names {
                if !unique.contains(&n) {
                    unique.push(n);
                }
            }
            let names = unique;
            fs.given = names.join("; ");
            for n in names.iter().filter(|n| !k.contains(n)) {
                wrong += 1;
                fs.reasons
                    .push(ctx.lang.fill("grade.connector_wrong", &[("connector", n)]));
            }
            for n in k.iter().filter(|n| !names.contains(n)) {
                fs.reasons
                    .push(ctx.say("connector_missed", &[("connector", n)]));
            }
            let hits = names.iter().filter(|n| k.contains(n)).count();
            set_fraction(ctx.q.scoring.sets, k.len(), hits, wrong)
        }
        _ => invalid(fs, "value"),
    }
}

/// Connectors are lists of strings; a lone string is one connector.
fn read_list_strict(doc: &Doc) -> Option<Vec<String>> {
    match &doc.kind {
        DocKind::Str(s) => Some(vec![s.trim().to_string()]),
        _ => read_list(doc),
    }
}

/// What the student wrote, as TOML would show it (shortened when long).
fn doc_text(doc: &Doc) -> String {
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

fn bound_text(b: Bound) -> String {
    match b {
        Bound::Exact(v) => format!("= {v}"),
        Bound::AtMost(v) => format!("≤ {v}"),
        Bound::AtLeast(v) => format!("≥ {v}"),
    }
}

/// Pruned nodes may be given as cut-branch roots or as every unexamined node:
/// keep only those whose parent is not listed too.
fn prune_roots(tree: Option<&Tree>, labels: Vec<String>) -> Vec<String> {
    let Some(t) = tree else {
        return labels;
    };
    let ids: Vec<NodeId> = labels.iter().filter_map(|l| t.find(l)).collect();
    labels
        .into_iter()
        .zip(ids.clone())
        .filter(|(_, id)| !t.parent(*id).is_some_and(|p| ids.contains(&p)))
        .map(|(l, _)| l)
        .collect()
}

fn node_value_reason(ctx: &Ctx<'_>, label: &str, key: Bound, given: Bound) -> String {
    let Some(t) = ctx.tree() else {
        return ctx.say(
            "value_wrong",
            &[("key", &bound_text(key)), ("given", &bound_text(given))],
        );
    };
    let id = t.find(label).expect("a canonical label");
    let player = t.player(id);
    let children: Vec<String> = t.children(id).map(|c| t.label(c).into_owned()).collect();
    let explain = match key {
        Bound::Exact(v) => format!(
            "{}({}) = {v}",
            if player == Player::Max { "max" } else { "min" },
            children.join(", ")
        ),
        other => format!("{label} {}", bound_text(other)),
    };
    ctx.say(
        "node_value_wrong",
        &[
            ("node", label),
            ("player", player.name()),
            ("explain", &explain),
            ("given", &bound_text(given)),
        ],
    )
}

fn cut_notes(ctx: &Ctx<'_>) -> Vec<(String, String)> {
    // (pruned root or cut node label, the key's sentence about that cut)
    let Some(t) = ctx.tree() else {
        return Vec::new();
    };
    let options = ctx.q.conventions.alpha_beta;
    let ab = alpha_beta(t, options);
    ab.cuts
        .iter()
        .map(|c| {
            (
                c,
                crate::exercise::alpha_beta::cut_sentence(t, c, options.prune_on_equal, ctx.lang),
            )
        })
        .flat_map(|(c, note)| {
            let mut out = vec![(t.label(c.at).into_owned(), note.clone())];
            out.extend(
                c.pruned
                    .iter()
                    .map(|p| (t.label(p).into_owned(), note.clone())),
            );
            out
        })
        .collect()
}

fn set_reasons(
    ctx: &Ctx<'_>,
    field: &str,
    key: &[String],
    given: &[String],
    fs: &mut FieldScore,
    wrong: usize,
) {
    let notes = cut_notes(ctx);
    let note_of = |label: &str| {
        notes
            .iter()
            .find(|(l, _)| l == label)
            .map(|(_, n)| n.clone())
            .unwrap_or_default()
    };
    for extra in given.iter().filter(|g| !key.contains(g)) {
        // With the key hidden, say only that the item does not belong.
        let reason = match (field, &ctx.q.instance) {
            _ if ctx.hide => ctx.lang.fill("grade.extra_hidden", &[("node", extra)]),
            ("pruned", _) if ctx.tree().is_some() => {
                window_reason(ctx, ctx.tree().expect("checked"), extra)
            }
            ("alpha_cuts", _) => ctx
                .lang
                .fill("grade.cut_wrong", &[("sign", "α"), ("node", extra)]),
            ("beta_cuts", _) => ctx
                .lang
                .fill("grade.cut_wrong", &[("sign", "β"), ("node", extra)]),
            ("solvable", _) => ctx.lang.fill("grade.solvable_wrong", &[("node", extra)]),
            ("max_wins", Instance::Grundy { .. }) => grundy_state_why(ctx, extra),
            ("winning_moves", Instance::Grundy { .. }) => {
                let game = ctx.grundy.as_ref().expect("a Grundy question has its game");
                // A canonical label here is a move, a state or MAX/MIN: only a move is explained.
                let ends = extra
                    .split_once(" -> ")
                    .and_then(|(a, b)| Some((game.find(a)?, game.find(b)?)));
                match ends {
                    Some((from, _)) if game.states[from].to_move != game.winner() => ctx.lang.fill(
                        "grade.move_not_winner",
                        &[
                            ("move", extra),
                            ("player", game.states[from].to_move.name()),
                            ("winner", game.winner().name()),
                        ],
                    ),
                    Some((_, to)) => grundy_why(ctx, to),
                    None => ctx.lang.fill("grade.extra_hidden", &[("node", extra)]),
                }
            }
            ("unsolvable", Instance::AndOr(g)) => {
                let id = g.find(extra).expect("canonical");
                let why = if g.node(id).terminal {
                    ctx.lang.get("grade.solvable_goal").to_string()
                } else {
                    let ok = crate::andor::solvable(g);
                    let via = g
                        .connectors_of(id)
                        .iter()
                        .find(|&&c| g.connector(c).to.iter().all(|t| ok[t.index()]));
                    via.map(|&c| {
                        ctx.lang
                            .fill("grade.solvable_via", &[("connector", &g.connector_name(c))])
                    })
                    .unwrap_or_default()
                };
                ctx.lang
                    .fill("grade.unsolvable_wrong", &[("node", extra), ("why", &why)])
            }
            _ => ctx.lang.fill("grade.extra_hidden", &[("node", extra)]),
        };
        fs.reasons.push(reason);
    }
    let missed: Vec<&String> = key.iter().filter(|k| !given.contains(k)).collect();
    if ctx.hide {
        // Naming the missing items would give the key away.
        if !missed.is_empty() {
            fs.reasons
                .push(ctx.lang.get("grade.missing_hidden").to_string());
        }
    } else {
        // Missed branches of one cut are named together, with that cut once.
        let mut by_cut: Vec<(String, Vec<&String>)> = Vec::new();
        if field == "pruned" {
            for m in &missed {
                let note = note_of(m);
                match by_cut.iter_mut().find(|(n, _)| *n == note) {
                    Some((_, nodes)) => nodes.push(m),
                    None => by_cut.push((note, vec![m])),
                }
            }
        }
        for (cut, nodes) in &by_cut {
            let names: Vec<&str> = nodes.iter().map(|n| n.as_str()).collect();
            fs.reasons.push(if names.len() == 1 {
                ctx.say("pruned_missed", &[("node", names[0]), ("cut", cut)])
            } else {
                ctx.say(
                    "pruned_missed_many",
                    &[("nodes", &names.join(", ")), ("cut", cut)],
                )
            });
        }
        for missed in missed {
            let reason = match field {
                "pruned" => continue,
                "alpha_cuts" => ctx.say("cut_missed", &[("sign", "α"), ("cut", &note_of(missed))]),
                "beta_cuts" => ctx.say("cut_missed", &[("sign", "β"), ("cut", &note_of(missed))]),
                "max_wins" => grundy_state_why(ctx, missed),
                _ => ctx.say("node_missing", &[("node", missed)]),
            };
            fs.reasons.push(reason);
        }
    }
    if !fs.reasons.is_empty() && !ctx.hide {
        let hits = given.iter().filter(|g| key.contains(g)).count();
        fs.tally = Some(ctx.lang.fill(
            "grade.items",
            &[
                ("hits", &hits.to_string()),
                ("n", &key.len().to_string()),
                ("wrong", &wrong.to_string()),
            ],
        ));
    }
}

/// A label that names nothing in the exercise, in the exercise's own terms.
fn unknown_reason(ctx: &Ctx<'_>, label: &str) -> String {
    let key = match ctx.q.instance {
        Instance::TicTacToe(_) | Instance::Othello(_) => "grade.unknown_move",
        Instance::Grundy { .. } => {
            if ctx.grundy.as_ref().is_some_and(|g| g.not_a_move(label)) {
                "grade.not_a_split"
            } else {
                "grade.unknown_state"
            }
        }
        _ => "grade.unknown_label",
    };
    ctx.lang.fill(key, &[("label", label)])
}

/// Who wins a state of Grundy's game and why, one step deep.
fn grundy_why(ctx: &Ctx<'_>, state: usize) -> String {
    let game = ctx.grundy.as_ref().expect("a Grundy question has its game");
    let mover = game.states[state].to_move;
    let winner = game.wins_for[state];
    let why = if game.moves[state].is_empty() {
        ctx.lang
            .fill("grade.why_no_move", &[("player", mover.name())])
    } else if mover == winner {
        let to = game.moves[state]
            .iter()
            .find(|&&m| game.wins_for[m] == mover)
            .expect("a winning mover has a winning move");
        ctx.lang.fill(
            "grade.why_can_move",
            &[("player", mover.name()), ("to", &game.states[*to].name())],
        )
    } else {
        ctx.lang.fill(
            "grade.why_every_move",
            &[("player", mover.name()), ("winner", winner.name())],
        )
    };
    ctx.lang.fill(
        "grade.state_won",
        &[
            ("state", &game.states[state].name()),
            ("winner", winner.name()),
            ("why", &why),
        ],
    )
}

/// [`grundy_why`] for a state given by its canonical name.
fn grundy_state_why(ctx: &Ctx<'_>, name: &str) -> String {
    let game = ctx.grundy.as_ref().expect("a Grundy question has its game");
    match game.find(name) {
        Some(state) => grundy_why(ctx, state),
        // `MAX` or `MIN` in a list of states: a label, not a state.
        None => ctx.lang.fill("grade.extra_hidden", &[("node", name)]),
    }
}

/// Why a node the student pruned is examined: the bounds in force when it is reached.
fn window_reason(ctx: &Ctx<'_>, t: &Tree, label: &str) -> String {
    let ab = alpha_beta(t, ctx.q.conventions.alpha_beta);
    let id = t.find(label).expect("canonical");
    let step = ab
        .steps()
        .find(|s| s.node == id && matches!(s.event, Event::Enter | Event::Leaf(_)));
    match step {
        Some(s) => ctx.lang.fill(
            "grade.pruned_examined",
            &[
                ("node", label),
                ("alpha", &s.alpha.to_string()),
                ("beta", &s.beta.to_string()),
            ],
        ),
        // Under a pruned branch: the student listed a node below the cut branch's root.
        None => {
            let mut root = id;
            while let Some(p) = t.parent(root).filter(|&p| !ab.examined(p)) {
                root = p;
            }
            ctx.lang.fill(
                "grade.pruned_below",
                &[("node", label), ("root", &t.label(root))],
            )
        }
    }
}

fn order_reasons(
    ctx: &Ctx<'_>,
    field: &str,
    key: &[String],
    given: &[String],
    fs: &mut FieldScore,
) {
    let first_diff = key.iter().zip(given).position(|(k, g)| k != g);
    if field == "expanded" {
        if let Some(pos) = first_diff {
            fs.reasons.push(ao_reason(ctx, pos, &key[pos], &given[pos]));
        }
    } else if let Some(pos) = first_diff {
        fs.reasons.push(ctx.say(
            "order_diverges",
            &[
                ("pos", &(pos + 1).to_string()),
                ("given", &given[pos]),
                ("key", &key[pos]),
            ],
        ));
        let notes = cut_notes(ctx);
        if let Some((_, note)) = notes
            .iter()
            .find(|(l, _)| *l == given[pos])
            .filter(|_| !ctx.hide)
        {
            fs.reasons.push(note.clone());
        }
    }
    if first_diff.is_none() && given.len() < key.len() {
        let last = given.last().cloned().unwrap_or_default();
        let which = if field == "expanded" {
            "order_short_expanded"
        } else {
            "order_short"
        };
        fs.reasons.push(ctx.say(
            which,
            &[
                ("count", &(key.len() - given.len()).to_string()),
                ("last", &last),
            ],
        ));
    }
    if first_diff.is_none() && given.len() > key.len() {
        fs.reasons.push(
            ctx.lang
                .fill("grade.order_long", &[("given", &given[key.len()])]),
        );
    }
}

/// Why AO* expands `key` and not `given` in cycle `pos + 1`.
fn ao_reason(ctx: &Ctx<'_>, pos: usize, key: &str, given: &str) -> String {
    let Instance::AndOr(g) = &ctx.q.instance else {
        return String::new();
    };
    let why = if pos == 0 {
        ctx.lang.get("grade.expanded_why_first").to_string()
    } else {
        let run = crate::andor::ao_star(g, Default::default());
        let cost = run
            .cycles
            .get(pos - 1)
            .map(|c| c.start_cost.to_string())
            .unwrap_or_default();
        ctx.lang.fill(
            "grade.expanded_why",
            &[("prev", &pos.to_string()), ("key", key), ("cost", &cost)],
        )
    };
    ctx.say(
        "expanded_diverges",
        &[
            ("cycle", &(pos + 1).to_string()),
            ("key", key),
            ("given", given),
            ("why", &why),
        ],
    )
}
