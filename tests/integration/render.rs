//! Looking at the output: HTML through headless Chromium (PDF and PNG, figures
//! drawn), LaTeX through xelatex when it is installed.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{generate, scratch};

fn find(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    names
        .iter()
        .flat_map(|n| std::env::split_paths(&path).map(move |d| d.join(n)))
        .find(|p| p.is_file())
}

/// A tool these tests need. A test that needs one is ignored where the tool
/// was missing when the tests were built (build.rs; never under CI, which
/// installs them all), so it never passes without having run.
fn tool(names: &[&str]) -> PathBuf {
    find(names).unwrap_or_else(|| {
        panic!(
            "{} is not on PATH; it was when the tests were built: `touch build.rs` to build them again (CI: .ci/run installs it)",
            names[0]
        )
    })
}

fn chromium() -> PathBuf {
    tool(&["chromium", "chromium-browser", "google-chrome"])
}

fn xelatex() -> PathBuf {
    tool(&["xelatex"])
}

fn headless(chromium: &Path, profile: &Path, args: &[String]) {
    let status = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .output()
        .expect("chromium runs");
    assert!(
        status.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&status.stderr)
    );
}

/// Pixels that are clearly not white, and all pixels.
fn ink(png_path: &Path) -> (usize, usize) {
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(png_path).unwrap(),
    ));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let pixels = &buf[..info.buffer_size()];
    let dark = pixels
        .chunks(channels)
        .filter(|p| p.iter().take(3).any(|&c| c < 160))
        .count();
    (dark, pixels.len() / channels)
}

#[test]
#[cfg_attr(
    treequiz_without_chromium,
    ignore = "needs Chromium (chromium, chromium-browser or google-chrome)"
)]
fn html_sheets_print_and_their_figures_are_drawn() {
    let chromium = chromium();
    let dir = scratch("chromium");
    for set in ["demo", "midterm-zh", "games"] {
        let out = dir.join(set);
        let (code, _, err) = generate(
            &format!("problem-sets/{set}.toml"),
            out.to_str().unwrap(),
            &["--format", "html"],
        );
        assert_eq!((code, err.as_str()), (0, ""));
        for page in ["worksheet", "key"] {
            let html = out.join(format!("{page}.html"));
            let url = format!("file://{}", html.display());
            let pdf = out.join(format!("{page}.pdf"));
            headless(
                &chromium,
                &dir.join("profile"),
                &[
                    format!("--print-to-pdf={}", pdf.display()),
                    "--no-pdf-header-footer".into(),
                    url.clone(),
                ],
            );
            let bytes = std::fs::read(&pdf).unwrap();
            assert!(bytes.starts_with(b"%PDF"), "{set}/{page}: a PDF");
            let pages = bytes
                .windows(10)
                .filter(|w| w == b"/Type /Pag" || w == b"/Type/Page")
                .count();
            assert!(pages >= 1, "{set}/{page}: at least one page");
            let png = out.join(format!("{page}.png"));
            headless(
                &chromium,
                &dir.join("profile"),
                &[
                    format!("--screenshot={}", png.display()),
                    "--window-size=800,1200".into(),
                    url,
                ],
            );
            let (dark, all) = ink(&png);
            assert!(
                dark * 100 > all,
                "{set}/{page}: the first screen is not blank ({dark} of {all} pixels drawn)"
            );

            // Each figure alone on a page: it must put ink on the page.
            let text = std::fs::read_to_string(&html).unwrap();
            let figures: Vec<&str> = text
                .match_indices("<svg")
                .map(|(i, _)| &text[i..i + text[i..].find("</svg>").unwrap() + 6])
                .collect();
            assert_eq!(
                figures.len(),
                match set {
                    "demo" => 3,
                    "games" => 9,
                    _ => 6,
                },
                "{set}/{page}: one figure per exercise"
            );
            for (i, svg) in figures.iter().enumerate() {
                let single = out.join(format!("{page}-figure-{i}.html"));
                std::fs::write(
                    &single,
                    format!("<!DOCTYPE html><html><body style=\"margin:0\">{svg}</body></html>"),
                )
                .unwrap();
                let shot = out.join(format!("{page}-figure-{i}.png"));
                headless(
                    &chromium,
                    &dir.join("profile"),
                    &[
                        format!("--screenshot={}", shot.display()),
                        "--window-size=800,1000".into(),
                        format!("file://{}", single.display()),
                    ],
                );
                // A figure has at least a few nodes, their labels and edges: thousands of pixels.
                let (dark, _) = ink(&shot);
                assert!(
                    dark > 1_500,
                    "{set}/{page} figure {i}: only {dark} pixels are drawn"
                );
            }
        }
    }
}

