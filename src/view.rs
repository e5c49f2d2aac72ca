//! What templates see: serializable views built from a variant. A worksheet
//! view is built without looking at the key, so no answer can reach it.

use serde::Serialize;

use crate::class_set::{Item, Variant};
use crate::draw::{graph_figure, grundy_figure, to_svg, to_tikz, tree_figure};
use crate::exercise::{Family, Table};
use crate::gametree::{Order, Player, ValueMode};
use crate::instance::Instance;
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
    /// The key figure's width in mm.
    pub key_figure_width: String,
    /// Width of each step-table column, as a fraction of the line (LaTeX).
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

/// The alpha-beta conventions a search states: child order, then when a cut happens.
fn search_conventions(set: &ProblemSet, lang: &Lang) -> Vec<String> {
    let c = set.conventions.alpha_beta;
    vec![
        lang.get(if c.order == Order::LeftToRight {
            "convention.order_ltr"
        } else {
            "convention.order_rtl"
        })
        .to_string(),
        lang.get(if c.prune_on_equal {
            "convention.prune_on_equal"
        } else {
            "convention.prune_strict"
        })
        .to_string(),
    ]
}

fn conventions(item: &Item, set: &ProblemSet, lang: &Lang) -> Vec<String> {
    let c = set.conventions.alpha_beta;
    match &item.instance {
        Instance::GameTree(t) => {
            let mut lines = vec![
                lang.get(if t.root_player() == Player::Max {
                    "convention.root_max"
                } else {
                    "convention.root_min"
                })
                .to_string(),
            ];
            if item.exercise.kind.name == "alpha-beta" {
                lines.extend(search_conventions(set, lang));
                lines.push(
                    lang.get(if c.values == ValueMode::FailHard {
                        "convention.fail_hard"
                    } else {
                        "convention.fail_soft"
                    })
                    .to_string(),
                );
            }
            lines
        }
        Instance::AndOr(g) => match item.exercise.kind.name {
            "solution-cost" => vec![
                lang.get("convention.cost_sum").to_string(),
                lang.get("convention.cost_max").to_string(),
                lang.get("convention.solution_cost_models").to_string(),
            ],
            "ao-star" => vec![
                lang.get(&format!("convention.cost_{}", g.model().name()))
                    .to_string(),
                lang.get("convention.ao_tips").to_string(),
            ],
            _ => Vec::new(),
        },
        Instance::TicTacToe(g) => {
            let mut lines = vec![
                lang.fill(
                    "convention.ttt_players",
                    &[
                        ("max", &g.max.letter().to_string()),
                        ("min", &g.max.other().letter().to_string()),
                    ],
                ),
                lang.get("convention.ttt_eval").to_string(),
                lang.fill("convention.lookahead", &[("depth", &g.depth.to_string())]),
                lang.get("convention.ttt_order").to_string(),
                lang.get(if g.symmetry {
                    "convention.ttt_symmetry"
                } else {
                    "convention.ttt_no_symmetry"
                })
                .to_string(),
            ];
            lines.extend(search_conventions(set, lang));
            lines
        }
        Instance::Othello(g) => {
            let mut lines = vec![
                lang.fill(
                    "convention.othello_players",
                    &[
                        ("max", &g.to_move.letter().to_string()),
                        ("min", &g.to_move.other().letter().to_string()),
                    ],
                ),
                lang.get("convention.othello_eval").to_string(),
            ];
            if g.weights.mobility != 0 {
                lines.push(lang.fill(
                    "convention.othello_mobility",
                    &[("w", &g.weights.mobility.to_string())],
                ));
            }
            if g.weights.frontier != 0 {
                lines.push(lang.fill(
                    "convention.othello_frontier",
                    &[("w", &g.weights.frontier.to_string())],
                ));
            }
            lines.push(lang.get("convention.othello_finished").to_string());
            lines.push(lang.fill("convention.lookahead", &[("depth", &g.depth.to_string())]));
            lines.push(lang.get("convention.othello_order").to_string());
            lines.extend(search_conventions(set, lang));
            lines
        }
        Instance::Grundy { .. } => vec![
            lang.get("convention.grundy_rule").to_string(),
            lang.get("convention.grundy_states").to_string(),
            lang.get("convention.grundy_and_or").to_string(),
        ],
    }
}

