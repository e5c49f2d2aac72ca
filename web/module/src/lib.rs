//! treequiz in the browser: the same generator, renderer and grader as the
//! command line, behind one `extern "C"` function. The page writes a JSON
//! request (`{"op": "practice", …}`) into memory it asked [`tq_alloc`] for,
//! calls [`tq_call`], and reads the answer: a 4-byte little-endian length and
//! that many bytes of JSON, which it frees with [`tq_free`]. Nothing here
//! solves, scores or words feedback: it calls the library that `treequiz
//! generate` and `treequiz check` call, and lays out what they return as data
//! the page can show.

use std::cell::{OnceCell, RefCell};

use serde_json::{Value as Json, json};
use treequiz::class_set::Variant;
use treequiz::draw::{Pick, to_svg_with_targets};
use treequiz::exercise::{Answer, Item as AnswerItem, Shape};
use treequiz::grade::batch::grade_source;
use treequiz::grade::form;
use treequiz::grade::key::KeyBook;
use treequiz::grade::report::{HintView, feedback_view};
use treequiz::grade::submission;
use treequiz::input::Source;
use treequiz::lang::Lang;
use treequiz::problem_set::ProblemSet;
use treequiz::render::Renderer;
use treequiz::rng::Master;
use treequiz::view::SheetView;

mod kinds;

/// Room for `len` bytes of input.
#[unsafe(no_mangle)]
pub extern "C" fn tq_alloc(len: usize) -> *mut u8 {
    let mut buf = Vec::<u8>::with_capacity(len.max(1));
    let ptr = buf.as_mut_ptr();
    std::mem::forget(buf);
    ptr
}

/// Frees what [`tq_alloc`] gave (`len` as asked) or an answer (`len` = 0: its own length).
///
/// # Safety
/// `ptr` came from [`tq_alloc`] with this `len`, or from an answer with `len` 0.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tq_free(ptr: *mut u8, len: usize) {
    let cap = if len == 0 {
        // An answer: its length prefix says how much was allocated.
        let n = unsafe { u32::from_le_bytes(*(ptr as *const [u8; 4])) } as usize;
        n + 4
    } else {
        len.max(1)
    };
    drop(unsafe { Vec::from_raw_parts(ptr, 0, cap) });
}

/// Answers one request (JSON at `ptr`, `len` bytes): `start`, `set`,
/// `practice`, `check` or `value` (see docs/web.md). A request that fails
/// answers `{"ok": false, "error": "…"}` with the library's message.
///
/// # Safety
/// `ptr` names `len` bytes of the module's memory.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tq_call(ptr: *const u8, len: usize) -> *mut u8 {
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    let answer = match serde_json::from_slice::<Json>(bytes) {
        Ok(request) => call(&request).unwrap_or_else(|e| json!({ "ok": false, "error": e })),
        Err(e) => json!({ "ok": false, "error": format!("not a request: {e}") }),
    };
    let json = answer.to_string().into_bytes();
    let mut out = Vec::with_capacity(json.len() + 4);
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(&json);
    let mut out = std::mem::ManuallyDrop::new(out.into_boxed_slice());
    out.as_mut_ptr()
}

