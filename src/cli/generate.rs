//! `treequiz generate SET.toml --out DIR`: worksheets, answer sheets, keys and a manifest.

use std::path::{Path, PathBuf};

use clap::ValueEnum;

use treequiz::class_set::{self, Variant};
use treequiz::grade::form;
use treequiz::lang::Lang;
use treequiz::manifest::{self, VariantEntry};
use treequiz::output::Staging;
use treequiz::problem_set::{self, ProblemSet};
use treequiz::render::{Prepared, Renderer};

use super::booklet::{Kept, Spill, Spilled};
use treequiz::rng::Master;
use treequiz::roster::{self, Student};
use treequiz::view;

use super::UsageError;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// The problem set (TOML).
    set: PathBuf,
    /// The folder to write into (created if needed).
    #[arg(long)]
    out: PathBuf,
    /// A public seed (practice); overrides the set's own.
    #[arg(long, conflicts_with = "secret")]
    seed: Option<u64>,
    /// A file holding an exam secret (`treequiz secret > exam.secret`).
    #[arg(long, value_name = "FILE")]
    secret: Option<PathBuf>,
    /// A CSV roster with an `id` column (and optionally `name`), or a Moodle or
    /// Canvas export as it comes: one variant per student.
    #[arg(long, value_name = "CSV")]
    roster: Option<PathBuf>,
    /// The roster's column of student ids: its header, or its number from 1
    /// (default: `id`, else 学号, `ID number`, … as docs/class-sets.md lists).
    #[arg(long, value_name = "COLUMN", requires = "roster")]
    id_column: Option<String>,
    /// The roster's column of names; repeat it to join several (first and last name).
    #[arg(long, value_name = "COLUMN", requires = "roster")]
    name_column: Vec<String>,
    /// Without a roster: N anonymous variants, for students `v01`, `v02`, …
    /// (a Moodle question bank's random questions; docs/moodle.md).
    #[arg(long, value_name = "N", conflicts_with = "roster", value_parser = clap::value_parser!(u32).range(1..=999))]
    variants: Option<u32>,
    /// Output formats, comma-separated; `moodle` writes moodle.xml, a
    /// question bank, where the keys go; `docx`, Word documents to edit.
    #[arg(long, value_delimiter = ',', default_value = "md,html,tex")]
    format: Vec<Format>,
    /// The paper the HTML, PDF, LaTeX and Word sheets print on.
    #[arg(long, value_enum, default_value = "a4")]
    paper: PaperArg,
    /// A paper exam: the HTML and PDF worksheets get a cover (name, id,
    /// variant, a score table) and room to write every answer; the keys
    /// fill that room in, page for page.
    #[arg(long)]
    on_paper: bool,
    /// The Chromium or Chrome that prints `--format pdf` (default: the first found).
    #[arg(long, value_name = "PATH")]
    browser: Option<PathBuf>,
    /// With `--format pdf` and a class (`--roster`, `--variants`): each
    /// student's worksheet and key as a PDF of its own too, beside the booklets.
    #[arg(long)]
    pdf_per_student: bool,
    /// The language of the sheets (overrides the set's).
    #[arg(long)]
    lang: Option<String>,
    /// A folder whose templates (and lang/*.toml) replace the built-in ones, file by file.
    #[arg(long, value_name = "DIR")]
    templates: Option<PathBuf>,
    /// Replace the set in a folder that is not empty (files treequiz did not write are kept).
    #[arg(long)]
    force: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum PaperArg {
    A4,
    Letter,
}

