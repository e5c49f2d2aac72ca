//! Problem sets: the teacher's TOML, read and checked once.
//!
//! ```toml
//! title = "Game search quiz"
//! language = "en"            # or "zh"
//! seed = 2026                # practice mode: the set's own seed
//! conventions = "textbook"  # or "aima", "cs188", "knuth-moore", or a table
//!
//! [[exercise]]
//! kind = "alpha-beta"
//! points = 10
//! depth = 3
//! branching = "2..3"
//! min_cuts = 2
//! ```

use std::path::Path;

use crate::exercise::{self, Conventions, KindDef};
use crate::gametree::{Order, Preset, ValueMode};
use crate::input::{Doc, DocKind, InputError, Reader, Site, Source, Table, did_you_mean};
use crate::instance::{self, Instance, Params};
use crate::scoring::{OrderRule, Scoring, SetRule, SlipRule, SwapRule};

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
    /// The practice page's course path (`[practice] path`): the kinds a
    /// student masters in turn; the chapter's order when the set gives none.
    pub path: Vec<&'static KindDef>,
    /// What the teacher should know but need not fix (conventions that are
    /// no preset's), positioned like errors.
    pub warnings: Vec<InputError>,
    /// Where the set names its language, to place the error when no string
    /// table has it (the tables are known only when rendering).
    language_site: Option<Site>,
}

impl ProblemSet {
    /// `error` (no string table for the set's language), placed at the set's
    /// `language` line, with the likely code suggested.
    pub fn unknown_language(&self, error: InputError) -> InputError {
        let Some(site) = &self.language_site else {
            return error;
        };
        let code = self.language.to_lowercase();
        let likely = match code.as_str() {
            "english" | "eng" | "en-us" | "en-gb" => Some("en"),
            "chinese" | "zh-cn" | "zh-hans" | "cn" | "mandarin" | "中文" => Some("zh"),
            _ => None,
        };
        site.error(
            error.message,
            match likely {
                Some(c) => format!(
                    "write `language = \"{c}\"`; {}",
                    error.hint.unwrap_or_default()
                ),
                None => error.hint.unwrap_or_default(),
            },
        )
    }
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
    /// Ranges the kind's measures must lie in (`evaluated = "14..18"`), on
    /// top of what makes the kind's point ([`KindDef::point`]).
    pub limits: Vec<exercise::Limit>,
    /// Keep every variant's work near the set's typical variant (`even = false`: no).
    pub even: bool,
    /// Where the exercise's table starts, for problems found when generating it.
    pub site: Site,
}

/// A generated or a fixed instance.
#[derive(Clone, Debug)]
pub enum InstanceSource {
    /// A random instance of the kind's family from these parameters.
    Generated(Params),
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
    "slips",
    "practice",
    "exercise",
];
const CONVENTION_KEYS: &[&str] = &[
    "preset",
    "order",
    "prune_on_equal",
    "values",
    "initial_window_counts",
];
const COMMON_KEYS: &[&str] = &[
    "set_rule",
    "order_rule",
    "swap_rule",
    "slips",
    "tolerance",
    "kind",
    "points",
    "ask",
    "title",
    "instance",
    "instance_file",
];

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
    // The title heads every answer sheet as a TOML comment, where a control
    // character (ESC, VT, FF, DEL) makes the whole sheet unreadable; and it
    // reaches terminals, gradebooks and pages.
    if let Some(e) = crate::input::hidden_char_error(source, title_doc, "the title", &title) {
        return Err(e);
    }
    let text = |key: &str| -> Result<Option<String>, InputError> {
        top.get(key)
            .map(|d| r.str(d, "\"…\"").map(str::to_string))
            .transpose()
    };
    let language_site = top.get("language").map(|d| source.site(d));
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
    let mut warnings = Vec::new();
    let conventions = match top.get("conventions") {
        None => Conventions::default(),
        Some(d) => read_conventions(&r, d, &mut warnings)?,
    };
    let list = top.require(source, "exercise", "[[exercise]]")?;
    if let DocKind::Table(_) = list.kind {
        return Err(source.error(
            list,
            "`[exercise]` makes one table; the exercises are a list of tables",
            "write `[[exercise]]`, with two brackets, above each exercise".to_string(),
        ));
    }
    let items = r.array(list, "[[exercise]] tables")?;
    if items.is_empty() {
        return Err(source.error(
            list,
            "the set has no exercises",
            "add at least one [[exercise]] table".to_string(),
        ));
    }
    let slips = top.get("slips").map(|d| read_slips(&r, d)).transpose()?;
    let path = match top.get("practice") {
        None => exercise::course_path(),
        Some(d) => read_path(&r, d)?,
    };
    let exercises = items
        .iter()
        .map(|item| read_exercise(&r, item, dir, slips.unwrap_or_default()))
        .collect::<Result<_, _>>()?;
    Ok(ProblemSet {
        title,
        subtitle: text("subtitle")?,
        instructions: text("instructions")?,
        language,
        seed,
        conventions,
        exercises,
        path,
        warnings,
        language_site,
    })
}