/// xelatex on `tex`, in its folder: it compiles, with no glyph missing
/// from the fonts. Returns its log.
fn compile(xelatex: &Path, tex: &Path) -> String {
    let result = Command::new(xelatex)
        .current_dir(tex.parent().unwrap())
        .args(["-interaction=nonstopmode", "-halt-on-error"])
        .arg(tex.file_name().unwrap())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&result.stdout);
    let mut tail = out.len().saturating_sub(3000);
    while !out.is_char_boundary(tail) {
        tail += 1;
    }
    assert!(
        result.status.success(),
        "{} does not compile:\n{}",
        tex.display(),
        &out[tail..]
    );
    let log =
        String::from_utf8_lossy(&std::fs::read(tex.with_extension("log")).unwrap()).into_owned();
    assert!(
        !log.contains("Missing character"),
        "{}: a glyph is missing from the fonts",
        tex.display()
    );
    log
}

/// The boxes a LaTeX log reports sticking out of their line by more than
/// 1 pt (`Overfull \hbox (8.47934pt too wide) in alignment …`), each with
/// the log's next line (what the box holds).
fn overfull(log: &str) -> Vec<String> {
    let lines: Vec<&str> = log.lines().collect();
    lines
        .iter()
        .enumerate()
        .filter_map(|(i, line)| {
            let from = line.find("Overfull \\hbox (")? + "Overfull \\hbox (".len();
            let wide = line[from..].split("pt too wide").next()?.parse::<f64>();
            // A report that does not read as a width counts: better a false alarm.
            wide.map_or(true, |pt| pt > 1.0)
                .then(|| format!("{line} {}", lines.get(i + 1).unwrap_or(&"")))
        })
        .collect()
}

/// A line of text as pdftotext prints it, without its spaces (LaTeX and
/// HTML space Chinese, digits and points differently) and with LaTeX's
/// typographic quotes as the ASCII ones.
fn squeeze(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '’' | '‘' => '\'',
            '”' | '“' => '"',
            c => c,
        })
        .collect()
}

/// Each question of a sheet, read from its HTML, as (heading, row): the
/// heading and the start of the row that must print on the heading's page,
/// the worksheet's last field or the key's last answer (the last row of the
/// question's first table: the field's name and the first characters of
/// what it asks), both squeezed.
fn kept_questions(html: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(html).unwrap();
    text.split("<section class=\"exercise\">")
        .skip(1)
        .map(|section| {
            let heading = between(section, "<h2>", " <small>");
            let table = section.split("</tbody>").next().unwrap();
            let row = table.rsplit("<tr><td><code>").next().unwrap();
            let field = row.split("</code>").next().unwrap();
            let asks: String = squeeze(&unescape(between(row, "</code></td><td>", "</td>")))
                .chars()
                .take(4)
                .collect();
            (
                squeeze(&unescape(heading)),
                squeeze(&unescape(field)) + &asks,
            )
        })
        .collect()
}

/// Where a question of `questions` (every sheet's, in the order `pdf` prints
/// them) is not on one page: its heading and its row on different pages,
/// or either missing.
fn questions_split_in(pdf: &Path, questions: &[(String, String)]) -> Vec<String> {
    let lines: Vec<(usize, String)> = pages(pdf)
        .iter()
        .enumerate()
        .flat_map(|(k, page)| page.iter().map(move |l| (k + 1, squeeze(l))))
        .collect();
    let mut problems = Vec::new();
    let mut at = 0;
    for (heading, row) in questions {
        let Some(h) = (at..lines.len()).find(|&i| lines[i].1.starts_with(heading.as_str())) else {
            problems.push(format!("{}: no heading `{heading}`", pdf.display()));
            break;
        };
        let Some(r) = (h + 1..lines.len()).find(|&i| lines[i].1.starts_with(row.as_str())) else {
            problems.push(format!("{}: `{heading}` has no row `{row}`", pdf.display()));
            break;
        };
        if lines[h].0 != lines[r].0 {
            problems.push(format!(
                "{}: `{heading}` starts on page {} and its row `{row}` is on page {}",
                pdf.display(),
                lines[h].0,
                lines[r].0
            ));
        }
        at = r + 1;
    }
    problems
}