impl PaperArg {
    fn paper(self) -> view::Paper {
        match self {
            PaperArg::A4 => view::Paper::A4,
            PaperArg::Letter => view::Paper::Letter,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Md,
    Html,
    Tex,
    /// The HTML sheets printed by Chromium: class booklets with a roster.
    Pdf,
    /// A Moodle XML question bank, `moodle.xml`, where the keys go.
    Moodle,
    /// Word documents to edit and print: class booklets with a roster.
    Docx,
}

impl Format {
    /// Whether a template of each sheet renders it (`worksheet.EXT`, `key.EXT`).
    fn rendered(self) -> bool {
        matches!(self, Format::Md | Format::Html | Format::Tex)
    }

    fn ext(self) -> &'static str {
        match self {
            Format::Md => "md",
            Format::Html => "html",
            Format::Tex => "tex",
            Format::Pdf => "pdf",
            Format::Moodle => "xml",
            Format::Docx => "docx",
        }
    }
}

/// A class's booklets, PDF, LaTeX and Word: every worksheet in
/// `worksheets.EXT`, every key in `keys/keys.EXT`.
const BOOKLETS: [&str; 6] = [
    "worksheets.pdf",
    "keys.pdf",
    "worksheets.tex",
    "keys.tex",
    "worksheets.docx",
    "keys.docx",
];

/// Where a class's booklet of worksheets (or keys) goes in the staging folder `stage`.
fn booklet(stage: &Path, key: bool, ext: &str) -> PathBuf {
    match key {
        true => stage.join("keys").join(format!("keys.{ext}")),
        false => stage.join(format!("worksheets.{ext}")),
    }
}

/// How the seeds were chosen, for the manifest (never the secret itself).
#[derive(Clone, Copy)]
enum Mode {
    Practice(u64),
    Exam,
}

fn usage(e: impl std::fmt::Display) -> UsageError {
    UsageError(e.to_string())
}

/// Checks `--out` before anything is generated: a folder, empty unless `--force`.
fn check_out(out: &Path, force: bool) -> Result<(), UsageError> {
    if out.exists() && !out.is_dir() {
        return Err(UsageError(format!(
            "--out {} is a file; give a folder",
            out.display()
        )));
    }
    let non_empty = out.is_dir()
        && std::fs::read_dir(out)
            .map_err(|e| UsageError(format!("{}: cannot read: {e}", out.display())))?
            .next()
            .is_some();
    if non_empty && !force {
        return Err(UsageError(format!(
            "{} is not empty; pass --force to replace the set in it (files treequiz did not write are kept), or choose another --out",
            out.display()
        )));
    }
    Ok(())
}

/// Whether `rel`, a path in an output folder, is a file that `generate`
/// writes: a sheet, key, answer sheet or answer form, the manifest or the variant report,
/// at the top, in a student's folder or under `keys/`. An earlier set's files
/// are replaced by the new set's; every other file in the folder is kept.
fn written_by_generate(rel: &Path) -> bool {
    let name = rel.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let sheet = |stem: &str| {
        name.strip_prefix(stem).is_some_and(|ext| {
            ext == "toml" && stem == "key."
                || Format::value_variants()
                    .iter()
                    .any(|&f| f != Format::Moodle && f.ext() == ext)
        })
    };
    rel.components().count() <= 3
        && (matches!(
            name,
            "manifest.json" | "variant-report.md" | "answer-sheet.toml" | "moodle.xml" | form::FILE
        ) || BOOKLETS.contains(&name)
            || sheet("worksheet.")
            || sheet("key."))
}

/// What is the same for every variant of one run.
struct Job<'a> {
    args: &'a Args,
    set: &'a ProblemSet,
    master: &'a Master,
    plan: &'a treequiz::fair::Plan,
    renderer: &'a Renderer,
    lang: &'a Lang,
    mode: Mode,
    /// Where the files are written until the set is complete.
    stage: &'a Path,
    /// Whether the sheets are printed to PDF.
    pdf: bool,
    /// How the sheets name the set ([`set_as_seen_from`]).
    set_name: &'a str,
}

/// One variant, built, rendered and written into the staging folder.
struct Done {
    /// The variant, with its instances and keys.
    variant: Variant,
    /// Its manifest entry (compact JSON).
    entry: String,
    /// The files written for it.
    files: usize,
    /// Its sheets for the booklets, if any are made.
    print: Option<Print<view::BookletSheet>>,
}

