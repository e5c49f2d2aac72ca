//! Expectiminimax trees in files: `kind = "chance-tree"` (TOML or JSON),
//! CS188's `GraphGameTreeTest` for `ExpectimaxAgent`, and a Python nested
//! list (levels MAX and CHANCE, every chance node uniform: the form has no
//! place for more).
//!
//! ```toml
//! kind = "chance-tree"
//! levels = ["max", "chance"]
//! tree = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
//! probabilities = { D = ["1/2", "1/4", "1/4"] }
//! ```

use super::{ChanceError, ChanceTree, DEFAULT_LEVELS, NodeKind};
use crate::document::{Node, Table};
use crate::gametree::{NodeId, Tree};
use crate::input::{Doc, DocKind, InputError, Reader, Source};
use crate::value::{Ratio, Value};

/// The keys a chance-tree file may have.
pub const KEYS: &[&str] = &[
    "kind",
    "title",
    "levels",
    "tree",
    "labels",
    "case_sensitive_labels",
    "probabilities",
];

const LEVELS_EXAMPLE: &str = "`levels = [\"max\", \"chance\", \"min\", \"chance\"]`";
const PROBABILITIES_EXAMPLE: &str = "`probabilities = { B = [\"1/6\", \"5/6\"] }`";

/// Reads a chance tree from a checked top-level table (`kind` is the caller's).
pub fn read(
    reader: &Reader<'_>,
    table: &crate::input::Table<'_>,
) -> Result<ChanceTree, InputError> {
    let src = reader.source;
    // `root` is not among the keys: the levels say what the root is.
    let tree = crate::gametree::file::read(reader, table)?;
    let levels = match table.get("levels") {
        None => DEFAULT_LEVELS.to_vec(),
        Some(doc) => read_levels(reader, doc)?,
    };
    let mut given: Vec<(NodeId, Vec<Ratio>)> = Vec::new();
    let mut docs: Vec<&Doc> = Vec::new();
    if let Some(doc) = table.get("probabilities") {
        let DocKind::Table(entries) = &doc.kind else {
            return Err(reader.wrong_type(doc, "a table of chance nodes", PROBABILITIES_EXAMPLE));
        };
        for (key, value) in entries {
            let Some(id) = tree.find(&key.name) else {
                let at = Doc {
                    span: key.span.clone(),
                    path: value.path.clone(),
                    kind: DocKind::Null,
                };
                return Err(src.error(
                    &at,
                    format!("no node is labelled `{}`", key.name),
                    "key each chance node's probabilities by its label (A, B, … breadth-first unless `labels` says otherwise)".to_string(),
                ));
            };
            let ps = reader
                .array(value, PROBABILITIES_EXAMPLE)?
                .iter()
                .map(|item| read_probability(reader, item))
                .collect::<Result<Vec<_>, _>>()?;
            given.push((id, ps));
            docs.push(value);
        }
    }
    let tree_doc = table
        .get("tree")
        .expect("the game-tree reader requires `tree`");
    // Errors name a node by its label: where its probabilities stand.
    let named: Vec<(String, &Doc)> = given
        .iter()
        .zip(&docs)
        .map(|((id, _), &doc)| (tree.label(*id).into_owned(), doc))
        .collect();
    let at = |label: &str| {
        named
            .iter()
            .find(|(l, _)| l == label)
            .map_or(tree_doc, |(_, doc)| doc)
    };
    ChanceTree::new(tree, levels, given).map_err(|e| {
        let (doc, hint) = match &e {
            ChanceError::NoLevels => (tree_doc, String::new()),
            ChanceError::InfiniteLeaf(_) => (
                tree_doc,
                "a chance tree's leaves are numbers: give a won or lost position a large finite value".to_string(),
            ),
            ChanceError::NotChance { label, .. } | ChanceError::Twice(label) => {
                (at(label), "list only chance nodes under `probabilities`, each once".to_string())
            }
            ChanceError::ProbabilityCount { label, .. }
            | ChanceError::OutOfRange { label, .. }
            | ChanceError::SumNotOne { label, .. } => (
                at(label),
                "give one probability per child, left to right, each above 0, summing to exactly 1 (fractions such as \"1/3\" are exact)".to_string(),
            ),
            ChanceError::Overflow => (
                tree_doc,
                "use probabilities with fewer different denominators, or a smaller tree".to_string(),
            ),
        };
        src.error(doc, e.to_string(), hint)
    })
}