fn call(request: &Json) -> Result<Json, String> {
    let text = |key: &str| request.get(key).and_then(Json::as_str).unwrap_or("");
    let lang = || {
        let code = text("lang");
        Lang::builtin(if code.is_empty() { "en" } else { code })
            .ok_or_else(|| format!("`{code}` is not a language of the page"))
    };
    // No seed: the set's own, as `treequiz generate SET` takes it.
    let seed = || match text("seed").trim() {
        "" => Ok(None),
        s => s
            .parse::<u64>()
            .map(Some)
            .map_err(|_| format!("`{s}` is not a seed: write a whole number")),
    };
    // A request about the exercise the request names (its set, seed,
    // language and plan), made or kept by [`with_practice`].
    let on_screen = |f: &dyn Fn(&Practice) -> Result<Json, String>| {
        with_practice(text("set"), seed()?, text("lang"), text("plan"), f)
    };
    match text("op") {
        "start" => Ok(kinds::start(&lang()?)),
        "set" => kinds::set(text("kind"), text("size"), request.get("options"), &lang()?)
            .map(|set| json!({ "ok": true, "set": set })),
        "practice" => on_screen(&|p| p.page()),
        "sheets" => on_screen(&|p| p.sheets()),
        "solution" => on_screen(&|p| p.solution()),
        "check" => match exam(text("sheet"), text("file"), text("form"), text("form_file"))? {
            Some(checked) => Ok(checked),
            None => on_screen(&|p| {
                let hide_key = request.get("hide_key").and_then(Json::as_bool) == Some(true);
                let hints = request.get("hints").and_then(Json::as_u64).unwrap_or(0);
                p.check(text("sheet"), text("file"), hide_key, hints as usize)
            }),
        },
        "value" => {
            // A form field's text read as the answer sheet reads it.
            let doc = format!("v = {}", text("text"));
            match doc.parse::<toml::Table>() {
                Ok(mut t) => Ok(json!({ "ok": true, "value": t.remove("v") })),
                Err(_) => Ok(json!({ "ok": false, "error": "not a TOML value" })),
            }
        }
        other => Err(format!("`{other}` is not a request")),
    }
}

/// An exam sheet (one that names no practice set) checked against its
/// answer form, `form.json`, as `treequiz check` checks it: what the grader
/// will read, in the form's language, with no key anywhere. `None`: a
/// practice sheet, graded against its set.
fn exam(sheet: &str, file: &str, form: &str, form_file: &str) -> Result<Option<Json>, String> {
    let or = |name: &str, default: &str| if name.is_empty() { default } else { name }.to_string();
    let source = Source {
        path: or(file, "answer-sheet.toml"),
        text: sheet.to_string(),
    };
    let sub = submission::parse(&source).map_err(|e| e.to_string())?;
    if sub.practice.is_some() {
        return Ok(None);
    }
    if form.trim().is_empty() {
        return Err(format!(
            "{}: {}; an exam sheet is checked with its answer form, {}, which `generate` puts beside the worksheet in your folder: choose or drop the two files together",
            source.path,
            submission::NOT_PRACTICE,
            form::FILE
        ));
    }
    let form_source = Source {
        path: or(form_file, form::FILE),
        text: form.to_string(),
    };
    if form.len() as u64 > form::MAX_FORM_BYTES {
        return Err(format!(
            "{}: {} bytes is more than an answer form's {}: choose the {} of your folder",
            form_source.path,
            form.len(),
            form::MAX_FORM_BYTES,
            form::FILE
        ));
    }
    let form = form::Form::of_sheet(&form_source, &sub, &source.path).map_err(|e| e.to_string())?;
    let lang = Lang::builtin(&form.language).ok_or_else(|| {
        format!(
            "{}: `{}` is not a language of the page",
            form_source.path, form.language
        )
    })?;
    let checked = form::check(&form, &source.path, &form_source.path, &sub, &lang);
    Ok(Some(
        json!({ "ok": true, "exam": true, "text": checked.text, "to_fix": checked.to_fix }),
    ))
}

/// What every request about one exercise starts from, as the command line
/// does: the set, its renderer and string table, the practice variant for the
/// seed and the key book that grades it. Making the variant is most of the
/// work (a fairness pilot for some sets), so the last one is kept: a check of
/// the exercise on screen reuses it.
struct Practice {
    set_text: String,
    seed: u64,
    set: ProblemSet,
    /// Made at the first render: the first exercise is drawn without it.
    renderer: OnceCell<Result<Renderer, String>>,
    lang: Lang,
    variants: Vec<Variant>,
    book: KeyBook,
}

thread_local! {
    static LAST: RefCell<Option<Practice>> = const { RefCell::new(None) };
}

