//! `ao-star`: AO* cycle by cycle: the expansion order, the cost, the solution graph.

use super::Figures;
use super::{
    Answer, Context, Explained, Family, Field, Frame, Hint, Item, Key, KindDef, Mistake, Shape,
    Table, Trace, any_instance, graph, instance_graph, plain,
};
use crate::andor::{Outcome, ao_star};
use crate::draw::{GraphMarks, graph_figure};
use crate::instance::Instance;
use crate::lang::Lang;
use crate::reason::{Phrase, Reason};

const EXPANSIONS: super::Measure = super::Measure::new("expansions");
const SOLUTION_DEPTH: super::Measure = super::Measure::new("solution_depth");

pub(super) static KIND: KindDef = KindDef {
    name: "ao-star",
    family: Family::AndOr,
    fields: &[
        Field::new("expanded", Shape::Sequence),
        Field::new("cost", Shape::Cost),
        Field::new("solution", Shape::Connectors),
    ],
    solver: super::Solver::AoStar,
    solve,
    explain,
    teach,
    unusable: any_instance,
    conventions,
    measures: &[
        EXPANSIONS,
        super::Measure::new("switches"),
        super::Measure::new("revisions"),
        SOLUTION_DEPTH,
    ],
    measure,
    point,
    replay,
    hints,
    budgets: super::Budgets::NONE,
    sizes: super::Sizes {
        small: "depth = 2\nnodes = \"7..14\"\nalternatives = \"1..2\"\narity = \"1..2\"\ncost = \"sum\"\nmin_expansions = 2\nunique = true",
        medium: "depth = 3\nnodes = \"10..22\"\nalternatives = \"1..2\"\narity = \"1..2\"\ncost = \"sum\"\nmin_switches = 1\nunique = true",
        large: "depth = 4\nnodes = \"16..30\"\nalternatives = \"1..2\"\narity = \"1..2\"\ncost = \"sum\"\nmin_expansions = 5\nmin_switches = 1\nunique = true",
    },
};

/// AO* may take this many steps on any graph (about a second)…
pub const MIN_STEPS: u64 = 50_000_000;
/// …or this many per node, connector and arc, if that is more: the work stays
/// linear in the graph's size. Past it the run ends as `TooLong` (`solve`
/// refuses the graph). Revisions grow as depth × nodes, so a bound on them
/// alone would let a deep graph run for hours.
pub const STEPS_PER_ITEM: u64 = 16;
/// The trace a key keeps, in revisions and the connector costs they record (a
/// few MB as JSON): a generated exercise's run takes far fewer; a longer one
/// (a 400-node chain takes 160,000) keeps its first cycles.
pub(super) const MAX_TRACED: usize = 50_000;

/// The step budget of AO* on `g`: [`MIN_STEPS`], or [`STEPS_PER_ITEM`] per
/// node, connector and arc.
pub fn max_steps(g: &crate::andor::Graph) -> u64 {
    let arcs: usize = g.connectors().iter().map(|c| c.to.len()).sum();
    let items = (g.len() + g.connectors().len() + arcs) as u64;
    MIN_STEPS.max(STEPS_PER_ITEM.saturating_mul(items))
}

fn solve(instance: &Instance, conventions: &super::Conventions) -> Key {
    let g = instance_graph(instance);
    let options = crate::andor::ao_star::Options {
        model: None,
        futility: conventions.ao_futility,
        max_steps: Some(max_steps(g)),
        max_traced: Some(MAX_TRACED),
    };
    let run = ao_star(g, options);
    Key::new(
        vec![
            (
                "expanded",
                Answer::Sequence(run.expanded.iter().map(|n| Item::Node(n.0)).collect()),
            ),
            ("cost", Answer::Cost(run.cost)),
            (
                "solution",
                Answer::Set(run.solution.iter().map(|c| Item::Connector(c.0)).collect()),
            ),
        ],
        Trace::AoStar(run),
    )
}

fn run<'a>(ctx: &'a Context<'_>) -> &'a crate::andor::AoStar {
    match &ctx.key.trace {
        Trace::AoStar(run) => run,
        _ => unreachable!("an AO* key"),
    }
}

