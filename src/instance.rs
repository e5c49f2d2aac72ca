//! Instance files: one game tree or one AND/OR graph, typed in or sampled.

use serde::{Deserialize, Serialize};

use crate::andor::{self, Graph};
use crate::chance::{self, ChanceTree};
use crate::document::{self, Table};
use crate::games::budget_tree::{self, BudgetTree};
use crate::games::grundy::GrundyGame;
use crate::games::lookahead::Lookahead;
use crate::games::othello::{self, Othello};
use crate::games::tictactoe::{self, TicTacToe};
use crate::gametree::Player;
use crate::gametree::{self, Tree};
use crate::input::{DocKind, InputError, Reader, Source, did_you_mean};
use crate::reason::{Phrase, Reason};

/// Which instances a kind works on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Game trees.
    GameTree,
    /// Game trees with chance nodes (expectiminimax).
    Chance,
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
    /// The family's name in string-table keys (`sheet.legend_tree`, …).
    pub fn key_name(self) -> &'static str {
        match self {
            Family::GameTree => "tree",
            Family::Chance => "chance",
            Family::AndOr => "graph",
            Family::TicTacToe => "tictactoe",
            Family::Othello => "othello",
            Family::Grundy => "grundy",
        }
    }

    /// What an instance of the family is, for messages ("a game tree").
    pub fn noun(self) -> &'static str {
        match self {
            Family::GameTree => "a game tree",
            Family::Chance => "a chance tree",
            Family::AndOr => "an AND/OR graph",
            Family::TicTacToe => "a tic-tac-toe position",
            Family::Othello => "an Othello position",
            Family::Grundy => "a pile of coins for Grundy's game",
        }
    }
}

/// What an answer names: a node, a connector, a move between two states, or a
/// player. Ids index the instance's model (its tree, graph, lookahead tree or
/// game graph); the instance's family turns them into labels and back. In
/// files an item is a short string: `n3`, `c0`, `m2>5`, `max`, `min`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Item {
    /// A node (or a state of Grundy's game).
    Node(u32),
    /// A connector of an AND/OR graph.
    Connector(u32),
    /// A move from one state to another.
    Move(u32, u32),
    /// MAX or MIN.
    Player(Player),
}

impl std::fmt::Display for Item {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Item::Node(n) => write!(f, "n{n}"),
            Item::Connector(c) => write!(f, "c{c}"),
            Item::Move(a, b) => write!(f, "m{a}>{b}"),
            Item::Player(Player::Max) => f.write_str("max"),
            Item::Player(Player::Min) => f.write_str("min"),
        }
    }
}

impl std::str::FromStr for Item {
    type Err = String;
    fn from_str(s: &str) -> Result<Item, String> {
        let id = |t: &str| {
            t.parse::<u32>()
                .map_err(|_| format!("`{s}` is not an item"))
        };
        match s {
            "max" => Ok(Item::Player(Player::Max)),
            "min" => Ok(Item::Player(Player::Min)),
            _ => match s.split_at_checked(1) {
                Some(("n", n)) => Ok(Item::Node(id(n)?)),
                Some(("c", c)) => Ok(Item::Connector(id(c)?)),
                Some(("m", m)) => {
                    let (a, b) = m.split_once('>').ok_or(format!("`{s}` is not an item"))?;
                    Ok(Item::Move(id(a)?, id(b)?))
                }
                _ => Err(format!("`{s}` is not an item")),
            },
        }
    }
}

impl Serialize for Item {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Item {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Item, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl Family {
    /// Every family, in the order messages list them.
    pub const ALL: &'static [Family] = &[
        Family::GameTree,
        Family::Chance,
        Family::AndOr,
        Family::Grundy,
        Family::TicTacToe,
        Family::Othello,
    ];

    /// Its `kind = "…"` in instance files (and `sample`'s argument).
    pub fn name(self) -> &'static str {
        match self {
            Family::GameTree => "game-tree",
            Family::Chance => "chance-tree",
            Family::AndOr => "and-or-graph",
            Family::TicTacToe => "tictactoe",
            Family::Othello => "othello",
            Family::Grundy => "grundy",
        }
    }

    /// The family an instance file's `kind` names.
    pub fn from_name(name: &str) -> Option<Family> {
        Family::ALL.iter().copied().find(|f| f.name() == name)
    }

