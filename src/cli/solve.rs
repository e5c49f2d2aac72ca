//! `treequiz solve FILE`: the full answer, as a teacher would write it on the board.

use std::fmt::Write as _;
use std::path::PathBuf;

use serde_json::{Value as Json, json};
use treequiz::andor::{self, AoStar, ConnectorId, CostModel, Graph, Outcome};
use treequiz::games::grundy::{self, GrundyGame};
use treequiz::games::othello;
use treequiz::gametree::{self, AlphaBeta, CutKind, Event, NodeId, Order, Tree, ValueMode};
use treequiz::instance::{self, Instance};

use super::UsageError;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// The instance file (TOML, or JSON with the same fields).
    file: PathBuf,
    /// Child order for alpha-beta.
    #[arg(long, value_enum, default_value = "ltr")]
    order: OrderArg,
    /// Prune only when the bounds cross strictly (`<` / `>`), not when equal.
    #[arg(long)]
    no_prune_on_equal: bool,
    /// Report bounds fail-soft (the tightest bound the children give).
    #[arg(long)]
    fail_soft: bool,
    /// AO* gives up once the start node's cost exceeds this.
    #[arg(long, value_name = "COST")]
    futility: Option<u64>,
    /// Print machine-readable JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum OrderArg {
    /// Left to right.
    Ltr,
    /// Right to left.
    Rtl,
}

/// The longest AO* trace `solve` computes (about 300 MB of trace at most).
const MAX_REVISIONS: usize = 5_000_000;

pub(crate) fn run(args: &Args) -> Result<String, UsageError> {
    let instance = instance::load(&args.file).map_err(|e| UsageError(e.to_string()))?;
    let options = gametree::Options {
        order: match args.order {
            OrderArg::Ltr => Order::LeftToRight,
            OrderArg::Rtl => Order::RightToLeft,
        },
        prune_on_equal: !args.no_prune_on_equal,
        values: if args.fail_soft {
            ValueMode::FailSoft
        } else {
            ValueMode::FailHard
        },
    };
    Ok(match instance {
        Instance::TicTacToe(game) => {
            let mut head = game.to_json();
            head["to_move"] = json!(game.to_move().letter().to_string());
            let about = format!(
                "Tic-tac-toe {}: MAX plays {}, {} to move; e(P) = open lines for MAX − open lines for MIN.",
                game.board,
                game.max.letter(),
                game.to_move().letter()
            );
            lookahead(
                args,
                head,
                &about,
                game.eval(),
                &game.lookahead().tree,
                options,
                None,
            )
        }
        Instance::Othello(game) => {
            let head = game.to_json();
            let legal: Vec<(String, Vec<String>)> = game
                .board
                .moves(game.to_move)
                .into_iter()
                .map(|(m, flips)| {
                    (
                        othello::square_name(m),
                        flips.into_iter().map(othello::square_name).collect(),
                    )
                })
                .collect();
            let about = format!(
                "Othello, {} to move (MAX); weighted squares{}{}.",
                game.to_move.letter(),
                if game.weights.mobility == 0 {
                    String::new()
                } else {
                    format!(" + {} × mobility", game.weights.mobility)
                },
                if game.weights.frontier == 0 {
                    String::new()
                } else {
                    format!(" + {} × frontier discs", game.weights.frontier)
                },
            );
            let eval = treequiz::value::Value::Finite(game.eval());
            lookahead(
                args,
                head,
                &about,
                eval,
                &game.lookahead().tree,
                options,
                Some(&legal),
            )
        }
        Instance::GameTree(tree) => {
            let mm = gametree::minimax(&tree);
            let ab = gametree::alpha_beta(&tree, options);
            if args.json {
                pretty(&game_tree_json(&tree, &mm, &ab))
            } else {
                game_tree_text(&tree, &mm, &ab)
            }
        }
        Instance::AndOr(graph) => {
            let options = andor::ao_star::Options {
                model: None,
                futility: args.futility,
                max_revisions: Some(MAX_REVISIONS),
            };
            let run = andor::ao_star(&graph, options);
            if run.outcome == Outcome::TooLong {
                return Err(UsageError(format!(
                    "{}: AO* needs more than {MAX_REVISIONS} cost revisions on this graph, too many for a worked answer\n  = hint: each expansion revises the ancestors whose cost changes, so deep graphs cost about depth²/2 revisions; use a smaller or shallower graph",
                    args.file.display()
                )));
            }
            if args.json {
                pretty(&and_or_json(&graph, &run))
            } else {
                and_or_text(&graph, &run)
            }
        }
        Instance::Grundy { coins, first } => {
            let game = grundy::solve(coins, first);
            if args.json {
                pretty(&grundy_json(&game))
            } else {
                grundy_text(&game)
            }
        }
    })
}

