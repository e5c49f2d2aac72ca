//! What templates see: serializable views built from a variant. A worksheet
//! view is built without looking at the key, so no answer can reach it.

use serde::Serialize;

use crate::class_set::{Item, Variant};
use crate::draw::{Figure, to_svg, to_tikz};
use crate::exercise::{self, Context, Conventions, Figures, Key, KindDef, Shape, Table};
use crate::instance::{Instance, Model};
use crate::lang::Lang;
use crate::problem_set::ProblemSet;

/// A whole sheet: worksheet, key, or answer sheet.
#[derive(Serialize)]
pub struct SheetView<'a> {
    /// The language's strings (`t.sheet.key`, …).
    pub t: &'a serde_json::Value,
    /// The set.
    pub set: SetView<'a>,
    /// The variant.
    pub variant: VariantView,
    /// Every convention the set's exercises assume, once each.
    pub conventions: Vec<String>,
    /// The exercises.
    pub exercises: Vec<ExerciseView>,
    /// Their points, all told.
    pub total_points: u32,
    /// The paper the sheets print on.
    pub paper: PaperView,
    /// Whether this is a key.
    pub key: bool,
    /// A paper exam (`generate --on-paper`): a cover, and room on the sheet
    /// for every answer; its key fills that room in.
    pub on_paper: bool,
    /// What every printed page shows at its top.
    pub running: RunningView,
}

/// The running head of every printed page: a booklet's pages each name
/// their student.
#[derive(Serialize)]
pub struct RunningView {
    /// "Midterm · Worksheet".
    pub left: String,
    /// "Variant K3F9QX · Student 1001 (Ann Lee)".
    pub right: String,
    /// `left` as a CSS string, for a margin box's `content:`.
    pub left_css: String,
    /// `right` as a CSS string.
    pub right_css: String,
}

/// A class booklet: every student's worksheet (or key) in one document,
/// each starting a page that carries its own running head.
#[derive(Clone, Serialize)]
pub struct BookletView<'a> {
    /// The language, and whether any sheet's text needs CJK fonts (LaTeX).
    pub set: BookletSetView<'a>,
    /// "Midterm · Worksheet".
    pub title: String,
    /// `worksheet` or `key`: the body's class, as on a single sheet.
    pub class: &'static str,
    /// The paper.
    pub paper: PaperView,
    /// The sheets, in roster order.
    pub sheets: &'a [&'a BookletSheet],
}

/// What a booklet's preamble needs of the set.
#[derive(Clone, Serialize)]
pub struct BookletSetView<'a> {
    /// The language code.
    pub language: &'a str,
    /// Whether any text is Chinese, Japanese or Korean.
    pub cjk: bool,
}

/// One student's sheet in a booklet, rendered.
#[derive(Clone, Serialize)]
pub struct BookletSheet {
    /// Its running head (`running.html`; LaTeX's is in its body).
    pub running: String,
    /// Its body (`worksheet-body.html`, `key-body.tex`, …).
    pub body: String,
}

