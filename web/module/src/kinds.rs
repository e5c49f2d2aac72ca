//! The page without a teacher's set: every exercise kind in three sizes, each
//! a one-exercise problem set that `treequiz generate` reads as well.

use serde_json::{Value as Json, json};
use treequiz::lang::Lang;

/// Each kind's generator options by size (small, medium, large): problem-set
/// lines, as in the shipped sets, small enough to work by hand.
const SIZES: &[(&str, [&str; 3])] = &[
    (
        "minimax",
        [
            "depth = 2\nbranching = 3\nvalues = \"0..20\"\nunique_best = true",
            "depth = 3\nbranching = \"2..3\"\nvalues = \"0..20\"\nunique_best = true",
            "depth = 4\nbranching = 2\nvalues = \"0..20\"\nunique_best = true",
        ],
    ),
    (
        "alpha-beta",
        [
            "depth = 2\nbranching = 3\nvalues = \"0..20\"\nmin_cuts = 1\nunique_best = true",
            "depth = 3\nbranching = \"2..3\"\nvalues = \"0..20\"\nmin_cuts = 2\nunique_best = true",
            "depth = 4\nbranching = 2\nvalues = \"0..20\"\nmin_cuts = 3\nunique_best = true",
        ],
    ),
    (
        "expectiminimax",
        [
            "depth = 2\nbranching = \"2..3\"\nvalues = \"0..12\"\nunique_best = true",
            "depth = 2\nbranching = \"2..3\"\nvalues = \"0..12\"\nweighted = true\ndiffers_from_minimax = true\nunique_best = true",
            "depth = 4\nbranching = 2\nvalues = \"0..12\"\nlevels = [\"max\", \"chance\", \"min\", \"chance\"]\nweighted = true\nunique_best = true",
        ],
    ),
    (
        "node-budget",
        [
            "depth = 3\nbranching = \"1..3\"\nvalues = \"0..20\"\nbudget = \"4..8\"",
            "depth = 3\nbranching = \"2..3\"\nvalues = \"0..20\"\nbudget = \"6..12\"\nunique_best = true",
            "depth = 4\nbranching = \"1..3\"\nvalues = \"0..20\"\nbudget = \"8..20\"\nmin_cuts = 1\nunique_best = true",
        ],
    ),
    (
        "iterative-deepening",
        [
            "depth = 2\nbranching = \"2..3\"\nvalues = \"0..20\"\ndeepening = \"5..12\"",
            "depth = 3\nbranching = \"2..3\"\nvalues = \"0..20\"\ndeepening = \"10..30\"\nunique_best = true",
            "depth = 4\nbranching = 2\nvalues = \"0..20\"\ndeepening = \"20..50\"\nunique_best = true",
        ],
    ),
    (
        "and-or-solvable",
        [
            "depth = 2\nnodes = \"7..12\"\nalternatives = \"1..2\"\narity = \"1..3\"\ndead_end_percent = 35\nsolvable = false",
            "depth = 3\nnodes = \"10..22\"\nalternatives = \"1..2\"\narity = \"1..3\"\ndead_end_percent = 35\nsolvable = false\nshared_percent = 15",
            "depth = 4\nnodes = \"18..30\"\nalternatives = \"1..2\"\narity = \"1..3\"\ndead_end_percent = 35\nsolvable = false\nshared_percent = 15",
        ],
    ),
    (
        "solution-cost",
        [
            "depth = 2\nnodes = \"7..14\"\nalternatives = 2\narity = \"1..3\"\nterminal_percent = 0\narc_costs = \"1..12\"\nunique = true",
            "depth = 3\nnodes = \"10..26\"\nalternatives = 2\narity = \"1..2\"\nterminal_percent = 0\narc_costs = \"1..12\"\nunique = true",
            "depth = 3\nnodes = \"16..34\"\nalternatives = 2\narity = \"1..3\"\nterminal_percent = 0\narc_costs = \"1..12\"\nunique = true",
        ],
    ),
    (
        "ao-star",
        [
            "depth = 2\nnodes = \"7..14\"\nalternatives = \"1..2\"\narity = \"1..2\"\ncost = \"sum\"\nmin_expansions = 2\nunique = true",
            "depth = 3\nnodes = \"10..22\"\nalternatives = \"1..2\"\narity = \"1..2\"\ncost = \"sum\"\nmin_switches = 1\nunique = true",
            "depth = 4\nnodes = \"16..30\"\nalternatives = \"1..2\"\narity = \"1..2\"\ncost = \"sum\"\nmin_expansions = 5\nmin_switches = 1\nunique = true",
        ],
    ),
    (
        "tictactoe",
        [
            "marks = \"4..5\"\ndepth = 2\nsymmetry = true\nunique_best = true",
            "marks = \"2..3\"\ndepth = 2\nsymmetry = true\nmin_cuts = 1\nunique_best = true",
            "marks = \"1..2\"\ndepth = 2\nsymmetry = true\nmin_cuts = 2\nunique_best = true",
        ],
    ),
    (
        "grundy",
        ["coins = \"5..6\"", "coins = \"6..8\"", "coins = \"8..9\""],
    ),
    (
        "othello",
        [
            "plies = \"4..8\"\ndepth = 1",
            "plies = \"4..8\"\ndepth = 2\nmin_cuts = 1\nunique_best = true",
            "plies = \"10..16\"\ndepth = 2\nmin_cuts = 2\nunique_best = true",
        ],
    ),
    (
        "othello-terms",
        [
            "plies = \"44..50\"",
            "plies = \"34..42\"\nstable = 10\nfrontier = -1",
            "plies = \"24..32\"\nstable = 10\nfrontier = -1\npotential = 2\nregions = 4",
        ],
    ),
    (
        "othello-budget",
        [
            "plies = \"44..50\"\nbudget = \"4..8\"",
            "plies = \"44..50\"\nbudget = \"4..12\"\nunique_best = true",
            "plies = \"40..50\"\nbudget = \"6..16\"\nmin_cuts = 1\nunique_best = true",
        ],
    ),
    (
        "othello-deepening",
        [
            "plies = \"4..10\"\ndeepening = \"10..20\"",
            "plies = \"4..10\"\ndeepening = \"30..60\"\nunique_best = true",
            "plies = \"4..8\"\ndeepening = \"60..120\"\nunique_best = true",
        ],
    ),
];

