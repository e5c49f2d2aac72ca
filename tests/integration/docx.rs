//! `generate --format docx`: the package is sound as Word reads it (every
//! relationship resolves, every part has a content type, ids are unique,
//! the XML is well-formed and in the schema's element order), the same seed
//! gives the same bytes, and LibreOffice prints every question and answer.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read as _;
use std::path::{Path, PathBuf};

use super::common::{generate, scratch, shipped_sets};

/// The parts of a `.docx`, by name.
pub(crate) fn parts(bytes: &[u8]) -> BTreeMap<String, Vec<u8>> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("a zip");
    let mut out = BTreeMap::new();
    for i in 0..zip.len() {
        let mut file = zip.by_index(i).unwrap();
        let mut data = Vec::new();
        file.read_to_end(&mut data).unwrap();
        out.insert(file.name().unwrap().to_string(), data);
    }
    out
}

/// The order ECMA-376 (part 1, §17) gives the children of `w:pPr`, `w:rPr`,
/// `w:sectPr`, `w:tblPr` and `w:tcPr`, as far as treequiz writes them:
/// Word refuses a part (the repair prompt) whose children come out of order.
const ORDER: &[(&str, &[&str])] = &[
    (
        "pPr",
        &[
            "pStyle",
            "keepNext",
            "keepLines",
            "pageBreakBefore",
            "widowControl",
            "numPr",
            "pBdr",
            "shd",
            "tabs",
            "spacing",
            "ind",
            "jc",
            "outlineLvl",
            "rPr",
            "sectPr",
        ],
    ),
    (
        "rPr",
        &[
            "rStyle",
            "rFonts",
            "b",
            "bCs",
            "i",
            "iCs",
            "caps",
            "strike",
            "noProof",
            "vanish",
            "color",
            "spacing",
            "w",
            "kern",
            "position",
            "sz",
            "szCs",
            "highlight",
            "u",
            "shd",
            "vertAlign",
            "lang",
        ],
    ),
    (
        "sectPr",
        &[
            "headerReference",
            "footerReference",
            "type",
            "pgSz",
            "pgMar",
            "pgNumType",
            "cols",
            "titlePg",
            "docGrid",
        ],
    ),
    (
        "tblPr",
        &[
            "tblStyle",
            "tblW",
            "jc",
            "tblInd",
            "tblBorders",
            "shd",
            "tblLayout",
            "tblCellMar",
            "tblLook",
        ],
    ),
    (
        "tcPr",
        &["tcW", "gridSpan", "vMerge", "tcBorders", "shd", "vAlign"],
    ),
];

