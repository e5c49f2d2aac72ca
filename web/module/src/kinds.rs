//! The page without a teacher's set: every exercise kind in its three sizes
//! ([`KindDef::sizes`](treequiz::exercise::KindDef::sizes)), each a
//! one-exercise problem set that `treequiz generate` reads as well.

use serde_json::{Value as Json, json};
use treequiz::exercise::{self, Sizes};
use treequiz::lang::Lang;

/// What the page offers: the kinds in the registry's order with their names
/// in `lang`, the sizes, the languages, and the page's own strings.
pub fn start(lang: &Lang) -> Json {
    let kinds: Vec<Json> = exercise::KINDS
        .iter()
        .map(|k| json!({ "name": k.name, "title": lang.get(&format!("kind.{}", k.name)) }))
        .collect();
    // Named without reading their tables: the page reads only its own.
    let languages: Vec<Json> = treequiz::lang::BUILTIN
        .iter()
        .map(|b| json!({ "code": b.code, "name": b.name }))
        .collect();
    json!({
        "ok": true,
        "kinds": kinds,
        "sizes": Sizes::NAMES.iter().map(|s| json!({
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
    let Some(def) = exercise::kind(kind) else {
        return Err(format!(
            "`{kind}` is not a kind; the kinds are {}",
            exercise::kind_names().join(", ")
        ));
    };
    let lines = match size {
        "" => def.sizes.medium,
        s => def
            .sizes
            .get(s)
            .ok_or_else(|| format!("`{s}` is not a size; the sizes are small, medium and large"))?,
    };
    // exercise::check reads every size as part of a problem set.
    let mut exercise: toml::Table = lines.parse().expect("the sizes are TOML");
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