/// `text` as a quoted CSS string that is also safe inside an HTML `<style>`:
/// `<` is escaped, so no `</style>` can end it.
pub fn css_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '<' | '>' | '&' => out.push_str(&format!("\\{:X} ", c as u32)),
            c if c.is_control() => out.push_str(&format!("\\{:X} ", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The paper sheets print on (`generate --paper`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Paper {
    /// ISO A4, 210 × 297 mm.
    #[default]
    A4,
    /// US Letter, 8.5 × 11 in.
    Letter,
}

/// What templates need of the paper.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct PaperView {
    /// CSS `@page` size: `A4`, `letter`.
    pub css: &'static str,
    /// The LaTeX class option: `a4paper`, `letterpaper`.
    pub tex: &'static str,
    /// The tallest a figure may print, in mm: what leaves a question's
    /// heading, prompt, legend and fields room on one page with it.
    pub figure_mm: u32,
}

impl Paper {
    /// The view of this paper.
    pub fn view(self) -> PaperView {
        // Printable height: 297 mm (A4) or 279 mm (Letter) less 28 mm of margins.
        match self {
            Paper::A4 => PaperView {
                css: "A4",
                tex: "a4paper",
                figure_mm: 165,
            },
            Paper::Letter => PaperView {
                css: "letter",
                tex: "letterpaper",
                figure_mm: 150,
            },
        }
    }
}

/// The set's texts.
#[derive(Serialize)]
pub struct SetView<'a> {
    /// Title.
    pub title: &'a str,
    /// Subtitle.
    pub subtitle: Option<&'a str>,
    /// Instructions.
    pub instructions: Option<&'a str>,
    /// Language code.
    pub language: &'a str,
    /// Whether any text is Chinese, Japanese or Korean (LaTeX then loads CJK fonts).
    pub cjk: bool,
}

/// Who the variant is for.
#[derive(Serialize)]
pub struct VariantView {
    /// Short variant id.
    pub id: String,
    /// Checksum of the instances.
    pub checksum: String,
    /// Student id, if any.
    pub student_id: Option<String>,
    /// Student name, if any.
    pub student_name: Option<String>,
    /// The student id as a TOML string (`""` in practice mode).
    pub student_toml: String,
    /// Practice mode only: the set's path, as a TOML string, for `treequiz check`.
    pub practice_set: Option<String>,
    /// Practice mode only: the public seed, as a TOML string.
    pub practice_seed: Option<String>,
}

/// One exercise.
#[derive(Serialize)]
pub struct ExerciseView {
    /// Question number.
    pub number: usize,
    /// "Question 2: Alpha-beta pruning".
    pub heading: String,
    /// Points.
    pub points: u32,
    /// "10 points".
    pub points_text: String,
    /// What to do.
    pub prompt: String,
    /// How to read the figure.
    pub legend: String,
    /// The figure as SVG.
    pub figure_svg: String,
    /// The figure as TikZ.
    pub figure_tikz: String,
    /// The figure's width in mm (LaTeX scales wider figures down to the line).
    pub figure_width: String,
    /// The box a paper exam prints it in: larger than on a worksheet, for
    /// room to write values at its nodes and mark its cuts.
    pub paper_figure: PaperFigure,
    /// The key figure's width in mm.
    pub key_figure_width: String,
    /// Width of each step-table column, as a fraction of the line (LaTeX).
    /// The built-in key no longer uses it: its `\tqcolumns` (preamble.tex)
    /// makes the table exactly as wide as the line, the number column and
    /// the spaces between columns counted. It stays for templates of one's own.
    pub column_width: String,
    /// The instance as an instance file (for Markdown, which has no figures).
    pub instance_text: String,
    /// A game's board as text, with column letters and row numbers (Markdown).
    pub board_text: Option<String>,
    /// The conventions this exercise assumes.
    pub conventions: Vec<String>,
    /// The fields to answer.
    pub fields: Vec<FieldView>,
    /// The key's part: only on keys.
    pub key: Option<KeyView>,
}

/// One field to answer.
#[derive(Serialize)]
pub struct FieldView {
    /// The key in the answer file.
    pub name: &'static str,
    /// What it asks.
    pub description: String,
    /// An example line.
    pub example: String,
    /// The TOML value: `""` on a blank sheet, the answer on a key.
    pub value: String,
    /// The room a paper exam leaves to write it in.
    pub space: Space,
    /// On a key: the answer, for people, which a paper key writes in that room.
    pub answer: Option<String>,
}

/// The room a paper exam leaves for an answer: a box for one value or
/// label, else ruled lines. It is sized by the figure (how many nodes or
/// connectors an answer could list), never by the answer, so the room
/// tells nothing of the answer.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Space {
    /// A box for one value or label.
    pub boxed: bool,
    /// Ruled lines, when not a box.
    pub lines: usize,
}

impl Space {
    /// Handwritten characters a ruled line of a sheet holds.
    const LINE: usize = 45;

    fn of(shape: Shape, model: &Model) -> Space {
        // The characters a longest answer could take, item by item with its separator.
        let chars = match shape {
            Shape::Value | Shape::Cost | Shape::Label => {
                return Space {
                    boxed: true,
                    lines: 0,
                };
            }
            Shape::Labels | Shape::Sequence => model.nodes() * 5,
            Shape::Values | Shape::Bounds | Shape::Fractions => model.nodes() * 9,
            Shape::Connectors => model.connectors() * 16,
        };
        Space {
            boxed: false,
            lines: chars.div_ceil(Self::LINE).clamp(1, 6),
        }
    }
}