/// The AND/OR quiz, the games set and the Chinese midterm (ctex) as
/// `worksheet.tex` and `key.tex`, compiled with xelatex: no glyph is
/// missing, no line sticks out of its box by more than 1 pt (the log's
/// `Overfull \hbox`), and every question stays on one page: a worksheet's
/// heading and its field table's last field, a key's heading and its
/// answers' last row, read back with pdftotext.
#[test]
#[cfg_attr(
    any(treequiz_without_xelatex, treequiz_without_pdftotext),
    ignore = "needs xelatex with ctex (texlive-xetex, texlive-lang-chinese) and pdftotext (poppler-utils)"
)]
fn latex_sheets_fit_their_lines_and_keep_each_question_on_one_page() {
    let xelatex = xelatex();
    let dir = scratch("xelatex");
    let mut problems = Vec::new();
    for set in ["and-or-quiz", "games", "midterm-zh"] {
        let path = format!("problem-sets/{set}.toml");
        let text = std::fs::read_to_string(crate::common::root().join(&path)).unwrap();
        let exercises = text.lines().filter(|l| l.trim() == "[[exercise]]").count();
        let out = dir.join(set);
        let (code, _, err) = generate(&path, out.to_str().unwrap(), &["--format", "tex,html"]);
        assert_eq!((code, err.as_str()), (0, ""));
        for page in ["worksheet", "key"] {
            let tex = out.join(format!("{page}.tex"));
            let log = compile(&xelatex, &tex);
            problems.extend(
                overfull(&log)
                    .into_iter()
                    .map(|o| format!("{set}/{page}.tex: {o}")),
            );
            let questions = kept_questions(&out.join(format!("{page}.html")));
            assert_eq!(questions.len(), exercises, "{set}/{page}: {questions:?}");
            problems.extend(questions_split_in(&tex.with_extension("pdf"), &questions));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A class's LaTeX booklets compile with xelatex, with no line sticking out
/// of its box by more than 1 pt and every question on one page; every page
/// names its student at its top, each student's pages numbered from 1, and a
/// Chinese name on an English set gets its glyphs (ctex is loaded for it).
#[test]
#[cfg_attr(
    any(treequiz_without_xelatex, treequiz_without_pdftotext),
    ignore = "needs xelatex with ctex (texlive-xetex, texlive-lang-chinese) and pdftotext (poppler-utils)"
)]
fn latex_booklets_compile_and_name_each_student_on_every_page() {
    let xelatex = xelatex();
    let dir = scratch("tex-booklets");
    let roster = dir.join("class.csv");
    std::fs::write(
        &roster,
        "id,name\n101,Ann Lee\n102,王小明\n103,Jo & Co_#1\n",
    )
    .unwrap();
    let out = dir.join("out");
    let (code, _, err) = generate(
        "problem-sets/demo.toml",
        out.to_str().unwrap(),
        &[
            "--format",
            "tex,html",
            "--roster",
            roster.to_str().unwrap(),
            "--seed",
            "9",
        ],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    for (booklet, sheet) in [
        ("worksheets.tex", "worksheet.html"),
        ("keys/keys.tex", "key.html"),
    ] {
        let path = out.join(booklet);
        let log = compile(&xelatex, &path);
        let wide = overfull(&log);
        assert!(wide.is_empty(), "{booklet}:\n{}", wide.join("\n"));
        let questions: Vec<(String, String)> = ["101", "102", "103"]
            .iter()
            .flat_map(|id| kept_questions(&path.parent().unwrap().join(id).join(sheet)))
            .collect();
        assert_eq!(questions.len(), 9, "{booklet}: {questions:?}");
        let split = questions_split_in(&path.with_extension("pdf"), &questions);
        assert!(split.is_empty(), "{}", split.join("\n"));
        let mut seen: Vec<(String, u32)> = Vec::new();
        for (k, page) in pages(&path.with_extension("pdf")).iter().enumerate() {
            let student = ["101 (Ann Lee)", "102 (王小明)", "103 (Jo & Co_#1)"]
                .into_iter()
                .find(|s| page[0].ends_with(s))
                .unwrap_or_else(|| {
                    panic!("{booklet}: page {} names no student: {}", k + 1, page[0])
                });
            let number: u32 = page
                .last()
                .unwrap()
                .parse()
                .expect("a page number at the foot");
            seen.push((student.to_string(), number));
        }
        // Each student's pages follow each other, numbered 1, 2, …
        let mut expected = Vec::new();
        for student in ["101 (Ann Lee)", "102 (王小明)", "103 (Jo & Co_#1)"] {
            let n = seen.iter().filter(|(s, _)| s == student).count();
            assert!(n > 0, "{booklet}: {student} has no page");
            expected.extend((1..=n as u32).map(|i| (student.to_string(), i)));
        }
        assert_eq!(seen, expected, "{booklet}");
    }
}

/// A class's LaTeX booklets are written from sheets kept on disk (the
/// booklet template rendered around markers): each student's body once, in
/// roster order, the title's own text kept even when it looks like a marker,
/// and nothing of the spill left in the output.
#[test]
fn latex_booklets_hold_every_sheet_once_in_roster_order() {
    let dir = scratch("tex-spill");
    let roster = dir.join("class.csv");
    std::fs::write(&roster, "id\nc3\na1\nb2\n").unwrap();
    let set = dir.join("set.toml");
    let demo = std::fs::read_to_string("problem-sets/demo.toml").unwrap();
    let marker = "Quiz \u{E000}0.1\u{E001}";
    std::fs::write(
        &set,
        demo.replacen(
            "title = \"Game search and AND/OR graphs: practice sheet\"",
            &format!("title = \"{marker}\""),
            1,
        ),
    )
    .unwrap();
    let out = dir.join("out");
    let (code, _, err) = generate(
        set.to_str().unwrap(),
        out.to_str().unwrap(),
        &[
            "--format",
            "tex",
            "--roster",
            roster.to_str().unwrap(),
            "--seed",
            "3",
        ],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    for (booklet, sheet) in [
        ("worksheets.tex", "worksheet.tex"),
        ("keys/keys.tex", "key.tex"),
    ] {
        let text = std::fs::read_to_string(out.join(booklet)).unwrap();
        assert_eq!(
            text.matches("\\setcounter{page}{1}").count(),
            3,
            "{booklet}"
        );
        // The booklet's own first line names the set as written: a title
        // that looks like a marker is not taken for one.
        assert!(
            text.lines()
                .next()
                .unwrap()
                .starts_with(&format!("% {marker} · ")),
            "{booklet}: {}",
            text.lines().next().unwrap()
        );
        // Each student's sheet body, in roster order.
        let mut at = 0;
        for id in ["c3", "a1", "b2"] {
            let own =
                std::fs::read_to_string(out.join(booklet).parent().unwrap().join(id).join(sheet))
                    .unwrap();
            let body = between(&own, "\\begin{document}", "\\end{document}").trim();
            let found = text[at..]
                .find(body)
                .unwrap_or_else(|| panic!("{booklet}: {id}'s body"));
            at += found + body.len();
        }
    }
    assert!(!out.join(".spill").exists(), "the spill folder is removed");
}

/// HTML text as it prints.
fn unescape(html: &str) -> String {
    html.replace("&#39;", "'")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// What a printed sheet must show: its running head (top left and top
/// right of every page) and its questions' headings.
struct Sheet {
    left: String,
    right: String,
    heads: Vec<String>,
    /// The first cell of each table's header row.
    table_heads: Vec<String>,
}

fn between<'a>(text: &'a str, open: &str, close: &str) -> &'a str {
    let from = text.find(open).map(|i| i + open.len()).unwrap_or(0);
    let len = text[from..].find(close).unwrap_or(0);
    &text[from..from + len]
}

/// A sheet's running head and headings, read from its HTML: the head is
/// its `<title>` and the variant line of its header.
fn sheet(html: &Path) -> Sheet {
    let text = std::fs::read_to_string(html).unwrap();
    let meta = between(&text, "<div class=\"meta\">", "</div>");
    Sheet {
        left: unescape(between(&text, "<title>", "</title>")),
        right: unescape(between(meta, "</span><span>", "</span>")),
        heads: text
            .split("<h2>")
            .skip(1)
            .map(|rest| unescape(rest.split(" <small>").next().unwrap_or_default()))
            .collect(),
        table_heads: text
            .split("<thead><tr><th>")
            .skip(1)
            .map(|rest| unescape(rest.split("</th>").next().unwrap_or_default()))
            .collect(),
    }
}

/// The text of each page of a PDF (pdftotext, pages split at form feeds).
fn pages(pdf: &Path) -> Vec<Vec<String>> {
    // -layout keeps a line's parts on one line: the running head's left and right.
    let out = Command::new("pdftotext")
        .arg("-layout")
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext runs (poppler-utils; .ci/run installs it)");
    assert!(
        out.status.success(),
        "pdftotext failed on {}",
        pdf.display()
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut pages: Vec<Vec<String>> = text
        .split('\u{c}')
        .map(|p| {
            p.lines()
                .map(|l| l.trim().to_string())
                .filter(|l| !l.is_empty())
                .collect()
        })
        .collect();
    // pdftotext ends the last page with a form feed too.
    while pages.last().is_some_and(Vec::is_empty) {
        pages.pop();
    }
    pages
}

/// What is wrong with how `sheets`, printed in this order into `pdf`, fall
/// on its pages, if anything. Every page opens with its sheet's running head
/// (so a booklet names its student on every page) and ends with its number;
/// the sheets follow each other, each starting a page. A worksheet's page
/// after its first must open with a question's heading (so no question runs
/// on from the page before); a key's may also open with a table's
/// repeated header, or the explanation of a question whose heading and
/// answers are on the page before, never with a table's row. A question
/// that starts a page and still does not fit on it runs on to the next.
fn split_questions(sheets: &[Sheet], pdf: &Path, key: bool) -> Vec<String> {
    let mut problems = Vec::new();
    let mut at = 0; // the sheet being printed
    let mut seen = 0; // its headings seen so far
    let mut first_page = true;
    let mut opened_question = false; // whether the page before opened with a heading
    let check_seen = |sheet: &Sheet, seen: usize, problems: &mut Vec<String>| {
        if seen != sheet.heads.len() {
            problems.push(format!(
                "{}: {}: {seen} headings found on the pages, {} in the sheet (a heading split from its line?)",
                pdf.display(),
                sheet.right,
                sheet.heads.len()
            ));
        }
    };
    for (k, page) in pages(pdf).iter().enumerate() {
        let here = format!("{}: page {}", pdf.display(), k + 1);
        let head = |sheet: &Sheet| {
            page.len() > 2 && page[0].starts_with(&sheet.left) && page[0].ends_with(&sheet.right)
        };
        if !head(&sheets[at]) {
            check_seen(&sheets[at], seen, &mut problems);
            at += 1;
            seen = 0;
            first_page = true;
            if at == sheets.len() || !head(&sheets[at]) {
                problems.push(format!(
                    "{here} opens with `{}`, not the running head of the sheet or the next",
                    page[0]
                ));
                return problems;
            }
        }
        if page
            .last()
            .is_none_or(|l| l.parse::<u32>().ok() != Some(k as u32 + 1))
        {
            problems.push(format!("{here} does not end with its number"));
        }
        let sheet = &sheets[at];
        let body = &page[1..page.len() - 1];
        let Some(first) = body.first() else {
            problems.push(format!("{here} is empty"));
            continue;
        };
        let opens_question = sheet.heads.iter().any(|h| first.starts_with(h.as_str()));
        let table_header = sheet
            .table_heads
            .iter()
            .any(|h| first.starts_with(h.as_str()));
        let table_row = first
            .split(' ')
            .next()
            .is_some_and(|w| w.parse::<u32>().is_ok());
        // A question that had a page of its own and did not fit runs on.
        let runs_on = opened_question && !table_row;
        if !first_page
            && !opens_question
            && !runs_on
            && (!key || table_row || (!table_header && seen == 0))
        {
            problems.push(format!("{here} opens with `{first}`, not a question"));
        }
        first_page = false;
        opened_question = opens_question;
        seen += body
            .iter()
            .filter(|l| sheet.heads.iter().any(|h| l.starts_with(h.as_str())))
            .count();
    }
    check_seen(&sheets[at], seen, &mut problems);
    if at + 1 != sheets.len() {
        problems.push(format!(
            "{}: {} sheets printed of {}",
            pdf.display(),
            at + 1,
            sheets.len()
        ));
    }
    problems
}

/// Every shipped set on A4 and Letter, and a 40-student class of the
/// midterm, printed with Chromium: no question of a worksheet runs from one
/// page onto the next, a key's question keeps its figure with its answers,
/// and a step table that continues repeats its header.
#[test]
#[cfg_attr(
    any(treequiz_without_chromium, treequiz_without_pdftotext),
    ignore = "needs Chromium and pdftotext (poppler-utils)"
)]
fn printed_questions_stay_whole_on_their_page() {
    let dir = scratch("pages");
    // (the sheets' HTML, the PDF that prints them in order, whether keys)
    let mut jobs: Vec<(Vec<PathBuf>, PathBuf, bool)> = Vec::new();
    let sets = [
        "demo",
        "game-tree-quiz",
        "and-or-quiz",
        "games",
        "midterm-zh",
        "textbook",
    ];
    let mut runs: Vec<(String, PathBuf, Vec<String>)> = Vec::new();
    for set in sets {
        for paper in ["a4", "letter"] {
            let out = dir.join(format!("{set}-{paper}"));
            let args = ["--format", "pdf,html", "--paper", paper].map(String::from);
            runs.push((
                format!("problem-sets/{set}.toml"),
                out.clone(),
                args.to_vec(),
            ));
            for (page, key) in [("worksheet", false), ("key", true)] {
                let html = out.join(format!("{page}.html"));
                jobs.push((vec![html.clone()], html.with_extension("pdf"), key));
            }
        }
    }
    // A 40-student class of the midterm, printed as generate's booklets.
    let roster = dir.join("class.csv");
    let rows: Vec<String> = (1..=40).map(|i| format!("s{i:03},Student {i}")).collect();
    std::fs::write(&roster, format!("id,name\n{}\n", rows.join("\n"))).unwrap();
    let class = dir.join("class");
    let args = [
        "--format",
        "pdf,html",
        "--roster",
        roster.to_str().unwrap(),
        "--seed",
        "5",
    ];
    runs.push((
        "problem-sets/midterm-zh.toml".into(),
        class.clone(),
        args.map(String::from).to_vec(),
    ));
    let folders: Vec<String> = (1..=40).map(|i| format!("s{i:03}")).collect();
    jobs.push((
        folders
            .iter()
            .map(|f| class.join(f).join("worksheet.html"))
            .collect(),
        class.join("worksheets.pdf"),
        false,
    ));
    jobs.push((
        folders
            .iter()
            .map(|f| class.join("keys").join(f).join("key.html"))
            .collect(),
        class.join("keys/keys.pdf"),
        true,
    ));
    for (set, out, args) in &runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, _, err) = generate(set, out.to_str().unwrap(), &args);
        assert_eq!(code, 0, "{set}: {err}");
    }
    let problems: Vec<String> = jobs
        .iter()
        .flat_map(|(htmls, pdf, key)| {
            let sheets: Vec<Sheet> = htmls.iter().map(|h| sheet(h)).collect();
            split_questions(&sheets, pdf, *key)
        })
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `treequiz generate` with `env` set; returns (exit code, stdout, stderr).
fn generate_with(env: &[(&str, &str)], args: &[&str]) -> (i32, String, String) {
    let mut cmd = assert_cmd::cargo::cargo_bin_cmd!("treequiz");
    cmd.arg("generate").args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A class printed with `--format pdf --pdf-per-student`: the booklets name
/// each student on every page (names with quotes, `<` and Chinese printed as
/// written), and each student's own PDF is that student's pages alone.
#[test]
#[cfg_attr(
    any(treequiz_without_chromium, treequiz_without_pdftotext),
    ignore = "needs Chromium and pdftotext (poppler-utils)"
)]
fn a_class_prints_as_booklets_that_name_each_student_on_every_page() {
    let dir = scratch("booklets");
    let roster = dir.join("class.csv");
    let names = ["Jo \"JJ\" O'Neil", "</style><b>Ann", "王小明"];
    std::fs::write(
        &roster,
        format!(
            "id,name\n101,\"{}\"\n102,{}\n103,{}\n",
            names[0].replace('"', "\"\""),
            names[1],
            names[2]
        ),
    )
    .unwrap();
    let out = dir.join("out");
    let (code, stdout, err) = generate(
        "problem-sets/demo.toml",
        out.to_str().unwrap(),
        &[
            "--format",
            "pdf,html",
            "--roster",
            roster.to_str().unwrap(),
            "--pdf-per-student",
            "--paper",
            "letter",
        ],
    );
    assert_eq!(code, 0, "{err}");
    // 3 × (worksheet, key, answer sheet, key.toml, 2 own PDFs) + the
    // manifest, the variant report and the 2 booklets.
    assert!(stdout.starts_with("wrote 22 files"), "{stdout}");
    assert!(
        !out.join(".print").exists(),
        "the printing's work files are gone"
    );
    let folders = ["101", "102", "103"];
    for (booklet, folder_of, key) in [
        ("worksheets.pdf", "", false),
        ("keys/keys.pdf", "keys/", true),
    ] {
        let htmls: Vec<PathBuf> = folders
            .iter()
            .map(|f| {
                out.join(format!("{folder_of}{f}")).join(if key {
                    "key.html"
                } else {
                    "worksheet.html"
                })
            })
            .collect();
        let sheets: Vec<Sheet> = htmls.iter().map(|h| sheet(h)).collect();
        for (s, name) in sheets.iter().zip(names) {
            assert!(s.right.ends_with(&format!("({name})")), "{}", s.right);
        }
        let pdf = out.join(booklet);
        let problems = split_questions(&sheets, &pdf, key);
        assert!(problems.is_empty(), "{}", problems.join("\n"));
        let info = Command::new("pdfinfo").arg(&pdf).output().unwrap();
        let info = String::from_utf8_lossy(&info.stdout);
        assert!(info.contains("612 x 792 pts"), "Letter: {info}");
        // Each student's own PDF: their pages, numbered from 1.
        let mut own_pages = 0;
        for (html, s) in htmls.iter().zip(&sheets) {
            let own = html.with_extension("pdf");
            let problems = split_questions(std::slice::from_ref(s), &own, key);
            assert!(problems.is_empty(), "{}", problems.join("\n"));
            own_pages += pages(&own).len();
        }
        assert_eq!(
            own_pages,
            pages(&pdf).len(),
            "{booklet}: the students' own PDFs add up to it"
        );
    }
}

