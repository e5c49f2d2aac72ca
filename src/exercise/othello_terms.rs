//! `othello-terms`: the terms of an Othello position the course notes teach
//! beside the square weights, counted for each side: stable discs by rule S
//! (稳定子), frontier discs (边缘子), current and potential mobility (行动力),
//! the empty squares and their regions (奇偶性), and e(P) with the weights
//! the teacher gives them.

use super::Figures;
use super::{
    Answer, Context, Conventions, Domain, Explained, Family, Field, Instance, Key, KindDef, Limit,
    Shape, Table, Trace, lookahead,
};
use crate::games::othello::{Board, Othello, Side, Terms, square_name};
use crate::lang::Lang;
use crate::value::Value;

const fn count(name: &'static str) -> Field {
    Field::new(name, Shape::Value).within(Domain::Counts)
}

const EMPTY_REGIONS: super::Measure = super::Measure::new("empty_regions");
const STABLE_DISCS: super::Measure = super::Measure::new("stable_discs");

pub(super) static KIND: KindDef = KindDef {
    name: "othello-terms",
    family: Family::Othello,
    fields: &[
        count("stable_max"),
        count("stable_min"),
        count("frontier_max"),
        count("frontier_min"),
        count("mobility_max"),
        count("mobility_min"),
        count("potential_max"),
        count("potential_min"),
        count("empty"),
        count("regions"),
        count("odd_regions"),
        lookahead::EVAL,
    ],
    solver: super::Solver::OthelloTerms,
    solve,
    explain,
    teach: super::plain,
    unusable: |_| None,
    conventions,
    // Not `stable` or `regions`: those keys are the weight and the connectivity.
    measures: &[
        super::Measure::new("discs"),
        STABLE_DISCS,
        super::Measure::new("frontier_discs"),
        EMPTY_REGIONS,
        super::Measure::new("odd_empty_regions"),
    ],
    measure,
    point,
    replay: super::no_replay,
    hints: super::no_hints,
    budgets: super::Budgets::NONE,
    sizes: super::Sizes {
        small: "plies = \"44..50\"",
        medium: "plies = \"34..42\"\nstable = 10\nfrontier = -1",
        large: "plies = \"24..32\"\nstable = 10\nfrontier = -1\npotential = 2\nregions = 4",
    },
};

fn game(instance: &Instance) -> &Othello {
    match instance {
        Instance::Othello(g) => g,
        _ => unreachable!("the problem set checks the family"),
    }
}

/// MAX's and MIN's count of a set of squares.
fn split(board: &Board, max: Side, bits: u64) -> (u64, u64) {
    let of = |side: Side| {
        (0..64)
            .filter(|&s| bits & (1 << s) != 0 && board.get(s) == Some(side))
            .count() as u64
    };
    (of(max), of(max.other()))
}

fn solve(instance: &Instance, _: &Conventions) -> Key {
    let g = game(instance);
    let (b, max, min) = (&g.board, g.to_move, g.to_move.other());
    let terms = Terms::of(b, g.regions);
    let (stable_max, stable_min) = split(b, max, terms.stable);
    let (frontier_max, frontier_min) = split(b, max, terms.frontier);
    let empty = 64 - u64::from(b.count(max) + b.count(min));
    let n = |v: u64| Answer::Value(Value::Finite(v as i64));
    Key::new(
        vec![
            ("stable_max", n(stable_max)),
            ("stable_min", n(stable_min)),
            ("frontier_max", n(frontier_max)),
            ("frontier_min", n(frontier_min)),
            ("mobility_max", n(u64::from(b.mobility(max)))),
            ("mobility_min", n(u64::from(b.mobility(min)))),
            ("potential_max", n(u64::from(b.potential_mobility(max)))),
            ("potential_min", n(u64::from(b.potential_mobility(min)))),
            ("empty", n(empty)),
            ("regions", n(terms.regions.len() as u64)),
            ("odd_regions", n(terms.odd_regions() as u64)),
            ("eval", Answer::Value(Value::Finite(g.eval()))),
        ],
        Trace::OthelloTerms(terms),
    )
}

fn terms<'a>(ctx: &'a Context<'_>) -> &'a Terms {
    match &ctx.key.trace {
        Trace::OthelloTerms(t) => t,
        _ => unreachable!("an othello-terms key"),
    }
}

/// The squares of a bit set held by `side` (or empty, `None`), named.
fn names(board: &Board, bits: u64, side: Option<Side>) -> Vec<String> {
    (0..64)
        .filter(|&s| bits & (1 << s) != 0 && board.get(s) == side)
        .map(square_name)
        .collect()
}