/// AO* cycle by cycle, one frame per row of the explanation's table: the
/// tip expanded; every node's cost so far (its h when it enters the
/// explicit graph, then each revision), SOLVED ones ticked; the connectors
/// marked after the cycle.
fn replay(ctx: &Context<'_>) -> Vec<Frame> {
    let g = graph(ctx);
    let run = run(ctx);
    let mut cost: Vec<Option<String>> = vec![None; g.len()];
    let mut solved = vec![false; g.len()];
    let mut marked = vec![None; g.len()];
    cost[g.start().index()] = Some(g.node(g.start()).h.to_string());
    run.cycles
        .iter()
        .map(|cy| {
            for &n in &cy.generated {
                cost[n.index()] = Some(g.node(n).h.to_string());
            }
            for r in &cy.revised {
                cost[r.node.index()] = Some(r.new.to_string());
                marked[r.node.index()] = r.marked;
            }
            for &n in &cy.solved {
                solved[n.index()] = true;
            }
            Frame {
                focus: vec![g.label(cy.expanded).to_string()],
                values: g
                    .ids()
                    .filter_map(|n| {
                        let c = cost[n.index()].as_ref()?;
                        let tick = if solved[n.index()] { " ✓" } else { "" };
                        Some((g.label(n).to_string(), format!("{c}{tick}")))
                    })
                    .collect(),
                marked: marked
                    .iter()
                    .flatten()
                    .map(|&c| g.connector_name(c))
                    .collect(),
                ..Frame::default()
            }
        })
        .collect()
}

fn teach(ctx: &Context<'_>, field: &str, mistake: Mistake<'_>, hide: bool) -> Vec<Reason> {
    match (field, mistake) {
        ("expanded", Mistake::Diverges { pos, key, given }) => {
            // Why AO* expands `key` and not `given` in cycle `pos + 1`.
            let why = if pos == 0 {
                Reason::new(Phrase::ExpandedWhyFirst)
            } else {
                let cost = run(ctx)
                    .cycles
                    .get(pos - 1)
                    .map(|c| c.start_cost.to_string())
                    .unwrap_or_default();
                Reason::new(Phrase::ExpandedWhy)
                    .with("prev", pos.to_string())
                    .with("key", ctx.name(key))
                    .with("cost", cost)
            };
            vec![
                Reason::new(Phrase::ExpandedDiverges)
                    .with("cycle", (pos + 1).to_string())
                    .with("key", ctx.name(key))
                    .with("given", ctx.name(given))
                    .nested("why", why),
            ]
        }
        ("expanded", Mistake::Short { count, last }) => vec![
            Reason::new(Phrase::OrderShortExpanded)
                .with("count", count.to_string())
                .with("last", last.map(|l| ctx.name(l)).unwrap_or_default()),
        ],
        _ => plain(ctx, field, mistake, hide),
    }
}

