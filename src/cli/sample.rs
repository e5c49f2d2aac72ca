//! `treequiz sample FAMILY --seed N [KEY=VALUE…]`: a generated instance,
//! printed as an instance file. The options are a problem set's keys, read by
//! the same reader (`depth=3 branching=2..3 min_cuts=2`); `--depth 3`,
//! `--min-cuts 2` and flags such as `--unique-best` are the same options.

use treequiz::input::{Reader, Source, toml_key, toml_string};
use treequiz::instance::Family;

use super::UsageError;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// What to sample: game-tree, chance-tree, and-or-graph, tictactoe, othello or grundy.
    family: String,
    /// The seed: the same seed and options give the same instance, on every machine.
    #[arg(long)]
    seed: u64,
    /// Print TOML (the default).
    #[arg(long, conflicts_with = "json")]
    toml: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    conventions: super::conventions::ConventionArgs,
    /// Generator options, as in a problem set's [[exercise]]: `depth=3`,
    /// `branching=2..3`, `--min-cuts 2`, `--unique-best` (see docs/generators.md).
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "OPTION"
    )]
    options: Vec<String>,
}

/// Flags that name the opposite of a problem set's key.
const NEGATED: &[(&str, &str)] = &[
    ("inadmissible", "admissible"),
    ("maybe_unsolvable", "solvable"),
    ("no_symmetry", "symmetry"),
];

/// The options as a TOML table: `key=value`, `--key value`, `--key=value`,
/// or a lone `--flag` (true). A value TOML cannot read is taken as a string,
/// so `branching=2..3` and `root=min` need no quotes.
fn options_table(options: &[String]) -> Result<String, UsageError> {
    let mut lines = Vec::new();
    let mut i = 0;
    while i < options.len() {
        let arg = &options[i];
        let (key, value) = match arg.strip_prefix("--") {
            Some(flag) => match flag.split_once('=') {
                Some((k, v)) => (k.to_string(), Some(v.to_string())),
                None => {
                    let next = options.get(i + 1).filter(|n| !n.starts_with("--"));
                    if next.is_some() {
                        i += 1;
                    }
                    (flag.to_string(), next.cloned())
                }
            },
            None => match arg.split_once('=') {
                Some((k, v)) => (k.to_string(), Some(v.to_string())),
                None => {
                    return Err(UsageError(format!(
                        "`{arg}` is not an option: write `key=value` (as in a problem set) or `--key value`"
                    )));
                }
            },
        };
        let key = key.replace('-', "_");
        if super::conventions::is_flag(&key) {
            return Err(UsageError(format!(
                "`{arg}` is an option of `sample` itself: put it before the generator options (`sample game-tree --seed 1 --conventions aima depth=3`)"
            )));
        }
        let (key, value) = match (NEGATED.iter().find(|(flag, _)| *flag == key), value) {
            (Some((_, positive)), None) => (positive.to_string(), "false".to_string()),
            (_, None) => (key, "true".to_string()),
            (_, Some(v)) => {
                let literal = toml::from_str::<toml::Table>(&format!("v = {v}")).is_ok();
                (key, if literal { v } else { toml_string(&v) })
            }
        };
        lines.push(format!("{} = {value}", toml_key(&key)));
        i += 1;
    }
    Ok(lines.join("\n") + "\n")
}

pub(crate) fn run(args: &Args) -> Result<String, UsageError> {
    let family = Family::from_name(&args.family).ok_or_else(|| {
        let names: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
        UsageError(format!(
            "`{}` is not a kind of instance; {}",
            args.family,
            treequiz::input::did_you_mean(&args.family, &names, "the kinds are")
        ))
    })?;
    let source = Source {
        path: "(sample options)".into(),
        text: options_table(&args.options)?,
    };
    let doc = source.parse().map_err(|e| UsageError(e.to_string()))?;
    let r = Reader { source: &source };
    let table = r
        .table(&doc, family.param_keys(), "depth = 3")
        .map_err(|e| UsageError(e.to_string()))?;
    let params = family
        .read_params(&r, &table, treequiz::games::lookahead::Budgets::NONE)
        .map_err(|e| UsageError(e.to_string()))?;
    let instance = params
        .generate(args.seed, args.conventions.options()?)
        .map_err(|e| UsageError(e.to_string()))?;
    let text = if args.json {
        instance.to_json()
    } else {
        instance.to_toml()
    };
    // What `sample` prints, `solve` reads: the instance is read back as a file would be.
    let written = Source {
        path: "(the sampled instance)".into(),
        text,
    };
    treequiz::instance::parse(&written).map_err(|e| {
        UsageError(format!(
            "these options give an instance that no instance file may hold:
{e}"
        ))
    })?;
    Ok(written.text)
}
