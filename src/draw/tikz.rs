//! A [`Figure`] as a TikZ picture (coordinates in mm, y downwards).

use super::{Anchor, Figure, Item, Outline, Style, num};

fn style(style: Style) -> &'static str {
    match style {
        Style::Normal => "draw=black, line width=0.3mm",
        Style::Pruned => "draw=black!40, dashed, line width=0.3mm",
        Style::Cause => "draw=tqcause, line width=0.8mm",
        Style::Answer => "draw=tqanswer, line width=0.8mm",
        Style::Mark => "draw=tqmark, line width=0.5mm",
    }
}

fn color(style: Style) -> &'static str {
    match style {
        Style::Normal => "black",
        Style::Pruned => "black!40",
        Style::Cause => "tqcause",
        Style::Answer => "tqanswer",
        Style::Mark => "tqmark",
    }
}

/// Escapes the characters TeX treats specially, and writes ≤ ≥ in math.
pub fn tex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str(r"\textbackslash{}"),
            '{' | '}' | '$' | '&' | '#' | '_' | '%' => {
                out.push('\\');
                out.push(c);
            }
            '^' => out.push_str(r"\^{}"),
            '~' => out.push_str(r"\~{}"),
            '≤' => out.push_str(r"$\le$"),
            '≥' => out.push_str(r"$\ge$"),
            '∞' => out.push_str(r"$\infty$"),
            'α' => out.push_str(r"$\alpha$"),
            'β' => out.push_str(r"$\beta$"),
            '→' => out.push_str(r"$\to$"),
            '−' => out.push_str(r"$-$"),
            'Σ' => out.push_str(r"$\Sigma$"),
            'ᵢ' => out.push_str(r"$_i$"),
            _ => out.push(c),
        }
    }
    out
}

/// The figure as a `tikzpicture` (needs `\usepackage{tikz}` and the colours
/// `tqcause`, `tqanswer`, `tqmark`, which the built-in templates define).
pub fn to_tikz(figure: &Figure) -> String {
    let mut out = String::from("\\begin{tikzpicture}[x=1mm, y=-1mm]\n");
    for item in &figure.items {
        match item {
            Item::Node { x, y, w, h, outline, style: s } => {
                let (x0, y0, x1, y1) = (x - w / 2.0, y - h / 2.0, x + w / 2.0, y + h / 2.0);
                match outline {
                    Outline::Square => out.push_str(&format!("\\draw[{}] ({},{}) rectangle ({},{});\n", style(*s), num(x0), num(y0), num(x1), num(y1))),
                    Outline::Circle => out.push_str(&format!("\\draw[{}] ({},{}) circle[radius={}];\n", style(*s), num(*x), num(*y), num(w / 2.0))),
                    Outline::Box | Outline::DoubleBox => {
                        out.push_str(&format!("\\draw[{}, rounded corners=1.5mm] ({},{}) rectangle ({},{});\n", style(*s), num(x0), num(y0), num(x1), num(y1)));
                        if *outline == Outline::DoubleBox {
                            out.push_str(&format!(
                                "\\draw[{}, rounded corners=1mm] ({},{}) rectangle ({},{});\n",
                                style(*s),
                                num(x0 + 0.8),
                                num(y0 + 0.8),
                                num(x1 - 0.8),
                                num(y1 - 0.8)
                            ));
                        }
                    }
                }
            }
            Item::Line { x1, y1, x2, y2, style: s } => {
                out.push_str(&format!("\\draw[{}] ({},{}) -- ({},{});\n", style(*s), num(*x1), num(*y1), num(*x2), num(*y2)));
            }
            Item::Arc { cx, cy, r, a1, a2, style: s } => {
                // With y = -1mm, TikZ puts angle a at (cos a, sin a) downwards, as we do.
                let start = (cx + r * a1.to_radians().cos(), cy + r * a1.to_radians().sin());
                out.push_str(&format!(
                    "\\draw[{}] ({},{}) arc[start angle={}, end angle={}, radius={}];\n",
                    style(*s),
                    num(start.0),
                    num(start.1),
                    num(*a1),
                    num(*a2),
                    num(*r)
                ));
            }
            Item::Text { x, y, text, size, anchor, style: s } => {
                let anchor = match anchor {
                    Anchor::Middle => "",
                    Anchor::Start => ", anchor=west",
                };
                // Font size in pt from mm (1 mm = 2.845 pt), line spacing 1.2.
                let pt = size * 2.845;
                out.push_str(&format!(
                    "\\node[inner sep=0, text={}{anchor}, font=\\fontsize{{{}}}{{{}}}\\selectfont] at ({},{}) {{{}}};\n",
                    color(*s),
                    num(pt),
                    num(pt * 1.2),
                    num(*x),
                    num(*y),
                    tex_escape(text)
                ));
            }
        }
    }
    out.push_str("\\end{tikzpicture}");
    out
}