/// What is wrong with the `.docx` `bytes`, as Word or LibreOffice would
/// find it; empty when it is sound.
pub(crate) fn problems(bytes: &[u8]) -> Vec<String> {
    let parts = parts(bytes);
    let mut out = Vec::new();
    let mut docs = BTreeMap::new();
    for (name, data) in &parts {
        if name.ends_with(".xml") || name.ends_with(".rels") {
            let text = match std::str::from_utf8(data) {
                Ok(t) => t,
                Err(e) => {
                    out.push(format!("{name}: not UTF-8: {e}"));
                    continue;
                }
            };
            match roxmltree::Document::parse(text) {
                Ok(_) => {
                    docs.insert(name.clone(), text);
                }
                Err(e) => out.push(format!("{name}: not well-formed: {e}")),
            }
        }
    }
    let Some(types) = docs.get("[Content_Types].xml") else {
        out.push("no [Content_Types].xml".into());
        return out;
    };
    let types = roxmltree::Document::parse(types).unwrap();
    let defaults: BTreeSet<&str> = types
        .descendants()
        .filter(|n| n.has_tag_name("Default"))
        .filter_map(|n| n.attribute("Extension"))
        .collect();
    let overrides: BTreeSet<&str> = types
        .descendants()
        .filter(|n| n.has_tag_name("Override"))
        .filter_map(|n| n.attribute("PartName"))
        .collect();
    for name in parts.keys() {
        let ext = name.rsplit('.').next().unwrap_or("");
        if !defaults.contains(ext) && !overrides.contains(format!("/{name}").as_str()) {
            out.push(format!("{name}: no content type"));
        }
    }
    for o in &overrides {
        if !parts.contains_key(&o[1..]) {
            out.push(format!("[Content_Types].xml names {o}, which is not there"));
        }
    }
    // Each part's relationships: every target there, every id used resolved.
    let mut main = None;
    for (rels_name, text) in docs.iter().filter(|(n, _)| n.ends_with(".rels")) {
        // `word/_rels/document.xml.rels` is about `word/document.xml`.
        let folder = rels_name.trim_end_matches(".rels");
        let (dir, source) = folder.rsplit_once("_rels/").unwrap();
        let rels = roxmltree::Document::parse(text).unwrap();
        let mut ids = BTreeSet::new();
        for r in rels
            .descendants()
            .filter(|n| n.has_tag_name("Relationship"))
        {
            let id = r.attribute("Id").unwrap_or("");
            let target = r.attribute("Target").unwrap_or("");
            if !ids.insert(id) {
                out.push(format!("{rels_name}: id {id} twice"));
            }
            let path = format!("{dir}{target}");
            if !parts.contains_key(&path) {
                out.push(format!(
                    "{rels_name}: {id} points at {path}, which is not there"
                ));
            }
            if r.attribute("Type")
                .is_some_and(|t| t.ends_with("/officeDocument"))
            {
                main = Some(path);
            }
        }
        let part = format!("{dir}{source}");
        if let Some(text) = docs.get(&part) {
            let doc = roxmltree::Document::parse(text).unwrap();
            for n in doc.descendants() {
                for a in n.attributes() {
                    let relational = a.namespace().is_some_and(|ns| {
                        ns == "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
                    });
                    if relational && !ids.contains(a.value()) {
                        out.push(format!(
                            "{part}: r:{} = {} has no relationship",
                            a.name(),
                            a.value()
                        ));
                    }
                }
            }
        }
    }
    let Some(main) = main else {
        out.push("_rels/.rels names no main document".into());
        return out;
    };
    let Some(text) = docs.get(&main) else {
        out.push(format!("{main} is missing"));
        return out;
    };
    let doc = roxmltree::Document::parse(text).unwrap();
    let mut ids = BTreeSet::new();
    for n in doc.descendants().filter(|n| n.has_tag_name("docPr")) {
        let id = n.attribute("id").unwrap_or("");
        if !ids.insert(id) {
            out.push(format!("{main}: wp:docPr id {id} twice"));
        }
    }
    let body = doc.descendants().find(|n| n.has_tag_name("body"));
    if body
        .and_then(|b| b.last_element_child())
        .map(|n| n.tag_name().name())
        != Some("sectPr")
    {
        out.push(format!("{main}: the body does not end in w:sectPr"));
    }
    for name in docs
        .keys()
        .filter(|n| n.starts_with("word/") && n.ends_with(".xml"))
    {
        let doc = roxmltree::Document::parse(docs[name]).unwrap();
        for n in doc.descendants().filter(|n| n.is_element()) {
            let Some((_, order)) = ORDER.iter().find(|(p, _)| n.tag_name().name() == *p) else {
                continue;
            };
            let mut last = 0;
            for child in n.children().filter(|c| c.is_element()) {
                let name = child.tag_name().name();
                match order.iter().position(|o| *o == name) {
                    None => out.push(format!(
                        "{name}: w:{name} in w:{}, which the check does not know",
                        n.tag_name().name()
                    )),
                    Some(at) if at < last => out.push(format!(
                        "{name}: w:{name} after w:{} in w:{}",
                        order[last],
                        n.tag_name().name()
                    )),
                    Some(at) => last = at,
                }
            }
        }
    }
    out
}

