//! Searches under a node budget, as the course notes search Othello: the
//! budget divided among the moves, node by node (`othello-budget`, and
//! `node-budget` on a game tree with estimates at its inner nodes), and
//! iterative deepening until a node budget runs out (`othello-deepening`,
//! `iterative-deepening`). Each searches the lookahead the instance's
//! horizon bounds, which is the model its answers name
//! (games::lookahead::Horizon).

use super::Figures;
use super::{
    Answer, Context, Conventions, Domain, Explained, Family, Field, Instance, Item, Key, KindDef,
    Limit, Mistake, Shape, Table, lookahead,
};
use crate::games::lookahead::{Budgets, Deepening, Horizon};
use crate::instance::Model;
use crate::lang::Lang;
use crate::reason::{Phrase, Reason};
use crate::value::Value;

/// The budget of every position expanded below P, by its move path.
const BUDGETS: Field = Field::new("budgets", Shape::Values);
/// The positions evaluated: budget 0 or the game over.
const EVALUATED: Field = Field::new("evaluated", Shape::Labels);
/// The depth of the deepest iteration that completed.
const COMPLETED_DEPTH: Field = Field::new("completed_depth", Shape::Value).within(Domain::Depths);

const STOPPED_MID: super::Measure = super::Measure::new("stopped_mid");
const UNEVEN: super::Measure = super::Measure::new("uneven");

pub(super) static OTHELLO_BUDGET: KindDef = KindDef {
    name: "othello-budget",
    family: Family::Othello,
    fields: &[
        BUDGETS,
        EVALUATED,
        lookahead::MOVE_VALUES,
        lookahead::BEST_MOVE,
        lookahead::PRUNED,
    ],
    solver: super::Solver::Lookahead,
    solve: solve_budget,
    explain: explain_budget,
    teach: teach_budget,
    unusable: unusable_budget,
    conventions,
    measures: &[
        super::Measure::new("evaluated"),
        super::Measure::new("moves"),
        super::Measure::new("cuts"),
        super::Measure::new("deepest"),
        UNEVEN,
    ],
    measure: measure_budget,
    point: point_budget,
    replay: super::no_replay,
    hints: budget_hints,
    budgets: Budgets {
        budget: Some((8, 16)),
        deepening: None,
    },
    sizes: super::Sizes {
        small: "plies = \"44..50\"\nbudget = \"4..8\"",
        medium: "plies = \"44..50\"\nbudget = \"4..12\"\nunique_best = true",
        large: "plies = \"40..50\"\nbudget = \"6..16\"\nmin_cuts = 1\nunique_best = true",
    },
};

pub(super) static OTHELLO_DEEPENING: KindDef = KindDef {
    name: "othello-deepening",
    family: Family::Othello,
    fields: &[
        COMPLETED_DEPTH,
        lookahead::MOVE_VALUES,
        lookahead::BEST_MOVE,
    ],
    solver: super::Solver::Lookahead,
    solve: solve_deepening,
    explain: explain_deepening,
    teach: teach_deepening,
    unusable: unusable_deepening,
    conventions,
    measures: &[
        super::Measure::new("evaluated"),
        super::Measure::new("moves"),
        super::Measure::new("completed"),
        STOPPED_MID,
    ],
    measure: measure_deepening,
    point: point_deepening,
    replay: super::no_replay,
    hints: super::no_hints,
    budgets: Budgets {
        budget: None,
        deepening: Some((30, 60)),
    },
    sizes: super::Sizes {
        small: "plies = \"4..10\"\ndeepening = \"10..20\"",
        medium: "plies = \"4..10\"\ndeepening = \"30..60\"\nunique_best = true",
        large: "plies = \"4..8\"\ndeepening = \"60..120\"\nunique_best = true",
    },
};