/// `[practice] path = ["minimax", "alpha-beta", …]`: the kinds of the
/// practice page's course path, in order, each once.
fn read_path(r: &Reader<'_>, doc: &Doc) -> Result<Vec<&'static KindDef>, InputError> {
    let example = "path = [\"minimax\", \"alpha-beta\"]";
    let t = r.table(doc, &["path"], example)?;
    let list = t.require(r.source, "path", example)?;
    let items = r.array(list, "kind names")?;
    if items.is_empty() {
        return Err(r.source.error(
            list,
            "the course path names no kind",
            format!("name the kinds in the order to practise them, `{example}`, or drop `[practice]` for the chapter's order"),
        ));
    }
    let mut path: Vec<&'static KindDef> = Vec::new();
    for item in items {
        let name = r.str(item, "\"minimax\"")?;
        let kind = exercise::kind(name).ok_or_else(|| {
            let hint = did_you_mean(name, &exercise::kind_names(), "the kinds are");
            r.source.error(
                item,
                format!("unknown exercise kind `{name}` in the course path"),
                hint,
            )
        })?;
        if path.iter().any(|k| k.name == kind.name) {
            return Err(r.source.error(
                item,
                format!("`{name}` is on the course path twice"),
                "name each kind once".to_string(),
            ));
        }
        path.push(kind);
    }
    Ok(path)
}

/// `conventions = "aima"` names a preset; a `[conventions]` table may name
/// one (`preset = "aima"`) and override its options one by one.
fn read_conventions(
    r: &Reader<'_>,
    doc: &Doc,
    warnings: &mut Vec<InputError>,
) -> Result<Conventions, InputError> {
    let read_preset = |d: &Doc| -> Result<Preset, InputError> {
        let name = r.str(d, "\"textbook\"")?;
        Preset::from_name(name).ok_or_else(|| {
            r.source.error(
                d,
                format!("unknown conventions preset `{name}`"),
                did_you_mean(name, &Preset::names(), "the presets are"),
            )
        })
    };
    if let DocKind::Str(_) = doc.kind {
        return Ok(Conventions {
            alpha_beta: read_preset(doc)?.options(),
            ..Conventions::default()
        });
    }
    let t = r.table(doc, CONVENTION_KEYS, "[conventions]")?;
    let named = t.get("preset").map(read_preset).transpose()?;
    let mut options = named.unwrap_or(Preset::Textbook).options();
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
        options.values = match r.str(d, "\"fail-soft\"")? {
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
    if let Some(d) = t.get("initial_window_counts") {
        options.initial_window_counts = r.bool(d, "initial_window_counts = false")?;
    }
    // Options given one by one, no preset named: say which procedure they are.
    let loose = ["prune_on_equal", "values", "initial_window_counts"]
        .iter()
        .any(|k| t.get(k).is_some());
    if named.is_none() && loose {
        let described = |p: Preset| format!("`{}` preset ({})", p.name(), p.source());
        let (message, hint) = match Preset::of(options) {
            Some(p) => (
                format!("these conventions search as the {} does", described(p)),
                format!("write `preset = \"{}\"` to name it on every key", p.name()),
            ),
            None => {
                let (p, differs) = Preset::nearest(options);
                let list: Vec<String> = differs.iter().map(|d| format!("`{d}`")).collect();
                (
                    format!(
                        "these conventions are no preset's: the nearest is the {}, which differs in {}",
                        described(p),
                        list.join(", ")
                    ),
                    "keys follow the options as written; name a preset (`preset = \"knuth-moore\"`) to match a course's reference".to_string(),
                )
            }
        };
        warnings.push(r.source.error(doc, message, hint));
    }
    Ok(Conventions {
        alpha_beta: options,
        ..Conventions::default()
    })
}

/// `slips = "accept"`, `"refuse"` or `{ penalty = 0.25 }`.
fn read_slips(r: &Reader<'_>, doc: &Doc) -> Result<SlipRule, InputError> {
    let hint = "write slips = \"accept\", slips = \"refuse\" or slips = { penalty = 0.25 }";
    if let DocKind::Table(_) = doc.kind {
        let t = r.table(doc, &["penalty"], "slips = { penalty = 0.25 }")?;
        let d = t.require(r.source, "penalty", "slips = { penalty = 0.25 }")?;
        let fraction = match d.kind {
            DocKind::Float(f) => f,
            DocKind::Int(i) => i as f64,
            _ => return Err(r.wrong_type(d, "a fraction from 0 to 1", "penalty = 0.25")),
        };
        return SlipRule::penalty(fraction).ok_or_else(|| {
            r.source.error(
                d,
                "a slip's penalty is a fraction from 0 to 1, in hundredths",
                "write penalty = 0.25 to take a quarter of what the answer earns".to_string(),
            )
        });
    }
    let name = r.str(doc, "\"accept\"")?;
    match name {
        "accept" => Ok(SlipRule::Accept),
        "refuse" => Ok(SlipRule::Refuse),
        _ => Err(r
            .source
            .error(doc, format!("unknown slip rule `{name}`"), hint.to_string())),
    }
}

fn read_exercise(
    r: &Reader<'_>,
    doc: &Doc,
    dir: &Path,
    slips: SlipRule,
) -> Result<Exercise, InputError> {
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
    let family_keys = kind.family.param_keys();
    let allowed: Vec<&str> = COMMON_KEYS
        .iter()
        .chain(family_keys)
        .copied()
        .chain(kind.measures.iter().map(|m| m.name()))
        .chain(["even"])
        .collect();
    check_limit_keys(source, doc, &allowed, kind)?;
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
        None => kind.field_names(),
        Some(d) => {
            let known: Vec<&str> = kind.field_names();
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
            kind.in_field_order(&ask)
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
            // The page's limit holds for typed-in instances as for generated ones.
            if let Some(n) = inst
                .figure_nodes()
                .filter(|&n| n as u64 > MAX_EXERCISE_NODES)
            {
                return Err(source.error(
                    d,
                    format!(
                        "this instance has {n} nodes; a figure stays legible on a page up to {MAX_EXERCISE_NODES}"
                    ),
                    "use a smaller tree or graph in a problem set (`treequiz solve` still solves this one)"
                        .to_string(),
                ));
            }
            // Answer sheets, grading tolerances and Moodle's numbers are whole.
            if let Some(v) = inst.decimal_value() {
                return Err(source.error(
                    d,
                    format!("this game tree has decimal values ({v}), and problem sets ask and grade whole numbers"),
                    "scale the values to whole numbers (×100 makes -4.01 into -401); `treequiz solve` and `convert` take decimals"
                        .to_string(),
                ));
            }
            if let Some(why) = (kind.unusable)(&inst).or_else(|| inst.exercise_refusal()) {
                return Err(source.error(
                    d,
                    format!("this instance cannot be used for {}", kind.name),
                    why,
                ));
            }
            if let Some((key, _)) = entries.iter().find(|(k, _)| {
                family_keys.contains(&k.name.as_str())
                    || kind.measures.iter().any(|m| m.name() == k.name)
                    || k.name == "even"
            }) {
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
        None => {
            check_budget_keys(r, &t, kind)?;
            let params = kind.family.read_params(r, &t, kind.budgets)?;
            if let Some((max_nodes, hint)) = params.page_size() {
                check_size(r, &t, max_nodes, hint)?;
            }
            InstanceSource::Generated(params)
        }
    };
    let mut scoring = Scoring {
        slips,
        ..Scoring::default()
    };
    if let Some(d) = t.get("slips") {
        scoring.slips = read_slips(r, d)?;
    }
    if let Some(d) = t.get("swap_rule") {
        let name = r.str(d, "\"half\"")?;
        scoring.swaps = SwapRule::parse(name).ok_or_else(|| {
            source.error(
                d,
                format!("unknown swap rule `{name}`"),
                did_you_mean(name, &["wrong", "half"], "the swap rules are"),
            )
        })?;
        if !kind.fields.iter().any(|f| f.swaps_with.is_some()) {
            return Err(source.error(
                d,
                format!(
                    "`{}` asks for no paired lists a swap could mix up",
                    kind.name
                ),
                "a swap rule applies to kinds that ask for α- and β-cuts (alpha-beta); remove it"
                    .to_string(),
            ));
        }
    }
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
    let mut limits = Vec::new();
    for &measure in kind.measures {
        if let Some(d) = t.get(measure.name()) {
            let (lo, hi) = r.small_range(d)?;
            limits.push(exercise::Limit {
                measure,
                lo: u64::from(lo),
                hi: u64::from(hi),
            });
        }
    }
    let even = match t.get("even") {
        None => true,
        Some(d) => r.bool(d, "even = false")?,
    };
    Ok(Exercise {
        site: source.site(doc),
        limits,
        even,
        scoring,
        kind,
        points,
        ask,
        title,
        source: source_of,
    })
}

/// A limit on a measure this kind does not count (`cuts` on a minimax
/// exercise), which another kind does: said as such, with the kind's own
/// measures, rather than as an unknown key.
fn check_limit_keys(
    source: &Source,
    doc: &Doc,
    allowed: &[&str],
    kind: &KindDef,
) -> Result<(), InputError> {
    let DocKind::Table(entries) = &doc.kind else {
        return Ok(());
    };
    let elsewhere = |name: &str| {
        exercise::KINDS
            .iter()
            .filter(|k| k.measures.iter().any(|m| m.name() == name))
            .map(|k| k.name)
            .collect::<Vec<_>>()
    };
    for (key, value) in entries {
        let name = key.name.as_str();
        let others = elsewhere(name);
        if allowed.contains(&name) || others.is_empty() {
            continue;
        }
        let at = Doc {
            span: key.span.clone(),
            path: value.path.clone(),
            kind: DocKind::Null,
        };
        let own: Vec<&str> = kind.measures.iter().map(|m| m.name()).collect();
        return Err(source.error(
            &at,
            format!("`{name}` is not a measure of {}", kind.name),
            format!(
                "{}'s measures are {} (`{name}` is a measure of {})",
                kind.name,
                own.join(", "),
                others.join(", ")
            ),
        ));
    }
    Ok(())
}

/// A generated instance is searched the way its kind asks: a budgeted kind
/// takes only its own budget key (an iterative-deepening horizon given to
/// node-budget, or any budget given to minimax, would hand the kind an
/// instance it cannot solve), and the others take none.
fn check_budget_keys(r: &Reader<'_>, t: &Table<'_>, kind: &KindDef) -> Result<(), InputError> {
    let own = kind.budgets.key_and_range();
    for key in ["budget", "deepening"] {
        let Some(d) = t.get(key) else { continue };
        if own.is_some_and(|(k, _)| k == key) {
            continue;
        }
        let takes = match own {
            Some((k, (lo, hi))) => format!(
                "{} draws its node budget from `{k}` (default \"{lo}..{hi}\")",
                kind.name
            ),
            None => format!("{} searches without a node budget", kind.name),
        };
        let others: Vec<&str> = exercise::KINDS
            .iter()
            .filter(|k| {
                k.family == kind.family && k.budgets.key_and_range().is_some_and(|(k, _)| k == key)
            })
            .map(|k| k.name)
            .collect();
        let hint = if others.is_empty() {
            format!("{takes}: remove `{key}`")
        } else {
            format!("{takes}; `{key}` is for {}", others.join(" and "))
        };
        return Err(r
            .source
            .error(d, format!("`{key}` does not apply to {}", kind.name), hint));
    }
    Ok(())
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