fn explain(ctx: &Context<'_>, _: &[&str], lang: &Lang, figures: Figures) -> Explained {
    let g = game(ctx.instance);
    let t = terms(ctx);
    let (b, max, min) = (&g.board, g.to_move, g.to_move.other());
    let p = b.eval_parts(max, &g.weights);
    let listed = |bits: u64| {
        let side = |s: Side| {
            let n = names(b, bits, Some(s));
            if n.is_empty() {
                format!("{} —", s.letter())
            } else {
                format!("{} {}", s.letter(), n.join(", "))
            }
        };
        format!("{}; {}", side(max), side(min))
    };
    // A row per term: MAX's count, MIN's, the weight and what it adds to e(P).
    let row = |key: &str, (a, c): (i64, i64), weight: i64| {
        vec![
            lang.get(key).to_string(),
            a.to_string(),
            c.to_string(),
            weight.to_string(),
            (weight * (a - c)).to_string(),
        ]
    };
    let mut rows = vec![vec![
        lang.get("table.term_squares").to_string(),
        p.squares_max.to_string(),
        p.squares_min.to_string(),
        "1".to_string(),
        (p.squares_max - p.squares_min).to_string(),
    ]];
    for term in super::othello::terms(&g.weights) {
        rows.push(row(term.name, term.counts(&p), term.weight));
    }
    let eval_text = if p.finished {
        super::othello::finished_text(&p, &g.weights, lang)
    } else {
        String::new()
    };
    rows.push(vec![
        lang.get("table.eval").to_string(),
        String::new(),
        String::new(),
        eval_text,
        p.total.to_string(),
    ]);
    let table = Table {
        headers: vec![
            lang.get("table.term").to_string(),
            format!("MAX ({})", max.letter()),
            format!("MIN ({})", min.letter()),
            lang.get("table.weight").to_string(),
            lang.get("table.contribution").to_string(),
        ],
        rows,
    };
    let empty = 64 - (p.discs_max + p.discs_min);
    let last = if empty % 2 == 1 { max } else { min };
    let regions: Vec<String> = t
        .regions
        .iter()
        .map(|&r| {
            let squares = names(b, r, None);
            format!("{} ({})", squares.join(" "), squares.len())
        })
        .collect();
    let interior = |s: Side| b.count(s) as usize - names(b, t.frontier, Some(s)).len();
    let notes = vec![
        lang.fill("note.terms_stable", &[("discs", &listed(t.stable))]),
        lang.fill(
            "note.terms_frontier",
            &[
                ("discs", &listed(t.frontier)),
                ("max", &max.letter().to_string()),
                ("min", &min.letter().to_string()),
                ("interior_max", &interior(max).to_string()),
                ("interior_min", &interior(min).to_string()),
            ],
        ),
        lang.fill(
            "note.terms_mobility",
            &[
                ("max", &max.letter().to_string()),
                ("min", &min.letter().to_string()),
                ("moves_max", &names(b, legal_bits(b, max), None).join(", ")),
                ("moves_min", &names(b, legal_bits(b, min), None).join(", ")),
                (
                    "potential_max",
                    &names(b, b.potential_bits(max), None).join(", "),
                ),
                (
                    "potential_min",
                    &names(b, b.potential_bits(min), None).join(", "),
                ),
            ],
        ),
        lang.fill(
            "note.terms_parity",
            &[
                ("empty", &empty.to_string()),
                ("last", &last.letter().to_string()),
                ("connectivity", &g.regions.to_string()),
                ("count", &t.regions.len().to_string()),
                ("regions", &regions.join("; ")),
                ("odd", &t.odd_regions().to_string()),
            ],
        ),
    ];
    Explained {
        figure: figures.draw(|| crate::draw::othello_terms_boards(b, t)),
        table,
        notes,
    }
}

/// `side`'s legal moves as a bit set.
fn legal_bits(b: &Board, side: Side) -> u64 {
    b.moves(side).iter().fold(0, |acc, (m, _)| acc | (1 << m))
}

fn conventions(instance: &Instance, _: &Conventions, _: &[&str], lang: &Lang) -> Vec<String> {
    let g = game(instance);
    let mut lines = super::othello::eval_conventions(g, lang);
    lines.splice(
        1..1,
        [
            lang.get("convention.terms_stable").to_string(),
            lang.get("convention.terms_frontier").to_string(),
            lang.get("convention.terms_mobility").to_string(),
            lang.fill(
                "convention.terms_regions",
                &[("connectivity", &g.regions.to_string())],
            ),
        ],
    );
    lines.push(super::othello::finished_convention(&g.weights, lang));
    lines
}

