//! Sheets as Word documents (`generate --format docx`): the same
//! [`SheetView`]s as the HTML and LaTeX sheets, rendered through the
//! `docx-*.xml` templates into WordprocessingML and zipped with their
//! figures as PNG pictures.
//!
//! Same seed, same bytes: the figures are drawn by resvg with the bundled
//! font alone (never the system's), and every zip entry carries the same
//! fixed time.

use std::sync::{Arc, OnceLock};

use serde::Serialize;

use crate::render::{RenderError, Renderer};
use crate::view::{Paper, SheetView};

/// The font the figures' labels are drawn in: DejaVu Sans, cut down to
/// Latin, Greek, punctuation, arrows and mathematical operators (licence in
/// `fonts/LICENSE-DejaVu`). No figure holds Chinese: its text is node
/// labels, values and bounds.
const FONT: &[u8] = include_bytes!("../fonts/DejaVuSans-figures.ttf");

/// Pictures per inch: print resolution.
const DPI: f32 = 300.0;

/// EMU (the unit of DrawingML sizes) per millimetre.
const EMU_PER_MM: f64 = 36_000.0;

/// Twips (1/20 pt) per millimetre.
const TWIPS_PER_MM: f64 = 1440.0 / 25.4;

/// What can go wrong writing a document.
#[derive(Debug, thiserror::Error)]
pub enum DocxError {
    /// A template failed.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// A figure could not be drawn (a bug: figures are our own SVG).
    #[error("a figure could not be drawn as a picture: {0}")]
    Figure(String),
    /// A figure's labels hold characters the bundled font cannot draw.
    #[error(
        "{question}: its figure names nodes with {chars}, which the Word sheets' figures cannot draw (their built-in font has Latin, Greek and mathematical signs); name the nodes in Latin letters, or leave docx out of --format (the HTML, PDF and LaTeX sheets draw them)"
    )]
    Glyphs {
        /// The question's heading.
        question: String,
        /// The characters, each once, in the order met.
        chars: String,
    },
}

/// The page: size and margins in twips, as `w:pgSz` and `w:pgMar` take them.
#[derive(Clone, Copy, Serialize)]
struct PageView {
    width: u32,
    height: u32,
    margin_x: u32,
    margin_y: u32,
}

impl PageView {
    /// The margins are the HTML sheets' (14 mm top and bottom, 15 mm at the sides).
    fn of(paper: Paper) -> PageView {
        let (width, height) = match paper {
            Paper::A4 => (11906, 16838),
            Paper::Letter => (12240, 15840),
        };
        PageView {
            width,
            height,
            margin_x: twips(15.0),
            margin_y: twips(14.0),
        }
    }

    fn text_twips(self) -> u32 {
        self.width - 2 * self.margin_x
    }

    fn text_mm(self) -> f64 {
        f64::from(self.text_twips()) / TWIPS_PER_MM
    }
}

fn twips(mm: f64) -> u32 {
    (mm * TWIPS_PER_MM).round() as u32
}

/// One figure's picture as `docx-body.xml` places it.
#[derive(Serialize)]
struct PictureView {
    /// The relationship id its `a:blip` embeds (`rId1`, …).
    rid: String,
    /// Its `wp:docPr` id, unique in the document.
    id: usize,
    /// `Figure 3`.
    name: String,
    /// Width and height in EMU.
    cx: u64,
    cy: u64,
    /// The widths of its question's step-table columns, in twips (a key's).
    steps: Vec<u32>,
}

/// Column widths of the sheet's fixed tables, in twips.
#[derive(Serialize)]
struct GridView {
    text: u32,
    fields: [u32; 2],
    answers: [u32; 3],
}

#[derive(Serialize)]
struct BodyView<'a> {
    #[serde(flatten)]
    sheet: &'a SheetView<'a>,
    pictures: &'a [PictureView],
    grid: GridView,
}

/// One sheet rendered for a document: its body and its pictures.
pub struct Sheet {
    body: String,
    media: Vec<Media>,
}

/// A picture in `word/media/`, by the relationship id the body embeds it by.
#[derive(Serialize)]
struct Media {
    rid: String,
    file: String,
    #[serde(skip)]
    png: Vec<u8>,
}

