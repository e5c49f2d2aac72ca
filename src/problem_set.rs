//! Problem sets: the teacher's TOML, read and checked once.
//!
//! ```toml
//! title = "Game search quiz"
//! language = "en"            # or "zh"
//! seed = 2026                # practice mode: the set's own seed
//! [conventions]
//! order = "ltr"              # or "rtl"
//! prune_on_equal = true
//! values = "fail-hard"       # or "fail-soft"
//!
//! [[exercise]]
//! kind = "alpha-beta"
//! points = 10
//! depth = 3
//! branching = "2..3"
//! min_cuts = 2
//! ```

use std::path::Path;

use crate::andor;
use crate::exercise::{self, Conventions, Family, KindDef};
use crate::games::{self, grundy, othello, tictactoe};
use crate::gametree::{self, Order, ValueMode, file::read_player};
use crate::input::{Doc, DocKind, InputError, Reader, Source, Table, did_you_mean};
use crate::instance::{self, Instance};
use crate::scoring::{OrderRule, Scoring, SetRule};

/// A checked problem set.
#[derive(Clone, Debug)]
pub struct ProblemSet {
    /// The title on every sheet.
    pub title: String,
    /// A line under the title.
    pub subtitle: Option<String>,
    /// Instructions printed on the worksheet.
    pub instructions: Option<String>,
    /// The language code (`en`, `zh`, or a user table's name).
    pub language: String,
    /// The practice seed.
    pub seed: u64,
    /// The conventions every key states.
    pub conventions: Conventions,
    /// The exercises, in order.
    pub exercises: Vec<Exercise>,
}

/// One exercise of a set.
#[derive(Clone, Debug)]
pub struct Exercise {
    /// Its kind.
    pub kind: &'static KindDef,
    /// Points.
    pub points: u32,
    /// The fields asked, in the kind's order.
    pub ask: Vec<&'static str>,
    /// A heading instead of the kind's name.
    pub title: Option<String>,
    /// Where the instance comes from.
    pub source: InstanceSource,
    /// The partial-credit rules.
    pub scoring: Scoring,
}

/// A generated or a fixed instance.
#[derive(Clone, Debug)]
pub enum InstanceSource {
    /// A random game tree from these parameters.
    GameTree(gametree::generate::Params),
    /// A random AND/OR graph from these parameters.
    AndOr(andor::generate::Params),
    /// A random tic-tac-toe position.
    TicTacToe(tictactoe::Params),
    /// A random Othello position.
    Othello(Box<othello::Params>),
    /// A random number of coins and first player.
    Grundy(grundy::Params),
    /// The same instance for everyone (typed in from a textbook figure).
    Fixed(Box<Instance>),
}

/// Most points one exercise may carry.
const MAX_POINTS: u32 = 1000;
pub use crate::instance::MAX_EXERCISE_NODES;

const SET_KEYS: &[&str] = &[
    "title",
    "subtitle",
    "instructions",
    "language",
    "seed",
    "conventions",
    "exercise",
];
const CONVENTION_KEYS: &[&str] = &["order", "prune_on_equal", "values"];
const COMMON_KEYS: &[&str] = &[
    "set_rule",
    "order_rule",
    "tolerance",
    "kind",
    "points",
    "ask",
    "title",
    "instance",
    "instance_file",
];
const TREE_KEYS: &[&str] = &[
    "depth",
    "branching",
    "values",
    "root",
    "distinct",
    "min_cuts",
    "max_cuts",
    "unique_best",
];
const GRAPH_KEYS: &[&str] = &[
    "depth",
    "alternatives",
    "arity",
    "cost",
    "arc_costs",
    "admissible",
    "terminal_percent",
    "shared_percent",
    "dead_end_percent",
    "solvable",
    "min_expansions",
    "min_switches",
    "unique",
    "nodes",
];