    /// The keys of a problem set's exercise that shape a generated instance.
    pub fn param_keys(self) -> &'static [&'static str] {
        match self {
            Family::GameTree => gametree::generate::KEYS,
            Family::Chance => chance::generate::KEYS,
            Family::AndOr => andor::generate::KEYS,
            Family::TicTacToe => tictactoe::PARAM_KEYS,
            Family::Othello => othello::PARAM_KEYS,
            Family::Grundy => crate::games::grundy::PARAM_KEYS,
        }
    }

    /// Reads the generator parameters from an exercise's table (or `sample`'s
    /// options): one schema, the same keys everywhere. `budgets` is the node
    /// budget's range when the table gives none (a budgeted kind's default;
    /// [`Budgets::NONE`](crate::games::lookahead::Budgets::NONE) otherwise).
    pub fn read_params(
        self,
        r: &Reader<'_>,
        t: &crate::input::Table<'_>,
        budgets: crate::games::lookahead::Budgets,
    ) -> Result<Params, InputError> {
        Ok(match self {
            Family::GameTree => {
                let tree = gametree::generate::read_params(r, t)?;
                let budgets = crate::games::lookahead::Budgets::read(r, t, budgets)?;
                if budgets.any() {
                    let p = budget_tree::Params { tree, budgets };
                    r.check_generator(t, p.validate().err())?;
                    Params::BudgetTree(Box::new(p))
                } else {
                    Params::GameTree(tree)
                }
            }
            Family::Chance => Params::Chance(chance::generate::read_params(r, t)?),
            Family::AndOr => Params::AndOr(andor::generate::read_params(r, t)?),
            Family::TicTacToe => Params::TicTacToe(tictactoe::read_params(r, t)?),
            Family::Othello => Params::Othello(Box::new(othello::read_params(r, t, budgets)?)),
            Family::Grundy => Params::Grundy(crate::games::grundy::read_params(r, t)?),
        })
    }
}

/// A family's generator parameters.
#[derive(Clone, Debug)]
pub enum Params {
    /// A random game tree.
    GameTree(gametree::generate::Params),
    /// A random game tree with estimates, searched under a node budget.
    BudgetTree(Box<budget_tree::Params>),
    /// A random chance tree.
    Chance(chance::generate::Params),
    /// A random AND/OR graph.
    AndOr(andor::generate::Params),
    /// A random tic-tac-toe position.
    TicTacToe(tictactoe::Params),
    /// A random Othello position.
    Othello(Box<othello::Params>),
    /// A random number of coins and first player.
    Grundy(crate::games::grundy::Params),
}

impl Params {
    /// A random instance from `seed`; the searches that check a generated
    /// position's constraints (cuts) follow the set's alpha-beta conventions.
    pub fn generate(
        &self,
        seed: u64,
        alpha_beta: gametree::Options,
    ) -> Result<Instance, crate::generate::GenerateError> {
        Ok(match self {
            Params::GameTree(p) => {
                let p = gametree::generate::Params {
                    alpha_beta,
                    ..p.clone()
                };
                Instance::GameTree(gametree::generate::generate(&p, seed)?)
            }
            Params::BudgetTree(p) => {
                let mut p = (**p).clone();
                p.tree.alpha_beta = alpha_beta;
                Instance::BudgetTree(Box::new(budget_tree::generate(&p, seed)?))
            }
            Params::Chance(p) => Instance::Chance(Box::new(chance::generate::generate(p, seed)?)),
            Params::AndOr(p) => Instance::AndOr(andor::generate::generate(p, seed)?),
            Params::TicTacToe(p) => {
                let mut p = p.clone();
                p.search.alpha_beta = alpha_beta;
                Instance::TicTacToe(tictactoe::generate(&p, seed)?)
            }
            Params::Othello(p) => {
                let mut p = (**p).clone();
                p.search.alpha_beta = alpha_beta;
                Instance::Othello(Box::new(othello::generate(&p, seed)?))
            }
            Params::Grundy(p) => {
                let (coins, first) = p.generate(seed);
                Instance::Grundy { coins, first }
            }
        })
    }