pub(super) static TREE_BUDGET: KindDef = KindDef {
    name: "node-budget",
    family: Family::GameTree,
    budgets: Budgets {
        budget: Some((6, 12)),
        deepening: None,
    },
    sizes: super::Sizes {
        small: "depth = 3\nbranching = \"1..3\"\nvalues = \"0..20\"\nbudget = \"4..8\"",
        medium: "depth = 3\nbranching = \"2..3\"\nvalues = \"0..20\"\nbudget = \"6..12\"\nunique_best = true",
        large: "depth = 4\nbranching = \"1..3\"\nvalues = \"0..20\"\nbudget = \"8..20\"\nmin_cuts = 1\nunique_best = true",
    },
    ..OTHELLO_BUDGET
};

pub(super) static TREE_DEEPENING: KindDef = KindDef {
    name: "iterative-deepening",
    family: Family::GameTree,
    budgets: Budgets {
        budget: None,
        deepening: Some((10, 30)),
    },
    sizes: super::Sizes {
        small: "depth = 2\nbranching = \"2..3\"\nvalues = \"0..20\"\ndeepening = \"5..12\"",
        medium: "depth = 3\nbranching = \"2..3\"\nvalues = \"0..20\"\ndeepening = \"10..30\"\nunique_best = true",
        large: "depth = 4\nbranching = 2\nvalues = \"0..20\"\ndeepening = \"20..50\"\nunique_best = true",
    },
    ..OTHELLO_DEEPENING
};

/// Why a position is expanded or evaluated, for a student who put it in
/// the wrong list (`budgets` holds the expanded, `evaluated` the others):
/// its budget, worked out from its parent's. Other mistakes are the search's.
fn teach_budget(ctx: &Context<'_>, field: &str, mistake: Mistake<'_>, hide: bool) -> Vec<Reason> {
    let (t, allowances) = searched(ctx.model);
    let leaf_phrase = match ctx.instance {
        Instance::Othello(_) => Phrase::BudgetGameOver,
        _ => Phrase::BudgetLeaf,
    };
    // What decides a position's list: its parent and the phrase.
    let why = |item: Item| {
        let Item::Node(n) = item else {
            return None;
        };
        let id = crate::gametree::NodeId(n);
        let parent = t.parent(id)?;
        let phrase = match t.leaf(id) {
            None => Phrase::BudgetExpanded,
            Some(_) if allowances[id.index()] == 0 => Phrase::BudgetEvaluated,
            Some(_) => leaf_phrase,
        };
        Some((parent, phrase, id))
    };
    // Siblings put in the wrong list for one reason are named together.
    let explain = |wrong: Vec<(crate::gametree::NodeId, Phrase, crate::gametree::NodeId)>| {
        let mut groups: Vec<(crate::gametree::NodeId, Phrase, Vec<String>, u32)> = Vec::new();
        for (parent, phrase, id) in wrong {
            let name = ctx.name(Item::Node(id.0));
            match groups.iter_mut().find(|g| g.0 == parent && g.1 == phrase) {
                Some(g) => g.2.push(name),
                None => groups.push((parent, phrase, vec![name], allowances[id.index()])),
            }
        }
        groups
            .into_iter()
            .map(|(parent, phrase, names, budget)| {
                Reason::new(phrase)
                    .with("node", names.join(", "))
                    .with("budget", budget.to_string())
                    .with("parent", ctx.name(Item::Node(parent.0)))
                    .with("parent_budget", allowances[parent.index()].to_string())
                    .with("moves", t.children(parent).count().to_string())
            })
            .collect::<Vec<_>>()
    };
    let root = |item: Item| item == Item::Node(t.root().0);
    let reasons: Option<Vec<Reason>> = match (field, mistake) {
        // The root's budget is the sheet's; the answer lists those below it.
        ("budgets", Mistake::Extra(item)) if root(item) => Some(vec![
            Reason::new(Phrase::BudgetRoot)
                .with("node", ctx.name(item))
                .with("budget", allowances[0].to_string()),
        ]),
        ("budgets", Mistake::Extra(item)) if hide => Some(vec![
            Reason::new(Phrase::ExtraHidden).with("node", ctx.name(item)),
        ]),
        _ if hide => None,
        // A wrong budget: the right one worked out from its parent's.
        ("budgets", Mistake::Value { item, given, .. }) => why(item).map(|(parent, _, id)| {
            let given = match given {
                crate::gametree::Bound::Exact(v) => v.to_string(),
                other => super::relation(other),
            };
            explain(vec![(parent, Phrase::BudgetWrong, id)])
                .into_iter()
                .map(|r| r.with("given", given.clone()))
                .collect()
        }),
        ("budgets" | "evaluated", Mistake::Extra(item)) => why(item).map(|w| explain(vec![w])),
        ("budgets" | "evaluated", Mistake::Missed(items)) => items
            .iter()
            .map(|&i| why(i))
            .collect::<Option<Vec<_>>>()
            .map(|w| {
                explain(w)
                    .into_iter()
                    .map(|r| Reason::new(Phrase::MissedBecause).nested("why", r))
                    .collect()
            }),
        _ => None,
    };
    reasons.unwrap_or_else(|| super::alpha_beta::teach_search(ctx, field, mistake, hide))
}