/// The box a paper exam prints a figure in, and whether its key's figure
/// takes the same box (so the key's pages fall as the worksheet's).
#[derive(Serialize)]
pub struct PaperFigure {
    /// Width in mm.
    pub width: String,
    /// Height in mm.
    pub height: String,
    /// Whether the key's annotated figure has about the figure's shape, so it
    /// prints in the same box; else the paper key prints the figure and
    /// leaves the annotated one to its explanation (a game's search tree).
    pub key_fits: bool,
}

impl PaperFigure {
    /// At most 1.5 times the sheet's size, 175 mm wide and 150 mm tall (what
    /// a Letter page leaves a question's figure).
    fn of(figure: &crate::draw::Figure, key: Option<&crate::draw::Figure>) -> PaperFigure {
        let scale = 1.5f64
            .min(175.0 / figure.width.max(1.0))
            .min(150.0 / figure.height.max(1.0));
        let aspect = |f: &crate::draw::Figure| f.height / f.width.max(1.0);
        PaperFigure {
            width: format!("{:.1}", figure.width * scale),
            height: format!("{:.1}", figure.height * scale),
            key_fits: key.is_some_and(|k| (aspect(k) / aspect(figure) - 1.0).abs() < 0.15),
        }
    }
}

/// What a key adds to an exercise.
#[derive(Serialize)]
pub struct KeyView {
    /// How to read the key's figure.
    pub legend: String,
    /// The annotated figure as SVG.
    pub figure_svg: String,
    /// The annotated figure as TikZ.
    pub figure_tikz: String,
    /// Every asked field with its answer, for people.
    pub answers: Vec<AnswerRow>,
    /// Sentences that explain the answer.
    pub notes: Vec<String>,
    /// The step table.
    pub table: Table,
    /// Its heading ("Step by step"; "Evaluations" for the games).
    pub table_title: String,
}

/// One answer on a key.
#[derive(Serialize)]
pub struct AnswerRow {
    /// The field.
    pub field: &'static str,
    /// What it asks.
    pub description: String,
    /// The answer, for people.
    pub text: String,
}

/// What one exercise view is made of: a set's item, or one kind of `solve`.
struct Part<'a> {
    number: usize,
    kind: &'static KindDef,
    ask: &'a [&'static str],
    title: Option<&'a str>,
    points: u32,
    instance: &'a Instance,
    key: &'a Key,
    /// How far off a number may be and still score: examples stay farther.
    tolerance: u64,
}