/// One variant's worksheet and key (in this order), rendered for booklets
/// (`S`: [`view::BookletSheet`]), then kept on disk until they are written
/// (`S`: [`Kept`]).
struct Print<S> {
    /// For PDF: ready for `booklet.html`.
    html: Option<[S; 2]>,
    /// For a class's LaTeX booklets: ready for `booklet.tex`.
    tex: Option<[S; 2]>,
    /// For a class's Word booklets.
    docx: Option<[treequiz::docx::Sheet; 2]>,
    /// Whether its text needs CJK fonts.
    cjk: bool,
    /// The folders of its worksheet and key, where their own PDFs go.
    dirs: [PathBuf; 2],
}

impl Job<'_> {
    /// Builds one student's variant (`None`: the practice variant), renders
    /// its sheets and keys and writes them into the staging folder.
    /// `index` is its place in the roster.
    fn variant(
        &self,
        index: usize,
        student: Option<&Student>,
        id: &str,
    ) -> Result<Done, UsageError> {
        let variant = class_set::variant(self.set, self.master, self.plan, student, id.to_string())
            .map_err(|e| question_error(self.set, e))?;
        let (sheet_dir, key_dir) = match &variant.student {
            Some(s) => (
                self.stage.join(&s.folder),
                self.stage.join("keys").join(&s.folder),
            ),
            // An exam's keys never share a folder with the sheets handed out.
            None if matches!(self.mode, Mode::Exam) => {
                (self.stage.to_path_buf(), self.stage.join("keys"))
            }
            None => (self.stage.to_path_buf(), self.stage.to_path_buf()),
        };
        let practice = match self.mode {
            Mode::Practice(seed) => Some((self.set_name, seed)),
            Mode::Exam => None,
        };
        let mut blank = view::sheet(self.set, &variant, self.lang, false, practice);
        let mut key = view::sheet(self.set, &variant, self.lang, true, practice);
        blank.paper = self.args.paper.paper().view();
        key.paper = blank.paper;
        blank.on_paper = self.args.on_paper;
        key.on_paper = self.args.on_paper;
        for dir in [&sheet_dir, &key_dir] {
            std::fs::create_dir_all(dir)
                .map_err(|e| UsageError(format!("{}: cannot create: {e}", dir.display())))?;
        }
        // Each view serves several templates: made ready for them once.
        let (blank_ready, key_ready) = (Prepared::of(&blank), Prepared::of(&key));
        let mut files = 0;
        let mut write = |path: PathBuf, template: &str, view: &Prepared| {
            let text = self
                .renderer
                .render_context(template, view)
                .map_err(usage)?;
            std::fs::write(&path, text)
                .map_err(|e| UsageError(format!("{}: cannot write: {e}", path.display())))?;
            files += 1;
            Ok::<(), UsageError>(())
        };
        for format in self.args.format.iter().filter(|f| f.rendered()) {
            let ext = format.ext();
            write(
                sheet_dir.join(format!("worksheet.{ext}")),
                &format!("worksheet.{ext}"),
                &blank_ready,
            )?;
            write(
                key_dir.join(format!("key.{ext}")),
                &format!("key.{ext}"),
                &key_ready,
            )?;
        }
        write(
            sheet_dir.join("answer-sheet.toml"),
            "answer-sheet.toml",
            &blank_ready,
        )?;
        write(key_dir.join("key.toml"), "answer-sheet.toml", &key_ready)?;
        // What `check` reads of an exam sheet, which names no seed to
        // regenerate its key from: the fields and the figures' labels.
        if matches!(self.mode, Mode::Exam) {
            let path = sheet_dir.join(form::FILE);
            std::fs::write(&path, form::Form::of(&variant, &self.lang.code).to_json())
                .map_err(|e| UsageError(format!("{}: cannot write: {e}", path.display())))?;
            files += 1;
        }
        let render = |template: &str, view: &Prepared| {
            self.renderer.render_context(template, view).map_err(usage)
        };
        let bodies = |ext: &str| -> Result<[view::BookletSheet; 2], UsageError> {
            let running = |view| match ext {
                "html" => render("running.html", view),
                _ => Ok(String::new()), // LaTeX's is in the body
            };
            Ok([
                view::BookletSheet {
                    running: running(&blank_ready)?,
                    body: render(&format!("worksheet-body.{ext}"), &blank_ready)?,
                },
                view::BookletSheet {
                    running: running(&key_ready)?,
                    body: render(&format!("key-body.{ext}"), &key_ready)?,
                },
            ])
        };
        let docx = match self.args.format.contains(&Format::Docx) {
            true => Some(self.docx(index, &blank, &key, [&sheet_dir, &key_dir])?),
            false => None,
        };
        files += docx.as_ref().map_or(0, |_| 2);
        let class = variant.student.is_some();
        let tex = class && self.args.format.contains(&Format::Tex);
        let print = match (self.pdf, tex, class && docx.is_some()) {
            (false, false, false) => None,
            _ => Some(Print {
                html: self.pdf.then(|| bodies("html")).transpose()?,
                tex: tex.then(|| bodies("tex")).transpose()?,
                docx: docx.filter(|_| class),
                cjk: blank.set.cjk,
                dirs: [sheet_dir, key_dir],
            }),
        };
        Ok(Done {
            entry: VariantEntry::new(self.set, &variant).to_json(),
            variant,
            files,
            print,
        })
    }

    /// Writes a variant's `worksheet.docx` and `key.docx` into `dirs`, and
    /// returns their sheets for the class's booklets.
    fn docx(
        &self,
        index: usize,
        blank: &view::SheetView,
        key: &view::SheetView,
        dirs: [&Path; 2],
    ) -> Result<[treequiz::docx::Sheet; 2], UsageError> {
        let paper = self.args.paper.paper();
        let sheets = [
            treequiz::docx::sheet(self.renderer, blank, paper, index).map_err(usage)?,
            treequiz::docx::sheet(self.renderer, key, paper, index).map_err(usage)?,
        ];
        for (sheet, (dir, name)) in sheets
            .iter()
            .zip(dirs.into_iter().zip(["worksheet.docx", "key.docx"]))
        {
            let bytes = treequiz::docx::document(
                self.renderer,
                &[sheet],
                paper,
                &self.lang.code,
                blank.set.cjk,
            )
            .map_err(usage)?;
            let path = dir.join(name);
            std::fs::write(&path, bytes)
                .map_err(|e| UsageError(format!("{}: cannot write: {e}", path.display())))?;
        }
        Ok(sheets)
    }
}