/// Why a wrong `completed_depth` is wrong: the count at the end of the
/// iteration the student names, or of the deepest one that completes.
fn teach_deepening(
    ctx: &Context<'_>,
    field: &str,
    mistake: Mistake<'_>,
    hide: bool,
) -> Vec<Reason> {
    let (Mistake::Number { given, .. }, "completed_depth", false) = (mistake, field, hide) else {
        return super::plain(ctx, field, mistake, hide);
    };
    let d = deepening(ctx.instance);
    let budget = deepening_budget(ctx.instance);
    let count = |it: &crate::games::lookahead::Iteration| {
        it.nodes.map_or_else(
            || format!("> {}", crate::games::lookahead::MAX_COUNTED),
            |n| n.to_string(),
        )
    };
    let with = |phrase, it: &crate::games::lookahead::Iteration| {
        Reason::new(phrase)
            .with("given", given.to_string())
            .with("depth", it.depth.to_string())
            .with("nodes", count(it))
            .with("before", it.before.to_string())
            .with(
                "total",
                it.nodes
                    .map_or_else(|| count(it), |n| (it.before + n).to_string()),
            )
            .with("budget", budget.to_string())
    };
    let Value::Finite(g) = given else {
        return super::plain(ctx, field, mistake, hide);
    };
    let reason = if g > i64::from(d.completed) {
        // Deeper than the search goes: where it stops, and why.
        match d.iterations.last() {
            Some(last) if !last.completed => with(Phrase::DeepeningStops, last),
            Some(last) => with(Phrase::DeepeningExhausted, last),
            None => return super::plain(ctx, field, mistake, hide),
        }
    } else {
        // Shallower: the deepest iteration completes too.
        match d.iterations.iter().rfind(|it| it.completed) {
            Some(it) => with(Phrase::DeepeningCompletes, it),
            None => return super::plain(ctx, field, mistake, hide),
        }
    };
    vec![reason]
}

/// The searched tree and each node's budget. The kinds here are handed only
/// what `unusable_for` accepts (KindDef::solve): an Othello position, or a
/// game tree with estimates and the kind's horizon, whose models these are.
fn searched<'a>(model: &'a Model<'_>) -> (&'a crate::gametree::Tree, &'a [u32]) {
    match model {
        Model::Othello(look) => (&look.tree, &look.allowances),
        Model::BudgetTree(look, _) => (&look.tree, &look.allowances),
        _ => unreachable!("unusable_for accepts only Othello positions and budgeted trees"),
    }
}

/// Where the instance's search stops: its horizon, if it has one.
fn horizon(instance: &Instance) -> Option<Horizon> {
    match instance {
        Instance::Othello(g) => Some(g.horizon),
        Instance::BudgetTree(b) => Some(b.horizon),
        _ => None,
    }
}

/// The node budget of an iterative deepening. Called on what
/// `unusable_for` accepted for a deepening kind: its horizon is `deepening`
/// (a set gives such a kind no other key: problem_set::check_budget_keys).
fn deepening_budget(instance: &Instance) -> u32 {
    match horizon(instance) {
        Some(Horizon::Deepening(budget)) => budget,
        _ => unreachable!("unusable_for accepts only a `deepening` horizon here"),
    }
}

