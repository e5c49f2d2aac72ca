//! `treequiz sample KIND --seed N`: a generated instance, printed as an instance file.
//! Grundy's game needs no sampling: its instance is two numbers.

use clap::Subcommand;
use treequiz::andor::{self, CostModel};
use treequiz::games::lookahead::Search;
use treequiz::games::{othello, tictactoe};
use treequiz::gametree::{self, Player};
use treequiz::instance::Instance;

use treequiz::input::parse_range;

use super::UsageError;

#[derive(clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    kind: Kind,
}

/// Output format shared by every kind.
#[derive(clap::Args)]
struct Format {
    /// The seed: the same seed and options give the same instance, on every machine.
    #[arg(long)]
    seed: u64,
    /// Print TOML (the default).
    #[arg(long, conflicts_with = "json")]
    toml: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Subcommand)]
enum Kind {
    /// A game tree for minimax and alpha-beta.
    GameTree {
        #[command(flatten)]
        format: Format,
        /// Levels below the root.
        #[arg(long, default_value_t = 3)]
        depth: u32,
        /// Children per inner node: `2` or a range `2..3`.
        #[arg(long, default_value = "2..3", value_parser = parse_range::<u32>)]
        branching: (u32, u32),
        /// Leaf values: a range such as `0..20` or `-9..9`.
        #[arg(long, default_value = "0..20", value_parser = parse_range::<i64>, allow_hyphen_values = true)]
        values: (i64, i64),
        /// The player at the root.
        #[arg(long, value_enum, default_value = "max")]
        root: PlayerArg,
        /// Make all leaf values different.
        #[arg(long)]
        distinct: bool,
        /// At least this many alpha-beta cuts (left to right, prune on equality).
        #[arg(long)]
        min_cuts: Option<u32>,
        /// At most this many cuts.
        #[arg(long)]
        max_cuts: Option<u32>,
        /// Exactly one best move at the root.
        #[arg(long)]
        unique_best: bool,
    },
    /// An AND/OR graph for solvability, solution cost and AO*.
    AndOrGraph {
        #[command(flatten)]
        format: Format,
        /// Levels below the start node.
        #[arg(long, default_value_t = 3)]
        depth: u32,
        /// Connectors per inner node: `1..2`.
        #[arg(long, default_value = "1..2", value_parser = parse_range::<u32>)]
        alternatives: (u32, u32),
        /// Children per connector: `1..2` (1 = OR branch, 2 or more = AND group).
        #[arg(long, default_value = "1..2", value_parser = parse_range::<u32>)]
        arity: (u32, u32),
        /// The cost model.
        #[arg(long, value_enum, default_value = "connector")]
        cost: ModelArg,
        /// Arc costs: `1` (the default costs) or a range such as `1..3`.
        #[arg(long, default_value = "1", value_parser = parse_range::<u64>)]
        arc_costs: (u64, u64),
        /// Allow h to overestimate (not admissible).
        #[arg(long)]
        inadmissible: bool,
        /// Percentage of inner-level nodes that are goals.
        #[arg(long, default_value_t = 10)]
        terminal_percent: u32,
        /// Percentage of children that reuse a node of their level (shared nodes).
        #[arg(long, default_value_t = 0)]
        shared_percent: u32,
        /// Percentage of bottom-level nodes that are dead ends.
        #[arg(long, default_value_t = 0)]
        dead_end_percent: u32,
        /// Allow an unsolvable start node.
        #[arg(long)]
        maybe_unsolvable: bool,
        /// AO* must expand at least this many nodes.
        #[arg(long)]
        min_expansions: Option<u32>,
        /// AO* must switch a marked connector at least this many times.
        #[arg(long)]
        min_switches: Option<u32>,
        /// No ties anywhere in the answer.
        #[arg(long)]
        unique: bool,
        /// The number of nodes: `25` or a range such as `20..25` (drawn by depth, kept if it fits).
        #[arg(long, value_parser = parse_range::<u32>)]
        nodes: Option<(u32, u32)>,
    },
    /// A reachable tic-tac-toe position, the side to move as MAX.
    Tictactoe {
        #[command(flatten)]
        format: Format,
        /// Marks on the board: `2` or a range `2..4`.
        #[arg(long, default_value = "2..4", value_parser = parse_range::<u32>)]
        marks: (u32, u32),
        /// Plies searched.
        #[arg(long, default_value_t = 2)]
        depth: u32,
        /// Search moves that give symmetric positions apart.
        #[arg(long)]
        no_symmetry: bool,
        /// At least this many alpha-beta cuts (left to right, prune on equality).
        #[arg(long)]
        min_cuts: Option<u32>,
        /// Exactly one best move.
        #[arg(long)]
        unique_best: bool,
    },
    /// A reachable Othello position, the side to move as MAX, default weights.
    Othello {
        #[command(flatten)]
        format: Format,
        /// Random moves from the opening: `6` or a range `4..10`.
        #[arg(long, default_value = "4..10", value_parser = parse_range::<u32>)]
        plies: (u32, u32),
        /// Plies searched (1 to 3).
        #[arg(long, default_value_t = 1)]
        depth: u32,
        /// At least this many alpha-beta cuts (left to right, prune on equality).
        #[arg(long)]
        min_cuts: Option<u32>,
        /// Exactly one best move.
        #[arg(long)]
        unique_best: bool,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum PlayerArg {
    Max,
    Min,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum ModelArg {
    Connector,
    Sum,
    Max,
}

pub(crate) fn run(args: &Args) -> Result<String, UsageError> {
    let (instance, format) = match &args.kind {
        Kind::GameTree {
            format,
            depth,
            branching,
            values,
            root,
            distinct,
            min_cuts,
            max_cuts,
            unique_best,
        } => {
            let params = gametree::generate::Params {
                depth: *depth,
                branching: *branching,
                values: *values,
                root: match root {
                    PlayerArg::Max => Player::Max,
                    PlayerArg::Min => Player::Min,
                },
                distinct: *distinct,
                min_cuts: *min_cuts,
                max_cuts: *max_cuts,
                unique_best: *unique_best,
                alpha_beta: gametree::Options::default(),
            };
            let tree = gametree::generate::generate(&params, format.seed)
                .map_err(|e| UsageError(e.to_string()))?;
            (Instance::GameTree(tree), format)
        }
        Kind::AndOrGraph {
            format,
            depth,
            alternatives,
            arity,
            cost,
            arc_costs,
            inadmissible,
            terminal_percent,
            shared_percent,
            dead_end_percent,
            maybe_unsolvable,
            min_expansions,
            min_switches,
            unique,
            nodes,
        } => {
            let params = andor::generate::Params {
                depth: *depth,
                alternatives: *alternatives,
                arity: *arity,
                model: match cost {
                    ModelArg::Connector => CostModel::Connector,
                    ModelArg::Sum => CostModel::Sum,
                    ModelArg::Max => CostModel::Max,
                },
                arc_costs: *arc_costs,
                admissible: !inadmissible,
                terminal_percent: *terminal_percent,
                shared_percent: *shared_percent,
                dead_end_percent: *dead_end_percent,
                solvable: !maybe_unsolvable,
                min_expansions: *min_expansions,
                min_switches: *min_switches,
                unique: *unique,
                nodes: *nodes,
            };
            let graph = andor::generate::generate(&params, format.seed)
                .map_err(|e| UsageError(e.to_string()))?;
            (Instance::AndOr(graph), format)
        }
        Kind::Tictactoe {
            format,
            marks,
            depth,
            no_symmetry,
            min_cuts,
            unique_best,
        } => {
            let params = tictactoe::Params {
                marks: *marks,
                symmetry: !no_symmetry,
                search: Search {
                    min_cuts: *min_cuts,
                    unique_best: *unique_best,
                    ..Search::plies(*depth)
                },
            };
            let game =
                tictactoe::generate(&params, format.seed).map_err(|e| UsageError(e.to_string()))?;
            (Instance::TicTacToe(game), format)
        }
        Kind::Othello {
            format,
            plies,
            depth,
            min_cuts,
            unique_best,
        } => {
            let params = othello::Params {
                plies: *plies,
                search: Search {
                    min_cuts: *min_cuts,
                    unique_best: *unique_best,
                    ..Search::plies(*depth)
                },
                ..Default::default()
            };
            let game =
                othello::generate(&params, format.seed).map_err(|e| UsageError(e.to_string()))?;
            (Instance::Othello(Box::new(game)), format)
        }
    };
    Ok(if format.json {
        instance.to_json()
    } else {
        instance.to_toml()
    })
}