/// A game's lookahead: e(P), each move's value, the best moves, and the whole
/// searched tree as `solve` prints any game tree.
fn lookahead(
    args: &Args,
    mut head: Json,
    about: &str,
    eval: treequiz::value::Value,
    tree: &Tree,
    options: gametree::Options,
    legal: Option<&[(String, Vec<String>)]>,
) -> String {
    let mm = gametree::minimax(tree);
    let ab = gametree::alpha_beta(tree, options);
    let moves: Vec<(String, treequiz::value::Value)> = tree
        .children(tree.root())
        .map(|c| (tree.label(c).into_owned(), mm.values[c.index()]))
        .collect();
    let best = labels(tree, &mm.best_moves);
    if args.json {
        let obj = head.as_object_mut().expect("an object");
        obj.insert("eval".into(), json!(eval));
        if let Some(legal) = legal {
            let list: Vec<Json> = legal
                .iter()
                .map(|(m, flips)| json!({ "move": m, "flips": flips }))
                .collect();
            obj.insert("legal_moves".into(), json!(list));
        }
        let list: Vec<Json> = moves
            .iter()
            .map(|(m, v)| json!({ "move": m, "value": v }))
            .collect();
        obj.insert("moves".into(), json!(list));
        obj.insert("best_moves".into(), json!(best));
        obj.insert("pruned".into(), json!(labels(tree, &ab.pruned)));
        obj.insert("tree".into(), game_tree_json(tree, &mm, &ab));
        return pretty(&head);
    }
    let mut out = format!("{about}\ne(P) = {eval}\n");
    if let Some(legal) = legal {
        let list: Vec<String> = legal
            .iter()
            .map(|(m, flips)| format!("{m} (flips {})", flips.join(", ")))
            .collect();
        let _ = writeln!(out, "Legal moves: {}", list.join("; "));
    }
    let list: Vec<String> = moves.iter().map(|(m, v)| format!("{m} = {v}")).collect();
    let _ = writeln!(out, "Backed-up values of the moves: {}", list.join(", "));
    let _ = writeln!(out, "Best move(s): {}", best.join(", "));
    let _ = writeln!(
        out,
        "\nThe searched tree (nodes named by their moves, such as b2-a1):\n"
    );
    out.push_str(&game_tree_text(tree, &mm, &ab));
    out
}

fn pretty(value: &Json) -> String {
    serde_json::to_string_pretty(value).expect("JSON values serialise") + "\n"
}

fn labels(tree: &Tree, ids: &[NodeId]) -> Vec<String> {
    ids.iter().map(|&id| tree.label(id).into_owned()).collect()
}

fn game_tree_json(tree: &Tree, mm: &gametree::Minimax, ab: &AlphaBeta) -> Json {
    let values: serde_json::Map<String, Json> = tree
        .ids()
        .map(|id| (tree.label(id).into_owned(), json!(mm.values[id.index()])))
        .collect();
    let bounds: serde_json::Map<String, Json> = ab
        .bounds()
        .map(|(id, b)| (tree.label(id).into_owned(), bound_json(b)))
        .collect();
    let cuts: Vec<Json> = ab
        .cuts
        .iter()
        .map(|c| {
            json!({
                "at": tree.label(c.at),
                "type": c.kind,
                "by": tree.label(c.by),
                "at_bound": c.at_bound,
                "by_bound": c.by_bound,
                "deep": c.is_deep(tree),
                "pruned": labels(tree, &c.pruned.to_vec()),
            })
        })
        .collect();
    json!({
        "kind": "game-tree",
        "root": tree.root_player(),
        "minimax": {
            "value": mm.value,
            "values": values,
            "best_moves": labels(tree, &mm.best_moves),
            "principal_variation": labels(tree, &mm.principal_variation),
        },
        "alpha_beta": {
            "conventions": ab.options,
            "value": ab.value,
            "evaluated": labels(tree, &ab.evaluated),
            "pruned": labels(tree, &ab.pruned),
            "unexamined": labels(tree, &ab.unexamined(tree)),
            "cuts": cuts,
            "bounds": bounds,
            "steps": ab.steps().map(|s| step_json(tree, ab, &s)).collect::<Vec<_>>(),
        },
    })
}