/// Iterative deepening of the instance, iteration by iteration.
fn deepening(instance: &Instance) -> Deepening {
    let budget = deepening_budget(instance);
    match instance {
        Instance::Othello(g) => g.deepening(budget),
        Instance::BudgetTree(b) => b.deepening(budget),
        // deepening_budget found a horizon, which only these two have.
        _ => unreachable!("a horizon is an Othello position's or a budgeted tree's"),
    }
}

/// Why an instance cannot be searched as a kind asks: the horizon the kind
/// needs, a move to make, a tree that fits a page.
fn unusable_for(instance: &Instance, wanted: fn(Horizon) -> bool, key: &str) -> Option<String> {
    let g = match instance {
        Instance::Othello(g) => g,
        _ if horizon(instance).is_some_and(wanted) => return None,
        _ => {
            return Some(format!(
                "this kind searches a game tree under a node budget: give `{key}` and `estimates` (a value for each inner node below the root)"
            ));
        }
    };
    if !wanted(g.horizon) {
        return Some(format!(
            "this kind searches under a node budget: give `{key}` (and no `depth`)"
        ));
    }
    if g.board.moves(g.to_move).is_empty() {
        return Some(
            "the side to move has no legal move here: give a position where it can move".into(),
        );
    }
    let max_leaves = if matches!(g.horizon, Horizon::Budget(_)) {
        crate::games::othello::MAX_BUDGET_LEAVES
    } else {
        crate::games::othello::MAX_LEAVES
    };
    lookahead::too_large_search(
        |cap| g.search_size(cap),
        || g.lookahead().tree,
        Some(max_leaves),
        key,
    )
}

fn unusable_budget(instance: &Instance) -> Option<String> {
    unusable_for(instance, |h| matches!(h, Horizon::Budget(_)), "budget")
}

fn unusable_deepening(instance: &Instance) -> Option<String> {
    unusable_for(
        instance,
        |h| matches!(h, Horizon::Deepening(_)),
        "deepening",
    )
    .or_else(|| {
        let budget = deepening_budget(instance);
        (deepening(instance).completed == 0).then(|| {
            format!("a budget of {budget} nodes does not complete even the 1-ply search: give more")
        })
    })
}

/// The lookahead key without the fields a kind does not ask.
fn lookahead_key(
    instance: &Instance,
    searched: &crate::gametree::Tree,
    c: &Conventions,
    keep: &[&str],
) -> Key {
    // The root's own evaluation is not asked: a budget evaluates it only at 0.
    let eval = match instance {
        Instance::Othello(g) => Value::Finite(g.eval()),
        _ => Value::Finite(0),
    };
    let mut key = lookahead::solve(searched, eval, c);
    key.answers.retain(|name, _| keep.contains(&name.as_str()));
    key
}

fn solve_budget(instance: &Instance, conventions: &Conventions) -> Key {
    let model = instance.model();
    let (t, allowances) = searched(&model);
    let mut key = lookahead_key(
        instance,
        t,
        conventions,
        &["move_values", "best_move", "pruned"],
    );
    // P's budget is given, and an evaluated position's is 0 unless the game
    // is over there: the answer lists what the positions expanded below P get.
    let budgets = t
        .ids()
        .skip(1)
        .filter(|&id| t.leaf(id).is_none())
        .map(|id| {
            (
                Item::Node(id.0),
                Value::Finite(i64::from(allowances[id.index()])),
            )
        })
        .collect();
    key.answers
        .insert("budgets".to_string(), Answer::Values(budgets));
    let evaluated = t.leaves().map(|id| Item::Node(id.0)).collect();
    key.answers
        .insert("evaluated".to_string(), Answer::Set(evaluated));
    key
}