/// Reads `levels`: node kinds from the root down, at least one.
pub fn read_levels(reader: &Reader<'_>, doc: &Doc) -> Result<Vec<NodeKind>, InputError> {
    let src = reader.source;
    // `levels=max,chance` on `sample`'s command line: one string.
    if let DocKind::Str(text) = &doc.kind {
        return text
            .split(',')
            .map(|word| {
                NodeKind::parse(word).ok_or_else(|| {
                    src.error(
                        doc,
                        format!("unknown node kind `{}`", word.trim()),
                        "write \"max\", \"min\" or \"chance\", separated by commas".to_string(),
                    )
                })
            })
            .collect();
    }
    let items = reader.array(doc, LEVELS_EXAMPLE)?;
    if items.is_empty() {
        return Err(src.error(
            doc,
            "no levels are given",
            format!("name the node kinds from the root down, like {LEVELS_EXAMPLE}; the list repeats below its last"),
        ));
    }
    items
        .iter()
        .map(|item| {
            let text = reader.str(item, LEVELS_EXAMPLE)?;
            NodeKind::parse(text).ok_or_else(|| {
                src.error(
                    item,
                    format!("unknown node kind `{text}`"),
                    "write \"max\", \"min\" or \"chance\"".to_string(),
                )
            })
        })
        .collect()
}

/// A probability: an integer (0 or 1), a fraction `"1/6"`, or a decimal (a
/// TOML float read from its digits, or a string `"0.25"`).
fn read_probability(reader: &Reader<'_>, doc: &Doc) -> Result<Ratio, InputError> {
    let src = reader.source;
    let hint = || "write a probability as a fraction, \"1/6\", or a decimal, 0.25".to_string();
    let parse = |text: &str| {
        Ratio::parse(text)
            .ok_or_else(|| src.error(doc, format!("`{text}` is not a probability"), hint()))
    };
    match &doc.kind {
        DocKind::Int(n) => Ok(Ratio::integer(*n)),
        DocKind::Float(_) if doc.span.is_some() => {
            let span = doc.span.clone().unwrap_or_default();
            parse(&src.text.get(span).unwrap_or_default().replace('_', ""))
        }
        DocKind::Float(f) => Err(src.error(
            doc,
            format!("`{f}` is a JSON number with a fraction"),
            format!("write a probability as a string in JSON, \"{f}\" or a fraction such as \"1/6\", so that it is read exactly"),
        )),
        DocKind::Str(s) => parse(s),
        _ => Err(reader.wrong_type(doc, "a probability", "\"1/6\"")),
    }
}

/// A value in a file: an integer as itself, another fraction as its text.
fn ratio_node(r: Ratio) -> Node {
    match r.to_value() {
        Some(Value::Finite(n)) => Node::Int(n),
        _ => Node::Str(r.to_string()),
    }
}

fn shape_node(tree: &Tree, id: NodeId) -> Node {
    match tree.leaf(id) {
        Some(v) => crate::gametree::file::value_node(v),
        None => Node::inline(tree.children(id).map(|c| shape_node(tree, c))),
    }
}

/// The tree as an instance document: `kind`, `levels`, `tree`, `labels`
/// when they are not A, B, C, …, `case_sensitive_labels` when true, and the
/// probabilities of the chance nodes that are not uniform, breadth-first.
pub fn document(ct: &ChanceTree) -> Table {
    let tree = ct.tree();
    let mut doc = Table::new()
        .with("kind", "chance-tree")
        .with(
            "levels",
            Node::inline(ct.levels().iter().map(|k| k.name().to_lowercase())),
        )
        .with("tree", shape_node(tree, tree.root()));
    if let Some(labels) = tree.explicit_labels() {
        doc.push("labels", Node::inline(labels.iter().map(String::as_str)));
    }
    if tree.case_sensitive() {
        doc.push("case_sensitive_labels", true);
    }
    let mut probabilities = Table::new();
    for id in tree.ids().filter(|&id| !ct.is_uniform(id)) {
        probabilities.push(
            tree.label(id).into_owned(),
            Node::inline(ct.probabilities(id).iter().map(|&p| ratio_node(p))),
        );
    }
    if !probabilities.entries().is_empty() {
        doc.push("probabilities", probabilities);
    }
    doc
}