fn bound_json(b: gametree::Bound) -> Json {
    match b {
        gametree::Bound::Exact(v) => json!(v),
        other => json!(other.to_string()),
    }
}

fn step_json(tree: &Tree, ab: &AlphaBeta, step: &gametree::Step) -> Json {
    let (event, value) = match step.event {
        Event::Enter => ("enter", Json::Null),
        Event::Leaf(v) => ("leaf", json!(v)),
        Event::Improve(v) => ("improve", json!(v)),
        Event::Cut(i) => ("cut", json!(ab.cuts[i].kind)),
        Event::Exit(b) => ("exit", bound_json(b)),
    };
    json!({ "node": tree.label(step.node), "alpha": step.alpha, "beta": step.beta, "event": event, "value": value })
}

fn game_tree_text(tree: &Tree, mm: &gametree::Minimax, ab: &AlphaBeta) -> String {
    let mut out = String::new();
    let leaves = tree.leaves().count();
    let _ = writeln!(
        out,
        "Game tree: {} nodes, {leaves} leaves, depth {}; root {} is {}.",
        tree.len(),
        tree.height(),
        tree.label(tree.root()),
        tree.root_player().name()
    );
    let _ = writeln!(out, "\nMinimax");
    let inner: Vec<String> = tree
        .ids()
        .filter(|&id| tree.leaf(id).is_none())
        .map(|id| format!("{} = {}", tree.label(id), mm.values[id.index()]))
        .collect();
    let _ = writeln!(out, "  backed-up values: {}", inner.join(", "));
    let _ = writeln!(out, "  value of the root: {}", mm.value);
    let _ = writeln!(
        out,
        "  best move(s): {}",
        labels(tree, &mm.best_moves).join(", ")
    );
    let _ = writeln!(
        out,
        "  principal variation: {}",
        labels(tree, &mm.principal_variation).join(" -> ")
    );

    let o = ab.options;
    let _ = writeln!(
        out,
        "\nAlpha-beta (children {}; {}; {} bounds)",
        if o.order == Order::LeftToRight {
            "left to right"
        } else {
            "right to left"
        },
        if o.prune_on_equal {
            "prune when bounds are equal"
        } else {
            "prune only when bounds cross strictly"
        },
        if o.values == ValueMode::FailHard {
            "fail-hard"
        } else {
            "fail-soft"
        },
    );
    let _ = writeln!(out, "  value of the root: {}", ab.value);
    let _ = writeln!(
        out,
        "  leaves evaluated, in order: {}",
        labels(tree, &ab.evaluated).join(" ")
    );
    if ab.cuts.is_empty() {
        let _ = writeln!(out, "  no cuts: every node is examined");
    } else {
        let _ = writeln!(out, "  cuts:");
        for c in &ab.cuts {
            let _ = writeln!(out, "    {}", describe_cut(tree, c, o.prune_on_equal));
        }
        let _ = writeln!(
            out,
            "  pruned branches (roots): {}",
            labels(tree, &ab.pruned).join(" ")
        );
        let _ = writeln!(
            out,
            "  unexamined nodes: {}",
            labels(tree, &ab.unexamined(tree)).join(" ")
        );
    }
    let node_values: Vec<String> = ab
        .bounds()
        .filter(|&(id, _)| tree.leaf(id).is_none())
        .map(|(id, b)| format!("{} {}", tree.label(id), bound_text(b)))
        .collect();
    let _ = writeln!(
        out,
        "  values of examined inner nodes: {}",
        node_values.join(", ")
    );
    for (id, tight) in &ab.widened {
        let b = ab.bound(*id).expect("widened nodes were examined");
        let edge = if tree.player(*id) == gametree::Player::Max {
            "alpha"
        } else {
            "beta"
        };
        let _ = writeln!(
            out,
            "    {} {}: fail-hard reports the {edge} in force; its children alone give {} {} (fail-soft)",
            tree.label(*id),
            bound_text(b),
            tree.label(*id),
            bound_text(*tight)
        );
    }
    let _ = writeln!(
        out,
        "\n  alpha, beta: the bounds in force at the node (its own and its ancestors')"
    );
    let _ = writeln!(out, "  step  node        alpha   beta   what happened");
    for (i, s) in ab.steps().enumerate() {
        let who = match tree.leaf(s.node) {
            Some(_) => format!("{}", tree.label(s.node)),
            None => format!("{} ({})", tree.label(s.node), tree.player(s.node).name()),
        };
        let what = match s.event {
            Event::Enter => "enter".to_string(),
            Event::Leaf(v) => format!("evaluate leaf: {v}"),
            Event::Improve(v) => {
                let own = if tree.player(s.node) == gametree::Player::Max {
                    "alpha"
                } else {
                    "beta"
                };
                format!("{own}({}) = {v}", tree.label(s.node))
            }
            Event::Cut(i) => describe_cut(tree, &ab.cuts[i], o.prune_on_equal),
            Event::Exit(b) => format!("return {} {}", tree.label(s.node), bound_text(b)),
        };
        let _ = writeln!(
            out,
            "  {:>4}  {who:<10} {:>6} {:>6}   {what}",
            i + 1,
            s.alpha.to_string(),
            s.beta.to_string()
        );
    }
    out
}

