//! AND/OR graphs: the model, instance files, generators, solvability, optimal cost and AO*.

pub mod ao_star;
pub mod file;
pub mod generate;
pub mod graph;
pub mod solve;

pub use ao_star::{AoStar, Cycle, Outcome, Revision, Untraced, ao_star, try_ao_star};
pub use graph::{Connector, ConnectorId, Cost, CostModel, Graph, GraphError, Node, NodeId};
pub use solve::{Optimal, optimal, solution_graph, solvable, try_optimal};