fn measure(ctx: &Context<'_>) -> Vec<u64> {
    let g = game(ctx.instance);
    let t = terms(ctx);
    let b = &g.board;
    let discs = u64::from(b.count(Side::Black) + b.count(Side::White));
    vec![
        discs,
        u64::from(t.stable.count_ones()),
        u64::from(t.frontier.count_ones()),
        t.regions.len() as u64,
        t.odd_regions() as u64,
    ]
}

/// Stable discs to count when they are asked (none is no exercise), and
/// more than one region when regions are.
fn point(asked: &[&str]) -> Vec<Limit> {
    let mut out = Vec::new();
    if asked.iter().any(|f| f.starts_with("stable")) {
        out.push(Limit::at_least(STABLE_DISCS, 2));
    }
    if asked.iter().any(|f| f.ends_with("regions")) {
        out.push(Limit::at_least(EMPTY_REGIONS, 2));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::board::random_position;
    use crate::games::othello::terms::tests::{Rng, grid, naive_regions, naive_stable, neighbours};

    /// The key against the terms counted on a plain grid, over 2,000 random
    /// positions, both sides to move, both connectivities, and e(P) against
    /// its terms added by hand.
    #[test]
    fn keys_agree_with_counts_on_a_grid() {
        let mut rng = Rng(0x0DDB_1A5E_5BAD_5EED);
        for i in 0..2000u32 {
            let (board, to_move) = random_position(i % 61, &mut |n| rng.below(n));
            let weights = crate::games::othello::Weights {
                mobility: 3,
                frontier: -2,
                stable: 7,
                potential: 1,
                ..Default::default()
            };
            let regions = if i % 2 == 0 { 8 } else { 4 };
            let instance = Instance::Othello(Box::new(Othello {
                board,
                to_move,
                horizon: crate::games::lookahead::Horizon::Depth(1),
                weights: weights.clone(),
                regions,
            }));
            let key = solve(&instance, &Conventions::default());
            let got = |f: &str| match key.answer(f) {
                Some(Answer::Value(Value::Finite(v))) => *v,
                other => panic!("{f}: {other:?}"),
            };
            let g = grid(&board);
            let stable = naive_stable(&g);
            let (max, min) = (to_move, to_move.other());
            let mut counts = std::collections::HashMap::new();
            for r in 0..8i32 {
                for c in 0..8i32 {
                    let here = g[r as usize][c as usize];
                    let near = |what| neighbours(r, c).any(|(rr, cc)| g[rr][cc] == what);
                    for (side, tag) in [(max, "max"), (min, "min")] {
                        let mut add =
                            |name: &str| *counts.entry(format!("{name}_{tag}")).or_insert(0) += 1;
                        if here == Some(side) && stable[r as usize][c as usize] {
                            add("stable");
                        }
                        if here == Some(side) && near(None) {
                            add("frontier");
                        }
                        if here.is_none() && near(Some(side.other())) {
                            add("potential");
                        }
                    }
                }
            }
            for f in ["stable", "frontier", "potential"] {
                for tag in ["max", "min"] {
                    let name = format!("{f}_{tag}");
                    assert_eq!(
                        got(&name),
                        *counts.get(&name).unwrap_or(&0),
                        "{board} {name}"
                    );
                }
            }
            let moves = |s: Side| board.moves(s).len() as i64;
            assert_eq!(got("mobility_max"), moves(max));
            assert_eq!(got("mobility_min"), moves(min));
            let sizes = naive_regions(&g, regions == 8);
            assert_eq!(got("empty"), sizes.iter().sum::<usize>() as i64);
            assert_eq!(got("regions"), sizes.len() as i64);
            assert_eq!(
                got("odd_regions"),
                sizes.iter().filter(|&&n| n % 2 == 1).count() as i64
            );
            // e(P) by hand: squares, then each term's difference times its weight.
            let squares = |s: Side| -> i64 {
                (0..64)
                    .filter(|&q| board.get(q) == Some(s))
                    .map(|q| weights.squares[q])
                    .sum()
            };
            let diff = |f: &str| {
                counts.get(&format!("{f}_max")).unwrap_or(&0)
                    - counts.get(&format!("{f}_min")).unwrap_or(&0)
            };
            let finished = moves(max) == 0 && moves(min) == 0;
            let want = if finished {
                let diff = i64::from(board.count(max)) - i64::from(board.count(min));
                match diff.cmp(&0) {
                    std::cmp::Ordering::Greater => weights.inf() + diff,
                    std::cmp::Ordering::Less => diff - weights.inf(),
                    std::cmp::Ordering::Equal => 0,
                }
            } else {
                squares(max) - squares(min) + 3 * (moves(max) - moves(min)) - 2 * diff("frontier")
                    + 7 * diff("stable")
                    + diff("potential")
            };
            assert_eq!(got("eval"), want, "{board}");
        }
    }
}
