//! `generate --format pdf`: HTML sheets printed to PDF by a headless
//! Chromium or Chrome found on the machine, after a check that its fonts
//! cover every character the sheets print.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::UsageError;

/// Where a browser that prints is usually found: names on `PATH`, then the
/// usual install places on macOS and Windows.
const NAMES: &[&str] = &[
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
    "chrome",
    "microsoft-edge",
];
const PLACES: &[&str] = &[
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
    r"C:\Program Files\Google\Chrome\Application\chrome.exe",
    r"C:\Program Files (x86)\Google\Chrome\Application\chrome.exe",
    r"C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe",
];

/// What finding a browser says when there is none: how to get one, and the
/// HTML that prints without one.
const NO_BROWSER: &str = "--format pdf prints with Chromium or Chrome, and none was found (looked for chromium, google-chrome, chrome and microsoft-edge on PATH and in the usual install places); install one (Debian/Ubuntu: `sudo apt install chromium`; or https://www.google.com/chrome/) or pass --browser PATH; or use --format html and print the sheets from any browser";

/// The program on `PATH` named `name`.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| {
            let plain = dir.join(name);
            let exe = dir.join(format!("{name}.exe"));
            [plain, exe]
        })
        .find(|p| p.is_file())
}

/// The browser to print with: `--browser`, else the first one found.
pub(crate) fn browser(chosen: Option<&Path>) -> Result<PathBuf, UsageError> {
    if let Some(path) = chosen {
        return if path.is_file() {
            Ok(path.to_path_buf())
        } else {
            Err(UsageError(format!(
                "--browser {}: no such program; give the path of Chromium or Chrome (for example /usr/bin/chromium)",
                path.display()
            )))
        };
    }
    NAMES
        .iter()
        .find_map(|n| on_path(n))
        .or_else(|| PLACES.iter().map(PathBuf::from).find(|p| p.is_file()))
        .ok_or_else(|| UsageError(NO_BROWSER.into()))
}

/// Characters that print no glyph, so need no font.
fn needs_glyph(c: char) -> bool {
    !c.is_ascii()
        && !c.is_whitespace()
        && !c.is_control()
        && !matches!(c, '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{206F}' | '\u{FEFF}')
}

/// Whether `c` is Chinese, Japanese or Korean (what `fonts-noto-cjk` covers).
fn is_cjk(c: char) -> bool {
    matches!(c, '\u{2E80}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7AF}' | '\u{F900}'..='\u{FAFF}' | '\u{FF00}'..='\u{FFEF}' | '\u{20000}'..='\u{3FFFF}')
}

/// Whether fontconfig knows a font that has every character of `chars`
/// (`None`: there is no `fc-list`, as on macOS and Windows, whose browsers
/// bring their own fallback fonts).
fn covered(chars: &[char]) -> Option<bool> {
    let charset: Vec<String> = chars.iter().map(|c| format!("{:x}", *c as u32)).collect();
    let out = Command::new("fc-list")
        .arg(format!(":charset={}", charset.join(" ")))
        .arg("family")
        .output()
        .ok()?;
    Some(out.status.success() && !out.stdout.iter().all(u8::is_ascii_whitespace))
}

/// The characters of `text` a font must draw (not ASCII, not blank).
pub(crate) fn glyphs(text: &str) -> impl Iterator<Item = char> + '_ {
    text.chars().filter(|&c| needs_glyph(c))
}