/// With no browser to print with, `--format pdf` says how to get one and
/// that HTML prints from any browser, before it writes anything.
#[test]
fn pdf_without_a_browser_says_how_to_get_one() {
    if !cfg!(target_os = "linux") {
        return; // elsewhere a browser may sit in its usual install place
    }
    let dir = scratch("no-browser");
    let out = dir.join("out");
    let (code, _, err) = generate_with(
        &[("PATH", dir.to_str().unwrap())],
        &[
            "problem-sets/demo.toml",
            "--out",
            out.to_str().unwrap(),
            "--format",
            "pdf",
        ],
    );
    assert_eq!(code, 2, "{err}");
    for part in [
        "none was found",
        "--browser PATH",
        "apt install chromium",
        "--format html",
    ] {
        assert!(err.contains(part), "`{part}` in: {err}");
    }
    assert!(!out.exists());
    let (code, _, err) = generate(
        "problem-sets/demo.toml",
        out.to_str().unwrap(),
        &["--format", "pdf", "--browser", "/no/such/chrome"],
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("--browser /no/such/chrome: no such program"),
        "{err}"
    );
    assert!(!out.exists());
    // A program that runs but prints nothing: named, with what to give
    // instead, and without the staging folder's path.
    let (code, _, err) = generate(
        "problem-sets/demo.toml",
        out.to_str().unwrap(),
        &["--format", "pdf", "--browser", "/bin/true"],
    );
    assert_eq!(code, 2, "{err}");
    for part in [
        "/bin/true did not print worksheet.pdf",
        "--browser /usr/bin/chromium",
        "--format html",
    ] {
        assert!(err.contains(part), "`{part}` in: {err}");
    }
    assert!(!err.contains("staging"), "{err}");
    assert!(!out.exists());
}

