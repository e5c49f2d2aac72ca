//! A Moodle XML question bank from a class set (`generate --format moodle`):
//! per exercise a category, per variant a cloze ("embedded answers")
//! question, so a Moodle quiz can draw a random question from each category.
//!
//! Moodle reads a cloze sub-question `{2:NUMERICAL:=5:0}` with a regex
//! (`question/type/multianswer/questiontype.php`): an answer ends at an
//! unescaped `~`, `#` or `}`, and only `\}` and `\#` are unescaped, after the
//! answer is HTML-decoded. So every answer here is written with `\}`, `\#`
//! and character references (`&#126;` for `~`, `&#92;` for `\`), and the
//! question's own text has its braces as references, so that no text can be
//! read as a sub-question. docs/moodle.md says what is asked and what is not.
//!
//! quick-xml writes the bank's elements and attributes ([`Cloze::write`]);
//! the question's HTML and its cloze sub-questions are built as text and
//! go in as a `<text>` element's escaped text.

use std::collections::BTreeMap;
use std::io;

use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesText, Event};

use crate::class_set::Variant;
use crate::exercise::{Answer, Domain, Field, Item, Shape};
use crate::gametree::Order;
use crate::instance::{Family, Model};
use crate::lang::Lang;
use crate::problem_set::{Exercise, ProblemSet};
use crate::scoring::{OrderRule, SetRule};
use crate::value::Value;
use crate::view::{self, ExerciseView};

/// Why a field is not asked in Moodle (it stays on treequiz's answer sheet).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum LeftOut {
    /// Alpha-beta's `values`: its rows would be the nodes alpha-beta
    /// examines, which other fields ask, and a bound's several right forms
    /// are treequiz's to judge.
    Bounds,
    /// A game's `pruned` or `legal_moves`: the choices would have to list the
    /// moves of the searched tree (or every square), which the board leaves
    /// for the student to find.
    GameMoves,
    /// `set_rule = "all-or-nothing"` on a set or a table: Moodle gives partial
    /// credit for each choice of a multi-response.
    AllOrNothing,
}

impl LeftOut {
    /// Why, in one English line (for the command line's note).
    pub fn why(self) -> &'static str {
        match self {
            LeftOut::Bounds => {
                "its rows would show which nodes alpha-beta examines, and bounds have several right forms"
            }
            LeftOut::GameMoves => {
                "its choices would list the searched moves, which the board leaves to the student"
            }
            LeftOut::AllOrNothing => {
                "set_rule = \"all-or-nothing\" has no multi-response equivalent in Moodle"
            }
        }
    }
}

/// Whether `field` of `exercise` is asked in Moodle, and if not, why.
pub fn askable(exercise: &Exercise, field: &str) -> Result<(), LeftOut> {
    let kind = exercise.kind;
    let shape = kind.shape(field);
    let game = matches!(kind.family, Family::TicTacToe | Family::Othello);
    match shape {
        Shape::Bounds => Err(LeftOut::Bounds),
        Shape::Labels if game => Err(LeftOut::GameMoves),
        Shape::Labels | Shape::Connectors | Shape::Values
            if exercise.scoring.sets == SetRule::AllOrNothing =>
        {
            Err(LeftOut::AllOrNothing)
        }
        _ => Ok(()),
    }
}

/// A Moodle XML question bank being built, variant by variant.
pub struct Export<'a> {
    set: &'a ProblemSet,
    lang: &'a Lang,
    /// Per exercise, its questions, in the order the variants came.
    questions: Vec<Vec<Cloze>>,
}

/// One field the export leaves out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Omission {
    /// The question number.
    pub number: usize,
    /// The field.
    pub field: &'static str,
    /// Why.
    pub why: LeftOut,
}

