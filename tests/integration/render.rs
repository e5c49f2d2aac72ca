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

/// Chromium, or `None` outside CI when it is not installed (CI installs it: then it must be there).
fn chromium() -> Option<PathBuf> {
    let found = find(&["chromium", "chromium-browser", "google-chrome"]);
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install chromium (.ci/run does)"
        );
        eprintln!("skipped: no chromium on this machine");
    }
    found
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
fn html_sheets_print_and_their_figures_are_drawn() {
    let Some(chromium) = chromium() else { return };
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
                    "games" => 4,
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

#[test]
fn latex_sheets_compile_with_xelatex_when_it_is_installed() {
    let Some(xelatex) = find(&["xelatex"]) else {
        eprintln!("skipped: no xelatex on this machine");
        return;
    };
    let dir = scratch("xelatex");
    for set in ["demo", "midterm-zh", "games"] {
        let out = dir.join(set);
        let (code, _, err) = generate(
            &format!("problem-sets/{set}.toml"),
            out.to_str().unwrap(),
            &["--format", "tex"],
        );
        assert_eq!((code, err.as_str()), (0, ""));
        for page in ["worksheet", "key"] {
            let result = Command::new(&xelatex)
                .current_dir(&out)
                .args([
                    "-interaction=nonstopmode",
                    "-halt-on-error",
                    &format!("{page}.tex"),
                ])
                .output()
                .unwrap();
            let log = String::from_utf8_lossy(&result.stdout);
            assert!(
                result.status.success(),
                "{set}/{page}.tex does not compile:\n{}",
                &log[log.len().saturating_sub(3000)..]
            );
            assert!(out.join(format!("{page}.pdf")).is_file());
            assert!(
                !log.contains("Missing character"),
                "{set}/{page}: a glyph is missing from the fonts"
            );
        }
    }
}

/// The `<h2>` headings of a sheet, as the page prints them ("Question 2: Alpha-beta pruning").
fn headings(html: &str) -> Vec<String> {
    html.split("<h2>")
        .skip(1)
        .map(|rest| {
            let text = rest.split(" <small>").next().unwrap_or_default();
            text.replace("&#39;", "'")
                .replace("&quot;", "\"")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&")
        })
        .collect()
}

/// The text of each page of a PDF (pdftotext, pages split at form feeds).
fn pages(pdf: &Path) -> Vec<Vec<String>> {
    let out = Command::new("pdftotext")
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

/// What is wrong with how a sheet's questions fall on its pages, if anything:
/// a worksheet's page after the first must open with a question's heading
/// (so no question runs on from the page before); a key's may also open with
/// a step table's repeated header, or the explanation of a question whose
/// heading and answers are on the page before, never with a table's row.
fn split_questions(html: &str, pdf: &Path, key: bool) -> Vec<String> {
    let heads = headings(html);
    let pages = pages(pdf);
    let mut problems = Vec::new();
    let mut seen = 0;
    for (k, page) in pages.iter().enumerate() {
        let first = &page[0];
        let opens_question = heads.iter().any(|h| first.starts_with(h.as_str()));
        let table_header = first.starts_with('#');
        let table_row = first
            .split(' ')
            .next()
            .is_some_and(|w| w.parse::<u32>().is_ok());
        if k > 0 && !opens_question && (!key || table_row || (!table_header && seen == 0)) {
            problems.push(format!(
                "{}: page {} opens with `{first}`, not a question",
                pdf.display(),
                k + 1
            ));
        }
        seen += page
            .iter()
            .filter(|l| heads.iter().any(|h| l.starts_with(h.as_str())))
            .count();
    }
    if seen != heads.len() {
        problems.push(format!(
            "{}: {seen} headings found on the pages, {} in the sheet (a heading split from its line?)",
            pdf.display(),
            heads.len()
        ));
    }
    problems
}

/// Every shipped set on A4 and Letter, and a 40-student class of the
/// midterm, printed with Chromium: no question of a worksheet runs from one
/// page onto the next, a key's question keeps its figure with its answers,
/// and a step table that continues repeats its header.
#[test]
fn printed_questions_stay_whole_on_their_page() {
    let Some(chromium) = chromium() else { return };
    if find(&["pdftotext"]).is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install poppler-utils (.ci/run does)"
        );
        eprintln!("skipped: no pdftotext on this machine");
        return;
    }
    let dir = scratch("pages");
    let mut jobs: Vec<(PathBuf, bool)> = Vec::new();
    let sets = [
        "demo",
        "game-tree-quiz",
        "and-or-quiz",
        "games",
        "midterm-zh",
        "textbook",
    ];
    for set in sets {
        for paper in ["a4", "letter"] {
            let out = dir.join(format!("{set}-{paper}"));
            let (code, _, err) = generate(
                &format!("problem-sets/{set}.toml"),
                out.to_str().unwrap(),
                &["--format", "html", "--paper", paper],
            );
            assert_eq!(code, 0, "{err}");
            jobs.push((out.join("worksheet.html"), false));
            jobs.push((out.join("key.html"), true));
        }
    }
    let roster = dir.join("class.csv");
    let rows: Vec<String> = (1..=40).map(|i| format!("s{i:03},Student {i}")).collect();
    std::fs::write(&roster, format!("id,name\n{}\n", rows.join("\n"))).unwrap();
    let class = dir.join("class");
    let (code, _, err) = generate(
        "problem-sets/midterm-zh.toml",
        class.to_str().unwrap(),
        &[
            "--format",
            "html",
            "--roster",
            roster.to_str().unwrap(),
            "--seed",
            "5",
        ],
    );
    assert_eq!(code, 0, "{err}");
    for i in 1..=40 {
        jobs.push((class.join(format!("s{i:03}/worksheet.html")), false));
        jobs.push((class.join(format!("keys/s{i:03}/key.html")), true));
    }
    let profile = dir.join("profile");
    let problems: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = jobs
            .chunks(jobs.len().div_ceil(2))
            .enumerate()
            .map(|(t, chunk)| {
                let (chromium, profile) = (&chromium, profile.join(t.to_string()));
                scope.spawn(move || {
                    let mut problems = Vec::new();
                    for (html, key) in chunk {
                        let pdf = html.with_extension("pdf");
                        headless(
                            chromium,
                            &profile,
                            &[
                                "--no-pdf-header-footer".to_string(),
                                format!("--print-to-pdf={}", pdf.display()),
                                format!("file://{}", html.display()),
                            ],
                        );
                        let text = std::fs::read_to_string(html).unwrap();
                        problems.extend(split_questions(&text, &pdf, *key));
                    }
                    problems
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