/// Options that would do nothing are refused, saying what they need:
/// `--on-paper` without HTML or PDF, `--pdf-per-student` without a class.
#[test]
fn options_that_would_do_nothing_say_what_they_need() {
    let out = scratch("idle-options").join("out");
    let out = out.to_str().unwrap();
    let (code, _, err) = generate(
        "problem-sets/demo.toml",
        out,
        &["--format", "md,tex", "--on-paper"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("add html or pdf to --format"), "{err}");
    let (code, _, err) = generate(
        "problem-sets/demo.toml",
        out,
        &[
            "--format",
            "pdf",
            "--pdf-per-student",
            "--browser",
            "/bin/true",
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("give a class (--roster FILE or --variants N)"),
        "{err}"
    );
    assert!(!Path::new(out).exists());
}

/// A Chinese sheet on a machine without CJK fonts fails, naming the font
/// package, instead of printing boxes; nothing is written.
#[test]
#[cfg_attr(
    treequiz_without_chromium,
    ignore = "needs Chromium (chromium, chromium-browser or google-chrome)"
)]
fn pdf_without_cjk_fonts_names_the_font_package() {
    tool(&["fc-list"]);
    let dir = scratch("no-cjk");
    // Fontconfig with only DejaVu (as a machine without fonts-noto-cjk).
    let fonts = ["/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/TTF"]
        .iter()
        .map(|d| format!("<dir>{d}</dir>"))
        .collect::<String>();
    let conf = dir.join("fonts.conf");
    std::fs::write(
        &conf,
        format!(
            "<?xml version=\"1.0\"?><!DOCTYPE fontconfig SYSTEM \"fonts.dtd\"><fontconfig>{fonts}<cachedir>{}</cachedir></fontconfig>",
            dir.join("cache").display()
        ),
    )
    .unwrap();
    let conf = conf.to_str().unwrap();
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    let (code, _, err) = generate_with(
        &[("FONTCONFIG_FILE", conf)],
        &[
            "problem-sets/midterm-zh.toml",
            "--out",
            out,
            "--format",
            "pdf",
        ],
    );
    assert_eq!(code, 2, "{err}");
    for part in [
        "no installed font has",
        "(U+",
        "fonts-noto-cjk",
        "worksheet.pdf",
    ] {
        assert!(err.contains(part), "`{part}` in: {err}");
    }
    assert!(!Path::new(out).exists());
    // The English demo needs no CJK font.
    let (code, _, err) = generate_with(
        &[("FONTCONFIG_FILE", conf)],
        &["problem-sets/demo.toml", "--out", out, "--format", "pdf"],
    );
    assert_eq!((code, err.as_str()), (0, ""));
}