fn explain(ctx: &Context<'_>, _: &[&str], lang: &Lang, figures: Figures) -> Explained {
    let g = graph(ctx);
    let run = run(ctx);
    let marks = GraphMarks {
        costs: run.costs.iter().map(|c| c.map(|c| c.to_string())).collect(),
        solution: if run.outcome == Outcome::Solved {
            run.solution.clone()
        } else {
            Vec::new()
        },
        solved: run.solved.clone(),
        second: Vec::new(),
    };
    let mut notes = Vec::new();
    let mut rows = Vec::new();
    // The table and its notes stop at a size a page (or a terminal) can
    // take: a run's revisions grow as depth × nodes, and the notes with them.
    let mut shown_bytes = 0;
    for (i, cy) in run.cycles.iter().enumerate() {
        let (row, row_notes) = cycle_row(g, cy, i + 1, lang);
        let bytes: usize = row.iter().chain(&row_notes).map(String::len).sum();
        if shown_bytes + bytes > SHOWN_BYTES {
            break;
        }
        shown_bytes += bytes;
        rows.push(row);
        notes.extend(row_notes);
    }
    if rows.len() < run.cycle_count() {
        notes.push(lang.fill(
            "note.ao_cut",
            &[
                ("shown", &rows.len().to_string()),
                ("cycles", &run.cycle_count().to_string()),
                ("revisions", &run.revisions().to_string()),
            ],
        ));
    }
    let table = Table {
        headers: [
            "table.cycle",
            "table.expanded",
            "table.revised",
            "table.marked",
            "table.solved",
            "table.start_cost",
        ]
        .iter()
        .map(|k| lang.get(k).to_string())
        .collect(),
        rows,
    };
    notes.insert(0, lang.get("note.ao_rule").to_string());
    let cycles = run.cycle_count().to_string();
    let outcome = match run.outcome {
        Outcome::Solved => lang.fill(
            "note.ao_solved",
            &[("cost", &run.cost.to_string()), ("cycles", &cycles)],
        ),
        Outcome::Unsolvable => lang.get("note.ao_unsolvable").to_string(),
        Outcome::Futile => lang.fill(
            "note.ao_futile",
            &[("cost", &run.cost.to_string()), ("cycles", &cycles)],
        ),
        Outcome::TooLong => lang.fill("note.ao_too_long", &[("cycles", &cycles)]),
    };
    notes.push(outcome);
    // An inadmissible h may make AO* stop at a solution dearer than the best.
    let best = crate::andor::optimal(g, run.model);
    if run.outcome == Outcome::Solved && run.cost > best.cost {
        let over: Vec<&str> = g
            .ids()
            .filter(|&n| crate::andor::Cost::finite(g.node(n).h) > best.costs[n.index()])
            .map(|n| g.label(n))
            .collect();
        notes.push(lang.fill(
            "note.ao_above_optimum",
            &[
                ("cost", &run.cost.to_string()),
                ("best", &best.cost.to_string()),
                ("nodes", &over.join(", ")),
            ],
        ));
    }
    Explained {
        figure: figures.draw(|| graph_figure(g, Some(&marks))),
        table,
        notes,
    }
}

/// The bytes of table rows and notes an explanation shows (1 MiB): a generated
/// exercise's take a few KB; a long run shows its first cycles.
const SHOWN_BYTES: usize = 1 << 20;

/// One cycle's row of the table, and its notes (switches and ties).
fn cycle_row(
    g: &crate::andor::Graph,
    cy: &crate::andor::Cycle,
    cycle: usize,
    lang: &Lang,
) -> (Vec<String>, Vec<String>) {
    let mut notes = Vec::new();
    let revised: Vec<String> = cy
        .revised
        .iter()
        .map(|r| format!("{}: {} → {}", g.label(r.node), r.old, r.new))
        .collect();
    let marked: Vec<String> = cy
        .revised
        .iter()
        .filter_map(|r| {
            let mark = g.describe(r.marked?);
            notes.extend(mark_note(g, cy, r, cycle, lang));
            Some(match r.switched_from {
                Some(from) => {
                    format!(
                        "{mark} ({})",
                        lang.fill("table.was", &[("from", &g.describe(from))])
                    )
                }
                None => mark,
            })
        })
        .collect();
    let solved: Vec<&str> = cy
        .solved
        .iter()
        .filter(|&&n| !g.node(n).terminal)
        .map(|&n| g.label(n))
        .collect();
    let row = vec![
        cycle.to_string(),
        g.label(cy.expanded).to_string(),
        revised.join(", "),
        marked.join(", "),
        solved.join(", "),
        cy.start_cost.to_string(),
    ];
    (row, notes)
}

