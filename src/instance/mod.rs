//! Instances: one game tree, chance tree, AND/OR graph or game position,
//! typed in a file or generated. Each family is one [`FamilyDef`], in its
//! own file here.

use serde::{Deserialize, Serialize};

use crate::andor::{self, Graph};
use crate::chance::ChanceTree;
use crate::document::{self, Table};
use crate::games::budget_tree::{self, BudgetTree};
use crate::games::grundy::GrundyGame;
use crate::games::lookahead::{Budgets, Lookahead};
use crate::games::othello::{self, Othello};
use crate::games::tictactoe::{self, TicTacToe};
use crate::gametree::Player;
use crate::gametree::{self, Tree};
use crate::input::{DocKind, InputError, Reader, Source, did_you_mean};
use crate::lang::Lang;
use crate::reason::{Phrase, Reason};

mod and_or;
pub mod chance;
mod game_tree;
mod grundy;
mod othello_position;
mod tictactoe_position;

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
    /// What the family is: its one definition ([`FamilyDef`]).
    pub fn def(self) -> &'static FamilyDef {
        match self {
            Family::GameTree => &game_tree::FAMILY,
            Family::Chance => &chance::FAMILY,
            Family::AndOr => &and_or::FAMILY,
            Family::TicTacToe => &tictactoe_position::FAMILY,
            Family::Othello => &othello_position::FAMILY,
            Family::Grundy => &grundy::FAMILY,
        }
    }

    /// The family's name in string-table keys (`sheet.legend_tree`, …).
    pub fn key_name(self) -> &'static str {
        self.def().key_name
    }

    /// What an instance of the family is, for messages ("a game tree").
    pub fn noun(self) -> &'static str {
        self.def().noun
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
        self.def().name
    }

    /// The family an instance file's `kind` names.
    pub fn from_name(name: &str) -> Option<Family> {
        Family::ALL.iter().copied().find(|f| f.name() == name)
    }

    /// The keys of a problem set's exercise that shape a generated instance.
    pub fn param_keys(self) -> &'static [&'static str] {
        self.def().param_keys
    }

    /// Reads the generator parameters from an exercise's table (or `sample`'s
    /// options): one schema, the same keys everywhere. `budgets` is the node
    /// budget's range when the table gives none (a budgeted kind's default;
    /// [`Budgets::NONE`] otherwise).
    pub fn read_params(
        self,
        r: &Reader<'_>,
        t: &crate::input::Table<'_>,
        budgets: Budgets,
    ) -> Result<Params, InputError> {
        (self.def().read_params)(r, t, budgets)
    }
}

/// Everything a family of instances is, above its model and solver: how its
/// files are read and written, how its generator's keys are read, how it is
/// described, modelled and drawn. One static per family, in its own file of
/// this module (`instance/<family>.rs`), as a kind is one `KindDef` of the
/// exercise layer; the family's model, solver, file format and generator live
/// in its own module below (`chance/`, `andor/`, …).
pub struct FamilyDef {
    /// Its `kind = "…"` in instance files (and `sample`'s argument).
    pub name: &'static str,
    /// Its name in string-table keys (`sheet.legend_<key_name>`, …).
    pub key_name: &'static str,
    /// What an instance of the family is, for messages ("a game tree").
    pub noun: &'static str,
    /// The keys of a problem set's exercise that shape a generated instance.
    pub param_keys: &'static [&'static str],
    /// Reads the generator's keys (see [`Family::read_params`]).
    pub read_params:
        fn(&Reader<'_>, &crate::input::Table<'_>, Budgets) -> Result<Params, InputError>,
    /// Reads its TOML or JSON instance file (or a problem set's `instance =
    /// {..}`), a table whose `kind` names the family.
    pub read: fn(&Reader<'_>, &crate::input::Doc) -> Result<Instance, InputError>,
    /// The other forms its files come in (Python lists, CS188 tests).
    pub forms: &'static [Form],
    /// One line about an instance, for `solve`.
    pub about: fn(&Instance, &Lang) -> String,
    /// The instance as one document, which every writer renders.
    pub document: fn(&Instance) -> Table,
    /// The model an instance's labels name.
    pub model: for<'a> fn(&'a Instance) -> Model<'a>,
    /// The worksheet's figure, with no answer on it, and the label of where
    /// the exercise starts, which prompts name (see [`Model::sheet_figure`]).
    pub sheet_figure: fn(&Instance, &Model<'_>) -> (crate::draw::Figure, String),
    /// How many nodes the figure has, for the families whose file gives its
    /// nodes one by one; games are measured by their search (their kinds'
    /// `unusable`).
    pub figure_nodes: fn(&Instance) -> Option<usize>,
    /// The largest number the sheet shows (a leaf's value, a cost, a
    /// weight): an example's numbers go past it, so never name an answer.
    pub largest_number: fn(&Instance) -> u64,
    /// How deep its search goes (a tree's height, a game's horizon), which
    /// bounds an answer that counts plies; `None` where none is asked.
    pub depth: fn(&Instance) -> Option<u64>,
}