    /// The most nodes a generated instance can have, with how to lower it, for
    /// families whose size is bounded only by their parameters.
    pub fn page_size(&self) -> Option<(u64, &'static str)> {
        match self {
            Params::GameTree(p) => Some((p.max_nodes(), "lower depth or branching")),
            Params::BudgetTree(p) => Some((p.tree.max_nodes(), "lower depth or branching")),
            Params::Chance(p) => Some((p.max_nodes(), "lower depth or branching")),
            // A graph's `nodes` range bounds it when it is small enough.
            Params::AndOr(p)
                if p.nodes
                    .is_none_or(|(_, hi)| u64::from(hi) > MAX_EXERCISE_NODES) =>
            {
                Some((
                    p.max_nodes(),
                    "lower depth, alternatives or arity, or bound the size with `nodes = \"12..25\"`",
                ))
            }
            Params::TicTacToe(p) => Some((
                p.max_nodes(),
                "start from more marks (`marks = \"3..4\"`), or lower depth",
            )),
            _ => None,
        }
    }
}

/// Most nodes an exercise's figure may have: larger figures are not legible on a page.
pub const MAX_EXERCISE_NODES: u64 = 400;

/// A problem instance.
#[derive(Clone, Debug)]
pub enum Instance {
    /// A game tree for minimax and alpha-beta.
    GameTree(Tree),
    /// A game tree with estimates, searched under a node budget.
    BudgetTree(Box<BudgetTree>),
    /// A game tree with chance nodes, for expectiminimax.
    Chance(Box<ChanceTree>),
    /// An AND/OR graph for solvability, solution cost and AO*.
    AndOr(Graph),
    /// Grundy's game from a pile of coins.
    Grundy {
        /// Coins in the one pile at the start.
        coins: u32,
        /// Who moves first.
        first: crate::gametree::Player,
    },
    /// A tic-tac-toe position to search.
    TicTacToe(TicTacToe),
    /// An Othello position to search.
    Othello(Box<Othello>),
}

impl Instance {
    /// The family of exercise kinds that can use the instance.
    pub fn family(&self) -> Family {
        match self {
            Instance::GameTree(_) | Instance::BudgetTree(_) => Family::GameTree,
            Instance::Chance(_) => Family::Chance,
            Instance::AndOr(_) => Family::AndOr,
            Instance::Grundy { .. } => Family::Grundy,
            Instance::TicTacToe(_) => Family::TicTacToe,
            Instance::Othello(_) => Family::Othello,
        }
    }

    /// Why a problem set refuses an instance that `treequiz solve` solves,
    /// besides a figure of too many nodes ([`Instance::figure_nodes`]):
    /// Grundy's game outside the exercise's 3 to 9 coins.
    pub fn exercise_refusal(&self) -> Option<String> {
        match self {
            Instance::Grundy { coins, .. } => crate::games::grundy::exercise_coins(*coins).err(),
            _ => None,
        }
    }