/// The text of a `.docx`'s document, its paragraphs one to a line.
pub(crate) fn text(bytes: &[u8]) -> String {
    let parts = parts(bytes);
    let xml = std::str::from_utf8(&parts["word/document.xml"]).unwrap();
    let doc = roxmltree::Document::parse(xml).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("p"))
        .map(|p| {
            p.descendants()
                .filter(|t| t.has_tag_name("t"))
                .filter_map(|t| t.text())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every shipped set as `worksheet.docx` and `key.docx`, A4 and Letter: the
/// packages are sound, each question's heading is there with one picture, a
/// PNG, and the key holds every answer its Markdown key holds.
#[test]
fn every_shipped_set_makes_sound_word_sheets() {
    let dir = scratch("docx-sets");
    let mut found = Vec::new();
    for set in shipped_sets() {
        let name = set.file_stem().unwrap().to_string_lossy().into_owned();
        for paper in ["a4", "letter"] {
            let out = dir.join(format!("{name}-{paper}"));
            let (code, _, err) = generate(
                set.to_str().unwrap(),
                out.to_str().unwrap(),
                &["--format", "md,docx", "--paper", paper],
            );
            assert_eq!(code, 0, "{name}: {err}");
            let key_md = std::fs::read_to_string(out.join("key.md")).unwrap();
            for sheet in ["worksheet", "key"] {
                let bytes = read(&out.join(format!("{sheet}.docx")));
                let at = format!("{name} {paper} {sheet}.docx");
                found.extend(problems(&bytes).into_iter().map(|p| format!("{at}: {p}")));
                let parts = parts(&bytes);
                let doc = std::str::from_utf8(&parts["word/document.xml"]).unwrap();
                let width = if paper == "a4" { "11906" } else { "12240" };
                if !doc.contains(&format!("<w:pgSz w:w=\"{width}\"")) {
                    found.push(format!("{at}: not on {paper} paper"));
                }
                let text = text(&bytes);
                let headings = headings(&key_md);
                let pngs = parts
                    .iter()
                    .filter(|(n, b)| {
                        n.starts_with("word/media/") && b.starts_with(b"\x89PNG\r\n\x1a\n")
                    })
                    .count();
                if pngs != headings.len() {
                    found.push(format!(
                        "{at}: {pngs} pictures for {} questions",
                        headings.len()
                    ));
                }
                for h in &headings {
                    if !text.contains(h.as_str()) {
                        found.push(format!("{at}: no heading {h:?}"));
                    }
                }
                if sheet == "key" {
                    for a in answers(&key_md) {
                        if !text.contains(a.as_str()) {
                            found.push(format!("{at}: no answer {a:?}"));
                        }
                    }
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The question headings of a Markdown key (`## Question 1: Minimax`).
fn headings(key_md: &str) -> Vec<String> {
    key_md
        .lines()
        .filter_map(|l| l.strip_prefix("## "))
        .map(|h| h.rsplit_once(" (").map_or(h, |(h, _)| h).to_string())
        .collect()
}

/// The answers of a Markdown key: the bold cells of its answer tables,
/// with the Markdown escapes undone.
fn answers(key_md: &str) -> Vec<String> {
    key_md
        .lines()
        .filter(|l| l.starts_with("| `"))
        .filter_map(|l| {
            let cell = l.trim_end_matches('|').trim_end().rsplit_once("| **")?.1;
            Some(cell.strip_suffix("**")?.to_string())
        })
        .map(|a| {
            let mut out = String::new();
            let mut chars = a.chars();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => out.extend(chars.next()),
                    c => out.push(c),
                }
            }
            out
        })
        .collect()
}

/// A class (`--variants 3`): its booklets, `worksheets.docx` and
/// `keys/keys.docx`, hold every student's sheet on Letter paper, each
/// picture with an id of its own, beside each student's own documents.
#[test]
fn a_class_makes_word_booklets_with_every_sheet() {
    let dir = scratch("docx-class");
    let out = dir.join("class");
    let (code, _, err) = generate(
        "problem-sets/demo.toml",
        out.to_str().unwrap(),
        &["--format", "docx", "--variants", "3", "--paper", "letter"],
    );
    assert_eq!(code, 0, "{err}");
    for (booklet, own) in [
        ("worksheets.docx", "worksheet.docx"),
        ("keys/keys.docx", "key.docx"),
    ] {
        let bytes = read(&out.join(booklet));
        let found = problems(&bytes);
        assert!(found.is_empty(), "{booklet}: {}", found.join("\n"));
        let text = text(&bytes);
        let parts = parts(&bytes);
        assert_eq!(
            parts
                .keys()
                .filter(|n| n.starts_with("word/media/"))
                .count(),
            9,
            "{booklet}: three pictures for each of three students"
        );
        let doc = std::str::from_utf8(&parts["word/document.xml"]).unwrap();
        // A section per sheet, each numbering its pages from 1.
        assert_eq!(
            doc.matches("<w:pgNumType w:start=\"1\"/>").count(),
            3,
            "{booklet}"
        );
        assert!(
            doc.contains("<w:pgSz w:w=\"12240\" w:h=\"15840\"/>"),
            "{booklet}"
        );
        for v in ["v01", "v02", "v03"] {
            let folder = if booklet.starts_with("keys") {
                out.join("keys").join(v)
            } else {
                out.join(v)
            };
            let mine = text_of(&folder.join(own));
            assert!(text.contains(&mine), "{booklet} lacks {v}'s sheet");
        }
    }
}

fn text_of(path: &Path) -> String {
    text(&read(path))
}

/// The same seed makes the same bytes, run after run: the figures' font is
/// built in, and the zip's times are fixed.
#[test]
fn the_same_seed_makes_the_same_word_documents() {
    let dir = scratch("docx-same");
    let mut runs: Vec<BTreeMap<String, Vec<u8>>> = Vec::new();
    for run in ["a", "b"] {
        let out = dir.join(run);
        let (code, _, err) = generate(
            "problem-sets/midterm-zh.toml",
            out.to_str().unwrap(),
            &["--format", "docx", "--variants", "2"],
        );
        assert_eq!(code, 0, "{err}");
        runs.push(
            super::common::files(&out)
                .into_iter()
                .filter(|(n, _)| n.ends_with(".docx"))
                .collect(),
        );
    }
    assert_eq!(runs[0].len(), 6, "{:?}", runs[0].keys());
    assert!(runs[0] == runs[1], "two runs of one seed differ");
}

/// A question as printed: its heading, then what must be on the same page
/// (a worksheet's `[qN]` and last field; a key's last answer).
struct Whole {
    heading: String,
    with: Vec<String>,
}

/// The questions of a Markdown worksheet (`worksheet.md`): each heading with
/// its `[qN]` and the last field of its table.
fn worksheet_questions(md: &str) -> Vec<Whole> {
    let mut out: Vec<Whole> = Vec::new();
    for line in md.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            out.push(Whole {
                heading: h.rsplit_once(" (").map_or(h, |(h, _)| h).to_string(),
                with: Vec::new(),
            });
        } else if let (Some(q), Some(cell)) = (
            out.last_mut(),
            line.strip_prefix("| `").and_then(|l| l.split_once('`')),
        ) {
            match q.with.len() {
                0 | 1 => q.with.push(cell.0.to_string()),
                _ => q.with[1] = cell.0.to_string(),
            }
        }
    }
    out
}

/// The questions of a Markdown key: each heading with its last answer.
fn key_questions(md: &str) -> Vec<Whole> {
    md.split("\n## ")
        .skip(1)
        .map(|q| {
            let h = q.lines().next().unwrap_or("");
            Whole {
                heading: h.rsplit_once(" (").map_or(h, |(h, _)| h).to_string(),
                with: answers(q).into_iter().last().into_iter().collect(),
            }
        })
        .collect()
}

/// LibreOffice opens every shipped set's Word sheets, A4 and Letter, and
/// prints them: `pdftotext` finds every question's heading, and every
/// answer of the key (as its Markdown key writes it), in the PDF; and no
/// question runs onto the next page (a worksheet's from its heading to its
/// last field, a key's to its last answer).
#[test]
#[cfg_attr(
    any(treequiz_without_libreoffice, treequiz_without_pdftotext),
    ignore = "needs LibreOffice (libreoffice-writer-nogui) and pdftotext (poppler-utils)"
)]
fn libreoffice_prints_every_question_and_answer_whole() {
    let dir = scratch("docx-libreoffice");
    let mut docs: Vec<PathBuf> = Vec::new();
    // (the PDF, what it must hold, its questions)
    let mut expected: Vec<(PathBuf, Vec<String>, Vec<Whole>)> = Vec::new();
    for set in shipped_sets() {
        let name = set.file_stem().unwrap().to_string_lossy().into_owned();
        for paper in ["a4", "letter"] {
            let out = dir.join(format!("{name}-{paper}"));
            let (code, _, err) = generate(
                set.to_str().unwrap(),
                out.to_str().unwrap(),
                &["--format", "md,docx", "--paper", paper],
            );
            assert_eq!(code, 0, "{name}: {err}");
            let key_md = std::fs::read_to_string(out.join("key.md")).unwrap();
            let sheet_md = std::fs::read_to_string(out.join("worksheet.md")).unwrap();
            for sheet in ["worksheet", "key"] {
                let docx = out.join(format!("{sheet}.docx"));
                let renamed = dir.join(format!("{name}-{paper}-{sheet}.docx"));
                std::fs::copy(&docx, &renamed).unwrap();
                let mut want = headings(&key_md);
                let whole = if sheet == "key" {
                    want.extend(answers(&key_md));
                    key_questions(&key_md)
                } else {
                    worksheet_questions(&sheet_md)
                };
                expected.push((renamed.with_extension("pdf"), want, whole));
                docs.push(renamed);
            }
        }
    }
    // One LibreOffice for all: each start takes seconds.
    let profile = dir.join("profile");
    let status = std::process::Command::new("libreoffice")
        .arg(format!(
            "-env:UserInstallation=file://{}",
            profile.display()
        ))
        .args(["--headless", "--convert-to", "pdf", "--outdir"])
        .arg(&dir)
        .args(&docs)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let squeeze = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    let mut problems = Vec::new();
    for (pdf, want, whole) in &expected {
        let text = std::process::Command::new("pdftotext")
            .args(["-raw"])
            .arg(pdf)
            .arg("-")
            .output()
            .unwrap();
        assert!(text.status.success(), "{}: not printed", pdf.display());
        let text = String::from_utf8_lossy(&text.stdout);
        let all = squeeze(&text);
        for w in want {
            if !all.contains(&squeeze(w)) {
                problems.push(format!("{}: no {w:?}", pdf.display()));
            }
        }
        // pdftotext ends each page with a form feed.
        let pages: Vec<String> = text.split('\u{c}').map(squeeze).collect();
        for q in whole {
            let heading = squeeze(&q.heading);
            let Some(page) = pages.iter().position(|p| p.contains(&heading)) else {
                continue; // reported above
            };
            // What follows the heading on its page.
            let rest = &pages[page][pages[page].find(&heading).unwrap()..];
            for w in &q.with {
                if !rest.contains(&squeeze(w)) {
                    problems.push(format!(
                        "{}: {:?} is not on the page of {:?} (page {})",
                        pdf.display(),
                        w,
                        q.heading,
                        page + 1
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `bytes` with `document.xml` replaced by `edit` of it, zipped again.
fn with_document(bytes: &[u8], edit: impl Fn(&str) -> String) -> Vec<u8> {
    use std::io::Write as _;
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, data) in parts(bytes) {
        out.start_file(name.as_str(), zip::write::SimpleFileOptions::default())
            .unwrap();
        let data = match name.as_str() {
            "word/document.xml" => edit(std::str::from_utf8(&data).unwrap()).into_bytes(),
            _ => data,
        };
        out.write_all(&data).unwrap();
    }
    out.finish().unwrap().into_inner()
}

/// The structural check finds what makes Word ask to repair a document:
/// a character XML cannot hold, a picture id twice, an embed without its
/// relationship, properties out of the schema's order.
#[test]
fn the_word_check_finds_what_word_refuses() {
    let dir = scratch("docx-check");
    let (code, _, err) = generate(
        "problem-sets/demo.toml",
        dir.to_str().unwrap(),
        &["--format", "docx"],
    );
    assert_eq!(code, 0, "{err}");
    let good = read(&dir.join("worksheet.docx"));
    assert_eq!(problems(&good), Vec::<String>::new());
    /// What is broken, how, and what the check must say.
    type Case = (&'static str, fn(&str) -> String, &'static str);
    let cases: [Case; 4] = [
        (
            "U+FFFE",
            |d| d.replacen("Question", "Quest\u{FFFE}ion", 1),
            "not well-formed",
        ),
        (
            "a docPr id twice",
            |d| d.replace("wp:docPr id=\"2\"", "wp:docPr id=\"1\""),
            "wp:docPr id 1 twice",
        ),
        (
            "an embed without a relationship",
            |d| d.replacen("r:embed=\"rIdFigure1\"", "r:embed=\"rIdNone\"", 1),
            "rIdNone has no relationship",
        ),
        (
            "keepNext before pStyle",
            |d| {
                d.replacen(
                    "<w:pStyle w:val=\"Figure\"/><w:keepNext/>",
                    "<w:keepNext/><w:pStyle w:val=\"Figure\"/>",
                    1,
                )
            },
            "w:pStyle after w:keepNext in w:pPr",
        ),
    ];
    for (what, edit, says) in cases {
        let bad = with_document(&good, edit);
        let found = problems(&bad);
        assert!(
            found.iter().any(|p| p.contains(says)),
            "{what}: expected {says:?} in {found:?}"
        );
    }
}
