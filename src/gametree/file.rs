//! Game-tree instance files: `kind = "game-tree"`, `tree = [[3, 12, 8], …]`.

use std::collections::{HashMap, HashSet};

use super::tree::{MAX_DEPTH, MAX_FILE_NODES, Player, Shape, Tree, TreeError};
use crate::document::{Node, Table};
use crate::input::{Doc, DocKind, InputError, Reader};
use crate::value::{MAX_DIGITS, MAX_PLACES, NumberError, Value};

/// The keys a game-tree file may have.
pub const KEYS: &[&str] = &[
    "kind",
    "title",
    "root",
    "tree",
    "labels",
    "case_sensitive_labels",
];

const LABEL_COUNT_HINT: &str = "give one label per node, breadth-first and left to right, or leave `labels` out to get A, B, C, …";
const DUPLICATE_HINT: &str = "every node needs its own label (`é` typed as one character or as `e` and an accent is one label)";

const TREE_EXAMPLE: &str = "`tree = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]`";

/// Reads a game tree from a checked top-level table.
pub fn read(reader: &Reader<'_>, table: &crate::input::Table<'_>) -> Result<Tree, InputError> {
    let src = reader.source;
    let root = match table.get("root") {
        None => Player::Max,
        Some(doc) => read_player(reader, doc)?,
    };
    let case_sensitive = match table.get("case_sensitive_labels") {
        None => false,
        Some(doc) => reader.bool(doc, "`case_sensitive_labels = true`")?,
    };
    let tree_doc = table.require(src, "tree", "tree = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]")?;
    if !matches!(tree_doc.kind, DocKind::Array(_)) {
        return Err(reader.wrong_type(tree_doc, "a list of subtrees", TREE_EXAMPLE));
    }
    let mut count = 1usize;
    let shape = read_shape(reader, tree_doc, 0, &mut count)?;
    let labels = match table.get("labels") {
        None => None,
        Some(doc) => {
            let items = reader.array(
                doc,
                "`labels = [\"A\", \"B\", \"C\"]` (breadth-first, left to right)",
            )?;
            // Counts first: a list of the wrong length is refused before any label is read.
            if items.len() != count {
                return Err(src.error(
                    doc,
                    TreeError::LabelCount {
                        given: items.len(),
                        nodes: count,
                    }
                    .to_string(),
                    LABEL_COUNT_HINT.to_string(),
                ));
            }
            let mut labels: Vec<String> = Vec::with_capacity(items.len());
            let mut seen = Labels::new(case_sensitive);
            for item in items {
                let label = crate::input::label_text(reader.str(item, "\"B\"")?);
                seen.check(&label).map_err(|(m, h)| src.error(item, m, h))?;
                labels.push(label);
            }
            Some((doc, labels))
        }
    };
    let (labels_doc, labels) = labels.map_or((None, None), |(d, l)| (Some(d), Some(l)));
    let tree =
        Tree::from_shape(&shape, root, None).map(|t| t.with_case_sensitive_labels(case_sensitive));
    tree.and_then(|t| match labels {
        Some(labels) => t.relabel(labels),
        None => Ok(t),
    })
    .map_err(|e| {
        let at = labels_doc.unwrap_or(tree_doc);
        let hint = match e {
            TreeError::LabelCount { .. } => LABEL_COUNT_HINT,
            TreeError::DuplicateLabel(_) => DUPLICATE_HINT,
            _ => "make the tree smaller",
        };
        reader.source.error(at, e.to_string(), hint.to_string())
    })
}

/// A tree's labels as a reader meets them, one by one (in
/// [`crate::input::label_text`] form): each usable and none twice. Labels
/// that differ only in case are one label, refused as given twice, unless
/// the tree's labels are case-sensitive; then they are two. Every tree
/// reader checks its labels with it.
pub(crate) struct Labels {
    case_sensitive: bool,
    exact: HashSet<String>,
    /// Lower case → the first label of that spelling.
    folded: HashMap<String, String>,
    differ_in_case: bool,
}

impl Labels {
    /// No labels yet; `case_sensitive` keeps `a` and `A` apart.
    pub(crate) fn new(case_sensitive: bool) -> Labels {
        Labels {
            case_sensitive,
            exact: HashSet::new(),
            folded: HashMap::new(),
            differ_in_case: false,
        }
    }