    /// The node budget the instance's search stops at (`budget` or
    /// `deepening`), if its file gives one.
    pub fn budget_key(&self) -> Option<&'static str> {
        use crate::games::lookahead::{Horizon, horizon_key};
        let h = match self {
            Instance::Othello(g) => g.horizon,
            Instance::BudgetTree(b) => b.horizon,
            _ => return None,
        };
        (!matches!(h, Horizon::Depth(_))).then(|| horizon_key(h))
    }

    /// How many nodes the instance's figure has, for the families whose file
    /// gives its nodes one by one (game trees and AND/OR graphs); games are
    /// measured by their search (their kinds' `unusable`).
    pub fn figure_nodes(&self) -> Option<usize> {
        match self {
            Instance::GameTree(t) => Some(t.len()),
            Instance::BudgetTree(b) => Some(b.tree.len()),
            Instance::Chance(c) => Some(c.tree().len()),
            Instance::AndOr(g) => Some(g.len()),
            _ => None,
        }
    }

    /// The whole game tree of a game-tree instance, budgeted or not.
    pub fn game_tree(&self) -> Option<&Tree> {
        match self {
            Instance::GameTree(t) => Some(t),
            Instance::BudgetTree(b) => Some(&b.tree),
            _ => None,
        }
    }

    /// A decimal value of a game tree (a leaf or an estimate), the first
    /// breadth-first: `solve` and `convert` read them, problem sets do not.
    pub fn decimal_value(&self) -> Option<crate::value::Value> {
        let t = self.game_tree()?;
        let estimates = match self {
            Instance::BudgetTree(b) => t.ids().filter_map(|id| b.estimate(id)).collect(),
            _ => Vec::new(),
        };
        t.ids()
            .filter_map(|id| t.leaf(id))
            .chain(estimates)
            .find(|v| matches!(v, crate::value::Value::Decimal(_)))
    }

    /// One line about the instance, for `solve`.
    pub fn about(&self, lang: &crate::lang::Lang) -> String {
        match self {
            Instance::GameTree(_) | Instance::BudgetTree(_) => {
                let t = self.game_tree().expect("a game tree");
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
            Instance::Chance(c) => {
                let t = c.tree();
                let levels: Vec<&str> = c.levels().iter().map(|k| k.name()).collect();
                lang.fill(
                    "solve.about_chance",
                    &[
                        ("nodes", &t.len().to_string()),
                        ("leaves", &t.leaves().count().to_string()),
                        ("depth", &t.height().to_string()),
                        ("levels", &levels.join(", ")),
                    ],
                )
            }
            Instance::AndOr(g) => lang.fill(
                "solve.about_graph",
                &[
                    ("nodes", &g.len().to_string()),
                    ("connectors", &g.connectors().len().to_string()),
                    ("start", g.label(g.start())),
                ],
            ),
            Instance::TicTacToe(g) => lang.fill(
                "solve.about_tictactoe",
                &[
                    ("board", &g.board.to_string()),
                    ("max", &g.max.letter().to_string()),
                    ("to_move", &g.to_move().letter().to_string()),
                ],
            ),
            Instance::Othello(g) => lang.fill(
                "solve.about_othello",
                &[
                    ("board", &g.board.to_string()),
                    ("to_move", &g.to_move.letter().to_string()),
                ],
            ),
            Instance::Grundy { coins, first } => lang.fill(
                if *coins == 1 {
                    "solve.about_grundy_one"
                } else {
                    "solve.about_grundy"
                },
                &[("coins", &coins.to_string()), ("first", first.name())],
            ),
        }
    }

    /// A game's board as text: column letters above, row numbers on the left.
    pub fn board_text(&self) -> Option<String> {
        let (size, rows): (usize, String) = match self {
            Instance::TicTacToe(g) => (3, g.board.to_string()),
            Instance::Othello(g) => (8, g.board.to_string()),
            _ => return None,
        };
        let letters: Vec<String> = (0..size)
            .map(|c| ((b'a' + c as u8) as char).to_string())
            .collect();
        let mut out = format!("   {}\n", letters.join(" "));
        for (r, row) in rows.split('/').enumerate() {
            let cells: Vec<String> = row.chars().map(String::from).collect();
            out.push_str(&format!("{:>2} {}\n", r + 1, cells.join(" ")));
        }
        Some(out)
    }

    /// The instance as one document, which every writer below renders.
    pub fn document(&self) -> Table {
        match self {
            Instance::GameTree(t) => gametree::file::document(t),
            Instance::BudgetTree(b) => b.document(),
            Instance::Chance(c) => chance::file::document(c),
            Instance::AndOr(g) => andor::file::document(g),
            Instance::Grundy { coins, first } => Table::new()
                .with("kind", "grundy")
                .with("coins", *coins)
                .with("first", first.name().to_lowercase()),
            Instance::TicTacToe(g) => g.document(),
            Instance::Othello(g) => g.document(),
        }
    }

    /// The instance as a TOML file.
    pub fn to_toml(&self) -> String {
        document::to_toml(&self.document())
    }

    /// The instance as a JSON value (what the manifest holds).
    pub fn to_json_value(&self) -> serde_json::Value {
        document::to_json_value(&self.document())
    }

    /// The instance as a JSON file.
    pub fn to_json(&self) -> String {
        document::to_json(&self.document())
    }

    /// The canonical form the variant checksum hashes: compact JSON with the
    /// keys in the order of the instance file, written by
    /// [`document::canonical`] alone (docs/class-sets.md states the rule).
    pub fn canonical(&self) -> String {
        document::canonical(&self.document())
    }
}

