//! Exercise kinds: instance → answers, key drawing and key table. One module
//! per kind; [`KINDS`] is the registry, so a new kind is one module and one line.

pub(crate) mod alpha_beta;
pub mod answer;
mod ao_star;
mod grundy;
mod lookahead;
mod minimax;
mod othello;
mod solution_cost;
mod solvable;
mod tictactoe;

use crate::draw::Figure;
use crate::gametree;
use crate::instance::Instance;
use crate::lang::Lang;
pub use answer::{Answer, Shape};
pub use othello::figure as othello_figure;
pub use tictactoe::figure as tictactoe_figure;

/// Which instances a kind works on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Game trees.
    GameTree,
    /// AND/OR graphs.
    AndOr,
    /// Tic-tac-toe positions.
    TicTacToe,
    /// Othello positions.
    Othello,
    /// Grundy's game from a pile of coins.
    Grundy,
}

impl Family {
    /// What an instance of the family is, for messages ("a game tree").
    pub fn noun(self) -> &'static str {
        match self {
            Family::GameTree => "a game tree",
            Family::AndOr => "an AND/OR graph",
            Family::TicTacToe => "a tic-tac-toe position",
            Family::Othello => "an Othello position",
            Family::Grundy => "a pile of coins for Grundy's game",
        }
    }
}

/// A field an exercise can ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The key in answer files, e.g. `pruned`.
    pub name: &'static str,
    /// The shape of its answer.
    pub shape: Shape,
}

/// A table of the key (alpha-beta steps, AO* cycles): headers and rows of text.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Table {
    /// Column headings.
    pub headers: Vec<String>,
    /// Rows of cells.
    pub rows: Vec<Vec<String>>,
}

/// Everything a key shows for one exercise.
#[derive(Clone, Debug)]
pub struct Solved {
    /// The answer to every field the kind knows, in field order.
    pub answers: Vec<(&'static str, Answer)>,
    /// The drawing with the key's marks.
    pub figure: Figure,
    /// The step-by-step table.
    pub table: Table,
    /// Sentences that explain the answer (cuts and their causes, switches).
    pub notes: Vec<String>,
}

/// The conventions a set fixes for its exercises (DESIGN §3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Conventions {
    /// Alpha-beta options.
    pub alpha_beta: gametree::Options,
}

/// An exercise kind.
pub struct KindDef {
    /// The name used in problem sets.
    pub name: &'static str,
    /// The instances it works on.
    pub family: Family,
    /// The fields it can ask for, in the order the sheet lists them.
    pub fields: &'static [Field],
    /// Solves an instance of the kind's family.
    pub solve: fn(&Instance, &Conventions, &Lang) -> Solved,
    /// Why an instance cannot be used for this kind, if it cannot.
    pub unusable: fn(&Instance) -> Option<String>,
}

impl std::fmt::Debug for KindDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// Every exercise kind.
pub static KINDS: &[&KindDef] = &[
    &minimax::KIND,
    &alpha_beta::KIND,
    &solvable::KIND,
    &solution_cost::KIND,
    &ao_star::KIND,
    &tictactoe::KIND,
    &grundy::KIND,
    &othello::KIND,
];

/// The kind with this name.
pub fn kind(name: &str) -> Option<&'static KindDef> {
    KINDS.iter().copied().find(|k| k.name == name)
}

/// The names of every kind, for messages.
pub fn kind_names() -> Vec<&'static str> {
    KINDS.iter().map(|k| k.name).collect()
}

fn any_instance(_: &Instance) -> Option<String> {
    None
}

/// The game tree of a game-tree kind's instance.
fn tree(instance: &Instance) -> &gametree::Tree {
    match instance {
        Instance::GameTree(t) => t,
        _ => unreachable!("the problem set checks the family"),
    }
}

/// The graph of an AND/OR kind's instance.
fn graph(instance: &Instance) -> &crate::andor::Graph {
    match instance {
        Instance::AndOr(g) => g,
        _ => unreachable!("the problem set checks the family"),
    }
}