const TICTACTOE_KEYS: &[&str] = &["marks", "depth", "symmetry", "min_cuts", "unique_best"];
const OTHELLO_KEYS: &[&str] = &[
    "plies",
    "depth",
    "squares",
    "mobility",
    "frontier",
    "min_cuts",
    "unique_best",
];
const GRUNDY_KEYS: &[&str] = &["coins", "first"];

/// Reads a problem-set file.
pub fn load(path: &Path) -> Result<ProblemSet, InputError> {
    let source = instance::read_source(path)?;
    parse(&source, path.parent().unwrap_or(Path::new(".")))
}

/// Reads a problem set; `dir` resolves `instance_file` paths.
pub fn parse(source: &Source, dir: &Path) -> Result<ProblemSet, InputError> {
    let doc = source.parse()?;
    let r = Reader { source };
    let top = r.table(&doc, SET_KEYS, "title = \"Quiz\"")?;
    let title_doc = top.require(source, "title", "title = \"Game search quiz\"")?;
    let title = r.str(title_doc, "\"Game search quiz\"")?.to_string();
    if title.trim().is_empty() || title.contains(['\n', '\r']) {
        return Err(source.error(
            title_doc,
            "the title must be one non-empty line",
            "put longer text in `subtitle` or `instructions`".to_string(),
        ));
    }
    let text = |key: &str| -> Result<Option<String>, InputError> {
        top.get(key)
            .map(|d| r.str(d, "\"…\"").map(str::to_string))
            .transpose()
    };
    let language = match top.get("language") {
        None => "en".to_string(),
        Some(d) => {
            let code = r.str(d, "\"en\"")?;
            if code.is_empty() || !code.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                return Err(source.error(
                    d,
                    format!("`{code}` is not a language code"),
                    "write \"en\" or \"zh\", or the name of your own string table".to_string(),
                ));
            }
            code.to_string()
        }
    };
    let seed = match top.get("seed") {
        None => 0,
        Some(d) => u64::try_from(r.int(d, "seed = 2026")?).map_err(|_| {
            source.error(
                d,
                "the seed cannot be negative",
                "use a number from 0 up".to_string(),
            )
        })?,
    };
    let conventions = match top.get("conventions") {
        None => Conventions::default(),
        Some(d) => read_conventions(&r, d)?,
    };
    let list = top.require(source, "exercise", "[[exercise]]")?;
    let items = r.array(list, "[[exercise]] tables")?;
    if items.is_empty() {
        return Err(source.error(
            list,
            "the set has no exercises",
            "add at least one [[exercise]] table".to_string(),
        ));
    }
    let exercises = items
        .iter()
        .map(|item| read_exercise(&r, item, dir))
        .collect::<Result<_, _>>()?;
    Ok(ProblemSet {
        title,
        subtitle: text("subtitle")?,
        instructions: text("instructions")?,
        language,
        seed,
        conventions,
        exercises,
    })
}

fn read_conventions(r: &Reader<'_>, doc: &Doc) -> Result<Conventions, InputError> {
    let t = r.table(doc, CONVENTION_KEYS, "[conventions]")?;
    let mut options = gametree::Options::default();
    if let Some(d) = t.get("order") {
        options.order = match r.str(d, "\"ltr\"")? {
            "ltr" | "left-to-right" => Order::LeftToRight,
            "rtl" | "right-to-left" => Order::RightToLeft,
            other => {
                return Err(r.source.error(
                    d,
                    format!("unknown order `{other}`"),
                    "write \"ltr\" (left to right) or \"rtl\"".to_string(),
                ));
            }
        };
    }
    if let Some(d) = t.get("prune_on_equal") {
        options.prune_on_equal = r.bool(d, "prune_on_equal = true")?;
    }
    if let Some(d) = t.get("values") {
        options.values = match r.str(d, "\"fail-hard\"")? {
            "fail-hard" => ValueMode::FailHard,
            "fail-soft" => ValueMode::FailSoft,
            other => {
                return Err(r.source.error(
                    d,
                    format!("unknown value mode `{other}`"),
                    "write \"fail-hard\" or \"fail-soft\"".to_string(),
                ));
            }
        };
    }
    Ok(Conventions {
        alpha_beta: options,
        ..Conventions::default()
    })
}