/// Writes a class's Word booklets, `worksheets.docx` and `keys/keys.docx`.
fn write_docx_booklets(job: &Job, prints: &[Print<Kept>]) -> Result<usize, UsageError> {
    let cjk = prints.iter().any(|p| p.cjk);
    for key in [false, true] {
        let sheets: Vec<&treequiz::docx::Sheet> = prints
            .iter()
            .filter_map(|p| p.docx.as_ref().map(|d| &d[key as usize]))
            .collect();
        let bytes = treequiz::docx::document(
            job.renderer,
            &sheets,
            job.args.paper.paper(),
            &job.lang.code,
            cjk,
        )
        .map_err(usage)?;
        let path = booklet(job.stage, key, "docx");
        std::fs::write(&path, bytes)
            .map_err(|e| UsageError(format!("{}: cannot write: {e}", path.display())))?;
    }
    Ok(2)
}

/// A question that cannot be generated, reported at its table in the set.
fn question_error(set: &ProblemSet, e: class_set::ClassSetError) -> UsageError {
    match e {
        class_set::ClassSetError::Exercise {
            number,
            kind,
            source,
        } => usage(set.exercises[number - 1].site.error(
            format!("question {number} ({kind}): {}", source.what()),
            source.fix(),
        )),
        other => usage(other),
    }
}

/// A booklet of worksheets (or keys) for `booklet.EXT`.
fn booklet_view<'a>(
    job: &'a Job,
    key: bool,
    cjk: bool,
    sheets: &'a [&'a view::BookletSheet],
) -> view::BookletView<'a> {
    let word = if key { "sheet.key" } else { "sheet.worksheet" };
    view::BookletView {
        set: view::BookletSetView {
            language: &job.lang.code,
            cjk,
        },
        title: format!("{} · {}", job.set.title, job.lang.get(word)),
        class: if key { "key" } else { "worksheet" },
        paper: job.args.paper.paper().view(),
        sheets,
    }
}