/// `= 3`, `<= 2` or `>= 5`.
fn bound_text(b: gametree::Bound) -> String {
    match b {
        gametree::Bound::Exact(v) => format!("= {v}"),
        gametree::Bound::AtMost(v) => format!("<= {v}"),
        gametree::Bound::AtLeast(v) => format!(">= {v}"),
    }
}

fn describe_cut(tree: &Tree, c: &gametree::Cut, prune_on_equal: bool) -> String {
    let (name, own, other, rel) = match (c.kind, prune_on_equal) {
        (CutKind::Alpha, true) => ("alpha-cut", "beta", "alpha", "<="),
        (CutKind::Alpha, false) => ("alpha-cut", "beta", "alpha", "<"),
        (CutKind::Beta, true) => ("beta-cut", "alpha", "beta", ">="),
        (CutKind::Beta, false) => ("beta-cut", "alpha", "beta", ">"),
    };
    let deep = if c.is_deep(tree) { " (deep cut)" } else { "" };
    format!(
        "{name} at {}: {own}({}) = {} {rel} {other}({}) = {}{deep}; pruned {}",
        tree.label(c.at),
        tree.label(c.at),
        c.at_bound,
        tree.label(c.by),
        c.by_bound,
        labels(tree, &c.pruned.to_vec()).join(", ")
    )
}

fn connector_json(graph: &Graph, c: ConnectorId) -> Json {
    let con = graph.connector(c);
    json!({ "from": graph.label(con.from), "to": con.to.iter().map(|&t| graph.label(t)).collect::<Vec<_>>() })
}

fn models(graph: &Graph) -> Vec<CostModel> {
    let mut models = vec![graph.model()];
    for m in [CostModel::Sum, CostModel::Max] {
        if m != graph.model() && (m != CostModel::Max || graph.has_arc_costs()) {
            models.push(m);
        }
    }
    models
}

fn and_or_json(graph: &Graph, run: &AoStar) -> Json {
    let solvable = andor::solvable(graph);
    let optimal_json = |m: CostModel| {
        let opt = andor::optimal(graph, m);
        json!({
            "model": m,
            "cost": opt.cost,
            "solution": opt.solution.iter().map(|&c| connector_json(graph, c)).collect::<Vec<_>>(),
        })
    };
    let by_model: serde_json::Map<String, Json> = models(graph)
        .into_iter()
        .map(|m| (m.name().to_string(), optimal_json(m)))
        .collect();
    let cycles: Vec<Json> = run
        .cycles
        .iter()
        .map(|cy| {
            json!({
                "expanded": graph.label(cy.expanded),
                "generated": cy.generated.iter().map(|&n| json!({ "node": graph.label(n), "h": graph.node(n).h })).collect::<Vec<_>>(),
                "revised": cy.revised.iter().map(|r| json!({
                    "node": graph.label(r.node),
                    "old": r.old,
                    "new": r.new,
                    "costs": cy.costs(r),
                    "marked": r.marked.map(|c| c.0),
                    "switched_from": r.switched_from.map(|c| c.0),
                    "solved": r.solved,
                })).collect::<Vec<_>>(),
                "solved": cy.solved.iter().map(|&n| graph.label(n)).collect::<Vec<_>>(),
                "start_cost": cy.start_cost,
            })
        })
        .collect();
    json!({
        "kind": "and-or-graph",
        "model": graph.model(),
        "connectors": graph.connectors().iter().enumerate().map(|(i, _)| connector_json(graph, ConnectorId(i as u32))).collect::<Vec<_>>(),
        "solvable": graph.ids().map(|n| (graph.label(n).to_string(), json!(solvable[n.index()]))).collect::<serde_json::Map<_, _>>(),
        "optimal": optimal_json(graph.model()),
        "by_model": by_model,
        "ao_star": {
            "outcome": run.outcome,
            "solved": run.outcome == Outcome::Solved,
            "cost": run.cost,
            "expanded": run.expanded.iter().map(|&n| graph.label(n)).collect::<Vec<_>>(),
            "solution": run.solution.iter().map(|&c| connector_json(graph, c)).collect::<Vec<_>>(),
            "switches": run.switches,
            "ties": run.ties,
            "cycles": cycles,
        },
    })
}