impl<'a> Part<'a> {
    fn of(item: &'a Item) -> Part<'a> {
        Part {
            number: item.number,
            kind: item.exercise.kind,
            ask: &item.exercise.ask,
            title: item.exercise.title.as_deref(),
            points: item.exercise.points,
            instance: &item.instance,
            key: &item.key,
            tolerance: item.exercise.scoring.tolerance,
        }
    }
}

fn exercise_view(
    item: &Part<'_>,
    model: &Model<'_>,
    conventions: &Conventions,
    lang: &Lang,
    with_key: bool,
    figures: Figures,
) -> ExerciseView {
    let kind = item.kind;
    let kind_title = item
        .title
        .map(str::to_string)
        .unwrap_or_else(|| lang.get(&format!("kind.{}", kind.name)).to_string());
    let (figure, start) = match figures {
        Figures::Drawn => model.sheet_figure(item.instance),
        Figures::Left => (Figure::default(), String::new()),
    };
    let written = |f: &Figure, write: fn(&Figure) -> String| match figures {
        Figures::Drawn => write(f),
        Figures::Left => String::new(),
    };
    let family = kind.family.key_name();
    let answer = |field: &str| {
        item.key
            .answer(field)
            .expect("every kind answers its fields")
    };
    let fields = item
        .ask
        .iter()
        .map(|&name| FieldView {
            name,
            description: lang.for_kind("field", name, kind.name).to_string(),
            example: exercise::example::example(
                kind.field(name),
                item.instance,
                model,
                item.tolerance,
            ),
            // Only a key reads the solved answers.
            value: if with_key {
                answer(name).to_toml(model)
            } else {
                "\"\"".to_string()
            },
            space: Space::of(kind.shape(name), model),
            answer: with_key.then(|| answer(name).to_text(model)),
        })
        .collect();
    let explained = with_key.then(|| {
        (kind.explain)(
            &Context {
                instance: item.instance,
                model,
                key: item.key,
                conventions,
            },
            item.ask,
            lang,
            figures,
        )
    });
    let key_figure_width = explained.as_ref().map_or(figure.width, |e| e.figure.width);
    let paper_figure = PaperFigure::of(&figure, explained.as_ref().map(|e| &e.figure));
    let column_width = explained
        .as_ref()
        .map_or(0.2, |e| 0.88 / e.table.headers.len().max(1) as f64);
    let key = explained.map(|e| KeyView {
        // A game's key draws no cuts when `pruned` is not asked, and its
        // legend (where the table has one without cuts) names none.
        legend: {
            let plain = format!("legend_key_{family}");
            let nocuts = format!("{plain}_nocuts");
            let without = !item.ask.contains(&"pruned")
                && [
                    format!("sheet.{nocuts}_{}", kind.name),
                    format!("sheet.{nocuts}"),
                ]
                .iter()
                .any(|k| lang.has(k));
            lang.for_kind("sheet", if without { &nocuts } else { &plain }, kind.name)
                .to_string()
        },
        figure_svg: written(&e.figure, to_svg),
        figure_tikz: written(&e.figure, to_tikz),
        answers: item
            .ask
            .iter()
            .map(|&f| AnswerRow {
                field: f,
                description: lang.for_kind("field", f, kind.name).to_string(),
                text: answer(f).to_text(model),
            })
            .collect(),
        notes: e.notes,
        table: e.table,
        table_title: lang.for_kind("sheet", "steps", kind.name).to_string(),
    });
    ExerciseView {
        number: item.number,
        heading: lang.fill(
            "sheet.question",
            &[("n", &item.number.to_string()), ("kind", &kind_title)],
        ),
        points: item.points,
        points_text: if item.points == 1 {
            lang.get("sheet.point").to_string()
        } else {
            lang.fill("sheet.points", &[("points", &item.points.to_string())])
        },
        prompt: lang.fill(&format!("prompt.{}", kind.name), &[("start", &start)]),
        legend: lang
            .for_kind("sheet", &format!("legend_{family}"), kind.name)
            .to_string(),
        figure_svg: written(&figure, to_svg),
        figure_tikz: written(&figure, to_tikz),
        figure_width: format!("{:.1}", figure.width),
        paper_figure,
        key_figure_width: format!("{key_figure_width:.1}"),
        column_width: format!("{column_width:.3}"),
        instance_text: item.instance.to_toml(),
        board_text: item.instance.board_text(),
        conventions: (kind.conventions)(item.instance, conventions, item.ask, lang),
        fields,
        key,
    }
}

/// CJK ideographs, kana, hangul and full-width forms.
fn is_cjk(c: char) -> bool {
    matches!(c, '\u{2E80}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7AF}' | '\u{F900}'..='\u{FAFF}' | '\u{FF00}'..='\u{FFEF}')
}

/// The view of a worksheet or blank answer sheet (`with_key = false`), or of a
/// key. `practice` is the set's path and public seed in practice mode (never an
/// exam's): the answer sheet names them so `treequiz check` can find its key.
pub fn sheet<'a>(
    set: &'a ProblemSet,
    variant: &Variant,
    lang: &'a Lang,
    with_key: bool,
    practice: Option<(&str, u64)>,
) -> SheetView<'a> {
    let exercises: Vec<ExerciseView> = variant
        .items
        .iter()
        .map(|item| {
            let model = item.instance.model();
            exercise_view(
                &Part::of(item),
                &model,
                &set.conventions,
                lang,
                with_key,
                Figures::Drawn,
            )
        })
        .collect();
    let mut all = Vec::new();
    for line in exercises.iter().flat_map(|e| e.conventions.iter()) {
        if !all.contains(line) {
            all.push(line.clone());
        }
    }
    let student = variant.student.as_ref();
    let mut right = format!("{} {}", lang.get("sheet.variant"), variant.id);
    if let Some(s) = student {
        right.push_str(&format!(" · {} {}", lang.get("sheet.student"), s.id));
        if let Some(name) = &s.name {
            right.push_str(&format!(" ({name})"));
        }
    }
    let left = format!(
        "{} · {}",
        set.title,
        lang.get(if with_key {
            "sheet.key"
        } else {
            "sheet.worksheet"
        })
    );
    SheetView {
        t: lang.nested(),
        set: SetView {
            title: &set.title,
            subtitle: set.subtitle.as_deref(),
            instructions: set.instructions.as_deref(),
            language: &lang.code,
            cjk: [
                Some(set.title.as_str()),
                set.subtitle.as_deref(),
                set.instructions.as_deref(),
            ]
            .into_iter()
            .flatten()
            .chain(set.exercises.iter().filter_map(|e| e.title.as_deref()))
            .chain(student.and_then(|s| s.name.as_deref()))
            .any(|t| t.chars().any(is_cjk)),
        },
        variant: VariantView {
            id: variant.id.clone(),
            checksum: variant.checksum.clone(),
            student_id: student.map(|s| s.id.clone()),
            student_name: student.and_then(|s| s.name.clone()),
            student_toml: toml::Value::String(student.map_or(String::new(), |s| s.id.clone()))
                .to_string(),
            practice_set: practice
                .map(|(path, _)| toml::Value::String(path.to_string()).to_string()),
            practice_seed: practice
                .map(|(_, seed)| toml::Value::String(seed.to_string()).to_string()),
        },
        conventions: all,
        total_points: exercises.iter().map(|e| e.points).sum(),
        exercises,
        paper: Paper::default().view(),
        key: with_key,
        on_paper: false,
        running: RunningView {
            left_css: css_string(&left),
            right_css: css_string(&right),
            left,
            right,
        },
    }
}