/// Writes a class's LaTeX booklets, `worksheets.tex` and `keys/keys.tex`.
fn write_tex_booklets(
    job: &Job,
    prints: &[Print<Kept>],
    spilled: &Spilled,
) -> Result<usize, UsageError> {
    let cjk = prints.iter().any(|p| p.cjk);
    for key in [false, true] {
        let sheets: Vec<&Kept> = prints
            .iter()
            .filter_map(|p| p.tex.as_ref().map(|t| &t[key as usize]))
            .collect();
        let view = booklet_view(job, key, cjk, &[]);
        spilled.write(
            job.renderer,
            "booklet.tex",
            view,
            &sheets,
            &booklet(job.stage, key, "tex"),
        )?;
    }
    Ok(2)
}

/// Where a class's booklet sheets wait, on disk, until every variant is done.
struct Spills {
    html: Option<Spill>,
    tex: Option<Spill>,
}

impl Spills {
    /// Spill files in `dir` for the booklets `job` makes.
    fn new(job: &Job, dir: &Path, class: bool) -> Result<Spills, UsageError> {
        std::fs::create_dir_all(dir)
            .map_err(|e| UsageError(format!("{}: cannot create: {e}", dir.display())))?;
        let tex = class && job.args.format.contains(&Format::Tex);
        Ok(Spills {
            html: job
                .pdf
                .then(|| Spill::create(dir.join("html"), true))
                .transpose()?,
            tex: tex
                .then(|| Spill::create(dir.join("tex"), false))
                .transpose()?,
        })
    }

    /// Keeps a variant's booklet sheets on disk.
    fn keep(&mut self, print: Print<view::BookletSheet>) -> Result<Print<Kept>, UsageError> {
        let keep = |spill: &mut Option<Spill>, sheets: Option<[view::BookletSheet; 2]>| match (
            spill.as_mut(),
            sheets,
        ) {
            (Some(spill), Some([a, b])) => Ok(Some([spill.keep(&a)?, spill.keep(&b)?])),
            _ => Ok::<_, UsageError>(None),
        };
        Ok(Print {
            html: keep(&mut self.html, print.html)?,
            tex: keep(&mut self.tex, print.tex)?,
            docx: print.docx,
            cjk: print.cjk,
            dirs: print.dirs,
        })
    }
}

/// One PDF to print: sheets of one class (worksheets or keys) into a file.
struct PdfJob<'a> {
    sheets: Vec<&'a Kept>,
    key: bool,
    pdf: PathBuf,
    /// Whether its fonts are checked (a student's own PDF is part of a booklet that was).
    check: bool,
}

/// Prints the PDFs: with a roster, the class booklets `worksheets.pdf` and
/// `keys/keys.pdf` (and each student's own with `--pdf-per-student`);
/// without, `worksheet.pdf` and `key.pdf` beside the other sheets. Returns
/// how many were written.
fn print_pdfs(
    job: &Job,
    browser: &Path,
    prints: &[Print<Kept>],
    spill: Spill,
    class: bool,
) -> Result<usize, UsageError> {
    let html: Vec<&[Kept; 2]> = prints.iter().filter_map(|p| p.html.as_ref()).collect();
    let mut jobs = Vec::new();
    for key in [false, true] {
        let k = key as usize;
        if class {
            jobs.push(PdfJob {
                sheets: html.iter().map(|h| &h[k]).collect(),
                key,
                pdf: booklet(job.stage, key, "pdf"),
                check: true,
            });
        }
        if !class || job.args.pdf_per_student {
            for (p, h) in prints.iter().zip(&html) {
                jobs.push(PdfJob {
                    sheets: vec![&h[k]],
                    key,
                    pdf: p.dirs[k].join(if key { "key.pdf" } else { "worksheet.pdf" }),
                    check: !class,
                });
            }
        }
    }
    // The HTML printed and the browser's profiles live here until printed.
    let work = job.stage.join(".print");
    let cannot = |path: &Path, e: std::io::Error| {
        UsageError(format!("{}: cannot write: {e}", path.display()))
    };
    std::fs::create_dir_all(&work).map_err(|e| cannot(&work, e))?;
    let mut pages = Vec::new();
    let glyphs = spill.glyphs().cloned().unwrap_or_default();
    let spilled = spill.finish()?;
    for (i, pdf_job) in jobs.iter().enumerate() {
        let page = work.join(format!("{i}.html"));
        let view = booklet_view(job, pdf_job.key, false, &[]);
        let mut own = spilled.write(job.renderer, "booklet.html", view, &pdf_job.sheets, &page)?;
        if pdf_job.check {
            own.extend(&glyphs);
            super::pdf::check_fonts(&own, &pdf_job.pdf)?;
        }
        pages.push(page);
    }
    spilled.remove()?;
    let numbered: Vec<usize> = (0..jobs.len()).collect();
    let printed = treequiz::parallel::map(&numbered, |&i| {
        super::pdf::print(
            browser,
            &pages[i],
            &jobs[i].pdf,
            &work.join(format!("profile-{i}")),
        )
    });
    printed
        .into_iter()
        .collect::<Result<Vec<()>, UsageError>>()?;
    std::fs::remove_dir_all(&work).map_err(|e| cannot(&work, e))?;
    Ok(jobs.len())
}