fn with_practice(
    set_text: &str,
    seed: Option<u64>,
    lang: &str,
    plan: &str,
    f: impl FnOnce(&Practice) -> Result<Json, String>,
) -> Result<Json, String> {
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        let fresh = last.as_ref().is_none_or(|p| {
            p.set_text != set_text
                || p.seed != seed.unwrap_or(p.set.seed)
                || (!lang.is_empty() && p.lang.code != lang)
        });
        if fresh {
            *last = Some(Practice::new(set_text, seed, lang, plan)?);
        }
        f(last.as_ref().expect("made above"))
    })
}

/// The name the page gives a set: the answer sheet records it, and
/// `treequiz check` finds the set by it.
const SET_FILE: &str = "set.toml";

impl Practice {
    /// `plan`: the set's plan as `treequiz practice` embeds it (`SEED:` and
    /// [`treequiz::fair::Plan::to_text`]), taken at that seed when it fits
    /// the set; otherwise (or empty) the pilot runs here.
    fn new(set_text: &str, seed: Option<u64>, lang: &str, plan: &str) -> Result<Practice, String> {
        let source = Source {
            path: SET_FILE.into(),
            text: set_text.to_string(),
        };
        let mut set = treequiz::problem_set::parse(&source, std::path::Path::new(""))
            .map_err(|e| e.to_string())?;
        if !lang.is_empty() {
            set.language = lang.to_string();
        }
        let seed = seed.unwrap_or(set.seed);
        let lang = treequiz::render::set_lang(None, &set).map_err(|e| e.to_string())?;
        let master = Master::from_seed(seed);
        let carried = plan
            .split_once(':')
            .filter(|(at, _)| at.parse() == Ok(seed))
            .and_then(|(_, plan)| treequiz::fair::Plan::read(&set, plan));
        let plan = match carried {
            Some(plan) => plan,
            None => treequiz::class_set::plan(&set, &master).map_err(|e| e.to_string())?,
        };
        let variants = treequiz::class_set::build_planned(&set, &master, &plan, &[])
            .map_err(|e| e.to_string())?;
        let book = KeyBook::from_variants(&set, &variants);
        Ok(Practice {
            set_text: set_text.to_string(),
            seed,
            set,
            renderer: OnceCell::new(),
            lang,
            variants,
            book,
        })
    }

    fn render(&self, name: &str, view: &impl serde::Serialize) -> Result<String, String> {
        let renderer = (self
            .renderer
            .get_or_init(|| Renderer::new(None).map_err(|e| e.to_string())))
        .as_ref()
        .map_err(Clone::clone)?;
        renderer.render(name, view).map_err(|e| e.to_string())
    }

