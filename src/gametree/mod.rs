//! Game trees: the model, instance files, generators, minimax and alpha-beta.

pub mod alpha_beta;
pub mod cs188;
pub mod file;
pub mod generate;
pub mod minimax;
pub mod preset;
pub mod pylist;
pub mod tree;

pub use alpha_beta::{
    AlphaBeta, Bound, Cut, CutKind, Event, Options, Order, Pruned, Step, Summary, ValueMode,
    alpha_beta, alpha_beta_summary,
};
pub use minimax::{Minimax, minimax, minimax_value};
pub use preset::{Difference, Preset};
pub use tree::{Grow, NodeId, Player, Shape, Tree, TreeError, textbook_label};