/// How the sheets and the manifest name the set: its path from the output
/// folder (`../problem-sets/demo.toml`) when both are inside the folder
/// treequiz runs in, else its file name alone. Never a path that names what
/// lies outside the teacher's working folder (an absolute path names their
/// home folder and user name on every sheet). `check` finds the set either
/// way: from the sheet's folder, or beside it and in the folders above.
fn set_as_seen_from(set: &Path, out: &Path) -> String {
    let name = set
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let here = std::env::current_dir()
        .ok()
        .and_then(|d| super::resolved(&d));
    let (Some(set), Some(out), Some(here)) = (super::resolved(set), super::resolved(out), here)
    else {
        return name;
    };
    let (Ok(set), Ok(out)) = (set.strip_prefix(&here), out.strip_prefix(&here)) else {
        return name;
    };
    let (set, out): (Vec<_>, Vec<_>) = (set.components().collect(), out.components().collect());
    let common = set.iter().zip(&out).take_while(|(a, b)| a == b).count();
    let mut relative: Vec<String> = vec!["..".to_string(); out.len() - common];
    relative.extend(
        set[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    // `/` on every system: the sheet is read wherever the student is.
    relative.join("/")
}

/// Variants made ahead of the one being written to the manifest: enough to
/// keep every core busy, few enough that memory does not grow with the class.
const WINDOW: usize = 64;

pub(crate) fn run(args: &Args) -> Result<String, UsageError> {
    let set = problem_set::load(&args.set).map_err(usage)?;
    super::warn(&set.warnings);
    if let Some(dir) = args.templates.as_ref().filter(|d| !d.is_dir()) {
        return Err(UsageError(format!(
            "--templates {} is not a folder; `treequiz templates export DIR` makes one",
            dir.display()
        )));
    }
    let (master, mode) = match (&args.secret, args.seed) {
        (Some(path), _) => (super::secret::load(path)?, Mode::Exam),
        (None, Some(seed)) => (Master::from_seed(seed), Mode::Practice(seed)),
        (None, None) => (Master::from_seed(set.seed), Mode::Practice(set.seed)),
    };
    let renderer = Renderer::new(args.templates.as_deref()).map_err(usage)?;
    let lang = match &args.lang {
        Some(code) => renderer.lang(code),
        None => renderer.set_lang(&set),
    }
    .map_err(usage)?;
    let students = match &args.roster {
        Some(path) => roster::load(
            path,
            &roster::Columns {
                id: args.id_column.clone(),
                name: args.name_column.clone(),
            },
        )
        .map_err(usage)?,
        None => roster::anonymous(args.variants.unwrap_or(0) as usize),
    };
    check_out(&args.out, args.force)?;
    let pdf = args.format.contains(&Format::Pdf);
    let browser = match (pdf, &args.browser) {
        (true, chosen) => Some(super::pdf::browser(chosen.as_deref())?),
        (false, Some(_)) => {
            return Err(UsageError(
                "--browser prints PDF: add pdf to --format (`--format pdf,html`)".into(),
            ));
        }
        (false, None) => None,
    };
    if args.pdf_per_student && !pdf {
        return Err(UsageError(
            "--pdf-per-student needs --format pdf (`--format pdf,html`)".into(),
        ));
    }
    if args.pdf_per_student && students.is_empty() {
        return Err(UsageError(
            "--pdf-per-student writes each student's PDFs beside a class's booklets: give a class (--roster FILE or --variants N), or leave it out: without a class, --format pdf writes worksheet.pdf and key.pdf".into(),
        ));
    }
    if args.on_paper && !(pdf || args.format.contains(&Format::Html)) {
        return Err(UsageError(
            "--on-paper lays out the HTML and PDF sheets for writing on (the Markdown and LaTeX sheets stay as they are): add html or pdf to --format (`--format pdf,html`)".into(),
        ));
    }
    if let (true, None, Mode::Practice(seed)) = (args.roster.is_some(), args.seed, mode) {
        // Practice sheets name their seed, so a student can check answers;
        // an explicit --seed says that is what the teacher wants.
        eprintln!(
            "warning: --roster without --secret makes practice sheets: each names the seed {seed}, from which anyone regenerates every variant and its key; for an exam, pass --secret FILE (`treequiz secret > exam.secret`), or --seed {seed} to say these are practice sheets"
        );
    }
    let failed = |e| question_error(&set, e);
    let ids = class_set::variant_ids(&set, &master, &students).map_err(failed)?;
    let plan = class_set::plan(&set, &master).map_err(failed)?;
    let who: Vec<(usize, Option<&Student>, &str)> = if students.is_empty() {
        vec![(0, None, ids[0].as_str())]
    } else {
        students
            .iter()
            .map(Some)
            .zip(ids.iter().map(String::as_str))
            .enumerate()
            .map(|(i, (s, id))| (i, s, id))
            .collect()
    };

    // Everything is written into a staging folder, which becomes --out only
    // when the set is complete: an error or an interruption leaves no partial
    // set. Variants are made, rendered and written on every core, a window of
    // them at a time, and reach the manifest in roster order.
    super::interrupt::install();
    // Before the staging folder exists: the output is named as the teacher gave it.
    let set_name = set_as_seen_from(&args.set, &args.out);
    let staging = Staging::new(&args.out).map_err(UsageError)?;
    // Interrupted, the half-built set (keys included) goes, as when dropped.
    let _staged = super::interrupt::remove_on_interrupt(staging.dir());
    let job = Job {
        args,
        set: &set,
        master: &master,
        plan: &plan,
        renderer: &renderer,
        lang: &lang,
        mode,
        stage: staging.dir(),
        pdf,
        set_name: &set_name,
    };
    // What only the teacher sees (every answer, the variants' measures) is
    // in `keys/` when the sheets are an exam's, beside the sheets in practice.
    let teacher = match mode {
        Mode::Exam => staging.dir().join("keys"),
        Mode::Practice(_) => staging.dir().to_path_buf(),
    };
    let manifest_path = teacher.join("manifest.json");
    let cannot_write =
        |e: std::io::Error| UsageError(format!("{}: cannot write: {e}", manifest_path.display()));
    std::fs::create_dir_all(&teacher).map_err(cannot_write)?;
    let file = std::fs::File::create(&manifest_path).map_err(cannot_write)?;
    let mut manifest = manifest::Writer::new(
        std::io::BufWriter::new(file),
        &set,
        &set_name,
        &lang.code,
        match mode {
            Mode::Practice(seed) => Some(seed),
            Mode::Exam => None,
        },
    )
    .map_err(cannot_write)?;
    let mut files = 1; // the manifest
    let mut moodle = args
        .format
        .contains(&Format::Moodle)
        .then(|| treequiz::moodle::Export::new(&set, &lang));
    let mut shown = Vec::new();
    let mut prints = Vec::new();
    // The booklets' sheets wait on disk, not in memory, until the class is done.
    let spill_dir = staging.dir().join(".spill");
    let mut spills = Spills::new(&job, &spill_dir, !students.is_empty())?;
    // What the variant report needs of each variant: its id and measures.
    let mut rows: Vec<treequiz::fair::Row> = Vec::new();
    treequiz::parallel::stream(
        &who,
        WINDOW,
        |&(index, student, id)| job.variant(index, student, id),
        |done| {
            let done = done?;
            // Each variant, in roster order, with its instances and keys: `done.variant`.
            manifest.push(&done.entry).map_err(cannot_write)?;
            if let Some(bank) = moodle.as_mut() {
                bank.push(&done.variant);
            }
            files += done.files;
            rows.push(treequiz::fair::Row {
                id: done.variant.id.clone(),
                exercises: done
                    .variant
                    .items
                    .iter()
                    .map(|i| i.measures.clone())
                    .collect(),
            });
            if shown.len() < 5 {
                shown.push(done.variant.id);
            }
            if let Some(print) = done.print {
                prints.push(spills.keep(print)?);
            }
            Ok::<(), UsageError>(())
        },
    )?;
    manifest.finish().map_err(cannot_write)?;
    // The question bank holds every answer: where the keys are.
    if let Some(bank) = moodle {
        for o in bank.omissions() {
            eprintln!(
                "note: moodle.xml leaves out question {}'s `{}` (treequiz grades it on the answer sheet): {}",
                o.number,
                o.field,
                o.why.why()
            );
        }
        let path = teacher.join("moodle.xml");
        std::fs::write(&path, bank.finish())
            .map_err(|e| UsageError(format!("{}: cannot write: {e}", path.display())))?;
        files += 1;
    }
    // Every variant is written. A class set's variant report, published with
    // the set: how much work each variant's exercises are.
    let report = (rows.len() > 1).then(|| treequiz::fair::report(&set, &plan, &rows, &lang));
    if let Some(text) = &report {
        let path = teacher.join("variant-report.md");
        std::fs::write(&path, text)
            .map_err(|e| UsageError(format!("{}: cannot write: {e}", path.display())))?;
        files += 1;
    }

    if let Some(spill) = spills.tex {
        let spilled = spill.finish()?;
        files += write_tex_booklets(&job, &prints, &spilled)?;
        spilled.remove()?;
    }
    if args.format.contains(&Format::Docx) && !students.is_empty() {
        files += write_docx_booklets(&job, &prints)?;
    }
    if let (Some(browser), Some(spill)) = (&browser, spills.html) {
        files += print_pdfs(&job, browser, &prints, spill, !students.is_empty())?;
    }
    std::fs::remove_dir(&spill_dir)
        .map_err(|e| UsageError(format!("{}: cannot remove: {e}", spill_dir.display())))?;

    // The set is complete in the staging folder: it becomes --out, in one
    // step, with the files treequiz did not write kept.
    let staging_dir = staging.dir().to_path_buf();
    let published = staging.publish(written_by_generate).map_err(UsageError)?;
    let kept = match published.kept.as_slice() {
        [] => String::new(),
        kept => {
            let shown: Vec<String> = kept
                .iter()
                .take(3)
                .map(|p| p.display().to_string())
                .collect();
            format!(
                "kept {} file{} that treequiz did not write: {}{}\n",
                kept.len(),
                if kept.len() == 1 { "" } else { "s" },
                shown.join(", "),
                if kept.len() > 3 { ", …" } else { "" }
            )
        }
    };
    let shown = if who.len() > shown.len() {
        format!("{}, …", shown.join(", "))
    } else {
        shown.join(", ")
    };
    Ok(format!(
        "wrote {files} files to {}: {} variant{} ({shown}), {} exercise{} each\n{}{kept}",
        args.out.display(),
        who.len(),
        if who.len() == 1 { "" } else { "s" },
        set.exercises.len(),
        if set.exercises.len() == 1 { "" } else { "s" },
        report
            .as_deref()
            .map(|r| {
                let at = teacher.join("variant-report.md");
                let at = at.strip_prefix(staging_dir).unwrap_or(&at);
                format!("{} ({})\n", treequiz::fair::evenness(r), at.display())
            })
            .unwrap_or_default(),
    ))
}