    /// The practice variant's blank sheet, or its key.
    fn view(&self, key: bool) -> SheetView<'_> {
        let practice = Some((SET_FILE, self.seed));
        treequiz::view::sheet(&self.set, &self.variants[0], &self.lang, key, practice)
    }

    /// The practice variant, each question laid out for the page. Its sheets
    /// ([`Practice::sheets`]) and its solution ([`Practice::solution`]) come
    /// apart: the first exercise on screen needs neither, and a cold page
    /// waits for every function it runs to be compiled.
    fn page(&self) -> Result<Json, String> {
        let variant = &self.variants[0];
        let questions: Vec<Json> = (self.view(false).exercises.iter())
            .zip(&variant.items)
            .map(|(q, item)| question(q, item))
            .collect();
        Ok(json!({
            "ok": true,
            "title": self.set.title,
            "lang": self.lang.code,
            "variant": variant.id,
            "seed": self.seed.to_string(),
            "path": self.set.path.iter().map(|k| k.name).collect::<Vec<_>>(),
            "strings": self.lang.nested().get("page"),
            "questions": questions,
        }))
    }

    /// The practice variant's four sheets, byte for byte what `generate SET
    /// --seed SEED` writes.
    fn sheets(&self) -> Result<Json, String> {
        let (blank, key) = (self.view(false), self.view(true));
        Ok(json!({
            "ok": true,
            "worksheet_html": self.render("worksheet.html", &blank)?,
            "answer_sheet": self.render("answer-sheet.toml", &blank)?,
            "key_html": self.render("key.html", &key)?,
            "key_toml": self.render("answer-sheet.toml", &key)?,
        }))
    }

    /// Each question's key (figure, answers, notes, step table with the
    /// nodes each step names) and hints, by question number.
    fn solution(&self) -> Result<Json, String> {
        let key = self.view(true);
        let questions: Vec<Json> = (key.exercises.iter())
            .zip(&self.variants[0].items)
            .map(|(k, item)| solution(k, item, &self.set.conventions, &self.lang))
            .collect();
        Ok(json!({ "ok": true, "questions": questions }))
    }

    /// Grades a practice answer sheet as `treequiz check` does (an exam's is
    /// checked by [`exam`] before this), graded against the seed it names
    /// and its student's variant. The feedback comes as text (word for word
    /// what `check --format text` prints), Markdown and the view behind them.
    /// With `hide_key` it is worded as `grade --hide-key` words it: no key
    /// column, and only reasons that give no part of the key away (the page
    /// asks for this until the student shows the solution). `hints` taken
    /// on the page are counted in it.
    fn check(&self, sheet: &str, file: &str, hide_key: bool, hints: usize) -> Result<Json, String> {
        let source = Source {
            path: if file.is_empty() {
                "answer-sheet.toml".into()
            } else {
                file.into()
            },
            text: sheet.to_string(),
        };
        let sub = submission::parse(&source).map_err(|e| e.to_string())?;
        let Some((_, seed)) = sub.practice else {
            return Err(format!("{}: {}", source.path, submission::NOT_PRACTICE));
        };
        let made;
        let book = if seed == self.seed && sub.student.as_deref().is_none_or(str::is_empty) {
            &self.book
        } else {
            let students = sub.student.clone().into_iter().collect();
            made = KeyBook::from_set(&self.set, &Master::from_seed(seed), students)
                .map_err(|e| e.to_string())?;
            &made
        };
        let row = grade_source(book, &source, &self.lang, hide_key);
        let view = feedback_view(&row, &self.lang, hide_key).with_hints_taken(hints, &self.lang);
        let mut data = serde_json::to_value(&view).map_err(|e| e.to_string())?;
        if let Some(d) = data.as_object_mut() {
            d.remove("t");
        }
        let headers = ["field", "score", "you_wrote", "key_answer", "why"]
            .map(|h| self.lang.get(&format!("grade.{h}")).to_string());
        Ok(json!({
            "ok": true,
            "seed": seed.to_string(),
            "headers": headers,
            "feedback_text": self.render("feedback.txt", &view)?,
            "feedback_md": self.render("feedback.md", &view)?,
            "feedback": data,
        }))
    }
}

/// One question for the page: what the worksheet says, its figure with the
/// places a student can pick, each field's shape and what it picks, and the
/// key with its steps for the replay.
fn question(q: &treequiz::view::ExerciseView, item: &treequiz::class_set::Item) -> Json {
    let model = item.instance.model();
    let (figure, _) = model.sheet_figure(&item.instance);
    let kind = item.exercise.kind;
    let fields: Vec<Json> = q
        .fields
        .iter()
        .map(|f| {
            let shape = kind
                .fields
                .iter()
                .find(|d| d.name == f.name)
                .map(|d| d.shape)
                .expect("a field of its kind");
            let answer = item
                .key
                .answer(f.name)
                .expect("every kind answers its fields");
            let pick = pick(shape, answer, &model, &figure, kind.family);
            json!({
                "name": f.name,
                "description": f.description,
                "example": f.example,
                "shape": shape,
                "pick": pick.map(Pick::name),
            })
        })
        .collect();
    json!({
        "number": q.number,
        "kind": kind.name,
        "heading": q.heading,
        "points_text": q.points_text,
        "prompt": q.prompt,
        "legend": q.legend,
        "conventions": q.conventions,
        "figure": to_svg_with_targets(&figure),
        "fields": fields,
    })
}