impl<'a> Export<'a> {
    /// An empty bank for `set`, its texts in `lang`.
    pub fn new(set: &'a ProblemSet, lang: &'a Lang) -> Export<'a> {
        Export {
            set,
            lang,
            questions: set.exercises.iter().map(|_| Vec::new()).collect(),
        }
    }

    /// Adds one question per exercise of `variant`.
    pub fn push(&mut self, variant: &Variant) {
        let sheet = view::sheet(self.set, variant, self.lang, true, None);
        for (item, ev) in variant.items.iter().zip(&sheet.exercises) {
            let model = item.instance.model();
            let cloze = question(
                &item.exercise,
                &item.key.answers,
                ev,
                &model,
                variant,
                self.lang,
                self.set.conventions.alpha_beta.order,
            );
            self.questions[item.number - 1].push(cloze);
        }
    }

    /// The fields of the set that are not asked in Moodle.
    pub fn omissions(&self) -> Vec<Omission> {
        let mut out = Vec::new();
        for (i, e) in self.set.exercises.iter().enumerate() {
            for &field in &e.ask {
                if let Err(why) = askable(e, field) {
                    out.push(Omission {
                        number: i + 1,
                        field,
                        why,
                    });
                }
            }
        }
        out
    }

    /// The whole bank as one XML document.
    pub fn finish(self) -> String {
        let mut w = Writer::new(Vec::new());
        self.write(&mut w).expect("writing to memory cannot fail");
        String::from_utf8(w.into_inner()).expect("the XML is written from strings")
    }

    /// `<quiz>`: per exercise its category, then its questions.
    fn write(&self, w: &mut Writer<Vec<u8>>) -> io::Result<()> {
        w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
        layout(w, 0)?;
        w.create_element("quiz").write_inner_content(|w| {
            for (i, questions) in self.questions.iter().enumerate() {
                self.write_category(w, i)?;
                for q in questions {
                    layout(w, 1)?;
                    q.write(w)?;
                }
            }
            layout(w, 0)
        })?;
        layout(w, 0)
    }

    /// The category question that files exercise `i`'s questions (Moodle
    /// makes the category from its path when the bank is imported).
    fn write_category(&self, w: &mut Writer<Vec<u8>>, i: usize) -> io::Result<()> {
        let e = &self.set.exercises[i];
        let title = e
            .title
            .clone()
            .unwrap_or_else(|| self.lang.get(&format!("kind.{}", e.kind.name)).to_string());
        let path = format!(
            "$course$/top/{}/Q{} {}",
            category_segment(&self.set.title),
            i + 1,
            category_segment(&title)
        );
        layout(w, 1)?;
        w.create_element("question")
            .with_attribute(("type", "category"))
            .write_inner_content(|w| {
                layout(w, 2)?;
                w.create_element("category")
                    .write_inner_content(|w| text(w, &path))?;
                layout(w, 2)?;
                w.create_element("info")
                    .with_attribute(("format", "html"))
                    .write_inner_content(|w| text(w, ""))?;
                layout(w, 1)
            })?;
        Ok(())
    }
}

/// The bank of `variants` in one step.
pub fn export(set: &ProblemSet, variants: &[Variant], lang: &Lang) -> String {
    let mut bank = Export::new(set, lang);
    for v in variants {
        bank.push(v);
    }
    bank.finish()
}

/// A category name as one segment of Moodle's path (`split_category_path`
/// in `question/format.php` splits at a single `/`): a `/` is written `//`,
/// and a space keeps one at either end from joining the separator.
fn category_segment(s: &str) -> String {
    let mut out = s.trim().replace('/', "//");
    if out.starts_with('/') {
        out.insert(0, ' ');
    }
    if out.ends_with('/') {
        out.push(' ');
    }
    out
}

/// Text for XML: `&`, `<`, `>` and `"` as entities.
fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// A new line and `depth` levels of indent, between elements: the bank is
/// laid out one element a line, two spaces a level, for a person to read.
fn layout(w: &mut Writer<Vec<u8>>, depth: usize) -> io::Result<()> {
    w.write_event(Event::Text(BytesText::from_escaped(format!(
        "\n{}",
        "  ".repeat(depth)
    ))))
}

/// A `<text>` element. Its text is escaped by [`xml`], not by quick-xml's
/// `BytesText::new`, which also writes every `'` as `&apos;`.
fn text(w: &mut Writer<Vec<u8>>, s: &str) -> io::Result<()> {
    w.create_element("text")
        .write_text_content(BytesText::from_escaped(xml(s)))?;
    Ok(())
}