fn read_exercise(r: &Reader<'_>, doc: &Doc, dir: &Path) -> Result<Exercise, InputError> {
    let source = r.source;
    let DocKind::Table(entries) = &doc.kind else {
        return Err(r.wrong_type(doc, "an [[exercise]] table", "kind = \"alpha-beta\""));
    };
    let kind_doc = doc.get("kind").ok_or_else(|| {
        source.error(
            doc,
            "this exercise has no `kind`",
            format!(
                "add a line like `kind = \"alpha-beta\"`; the kinds are: {}",
                exercise::kind_names().join(", ")
            ),
        )
    })?;
    let name = r.str(kind_doc, "\"alpha-beta\"")?;
    let kind = exercise::kind(name).ok_or_else(|| {
        let names = exercise::kind_names();
        let hint = did_you_mean(name, &names, "the kinds are");
        source.error(kind_doc, format!("unknown exercise kind `{name}`"), hint)
    })?;
    let family_keys = match kind.family {
        Family::GameTree => TREE_KEYS,
        Family::AndOr => GRAPH_KEYS,
        Family::TicTacToe => TICTACTOE_KEYS,
        Family::Othello => OTHELLO_KEYS,
        Family::Grundy => GRUNDY_KEYS,
    };
    let allowed: Vec<&str> = COMMON_KEYS.iter().chain(family_keys).copied().collect();
    let t = r.table(doc, &allowed, "")?;
    let points = match t.get("points") {
        None => 10,
        Some(d) => u32::try_from(r.int(d, "points = 10")?)
            .ok()
            .filter(|&p| p <= MAX_POINTS)
            .ok_or_else(|| {
                source.error(
                    d,
                    format!("points must be between 0 and {MAX_POINTS}"),
                    "write a whole number of points".to_string(),
                )
            })?,
    };
    let ask = match t.get("ask") {
        None => kind.fields.iter().map(|f| f.name).collect(),
        Some(d) => {
            let known: Vec<&str> = kind.fields.iter().map(|f| f.name).collect();
            let mut ask = Vec::new();
            for item in r.array(d, "ask = [\"value\", \"pruned\"]")? {
                let field = r.str(item, "\"pruned\"")?;
                let Some(&f) = known.iter().find(|&&k| k == field) else {
                    let intro = format!("a {} exercise can ask", kind.name);
                    let hint = did_you_mean(field, &known, &intro);
                    return Err(source.error(
                        item,
                        format!("`{field}` is not a field of {}", kind.name),
                        hint,
                    ));
                };
                if ask.contains(&f) {
                    return Err(source.error(
                        item,
                        format!("`{field}` is asked twice"),
                        "list each field once".to_string(),
                    ));
                }
                ask.push(f);
            }
            if ask.is_empty() {
                return Err(source.error(
                    d,
                    "the exercise asks for nothing",
                    format!("list some of: {}", known.join(", ")),
                ));
            }
            // The sheet lists fields in the kind's order, whatever the set's order.
            known.iter().copied().filter(|k| ask.contains(k)).collect()
        }
    };
    let title = match t.get("title") {
        None => None,
        Some(d) => {
            let text = r.str(d, "\"Alpha-beta with MIN to move\"")?;
            if text.trim().is_empty() || text.contains(['\n', '\r']) {
                return Err(source.error(
                    d,
                    "an exercise title must be one non-empty line",
                    "shorten it, or leave `title` out to use the kind's name".to_string(),
                ));
            }
            Some(text.to_string())
        }
    };
    let fixed = match (t.get("instance"), t.get("instance_file")) {
        (Some(_), Some(d)) => {
            return Err(source.error(
                d,
                "both `instance` and `instance_file` are given",
                "keep one of them".to_string(),
            ));
        }
        (Some(d), None) => Some((d, instance::parse_doc(r, d)?)),
        (None, Some(d)) => {
            let path = dir.join(r.str(d, "\"instances/aima-fig-5-2.toml\"")?);
            let inst = instance::load(&path).map_err(|e| {
                source.error(
                    d,
                    format!("cannot use this instance file:\n{e}"),
                    "fix the instance file, or the path (it is relative to this set's folder)"
                        .to_string(),
                )
            })?;
            Some((d, inst))
        }
        (None, None) => None,
    };
    let source_of = match fixed {
        Some((d, inst)) => {
            if inst.family() != kind.family {
                return Err(source.error(
                    d,
                    format!(
                        "{} exercises need {}, not {}",
                        kind.name,
                        kind.family.noun(),
                        inst.family().noun()
                    ),
                    "use an instance of the right kind, or change the exercise's kind".to_string(),
                ));
            }
            if let Some(why) = (kind.unusable)(&inst) {
                return Err(source.error(
                    d,
                    format!("this instance cannot be used for {}", kind.name),
                    why,
                ));
            }
            if let Some((key, _)) = entries
                .iter()
                .find(|(k, _)| family_keys.contains(&k.name.as_str()))
            {
                let at = Doc {
                    span: key.span.clone(),
                    path: key.name.clone(),
                    kind: DocKind::Null,
                };
                return Err(source.error(
                    &at,
                    format!(
                        "`{}` shapes a generated instance, but this exercise has a fixed one",
                        key.name
                    ),
                    "remove it, or remove the fixed instance".to_string(),
                ));
            }
            InstanceSource::Fixed(Box::new(inst))
        }
        None => match kind.family {
            Family::GameTree => InstanceSource::GameTree(tree_params(r, &t)?),
            Family::AndOr => InstanceSource::AndOr(graph_params(r, &t)?),
            Family::TicTacToe => InstanceSource::TicTacToe(tictactoe_params(r, &t)?),
            Family::Othello => InstanceSource::Othello(Box::new(othello_params(r, &t)?)),
            Family::Grundy => InstanceSource::Grundy(grundy_params(r, &t)?),
        },
    };
    let mut scoring = Scoring::default();
    if let Some(d) = t.get("set_rule") {
        let name = r.str(d, "\"penalty\"")?;
        scoring.sets = SetRule::parse(name).ok_or_else(|| {
            source.error(
                d,
                format!("unknown set rule `{name}`"),
                did_you_mean(
                    name,
                    &["penalty", "hits", "all-or-nothing"],
                    "the set rules are",
                ),
            )
        })?;
    }
    if let Some(d) = t.get("order_rule") {
        let name = r.str(d, "\"lcs\"")?;
        scoring.orders = OrderRule::parse(name).ok_or_else(|| {
            source.error(
                d,
                format!("unknown order rule `{name}`"),
                did_you_mean(name, &["lcs", "exact"], "the order rules are"),
            )
        })?;
    }
    if let Some(d) = t.get("tolerance") {
        scoring.tolerance = u64::try_from(r.int(d, "tolerance = 1")?).map_err(|_| {
            source.error(
                d,
                "a tolerance cannot be negative",
                "write 0 for exact answers".to_string(),
            )
        })?;
    }
    Ok(Exercise {
        scoring,
        kind,
        points,
        ask,
        title,
        source: source_of,
    })
}