/// A form of instance file besides TOML and JSON, read by its extension
/// (and its marker, where two families share an extension) and written by
/// `convert --to <name>`.
pub struct Form {
    /// `convert`'s name for it (`python`, `cs188`, `board`).
    pub name: &'static str,
    /// The extension its files have, lower case with the dot (`.py`); empty
    /// for a form that is only written.
    pub extension: &'static str,
    /// Whether a file of the extension is this family's, where another
    /// family's form shares it: a form with a marker claims a file before
    /// one without.
    pub marker: Option<fn(&str) -> bool>,
    /// Reads a file of the form.
    pub read: Option<ReadForm>,
    /// Writes an instance in the form (with CS188's agent class, where the
    /// form names one), or says why it cannot hold this one.
    pub write: fn(&Instance, &str) -> Result<String, String>,
}

/// Reads a file of a [`Form`].
pub type ReadForm = fn(&Source) -> Result<Instance, InputError>;

/// A family's generator, read from an exercise's keys: one per family, in
/// its file of this module.
pub trait Generator: std::fmt::Debug + Send + Sync + std::panic::RefUnwindSafe {
    /// A random instance from `seed`; the searches that check a generated
    /// position's constraints (cuts) follow the set's alpha-beta conventions.
    fn generate(
        &self,
        seed: u64,
        alpha_beta: gametree::Options,
    ) -> Result<Instance, crate::generate::GenerateError>;

    /// The most nodes a generated instance can have, with how to lower it,
    /// for families whose size is bounded only by their parameters.
    fn page_size(&self) -> Option<(u64, &'static str)> {
        None
    }
}

/// A family's generator parameters, as an exercise's keys give them.
#[derive(Clone, Debug)]
pub struct Params(std::sync::Arc<dyn Generator>);

impl Params {
    /// The parameters of a family's generator.
    pub fn new(generator: impl Generator + 'static) -> Params {
        Params(std::sync::Arc::new(generator))
    }

    /// A random instance from `seed` ([`Generator::generate`]).
    pub fn generate(
        &self,
        seed: u64,
        alpha_beta: gametree::Options,
    ) -> Result<Instance, crate::generate::GenerateError> {
        self.0.generate(seed, alpha_beta)
    }

    /// The most nodes a generated instance can have ([`Generator::page_size`]).
    pub fn page_size(&self) -> Option<(u64, &'static str)> {
        self.0.page_size()
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

    /// How many nodes the instance's figure has ([`FamilyDef::figure_nodes`]).
    pub fn figure_nodes(&self) -> Option<usize> {
        (self.family().def().figure_nodes)(self)
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
    pub fn about(&self, lang: &Lang) -> String {
        (self.family().def().about)(self, lang)
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
        (self.family().def().document)(self)
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
        (self.family().def().model)(self)
    }
}

impl Model<'_> {
    /// The worksheet's figure, with no answer on it, and the label of where
    /// the exercise starts (the AND/OR start node, the player to move, the
    /// first state), which prompts name.
    pub fn sheet_figure(&self, instance: &Instance) -> (crate::draw::Figure, String) {
        (instance.family().def().sheet_figure)(instance, self)
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

/// Parses an instance file: TOML, or JSON with the same fields, or one of a
/// family's other [`Form`]s by its extension: a game tree as a Python nested
/// list (`.py`) or a CS188 `GraphGameTreeTest` (`.test`), a chance tree as a
/// `.py` whose first line is `# kind: chance-tree` or a CS188 test for
/// `ExpectimaxAgent`.
pub fn parse(source: &Source) -> Result<Instance, InputError> {
    let path = source.path.to_ascii_lowercase();
    let forms = || {
        Family::ALL
            .iter()
            .flat_map(|f| f.def().forms)
            .filter(|form| !form.extension.is_empty() && path.ends_with(form.extension))
            .filter_map(|form| Some((form.marker, form.read?)))
    };
    // A marked form claims its files before an unmarked one of the extension.
    let marked = forms().find(|(marker, _)| marker.is_some_and(|m| m(&source.text)));
    if let Some((_, read)) = marked.or_else(|| forms().find(|(marker, _)| marker.is_none())) {
        return read(source);
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
    let Some(family) = Family::from_name(kind) else {
        let names: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
        let hint = did_you_mean(kind, &names, "the kinds are");
        return Err(source.error(kind_doc, format!("unknown kind `{kind}`"), hint));
    };
    (family.def().read)(reader, doc)
}

/// Reads and parses an instance file.
pub fn load(path: &std::path::Path) -> Result<Instance, InputError> {
    parse(&read_source(path)?)
}