/// Renders `view` (a worksheet or key) as a document's body on `paper`.
/// `index` is the sheet's place in its document (0 for a sheet of its own,
/// the roster's order in a booklet): it makes the pictures' ids unique in
/// the booklet.
pub fn sheet(
    renderer: &Renderer,
    view: &SheetView,
    paper: Paper,
    index: usize,
) -> Result<Sheet, DocxError> {
    let page = PageView::of(paper);
    let text = page.text_twips();
    let split = |fractions: &[f64]| -> Vec<u32> {
        let mut widths: Vec<u32> = fractions
            .iter()
            .map(|f| (f64::from(text) * f) as u32)
            .collect();
        // The last column takes what rounding left, so the grid is the table's width.
        let used: u32 = widths[..widths.len() - 1].iter().sum();
        *widths.last_mut().expect("a table has columns") = text - used;
        widths
    };
    let each = view.exercises.len();
    let mut media = Vec::with_capacity(each);
    let mut views = Vec::with_capacity(each);
    for (i, ex) in view.exercises.iter().enumerate() {
        let svg = match &ex.key {
            Some(key) if view.key => &key.figure_svg,
            _ => &ex.figure_svg,
        };
        let drawn =
            draw(svg, page.text_mm(), f64::from(view.paper.figure_mm)).map_err(|e| match e {
                DocxError::Glyphs { chars, .. } => DocxError::Glyphs {
                    question: ex.heading.clone(),
                    chars,
                },
                e => e,
            })?;
        let n = index * each + i + 1;
        let file = format!("figure{n}.png");
        let steps = match &ex.key {
            Some(key) if view.key && !key.table.rows.is_empty() => {
                // The row number narrow, the rest shared evenly.
                let columns = key.table.headers.len().max(1) as f64;
                let number = 0.06;
                let mut f = vec![number];
                f.extend(std::iter::repeat_n(
                    (1.0 - number) / columns,
                    columns as usize,
                ));
                split(&f)
            }
            _ => Vec::new(),
        };
        views.push(PictureView {
            rid: format!("rIdFigure{n}"),
            id: n,
            name: format!("Figure {n}"),
            cx: (drawn.width_mm * EMU_PER_MM).round() as u64,
            cy: (drawn.height_mm * EMU_PER_MM).round() as u64,
            steps,
        });
        media.push(Media {
            rid: format!("rIdFigure{n}"),
            file,
            png: drawn.png,
        });
    }
    let fields = split(&[0.28, 0.72]);
    let answers = split(&[0.2, 0.45, 0.35]);
    let body = renderer.render(
        "docx-body.xml",
        &BodyView {
            sheet: view,
            pictures: &views,
            grid: GridView {
                text,
                fields: [fields[0], fields[1]],
                answers: [answers[0], answers[1], answers[2]],
            },
        },
    )?;
    Ok(Sheet { body, media })
}

/// What `docx-document.xml` and `docx-styles.xml` see.
#[derive(Serialize)]
struct DocumentView<'a> {
    set: LangView<'a>,
    page: PageView,
    bodies: Vec<&'a str>,
}

#[derive(Serialize)]
struct LangView<'a> {
    language: &'a str,
    cjk: bool,
}

#[derive(Serialize)]
struct RelsView<'a> {
    pictures: Vec<&'a Media>,
}

/// The package's parts that never change: which part is the document and
/// what each part holds.
const CONTENT_TYPES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/><Override PartName="/word/footer1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml"/></Types>"#;

const PACKAGE_RELS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdDocument" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#;