/// A question's solution: its key `k` laid out for the page (the step
/// table with the nodes of the question's figure each step names, and the
/// kind's replay frames) and its hints, worded as `check --hint N` words them.
fn solution(
    k: &treequiz::view::ExerciseView,
    item: &treequiz::class_set::Item,
    conventions: &treequiz::exercise::Conventions,
    lang: &Lang,
) -> Json {
    let model = item.instance.model();
    let (figure, _) = model.sheet_figure(&item.instance);
    let kind = item.exercise.kind;
    let key = k.key.as_ref().expect("a key view");
    let labels: Vec<&str> = figure
        .targets
        .iter()
        .filter(|t| t.pick == Pick::Node)
        .map(|t| &*t.label)
        .collect();
    // The kind's own replay where it has one; else each row's named nodes.
    let frames = kind.replay_key(&item.instance, &item.key, conventions);
    let steps: Vec<Json> = key
        .table
        .rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            json!({ "cells": row, "labels": named(row, &labels), "frame": frames.get(i) })
        })
        .collect();
    // Each step of the key's trace, worded as `check --hint N` words it, with
    // the nodes it is about; the page shows one part at a time, on request.
    let all = kind.hints_of(&item.instance, &item.key, conventions);
    let hints: Vec<Json> = all
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let view = HintView::of(k.number, i + 1, &all, lang);
            json!({ "heading": view.heading, "question": view.question, "answer": view.answer, "nodes": h.nodes })
        })
        .collect();
    json!({
        "number": k.number,
        "hints": hints,
        "key": {
            "legend": key.legend,
            "figure": key.figure_svg,
            "answers": key.answers.iter().map(|a| json!({
                "field": a.field, "description": a.description, "text": a.text,
            })).collect::<Vec<_>>(),
            "notes": key.notes,
            "table_title": key.table_title,
            "headers": key.table.headers,
            "steps": steps,
        },
    })
}

/// What a field's answer is picked from on the figure: what its key lists
/// (nodes, connectors, a game's moves), where the figure draws each of them;
/// nothing for numbers and players, nor for a game's replies, which its
/// board does not show. A key that lists nothing picks what its family's
/// figure draws (a board draws only P's own moves, so nothing there).
fn pick(
    shape: Shape,
    answer: &Answer,
    model: &treequiz::instance::Model<'_>,
    figure: &treequiz::draw::Figure,
    family: treequiz::exercise::Family,
) -> Option<Pick> {
    use treequiz::exercise::Family;
    let items: Vec<AnswerItem> = match answer {
        Answer::Value(_) | Answer::Cost(_) => return None,
        Answer::Values(pairs) => pairs.iter().map(|p| p.0).collect(),
        Answer::Bounds(pairs) => pairs.iter().map(|p| p.0).collect(),
        Answer::Fractions(pairs) => pairs.iter().map(|p| p.0).collect(),
        Answer::One(items) | Answer::Set(items) | Answer::Sequence(items) => items.clone(),
    };
    let Some(first) = items.first() else {
        let board = matches!(family, Family::TicTacToe | Family::Othello);
        return match shape {
            Shape::Connectors => Some(Pick::Connector),
            Shape::Value | Shape::Cost => None,
            _ if board => None,
            _ => Some(Pick::Node),
        };
    };
    let pick = match first {
        AnswerItem::Connector(_) => Pick::Connector,
        AnswerItem::Move(..) => Pick::Move,
        AnswerItem::Player(_) => return None,
        AnswerItem::Node(_) => Pick::Node,
    };
    let drawn = |i: &AnswerItem| {
        let label = model.name(*i);
        figure
            .targets
            .iter()
            .any(|t| t.pick == pick && *t.label == *label)
    };
    items.iter().all(drawn).then_some(pick)
}

