//! Game trees for minimax and alpha-beta, and game trees with estimates
//! searched under a node budget.

use super::{FamilyDef, Form, Generator, Instance, Model, Params};
use crate::draw::{Figure, TreeMarks, tree_figure};
use crate::games::budget_tree;
use crate::games::lookahead::Budgets;
use crate::gametree::{self, Tree};
use crate::generate::GenerateError;
use crate::input::{Doc, InputError, Reader, Source};
use crate::lang::Lang;

pub(super) static FAMILY: FamilyDef = FamilyDef {
    name: "game-tree",
    key_name: "tree",
    noun: "a game tree",
    param_keys: gametree::generate::KEYS,
    read_params,
    read,
    forms: &[
        Form {
            name: "python",
            extension: ".py",
            marker: None,
            read: Some(|s| gametree::pylist::read(s).map(Instance::GameTree)),
            write: |i, _| {
                gametree::pylist::write(plain(i)?).ok_or_else(|| {
                    "the root is MIN, and a Python nested list's root is MAX; write it with --to toml"
                        .to_string()
                })
            },
        },
        Form {
            name: "cs188",
            extension: ".test",
            marker: None,
            read: Some(|s: &Source| gametree::cs188::read(s).map(Instance::GameTree)),
            write: |i, agent| gametree::cs188::write(plain(i)?, agent),
        },
    ],
    about,
    document: |i| match i {
        Instance::BudgetTree(b) => b.document(),
        i => gametree::file::document(tree(i)),
    },
    model: |i| match i {
        Instance::BudgetTree(b) => Model::BudgetTree(b.lookahead(), &b.tree),
        i => Model::Tree(tree(i)),
    },
    sheet_figure,
    figure_nodes: |i| Some(tree(i).len()),
    largest_number,
    depth: |i| Some(tree(i).height() as u64),
};

/// The whole tree, budgeted or not.
fn tree(instance: &Instance) -> &Tree {
    instance
        .game_tree()
        .expect("the game-tree family holds game trees")
}

/// A tree with no estimates or budget, which the Python and CS188 forms hold.
fn plain(instance: &Instance) -> Result<&Tree, String> {
    match instance {
        Instance::GameTree(t) => Ok(t),
        _ => Err("a game tree searched under a node budget; Python nested lists and CS188 tests have no place for its estimates and budget, so --to python and --to cs188 would drop them: write it with --to toml or --to json".to_string()),
    }
}

fn read_params(
    r: &Reader<'_>,
    t: &crate::input::Table<'_>,
    budgets: Budgets,
) -> Result<Params, InputError> {
    let tree = gametree::generate::read_params(r, t)?;
    let budgets = Budgets::read(r, t, budgets)?;
    Ok(if budgets.any() {
        let p = budget_tree::Params { tree, budgets };
        r.check_generator(t, p.validate().err())?;
        Params::new(p)
    } else {
        Params::new(tree)
    })
}

impl Generator for gametree::generate::Params {
    fn generate(
        &self,
        seed: u64,
        alpha_beta: gametree::Options,
    ) -> Result<Instance, GenerateError> {
        let p = gametree::generate::Params {
            alpha_beta,
            ..self.clone()
        };
        Ok(Instance::GameTree(gametree::generate::generate(&p, seed)?))
    }

    fn page_size(&self) -> Option<(u64, &'static str)> {
        Some((self.max_nodes(), "lower depth or branching"))
    }
}

impl Generator for budget_tree::Params {
    fn generate(
        &self,
        seed: u64,
        alpha_beta: gametree::Options,
    ) -> Result<Instance, GenerateError> {
        let mut p = self.clone();
        p.tree.alpha_beta = alpha_beta;
        Ok(Instance::BudgetTree(Box::new(budget_tree::generate(
            &p, seed,
        )?)))
    }

    fn page_size(&self) -> Option<(u64, &'static str)> {
        Some((self.tree.max_nodes(), "lower depth or branching"))
    }
}

fn read(reader: &Reader<'_>, doc: &Doc) -> Result<Instance, InputError> {
    let keys = [gametree::file::KEYS, budget_tree::KEYS].concat();
    let table = reader.table(doc, &keys, "")?;
    let tree = gametree::file::read(reader, &table)?;
    Ok(match budget_tree::read(reader, &table, &tree)? {
        Some(b) => Instance::BudgetTree(Box::new(b)),
        None => Instance::GameTree(tree),
    })
}

fn about(instance: &Instance, lang: &Lang) -> String {
    let t = tree(instance);
    lang.fill(
        "solve.about_tree",
        &[
            ("nodes", &t.len().to_string()),
            ("leaves", &t.leaves().count().to_string()),
            ("depth", &t.height().to_string()),
            ("root", &t.label(t.root())),
            ("player", t.root_player().name()),
        ],
    )
}

fn sheet_figure(instance: &Instance, _: &Model<'_>) -> (Figure, String) {
    let marks = match instance {
        // The whole tree, each inner node below the root with its estimate.
        Instance::BudgetTree(b) => Some(TreeMarks {
            values: b
                .tree
                .ids()
                .map(|id| b.estimate(id).map(|e| format!("e={e}")))
                .collect(),
            given: true,
            ..Default::default()
        }),
        _ => None,
    };
    (tree_figure(tree(instance), marks.as_ref()), String::new())
}

/// The largest leaf value, or estimate, in absolute value.
fn largest_number(instance: &Instance) -> u64 {
    let leaves = largest_leaf(tree(instance));
    match instance {
        Instance::BudgetTree(b) => leaves.max(b.estimates().map(magnitude).max().unwrap_or(0)),
        _ => leaves,
    }
}

/// How large a value is written: a decimal's whole part, plus one.
pub(super) fn magnitude(v: crate::value::Value) -> u64 {
    use crate::value::Value;
    match v {
        Value::Finite(n) => n.unsigned_abs(),
        Value::Decimal(d) => d.units().unsigned_abs() / 10u64.pow(d.places()) + 1,
        Value::PosInf | Value::NegInf => 0,
    }
}

/// The largest leaf value of a tree, in absolute value.
pub(super) fn largest_leaf(t: &Tree) -> u64 {
    t.leaves()
        .filter_map(|id| t.leaf(id))
        .map(magnitude)
        .max()
        .unwrap_or(0)
}