fn solve_deepening(instance: &Instance, conventions: &Conventions) -> Key {
    let model = instance.model();
    let t = model.tree().expect("a searched tree");
    let mut key = lookahead_key(instance, t, conventions, &["move_values", "best_move"]);
    key.answers.insert(
        "completed_depth".to_string(),
        Answer::Value(Value::Finite(i64::from(deepening(instance).completed))),
    );
    key
}

fn explain_budget(ctx: &Context<'_>, ask: &[&str], lang: &Lang, figures: Figures) -> Explained {
    let (t, allowances) = searched(ctx.model);
    let mm = ctx.key.minimax().expect("a lookahead key");
    // A row per position expanded, breadth-first: its budget and what each
    // move gets. The evaluated positions are the figure's leaves, with e(P).
    let rows = t
        .ids()
        .filter(|&id| t.leaf(id).is_none())
        .map(|id| {
            let budget = allowances[id.index()];
            let moves = t.children(id).count() as u32;
            vec![
                t.label(id).into_owned(),
                budget.to_string(),
                format!("{budget} / {moves} = {}", budget / moves),
                mm.of(t, id).to_string(),
            ]
        })
        .collect();
    let table = Table {
        headers: lookahead::headers(
            lang,
            &[
                if is_tree(ctx) {
                    "table.node"
                } else {
                    "table.position"
                },
                "table.budget",
                if is_tree(ctx) {
                    "table.budget_split_tree"
                } else {
                    "table.budget_split"
                },
                "table.value",
            ],
        ),
        rows,
    };
    // The sheet shows the position; the key's page is the tree's.
    let mut explained = lookahead::explain(ctx, None, &plain_tree(ctx), table, ask, lang, figures);
    // e(P) of the root is not asked: the root is evaluated only under a budget of 0.
    explained.notes.remove(0);
    explained
}

fn explain_deepening(ctx: &Context<'_>, _: &[&str], lang: &Lang, figures: Figures) -> Explained {
    let d = deepening(ctx.instance);
    let budget = deepening_budget(ctx.instance);
    let t = super::tree(ctx);
    let rows = d
        .iterations
        .iter()
        .map(|it| {
            let needs = it.nodes.map_or_else(
                || format!("> {}", crate::games::lookahead::MAX_COUNTED),
                |n| n.to_string(),
            );
            let status = if it.completed {
                lang.fill(
                    "table.iteration_done",
                    &[("total", &(it.before + it.nodes.unwrap_or(0)).to_string())],
                )
            } else {
                lang.fill(
                    "table.iteration_stopped",
                    &[("left", &(budget - it.before).to_string())],
                )
            };
            vec![it.depth.to_string(), needs, it.before.to_string(), status]
        })
        .collect();
    let table = Table {
        headers: lookahead::headers(
            lang,
            &[
                "table.iteration_depth",
                if is_tree(ctx) {
                    "table.iteration_nodes_tree"
                } else {
                    "table.iteration_nodes"
                },
                "table.iteration_before",
                "table.iteration_status",
            ],
        ),
        rows,
    };
    // Othello's key shows the position above the tree; a game tree's
    // searched tree is the sheet's own, cut where the search stopped.
    let board = match ctx.instance {
        Instance::Othello(g) => Some(crate::draw::othello_board(g, &[])),
        _ => None,
    };
    // Iterative deepening is plain minimax: nothing pruned.
    let mut explained = lookahead::explain(ctx, board, &plain_tree(ctx), table, &[], lang, figures);
    explained.notes.remove(0);
    let best: Vec<String> = ctx
        .key
        .minimax()
        .expect("a lookahead key")
        .best_moves
        .iter()
        .map(|&b| t.label(b).into_owned())
        .collect();
    let note = if d.exhausted {
        lang.fill(
            "note.deepening_exhausted",
            &[
                ("depth", &d.completed.to_string()),
                ("moves", &best.join(", ")),
            ],
        )
    } else {
        lang.fill(
            "note.deepening_stopped",
            &[
                ("budget", &budget.to_string()),
                ("next", &(d.completed + 1).to_string()),
                ("depth", &d.completed.to_string()),
                ("moves", &best.join(", ")),
            ],
        )
    };
    explained.notes.insert(0, note);
    explained
}