const SIZE_NAMES: [&str; 3] = ["small", "medium", "large"];

/// What the page offers: the kinds in the registry's order with their names
/// in `lang`, the sizes, the languages, and the page's own strings.
pub fn start(lang: &Lang) -> Json {
    let kinds: Vec<Json> = treequiz::exercise::KINDS
        .iter()
        .filter(|k| SIZES.iter().any(|(name, _)| *name == k.name))
        .map(|k| json!({ "name": k.name, "title": lang.get(&format!("kind.{}", k.name)) }))
        .collect();
    let languages: Vec<Json> = treequiz::lang::BUILTIN
        .iter()
        .filter_map(|(code, _)| Lang::builtin(code))
        .map(|l| json!({ "code": l.code, "name": l.get("page.language_name") }))
        .collect();
    json!({
        "ok": true,
        "kinds": kinds,
        "sizes": SIZE_NAMES.iter().map(|s| json!({
            "name": s, "title": lang.get(&format!("page.size_{s}")),
        })).collect::<Vec<_>>(),
        "languages": languages,
        "strings": lang.nested().get("page"),
    })
}

/// A problem set of one exercise of `kind` in `size` (medium when none),
/// with `options` (a table of generator options, as a link gives them:
/// `{"depth": "3"}`) over the size's, its subtitle and language `lang`'s.
pub fn set(kind: &str, size: &str, options: Option<&Json>, lang: &Lang) -> Result<String, String> {
    let Some((_, sizes)) = SIZES.iter().find(|(name, _)| *name == kind) else {
        let names: Vec<&str> = SIZES.iter().map(|(n, _)| *n).collect();
        return Err(format!(
            "`{kind}` is not a kind; the kinds are {}",
            names.join(", ")
        ));
    };
    let at = match size {
        "" => 1,
        s => SIZE_NAMES
            .iter()
            .position(|n| *n == s)
            .ok_or_else(|| format!("`{s}` is not a size; the sizes are small, medium and large"))?,
    };
    let mut exercise: toml::Table = sizes[at].parse().expect("the sizes are TOML");
    for (key, value) in options.and_then(Json::as_object).into_iter().flatten() {
        let text = value
            .as_str()
            .map_or_else(|| value.to_string(), str::to_string);
        // As `treequiz sample` reads `key=value`: a TOML value, or else a string.
        let value = format!("v = {text}")
            .parse::<toml::Table>()
            .ok()
            .and_then(|mut t| t.remove("v"))
            .unwrap_or(toml::Value::String(text));
        exercise.insert(key.replace('-', "_"), value);
    }
    let mut head = toml::Table::new();
    // The title seeds the exercise (with the seed): the same in every
    // language, so that switching the page's language keeps the exercise.
    head.insert("title".into(), format!("treequiz: {kind}").into());
    let key = format!("kind.{kind}");
    head.insert(
        "subtitle".into(),
        lang.fill("page.practice_title", &[("kind", lang.get(&key))])
            .into(),
    );
    head.insert("language".into(), lang.code.clone().into());
    head.insert("conventions".into(), "textbook".into());
    let mut first = toml::Table::new();
    first.insert("kind".into(), kind.into());
    first.insert("points".into(), 10.into());
    first.extend(exercise);
    head.insert(
        "exercise".into(),
        toml::Value::Array(vec![toml::Value::Table(first)]),
    );
    toml::to_string(&head).map_err(|e| e.to_string())
}