    /// Why `label` cannot name one more node, as a message and a hint.
    pub(crate) fn check(&mut self, label: &str) -> Result<(), (String, String)> {
        if let Some((c, kind)) = crate::input::hidden_char(label) {
            return Err((
                crate::input::hidden_char_message("the label", label, c, kind),
                "labels and ids are plain text: retype it without the hidden character".to_string(),
            ));
        }
        if label.is_empty() || label.chars().any(|c| c.is_whitespace() || c == ',') {
            return Err((
                format!("`{label}` is not a usable label"),
                "labels are short names without spaces or commas, like \"B\" or \"n4\"".to_string(),
            ));
        }
        if !self.exact.insert(label.to_string()) {
            return Err((
                format!("the label `{label}` is used twice"),
                DUPLICATE_HINT.to_string(),
            ));
        }
        let first = self
            .folded
            .entry(label.to_lowercase())
            .or_insert_with(|| label.to_string());
        if first != label {
            self.differ_in_case = true;
            if !self.case_sensitive {
                return Err((
                    format!("the label `{label}` is used twice"),
                    format!(
                        "labels are compared without case, so `{first}` and `{label}` are one label; if they are two nodes, add `case_sensitive_labels = true` (then answers must match the case too)"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Whether two of the labels differ only in case.
    pub(crate) fn differ_in_case(&self) -> bool {
        self.differ_in_case
    }
}

/// Reads `"max"` or `"min"`.
pub fn read_player(reader: &Reader<'_>, doc: &Doc) -> Result<Player, InputError> {
    match reader
        .str(doc, "`root = \"min\"`")?
        .to_ascii_lowercase()
        .as_str()
    {
        "max" => Ok(Player::Max),
        "min" => Ok(Player::Min),
        other => Err(reader.source.error(
            doc,
            format!("unknown player `{other}`"),
            "write \"max\" or \"min\"".to_string(),
        )),
    }
}

/// What a file calls a number it reads: the words of its messages.
pub struct Number {
    /// A number that does not fit in 64 bits.
    pub too_large: &'static str,
    /// What its values are, for that message's hint.
    pub range: &'static str,
    /// `… is not {noun}`.
    pub noun: &'static str,
    /// What an infinity is written as, for that message's hint.
    pub forms: &'static str,
    /// What is expected where another type stands.
    pub expected: &'static str,
    /// An example of the key.
    pub example: &'static str,
}

/// A leaf of `tree`.
pub const LEAF: Number = Number {
    too_large: "this leaf value is too large",
    range: "leaf values fit in 64 bits; use \"+inf\" or \"-inf\" for won or lost positions",
    noun: "a leaf value",
    forms: "leaves are numbers (3, -4.01), or \"+inf\" / \"-inf\" for won / lost positions",
    expected: "a leaf value or a list of subtrees",
    example: TREE_EXAMPLE,
};

/// Reads a leaf value: a number, or the string `"+inf"` / `"-inf"`.
pub fn read_value(reader: &Reader<'_>, doc: &Doc) -> Result<Value, InputError> {
    read_number(reader, doc, &LEAF)
}

/// Why `text` is not a number, as a message and a hint (`None` for
/// [`NumberError::Malformed`], which each form words itself): every tree
/// reader says it alike.
pub(crate) fn number_problem(text: &str, why: NumberError) -> Option<(String, String)> {
    match why {
        NumberError::Malformed => None,
        NumberError::TooManyPlaces => Some((
            format!("`{text}` has more than {MAX_PLACES} decimal places"),
            format!(
                "values are read exactly, with at most {MAX_PLACES} places after the point: round it"
            ),
        )),
        NumberError::TooLarge => Some((
            format!("`{text}` is too large"),
            format!(
                "whole numbers fit in 64 bits (up to 9223372036854775807), and a decimal has at most {MAX_DIGITS} digits"
            ),
        )),
    }
}

/// Reads a game value worded as `words` says: an integer, a decimal (a
/// TOML float read from its own digits, or a string such as `"-4.01"`),
/// `"+inf"` or `"-inf"`.
pub fn read_number(reader: &Reader<'_>, doc: &Doc, words: &Number) -> Result<Value, InputError> {
    let src = reader.source;
    let number = |text: &str, infinities: bool| {
        infinities
            .then(|| Value::parse_infinity(text))
            .flatten()
            .map_or_else(|| Value::parse_number(text), Ok)
            .map_err(|why| {
                let (message, hint) = number_problem(text, why).unwrap_or_else(|| {
                    (
                        format!("`{text}` is not {}", words.noun),
                        words.forms.to_string(),
                    )
                });
                src.error(doc, message, hint)
            })
    };
    match &doc.kind {
        DocKind::Int(v) => Ok(Value::Finite(*v)),
        DocKind::HugeInt => Err(src.error(doc, words.too_large, words.range.to_string())),
        // A binary float would round `-4.01`: TOML's own digits are read.
        DocKind::Float(_) if doc.span.is_some() => {
            let span = doc.span.clone().unwrap_or_default();
            let text = src.text.get(span).unwrap_or_default().replace('_', "");
            // TOML's bare `inf` is refused as before: files write "+inf".
            number(&text, false)
        }
        // JSON hands a fraction over as a binary float, already rounded.
        DocKind::Float(f) => Err(src.error(
            doc,
            format!("`{f}` is a JSON number with a fraction"),
            format!("write a decimal as a string in JSON, \"{f}\", so that it is read exactly"),
        )),
        DocKind::Str(s) => number(s, true),
        _ => Err(reader.wrong_type(doc, words.expected, words.example)),
    }
}

fn read_shape(
    reader: &Reader<'_>,
    doc: &Doc,
    depth: usize,
    count: &mut usize,
) -> Result<Shape, InputError> {
    let DocKind::Array(items) = &doc.kind else {
        return read_value(reader, doc).map(Shape::Leaf);
    };
    if items.is_empty() {
        let hint = if depth == 0 {
            "the tree is empty: list the root's subtrees, like [[3, 12], [2, 4]]"
        } else {
            "every list is a node with children: put numbers or lists inside, or replace it by a leaf value"
        };
        return Err(reader.source.error(doc, "empty list", hint.to_string()));
    }
    if depth + 1 > MAX_DEPTH {
        return Err(reader.source.error(
            doc,
            format!("the tree is deeper than {MAX_DEPTH} levels"),
            "exercises need far fewer levels".to_string(),
        ));
    }
    *count += items.len();
    if *count > MAX_FILE_NODES {
        return Err(reader.source.error(
            doc,
            format!("the tree has more than {MAX_FILE_NODES} nodes"),
            "make the tree smaller".to_string(),
        ));
    }
    items
        .iter()
        .map(|item| read_shape(reader, item, depth + 1, count))
        .collect::<Result<_, _>>()
        .map(Shape::Inner)
}

/// A value as files write it: an integer, a decimal, `"+inf"` / `"-inf"`.
pub(crate) fn value_node(v: Value) -> Node {
    match v {
        Value::Finite(n) => Node::Int(n),
        Value::Decimal(d) => Node::Decimal(d),
        v => Node::Str(v.to_string()),
    }
}

/// A shape as nested lists of values and subtrees.
fn shape_node(shape: &Shape) -> Node {
    match shape {
        Shape::Leaf(v) => value_node(*v),
        Shape::Inner(children) => Node::inline(children.iter().map(shape_node)),
    }
}

/// The tree as an instance document: `kind`, `root`, `tree` (on one line),
/// `labels` when they are not the default A, B, C, …, and
/// `case_sensitive_labels` when it is true.
pub fn document(tree: &Tree) -> Table {
    let mut doc = Table::new()
        .with("kind", "game-tree")
        .with("root", tree.root_player().name().to_lowercase())
        .with("tree", shape_node(&tree.to_shape()));
    if let Some(labels) = tree.explicit_labels() {
        doc.push("labels", Node::inline(labels.iter().map(String::as_str)));
    }
    if tree.case_sensitive() {
        doc.push("case_sensitive_labels", true);
    }
    doc
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::input::{Location, Source};

    /// A game-tree file read as `solve` reads one: TOML, or JSON by its name.
    pub(crate) fn read_file(path: &str, text: &str) -> Result<Tree, InputError> {
        let source = Source {
            path: path.into(),
            text: text.into(),
        };
        let doc = source.parse()?;
        let reader = Reader { source: &source };
        read(&reader, &reader.table(&doc, KEYS, "")?)
    }

    /// The tree as `convert --to toml` (or `json`, by the name) writes it.
    pub(crate) fn write_file(path: &str, t: &Tree) -> String {
        if path.ends_with(".json") {
            crate::document::to_json(&document(t))
        } else {
            crate::document::to_toml(&document(t))
        }
    }

    fn shown(t: &Tree) -> Vec<String> {
        t.ids()
            .map(|id| match t.leaf(id) {
                Some(v) => format!("{}={v}", t.label(id)),
                None => t.label(id).into_owned(),
            })
            .collect()
    }

    /// Decimals as TOML floats (read from their digits) or strings; written
    /// as TOML floats and JSON strings, and read back the same.
    #[test]
    fn decimal_leaves_read_exactly_and_round_trip() {
        let toml = "kind = \"game-tree\"\ntree = [[-4.01, 3], [1_000.5, \"0.25\", 2.0, 0.1]]\n";
        let t = read_file("t.toml", toml).unwrap();
        let want = [
            "A", "B", "C", "D=-4.01", "E=3", "F=1000.5", "G=0.25", "H=2", "I=0.1",
        ];
        assert_eq!(shown(&t), want);
        let written = write_file("t.toml", &t);
        assert!(
            written.contains("tree = [[-4.01, 3], [1000.5, 0.25, 2, 0.1]]"),
            "{written}"
        );
        let json = write_file("t.json", &t);
        assert!(json.contains("\"-4.01\""), "{json}");
        for (path, text) in [("t.toml", written), ("t.json", json)] {
            assert_eq!(shown(&read_file(path, &text).unwrap()), want, "{text}");
        }
    }

    #[test]
    fn bad_numbers_are_named_where_they_stand() {
        for (text, at, words) in [
            (
                "tree = [[1e-10, 3]]",
                (1, 10),
                "`1e-10` has more than 9 decimal places",
            ),
            (
                "tree = [[3, \"0.1234567891\"]]",
                (1, 13),
                "more than 9 decimal places",
            ),
            (
                "tree = [[3, 12345678901.123456789]]",
                (1, 13),
                "is too large",
            ),
            ("tree = [[3, inf]]", (1, 13), "`inf` is not a leaf value"),
            (
                "tree = [[3, \"4,5\"]]",
                (1, 13),
                "`4,5` is not a leaf value",
            ),
        ] {
            let e = read_file("t.toml", &format!("kind = \"game-tree\"\n{text}\n")).unwrap_err();
            assert!(e.message.contains(words), "{text}: {}", e.message);
            assert_eq!(
                e.line_column(),
                Some((at.0 + 1, at.1)),
                "{text}: {}",
                e.message
            );
        }
        // JSON has already made a fraction a binary float: the string form is asked for.
        let e = read_file("t.json", r#"{"kind": "game-tree", "tree": [[-4.01, 3]]}"#).unwrap_err();
        assert!(
            e.message
                .contains("`-4.01` is a JSON number with a fraction"),
            "{}",
            e.message
        );
        assert!(
            e.hint.as_deref().unwrap_or("").contains("\"-4.01\""),
            "{:?}",
            e.hint
        );
        assert_eq!(e.location, Location::Key("tree[0][0]".into()));
    }

    /// Labels differing only in case are one label unless the file says
    /// `case_sensitive_labels = true`; then they are two, found by case.
    #[test]
    fn labels_differing_in_case_need_the_file_to_say_so() {
        let text = "kind = \"game-tree\"\ntree = [[1, 2]]\nlabels = [\"a\", \"A\", \"b\", \"B\"]\n";
        let e = read_file("t.toml", text).unwrap_err();
        assert_eq!(e.message, "the label `A` is used twice");
        assert_eq!(e.line_column(), Some((3, 16)));
        assert!(
            e.hint
                .as_deref()
                .unwrap_or("")
                .contains("case_sensitive_labels = true")
        );
        let t = read_file("t.toml", &format!("{text}case_sensitive_labels = true\n")).unwrap();
        assert!(t.case_sensitive());
        assert_eq!(shown(&t), ["a", "A", "b=1", "B=2"]);
        assert_ne!(t.find("b"), t.find("B"));
        assert!(write_file("t.toml", &t).ends_with("case_sensitive_labels = true\n"));
        // Even so, one spelling twice is one label twice.
        let twice = text.replace("\"B\"]", "\"b\"]") + "case_sensitive_labels = true\n";
        let e = read_file("t.toml", &twice).unwrap_err();
        assert_eq!(e.message, "the label `b` is used twice");
        assert_eq!(e.line_column(), Some((3, 26)));
    }
}
