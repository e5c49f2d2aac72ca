//! A [`Figure`] as a TikZ picture (coordinates in mm, y downwards).

use std::fmt::Write as _;

use super::{Anchor, Figure, Item, Num, Outline, Style};

fn style(style: Style) -> &'static str {
    match style {
        Style::Normal => "draw=black, line width=0.3mm",
        Style::Pruned => "draw=black!40, dashed, line width=0.3mm",
        Style::Cause => "draw=tqcause, line width=0.8mm",
        Style::Answer => "draw=tqanswer, line width=0.8mm",
        Style::Mark => "draw=tqmark, line width=0.5mm",
        Style::Second => "draw=tqcause, dashed, line width=0.5mm",
    }
}

fn color(style: Style) -> &'static str {
    match style {
        Style::Normal => "black",
        Style::Pruned => "black!40",
        Style::Cause | Style::Second => "tqcause",
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
            Item::Node {
                x,
                y,
                w,
                h,
                outline,
                style: s,
            } => {
                let (x0, y0, x1, y1) = (x - w / 2.0, y - h / 2.0, x + w / 2.0, y + h / 2.0);
                match outline {
                    Outline::Square => {
                        let _ = writeln!(
                            out,
                            "\\draw[{}] ({},{}) rectangle ({},{});",
                            style(*s),
                            Num(x0),
                            Num(y0),
                            Num(x1),
                            Num(y1)
                        );
                    }
                    Outline::Circle => {
                        let _ = writeln!(
                            out,
                            "\\draw[{}] ({},{}) circle[radius={}];",
                            style(*s),
                            Num(*x),
                            Num(*y),
                            Num(w / 2.0)
                        );
                    }
                    Outline::BlackDisc | Outline::WhiteDisc => {
                        let colour = if *outline == Outline::BlackDisc {
                            "black"
                        } else {
                            "white"
                        };
                        let _ = writeln!(
                            out,
                            "\\filldraw[fill={colour}, draw=black, line width=0.3mm] ({},{}) circle[radius={}];",
                            Num(*x),
                            Num(*y),
                            Num(w / 2.0)
                        );
                    }
                    Outline::Diamond => {
                        let _ = writeln!(
                            out,
                            "\\draw[{}] ({},{}) -- ({},{}) -- ({},{}) -- ({},{}) -- cycle;",
                            style(*s),
                            Num(*x),
                            Num(y0),
                            Num(x1),
                            Num(*y),
                            Num(*x),
                            Num(y1),
                            Num(x0),
                            Num(*y)
                        );
                    }
                    Outline::Box | Outline::DoubleBox => {
                        let _ = writeln!(
                            out,
                            "\\draw[{}, rounded corners=1.5mm] ({},{}) rectangle ({},{});",
                            style(*s),
                            Num(x0),
                            Num(y0),
                            Num(x1),
                            Num(y1)
                        );
                        if *outline == Outline::DoubleBox {
                            let _ = writeln!(
                                out,
                                "\\draw[{}, rounded corners=1mm] ({},{}) rectangle ({},{});",
                                style(*s),
                                Num(x0 + 0.8),
                                Num(y0 + 0.8),
                                Num(x1 - 0.8),
                                Num(y1 - 0.8)
                            );
                        }
                    }
                }
            }
            Item::Line {
                x1,
                y1,
                x2,
                y2,
                style: s,
            } => {
                let _ = writeln!(
                    out,
                    "\\draw[{}] ({},{}) -- ({},{});",
                    style(*s),
                    Num(*x1),
                    Num(*y1),
                    Num(*x2),
                    Num(*y2)
                );
            }
            Item::Arc {
                cx,
                cy,
                r,
                a1,
                a2,
                style: s,
            } => {
                // With y = -1mm, TikZ puts angle a at (cos a, sin a) downwards, as we do.
                let start = (
                    cx + r * a1.to_radians().cos(),
                    cy + r * a1.to_radians().sin(),
                );
                let _ = writeln!(
                    out,
                    "\\draw[{}] ({},{}) arc[start angle={}, end angle={}, radius={}];",
                    style(*s),
                    Num(start.0),
                    Num(start.1),
                    Num(*a1),
                    Num(*a2),
                    Num(*r)
                );
            }
            Item::Text {
                x,
                y,
                text,
                size,
                anchor,
                style: s,
                halo,
            } => {
                let anchor = match anchor {
                    Anchor::Middle => "",
                    Anchor::Start => ", anchor=west",
                    Anchor::End => ", anchor=east",
                };
                // As the SVG's white outline: a white box under the text.
                let halo = if *halo { ", fill=white" } else { "" };
                // Font size in pt from mm (1 mm = 2.845 pt), line spacing 1.2.
                let pt = size * 2.845;
                let _ = writeln!(
                    out,
                    "\\node[inner sep=0, text={}{anchor}{halo}, font=\\fontsize{{{}}}{{{}}}\\selectfont] at ({},{}) {{{}}};",
                    color(*s),
                    Num(pt),
                    Num(pt * 1.2),
                    Num(*x),
                    Num(*y),
                    tex_escape(text)
                );
            }
        }
    }
    out.push_str("\\end{tikzpicture}");
    out
}