/// What an instance's answers name, built once from the instance: the game
/// tree, a game position's lookahead tree, the AND/OR graph, or Grundy's game
/// graph. It turns the key's ids into labels and a student's labels into ids.
pub enum Model<'a> {
    /// A game tree.
    Tree(&'a Tree),
    /// A tic-tac-toe position's lookahead (mirror images of a move resolve to it).
    TicTacToe(Lookahead<tictactoe::Node>),
    /// An Othello position's lookahead.
    Othello(Lookahead<othello::Node<'a>>),
    /// The part of a game tree a node budget searches, and the whole tree
    /// (which names what the search never reaches).
    BudgetTree(Lookahead<budget_tree::Node<'a>>, &'a Tree),
    /// An AND/OR graph.
    Graph(&'a Graph),
    /// Grundy's game graph.
    Grundy(GrundyGame),
}

impl Instance {
    /// The model the instance's labels name.
    pub fn model(&self) -> Model<'_> {
        match self {
            Instance::GameTree(t) => Model::Tree(t),
            Instance::BudgetTree(b) => Model::BudgetTree(b.lookahead(), &b.tree),
            // Its labels are the tree's: answers name nodes as a game tree's do.
            Instance::Chance(c) => Model::Tree(c.tree()),
            Instance::TicTacToe(g) => Model::TicTacToe(g.lookahead()),
            Instance::Othello(g) => Model::Othello(g.lookahead()),
            Instance::AndOr(g) => Model::Graph(g),
            Instance::Grundy { coins, first } => {
                Model::Grundy(crate::games::grundy::solve(*coins, *first))
            }
        }
    }
}

impl Model<'_> {
    /// The worksheet's figure, with no answer on it, and the label of where
    /// the exercise starts (the AND/OR start node, the player to move, the
    /// first state), which prompts name.
    pub fn sheet_figure(&self, instance: &Instance) -> (crate::draw::Figure, String) {
        use crate::draw::{graph_figure, grundy_page_figure, tree_figure};
        match (self, instance) {
            (Model::Graph(g), _) => (graph_figure(g, None), g.label(g.start()).to_string()),
            (Model::Grundy(game), _) => (grundy_page_figure(game, None), game.states[0].name()),
            (_, Instance::TicTacToe(g)) => (
                crate::draw::tictactoe_board(&g.board),
                g.to_move().letter().to_string(),
            ),
            (_, Instance::BudgetTree(b)) => {
                // The whole tree, each inner node below the root with its estimate.
                let marks = crate::draw::TreeMarks {
                    values: b
                        .tree
                        .ids()
                        .map(|id| b.estimate(id).map(|e| format!("e={e}")))
                        .collect(),
                    given: true,
                    ..Default::default()
                };
                (tree_figure(&b.tree, Some(&marks)), String::new())
            }
            (_, Instance::Chance(c)) => (crate::draw::chance_figure(c, None), String::new()),
            (_, Instance::Othello(g)) => (
                crate::draw::othello_board(g, &[]),
                g.to_move.letter().to_string(),
            ),
            (m, _) => (
                tree_figure(m.tree().expect("a game tree"), None),
                String::new(),
            ),
        }
    }

    /// The game tree searched, if the model is one.
    pub fn tree(&self) -> Option<&Tree> {
        match self {
            Model::Tree(t) => Some(t),
            Model::TicTacToe(l) => Some(&l.tree),
            Model::Othello(l) => Some(&l.tree),
            Model::BudgetTree(l, _) => Some(&l.tree),
            _ => None,
        }
    }

    /// The AND/OR graph, if the model is one.
    pub fn graph(&self) -> Option<&Graph> {
        match self {
            Model::Graph(g) => Some(g),
            _ => None,
        }
    }

    /// Grundy's game graph, if the model is one.
    pub fn grundy(&self) -> Option<&GrundyGame> {
        match self {
            Model::Grundy(g) => Some(g),
            _ => None,
        }
    }

    /// Where the exercise starts: the tree's root, the AND/OR start node,
    /// Grundy's first state.
    pub fn root(&self) -> Item {
        match self {
            Model::Graph(g) => Item::Node(g.start().0),
            Model::Grundy(_) => Item::Node(0),
            m => Item::Node(m.tree().map_or(0, |t| t.root().0)),
        }
    }

    /// How many nodes (or states) the model has: the range of its node ids.
    pub fn nodes(&self) -> usize {
        match self {
            Model::Graph(g) => g.len(),
            Model::Grundy(g) => g.states.len(),
            m => m.tree().map_or(0, Tree::len),
        }
    }

    /// How many connectors the model has.
    pub fn connectors(&self) -> usize {
        self.graph().map_or(0, |g| g.connectors().len())
    }

    /// An item's label as the figure spells it.
    pub fn name(&self, item: Item) -> String {
        match (self, item) {
            (_, Item::Player(p)) => p.name().to_string(),
            (Model::Graph(g), Item::Node(n)) => g.label(andor::NodeId(n)).to_string(),
            (Model::Graph(g), Item::Connector(c)) => g.connector_name(andor::ConnectorId(c)),
            (Model::Grundy(g), Item::Node(s)) => g.states[s as usize].name(),
            (Model::Grundy(g), Item::Move(a, b)) => g.move_name(a as usize, b as usize),
            (m, Item::Node(n)) => m
                .tree()
                .map(|t| t.label(gametree::NodeId(n)).into_owned())
                .unwrap_or_default(),
            _ => String::new(),
        }
    }

    /// The item a student's label names, whatever its case and spelling; `None`
    /// if it names nothing here. A game's move path is `b2-a1` (also `B2 - A1`,
    /// `b2 a1`); the root is never a move.
    pub fn resolve(&self, label: &str) -> Option<Item> {
        let node = |id: u32| Some(Item::Node(id));
        match self {
            Model::Tree(t) => node(t.find(label)?.0),
            Model::BudgetTree(l, _) => node(l.tree.find(label)?.0),
            Model::Graph(g) => node(g.find(label)?.0),
            Model::Grundy(g) => {
                let word = label.trim().to_ascii_uppercase();
                match word.as_str() {
                    "MAX" => return Some(Item::Player(gametree::Player::Max)),
                    "MIN" => return Some(Item::Player(gametree::Player::Min)),
                    _ => {}
                }
                let canonical = g.canonical(label)?;
                match canonical.split_once(" -> ") {
                    Some((a, b)) => Some(Item::Move(g.find(a)? as u32, g.find(b)? as u32)),
                    None => node(g.find(&canonical)? as u32),
                }
            }
            Model::TicTacToe(_) | Model::Othello(_) => {
                let path: Vec<&str> = label
                    .split(|c: char| c.is_whitespace() || matches!(c, '-' | '–' | '>' | '→'))
                    .filter(|p| !p.is_empty())
                    .collect();
                let t = self.tree()?;
                let id = match self {
                    // Mirror images of a searched move name the move that stands for them.
                    Model::TicTacToe(look) => look.find_line(&path)?,
                    _ => t.find(&path.join("-"))?,
                };
                (id != t.root()).then_some(Item::Node(id.0))
            }
        }
    }

    /// The connector `n0 -> n1 + n2` names (children in any order), if the graph has it.
    pub fn connector(&self, text: &str) -> Option<Item> {
        let Model::Graph(graph) = self else {
            return None;
        };
        let (from, to) = text.split_once("->").or_else(|| text.split_once('→'))?;
        let from = graph.find(from)?;
        let mut to: Vec<_> = to
            .split(['+', ','])
            .map(|t| graph.find(t))
            .collect::<Option<Vec<_>>>()?;
        to.sort_unstable();
        graph
            .connectors_of(from)
            .iter()
            .copied()
            .find(|&c| {
                let mut kids = graph.connector(c).to.clone();
                kids.sort_unstable();
                kids == to
            })
            .map(|c| Item::Connector(c.0))
    }

    /// Why a label names nothing, in the exercise's own terms.
    pub fn unknown(&self, label: &str) -> Reason {
        let phrase = match self {
            Model::TicTacToe(_) | Model::Othello(_) => Phrase::UnknownMove,
            Model::Grundy(g) if g.not_a_move(label) => Phrase::NotASplit,
            Model::Grundy(_) => Phrase::UnknownState,
            Model::BudgetTree(look, whole) => match whole.find(label) {
                // The search stops at the nearest node above it that it evaluates.
                Some(id) => {
                    let leaf = std::iter::successors(whole.parent(id), |&p| whole.parent(p))
                        .map(|p| whole.label(p))
                        .find(|l| look.tree.find(l).is_some())
                        .unwrap_or_default();
                    return Reason::new(Phrase::NotSearched)
                        .with("label", whole.label(id))
                        .with("leaf", leaf);
                }
                None => Phrase::UnknownLabel,
            },
            _ => Phrase::UnknownLabel,
        };
        Reason::new(phrase).with("label", label)
    }
}