/// `3`, `"2..3"` or `[2, 3]`.
fn range(r: &Reader<'_>, doc: &Doc) -> Result<(i64, i64), InputError> {
    let example = "`2`, `\"2..3\"` or `[2, 3]`";
    let (lo, hi) = match &doc.kind {
        DocKind::Int(v) => (*v, *v),
        DocKind::Str(s) => crate::input::parse_range::<i64>(s)
            .map_err(|m| r.source.error(doc, m, format!("write {example}")))?,
        DocKind::Array(items) if items.len() == 2 => {
            (r.int(&items[0], "2")?, r.int(&items[1], "3")?)
        }
        _ => return Err(r.wrong_type(doc, "a number or a range", example)),
    };
    if lo > hi {
        return Err(r.source.error(
            doc,
            format!("the range {lo}..{hi} is empty"),
            "write the smaller bound first".to_string(),
        ));
    }
    Ok((lo, hi))
}

fn small(r: &Reader<'_>, doc: &Doc, (lo, hi): (i64, i64)) -> Result<(u32, u32), InputError> {
    let fit = |v: i64| {
        u32::try_from(v).map_err(|_| {
            r.source.error(
                doc,
                format!("{v} is out of range"),
                "use numbers from 0 up".to_string(),
            )
        })
    };
    Ok((fit(lo)?, fit(hi)?))
}