/// Why a revision marks the connector it marks: a switch to a cheaper one, or
/// a tie decided by file order. `None` when the mark stays, without a tie.
fn mark_note(
    g: &crate::andor::Graph,
    cy: &crate::andor::Cycle,
    r: &crate::andor::Revision,
    cycle: usize,
    lang: &Lang,
) -> Option<String> {
    let mark = r.marked?;
    let costs = cy.costs(r);
    let tied: Vec<crate::andor::ConnectorId> = g
        .connectors_of(r.node)
        .iter()
        .zip(costs)
        .filter(|&(_, &c)| c == r.new)
        .map(|(&c, _)| c)
        .collect();
    // Named in full up to eight, as `Graph::describe` names children: a
    // note per revision must not grow with the node's connectors.
    let tied_text = if tied.len() <= 8 {
        let names: Vec<String> = tied.iter().map(|&c| g.describe(c)).collect();
        names.join(", ")
    } else {
        let names: Vec<String> = tied[..6].iter().map(|&c| g.describe(c)).collect();
        format!("{}, … ({} connectors)", names.join(", "), tied.len())
    };
    let cycle = cycle.to_string();
    let cost_of = |c: crate::andor::ConnectorId| {
        g.connectors_of(r.node)
            .iter()
            .position(|&x| x == c)
            .map_or(String::new(), |i| costs[i].to_string())
    };
    if tied.len() > 1 {
        let from = r
            .switched_from
            .map(|f| lang.fill("note.tie_switch", &[("from", &g.describe(f))]))
            .unwrap_or_default();
        return Some(lang.fill(
            "note.tie",
            &[
                ("cycle", &cycle),
                ("node", g.label(r.node)),
                ("tied", &tied_text),
                ("cost", &r.new.to_string()),
                ("to", &g.describe(mark)),
                ("switch", &from),
            ],
        ));
    }
    let from = r.switched_from?;
    Some(lang.fill(
        "note.switch",
        &[
            ("cycle", &cycle),
            ("node", g.label(r.node)),
            ("from", &g.describe(from)),
            ("from_cost", &cost_of(from)),
            ("to", &g.describe(mark)),
            ("to_cost", &cost_of(mark)),
        ],
    ))
}

fn conventions(
    instance: &Instance,
    _: &super::Conventions,
    _: &[&str],
    lang: &Lang,
) -> Vec<String> {
    let g = instance_graph(instance);
    vec![
        lang.get(&format!("convention.cost_{}", g.model().name()))
            .to_string(),
        lang.get("convention.ao_tips").to_string(),
    ]
}

fn measure(ctx: &Context<'_>) -> Vec<u64> {
    let g = super::graph(ctx);
    let run = run(ctx);
    vec![
        run.expanded.len() as u64,
        u64::from(run.switches),
        run.revisions(),
        super::solution_cost::solution_depth(g, &run.solution),
    ]
}

/// More than one expansion, and a solution more than one connector deep.
fn point(_: &[&str]) -> Vec<super::Limit> {
    vec![
        super::Limit::at_least(EXPANSIONS, 2),
        super::Limit::at_least(SOLUTION_DEPTH, 2),
    ]
}

/// Cycle by cycle: which tip is expanded, then why that one (the marked
/// connectors from the start lead to it).
fn hints(ctx: &Context<'_>) -> Vec<Hint> {
    use crate::reason::Phrase::Own;
    let g = graph(ctx);
    let run = run(ctx);
    let mut out = Vec::new();
    for (i, cy) in run.cycles.iter().enumerate() {
        let cycle = (i + 1).to_string();
        let tip = g.label(cy.expanded).to_string();
        out.push(Hint {
            question: Reason::new(Own("hint.expand_q")).with("cycle", cycle.clone()),
            answer: Reason::new(Own("hint.expand_a"))
                .with("cycle", cycle.clone())
                .with("node", tip.clone()),
            nodes: vec![tip.clone()],
        });
        let why = match i.checked_sub(1).map(|prev| &run.cycles[prev]) {
            None => Reason::new(Phrase::ExpandedWhyFirst),
            Some(prev) => Reason::new(Phrase::ExpandedWhy)
                .with("prev", i.to_string())
                .with("key", tip.clone())
                .with("cost", prev.start_cost.to_string()),
        };
        out.push(Hint {
            question: Reason::new(Own("hint.expand_why_q"))
                .with("cycle", cycle)
                .with("node", tip.clone()),
            answer: why,
            nodes: vec![tip],
        });
    }
    out
}