pub use crate::input::{read_source, read_source_capped};

/// Parses an instance file: TOML, or JSON with the same fields; a game tree
/// as a Python nested list (`.py`) or a CS188 `GraphGameTreeTest` (`.test`).
/// A chance tree too: a `.py` whose first line is `# kind: chance-tree`, a
/// CS188 test for `ExpectimaxAgent`.
pub fn parse(source: &Source) -> Result<Instance, InputError> {
    let path = source.path.to_ascii_lowercase();
    let chance_tree = |c: ChanceTree| Instance::Chance(Box::new(c));
    if path.ends_with(".py") {
        if chance::file::is_python_chance(&source.text) {
            return chance::file::read_python(source).map(chance_tree);
        }
        return gametree::pylist::read(source).map(Instance::GameTree);
    }
    if path.ends_with(".test") {
        if chance::file::is_expectimax_test(&source.text) {
            return chance::file::read_cs188(source).map(chance_tree);
        }
        return gametree::cs188::read(source).map(Instance::GameTree);
    }
    let doc = source.parse()?;
    parse_doc(&Reader { source }, &doc)
}

/// Reads an instance from a table: a whole file, or a problem set's `instance = {..}`.
pub fn parse_doc(reader: &Reader<'_>, doc: &crate::input::Doc) -> Result<Instance, InputError> {
    let source = reader.source;
    let DocKind::Table(_) = &doc.kind else {
        return Err(reader.wrong_type(doc, "a table of keys", "kind = \"game-tree\""));
    };
    let kind_doc = doc.get("kind").ok_or_else(|| {
        source.error(
            doc,
            "missing key `kind`",
            "start the instance with `kind = \"game-tree\"` or `kind = \"and-or-graph\"`"
                .to_string(),
        )
    })?;
    let kind = reader.str(kind_doc, "`kind = \"game-tree\"`")?;
    match kind {
        "game-tree" => {
            let keys = [gametree::file::KEYS, budget_tree::KEYS].concat();
            let table = reader.table(doc, &keys, "")?;
            let tree = gametree::file::read(reader, &table)?;
            Ok(match budget_tree::read(reader, &table, &tree)? {
                Some(b) => Instance::BudgetTree(Box::new(b)),
                None => Instance::GameTree(tree),
            })
        }
        "chance-tree" => {
            let table = reader.table(doc, chance::file::KEYS, "")?;
            chance::file::read(reader, &table).map(|c| Instance::Chance(Box::new(c)))
        }
        "and-or-graph" => {
            let table = reader.table(doc, andor::file::KEYS, "")?;
            andor::file::read(reader, &table).map(Instance::AndOr)
        }
        "grundy" => {
            let table = reader.table(doc, &["kind", "title", "coins", "first"], "")?;
            let coins_doc = table.require(source, "coins", "coins = 7")?;
            let coins = reader.int(coins_doc, "coins = 7")?;
            let max = crate::games::grundy::MAX_COINS;
            if !(1..=i64::from(max)).contains(&coins) {
                return Err(source.error(
                    coins_doc,
                    format!("{coins} coins: an instance file takes 1 to {max}"),
                    format!(
                        "give 1 to {max} coins: `solve` solves any of them; a problem set's exercise takes 3 to {}",
                        crate::games::grundy::MAX_EXERCISE_COINS
                    ),
                ));
            }
            let first = match table.get("first") {
                None => crate::gametree::Player::Max,
                Some(d) => gametree::file::read_player(reader, d)?,
            };
            Ok(Instance::Grundy {
                coins: coins as u32,
                first,
            })
        }
        "tictactoe" => {
            let table = reader.table(doc, tictactoe::KEYS, "")?;
            tictactoe::read(reader, &table).map(Instance::TicTacToe)
        }
        "othello" => {
            let table = reader.table(doc, othello::KEYS, "")?;
            othello::read(reader, &table).map(|g| Instance::Othello(Box::new(g)))
        }
        other => {
            let names: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
            let hint = did_you_mean(other, &names, "the kinds are");
            Err(source.error(kind_doc, format!("unknown kind `{other}`"), hint))
        }
    }
}

/// Reads and parses an instance file.
pub fn load(path: &std::path::Path) -> Result<Instance, InputError> {
    parse(&read_source(path)?)
}
