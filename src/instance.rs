//! Instance files: one game tree or one AND/OR graph, typed in or sampled.

use std::io::Read;

use crate::andor::{self, Graph};
use crate::exercise::Family;
use crate::exercise::Item;
use crate::games::grundy::GrundyGame;
use crate::games::lookahead::Lookahead;
use crate::games::othello::{self, Othello};
use crate::games::tictactoe::{self, TicTacToe};
use crate::gametree::{self, Tree};
use crate::input::{DocKind, InputError, MAX_FILE_BYTES, Reader, Source, did_you_mean};
use crate::reason::{Phrase, Reason};

/// The kinds an instance file may declare.
pub const KINDS: &[&str] = &[
    "game-tree",
    "and-or-graph",
    "grundy",
    "tictactoe",
    "othello",
];

/// A problem instance.
#[derive(Clone, Debug)]
pub enum Instance {
    /// A game tree for minimax and alpha-beta.
    GameTree(Tree),
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
            Instance::GameTree(_) => Family::GameTree,
            Instance::AndOr(_) => Family::AndOr,
            Instance::Grundy { .. } => Family::Grundy,
            Instance::TicTacToe(_) => Family::TicTacToe,
            Instance::Othello(_) => Family::Othello,
        }
    }

    /// One line about the instance, for `solve`.
    pub fn about(&self, lang: &crate::lang::Lang) -> String {
        match self {
            Instance::GameTree(t) => lang.fill(
                "solve.about_tree",
                &[
                    ("nodes", &t.len().to_string()),
                    ("leaves", &t.leaves().count().to_string()),
                    ("depth", &t.height().to_string()),
                    ("root", &t.label(t.root())),
                    ("player", t.root_player().name()),
                ],
            ),
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
                "solve.about_grundy",
                &[("coins", &coins.to_string()), ("first", first.name())],
            ),
        }
    }

    /// The game tree searched: the tree itself, or a game's lookahead tree.
    pub fn game_tree(&self) -> Option<std::borrow::Cow<'_, Tree>> {
        match self {
            Instance::GameTree(t) => Some(std::borrow::Cow::Borrowed(t)),
            Instance::TicTacToe(g) => Some(std::borrow::Cow::Owned(g.lookahead().tree)),
            Instance::Othello(g) => Some(std::borrow::Cow::Owned(g.lookahead().tree)),
            _ => None,
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

    /// The instance as a TOML file.
    pub fn to_toml(&self) -> String {
        match self {
            Instance::GameTree(t) => gametree::file::to_toml(t),
            Instance::AndOr(g) => andor::file::to_toml(g),
            Instance::Grundy { coins, first } => format!(
                "kind = \"grundy\"\ncoins = {coins}\nfirst = \"{}\"\n",
                first.name().to_lowercase()
            ),
            Instance::TicTacToe(g) => format!("kind = \"tictactoe\"\n{}", g.to_toml()),
            Instance::Othello(g) => format!("kind = \"othello\"\n{}", g.to_toml()),
        }
    }

    /// The instance as a JSON value (what the manifest holds).
    pub fn to_json_value(&self) -> serde_json::Value {
        serde_json::from_str(&self.to_json()).expect("instances serialise to JSON")
    }

    /// The instance as a JSON file.
    pub fn to_json(&self) -> String {
        match self {
            Instance::GameTree(t) => gametree::file::to_json(t),
            Instance::AndOr(g) => andor::file::to_json(g),
            Instance::Grundy { coins, first } => {
                let value = serde_json::json!({ "kind": "grundy", "coins": coins, "first": first.name().to_lowercase() });
                serde_json::to_string_pretty(&value).expect("JSON values serialise") + "\n"
            }
            Instance::TicTacToe(g) => {
                serde_json::to_string_pretty(&g.to_json()).expect("JSON values serialise") + "\n"
            }
            Instance::Othello(g) => {
                serde_json::to_string_pretty(&g.to_json()).expect("JSON values serialise") + "\n"
            }
        }
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
        use crate::draw::{graph_figure, grundy_figure, tree_figure};
        match (self, instance) {
            (Model::Graph(g), _) => (graph_figure(g, None), g.label(g.start()).to_string()),
            (Model::Grundy(game), _) => (grundy_figure(game, None), game.states[0].name()),
            (_, Instance::TicTacToe(g)) => (
                crate::exercise::tictactoe_figure(&g.board),
                g.to_move().letter().to_string(),
            ),
            (_, Instance::Othello(g)) => (
                crate::exercise::othello_figure(g, &[]),
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
            _ => Phrase::UnknownLabel,
        };
        Reason::new(phrase).with("label", label)
    }
}

/// Reads a file as UTF-8 text, refusing files over [`MAX_FILE_BYTES`].
pub fn read_source(path: &std::path::Path) -> Result<Source, InputError> {
    read_source_capped(path, MAX_FILE_BYTES)
}

/// Reads a file as UTF-8 text, refusing files over `cap` bytes (a class's
/// manifest holds every variant and may be large).
pub fn read_source_capped(path: &std::path::Path, cap: u64) -> Result<Source, InputError> {
    let shown = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| {
        InputError::file(
            &shown,
            format!("cannot open the file: {e}"),
            Some("check the path".into()),
        )
    })?;
    let mut bytes = Vec::new();
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| InputError::file(&shown, format!("cannot read the file: {e}"), None))?;
    if bytes.len() as u64 > cap {
        return Err(InputError::file(
            &shown,
            format!("the file is larger than {} MiB", cap >> 20),
            Some("instance files are small text files; check that this is the right file".into()),
        ));
    }
    let bytes = bytes
        .strip_prefix(b"\xEF\xBB\xBF")
        .map(<[u8]>::to_vec)
        .unwrap_or(bytes);
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let valid = String::from_utf8_lossy(&e.as_bytes()[..at]).into_owned();
        let source = Source {
            path: shown.clone(),
            text: valid,
        };
        source.error_at(
            at..at,
            "the file is not UTF-8 text",
            Some("save it as UTF-8 (most editors offer this under \"Save as\" / encoding)".into()),
        )
    })?;
    Ok(Source { path: shown, text })
}

/// Parses an instance file (TOML, or JSON with the same fields).
pub fn parse(source: &Source) -> Result<Instance, InputError> {
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
            let table = reader.table(doc, gametree::file::KEYS, "")?;
            gametree::file::read(reader, &table).map(Instance::GameTree)
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
                    format!("{coins} coins: the game is played with 1 to {max}"),
                    "textbook exercises use 5 to 10 coins".to_string(),
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
            let hint = did_you_mean(other, KINDS, "the kinds are");
            Err(source.error(kind_doc, format!("unknown kind `{other}`"), hint))
        }
    }
}

/// Reads and parses an instance file.
pub fn load(path: &std::path::Path) -> Result<Instance, InputError> {
    parse(&read_source(path)?)
}