fn and_or_text(graph: &Graph, run: &AoStar) -> String {
    let mut out = String::new();
    let model_note = match graph.model() {
        CostModel::Connector => {
            "connector cost (Nilsson): k(n) = c + sum of the children's costs, c = k unless given"
        }
        CostModel::Sum => "sum cost: h(n) = sum over the arcs of (arc cost + h(child))",
        CostModel::Max => "max cost: h(n) = max over the arcs of (arc cost + h(child))",
    };
    let _ = writeln!(
        out,
        "AND/OR graph: {} nodes, {} connectors, start {}.",
        graph.len(),
        graph.connectors().len(),
        graph.label(graph.start())
    );
    let _ = writeln!(out, "Cost model: {model_note}.");
    let solvable = andor::solvable(graph);
    let (yes, no): (Vec<_>, Vec<_>) = graph.ids().partition(|n| solvable[n.index()]);
    let names = |ids: &[andor::NodeId]| {
        ids.iter()
            .map(|&n| graph.label(n))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let _ = writeln!(
        out,
        "\nSolvable nodes: {}",
        if yes.is_empty() {
            "none".into()
        } else {
            names(&yes)
        }
    );
    let _ = writeln!(
        out,
        "Unsolvable nodes: {}",
        if no.is_empty() {
            "none".into()
        } else {
            names(&no)
        }
    );
    for m in models(graph) {
        let opt = andor::optimal(graph, m);
        let none = if opt.cost.is_finite() {
            ""
        } else {
            " (no solution graph: the start node is unsolvable)"
        };
        let _ = writeln!(
            out,
            "\nOptimal solution graph, {} cost: {}{none}",
            m.name(),
            opt.cost
        );
        for &c in &opt.solution {
            let cost = graph.connector_cost(c, m, |t| opt.costs[t.index()]);
            let _ = writeln!(
                out,
                "  {}   ({} = {cost})",
                graph.describe(c),
                graph.label(graph.connector(c).from)
            );
        }
    }
    let _ = writeln!(
        out,
        "\nAO* ({} cost; expand the first unsolved tip depth-first, left to right; on equal costs mark the first connector in file order)",
        run.model.name()
    );
    for (i, cy) in run.cycles.iter().enumerate() {
        let generated: Vec<String> = cy
            .generated
            .iter()
            .map(|&n| {
                let node = graph.node(n);
                if node.terminal {
                    format!("{} (goal)", node.label)
                } else {
                    format!("{} ({})", node.label, node.h)
                }
            })
            .collect();
        let _ = writeln!(
            out,
            "  cycle {}: expand {}",
            i + 1,
            graph.label(cy.expanded)
        );
        if graph.connectors_of(cy.expanded).is_empty() {
            let _ = writeln!(
                out,
                "    no successors: {} is a dead end (cost +inf)",
                graph.label(cy.expanded)
            );
        } else if generated.is_empty() {
            let _ = writeln!(
                out,
                "    no new nodes: every successor is already in the graph"
            );
        } else {
            let _ = writeln!(out, "    new nodes: {}", generated.join(", "));
        }
        for r in &cy.revised {
            let mut line = format!("    revise {}: {} -> {}", graph.label(r.node), r.old, r.new);
            // With a choice to make, show what decided it.
            if cy.costs(r).len() > 1 {
                let options: Vec<String> = graph
                    .connectors_of(r.node)
                    .iter()
                    .zip(cy.costs(r))
                    .map(|(&c, cost)| format!("{} = {cost}", graph.describe(c)))
                    .collect();
                let _ = write!(line, " [{}]", options.join("; "));
            }
            match r.marked {
                Some(c) => {
                    let _ = write!(line, ", mark {}", graph.describe(c));
                }
                None => line.push_str(", no connector left"),
            }
            if let Some(from) = r.switched_from {
                let _ = write!(line, " (was {})", graph.describe(from));
            }
            if r.solved {
                line.push_str(", SOLVED");
            }
            let _ = writeln!(out, "{line}");
        }
        let _ = writeln!(out, "    start cost {}", cy.start_cost);
    }
    let verdict = match run.outcome {
        Outcome::Solved => format!("SOLVED with cost {}", run.cost),
        Outcome::Unsolvable => "the start node is unsolvable".to_string(),
        Outcome::Futile => format!("given up: cost {} exceeds the futility bound", run.cost),
        Outcome::TooLong => "stopped: the trace is too long".to_string(),
    };
    let _ = writeln!(out, "  result: {verdict} after {} cycles", run.cycles.len());
    if run.expanded.is_empty() {
        let _ = writeln!(out, "  the start node is a goal: nothing to expand");
        return out;
    }
    let _ = writeln!(out, "  expanded, in order: {}", names(&run.expanded));
    if run.outcome == Outcome::Solved {
        let sol: Vec<String> = run.solution.iter().map(|&c| graph.describe(c)).collect();
        let _ = writeln!(out, "  solution graph: {}", sol.join("; "));
    }
    out
}

fn grundy_json(game: &GrundyGame) -> Json {
    let winner = game.winner();
    let first_moves: Vec<Json> = game.moves[0]
        .iter()
        .map(|&m| json!({ "to": game.states[m].piles_name(), "wins_for": game.wins_for[m].name() }))
        .collect();
    let states: Vec<Json> = game
        .states
        .iter()
        .enumerate()
        .map(|(i, s)| {
            json!({
                "state": s.name(),
                "depth": game.depth[i],
                "wins_for": game.wins_for[i].name(),
                "moves": game.moves[i].iter().map(|&m| game.states[m].name()).collect::<Vec<_>>(),
            })
        })
        .collect();
    let strategy: Vec<Json> = game
        .strategy()
        .into_iter()
        .map(|(s, m)| json!({ "state": game.states[s].name(), "move_to": game.states[m].name() }))
        .collect();
    json!({
        "kind": "grundy",
        "coins": game.coins,
        "first": game.first.name(),
        "winner": winner.name(),
        "first_moves": first_moves,
        "strategy": strategy,
        "winning_moves": game
            .winning_moves()
            .into_iter()
            .map(|(s, m)| game.move_name(s, m))
            .collect::<Vec<_>>(),
        "states": states,
    })
}

fn grundy_text(game: &GrundyGame) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Grundy's game: {} coins, {} moves first; a move splits one pile into two unequal piles; who cannot move loses.",
        game.coins,
        game.first.name()
    );
    let _ = writeln!(
        out,
        "MAX's states are OR nodes (won if some move wins), MIN's are AND nodes (won for MAX if every move is).\n"
    );
    let levels = game.depth.iter().max().copied().unwrap_or(0);
    for level in 0..=levels {
        let row: Vec<String> = (0..game.states.len())
            .filter(|&s| game.depth[s] == level)
            .map(|s| {
                format!(
                    "{} {}",
                    game.states[s].name(),
                    if game.wins_for[s] == treequiz::gametree::Player::Max {
                        "W"
                    } else {
                        "L"
                    }
                )
            })
            .collect();
        let _ = writeln!(out, "  level {level}: {}", row.join("  "));
    }
    let _ = writeln!(out, "\n  W: won for MAX, L: lost for MAX (won for MIN)");
    let _ = writeln!(out, "\nWinner under perfect play: {}", game.winner().name());
    let firsts: Vec<String> = game.moves[0]
        .iter()
        .map(|&m| {
            format!(
                "{} (wins for {})",
                game.states[m].piles_name(),
                game.wins_for[m].name()
            )
        })
        .collect();
    let _ = writeln!(out, "First moves: {}", firsts.join(", "));
    let _ = writeln!(out, "{}'s winning strategy:", game.winner().name());
    for (s, m) in game.strategy() {
        let _ = writeln!(
            out,
            "  from {} move to {}",
            game.states[s].name(),
            game.states[m].name()
        );
    }
    let _ = writeln!(
        out,
        "Every winning move of {} (from every state where {} is to move and can win):",
        game.winner().name(),
        game.winner().name()
    );
    for (s, m) in game.winning_moves() {
        let _ = writeln!(out, "  {}", game.move_name(s, m));
    }
    out
}