/// `treequiz solve`: every kind of the instance's family, solved and
/// explained. The text is rendered through the `solve.txt` template; `--json`
/// prints this view with serde (the strings table left out).
#[derive(Serialize)]
pub struct SolveView<'a> {
    /// The language's strings, for the template.
    #[serde(skip)]
    pub t: &'a serde_json::Value,
    /// One line about the instance ("Game tree: 13 nodes, …").
    pub about: String,
    /// The instance, written as an instance file in JSON when the view is
    /// (`solve --json`), not before.
    pub instance: InstanceJson<'a>,
    /// The conventions the keys assume.
    pub conventions: Conventions,
    /// An AND/OR graph's optimal solution graph under its own cost model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optimum: Option<OptimumView>,
    /// One solution per kind.
    pub solutions: Vec<SolutionView>,
}

/// The optimal solution graph under the instance's own cost model, which
/// every graph has (the `solution-cost` kind asks sum and max, which need a
/// cost on every arc); and which models cannot cost the graph, and why.
#[derive(Serialize)]
pub struct OptimumView {
    /// The instance's cost model.
    pub model: crate::andor::CostModel,
    /// The start node's optimal cost (`"+inf"` when it cannot be solved).
    pub cost: crate::andor::Cost,
    /// The connectors of the optimal solution graph, as answers name them.
    pub solution: Vec<String>,
    /// The rules it follows, in the language.
    pub conventions: Vec<String>,
    /// Sentences: the models the graph has no costs for and why; no solution.
    pub notes: Vec<String>,
}

/// [`OptimumView`] of `g`.
fn optimum(g: &crate::andor::Graph, lang: &Lang) -> Option<OptimumView> {
    use crate::andor::{CostModel, GraphError};
    let model = g.model();
    // The instance's own model always applies: sum and max need arc costs,
    // and a graph read under either of them has every arc's.
    let best = crate::andor::try_optimal(g, model).ok()?;
    let mut notes = Vec::new();
    if let Err(GraphError::NeedsArcs(c)) = g.check_model(CostModel::Sum) {
        notes.push(lang.fill(
            "solve.optimum_needs_arcs",
            &[
                ("connector", &g.describe(c)),
                ("cost", &g.connector(c).cost.to_string()),
            ],
        ));
    }
    if !best.cost.is_finite() {
        notes.push(lang.get("note.ao_unsolvable").to_string());
    }
    Some(OptimumView {
        model,
        cost: best.cost,
        solution: best.solution.iter().map(|&c| g.connector_name(c)).collect(),
        conventions: vec![
            lang.get(&format!("convention.cost_{}", model.name()))
                .to_string(),
            lang.get("solve.optimum_rule").to_string(),
        ],
        notes,
    })
}

/// One kind's solution of an instance.
#[derive(Serialize)]
pub struct SolutionView {
    /// The kind.
    pub kind: &'static str,
    /// Its title in the language.
    pub title: String,
    /// The conventions its key states.
    pub conventions: Vec<String>,
    /// Every field with its answer, for people.
    pub answers: Vec<AnswerRow>,
    /// Every field's answer with the figure's labels, by field.
    pub fields: serde_json::Map<String, serde_json::Value>,
    /// Sentences that explain the answer.
    pub notes: Vec<String>,
    /// The step table's heading.
    pub table_title: String,
    /// The step table.
    pub table: Table,
    /// The key as data: answers by id and the solver's trace.
    pub key: Key,
}

