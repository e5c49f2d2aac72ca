//! The template environment: built-in templates embedded in the binary, which a
//! user folder overrides file by file (`--templates DIR`).
//!
//! Four tera environments, one per escaping rule: HTML-escaped `.html`,
//! TeX-escaped `.tex`, XML-escaped `.xml` (Word's parts), and unescaped
//! Markdown and TOML (whose values Rust has already written in TOML syntax).

use std::path::{Path, PathBuf};

use serde::Serialize;
use tera::{Context, Tera};

use crate::draw::tex_escape;
use crate::input::InputError;
use crate::lang::{self, Lang};

/// The built-in templates, by file name.
pub const TEMPLATES: &[(&str, &str)] = &[
    // A template is added after the ones it includes.
    ("running.html", include_str!("../templates/running.html")),
    ("style.html", include_str!("../templates/style.html")),
    ("worksheet.md", include_str!("../templates/worksheet.md")),
    (
        "paper-body.html",
        include_str!("../templates/paper-body.html"),
    ),
    (
        "worksheet-body.html",
        include_str!("../templates/worksheet-body.html"),
    ),
    (
        "worksheet.html",
        include_str!("../templates/worksheet.html"),
    ),
    ("preamble.tex", include_str!("../templates/preamble.tex")),
    (
        "worksheet-body.tex",
        include_str!("../templates/worksheet-body.tex"),
    ),
    ("worksheet.tex", include_str!("../templates/worksheet.tex")),
    ("key.md", include_str!("../templates/key.md")),
    ("key-body.html", include_str!("../templates/key-body.html")),
    ("key.html", include_str!("../templates/key.html")),
    ("booklet.html", include_str!("../templates/booklet.html")),
    ("key-body.tex", include_str!("../templates/key-body.tex")),
    ("key.tex", include_str!("../templates/key.tex")),
    ("booklet.tex", include_str!("../templates/booklet.tex")),
    (
        "answer-sheet.toml",
        include_str!("../templates/answer-sheet.toml"),
    ),
    ("feedback.md", include_str!("../templates/feedback.md")),
    ("feedback.txt", include_str!("../templates/feedback.txt")),
    ("solve.txt", include_str!("../templates/solve.txt")),
    ("feedback.html", include_str!("../templates/feedback.html")),
    ("summary.md", include_str!("../templates/summary.md")),
    ("summary.html", include_str!("../templates/summary.html")),
    ("docx-body.xml", include_str!("../templates/docx-body.xml")),
    (
        "docx-document.xml",
        include_str!("../templates/docx-document.xml"),
    ),
    (
        "docx-styles.xml",
        include_str!("../templates/docx-styles.xml"),
    ),
    ("docx-rels.xml", include_str!("../templates/docx-rels.xml")),
    (
        "docx-footer.xml",
        include_str!("../templates/docx-footer.xml"),
    ),
];

/// A template that cannot be read or rendered.
#[derive(Debug, thiserror::Error)]
#[error("template `{name}`{}: {message}", origin.as_ref().map(|p| format!(" ({})", p.display())).unwrap_or_default())]
pub struct RenderError {
    /// The template's name.
    pub name: String,
    /// The user's file, if it came from `--templates`.
    pub origin: Option<PathBuf>,
    /// What tera said (with line and column).
    pub message: String,
}

/// Every template, built in or overridden, ready to render.
pub struct Renderer {
    html: Tera,
    tex: Tera,
    xml: Tera,
    text: Tera,
    user_dir: Option<PathBuf>,
    /// The user's file behind each overridden template, for error messages.
    origins: Vec<(String, PathBuf)>,
}