/// One variant's cloze question for one exercise, ready to write.
struct Cloze {
    /// `Q1 PVCHW2`: the question's number and the variant.
    name: String,
    /// The question's HTML, the sub-questions in it.
    text: String,
    figure: Attachment,
    /// The general feedback's HTML: the key, shown after the attempt.
    feedback: String,
    key_figure: Option<Attachment>,
    /// `q1-PVCHW2`, unique in the bank.
    idnumber: String,
}

impl Cloze {
    fn write(&self, w: &mut Writer<Vec<u8>>) -> io::Result<()> {
        w.create_element("question")
            .with_attribute(("type", "cloze"))
            .write_inner_content(|w| {
                layout(w, 2)?;
                w.create_element("name")
                    .write_inner_content(|w| text(w, &self.name))?;
                html_with_file(w, "questiontext", &self.text, Some(&self.figure))?;
                html_with_file(
                    w,
                    "generalfeedback",
                    &self.feedback,
                    self.key_figure.as_ref(),
                )?;
                for (tag, value) in [
                    ("penalty", "0.3333333"),
                    ("hidden", "0"),
                    ("idnumber", &self.idnumber),
                ] {
                    layout(w, 2)?;
                    w.create_element(tag)
                        .write_text_content(BytesText::from_escaped(xml(value)))?;
                }
                layout(w, 1)
            })?;
        Ok(())
    }
}

/// `<tag format="html">`: the HTML as its `<text>`, and the file it shows.
fn html_with_file(
    w: &mut Writer<Vec<u8>>,
    tag: &str,
    html: &str,
    file: Option<&Attachment>,
) -> io::Result<()> {
    layout(w, 2)?;
    w.create_element(tag)
        .with_attribute(("format", "html"))
        .write_inner_content(|w| {
            layout(w, 3)?;
            text(w, html)?;
            layout(w, 3)?;
            if let Some(file) = file {
                file.write(w)?;
            }
            layout(w, 2)
        })?;
    Ok(())
}

/// A file of a question's HTML (a figure), which the HTML names as
/// `@@PLUGINFILE@@/name`.
struct Attachment {
    name: String,
    bytes: Vec<u8>,
}

impl Attachment {
    fn write(&self, w: &mut Writer<Vec<u8>>) -> io::Result<()> {
        w.create_element("file")
            .with_attributes([
                ("name", self.name.as_str()),
                ("path", "/"),
                ("encoding", "base64"),
            ])
            .write_text_content(BytesText::from_escaped(crate::output::base64(&self.bytes)))?;
        Ok(())
    }
}

/// Text for the question's HTML: HTML's specials, and `{`, `}`, `~` as
/// references, so no text of ours can start or end a sub-question.
fn html(s: &str) -> String {
    // `xml` writes none of `{`, `}`, `~`: these are the text's own.
    xml(s)
        .replace('{', "&#123;")
        .replace('}', "&#125;")
        .replace('~', "&#126;")
}

/// Our own text in Moodle's HTML, where no text filter touches it. The
/// emoticon filter (on by default) turns `(h)`, `(n)`, `8-)` and the like
/// into icons, and the auto-linking filters link words; each skips a
/// `<span class="nolink">` (`filter/emoticon/classes/text_filter.php`,
/// `filter_phrases`). Character references do not help: Moodle decodes them
/// before it filters. A span holds inline HTML only, so it goes inside each
/// `<p>` and `<li>`, and never around a sub-question.
fn nolink(inline: &str) -> String {
    format!("<span class=\"nolink\">{inline}</span>")
}

/// A choice's label as a cloze answer: a label with anything but letters
/// and digits could hold an emoticon (each has punctuation), so it goes in
/// a nolink span; Moodle filters a choice as HTML, and grades it by position.
fn choice(label: &str) -> String {
    if label.chars().all(char::is_alphanumeric) {
        cloze_answer(label)
    } else {
        nolink(&cloze_answer(label))
    }
}