/// The figure's labels that a row of the key's table names, as whole words.
fn named(row: &[String], labels: &[&str]) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for cell in row {
        for word in cell.split(|c: char| c.is_whitespace() || ",;()→=≤≥:[]{}+<>".contains(c))
        {
            if labels.contains(&word) && !found.iter().any(|f| f == word) {
                found.push(word.to_string());
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(request: Json) -> Json {
        let answer = call(&request).unwrap_or_else(|e| panic!("{request}: {e}"));
        assert_eq!(answer["ok"], true, "{request}: {answer}");
        answer
    }

    /// Every kind in every size and language draws an exercise whose key
    /// scores full marks and whose blank sheet scores none; every field that
    /// lists nodes, connectors or moves can be picked on the figure.
    #[test]
    fn every_kind_and_size_makes_an_exercise_the_grader_marks() {
        let start = ask(json!({ "op": "start" }));
        for kind in start["kinds"].as_array().unwrap() {
            for size in ["small", "medium", "large"] {
                for lang in ["en", "zh"] {
                    let name = kind["name"].as_str().unwrap();
                    let t0 = std::time::Instant::now();
                    let set = ask(json!({ "op": "set", "kind": name, "size": size, "lang": lang }));
                    let set = set["set"].as_str().unwrap();
                    let page = ask(json!({ "op": "practice", "set": set, "seed": "42" }));
                    let made = t0.elapsed();
                    let q = &page["questions"][0];
                    let figure = q["figure"].as_str().unwrap();
                    for f in q["fields"].as_array().unwrap() {
                        // A game's board shows P's moves, not the replies a pruned path names.
                        if ["tictactoe", "othello"].contains(&name) && f["name"] == "pruned" {
                            assert!(f["pick"].is_null(), "{name}: `pruned` picks on the board");
                        }
                        if let Some(pick) = f["pick"].as_str() {
                            assert!(
                                figure.contains(&format!("data-pick=\"{pick}\"")),
                                "{name} {size}: `{}` picks {pick}s, which the figure lacks",
                                f["name"]
                            );
                        }
                    }
                    let sheets = ask(json!({ "op": "sheets", "set": set, "seed": "42" }));
                    let key = sheets["key_toml"].as_str().unwrap();
                    let right =
                        ask(json!({ "op": "check", "set": set, "seed": "42", "sheet": key }));
                    let fb = &right["feedback"];
                    assert_eq!(
                        fb["total"], fb["max"],
                        "{name} {size} {lang}: the key is not full marks"
                    );
                    let blank = sheets["answer_sheet"].as_str().unwrap();
                    let wrong =
                        ask(json!({ "op": "check", "set": set, "seed": "42", "sheet": blank }));
                    assert_eq!(
                        wrong["feedback"]["total"], "0",
                        "{name} {size}: a blank sheet scores"
                    );
                    eprintln!("{name} {size} {lang}: made in {made:?}");
                }
            }
        }
    }

    /// The page offers every kind of the registry, in its order.
    #[test]
    fn every_kind_of_the_registry_is_offered() {
        let start = ask(json!({ "op": "start" }));
        let offered: Vec<&str> = start["kinds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k["name"].as_str().unwrap())
            .collect();
        let registry: Vec<&str> = treequiz::exercise::KINDS.iter().map(|k| k.name).collect();
        assert_eq!(offered, registry);
    }

    /// `treequiz practice` embeds the set's plan (the fairness pilot, most of
    /// the first variant's work) for its own seed: carried, it gives the
    /// variant `generate` makes; a plan for another seed is not taken, and
    /// the one for this seed is (a wrong one shows).
    #[test]
    fn a_carried_plan_gives_the_variant_generate_makes() {
        let text = include_str!("../../../problem-sets/midterm-zh.toml");
        let fresh = Practice::new(text, None, "", "").unwrap();
        let master = Master::from_seed(fresh.set.seed);
        let plan = treequiz::fair::Plan::new(&fresh.set, &master)
            .unwrap()
            .to_text();
        let generated = treequiz::class_set::build(&fresh.set, &master, &[]).unwrap();
        let checksum = |plan: &str| {
            Practice::new(text, None, "", plan).map(|p| p.variants[0].checksum.clone())
        };
        assert_eq!(fresh.variants[0].checksum, generated[0].checksum);
        assert_eq!(
            checksum(&format!("2026:{plan}")),
            Ok(generated[0].checksum.clone())
        );
        let wrong = plan.replace(|c: char| c.is_ascii_digit(), "1");
        assert_ne!(wrong, plan);
        assert_eq!(
            checksum(&format!("1:{wrong}")),
            Ok(generated[0].checksum.clone())
        );
        assert_ne!(
            checksum(&format!("2026:{wrong}")),
            Ok(generated[0].checksum.clone())
        );
    }

    /// A teacher's set opens where `treequiz generate SET` (no `--seed`)
    /// puts its practice sheet: at the set's own seed.
    #[test]
    fn a_page_without_a_seed_opens_at_the_sets_own() {
        let set = include_str!("../../../problem-sets/demo.toml");
        let own = ask(json!({ "op": "practice", "set": set, "seed": "" }));
        assert_eq!(own["seed"], "2026");
        let own = ask(json!({ "op": "sheets", "set": set, "seed": "" }));
        let at_2026 = ask(json!({ "op": "sheets", "set": set, "seed": "2026" }));
        assert!(own["key_toml"].as_str().unwrap().contains("[q1]"));
        assert_eq!(own["key_toml"], at_2026["key_toml"]);
    }

    /// The first exercise on screen parses no template and lays out no key
    /// (most of a cold page's first draw, when the engine compiles every
    /// function it runs): its sheets and solution come at later requests,
    /// from the exercise kept.
    #[test]
    fn the_first_draw_renders_no_sheet_and_no_key() {
        let set = ask(json!({ "op": "set", "kind": "alpha-beta", "size": "small" }));
        let set = set["set"].as_str().unwrap();
        let page = ask(json!({ "op": "practice", "set": set, "seed": "7" }));
        assert!(page.get("answer_sheet").is_none());
        let q = page["questions"][0].as_object().unwrap();
        assert!(!q.contains_key("key") && !q.contains_key("hints"), "{q:?}");
        let solution = ask(json!({ "op": "solution", "set": set, "seed": "7" }));
        let k = &solution["questions"][0];
        assert_eq!(k["number"], 1);
        assert!(!k["key"]["steps"].as_array().unwrap().is_empty());
        assert!(!k["key"]["figure"].as_str().unwrap().is_empty());
        let rendered = || LAST.with(|l| l.borrow().as_ref().unwrap().renderer.get().is_some());
        assert!(!rendered());
        let sheets = ask(json!({ "op": "sheets", "set": set, "seed": "7" }));
        assert!(rendered());
        for name in ["worksheet_html", "answer_sheet", "key_html", "key_toml"] {
            assert!(!sheets[name].as_str().unwrap().is_empty(), "{name}");
        }
    }

    /// A teacher's set names its own course path; a kind's page has the
    /// chapter's; each question says its kind and carries its hints.
    #[test]
    fn the_course_path_is_the_sets_or_the_chapters() {
        let own = "title = \"t\"\n[practice]\npath = [\"ao-star\", \"minimax\"]\n[[exercise]]\nkind = \"minimax\"\ndepth = 2\n";
        let page = ask(json!({ "op": "practice", "set": own, "seed": "1" }));
        assert_eq!(page["path"], json!(["ao-star", "minimax"]));
        assert_eq!(page["questions"][0]["kind"], "minimax");
        let set = ask(json!({ "op": "set", "kind": "alpha-beta", "size": "small" }));
        let page = ask(json!({ "op": "practice", "set": set["set"], "seed": "3" }));
        assert_eq!(page["path"][0], "minimax");
        assert_eq!(page["path"].as_array().unwrap().len(), 9);
        let solution = ask(json!({ "op": "solution", "set": set["set"], "seed": "3" }));
        let hints = solution["questions"][0]["hints"].as_array().unwrap();
        assert!(hints.len() >= 2, "{hints:?}");
        assert!(
            hints[0]["question"].as_str().unwrap().ends_with('?'),
            "{hints:?}"
        );
        assert!(
            !hints[0]["answer"].as_str().unwrap().is_empty(),
            "{hints:?}"
        );
    }

    /// An exam sheet alone is refused with `check`'s first clause and asked
    /// for its form; a file that is no form is refused by name.
    #[test]
    fn an_exam_sheet_asks_for_its_form_and_refuses_another() {
        let sheet = "variant = \"v-1\"\nstudent = \"s1\"\n\n[q1]\nvalue = 3\n";
        let alone =
            call(&json!({ "op": "check", "sheet": sheet, "file": "exam.toml" })).unwrap_err();
        assert!(
            alone.starts_with(&format!("exam.toml: {}; ", submission::NOT_PRACTICE)),
            "{alone}"
        );
        assert!(alone.contains("form.json"), "{alone}");
        let foreign = call(&json!({ "op": "check", "sheet": sheet, "form": "{\"not\": 1}", "form_file": "f.json" }))
            .unwrap_err();
        assert!(
            foreign.contains("f.json") && foreign.contains("not a treequiz answer form"),
            "{foreign}"
        );
    }

    /// Until the solution is shown the page asks for `grade --hide-key`'s
    /// wording: no key answer, and no reason that names the key's value.
    #[test]
    fn hidden_feedback_names_no_key_answer() {
        let set = ask(json!({ "op": "set", "kind": "minimax", "size": "small" }));
        let set = set["set"].as_str().unwrap();
        let sheets = ask(json!({ "op": "sheets", "set": set, "seed": "5" }));
        let wrong =
            sheets["answer_sheet"]
                .as_str()
                .unwrap()
                .replacen("value = \"\"", "value = 999", 1);
        let check = |hide: bool| {
            ask(json!({ "op": "check", "set": set, "seed": "5", "sheet": wrong, "hide_key": hide }))
        };
        let (hidden, full) = (check(true), check(false));
        let field = |r: &Json| r["feedback"]["questions"][0]["fields"][0].clone();
        assert_eq!(field(&full)["field"], "value");
        let key = field(&full)["key"].as_str().unwrap().to_string();
        assert!(!key.is_empty());
        assert_eq!(field(&hidden)["key"], "");
        assert_eq!(field(&hidden)["reasons"], json!(["999 is not right"]));
        assert_eq!(hidden["feedback"]["hide_key"], true);
        for text in [&hidden["feedback_text"], &hidden["feedback_md"]] {
            assert!(!text.as_str().unwrap().contains("Key: "), "{text}");
        }
        assert!(full["feedback_text"].as_str().unwrap().contains(&key));
    }

    #[test]
    fn options_from_a_link_override_the_size() {
        let set = ask(json!({ "op": "set", "kind": "alpha-beta", "size": "small",
            "options": { "depth": "3", "branching": "2..3" } }));
        let set = set["set"].as_str().unwrap();
        assert!(
            set.contains("depth = 3") && set.contains("branching = \"2..3\""),
            "{set}"
        );
        let bad = call(&json!({ "op": "set", "kind": "alpha-beta", "options": { "depht": "3" } }))
            .unwrap();
        let error = call(&json!({ "op": "practice", "set": bad["set"], "seed": "1" })).unwrap_err();
        assert!(
            error.contains("unknown key `depht`") && error.contains("depth"),
            "{error}"
        );
    }
}