/// A user's template file as text: a regular file of at most
/// [`crate::input::MAX_FILE_BYTES`] in UTF-8 (checked before it is opened,
/// and reading stops past the cap).
fn read_template(path: &Path) -> Result<String, String> {
    let bytes =
        crate::input::read_capped(path, crate::input::MAX_FILE_BYTES).map_err(|e| match e {
            crate::input::ReadError::TooLarge => format!(
                "cannot read it: it is larger than {} MiB; a template is a small text file",
                crate::input::MAX_FILE_BYTES >> 20
            ),
            e => format!("cannot read it: {e}"),
        })?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "it is not UTF-8 text (byte {}); save it as UTF-8",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Text from a student's file, a roster or a set, as Markdown that shows
/// it as written (the `md` filter). Common renderers run raw HTML, so
/// everything that could start it (`<` before a letter, `/`, `!` or `?`),
/// an entity (`&` before a letter or `#`), a link or image (`[`, `]`) or a
/// new table cell is backslash-escaped (CommonMark escapes any ASCII
/// punctuation), and so is every mark that could make emphasis or a
/// strikethrough (`*`, `_`, `~`: a student id `**s6**` shows its stars),
/// and line breaks become spaces,
/// so it stays inline. What cannot start anything (`a -> b`, `3 < 4`,
/// `AO* expands`, `best_move`) is left as it is, and so are
/// backticks: our messages quote code in them, and whichever parts a stray
/// one makes code, none is read as HTML (outside a span it is escaped,
/// inside nothing is).
pub fn md_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut prev = ' ';
    while let Some(c) = chars.next() {
        let next = chars.peek().copied().unwrap_or(' ');
        let escape = match c {
            '\\' | '[' | ']' | '|' => true,
            '<' => next.is_ascii_alphabetic() || matches!(next, '/' | '!' | '?'),
            '&' => next.is_ascii_alphanumeric() || next == '#',
            // Kept only where it can neither open nor close emphasis with
            // another: after a word or a space and before a space (`AO* `,
            // `2 * 3`); and `_` inside a word (`best_move`), which never does.
            '*' | '~' | '_' => {
                let loose =
                    next.is_whitespace() && (prev.is_whitespace() || prev.is_alphanumeric());
                let inside = c == '_' && prev.is_alphanumeric() && next.is_alphanumeric();
                !(loose || inside)
            }
            _ => false,
        };
        prev = c;
        match c {
            '\n' | '\r' => out.push(' '),
            c if escape => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// Text as a Markdown code span (the `code` filter): fenced by one backtick
/// more than its longest run of them, so nothing in it ends the span early;
/// nothing inside a span is read as HTML. Line breaks become spaces, and a
/// `|` (which ends a table cell even there) is escaped.
pub fn md_code(text: &str) -> String {
    let text = text.replace(['\n', '\r'], " ").replace('|', "\\|");
    let run = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(run + 1);
    // A space on each side keeps a leading or trailing backtick apart from the fence.
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// Our sentences on an HTML page (the `code_spans` filter): everything
/// escaped, then each pair of backticks, which the string tables use to
/// quote code (`` `bogus` ``, `` `variant = "…"` ``), a `<code>` element, as
/// the Markdown pages show them. Escaping comes first, so a backtick or mark
/// a student wrote can only pair into a code span, never into markup; a
/// last backtick without a partner stays as it is.
pub fn html_code_spans(text: &str) -> String {
    let mut escaped = Vec::with_capacity(text.len());
    tera::escape_html(text, &mut escaped).expect("writing to memory");
    let escaped = String::from_utf8(escaped).expect("escaping keeps UTF-8");
    let parts: Vec<&str> = escaped.split('`').collect();
    let pairs = (parts.len() - 1) / 2;
    let mut out = String::with_capacity(escaped.len() + pairs * 13);
    for (i, part) in parts.iter().enumerate() {
        match i {
            0 => {}
            i if i > 2 * pairs => out.push('`'),
            i if i % 2 == 1 => out.push_str("<code>"),
            _ => out.push_str("</code>"),
        }
        out.push_str(part);
    }
    out
}

/// Text as XML character data or an attribute value: the five specials
/// escaped, and each character XML 1.0 forbids (C0 controls but tab and
/// line breaks, U+FFFE, U+FFFF), which no reference can write either,
/// shown as U+FFFD: a sheet never fails to open over a stray byte.
pub fn xml_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if c < ' ' || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

fn xml_escape_fn(input: &str, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    out.write_all(xml_text(input).as_bytes())
}

fn tex_escape_fn(input: &str, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    out.write_all(tex_escape(input).as_bytes())
}

/// A view turned into a template context once, for the several templates
/// that render it (a sheet's Markdown, HTML, LaTeX and answer sheet):
/// serialising a sheet's view costs as much as rendering it.
pub struct Prepared(Result<Context, String>);

impl Prepared {
    /// `view`, ready for [`Renderer::render_context`].
    pub fn of(view: &impl Serialize) -> Prepared {
        Prepared(Context::from_serialize(view).map_err(|e| e.to_string()))
    }
}

impl Renderer {
    /// Loads the built-ins, then every same-named file of `user_dir`.
    pub fn new(user_dir: Option<&Path>) -> Result<Renderer, RenderError> {
        let mut html = Tera::new();
        let mut tex = Tera::new();
        tex.set_escape_fn(tex_escape_fn);
        tex.autoescape_on([".tex"]);
        let mut xml = Tera::new();
        xml.set_escape_fn(xml_escape_fn);
        xml.autoescape_on([".xml"]);
        let mut text = Tera::new();
        let mut origins = Vec::new();
        text.autoescape_on(Vec::<&str>::new());
        // Any value: a missing one (`none`) prints as nothing, as without the filter.
        let shown = |x: &tera::Value| x.as_str().map_or_else(|| x.to_string(), str::to_string);
        text.register_filter(
            "md",
            move |x: tera::Value, _: tera::Kwargs, _: &tera::State| md_text(&shown(&x)),
        );
        text.register_filter(
            "code",
            move |x: tera::Value, _: tera::Kwargs, _: &tera::State| md_code(&shown(&x)),
        );
        html.register_filter(
            "code_spans",
            move |x: tera::Value, _: tera::Kwargs, _: &tera::State| {
                tera::Value::safe_string(&html_code_spans(&shown(&x)))
            },
        );
        for (name, builtin) in TEMPLATES {
            // Anything of the name counts (a FIFO or a folder is refused, not
            // skipped), read within the cap: a FIFO would block, a huge file fill memory.
            let (content, origin) = match user_dir.map(|d| d.join(name)).filter(|p| p.exists()) {
                Some(path) => {
                    let content = read_template(&path).map_err(|message| RenderError {
                        name: name.to_string(),
                        origin: Some(path.clone()),
                        message,
                    })?;
                    (content, Some(path))
                }
                None => (builtin.to_string(), None),
            };
            let env = match Path::new(name).extension().and_then(|e| e.to_str()) {
                Some("html") => &mut html,
                Some("tex") => &mut tex,
                Some("xml") => &mut xml,
                _ => &mut text,
            };
            if let Some(path) = &origin {
                origins.push((name.to_string(), path.clone()));
            }
            env.add_raw_template(name, &content)
                .map_err(|e| RenderError {
                    name: name.to_string(),
                    origin,
                    message: e.to_string(),
                })?;
        }
        Ok(Renderer {
            html,
            tex,
            xml,
            text,
            user_dir: user_dir.map(Path::to_path_buf),
            origins,
        })
    }

    /// Renders `name` with `view` as its context.
    pub fn render(&self, name: &str, view: &impl Serialize) -> Result<String, RenderError> {
        self.render_context(name, &Prepared::of(view))
    }

    /// Renders `name` with a view prepared once for several templates.
    pub fn render_context(&self, name: &str, view: &Prepared) -> Result<String, RenderError> {
        let env = match Path::new(name).extension().and_then(|e| e.to_str()) {
            Some("html") => &self.html,
            Some("tex") => &self.tex,
            Some("xml") => &self.xml,
            _ => &self.text,
        };
        let origin = self
            .origins
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, p)| p.clone());
        let error = |message: String| RenderError {
            name: name.to_string(),
            origin: origin.clone(),
            message,
        };
        let context = view.0.as_ref().map_err(|e| error(e.clone()))?;
        env.render(name, context).map_err(|e| error(e.to_string()))
    }

    /// The string table of `set`'s language ([`set_lang`] in the renderer's folder).
    pub fn set_lang(&self, set: &crate::problem_set::ProblemSet) -> Result<Lang, InputError> {
        set_lang(self.user_dir.as_deref(), set)
    }

    /// The string table for `code` ([`lang`] in the renderer's folder).
    pub fn lang(&self, code: &str) -> Result<Lang, InputError> {
        lang(self.user_dir.as_deref(), code)
    }
}

/// The string table of `set`'s language, from `user_dir` (a `--templates`
/// folder) or built in; when none has it, the error points at the set's
/// `language` line. No template is read: the page finds its language
/// before it renders anything.
pub fn set_lang(
    user_dir: Option<&Path>,
    set: &crate::problem_set::ProblemSet,
) -> Result<Lang, InputError> {
    // Only "no table for this language" is about the set's line; a
    // broken or unreadable table of the user's names its own file.
    lang(user_dir, &set.language).map_err(|e| {
        if e.path == set.language {
            set.unknown_language(e)
        } else {
            e
        }
    })
}

/// The string table for `code`: `user_dir`'s `lang/<code>.toml`, else a built-in one.
pub fn lang(user_dir: Option<&Path>, code: &str) -> Result<Lang, InputError> {
    if let Some(path) = user_dir
        .map(|d| d.join("lang").join(format!("{code}.toml")))
        // A FIFO or folder of the name is refused by read_source, not skipped.
        .filter(|p| p.exists())
    {
        let source = crate::input::read_source(&path)?;
        let lang = Lang::parse(code, &source)?;
        // A missing string would print its key on a student's sheet: refuse it here.
        let reference = Lang::builtin("en").expect("English is built in");
        let missing: Vec<&str> = reference.keys().filter(|k| !lang.has(k)).collect();
        if !missing.is_empty() {
            let shown: Vec<&str> = missing.iter().take(8).copied().collect();
            return Err(InputError::file(
                &source.path,
                format!("the string table lacks {} key(s): {}{}", missing.len(), shown.join(", "), if missing.len() > 8 { ", …" } else { "" }),
                Some("copy them from the lang/en.toml that `treequiz templates export DIR` writes, and translate them".into()),
            ));
        }
        return Ok(lang);
    }
    Lang::builtin(code).ok_or_else(|| {
        let known: Vec<&str> = lang::BUILTIN.iter().map(|b| b.code).collect();
        InputError::file(code, format!("no string table for the language `{code}`"), Some(format!("the built-in languages are {}; add your own as lang/{code}.toml in the --templates folder", known.join(", "))))
    })
}

/// Writes the built-in templates and string tables into `dir`; returns the
/// paths written. A file there that differs from its built-in text (a
/// teacher's edit) is overwritten only with `force`: without it nothing is
/// written and the error lists the files that differ.
pub fn export(dir: &Path, force: bool) -> Result<Vec<PathBuf>, String> {
    let tables: Vec<(String, &str)> = (lang::BUILTIN.iter())
        .map(|b| (format!("lang/{}.toml", b.code), b.text))
        .collect();
    let files: Vec<(&str, &str)> = TEMPLATES
        .iter()
        .copied()
        .chain(tables.iter().map(|(name, text)| (name.as_str(), *text)))
        .collect();
    export_files(dir, &files, force, "the built-in templates")
}

/// Writes built-in files (`(name, content)`, names relative to `dir`) into
/// `dir` for a teacher to read and edit, each written atomically. A file there
/// that differs from its built-in text (a teacher's edit) is overwritten only
/// with `force`: without it nothing is written and the error lists the files
/// that differ, calling the built-in ones `what`.
pub fn export_files(
    dir: &Path,
    files: &[(&str, &str)],
    force: bool,
    what: &str,
) -> Result<Vec<PathBuf>, String> {
    let edited: Vec<&str> = files
        .iter()
        .filter(|(name, content)| {
            // Read capped: a FIFO or a huge file there is "edited", never waited on.
            crate::input::read_capped(&dir.join(name), content.len() as u64 + 1).map_or_else(
                |e| !matches!(e, crate::input::ReadError::Io(ref io) if io.kind() == std::io::ErrorKind::NotFound),
                |there| there != content.as_bytes(),
            )
        })
        .map(|(name, _)| *name)
        .collect();
    if !edited.is_empty() && !force {
        let one = edited.len() == 1;
        return Err(format!(
            "{} file{} here differ{} from {what} (edited?): {}; pass --force to overwrite them, or export into a new folder",
            edited.len(),
            if one { "" } else { "s" },
            if one { "s" } else { "" },
            edited.join(", ")
        ));
    }
    let mut written = Vec::new();
    for (name, content) in files {
        let path = dir.join(name);
        crate::output::write_atomic(&path, content.as_bytes())
            .map_err(|e| format!("{name}: cannot write: {e}"))?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::{html_code_spans, md_code, md_text, xml_text};

    #[test]
    fn xml_text_escapes_the_specials_and_shows_what_xml_cannot_hold() {
        assert_eq!(
            xml_text("<w:t>&\"'</w:t>"),
            "&lt;w:t&gt;&amp;&quot;&apos;&lt;/w:t&gt;"
        );
        assert_eq!(xml_text("a\tb\nc"), "a\tb\nc");
        assert_eq!(
            xml_text("a\u{7}b\u{FFFE}\u{FFFF}"),
            "a\u{FFFD}b\u{FFFD}\u{FFFD}"
        );
        assert_eq!(xml_text("王小明 ≤ α"), "王小明 ≤ α");
    }

    #[test]
    fn html_shows_our_code_spans_and_escapes_the_rest() {
        assert_eq!(
            html_code_spans("question 1 has no field `bogus`"),
            "question 1 has no field <code>bogus</code>"
        );
        assert_eq!(
            html_code_spans("`<script>` is **a** `x"),
            "<code>&lt;script&gt;</code> is **a** `x"
        );
        assert_eq!(html_code_spans("a & \"b\""), "a &amp; &quot;b&quot;");
    }

    #[test]
    fn markdown_text_shows_what_was_written_and_starts_nothing() {
        assert_eq!(md_text("<img src=x>"), "\\<img src=x>");
        assert_eq!(md_text("</b><!-- x --><?php"), "\\</b>\\<!-- x -->\\<?php");
        assert_eq!(md_text("![x](http://t.test)"), "!\\[x\\](http://t.test)");
        assert_eq!(md_text("&amp; &#60; a & b"), "\\&amp; \\&#60; a & b");
        assert_eq!(md_text("a | b\\c\nd"), "a \\| b\\\\c d");
        assert_eq!(
            md_text("**s6** ~~x~~ _y_ a*b*c"),
            "\\*\\*s6\\*\\* \\~\\~x\\~\\~ \\_y_ a\\*b\\*c"
        );
        // Nothing that starts no markup is touched: keys stay readable.
        assert_eq!(
            md_text("n0 -> n1 + n2; 3 < 4; <= 2; AO* expands; best_move; 2 * 3"),
            "n0 -> n1 + n2; 3 < 4; <= 2; AO* expands; best_move; 2 * 3"
        );
    }

    #[test]
    fn a_code_span_is_fenced_past_any_backticks_inside() {
        assert_eq!(md_code("a.toml"), "`a.toml`");
        assert_eq!(md_code("a`b"), "``a`b``");
        assert_eq!(md_code("`x``"), "``` `x`` ```");
        assert_eq!(md_code("a|b\nc"), "`a\\|b c`");
    }
}
