//! treequiz in the browser: the same generator, renderer and grader as the
//! command line, behind a few `extern "C"` functions. Strings cross as
//! UTF-8 in the module's memory: the page asks [`tq_alloc`] for room, writes
//! its input there, calls a function and reads back the answer, a 4-byte
//! little-endian length and that many bytes of JSON, which it frees with
//! [`tq_free`]. Nothing here solves, scores or words feedback: it calls the
//! library that `treequiz generate` and `treequiz check` call.

use treequiz::grade::batch::grade_source;
use treequiz::grade::key::KeyBook;
use treequiz::grade::report::feedback_view;
use treequiz::input::Source;
use treequiz::render::Renderer;
use treequiz::rng::Master;

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

/// The input at `ptr`, `len` bytes, as text.
unsafe fn text<'a>(ptr: *const u8, len: usize) -> &'a str {
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    std::str::from_utf8(bytes).unwrap_or("")
}

/// `value` as an answer: length prefix, then the JSON.
fn answer(value: serde_json::Value) -> *mut u8 {
    let json = value.to_string().into_bytes();
    let mut out = Vec::with_capacity(json.len() + 4);
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(&json);
    let mut out = std::mem::ManuallyDrop::new(out.into_boxed_slice());
    out.as_mut_ptr()
}

fn error(message: impl ToString) -> *mut u8 {
    answer(serde_json::json!({ "ok": false, "error": message.to_string() }))
}

/// The practice variant of a problem set (TOML text) for `seed`, as
/// `treequiz generate SET --seed SEED` writes it: its worksheet, blank
/// answer sheet and key (HTML and TOML).
///
/// # Safety
/// `set`/`set_len` name `set_len` bytes of the module's memory.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tq_practice(set: *const u8, set_len: usize, seed: u64) -> *mut u8 {
    let source = Source {
        path: "set.toml".into(),
        text: unsafe { text(set, set_len) }.to_string(),
    };
    match practice(&source, seed) {
        Ok(v) => answer(v),
        Err(e) => error(e),
    }
}

/// What both functions start from, as the command line does: the set, its
/// renderer and string table, and the practice variant for `seed`.
struct Practice {
    set: treequiz::problem_set::ProblemSet,
    renderer: Renderer,
    lang: treequiz::lang::Lang,
    variants: Vec<treequiz::class_set::Variant>,
}

impl Practice {
    fn new(source: &Source, seed: u64) -> Result<Practice, String> {
        let set = treequiz::problem_set::parse(source, std::path::Path::new(""))
            .map_err(|e| e.to_string())?;
        let renderer = Renderer::new(None).map_err(|e| e.to_string())?;
        let lang = renderer.set_lang(&set).map_err(|e| e.to_string())?;
        let variants = treequiz::class_set::build(&set, &Master::from_seed(seed), &[])
            .map_err(|e| e.to_string())?;
        Ok(Practice {
            set,
            renderer,
            lang,
            variants,
        })
    }
}

fn practice(source: &Source, seed: u64) -> Result<serde_json::Value, String> {
    let Practice {
        set,
        renderer,
        lang,
        variants,
    } = Practice::new(source, seed)?;
    let practice = Some((source.path.as_str(), seed));
    let blank = treequiz::view::sheet(&set, &variants[0], &lang, false, practice);
    let key = treequiz::view::sheet(&set, &variants[0], &lang, true, practice);
    let render = |name: &str, view| renderer.render(name, view).map_err(|e| e.to_string());
    Ok(serde_json::json!({
        "ok": true,
        "worksheet_html": render("worksheet.html", &blank)?,
        "answer_sheet": render("answer-sheet.toml", &blank)?,
        "key_html": render("key.html", &key)?,
        "key_toml": render("answer-sheet.toml", &key)?,
    }))
}

/// Grades an answer sheet (TOML text) against the practice variant of the
/// set for `seed`, as `treequiz check` does: the feedback as text and
/// Markdown, the score and the maximum.
///
/// # Safety
/// Each pointer names its length's bytes of the module's memory.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tq_check(
    set: *const u8,
    set_len: usize,
    seed: u64,
    sheet: *const u8,
    sheet_len: usize,
) -> *mut u8 {
    let set = Source {
        path: "set.toml".into(),
        text: unsafe { text(set, set_len) }.to_string(),
    };
    let sheet = Source {
        path: "answer-sheet.toml".into(),
        text: unsafe { text(sheet, sheet_len) }.to_string(),
    };
    match check(&set, seed, &sheet) {
        Ok(v) => answer(v),
        Err(e) => error(e),
    }
}

fn check(set: &Source, seed: u64, sheet: &Source) -> Result<serde_json::Value, String> {
    let Practice {
        set,
        renderer,
        lang,
        variants,
    } = Practice::new(set, seed)?;
    let book = KeyBook::from_variants(&set, &variants);
    let row = grade_source(&book, sheet, &lang, false);
    let view = feedback_view(&row, &lang, false);
    let render = |name: &str| renderer.render(name, &view).map_err(|e| e.to_string());
    Ok(serde_json::json!({
        "ok": true,
        "feedback_text": render("feedback.txt")?,
        "feedback_md": render("feedback.md")?,
    }))
}