/// A paper exam (`--on-paper`) and its key, printed as a class's booklets:
/// each student's sheet opens with a cover naming them, every question is
/// whole on its page, and each question starts on the same page of the
/// worksheet and of the key, so a teacher grades with the two side by side.
#[test]
#[cfg_attr(
    any(treequiz_without_chromium, treequiz_without_pdftotext),
    ignore = "needs Chromium and pdftotext (poppler-utils)"
)]
fn a_paper_exam_and_its_key_put_each_question_on_the_same_page() {
    let dir = scratch("paper-exam");
    let roster = dir.join("class.csv");
    // Eight students on Letter: enough variants that some question ends near a page's foot.
    let names = [
        "Ann Lee",
        "王小明",
        "Liam O'Brien",
        "李雷",
        "María José",
        "韩梅梅",
        "Jo Chen",
        "刘洋",
    ];
    let rows: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(i, n)| format!("{},{n}", 101 + i))
        .collect();
    std::fs::write(&roster, format!("id,name\n{}\n", rows.join("\n"))).unwrap();
    let folders: Vec<String> = (0..names.len()).map(|i| (101 + i).to_string()).collect();
    for set in ["midterm-zh", "games"] {
        let out = dir.join(set);
        let (code, _, err) = generate(
            &format!("problem-sets/{set}.toml"),
            out.to_str().unwrap(),
            &[
                "--format",
                "pdf,html",
                "--on-paper",
                "--paper",
                "letter",
                "--roster",
                roster.to_str().unwrap(),
                "--seed",
                "4",
            ],
        );
        assert_eq!(code, 0, "{err}");
        let mut starts: Vec<Vec<(String, usize)>> = Vec::new();
        for (booklet, sub, key) in [
            ("worksheets.pdf", "", false),
            ("keys/keys.pdf", "keys/", true),
        ] {
            let sheets: Vec<Sheet> = folders
                .iter()
                .map(|f| {
                    sheet(&out.join(format!("{sub}{f}")).join(if key {
                        "key.html"
                    } else {
                        "worksheet.html"
                    }))
                })
                .collect();
            let pdf = out.join(booklet);
            let problems = split_questions(&sheets, &pdf, key);
            assert!(problems.is_empty(), "{}", problems.join("\n"));
            // Where each question starts: (student, heading) → its page within the student's sheet.
            let mut at = Vec::new();
            let mut first = 0;
            let mut current = String::new();
            for (k, page) in pages(&pdf).iter().enumerate() {
                let s = sheets
                    .iter()
                    .find(|s| page[0].ends_with(&s.right))
                    .expect("a running head");
                if s.right != current {
                    current = s.right.clone();
                    first = k;
                    // The cover: the student's name and id, no question.
                    let text = page.join("\n");
                    let name = s.right.rsplit('(').next().unwrap().trim_end_matches(')');
                    assert!(
                        text.matches(name).count() >= 2,
                        "the cover names {name}: {text}"
                    );
                    assert!(
                        !s.heads
                            .iter()
                            .take(2)
                            .any(|h| page[1..].iter().any(|l| l.starts_with(h)))
                    );
                }
                for h in s
                    .heads
                    .iter()
                    .filter(|h| page[1..].iter().any(|l| l.starts_with(h.as_str())))
                {
                    let question = format!("{} {h}", s.right.split(" · ").next().unwrap());
                    // Its first page (a key's explanation names it again, later).
                    if !at.iter().any(|(q, _)| *q == question) {
                        at.push((question, k - first + 1));
                    }
                }
            }
            starts.push(at);
        }
        let (sheet_starts, key_starts) = (&starts[0], &starts[1]);
        // The key adds its explanation after the questions; the questions match.
        let questions: Vec<_> = key_starts
            .iter()
            .filter(|q| sheet_starts.contains(q))
            .collect();
        assert_eq!(
            questions.len(),
            sheet_starts.len(),
            "{set}: {key_starts:?} against {sheet_starts:?}"
        );
        assert!(
            sheet_starts.iter().all(|(_, page)| *page > 1),
            "{set}: the cover is page 1"
        );
    }
}

