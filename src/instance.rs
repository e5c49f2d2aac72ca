//! Instance files: one game tree or one AND/OR graph, typed in or sampled.

use std::io::Read;

use crate::andor::{self, Graph};
use crate::exercise::Family;
use crate::games::othello::{self, Othello};
use crate::games::tictactoe::{self, TicTacToe};
use crate::gametree::{self, Tree};
use crate::input::{DocKind, InputError, MAX_FILE_BYTES, Reader, Source, did_you_mean};

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
