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
    /// The WebAssembly module `web/build` made (default: the one built into
    /// treequiz, which every release has).
    #[arg(long)]
    module: Option<PathBuf>,
}

const PAGE: &str = include_str!("../../web/page/index.html");
const STYLE: &str = include_str!("../../web/page/style.css");
const SCRIPT: &str = include_str!("../../web/page/app.js");

/// How hard the module is deflated for the page: fixed, so that the same
/// module always gives the same page. 9 of miniz's 10 levels: 10 saves
/// under 1% more and takes several times as long.
const LEVEL: u8 = 9;

/// The module as the page carries it: zlib-wrapped deflate, which the
/// browser's `DecompressionStream("deflate")` unpacks (2.0 MB of module in
/// about 0.75 MB), in base64.
pub(crate) fn packed(module: &[u8]) -> String {
    treequiz::output::base64(&miniz_oxide::deflate::compress_to_vec_zlib(module, LEVEL))
}

/// The built-in set's plan ([`treequiz::fair::Plan::to_text`]) for its own
/// seed, as the module reads it (`plan` in a request, web/module/src/lib.rs).
fn embedded_plan(seed: u64, plan: &treequiz::fair::Plan) -> String {
    format!("{seed}:{}", plan.to_text())
}

/// The page with its parts in place: `set` is the set's text and its plan
/// ([`embedded_plan`]), if any.
pub(crate) fn page(module: &[u8], set: Option<(&str, &str)>) -> String {
    // In a <script> element only `</script` ends it; JSON can spell every `<` as `\u003c`.
    let json = |v: Option<&str>| {
        serde_json::to_string(&v)
            .expect("a string")
            .replace('<', "\\u003c")
    };
    let plan = json(set.map(|(_, plan)| plan));
    let set = json(set.map(|(text, _)| text));
    PAGE.replace("{{STYLE}}", STYLE.trim_end())
        .replace("{{SCRIPT}}", SCRIPT.trim_end())
        .replace("{{VERSION}}", env!("CARGO_PKG_VERSION"))
        .replace("{{MODULE}}", &packed(module))
        .replace("{{PLAN}}", &plan)
        // Last, so that nothing in the teacher's text is taken for a placeholder.
        .replace("{{SET}}", &set)
}

/// The module `web/build` made, built into this binary when it was there at
/// build time (every release and wheel has it).
#[cfg(treequiz_page_module)]
const BUILT_IN: Option<&[u8]> = Some(include_bytes!(env!("TREEQUIZ_PAGE_MODULE")));
#[cfg(not(treequiz_page_module))]
const BUILT_IN: Option<&[u8]> = None;

/// The module: the one given, else the built-in one.
fn module(given: Option<&Path>) -> Result<std::borrow::Cow<'static, [u8]>, UsageError> {
    let Some(path) = given else {
        return BUILT_IN.map(std::borrow::Cow::Borrowed).ok_or_else(|| {
            UsageError(
                "this treequiz was built without the practice page's WebAssembly module; \
                 `web/build --page` makes it (web/dist/treequiz.wasm) and builds treequiz again \
                 with it inside (docs/web.md), or pass --module PATH"
                    .to_string(),
            )
        });
    };
    let module = treequiz::input::read_capped(path, 64 << 20).map_err(|e| {
        let hint = match &e {
            treequiz::input::ReadError::Io(io) if io.kind() == std::io::ErrorKind::NotFound => {
                "; `web/build` makes the module (web/dist/treequiz.wasm; docs/web.md)"
            }
            _ => "",
        };
        UsageError(format!("{}: {e}{hint}", path.display()))
    })?;
    if !module.starts_with(b"\0asm") {
        return Err(UsageError(format!(
            "{} is not a WebAssembly module; run `web/build` to make one",
            path.display()
        )));
    }
    Ok(std::borrow::Cow::Owned(module))
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
            let plan =
                treequiz::class_set::plan(&set, &master).map_err(|e| UsageError(e.to_string()))?;
            treequiz::class_set::build_planned(&set, &master, &plan, &[])
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
            // The pilot is most of the work of the set's first variant: the
            // page opens at the set's seed with the plan made here.
            Some((stripped, embedded_plan(set.seed, &plan)))
        }
        None => None,
    };
    let module = module(args.module.as_deref())?;
    let html = page(
        &module,
        set.as_ref()
            .map(|(text, plan)| (text.as_str(), plan.as_str())),
    );
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
    use super::{PAGE, packed, page};

    /// The page unpacks the module as `DecompressionStream("deflate")` does
    /// (zlib), byte for byte, and the same module always packs the same.
    #[test]
    fn the_module_unpacks_to_itself() {
        let module: Vec<u8> = (0..100_000u32)
            .flat_map(|i| (i % 251).to_le_bytes())
            .collect();
        let text = packed(&module);
        assert_eq!(text, packed(&module));
        let html = page(&module, None);
        assert!(html.contains(&text));
        let digit = |c: u8| {
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
                .iter()
                .position(|&d| d == c)
        };
        let digits: Vec<u32> = text.bytes().filter_map(digit).map(|d| d as u32).collect();
        let mut zlib = Vec::new();
        for chunk in digits.chunks(4) {
            let v = chunk
                .iter()
                .enumerate()
                .fold(0, |acc, (i, &d)| acc | (d << (18 - 6 * i)));
            zlib.extend((0..chunk.len() - 1).map(|i| (v >> (16 - 8 * i)) as u8));
        }
        assert_eq!(
            miniz_oxide::inflate::decompress_to_vec_zlib(&zlib).unwrap(),
            module
        );
        assert!(text.len() < module.len() / 4, "{} digits", text.len());
    }

    /// A set travels inside a `<script>` element: nothing in it can end that
    /// element, and the page reads it back whole.
    #[test]
    fn a_set_cannot_end_its_script_element() {
        let set = "title = \"</script><script>alert(1)</script> </SCRIPT> {{MODULE}}\"\n";
        let html = page(b"\0asm", Some((set, "7:-")));
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