/// A typed answer of a SHORTANSWER: its `*` escaped, since Moodle reads a
/// bare `*` as "anything" (`compare_string_with_wildcard`,
/// `question/type/shortanswer/question.php`).
fn typed(s: &str) -> String {
    cloze_answer(&s.replace('*', "\\*"))
}

/// One answer of a sub-question, as Moodle's cloze parser reads it back:
/// `\}` and `\#` escaped, `~`, `\` and HTML's specials as references (Moodle
/// HTML-decodes an answer before it unescapes), a leading `=` or `%` too.
pub fn cloze_answer(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for (i, c) in s.chars().enumerate() {
        match c {
            '}' => out.push_str("\\}"),
            '#' => out.push_str("\\#"),
            '~' => out.push_str("&#126;"),
            '\\' => out.push_str("&#92;"),
            // `&#38;`, not `&amp;`: Moodle's answer never ends after `&amp;`.
            '&' => out.push_str("&#38;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '=' if i == 0 => out.push_str("&#61;"),
            '%' if i == 0 => out.push_str("&#37;"),
            c => out.push(c),
        }
    }
    out
}

/// A percentage as Moodle's `%…%` reads it: at most 5 decimals.
fn percent(p: f64) -> String {
    let s = format!("{p:.5}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// A weight as a fraction of the exercise's points: `num / den`.
#[derive(Clone, Copy)]
struct Share {
    num: u64,
    den: u64,
}

impl Share {
    /// This share and `other`.
    fn plus(self, other: Share) -> Share {
        let (num, den) = (
            self.num * other.den + other.num * self.den,
            self.den * other.den,
        );
        let g = gcd(num, den).max(1);
        Share {
            num: num / g,
            den: den / g,
        }
    }

    /// `k / n` of this share.
    fn part(self, k: usize, n: usize) -> Share {
        Share {
            num: self.num * k as u64,
            den: self.den * n.max(1) as u64,
        }
    }
}

/// A sub-question before it is written: the text before its box, its body
/// (type and answers, after `{weight:`), the text after it and its share of
/// the points.
struct Sub {
    before: String,
    body: String,
    after: String,
    share: Share,
}

/// How many labels one box of an order takes: a longer order is asked in
/// parts of this many, each graded on its own (docs/moodle.md).
pub const ORDER_PART: usize = 7;

/// The sub-question's body (after `{w:`): type and answers.
fn number_body(v: Value, tolerance: u64) -> String {
    match v {
        Value::Finite(n) => format!("NUMERICAL:={n}:{tolerance}"),
        Value::Decimal(d) => format!("NUMERICAL:={d}:{tolerance}"),
        Value::PosInf => "SHORTANSWER:=+inf~=inf~=+∞~=∞".to_string(),
        Value::NegInf => "SHORTANSWER:=-inf~=-∞".to_string(),
    }
}

/// The separators of an order a student may type, the canonical first:
/// the same between every two labels (one answer per separator: Moodle's
/// short answer matches the whole text, and its one wildcard `*` would
/// accept any labels in between). `moodle.order_hint` says exactly these.
const ORDER_SEPARATORS: [&str; 12] = [
    ", ", ",", "; ", ";", " ", " -> ", "->", " → ", "→", "，", "、", "；",
];

/// The spellings of an order a student would type, the canonical first: each
/// separator of [`ORDER_SEPARATORS`], and a comma at the end.
fn order_forms(labels: &[String]) -> Vec<String> {
    if labels.is_empty() {
        return vec!["-".into(), "—".into(), "none".into()];
    }
    let mut out: Vec<String> = Vec::new();
    let mut add = |s: String| {
        if !out.contains(&s) {
            out.push(s);
        }
    };
    for sep in ORDER_SEPARATORS {
        add(labels.join(sep));
    }
    for sep in [", ", ",", "，"] {
        add(format!("{}{}", labels.join(sep), sep.trim_end()));
    }
    out
}

/// The cloze type of typed labels: SHORTANSWER ignores case, which a tree
/// whose labels are case-sensitive (`a` and `A` two nodes) must not.
fn shortanswer(model: &Model<'_>) -> &'static str {
    if model.tree().is_some_and(|t| t.case_sensitive()) {
        "SHORTANSWER_C"
    } else {
        "SHORTANSWER"
    }
}

/// An exact value's sub-question: a whole number as a number (`4.0` is 4
/// too); a fraction as typed text, in lowest terms as the sheet's
/// conventions ask (`23/3`), with its decimal where it has one (`7/2` or
/// `3.5`).
fn fraction_body(r: crate::value::Ratio) -> String {
    match r.to_value() {
        Some(v @ Value::Finite(_)) => number_body(v, 0),
        decimal => {
            let forms: Vec<String> = std::iter::once(r.to_string())
                .chain(decimal.map(|v| v.to_string()))
                .map(|f| format!("={}", typed(&f)))
                .collect();
            format!("SHORTANSWER:{}", forms.join("~"))
        }
    }
}

/// A SHORTANSWER body accepting every spelling of an order.
fn order_body(model: &Model<'_>, labels: &[String]) -> String {
    let forms: Vec<String> = order_forms(labels)
        .iter()
        .map(|f| format!("={}", typed(f)))
        .collect();
    format!("{}:{}", shortanswer(model), forms.join("~"))
}

/// Nodes below a pruned root: ticking them with their root is what the
/// answer sheet accepts too (every unexamined node), so they count nothing.
fn below(model: &Model<'_>, roots: &[Item]) -> Vec<Item> {
    let Some(t) = model.tree() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut todo: Vec<crate::gametree::NodeId> = roots
        .iter()
        .filter_map(|i| match *i {
            Item::Node(n) => Some(crate::gametree::NodeId(n)),
            _ => None,
        })
        .collect();
    while let Some(n) = todo.pop() {
        for c in t.children(n) {
            out.push(Item::Node(c.0));
            todo.push(c);
        }
    }
    out
}

/// What one field's sub-questions need besides its answer.
struct Ask<'a> {
    exercise: &'a Exercise,
    field: &'static Field,
    model: &'a Model<'a>,
    lang: &'a Lang,
    /// The field's line: its wording, as a sentence that ends where the box begins.
    line: String,
    share: Share,
    /// The root's entry is asked by another field: leave it out here (it
    /// has other entries).
    root_apart: bool,
    order: Order,
}

/// The sub-questions of one field.
fn subs(ask: &Ask<'_>, answer: &Answer) -> Vec<Sub> {
    let Ask {
        exercise,
        field,
        model,
        lang,
        share,
        ..
    } = *ask;
    let tolerance = exercise.scoring.tolerance;
    // An order's hint shows labels the figure does not have, never an answer.
    let spare = crate::exercise::example::spare_labels(model, 3);
    let hint = |key: &str| {
        let text = lang.fill(key, &[("a", &spare[0]), ("b", &spare[1]), ("c", &spare[2])]);
        format!("<br><small>{}</small>", html(&text))
    };
    let line = html(&ask.line);
    let one = |body: String, after: String| {
        vec![Sub {
            before: line.clone(),
            body,
            after,
            share,
        }]
    };
    let root = model.root();
    match answer {
        Answer::Value(v) => one(number_body(*v, tolerance), hint("moodle.value_hint")),
        Answer::Cost(c) => {
            let v = c.get().map_or(Value::PosInf, |n| Value::Finite(n as i64));
            one(number_body(v, tolerance), hint("moodle.cost_hint"))
        }
        Answer::One(right) => {
            let choices = field.domain.items(model, field.shape, ask.order);
            if choices.len() < 2 {
                // Moodle wants two choices: one label to type instead.
                let forms: Vec<String> = right
                    .iter()
                    .map(|&i| format!("={}", typed(&model.name(i))))
                    .collect();
                return one(
                    format!("{}:{}", shortanswer(model), forms.join("~")),
                    String::new(),
                );
            }
            let alts: Vec<String> = choices
                .iter()
                .map(|i| {
                    let mark = if right.contains(i) { "=" } else { "" };
                    format!("{mark}{}", choice(&model.name(*i)))
                })
                .collect();
            one(format!("MULTICHOICE:{}", alts.join("~")), String::new())
        }
        Answer::Set(right) => {
            let mut choices = field.domain.items(model, field.shape, ask.order);
            let mut right = right.clone();
            if ask.root_apart {
                choices.retain(|&c| c != root);
                right.retain(|&c| c != root);
            }
            let neutral = if field.domain == Domain::PrunedRoots {
                below(model, &right)
            } else {
                Vec::new()
            };
            let n = right.len().max(1) as f64;
            let wrong = match (exercise.scoring.sets, right.is_empty()) {
                (_, true) => percent(-100.0),
                (SetRule::Hits, false) => "0".to_string(),
                _ => percent(-100.0 / n),
            };
            let mut alts: Vec<String> = choices
                .iter()
                .map(|i| {
                    let f = if right.contains(i) {
                        "100".to_string()
                    } else if neutral.contains(i) {
                        "0".to_string()
                    } else {
                        wrong.clone()
                    };
                    format!("%{f}%{}", choice(&model.name(*i)))
                })
                .collect();
            let none = if right.is_empty() { "100" } else { &wrong };
            alts.push(format!("%{none}%{}", choice(lang.get("moodle.none"))));
            one(
                format!("MULTIRESPONSE_H:{}", alts.join("~")),
                hint("moodle.list_hint"),
            )
        }
        Answer::Sequence(items) => {
            let labels: Vec<String> = items.iter().map(|&i| model.name(i)).collect();
            let n = labels.len();
            if n <= ORDER_PART || exercise.scoring.orders == OrderRule::Exact {
                return one(order_body(model, &labels), hint("moodle.order_hint"));
            }
            // In parts of ORDER_PART labels, each graded on its own and worth
            // its share of the labels; the last part is open-ended, so the
            // boxes do not tell how long the order is.
            let parts: Vec<&[String]> = labels.chunks(ORDER_PART).collect();
            let last = parts.len() - 1;
            parts
                .iter()
                .enumerate()
                .map(|(i, part)| {
                    let from = (i * ORDER_PART + 1).to_string();
                    let to = (i * ORDER_PART + part.len()).to_string();
                    let label = if i == last {
                        lang.fill("moodle.part_rest", &[("from", &from)])
                    } else {
                        lang.fill("moodle.part", &[("from", &from), ("to", &to)])
                    };
                    let before = if i == 0 {
                        format!("{line}{}<br>{}", hint("moodle.parts_hint"), html(&label))
                    } else {
                        html(&label)
                    };
                    Sub {
                        before,
                        body: order_body(model, part),
                        after: String::new(),
                        share: share.part(part.len(), n),
                    }
                })
                .collect()
        }
        Answer::Values(pairs) => {
            // Each row its share of the whole table, the root's too: where
            // another field asks the root, its row's share goes to that
            // field's box (`question`), as treequiz counts the root twice.
            let m = pairs.len();
            let mut pairs = pairs.clone();
            if ask.root_apart {
                pairs.retain(|&(i, _)| i != root);
            }
            pairs
                .iter()
                .enumerate()
                .map(|(i, &(item, v))| {
                    let row = lang.fill("moodle.row", &[("label", &model.name(item))]);
                    let before = if i == 0 {
                        format!("{line}{}<br>{}", hint("moodle.value_hint"), html(&row))
                    } else {
                        html(&row)
                    };
                    Sub {
                        before,
                        body: number_body(v, 0),
                        after: String::new(),
                        share: share.part(1, m),
                    }
                })
                .collect()
        }
        // A row per inner node, as `Values`; fractions are typed.
        Answer::Fractions(pairs) => {
            let m = pairs.len();
            pairs
                .iter()
                .enumerate()
                .map(|(i, &(item, r))| {
                    let row = lang.fill("moodle.row", &[("label", &model.name(item))]);
                    let before = if i == 0 {
                        format!("{line}{}<br>{}", hint("moodle.fraction_hint"), html(&row))
                    } else {
                        html(&row)
                    };
                    Sub {
                        before,
                        body: fraction_body(r),
                        after: String::new(),
                        share: share.part(1, m),
                    }
                })
                .collect()
        }
        // Never asked (`askable`).
        Answer::Bounds(_) => Vec::new(),
    }
}

/// A field's line: its wording as a sentence (a capital where it starts with
/// a word: `e(P)` stays), ended as the language ends a question before its box.
fn field_line(wording: &str, lang: &Lang) -> String {
    let mut chars = wording.chars();
    let sentence = match (chars.next(), chars.clone().next()) {
        (Some(a), Some(b)) if a.is_ascii_lowercase() && b.is_ascii_lowercase() => {
            format!("{}{}", a.to_ascii_uppercase(), chars.as_str())
        }
        _ => wording.to_string(),
    };
    lang.fill("moodle.ask", &[("question", &sentence)])
}

/// A figure as a file of the question's text, and its `<img>`.
fn figure(name: &str, svg: &str, alt: &str) -> (Attachment, String) {
    let file = Attachment {
        name: name.to_string(),
        bytes: svg.as_bytes().to_vec(),
    };
    let img = format!(
        "<p>{}</p>",
        nolink(&format!(
            "<img src=\"@@PLUGINFILE@@/{}\" alt=\"{}\" style=\"max-width: 100%; height: auto;\">",
            html(name),
            html(alt)
        ))
    );
    (file, img)
}

/// One variant's cloze question for one exercise.
fn question(
    exercise: &Exercise,
    answers: &BTreeMap<String, Answer>,
    ev: &ExerciseView,
    model: &Model<'_>,
    variant: &Variant,
    lang: &Lang,
    order: Order,
) -> Cloze {
    let n = ev.number;
    let points = u64::from(exercise.points);
    let asked = exercise.ask.len().max(1) as u64;
    // Each field is worth points / asked, as treequiz scores it.
    let field_share = Share {
        num: points.max(1),
        den: asked,
    };
    let stem = format!("q{n}-{}", variant.id);
    let (figure_file, figure_img) = figure(&format!("{stem}.svg"), &ev.figure_svg, &ev.heading);
    let mut subs_all: Vec<Sub> = Vec::new();
    // Where each field's sub-questions start, and the root rows' shares that
    // go to the field asking the root.
    let mut starts: Vec<(&str, usize)> = Vec::new();
    let mut folded: Vec<(&str, Share)> = Vec::new();
    for f in &ev.fields {
        if askable(exercise, f.name).is_err() {
            continue;
        }
        let field = exercise.kind.field(f.name);
        let answer = answers.get(f.name).expect("every kind answers its fields");
        // The root's entry, where another asked field asks it on its own
        // (and the field has other entries to ask).
        let root = model.root();
        let others = match answer {
            Answer::Values(rows) => rows.iter().any(|&(i, _)| i != root),
            Answer::Set(_) => field
                .domain
                .items(model, field.shape, order)
                .iter()
                .any(|&i| i != root),
            _ => false,
        };
        let root_apart = others
            && field
                .root_field
                .is_some_and(|r| exercise.ask.contains(&r) && askable(exercise, r).is_ok());
        let mut text = exercise.kind.moodle_wording(f.name, lang);
        if root_apart {
            text = lang.fill(
                "moodle.except_root",
                &[("question", &text), ("root", &model.name(root))],
            );
        }
        if let (true, Answer::Values(rows), Some(r)) = (root_apart, answer, field.root_field) {
            folded.push((r, field_share.part(1, rows.len())));
        }
        starts.push((f.name, subs_all.len()));
        subs_all.extend(subs(
            &Ask {
                exercise,
                field,
                model,
                lang,
                line: field_line(&text, lang),
                share: field_share,
                root_apart,
                order,
            },
            answer,
        ));
    }
    for (to, share) in folded {
        if let Some(&(_, at)) = starts.iter().find(|(name, _)| *name == to) {
            subs_all[at].share = subs_all[at].share.plus(share);
        }
    }
    // Integer weights in treequiz's proportions: the shares times the least
    // common denominator (the points themselves when every share is whole).
    let den = subs_all.iter().fold(1u64, |acc, Sub { share, .. }| {
        let d = share.den / gcd(share.num, share.den);
        acc / gcd(acc, d) * d
    });
    let mut text = String::new();
    text.push_str(&format!("<p>{}</p>\n", nolink(&html(&ev.prompt))));
    text.push_str(&figure_img);
    text.push_str(&format!(
        "\n<p>{}</p>\n",
        nolink(&format!("<small>{}</small>", html(&ev.legend)))
    ));
    if !ev.conventions.is_empty() {
        text.push_str("<ul>\n");
        for c in &ev.conventions {
            text.push_str(&format!("<li>{}</li>\n", nolink(&html(c))));
        }
        text.push_str("</ul>\n");
    }
    for Sub {
        before,
        body,
        after,
        share,
    } in &subs_all
    {
        let weight = share.num * den / share.den;
        let after = if after.is_empty() {
            String::new()
        } else {
            nolink(after)
        };
        text.push_str(&format!(
            "<p>{} {{{weight}:{body}}}{after}</p>\n",
            nolink(before)
        ));
    }
    // The general feedback: the key's answers, notes and figure.
    let mut feedback = String::new();
    let mut key_figure = None;
    if let Some(key) = &ev.key {
        feedback.push_str(&format!(
            "<p>{}</p>\n<ul>\n",
            nolink(&format!(
                "<strong>{}</strong>",
                html(lang.get("sheet.answers"))
            ))
        ));
        for row in &key.answers {
            feedback.push_str(&format!(
                "<li>{}</li>\n",
                nolink(&format!("{}: {}", html(&row.description), html(&row.text)))
            ));
        }
        feedback.push_str("</ul>\n");
        if !key.notes.is_empty() {
            feedback.push_str(&format!(
                "<p>{}</p>\n",
                nolink(&format!(
                    "<strong>{}</strong>",
                    html(lang.get("sheet.explanation"))
                ))
            ));
            for note in &key.notes {
                feedback.push_str(&format!("<p>{}</p>\n", nolink(&html(note))));
            }
        }
        let (file, img) = figure(&format!("{stem}-key.svg"), &key.figure_svg, &ev.heading);
        feedback.push_str(&img);
        feedback.push_str(&format!(
            "\n<p>{}</p>\n",
            nolink(&format!("<small>{}</small>", html(&key.legend)))
        ));
        key_figure = Some(file);
    }
    Cloze {
        name: format!("Q{n} {}", variant.id),
        text,
        figure: figure_file,
        feedback,
        key_figure,
        idnumber: stem,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_is_laid_out_and_escaped_as_the_bank_always_was() {
        let q = Cloze {
            name: "Q1 AB".into(),
            text: "<p>it's \"x\" & y</p>\n".into(),
            figure: Attachment {
                name: "q1-AB.svg".into(),
                bytes: b"<svg/>".to_vec(),
            },
            feedback: String::new(),
            key_figure: None,
            idnumber: "q1-AB".into(),
        };
        let mut w = Writer::new(Vec::new());
        q.write(&mut w).unwrap();
        // With no key figure, its line is left with its indent only.
        assert_eq!(
            String::from_utf8(w.into_inner()).unwrap(),
            "<question type=\"cloze\">
    <name><text>Q1 AB</text></name>
    <questiontext format=\"html\">
      <text>&lt;p&gt;it's &quot;x&quot; &amp; y&lt;/p&gt;
</text>
      <file name=\"q1-AB.svg\" path=\"/\" encoding=\"base64\">PHN2Zy8+</file>
    </questiontext>
    <generalfeedback format=\"html\">
      <text></text>
\x20     \n    </generalfeedback>
    <penalty>0.3333333</penalty>
    <hidden>0</hidden>
    <idnumber>q1-AB</idnumber>
  </question>"
        );
    }

    #[test]
    fn answers_escape_what_ends_them() {
        assert_eq!(cloze_answer("a}b#c~d\\e&f"), "a\\}b\\#c&#126;d&#92;e&#38;f");
        assert_eq!(cloze_answer("=x%"), "&#61;x%");
        assert_eq!(percent(-100.0 / 3.0), "-33.33333");
        assert_eq!(percent(-100.0), "-100");
        assert_eq!(percent(-25.0), "-25");
    }
}
