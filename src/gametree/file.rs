//! Game-tree instance files: `kind = "game-tree"`, `tree = [[3, 12, 8], …]`.

use super::tree::{MAX_DEPTH, MAX_FILE_NODES, Player, Shape, Tree, TreeError};
use crate::document::{Node, Table};
use crate::input::{Doc, DocKind, InputError, Reader};
use crate::value::Value;

/// The keys a game-tree file may have.
pub const KEYS: &[&str] = &["kind", "title", "root", "tree", "labels"];

const LABEL_COUNT_HINT: &str = "give one label per node, breadth-first and left to right, or leave `labels` out to get A, B, C, …";
const DUPLICATE_HINT: &str = "every node needs its own label (labels are compared case-insensitively, and `é` typed as one character or as `e` and an accent is one label)";

const TREE_EXAMPLE: &str = "`tree = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]`";

/// Reads a game tree from a checked top-level table.
pub fn read(reader: &Reader<'_>, table: &crate::input::Table<'_>) -> Result<Tree, InputError> {
    let src = reader.source;
    let root = match table.get("root") {
        None => Player::Max,
        Some(doc) => read_player(reader, doc)?,
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
            let mut seen = std::collections::HashSet::with_capacity(items.len());
            for item in items {
                let label = crate::input::label_text(reader.str(item, "\"B\"")?);
                check_label(&label, &mut seen).map_err(|(m, h)| src.error(item, m, h))?;
                labels.push(label);
            }
            Some((doc, labels))
        }
    };
    let (labels_doc, labels) = labels.map_or((None, None), |(d, l)| (Some(d), Some(l)));
    Tree::from_shape(&shape, root, labels).map_err(|e| {
        let at = labels_doc.unwrap_or(tree_doc);
        let hint = match e {
            TreeError::LabelCount { .. } => LABEL_COUNT_HINT,
            TreeError::DuplicateLabel(_) => DUPLICATE_HINT,
            _ => "make the tree smaller",
        };
        reader.source.error(at, e.to_string(), hint.to_string())
    })
}

/// Why `label` (in [`crate::input::label_text`] form) cannot name a node of
/// a tree whose other labels' keys are `seen`, as a message and a hint; else
/// its key joins `seen`. Every tree reader checks its labels with it.
pub(crate) fn check_label(
    label: &str,
    seen: &mut std::collections::HashSet<String>,
) -> Result<(), (String, String)> {
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
    if !seen.insert(label.to_lowercase()) {
        return Err((
            format!("the label `{label}` is used twice"),
            DUPLICATE_HINT.to_string(),
        ));
    }
    Ok(())
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
    forms: "leaves are integers, or \"+inf\" / \"-inf\" for won / lost positions",
    expected: "an integer leaf or a list of subtrees",
    example: TREE_EXAMPLE,
};

/// Reads a leaf value: an integer, or the string `"+inf"` / `"-inf"`.
pub fn read_value(reader: &Reader<'_>, doc: &Doc) -> Result<Value, InputError> {
    read_number(reader, doc, &LEAF)
}

/// Reads a game value worded as `words` says: an integer, `"+inf"` or `"-inf"`.
pub fn read_number(reader: &Reader<'_>, doc: &Doc, words: &Number) -> Result<Value, InputError> {
    match &doc.kind {
        DocKind::Int(v) => Ok(Value::Finite(*v)),
        DocKind::HugeInt => Err(reader
            .source
            .error(doc, words.too_large, words.range.to_string())),
        DocKind::Str(s) => Value::parse_infinity(s).ok_or_else(|| {
            reader.source.error(
                doc,
                format!("`{s}` is not {}", words.noun),
                words.forms.to_string(),
            )
        }),
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

/// A shape as nested lists: integers, `"+inf"` / `"-inf"`, lists of subtrees.
fn shape_node(shape: &Shape) -> Node {
    match shape {
        Shape::Leaf(Value::Finite(v)) => Node::Int(*v),
        Shape::Leaf(v) => Node::Str(v.to_string()),
        Shape::Inner(children) => Node::inline(children.iter().map(shape_node)),
    }
}

/// The tree as an instance document: `kind`, `root`, `tree` (on one line),
/// and `labels` when they are not the default A, B, C, ….
pub fn document(tree: &Tree) -> Table {
    let mut doc = Table::new()
        .with("kind", "game-tree")
        .with("root", tree.root_player().name().to_lowercase())
        .with("tree", shape_node(&tree.to_shape()));
    if let Some(labels) = tree.explicit_labels() {
        doc.push("labels", Node::inline(labels.iter().map(String::as_str)));
    }
    doc
}