/// The levels of a CS188 test with `agents` agents: Pacman maximises, each
/// ghost is a chance node of uniform probabilities (`ExpectimaxAgent`).
fn cs188_levels(agents: usize) -> Vec<NodeKind> {
    std::iter::once(NodeKind::Max)
        .chain(std::iter::repeat_n(NodeKind::Chance, agents - 1))
        .collect()
}

/// Reads a CS188 `GraphGameTreeTest` as `ExpectimaxAgent` searches it: MAX,
/// then one uniform chance level per ghost, `depth` rounds of all agents.
pub fn read_cs188(source: &Source) -> Result<ChanceTree, InputError> {
    let (tree, agents) = crate::gametree::cs188::read_agents(source)?;
    let end = source.text.len();
    ChanceTree::uniform(tree, cs188_levels(agents)).map_err(|e| {
        source.error_at(
            end..end,
            e.to_string(),
            Some("CS188's evaluation values are finite numbers: give each leaf one".to_string()),
        )
    })
}

/// The tree as a `GraphGameTreeTest` for `ExpectimaxAgent`; `Err` says why
/// it cannot be one (CS188's ghosts are uniform chance nodes after MAX).
pub fn write_cs188(ct: &ChanceTree) -> Result<String, String> {
    let levels = ct.levels();
    if levels.len() < 2 || cs188_levels(levels.len()) != levels {
        return Err(format!(
            "CS188's expectimax levels are MAX, then one CHANCE per ghost, and this tree's are {}",
            ct.levels()
                .iter()
                .map(|k| k.name())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if !ct.all_uniform() {
        return Err(
            "CS188's ghosts choose uniformly, and this tree has other probabilities".into(),
        );
    }
    crate::gametree::cs188::write_agents(ct.tree(), "ExpectimaxAgent", levels.len())
}

/// Reads a Python nested list as a chance tree: MAX at the root, then
/// chance, alternating; every chance node uniform.
pub fn read_python(source: &Source) -> Result<ChanceTree, InputError> {
    let tree = crate::gametree::pylist::read(source)?;
    let end = source.text.len();
    ChanceTree::uniform(tree, DEFAULT_LEVELS.to_vec()).map_err(|e| {
        source.error_at(
            end..end,
            e.to_string(),
            Some("a chance tree's leaves are finite numbers".to_string()),
        )
    })
}

/// The tree as a Python nested list, when it fits one: levels MAX and
/// CHANCE and every chance node uniform; `None` otherwise.
pub fn write_python(ct: &ChanceTree) -> Option<String> {
    if ct.levels() != DEFAULT_LEVELS || !ct.all_uniform() {
        return None;
    }
    let list = crate::gametree::pylist::write(ct.tree())?;
    let body = list
        .lines()
        .filter(|l| !l.starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n");
    Some(format!(
        "{PYTHON_MARK}\n\
         # An expectimax tree (treequiz): a list is an inner node, its first item its label;\n\
         # a tuple is a leaf, its label and its value. The root is MAX, its children\n\
         # chance nodes (each child equally likely), then MAX again, alternating.\n{body}\n"
    ))
}

/// The first line of a Python nested list that is a chance tree: without
/// it, a nested list is a game tree (MAX and MIN).
pub const PYTHON_MARK: &str = "# kind: chance-tree";

/// Whether a Python file says it holds a chance tree (its first line is
/// [`PYTHON_MARK`]).
pub fn is_python_chance(text: &str) -> bool {
    text.trim_start_matches('\u{feff}')
        .lines()
        .next()
        .is_some_and(|l| l.trim() == PYTHON_MARK)
}

/// Whether a CS188 test is for `ExpectimaxAgent` (its `alg` line), which
/// reads its ghosts as chance nodes.
pub fn is_expectimax_test(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.split('#').next().unwrap_or_default();
        l.split_once(':').is_some_and(|(k, v)| {
            k.trim() == "alg" && v.trim().trim_matches('"').trim() == "ExpectimaxAgent"
        })
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::chance::expectiminimax;

    pub(crate) fn read_file(path: &str, text: &str) -> Result<ChanceTree, InputError> {
        let source = Source {
            path: path.into(),
            text: text.into(),
        };
        let doc = source.parse()?;
        let reader = Reader { source: &source };
        read(&reader, &reader.table(&doc, KEYS, "")?)
    }

    pub(crate) fn write_file(path: &str, t: &ChanceTree) -> String {
        if path.ends_with(".json") {
            crate::document::to_json(&document(t))
        } else {
            crate::document::to_toml(&document(t))
        }
    }

    /// What a chance tree is, as text: every node's label, kind or value,
    /// and probabilities.
    pub(crate) fn shown(t: &ChanceTree) -> Vec<String> {
        let tree = t.tree();
        tree.ids()
            .map(|id| match (t.kind(id), t.leaf(id)) {
                (_, Some(v)) => format!("{}={v}", tree.label(id)),
                (Some(k), _) => format!(
                    "{}:{}{:?}",
                    tree.label(id),
                    k.name(),
                    t.probabilities(id)
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                ),
                _ => unreachable!(),
            })
            .collect()
    }

    fn src(path: &str, text: &str) -> Source {
        Source {
            path: path.into(),
            text: text.into(),
        }
    }

    const AIMA: &str = "kind = \"chance-tree\"\nlevels = [\"max\", \"chance\"]\ntree = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]\n\n[probabilities]\nD = [\"1/2\", 0.25, \"1/4\"]\n";

    #[test]
    fn a_toml_file_reads_and_round_trips_through_toml_and_json() {
        let t = read_file("t.toml", AIMA).unwrap();
        let want = shown(&t);
        assert_eq!(want[3], "D:CHANCE[\"1/2\", \"1/4\", \"1/4\"]");
        assert_eq!(want[1], "B:CHANCE[\"1/3\", \"1/3\", \"1/3\"]");
        // (14·2 + 5 + 2) / 4 = 35/4 beats 23/3.
        assert_eq!(expectiminimax(&t).value.to_string(), "35/4");
        let toml = write_file("t.toml", &t);
        assert_eq!(toml, AIMA.replace("0.25", "\"1/4\""));
        let json = write_file("t.json", &t);
        assert!(json.contains("\"1/2\""), "{json}");
        for (path, text) in [("t.toml", toml), ("t.json", json)] {
            assert_eq!(shown(&read_file(path, &text).unwrap()), want, "{text}");
        }
        // Levels left out: MAX and chance.
        let plain = read_file("t.toml", "kind = \"chance-tree\"\ntree = [[1, 2], 3]\n").unwrap();
        assert_eq!(plain.levels(), DEFAULT_LEVELS);
    }

    #[test]
    fn errors_name_the_place_and_the_fix() {
        for (text, at, words) in [
            (
                AIMA.replace("\"max\", ", "\"maxi\", "),
                (2, 11),
                "unknown node kind `maxi`",
            ),
            (
                AIMA.replace("[\"max\", \"chance\"]", "[]"),
                (2, 10),
                "no levels",
            ),
            (
                AIMA.replace("D = ", "Q = "),
                (6, 1),
                "no node is labelled `Q`",
            ),
            (AIMA.replace("D = ", "A = "), (6, 5), "`A` is a MAX node"),
            (AIMA.replace("0.25", "0.5"), (6, 5), "sum to 5/4, not 1"),
            (
                AIMA.replace("0.25", "\"x\""),
                (6, 13),
                "`x` is not a probability",
            ),
            (
                AIMA.replace(", 0.25", ""),
                (6, 5),
                "3 children, and 2 probabilities",
            ),
            (
                AIMA.replace("14", "\"+inf\""),
                (3, 8),
                "the leaf `K` is infinite",
            ),
            (format!("{AIMA}[x]\n"), (7, 2), "unknown key `x`"),
            (AIMA.replace("levels", "root"), (2, 1), "unknown key `root`"),
        ] {
            let e = read_file("t.toml", &text).unwrap_err();
            assert!(e.message.contains(words), "{text}: {}", e.message);
            assert_eq!(e.line_column(), Some(at), "{text}: {}", e.message);
        }
        let e = read_file(
            "t.json",
            r#"{"kind": "chance-tree", "tree": [[1, 2]], "probabilities": {"B": [0.5, 0.5]}}"#,
        )
        .unwrap_err();
        assert!(
            e.message.contains("JSON number with a fraction"),
            "{}",
            e.message
        );
    }

    const Q4: &str = "class: \"GraphGameTreeTest\"\nalg: \"ExpectimaxAgent\"\ndepth: \"1\"\nnum_agents: \"3\"\n\nstart_state: \"a\"\nwin_states: \"\"\nlose_states: \"\"\n\nsuccessors: \"\"\"\na Left b1\na Right b2\nb1 Left c1\nb1 Right c2\nb2 Left c3\nc1 Down X\nc1 Up Y\n\"\"\"\n\nevaluation: \"\"\"\nb2 100.0\nc1 1.0\nc2 2.0\nc3 -3.5\nX 1000.0\nY 1000.0\n\"\"\"\n";

    /// Three agents: MAX, then two uniform ghost levels; depth 1 is one move
    /// of each (a, b1, c1), so X and Y are evaluated, and c2 and c3, without
    /// successors, are leaves.
    #[test]
    fn a_cs188_expectimax_test_reads_ghosts_as_uniform_chance_levels() {
        assert!(is_expectimax_test(Q4));
        assert!(!is_expectimax_test(&Q4.replace("Expectimax", "Minimax")));
        let t = read_cs188(&src("t.test", Q4)).unwrap();
        assert_eq!(
            t.levels(),
            [NodeKind::Max, NodeKind::Chance, NodeKind::Chance]
        );
        assert_eq!(
            shown(&t),
            [
                "a:MAX[]",
                "b1:CHANCE[\"1/2\", \"1/2\"]",
                "b2:CHANCE[\"1\"]",
                "c1:CHANCE[\"1/2\", \"1/2\"]",
                "c2=2",
                "c3=-7/2",
                "X=1000",
                "Y=1000"
            ]
        );
        // (1000 + 2) / 2 against −7/2.
        let e = expectiminimax(&t);
        assert_eq!(e.value.to_string(), "501");
        let back = read_cs188(&src("t.test", &write_cs188(&t).unwrap())).unwrap();
        assert_eq!(shown(&back), shown(&t));
        // The game-tree reader still refuses three agents.
        assert!(crate::gametree::cs188::read(&src("t.test", Q4)).is_err());
        let e = read_cs188(&src("t.test", &Q4.replace("\"3\"", "\"1\""))).unwrap_err();
        assert!(
            e.message.contains("`1` is not a number of agents"),
            "{}",
            e.message
        );
        // Probabilities CS188 cannot state are refused by the writer.
        let skewed = read_file("t.toml", AIMA).unwrap();
        assert!(write_cs188(&skewed).unwrap_err().contains("uniformly"));
    }

    #[test]
    fn a_python_list_reads_as_max_over_chance() {
        let t = read_python(&src("t.py", "tree = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]\n")).unwrap();
        assert_eq!(expectiminimax(&t).value.to_string(), "23/3");
        let written = write_python(&t).unwrap();
        assert!(written.contains("tree = ['A', ['B', ('E', 3)"), "{written}");
        assert!(is_python_chance(&written) && !is_python_chance("tree = [[1]]\n"));
        let back = read_python(&src("t.py", &written)).unwrap();
        assert_eq!(shown(&back), shown(&t));
        assert_eq!(write_python(&read_file("t.toml", AIMA).unwrap()), None);
    }
}