/// A paper exam has no answer file: each room for an answer is named in the
/// set's language (`根结点的值`), not by its answer-file field (`value`), and
/// the sheet's glue punctuation is the language's (issue 27).
#[test]
fn a_chinese_paper_exam_names_its_answer_rooms_in_chinese() {
    let dir = scratch("paper-rooms");
    let out = dir.join("exam");
    let (code, _, err) = generate(
        "problem-sets/midterm-zh.toml",
        out.to_str().unwrap(),
        &["--format", "html", "--on-paper", "--seed", "4"],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    let zh = treequiz::lang::Lang::builtin("zh").unwrap();
    for page in ["worksheet.html", "key.html"] {
        let html = std::fs::read_to_string(out.join(page)).unwrap();
        let rooms: Vec<String> = html
            .split("<div class=\"space\"><p>")
            .skip(1)
            .map(|rest| unescape(rest.split("</p>").next().unwrap()))
            .collect();
        // Six questions, two to six fields each.
        assert!(rooms.len() >= 12, "{page}: {rooms:?}");
        for room in &rooms {
            assert!(
                !room.contains("<code>") && !room.chars().any(|c| c == '_'),
                "{page}: a room named by its field: {room}"
            );
        }
        for (field, n) in [
            ("field.value", 3),
            ("field.pruned", 2),
            ("field.solvable", 1),
        ] {
            let named = rooms.iter().filter(|r| *r == zh.get(field)).count();
            assert_eq!(named, n, "{page}: {field} in {rooms:?}");
        }
        assert!(html.contains("约定："), "{page}");
        assert!(!html.contains("约定: "), "{page}");
    }
}
