//! `treequiz solve FILE`: the full answer, as a teacher would write it on the
//! board: every kind of exercise the instance can be, solved into its key and
//! explained, through the same view as the answer keys.

use std::path::PathBuf;

use treequiz::andor::Outcome;
use treequiz::exercise::{Conventions, Trace};
use treequiz::instance;
use treequiz::render::{Prepared, Renderer};
use treequiz::view;

use super::UsageError;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// The instance file (TOML, or JSON with the same fields).
    file: PathBuf,
    #[command(flatten)]
    conventions: super::conventions::ConventionArgs,
    /// AO* gives up once the start node's cost exceeds this.
    #[arg(long, value_name = "COST")]
    futility: Option<u64>,
    /// The language of the explanation (`en`, `zh`, or a table of --templates).
    #[arg(long, default_value = "en")]
    lang: String,
    /// A folder whose templates and string tables replace the built-in ones.
    #[arg(long, value_name = "DIR")]
    templates: Option<PathBuf>,
    /// Print the solution view as JSON (answers for people, and each key as data).
    #[arg(long)]
    json: bool,
}

fn usage(e: impl std::fmt::Display) -> UsageError {
    UsageError(e.to_string())
}

pub(crate) fn run(args: &Args) -> Result<String, UsageError> {
    let instance = instance::load(&args.file).map_err(usage)?;
    let shown = args.file.display();
    // A game position whose search no page could show is refused with its
    // reason, before the search is built (a depth-9 tic-tac-toe search has
    // 549,946 nodes); so is one no kind can use (a finished game).
    let kinds: Vec<_> = treequiz::exercise::KINDS
        .iter()
        .filter(|k| k.family == instance.family())
        .collect();
    let refused: Vec<_> = kinds
        .iter()
        .filter_map(|k| (k.unusable)(&instance).map(|why| (k, why)))
        .collect();
    if refused.len() == kinds.len() {
        // Each kind's own reason: the one that fits the file is among them.
        let reasons: Vec<String> = refused
            .iter()
            .map(|(kind, why)| format!("  = {}: {why}", kind.name))
            .collect();
        return Err(UsageError(format!(
            "{shown}: no exercise can use this instance\n{}",
            reasons.join("\n")
        )));
    }
    // The others are solved; a kind the file asks for by its keys (an
    // Othello position's `budget`) and refuses is named, not dropped. Kinds
    // for another horizon (node-budget of a plain tree) are not the file's.
    for (kind, why) in refused.iter().filter(|(k, _)| k.meant_for(&instance)) {
        eprintln!("note: {shown}: not solved as {}: {why}", kind.name);
    }
    // Game trees and graphs are solved up to the file limits, for a teacher
    // checking a large figure; a problem set refuses them past a page's limit.
    let max = treequiz::instance::MAX_EXERCISE_NODES;
    if let Some(n) = instance.figure_nodes().filter(|&n| n as u64 > max) {
        eprintln!(
            "note: {shown} has {n} nodes: solved here, but a problem set refuses an instance of more than {max} nodes (a figure stays legible on a page up to {max})"
        );
    }
    if let Some(why) = instance.exercise_refusal() {
        eprintln!("note: {shown}: solved here, but a problem set refuses it: {why}");
    }
    let renderer = Renderer::new(args.templates.as_deref()).map_err(usage)?;
    let lang = renderer.lang(&args.lang).map_err(usage)?;
    let conventions = Conventions {
        alpha_beta: args.conventions.options()?,
        ao_futility: args.futility,
    };
    let solved = view::solve(&instance, &conventions, &lang);
    let too_long = solved
        .solutions
        .iter()
        .any(|s| matches!(&s.key.trace, Trace::AoStar(run) if run.outcome == Outcome::TooLong));
    if too_long {
        let treequiz::instance::Instance::AndOr(g) = &instance else {
            unreachable!("AO* runs on AND/OR graphs")
        };
        return Err(UsageError(format!(
            "{shown}: AO* needs more than {} steps on this graph, too many for a worked answer\n  = note: AO* may take {} steps, or {} per node, connector and arc if that is more, so that its work stays linear in the graph's size\n  = hint: each expansion revises the ancestors whose cost changes, so a graph d levels deep with n nodes costs about d × n steps; use a smaller or shallower graph",
            treequiz::exercise::ao_max_steps(g),
            treequiz::exercise::AO_MIN_STEPS,
            treequiz::exercise::AO_STEPS_PER_ITEM,
        )));
    }
    if args.json {
        return Ok(serde_json::to_string_pretty(&solved).map_err(usage)? + "\n");
    }
    #[derive(serde::Serialize)]
    struct Page<'a> {
        t: &'a serde_json::Value,
        solve: view::SolveText<'a>,
    }
    // The page's context is a copy of what it shows: made, then the view
    // and the instance go before the page is rendered.
    let page = Prepared::of(&Page {
        t: solved.t,
        solve: solved.text(),
    });
    drop(solved);
    drop(instance);
    renderer.render_context("solve.txt", &page).map_err(usage)
}