fn count(r: &Reader<'_>, t: &Table<'_>, key: &str) -> Result<Option<u32>, InputError> {
    t.get(key)
        .map(|d| small(r, d, (r.int(d, "3")?, r.int(d, "3")?)).map(|(v, _)| v))
        .transpose()
}

fn tree_params(r: &Reader<'_>, t: &Table<'_>) -> Result<gametree::generate::Params, InputError> {
    let mut p = gametree::generate::Params::default();
    if let Some(d) = t.get("depth") {
        p.depth = small(r, d, (r.int(d, "depth = 3")?, 0))?.0;
    }
    if let Some(d) = t.get("branching") {
        p.branching = small(r, d, range(r, d)?)?;
    }
    if let Some(d) = t.get("values") {
        p.values = range(r, d)?;
    }
    if let Some(d) = t.get("root") {
        p.root = read_player(r, d)?;
    }
    if let Some(d) = t.get("distinct") {
        p.distinct = r.bool(d, "distinct = true")?;
    }
    p.min_cuts = count(r, t, "min_cuts")?;
    p.max_cuts = count(r, t, "max_cuts")?;
    if let Some(d) = t.get("unique_best") {
        p.unique_best = r.bool(d, "unique_best = true")?;
    }
    check_generator(r, t, p.validate().err())?;
    check_size(r, t, p.max_nodes(), "lower depth or branching")?;
    Ok(p)
}

fn graph_params(r: &Reader<'_>, t: &Table<'_>) -> Result<andor::generate::Params, InputError> {
    let mut p = andor::generate::Params::default();
    if let Some(d) = t.get("depth") {
        p.depth = small(r, d, (r.int(d, "depth = 3")?, 0))?.0;
    }
    if let Some(d) = t.get("alternatives") {
        p.alternatives = small(r, d, range(r, d)?)?;
    }
    if let Some(d) = t.get("arity") {
        p.arity = small(r, d, range(r, d)?)?;
    }
    if let Some(d) = t.get("cost") {
        p.model = andor::file::read_model(r, d)?;
    }
    if let Some(d) = t.get("arc_costs") {
        let (lo, hi) = small(r, d, range(r, d)?)?;
        p.arc_costs = (u64::from(lo), u64::from(hi));
    }
    for (key, flag) in [
        ("admissible", &mut p.admissible),
        ("solvable", &mut p.solvable),
        ("unique", &mut p.unique),
    ] {
        if let Some(d) = t.get(key) {
            *flag = r.bool(d, "true")?;
        }
    }
    for (key, value) in [
        ("terminal_percent", &mut p.terminal_percent),
        ("shared_percent", &mut p.shared_percent),
        ("dead_end_percent", &mut p.dead_end_percent),
    ] {
        if let Some(v) = count(r, t, key)? {
            *value = v;
        }
    }
    p.min_expansions = count(r, t, "min_expansions")?;
    p.min_switches = count(r, t, "min_switches")?;
    if let Some(d) = t.get("nodes") {
        p.nodes = Some(small(r, d, range(r, d)?)?);
    }
    check_generator(r, t, p.validate().err())?;
    if p.nodes
        .is_none_or(|(_, hi)| u64::from(hi) > MAX_EXERCISE_NODES)
    {
        check_size(
            r,
            t,
            p.max_nodes(),
            "lower depth, alternatives or arity, or bound the size with `nodes = \"12..25\"`",
        )?;
    }
    Ok(p)
}