/// An instance that serialises as its instance file's JSON.
pub struct InstanceJson<'a>(pub &'a Instance);

impl Serialize for InstanceJson<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.to_json_value().serialize(s)
    }
}

/// What `solve`'s text page shows of a [`SolveView`]: no instance, answers
/// as data or traces (a template's context is a copy of its view, and a
/// large tree's are large).
#[derive(Serialize)]
pub struct SolveText<'a> {
    /// [`SolveView::about`].
    pub about: &'a str,
    /// [`SolveView::optimum`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optimum: Option<&'a OptimumView>,
    /// Each solution's words and table.
    pub solutions: Vec<SolutionText<'a>>,
}

/// What the text page shows of a [`SolutionView`].
#[derive(Serialize)]
pub struct SolutionText<'a> {
    /// [`SolutionView::kind`].
    pub kind: &'static str,
    /// [`SolutionView::title`].
    pub title: &'a str,
    /// [`SolutionView::conventions`].
    pub conventions: &'a [String],
    /// [`SolutionView::answers`].
    pub answers: &'a [AnswerRow],
    /// [`SolutionView::notes`].
    pub notes: &'a [String],
    /// [`SolutionView::table_title`].
    pub table_title: &'a str,
    /// [`SolutionView::table`].
    pub table: &'a Table,
}

impl SolveView<'_> {
    /// What the text page shows.
    pub fn text(&self) -> SolveText<'_> {
        SolveText {
            about: &self.about,
            optimum: self.optimum.as_ref(),
            solutions: (self.solutions.iter())
                .map(|s| SolutionText {
                    kind: s.kind,
                    title: &s.title,
                    conventions: &s.conventions,
                    answers: &s.answers,
                    notes: &s.notes,
                    table_title: &s.table_title,
                    table: &s.table,
                })
                .collect(),
        }
    }
}

/// The view of `treequiz solve`: each kind that can use the instance, in the registry's order.
pub fn solve<'a>(
    instance: &'a Instance,
    conventions: &Conventions,
    lang: &'a Lang,
) -> SolveView<'a> {
    // The model (a game's lookahead, Grundy's graph) is built once for every kind.
    let model = instance.model();
    let solutions = exercise::KINDS
        .iter()
        .filter(|k| k.family == instance.family() && (k.unusable)(instance).is_none())
        .map(|&kind| {
            let key = (kind.solve)(instance, conventions);
            let ask: Vec<&'static str> = kind.field_names();
            let part = Part {
                number: 1,
                kind,
                ask: &ask,
                title: None,
                points: 0,
                instance,
                key: &key,
                tolerance: 0,
            };
            // The text and JSON show no figure: none is written out.
            let view = exercise_view(&part, &model, conventions, lang, true, Figures::Left);
            let shown = view.key.expect("a key view");
            SolutionView {
                kind: kind.name,
                title: lang.get(&format!("kind.{}", kind.name)).to_string(),
                conventions: view.conventions,
                answers: shown.answers,
                fields: ask
                    .iter()
                    .map(|&f| {
                        let answer = key.answer(f).expect("every kind answers its fields");
                        (f.to_string(), answer.to_labelled_json(&model))
                    })
                    .collect(),
                notes: shown.notes,
                table_title: shown.table_title,
                table: shown.table,
                key,
            }
        })
        .collect();
    SolveView {
        t: lang.nested(),
        about: instance.about(lang),
        instance: InstanceJson(instance),
        conventions: *conventions,
        optimum: match instance {
            Instance::AndOr(g) => optimum(g, lang),
            _ => None,
        },
        solutions,
    }
}

#[cfg(test)]
mod tests {
    use super::css_string;

    #[test]
    fn a_css_string_cannot_end_its_string_or_its_style_element() {
        assert_eq!(css_string("Ann Lee"), "\"Ann Lee\"");
        assert_eq!(
            css_string("Jo \"JJ\" \\ </style>\n"),
            "\"Jo \\\"JJ\\\" \\\\ \\3C /style\\3E \\A \""
        );
    }
}