/// The lines every budgeted search shares: Othello's who is MAX, e(P), a
/// finished game and the move order; a game tree's estimates.
fn shared_conventions(instance: &Instance, lang: &Lang) -> Vec<String> {
    match instance {
        Instance::Othello(g) => {
            let mut lines = super::othello::eval_conventions(g, lang);
            lines.push(super::othello::finished_convention(&g.weights, lang));
            lines.push(lang.get("convention.othello_order").to_string());
            lines
        }
        _ => vec![lang.get("convention.tree_estimates").to_string()],
    }
}

/// The conventions of a budgeted search: the shared lines, the rule of its
/// horizon (Othello's names positions and moves, a tree's nodes and
/// children), and alpha-beta's when `pruned` is asked.
fn conventions(instance: &Instance, c: &Conventions, ask: &[&str], lang: &Lang) -> Vec<String> {
    let (rule, budget) = match horizon(instance) {
        Some(Horizon::Budget(b)) => ("budget_rule", b),
        Some(Horizon::Deepening(b)) => ("deepening_rule", b),
        _ => return Vec::new(),
    };
    let key = match instance {
        Instance::Othello(_) => format!("convention.{rule}"),
        _ => format!("convention.{rule}_tree"),
    };
    let mut lines = shared_conventions(instance, lang);
    lines.push(lang.fill(&key, &[("budget", &budget.to_string())]));
    lines.extend(super::pruning_conventions(c, ask, lang));
    lines
}

fn measure_budget(ctx: &Context<'_>) -> Vec<u64> {
    let t = super::tree(ctx);
    // The work is every position the budget evaluates (alpha-beta's cuts
    // spare some only when `pruned` is asked).
    let cuts = lookahead::measure(ctx)[2];
    let depths = t.leaves().map(|l| t.depth_of(l) as u64);
    let (lo, hi) = depths.fold((u64::MAX, 0), |(lo, hi), d| (lo.min(d), hi.max(d)));
    vec![
        t.leaves().count() as u64,
        t.children(t.root()).count() as u64,
        cuts,
        hi,
        hi - lo,
    ]
}

/// The point of a budget: it reaches further along some lines (few
/// replies) than along others.
fn point_budget(asked: &[&str]) -> Vec<Limit> {
    let mut limits = lookahead::point(asked);
    limits.push(Limit::at_least(UNEVEN, 1));
    limits
}

fn measure_deepening(ctx: &Context<'_>) -> Vec<u64> {
    let t = super::tree(ctx);
    let d = deepening(ctx.instance);
    vec![
        t.leaves().count() as u64,
        t.children(t.root()).count() as u64,
        u64::from(d.completed),
        u64::from(!d.exhausted),
    ]
}

/// The point of iterative deepening under a budget: the budget runs out
/// inside an iteration, after at least one has completed.
fn point_deepening(asked: &[&str]) -> Vec<Limit> {
    let mut limits = lookahead::point(asked);
    limits.push(Limit::exactly(STOPPED_MID, 1));
    limits
}

/// Whether the search is of a game tree (its nodes named by labels, not moves).
fn is_tree(ctx: &Context<'_>) -> bool {
    matches!(ctx.model, Model::BudgetTree(..))
}

/// The searched tree drawn without pictures: an Othello node named by its
/// last move, a game tree's by its label.
fn plain_tree(
    ctx: &Context<'_>,
) -> impl Fn(&crate::gametree::Tree, &crate::draw::TreeMarks) -> crate::draw::Figure {
    let labels = is_tree(ctx);
    move |t, marks| {
        let marks = crate::draw::TreeMarks {
            last_move_only: marks.last_move_only && !labels,
            ..marks.clone()
        };
        crate::draw::tree_figure(t, Some(&marks))
    }
}