/// The keys every game shapes its search with: `depth`, `min_cuts`, `unique_best`.
fn search(
    r: &Reader<'_>,
    t: &Table<'_>,
    mut search: games::lookahead::Search,
) -> Result<games::lookahead::Search, InputError> {
    if let Some(d) = t.get("depth") {
        search.depth = small(r, d, (r.int(d, "depth = 2")?, 0))?.0;
    }
    search.min_cuts = count(r, t, "min_cuts")?;
    if let Some(d) = t.get("unique_best") {
        search.unique_best = r.bool(d, "unique_best = true")?;
    }
    Ok(search)
}

fn tictactoe_params(r: &Reader<'_>, t: &Table<'_>) -> Result<tictactoe::Params, InputError> {
    let mut p = tictactoe::Params::default();
    if let Some(d) = t.get("marks") {
        p.marks = small(r, d, range(r, d)?)?;
    }
    if let Some(d) = t.get("symmetry") {
        p.symmetry = r.bool(d, "symmetry = true")?;
    }
    p.search = search(r, t, p.search)?;
    check_generator(r, t, p.validate().err())?;
    check_size(
        r,
        t,
        p.max_nodes(),
        "start from more marks (`marks = \"3..4\"`), or lower depth",
    )?;
    Ok(p)
}

fn othello_params(r: &Reader<'_>, t: &Table<'_>) -> Result<othello::Params, InputError> {
    let mut p = othello::Params::default();
    if let Some(d) = t.get("plies") {
        p.plies = small(r, d, range(r, d)?)?;
    }
    p.weights = othello::read_weights(r, t)?;
    p.search = search(r, t, p.search)?;
    check_generator(r, t, p.validate().err())?;
    Ok(p)
}

fn grundy_params(r: &Reader<'_>, t: &Table<'_>) -> Result<grundy::Params, InputError> {
    let mut p = grundy::Params::default();
    if let Some(d) = t.get("coins") {
        p.coins = small(r, d, range(r, d)?)?;
        if let Err(e) = p.validate() {
            return Err(r.source.error(
                d,
                e.to_string(),
                "write a number or a range, like `coins = \"6..8\"`".to_string(),
            ));
        }
    }
    if let Some(d) = t.get("first") {
        p.first = Some(read_player(r, d)?);
    }
    Ok(p)
}

/// An exercise whose figure could not be read on a page is refused when the set is read.
fn check_size(r: &Reader<'_>, t: &Table<'_>, max_nodes: u64, hint: &str) -> Result<(), InputError> {
    if max_nodes > MAX_EXERCISE_NODES {
        return Err(r.source.error(
            t.doc,
            format!("this exercise can have {}; a figure stays legible on a page up to {MAX_EXERCISE_NODES}", crate::generate::count_nodes(max_nodes)),
            hint.to_string(),
        ));
    }
    Ok(())
}

/// Impossible parameters are reported at the exercise, when the set is read.
fn check_generator(
    r: &Reader<'_>,
    t: &Table<'_>,
    error: Option<crate::generate::GenerateError>,
) -> Result<(), InputError> {
    match error {
        Some(e @ crate::generate::GenerateError::Invalid(_)) => Err(r.source.error(
            t.doc,
            format!("this exercise cannot be generated: {e}"),
            "change its parameters".to_string(),
        )),
        _ => Ok(()),
    }
}
