//! A [`Figure`] as inline SVG.

use std::fmt::Write as _;

use super::{Anchor, Figure, Item, Num, Outline, Style, Target};

fn stroke(style: Style) -> &'static str {
    match style {
        Style::Normal => r##"stroke="#222" stroke-width="0.3" fill="none""##,
        Style::Pruned => {
            r##"stroke="#999" stroke-width="0.3" stroke-dasharray="1.2 0.8" fill="none""##
        }
        Style::Cause => r##"stroke="#1f5fbf" stroke-width="0.8" fill="none""##,
        Style::Answer => r##"stroke="#1b873f" stroke-width="0.8" fill="none""##,
        Style::Mark => r##"stroke="#c62828" stroke-width="0.5" fill="none""##,
        Style::Second => {
            r##"stroke="#1f5fbf" stroke-width="0.5" stroke-dasharray="1.6 1.2" fill="none""##
        }
    }
}

fn fill(style: Style) -> &'static str {
    match style {
        Style::Pruned => "#999",
        Style::Cause | Style::Second => "#1f5fbf",
        Style::Answer => "#1b873f",
        Style::Mark => "#c62828",
        Style::Normal => "#111",
    }
}

/// Text for an SVG element: `&`, `<` and `>` escaped (attributes hold no text of ours).
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The figure as an `<svg>` element, `width` in mm so it prints at its size.
pub fn to_svg(figure: &Figure) -> String {
    let mut out = drawing(figure);
    out.push_str("</svg>");
    out
}

/// The figure with its [`Target`]s as invisible shapes a page can listen to:
/// `class="target"`, `data-label` (the answer sheet's name), `data-pick`.
/// Edges come first, so a node's box lies over the ends of its edges.
pub fn to_svg_with_targets(figure: &Figure) -> String {
    let mut out = drawing(figure);
    out.push_str(r#"<g class="targets" fill="transparent" stroke="transparent">"#);
    out.push('\n');
    let (lines, boxes): (Vec<&Target>, Vec<&Target>) = figure.targets.iter().partition(|t| t.line);
    for t in lines.into_iter().chain(boxes) {
        let data = format!(
            r#"class="target" data-label="{}" data-pick="{}""#,
            escape(&t.label).replace('"', "&quot;"),
            t.pick.name()
        );
        let _ = if t.line {
            write!(
                out,
                r#"<line {data} x1="{}" y1="{}" x2="{}" y2="{}" stroke-width="3"/>"#,
                Num(t.x),
                Num(t.y),
                Num(t.w),
                Num(t.h)
            )
        } else {
            write!(
                out,
                r#"<rect {data} x="{}" y="{}" width="{}" height="{}"/>"#,
                Num(t.x - t.w / 2.0),
                Num(t.y - t.h / 2.0),
                Num(t.w),
                Num(t.h)
            )
        };
        out.push('\n');
    }
    out.push_str("</g></svg>");
    out
}

/// The opening tag and every primitive, without the closing tag.
fn drawing(figure: &Figure) -> String {
    let mut out = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="figure" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}" font-family="Helvetica, Arial, 'Noto Sans CJK SC', sans-serif">"#,
        w = Num(figure.width),
        h = Num(figure.height)
    );
    out.push('\n');
    for item in &figure.items {
        match item {
            Item::Node {
                x,
                y,
                w,
                h,
                outline,
                style,
            } => {
                let (x0, y0) = (x - w / 2.0, y - h / 2.0);
                let rect = |inset: f64, rx: f64| {
                    format!(
                        r#"<rect x="{}" y="{}" width="{}" height="{}" rx="{}" {}/>"#,
                        Num(x0 + inset),
                        Num(y0 + inset),
                        Num(w - 2.0 * inset),
                        Num(h - 2.0 * inset),
                        Num(rx),
                        stroke(*style)
                    )
                };
                match outline {
                    Outline::Square => out.push_str(&rect(0.0, 0.0)),
                    Outline::Circle => {
                        let _ = write!(
                            out,
                            r#"<circle cx="{}" cy="{}" r="{}" {}/>"#,
                            Num(*x),
                            Num(*y),
                            Num(w / 2.0),
                            stroke(*style)
                        );
                    }
                    Outline::BlackDisc | Outline::WhiteDisc => {
                        let colour = if *outline == Outline::BlackDisc {
                            "#111"
                        } else {
                            "#fff"
                        };
                        let _ = write!(
                            out,
                            r##"<circle cx="{}" cy="{}" r="{}" stroke="#111" stroke-width="0.3" fill="{colour}"/>"##,
                            Num(*x),
                            Num(*y),
                            Num(w / 2.0)
                        );
                    }
                    Outline::Diamond => {
                        let _ = write!(
                            out,
                            r#"<polygon points="{},{} {},{} {},{} {},{}" {}/>"#,
                            Num(*x),
                            Num(y0),
                            Num(x0 + w),
                            Num(*y),
                            Num(*x),
                            Num(y0 + h),
                            Num(x0),
                            Num(*y),
                            stroke(*style)
                        );
                    }
                    Outline::Box => out.push_str(&rect(0.0, 1.5)),
                    Outline::DoubleBox => {
                        out.push_str(&rect(0.0, 1.5));
                        out.push_str(&rect(0.8, 1.0));
                    }
                }
            }
            Item::Line {
                x1,
                y1,
                x2,
                y2,
                style,
            } => {
                let _ = write!(
                    out,
                    r#"<line x1="{}" y1="{}" x2="{}" y2="{}" {}/>"#,
                    Num(*x1),
                    Num(*y1),
                    Num(*x2),
                    Num(*y2),
                    stroke(*style)
                );
            }
            Item::Arc {
                cx,
                cy,
                r,
                a1,
                a2,
                style,
            } => {
                let point = |a: f64| (cx + r * a.to_radians().cos(), cy + r * a.to_radians().sin());
                let ((sx, sy), (ex, ey)) = (point(*a1), point(*a2));
                let large = if (a2 - a1).abs() > 180.0 { 1 } else { 0 };
                let _ = write!(
                    out,
                    r#"<path d="M {} {} A {} {} 0 {large} 1 {} {}" {}/>"#,
                    Num(sx),
                    Num(sy),
                    Num(*r),
                    Num(*r),
                    Num(ex),
                    Num(ey),
                    stroke(*style)
                );
            }
            Item::Text {
                x,
                y,
                text,
                size,
                anchor,
                style,
                halo,
            } => {
                let anchor = match anchor {
                    Anchor::Middle => "middle",
                    Anchor::Start => "start",
                    Anchor::End => "end",
                };
                // A white outline painted under the letters keeps lines off them.
                let halo = if *halo {
                    r##" stroke="#fff" stroke-width="0.8" stroke-linejoin="round" paint-order="stroke""##
                } else {
                    ""
                };
                let _ = write!(
                    out,
                    r#"<text x="{}" y="{}" font-size="{}" text-anchor="{anchor}" dominant-baseline="central" fill="{}"{halo}>{}</text>"#,
                    Num(*x),
                    Num(*y),
                    Num(*size),
                    fill(*style),
                    escape(text)
                );
            }
        }
        out.push('\n');
    }
    out
}