fn exercise_view(item: &Item, set: &ProblemSet, lang: &Lang, with_key: bool) -> ExerciseView {
    let ex = &item.exercise;
    let kind_title = ex
        .title
        .clone()
        .unwrap_or_else(|| lang.get(&format!("kind.{}", ex.kind.name)).to_string());
    let (figure, start) = match &item.instance {
        Instance::GameTree(t) => (tree_figure(t, None), String::new()),
        Instance::AndOr(g) => (graph_figure(g, None), g.label(g.start()).to_string()),
        Instance::TicTacToe(g) => (
            crate::exercise::tictactoe_figure(&g.board),
            g.to_move().letter().to_string(),
        ),
        Instance::Othello(g) => (
            crate::exercise::othello_figure(g, &[]),
            g.to_move.letter().to_string(),
        ),
        Instance::Grundy { coins, first } => {
            let game = crate::games::grundy::solve(*coins, *first);
            (grundy_figure(&game, None), game.states[0].name())
        }
    };
    let family = family_name(ex.kind.family);
    let legend_key = format!("sheet.legend_{family}");
    let fields = ex
        .ask
        .iter()
        .map(|&name| FieldView {
            name,
            description: lang.for_kind("field", name, ex.kind.name).to_string(),
            example: lang.for_kind("example", name, ex.kind.name).to_string(),
            // Only a key reads the solved answers.
            value: if with_key {
                answer(item, name).to_toml()
            } else {
                "\"\"".to_string()
            },
        })
        .collect();
    let key = with_key.then(|| {
        let solved = &item.solved;
        KeyView {
            legend: lang.get(&format!("sheet.legend_key_{family}")).to_string(),
            figure_svg: to_svg(&solved.figure),
            figure_tikz: to_tikz(&solved.figure),
            answers: ex
                .ask
                .iter()
                .map(|&f| AnswerRow {
                    field: f,
                    description: lang.for_kind("field", f, ex.kind.name).to_string(),
                    text: answer(item, f).to_text(),
                })
                .collect(),
            notes: solved.notes.clone(),
            table: solved.table.clone(),
            table_title: lang.for_kind("sheet", "steps", ex.kind.name).to_string(),
        }
    });
    ExerciseView {
        number: item.number,
        heading: lang.fill(
            "sheet.question",
            &[("n", &item.number.to_string()), ("kind", &kind_title)],
        ),
        points: ex.points,
        points_text: if ex.points == 1 {
            lang.get("sheet.point").to_string()
        } else {
            lang.fill("sheet.points", &[("points", &ex.points.to_string())])
        },
        prompt: lang.fill(&format!("prompt.{}", ex.kind.name), &[("start", &start)]),
        legend: lang.get(&legend_key).to_string(),
        figure_svg: to_svg(&figure),
        figure_tikz: to_tikz(&figure),
        figure_width: format!("{:.1}", figure.width),
        key_figure_width: format!(
            "{:.1}",
            if with_key {
                item.solved.figure.width
            } else {
                figure.width
            }
        ),
        column_width: format!(
            "{:.3}",
            if with_key {
                0.88 / item.solved.table.headers.len().max(1) as f64
            } else {
                0.2
            }
        ),
        instance_text: item.instance.to_toml(),
        board_text: item.instance.board_text(),
        conventions: conventions(item, set, lang),
        fields,
        key,
    }
}

/// The family's name in string-table keys (`sheet.legend_tree`, …).
fn family_name(family: Family) -> &'static str {
    match family {
        Family::GameTree => "tree",
        Family::AndOr => "graph",
        Family::TicTacToe => "tictactoe",
        Family::Othello => "othello",
        Family::Grundy => "grundy",
    }
}

fn answer<'i>(item: &'i Item, field: &str) -> &'i crate::exercise::Answer {
    &item
        .solved
        .answers
        .iter()
        .find(|(f, _)| *f == field)
        .expect("every kind answers its fields")
        .1
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
        .map(|item| exercise_view(item, set, lang, with_key))
        .collect();
    let mut all = Vec::new();
    for line in exercises.iter().flat_map(|e| e.conventions.iter()) {
        if !all.contains(line) {
            all.push(line.clone());
        }
    }
    let student = variant.student.as_ref();
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
        exercises,
    }
}