/// Checks that the fonts Chromium will use (fontconfig's, on Linux) have a
/// glyph for each of `glyphs`, so that no page of `what` prints boxes.
pub(crate) fn check_fonts(glyphs: &BTreeSet<char>, what: &Path) -> Result<(), UsageError> {
    let chars: Vec<char> = glyphs.iter().copied().collect();
    if chars.is_empty() || covered(&chars) != Some(false) {
        return Ok(());
    }
    // No one font has them all; a page may still mix fonts, so only a
    // character that no font has fails.
    let missing: Vec<char> = chars
        .iter()
        .copied()
        .filter(|&c| covered(&[c]) == Some(false))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let shown: Vec<String> = missing
        .iter()
        .take(6)
        .map(|c| format!("{c} (U+{:04X})", *c as u32))
        .collect();
    let more = if missing.len() > 6 {
        format!(" and {} more", missing.len() - 6)
    } else {
        String::new()
    };
    let package = if missing.iter().any(|&c| is_cjk(c)) {
        "a CJK font: Debian/Ubuntu `sudo apt install fonts-noto-cjk`, Fedora `sudo dnf install google-noto-sans-cjk-fonts`"
    } else {
        "a font that has them: Debian/Ubuntu `sudo apt install fonts-noto-core`"
    };
    Err(UsageError(format!(
        "{}: no installed font has {} of the characters the sheets print: {}{more}; they would print as boxes. Install {package}, then run again",
        what.display(),
        missing.len(),
        shown.join(", ")
    )))
}

/// Prints the HTML file `html` to the PDF file `pdf` with `browser`, using
/// `profile` as its (throwaway) profile folder.
pub(crate) fn print(
    browser: &Path,
    html: &Path,
    pdf: &Path,
    profile: &Path,
) -> Result<(), UsageError> {
    let html =
        std::path::absolute(html).map_err(|e| UsageError(format!("{}: {e}", html.display())))?;
    let mut command = Command::new(browser);
    // Its own process group, so that an interrupted run stops the browser
    // and every helper it started (super::interrupt).
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let child = command
        .args([
            "--headless",
            // Root in a container cannot start the sandbox; the pages are
            // treequiz's own, with no script and nothing fetched.
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-pdf-header-footer",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--print-to-pdf={}", pdf.display()))
        .arg(file_url(&html))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| UsageError(format!("{}: cannot run it: {e}", browser.display())))?;
    let _running = super::interrupt::stop_on_interrupt(child.id());
    let out = child
        .wait_with_output()
        .map_err(|e| UsageError(format!("{}: {e}", browser.display())))?;
    // A browser can exit 0 without printing: the file is what counts.
    let printed = std::fs::read(pdf).is_ok_and(|b| b.starts_with(b"%PDF"));
    if !out.status.success() || !printed {
        // Its last words, if any; the staging folder's path says nothing to
        // the teacher, the sheets' name does.
        let err = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = err.lines().rev().take(4).collect();
        let said = if tail.is_empty() {
            String::new()
        } else {
            format!(
                "; it said: {}",
                tail.into_iter().rev().collect::<Vec<_>>().join(" / ")
            )
        };
        let name = pdf
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        return Err(UsageError(format!(
            "{} did not print {name} ({}{said}): --format pdf needs Chromium, Chrome or Edge (for example --browser /usr/bin/chromium); or use --format html and print the sheets from any browser",
            browser.display(),
            out.status,
        )));
    }
    Ok(())
}

/// A `file://` URL of an absolute path, with what a URL cannot hold escaped.
fn file_url(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    let mut url = String::from(if text.starts_with('/') {
        "file://"
    } else {
        "file:///"
    });
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' | b':' => {
                url.push(b as char)
            }
            b => url.push_str(&format!("%{b:02X}")),
        }
    }
    url
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_url_escapes_what_a_url_cannot_hold() {
        assert_eq!(
            file_url(Path::new("/tmp/a b/期中#1.html")),
            "file:///tmp/a%20b/%E6%9C%9F%E4%B8%AD%231.html"
        );
    }

    #[test]
    fn only_printed_characters_need_a_glyph() {
        assert!(needs_glyph('中') && needs_glyph('∞') && needs_glyph('é'));
        assert!(!needs_glyph('a') && !needs_glyph('\u{a0}') && !needs_glyph('\u{200b}'));
    }
}