/// The budget of each position below P, worked out from its parent's: a
/// position's moves together (its budget is divided among them), then the
/// first of them expanded, depth first.
fn budget_hints(ctx: &Context<'_>) -> Vec<super::Hint> {
    use crate::gametree::NodeId;
    let (t, allowances) = searched(ctx.model);
    let leaf_phrase = match ctx.instance {
        Instance::Othello(_) => Phrase::BudgetGameOver,
        _ => Phrase::BudgetLeaf,
    };
    let name = |n: NodeId| ctx.name(Item::Node(n.0));
    let mut out = Vec::new();
    let mut stack = vec![t.root()];
    while let Some(parent) = stack.pop() {
        let children: Vec<NodeId> = t.children(parent).collect();
        for &c in &children {
            let budget = allowances[c.index()];
            let phrase = match t.leaf(c) {
                None if budget > 0 => Phrase::BudgetExpanded,
                Some(_) if budget > 0 => leaf_phrase,
                _ => Phrase::BudgetEvaluated,
            };
            out.push(super::Hint {
                question: Reason::new(Phrase::Own("hint.budget_q")).with("node", name(c)),
                answer: Reason::new(phrase)
                    .with("node", name(c))
                    .with("budget", budget.to_string())
                    .with("parent", name(parent))
                    .with("parent_budget", allowances[parent.index()].to_string())
                    .with("moves", children.len().to_string()),
                nodes: vec![name(c)],
            });
        }
        stack.extend(children.into_iter().rev().filter(|&c| t.leaf(c).is_none()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `check` on a fixture's instance, solved by `solve`.
    fn with_fixture(
        name: &str,
        solve: fn(&Instance, &Conventions) -> Key,
        check: impl FnOnce(&Context<'_>),
    ) {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("tests/fixtures/good/{name}.toml"));
        let instance = crate::instance::load(&path).unwrap();
        let conventions = Conventions::default();
        let key = solve(&instance, &conventions);
        let model = instance.model();
        check(&Context {
            instance: &instance,
            model: &model,
            key: &key,
            conventions: &conventions,
        });
    }

    /// A position put in the wrong list is told its budget and why: the
    /// fixture's a5 has 2 replies, each getting 2 ÷ 2 = 1 and so expanded;
    /// g3's 5 replies get 2 ÷ 5 = 0 and are evaluated, named together.
    #[test]
    fn a_position_in_the_wrong_list_is_told_its_budget() {
        with_fixture("othello-budget", solve_budget, |ctx| {
            let (model, key) = (ctx.model, ctx.key);
            let node = |label: &str| model.resolve(label).unwrap();
            let Some(Answer::Values(budgets)) = key.answer("budgets") else {
                panic!("budgets")
            };
            let named: Vec<String> = budgets.iter().map(|(i, _)| model.name(*i)).collect();
            assert_eq!(named, ["g3", "a5", "f6", "a5-a3", "a5-b3"]);
            let extra = teach_budget(ctx, "evaluated", Mistake::Extra(node("a5-a3")), false);
            assert_eq!(extra.len(), 1);
            assert_eq!(extra[0].phrase, Phrase::BudgetExpanded);
            let missed: Vec<Item> = ["g3-c2", "g3-d2", "g3-e2"].map(node).to_vec();
            let reasons = teach_budget(ctx, "evaluated", Mistake::Missed(&missed), false);
            assert_eq!(reasons.len(), 1, "siblings named together");
            assert_eq!(reasons[0].phrase, Phrase::MissedBecause);
            let lang = Lang::builtin("en").unwrap();
            let text = reasons[0].render(&lang, false);
            assert_eq!(
                text,
                "missing: g3-c2, g3-d2, g3-e2: budget 0 = g3's 2 ÷ 5 (g3's number of moves), rounded down; a node with a budget of 0 is evaluated, not expanded"
            );
            // With the key hidden, only what the search teaches anyway.
            let hidden = teach_budget(ctx, "evaluated", Mistake::Extra(node("a5-a3")), true);
            assert!(hidden.iter().all(|r| r.phrase != Phrase::BudgetExpanded));
        });
    }

    /// On a game tree, a leaf evaluated with budget left is told it is a
    /// leaf, and a node below one the search evaluates is told the search
    /// never reaches it and where it stops: the fixture's budget of 7 gives
    /// C 2, its leaf H 1; D 2 ÷ 3 = 0 each, so I is evaluated and its child
    /// S never searched.
    #[test]
    fn a_game_tree_names_its_leaves_and_what_is_never_searched() {
        with_fixture("node-budget", solve_budget, |ctx| {
            let model = ctx.model;
            let h = model.resolve("H").unwrap();
            let reasons = teach_budget(ctx, "evaluated", Mistake::Missed(&[h]), false);
            let lang = Lang::builtin("en").unwrap();
            assert_eq!(
                reasons[0].render(&lang, false),
                "missing: H: a leaf of the tree, evaluated whatever its budget"
            );
            assert_eq!(model.resolve("S"), None, "S is below the frontier");
            let unknown = model.unknown("s");
            assert_eq!(unknown.phrase, Phrase::NotSearched);
            let text = unknown.render(&lang, false);
            assert!(
                text.starts_with("S is never searched: the search evaluates I above it"),
                "{text}"
            );
            assert_eq!(model.unknown("Z9").phrase, Phrase::UnknownLabel);
            // A wrong budget is worked out from its parent's: D gets A's 7 ÷ 3.
            let d = model.resolve("D").unwrap();
            let wrong = teach_budget(
                ctx,
                "budgets",
                Mistake::Value {
                    item: d,
                    key: crate::gametree::Bound::Exact(Value::Finite(2)),
                    given: crate::gametree::Bound::Exact(Value::Finite(1)),
                },
                false,
            );
            let text = wrong[0].render(&lang, false);
            assert_eq!(
                text,
                "D: budget 2 = A's 7 ÷ 3 (A's number of moves), rounded down, not 1"
            );
            // A row for a node the search evaluates is told so.
            let extra = teach_budget(ctx, "budgets", Mistake::Extra(h), false);
            assert_eq!(extra[0].phrase, Phrase::BudgetLeaf);
            // The root's budget is the sheet's, with the key hidden too.
            let a = model.resolve("A").unwrap();
            for hide in [false, true] {
                let root = teach_budget(ctx, "budgets", Mistake::Extra(a), hide);
                assert_eq!(
                    root[0].render(&lang, hide),
                    "A is the root: its budget of 7 is given, and the answer lists the budgets of the nodes expanded below it"
                );
            }
            let hidden = teach_budget(ctx, "budgets", Mistake::Extra(h), true);
            assert_eq!(
                hidden[0].render(&lang, true),
                "H does not belong in this list"
            );
            // A node never searched, with the key hidden: not where the search stops.
            assert_eq!(
                model.unknown("S").render(&lang, true),
                "S is never searched: the search stops above it"
            );
        });
    }

    /// A wrong completed depth is told the count that decides it: the
    /// fixture's budget of 20 completes iterations of 4 and 11 nodes (15
    /// counted) and stops in the third, of 22.
    #[test]
    fn a_wrong_completed_depth_is_told_the_count() {
        with_fixture("iterative-deepening", solve_deepening, |ctx| {
            let lang = Lang::builtin("en").unwrap();
            let told = |given: i64, hide: bool| {
                let mistake = Mistake::Number {
                    key: Value::Finite(2),
                    given: Value::Finite(given),
                };
                teach_deepening(ctx, "completed_depth", mistake, hide)
                    .iter()
                    .map(|r| r.render(&lang, hide))
                    .collect::<Vec<_>>()
                    .join("; ")
            };
            assert_eq!(
                told(3, false),
                "3 is deeper than the search goes: iteration 3 visits 22 nodes, and with 15 counted before it the count would reach 37, past the budget of 20, so iteration 3 is stopped and no deeper one begins"
            );
            assert_eq!(
                told(1, false),
                "iteration 2 completes too: with 4 counted before it, its 11 nodes bring the count to 15, within the budget of 20"
            );
            // With the key hidden, the plain wording.
            assert!(!told(1, true).contains("iteration 2"));
        });
    }
}
