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
