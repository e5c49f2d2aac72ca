//! `treequiz practice [SET] --out DIR`: the practice page, one HTML file with
//! the WebAssembly module (built by `web/build`) and, if given, the teacher's
//! set inside it, so that it works from a file or a course site, offline.

use std::path::{Path, PathBuf};

use treequiz::input::Source;
use treequiz::problem_set;

use super::UsageError;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// A problem set to build in (its exercises, with any seed); without one,
    /// the page offers every kind in three sizes.
    set: Option<PathBuf>,
    /// The folder to write `practice.html` to.
    #[arg(long)]
    out: PathBuf,
    /// The WebAssembly module `web/build` made (default: web/dist/treequiz.wasm
    /// here, or in the source tree this treequiz was built in).
    #[arg(long)]
    module: Option<PathBuf>,
}

const PAGE: &str = include_str!("../../web/page/index.html");
const STYLE: &str = include_str!("../../web/page/style.css");
const SCRIPT: &str = include_str!("../../web/page/app.js");

/// The page with its parts in place: `set` is the set's text, if any.
pub(crate) fn page(module: &[u8], set: Option<&str>) -> String {
    // In a <script> element only `</script` ends it; JSON can spell every `<` as `\u003c`.
    let set = serde_json::to_string(&set)
        .expect("a string")
        .replace('<', "\\u003c");
    PAGE.replace("{{STYLE}}", STYLE.trim_end())
        .replace("{{SCRIPT}}", SCRIPT.trim_end())
        .replace("{{VERSION}}", env!("CARGO_PKG_VERSION"))
        .replace("{{MODULE}}", &treequiz::output::base64(module))
        // Last, so that nothing in the teacher's text is taken for a placeholder.
        .replace("{{SET}}", &set)
}

fn module_path(given: Option<&Path>) -> Result<PathBuf, UsageError> {
    if let Some(path) = given {
        return Ok(path.to_path_buf());
    }
    let relative = Path::new("web/dist/treequiz.wasm");
    let built_in = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    [relative.to_path_buf(), built_in]
        .into_iter()
        .find(|p| p.is_file())
        .ok_or_else(|| {
            UsageError(
                "the practice page needs treequiz's WebAssembly module, web/dist/treequiz.wasm, \
                 which `web/build` makes from this source tree (docs/web.md); \
                 pass --module PATH if it is elsewhere"
                    .to_string(),
            )
        })
}

/// Why a set cannot be built into the page, if it cannot: the page has no
/// files to read an `instance_file` from.
fn page_cannot_read(source: &Source) -> Option<UsageError> {
    let doc: toml::Table = source.text.parse().ok()?;
    let exercises = doc.get("exercise")?.as_array()?;
    let at = exercises
        .iter()
        .position(|e| e.get("instance_file").is_some())?;
    Some(UsageError(format!(
        "{}: exercise {} reads `instance_file`, and the page has no files to read; \
         write the instance into the set as `instance = {{ … }}` (docs/problem-sets.md)",
        source.path,
        at + 1
    )))
}

/// The set's text with every comment gone: its TOML written anew (same
/// keys and values, in the same order). The result is read back as the page
/// will read it, so nothing the page needs is lost.
fn without_comments(source: &Source) -> Result<String, UsageError> {
    let table: toml::Table = source
        .text
        .parse()
        .map_err(|e| UsageError(format!("{}: {e}", source.path)))?;
    let text = toml::to_string(&table)
        .map_err(|e| UsageError(format!("{}: cannot write it anew: {e}", source.path)))?;
    let again = Source {
        path: source.path.clone(),
        text,
    };
    problem_set::parse(&again, Path::new(".")).map_err(|e| {
        UsageError(format!(
            "{}: written without comments it reads differently: {e}",
            source.path
        ))
    })?;
    Ok(again.text)
}

pub(crate) fn run(args: &Args) -> Result<String, UsageError> {
    let set = match &args.set {
        Some(path) => {
            // The set is checked as `generate` reads it, so the page never
            // opens on an error the teacher could have seen here.
            let set = problem_set::load(path).map_err(|e| UsageError(e.to_string()))?;
            let source =
                treequiz::instance::read_source(path).map_err(|e| UsageError(e.to_string()))?;
            if let Some(e) = page_cannot_read(&source) {
                return Err(e);
            }
            let master = treequiz::rng::Master::from_seed(set.seed);
            treequiz::class_set::build(&set, &master, &[])
                .map_err(|e| UsageError(e.to_string()))?;
            // Students see the page's source: the set goes in without the
            // teacher's comments (notes, answers, a secret's whereabouts).
            let stripped = without_comments(&source)?;
            for (n, ex) in set.exercises.iter().enumerate() {
                if matches!(ex.source, problem_set::InstanceSource::Fixed(_)) {
                    eprintln!(
                        "warning: exercise {} ({}) is a fixed instance: the page shows its worked solution to anyone who opens it, so it is for practice, not for a quiz",
                        n + 1,
                        ex.kind.name
                    );
                }
            }
            Some(stripped)
        }
        None => None,
    };
    let module_path = module_path(args.module.as_deref())?;
    let module = treequiz::input::read_capped(&module_path, 64 << 20).map_err(|e| {
        let hint = match &e {
            treequiz::input::ReadError::Io(io) if io.kind() == std::io::ErrorKind::NotFound => {
                "; `web/build` makes the module (web/dist/treequiz.wasm; docs/web.md)"
            }
            _ => "",
        };
        UsageError(format!("{}: {e}{hint}", module_path.display()))
    })?;
    if !module.starts_with(b"\0asm") {
        return Err(UsageError(format!(
            "{} is not a WebAssembly module; run `web/build` to make one",
            module_path.display()
        )));
    }
    let html = page(&module, set.as_deref());
    std::fs::create_dir_all(&args.out)
        .map_err(|e| UsageError(format!("cannot create {}: {e}", args.out.display())))?;
    let path = args.out.join("practice.html");
    treequiz::output::write_atomic(&path, html.as_bytes())
        .map_err(|e| UsageError(format!("cannot write {}: {e}", path.display())))?;
    Ok(format!(
        "wrote {} ({:.1} MB): open it in a browser; it works offline\n",
        path.display(),
        html.len() as f64 / 1e6
    ))
}

#[cfg(test)]
mod tests {
    use super::{PAGE, page};

    /// A set travels inside a `<script>` element: nothing in it can end that
    /// element, and the page reads it back whole.
    #[test]
    fn a_set_cannot_end_its_script_element() {
        let set = "title = \"</script><script>alert(1)</script> </SCRIPT> {{MODULE}}\"\n";
        let html = page(b"\0asm", Some(set));
        let ends = |s: &str| s.to_ascii_lowercase().matches("</script").count();
        assert_eq!(ends(&html), ends(PAGE));
        let start = html
            .find(r#"<script id="tq-set" type="application/json">"#)
            .unwrap();
        let json = &html[start..];
        let json = &json[json.find('>').unwrap() + 1..json.find("</script>").unwrap()];
        assert_eq!(serde_json::from_str::<String>(json).unwrap(), set);
    }
}