/// A `.docx` of `sheets` (one, or a class's booklet), each from a new page,
/// on `paper`, in `language` (`cjk`: its text needs a CJK font).
pub fn document(
    renderer: &Renderer,
    sheets: &[&Sheet],
    paper: Paper,
    language: &str,
    cjk: bool,
) -> Result<Vec<u8>, DocxError> {
    let view = DocumentView {
        set: LangView { language, cjk },
        page: PageView::of(paper),
        bodies: sheets.iter().map(|s| s.body.as_str()).collect(),
    };
    let media: Vec<&Media> = sheets.iter().flat_map(|s| &s.media).collect();
    let rels = RelsView {
        pictures: media.clone(),
    };
    let parts: Vec<(String, Vec<u8>)> = [
        ("[Content_Types].xml".to_string(), CONTENT_TYPES.into()),
        ("_rels/.rels".to_string(), PACKAGE_RELS.into()),
        (
            "word/document.xml".to_string(),
            renderer.render("docx-document.xml", &view)?.into_bytes(),
        ),
        (
            "word/styles.xml".to_string(),
            renderer.render("docx-styles.xml", &view)?.into_bytes(),
        ),
        (
            "word/footer1.xml".to_string(),
            renderer.render("docx-footer.xml", &view)?.into_bytes(),
        ),
        (
            "word/_rels/document.xml.rels".to_string(),
            renderer.render("docx-rels.xml", &rels)?.into_bytes(),
        ),
    ]
    .into_iter()
    .chain(
        media
            .iter()
            .map(|m| (format!("word/media/{}", m.file), m.png.clone())),
    )
    .collect();
    Ok(crate::output::zip_of(&parts, &[]))
}

/// A figure drawn as a picture, and the size it prints at.
struct Drawn {
    png: Vec<u8>,
    width_mm: f64,
    height_mm: f64,
}

/// The figures' font, loaded once.
fn fonts() -> Arc<resvg::usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<resvg::usvg::fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = resvg::usvg::fontdb::Database::new();
            db.load_font_data(FONT.to_vec());
            // Whatever family the SVG asks for, the bundled font draws it.
            let family = db
                .faces()
                .next()
                .and_then(|f| f.families.first())
                .map(|(name, _)| name.clone())
                .expect("the bundled font has a family");
            db.set_sans_serif_family(&family);
            db.set_serif_family(&family);
            db.set_monospace_family(&family);
            Arc::new(db)
        })
        .clone()
}

/// `svg` as a PNG at [`DPI`] on white, and the size it prints at: its own,
/// made smaller to fit `max_width` and `max_height` (mm).
fn draw(svg: &str, max_width: f64, max_height: f64) -> Result<Drawn, DocxError> {
    let options = resvg::usvg::Options {
        fontdb: fonts(),
        font_family: "DejaVu Sans".into(),
        ..Default::default()
    };
    let tree =
        resvg::usvg::Tree::from_str(svg, &options).map_err(|e| DocxError::Figure(e.to_string()))?;
    // A missing glyph would leave a blank where a label belongs.
    let font = skrifa::FontRef::new(FONT).expect("the bundled font reads");
    let charmap = skrifa::MetadataProvider::charmap(&font);
    let mut missing = String::new();
    for c in texts(tree.root()).chars() {
        if !c.is_whitespace() && charmap.map(c).is_none() && !missing.contains(c) {
            missing.push(c);
        }
    }
    if !missing.is_empty() {
        return Err(DocxError::Glyphs {
            question: String::new(),
            chars: missing,
        });
    }
    // usvg sizes in CSS pixels, 96 to the inch.
    let size = tree.size();
    let (width_mm, height_mm) = (
        f64::from(size.width()) * 25.4 / 96.0,
        f64::from(size.height()) * 25.4 / 96.0,
    );
    let scale = DPI / 96.0;
    let (w, h) = (
        (size.width() * scale).ceil() as u32,
        (size.height() * scale).ceil() as u32,
    );
    let mut pixmap = resvg::tiny_skia::Pixmap::new(w.max(1), h.max(1))
        .ok_or_else(|| DocxError::Figure(format!("{w}×{h} pixels")))?;
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    let png = pixmap
        .encode_png()
        .map_err(|e| DocxError::Figure(e.to_string()))?;
    let fit = 1f64
        .min(max_width / width_mm.max(1.0))
        .min(max_height / height_mm.max(1.0));
    Ok(Drawn {
        png,
        width_mm: width_mm * fit,
        height_mm: height_mm * fit,
    })
}

/// Every text under `group`, run together.
fn texts(group: &resvg::usvg::Group) -> String {
    let mut out = String::new();
    for node in group.children() {
        match node {
            resvg::usvg::Node::Group(g) => out.push_str(&texts(g)),
            resvg::usvg::Node::Text(t) => {
                for chunk in t.chunks() {
                    out.push_str(chunk.text());
                }
            }
            _ => {}
        }
    }
    out
}
