//! Figures read at print size: the smallest text any shipped set's worksheet
//! or key prints, after the sheets scale the figure down to the page.
//!
//! HTML prints a figure at most 180 mm wide (the column) and 165 mm high (A4;
//! `templates/style.html`); LaTeX scales it to the line, 178 mm with 16 mm
//! margins. So a text of `size` mm in a figure `w` × `h` mm prints at
//! `size × min(1, 178 / w, 165 / h)` mm, 2.845 pt a mm.

use std::path::Path;

use crate::common::{generate, scratch, shipped_sets};

/// The smallest printed text the shipped sets may have, in pt
/// (docs/architecture.md, "Figures on paper").
const FLOOR_PT: f64 = 7.0;

/// The page's room for a figure, in mm: LaTeX's line, HTML's A4 height.
const ROOM: (f64, f64) = (178.0, 165.0);

/// One figure's smallest printed text: (pt, the text, the figure's size in mm).
struct Smallest {
    pt: f64,
    text: String,
    width: f64,
    height: f64,
}

fn mm(value: &str) -> f64 {
    value.trim_end_matches("mm").parse().unwrap()
}

/// Every figure of an HTML page, in page order, with its smallest printed text.
fn figures(html: &str) -> Vec<Smallest> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("<svg") {
        let end = start + rest[start..].find("</svg>").unwrap() + "</svg>".len();
        let svg = &rest[start..end];
        rest = &rest[end..];
        let doc = roxmltree::Document::parse(svg).unwrap();
        let root = doc.root_element();
        let (width, height) = (
            mm(root.attribute("width").unwrap()),
            mm(root.attribute("height").unwrap()),
        );
        let scale = 1f64.min(ROOM.0 / width).min(ROOM.1 / height);
        let smallest = root
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .map(|n| {
                let size: f64 = n.attribute("font-size").unwrap().parse().unwrap();
                (size, n.text().unwrap_or_default().to_string())
            })
            .min_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((size, text)) = smallest {
            out.push(Smallest {
                pt: size * scale * 2.845,
                text,
                width,
                height,
            });
        }
    }
    out
}

/// Every shipped set's worksheet and key: no figure prints text smaller than
/// [`FLOOR_PT`]. Prints the smallest of each figure (`--nocapture`).
#[test]
fn shipped_figures_print_text_at_least_the_floor() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut sets: Vec<_> = std::fs::read_dir(root.join("problem-sets"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    sets.sort();
    let mut smallest = f64::INFINITY;
    let mut too_small = Vec::new();
    for set in sets {
        let name = set.file_stem().unwrap().to_str().unwrap().to_string();
        let out = scratch(&format!("figures-{name}"));
        let (code, _, err) = generate(
            set.to_str().unwrap(),
            out.to_str().unwrap(),
            &["--format", "html"],
        );
        assert_eq!((code, err.as_str()), (0, ""), "{name}");
        for page in ["worksheet", "key"] {
            let html = std::fs::read_to_string(out.join(format!("{page}.html"))).unwrap();
            for (i, f) in figures(&html).iter().enumerate() {
                let line = format!(
                    "{name} {page} figure {}: {:.1} × {:.1} mm, smallest text {:?} at {:.1} pt",
                    i + 1,
                    f.width,
                    f.height,
                    f.text,
                    f.pt
                );
                println!("{line}");
                smallest = smallest.min(f.pt);
                if f.pt < FLOOR_PT {
                    too_small.push(line);
                }
            }
        }
        let _ = std::fs::remove_dir_all(&out);
    }
    println!("smallest printed text: {smallest:.1} pt");
    assert!(
        too_small.is_empty(),
        "figures print text under {FLOOR_PT} pt:\n{}",
        too_small.join("\n")
    );
}

/// The node boards of a tic-tac-toe key's figure: each one's frame side in
/// mm. A board is a node's outline (a square or a rounded box) with its
/// grid's first line next, inside it; a plain node has its name next.
fn node_boards(figure: &treequiz::draw::Figure) -> Vec<f64> {
    use treequiz::draw::{Item, Outline};
    figure
        .items
        .windows(2)
        .filter_map(|pair| match pair {
            [
                Item::Node {
                    x,
                    y,
                    w,
                    h,
                    outline: Outline::Square | Outline::Box,
                    ..
                },
                Item::Line { x1, y1, x2, y2, .. },
            ] => {
                let inside =
                    |px: f64, py: f64| (px - x).abs() < w / 2.0 && (py - y).abs() < h / 2.0;
                (inside(*x1, *y1) && inside(*x2, *y2)).then_some(*w)
            }
            _ => None,
        })
        .collect()
}

/// The shipped tic-tac-toe exercises' keys draw the search as Nilsson does,
/// a small board in the nodes, legible on A4: the opening search from the
/// empty board (12 leaves) a board in every node; the generated positions
/// (20 to 40 leaves, too many for boards side by side) a board in every
/// inner node, the leaves as named nodes. Cells at least 2.5 mm, texts at
/// least 2.6 mm, and the figure within the page's 170 mm and its margins.
#[test]
fn shipped_tictactoe_keys_draw_boards_in_the_nodes() {
    use treequiz::rng::Master;
    let renderer = treequiz::render::Renderer::new(None).unwrap();
    let mut keys = 0;
    for set_path in shipped_sets() {
        let set = treequiz::problem_set::load(&set_path).unwrap();
        let lang = renderer.lang(&set.language).unwrap();
        for seed in 0..10u64 {
            let variants = treequiz::class_set::build(&set, &Master::from_seed(seed), &[]).unwrap();
            for item in variants.iter().flat_map(|v| &v.items) {
                if item.exercise.kind.name != "tictactoe" {
                    continue;
                }
                let name = format!("{} seed {seed} q{}", set_path.display(), item.number);
                let figure = item
                    .exercise
                    .kind
                    .explain_key(
                        &item.instance,
                        &item.key,
                        &set.conventions,
                        &item.exercise.ask,
                        &lang,
                    )
                    .figure;
                let model = item.instance.model();
                let t = model.tree().unwrap();
                let inner = t.ids().filter(|&id| t.leaf(id).is_none()).count();
                let boards = node_boards(&figure);
                let opening = matches!(&item.instance, treequiz::instance::Instance::TicTacToe(g)
                    if g.board == treequiz::games::tictactoe::Board::empty());
                if opening {
                    assert_eq!(boards.len(), t.len(), "{name}: a board in every node");
                } else {
                    assert!(boards.len() >= inner, "{name}: {} boards", boards.len());
                }
                // A frame holds three cells and 0.6 mm on each side.
                for w in &boards {
                    assert!((w - 1.2) / 3.0 >= 2.5 - 1e-9, "{name}: a {w} mm board");
                }
                assert!(figure.width <= 174.0, "{name}: {} mm wide", figure.width);
                for item in &figure.items {
                    if let treequiz::draw::Item::Text { size, text, .. } = item {
                        assert!(*size >= 2.6, "{name}: {text:?} at {size} mm");
                    }
                }
                keys += 1;
            }
        }
    }
    assert!(keys >= 30, "{keys}");
}
