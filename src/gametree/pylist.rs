//! Game trees written as Python nested lists, the form of EduCoder's α-β task
//! and of many course assignments: `['A', ('B', 5), ['C', ('D', 3), ('E', 12)]]`
//! (a list is an inner node, its first item a string naming it; a tuple is a
//! labelled leaf) or, without labels, `[[3, 12, 8], [2, 4, 6], [14, 5, 2]]`.
//! The root is MAX. A file holds one such literal, optionally assigned to a
//! name (`tree = [...]`), with `#` comments anywhere. Values are read
//! exactly (`-4.01` is −4.01); labels are Python strings, so a tree that
//! names nodes `a` and `A` compares its labels with case.

use std::ops::Range;

use super::tree::{MAX_DEPTH, MAX_FILE_NODES, Player, Shape, Tree, TreeError};
use crate::input::{InputError, Source};
use crate::value::Value;

const FORM: &str = "write the tree as ['A', ('B', 5), ['C', ('D', 3), ('E', 12)]] (a list is an inner node named by its first item, a tuple a leaf and its value), or without names as [[3, 12], [2, 4]]";

/// One Python value of the literal.
#[derive(Debug)]
enum Py {
    List(Vec<Item>),
    Tuple(Vec<Item>),
    Str(String),
    Num(Value),
}

/// A value and where it is in the file.
#[derive(Debug)]
struct Item {
    py: Py,
    span: Range<usize>,
}

struct Parser<'s> {
    source: &'s Source,
    at: usize,
    /// Values read so far: a file of a million nodes is refused before it fills memory.
    count: usize,
}

impl<'s> Parser<'s> {
    fn text(&self) -> &'s str {
        &self.source.text
    }

    fn error(&self, span: Range<usize>, message: impl Into<String>, hint: &str) -> InputError {
        self.source.error_at(span, message, Some(hint.to_string()))
    }

    /// Skips blanks and `#` comments.
    fn skip(&mut self) {
        let bytes = self.text().as_bytes();
        while self.at < bytes.len() {
            match bytes[self.at] {
                b' ' | b'\t' | b'\r' | b'\n' => self.at += 1,
                b'#' => {
                    while self.at < bytes.len() && bytes[self.at] != b'\n' {
                        self.at += 1;
                    }
                }
                _ => break,
            }
        }
    }

    fn peek(&self) -> Option<char> {
        self.text()[self.at..].chars().next()
    }

    /// The next character's span, or the end of the file's.
    fn here(&self) -> Range<usize> {
        let len = self.peek().map_or(0, char::len_utf8);
        self.at..self.at + len
    }

    fn ident(&mut self) -> &'s str {
        let text = self.text();
        let start = self.at;
        let len = text[start..]
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
            .unwrap_or(text.len() - start);
        self.at += len;
        &text[start..start + len]
    }

    fn value(&mut self, depth: usize) -> Result<Item, InputError> {
        self.skip();
        let start = self.at;
        self.count += 1;
        if self.count > MAX_FILE_NODES * 2 {
            return Err(self.error(
                self.here(),
                format!("the tree has more than {MAX_FILE_NODES} nodes"),
                "make the tree smaller",
            ));
        }
        let py = match self.peek() {
            None => {
                return Err(self.error(self.here(), "the file ends where a value should be", FORM));
            }
            Some(open @ ('[' | '(')) => {
                if depth >= MAX_DEPTH {
                    return Err(self.error(
                        self.here(),
                        format!("the tree is deeper than {MAX_DEPTH} levels"),
                        "exercises need far fewer levels",
                    ));
                }
                let close = if open == '[' { ']' } else { ')' };
                self.at += 1;
                let mut items = Vec::new();
                loop {
                    self.skip();
                    if self.peek() == Some(close) {
                        self.at += 1;
                        break;
                    }
                    items.push(self.value(depth + 1)?);
                    self.skip();
                    match self.peek() {
                        None => {
                            return Err(self.error(
                                start..start + 1,
                                format!("this `{open}` is never closed"),
                                &format!("close it with `{close}` after its last item"),
                            ));
                        }
                        Some(',') => self.at += 1,
                        Some(c) if c == close => {
                            self.at += 1;
                            break;
                        }
                        _ => {
                            return Err(self.error(
                                self.here(),
                                format!("expected `,` or `{close}` here"),
                                "separate the items of a list or tuple with commas",
                            ));
                        }
                    }
                }
                if open == '[' {
                    Py::List(items)
                } else {
                    Py::Tuple(items)
                }
            }
            Some(quote @ ('\'' | '"')) => Py::Str(self.string(quote)?),
            Some(c) if c.is_ascii_digit() || c == '-' || c == '+' => self.number()?,
            Some(c) if c.is_alphabetic() || c == '_' => self.infinity(false)?,
            Some(c) => {
                return Err(self.error(self.here(), format!("`{c}` cannot start a value"), FORM));
            }
        };
        Ok(Item {
            py,
            span: start..self.at,
        })
    }

    /// A string in `quote`s, with Python's simple escapes.
    fn string(&mut self, quote: char) -> Result<String, InputError> {
        let start = self.at;
        self.at += 1;
        let mut out = String::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(self.error(start..start + 1, "this string is never closed", FORM));
            };
            self.at += c.len_utf8();
            match c {
                c if c == quote => return Ok(out),
                '\n' => {
                    return Err(self.error(
                        start..self.at - 1,
                        "this string is not closed on its line",
                        "close the label with the quote it opens with",
                    ));
                }
                '\\' => {
                    let Some(e) = self.peek() else { continue };
                    self.at += e.len_utf8();
                    out.push(match e {
                        'n' => '\n',
                        't' => '\t',
                        other => other,
                    });
                }
                c => out.push(c),
            }
        }
    }

    /// A number (`3`, `-4.01`, `1.5e2`, read exactly), or a signed infinity
    /// (`-math.inf`, `-float('inf')`).
    fn number(&mut self) -> Result<Py, InputError> {
        let start = self.at;
        let negative = self.peek() == Some('-');
        if matches!(self.peek(), Some('-' | '+')) {
            self.at += 1;
            self.skip();
            if self.peek().is_some_and(|c| c.is_alphabetic()) {
                return self.infinity(negative);
            }
        }
        let text = self.text();
        let digits = text[self.at..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
            .unwrap_or(text.len() - self.at);
        self.at += digits;
        // An exponent's sign: `1.5e-2` goes on past the `-`.
        if text[..self.at].ends_with(['e', 'E'])
            && text[self.at..].starts_with(['-', '+'])
            && text[start..self.at].bytes().any(|b| b.is_ascii_digit())
        {
            self.at += 1;
            self.at += text[self.at..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
                .unwrap_or(text.len() - self.at);
        }
        let literal = text[start..self.at].replace([' ', '_'], "");
        Value::parse_number(&literal).map(Py::Num).map_err(|why| {
            let (message, hint) = super::file::number_problem(&literal, why).unwrap_or_else(|| {
                (
                    format!("`{literal}` is not a number"),
                    "leaf values are numbers (3, -4.01), or float('inf') / float('-inf')"
                        .to_string(),
                )
            });
            self.error(start..self.at, message, &hint)
        })
    }

    /// `math.inf`, `inf` or `float('inf')` (and `'-inf'`, `'+inf'`, `'infinity'`).
    fn infinity(&mut self, negative: bool) -> Result<Py, InputError> {
        let start = self.at;
        let name = self.ident();
        let infinite = |sign_negative: bool| {
            Py::Num(if sign_negative != negative {
                Value::NegInf
            } else {
                Value::PosInf
            })
        };
        match name {
            "math.inf" | "inf" | "np.inf" | "numpy.inf" => return Ok(infinite(false)),
            "float" => {}
            _ => {
                return Err(self.error(
                    start..self.at,
                    format!("`{name}` is not a value treequiz reads"),
                    "leaves are integers, or float('inf') / float('-inf'); labels are quoted, like 'B'",
                ));
            }
        }
        self.skip();
        if self.peek() != Some('(') {
            return Err(self.error(
                self.here(),
                "expected `(` after `float`",
                "write float('inf')",
            ));
        }
        self.at += 1;
        self.skip();
        let quote = self.peek().filter(|c| matches!(c, '\'' | '"'));
        let arg_start = self.at;
        let Some(quote) = quote else {
            return Err(self.error(self.here(), "expected a quoted 'inf'", "write float('inf')"));
        };
        let arg = self.string(quote)?;
        self.skip();
        if self.peek() != Some(')') {
            return Err(self.error(self.here(), "expected `)`", "write float('inf')"));
        }
        self.at += 1;
        match arg.trim().to_ascii_lowercase().as_str() {
            "inf" | "+inf" | "infinity" | "+infinity" => Ok(infinite(false)),
            "-inf" | "-infinity" => Ok(infinite(true)),
            _ => Err(self.error(
                arg_start..self.at - 1,
                format!("float('{arg}') is not an infinity"),
                "leaves are integers, or float('inf') / float('-inf')",
            )),
        }
    }
}

/// A node of the literal, read as a tree node: its label, if named, and its leaf value or children.
struct Node<'a> {
    label: Option<(&'a str, &'a Range<usize>)>,
    value: Option<Value>,
    children: Vec<&'a Item>,
    span: &'a Range<usize>,
}

fn node<'a>(p: &Parser<'_>, item: &'a Item) -> Result<Node<'a>, InputError> {
    let plain = |value, children| Node {
        label: None,
        value,
        children,
        span: &item.span,
    };
    match &item.py {
        Py::Num(v) => Ok(plain(Some(*v), Vec::new())),
        Py::Str(s) => Err(p.error(
            item.span.clone(),
            format!("the label '{s}' stands alone"),
            "a leaf is a label and its value, ('B', 5); an inner node's list starts with its label, ['C', ('D', 3), ('E', 12)]",
        )),
        Py::List(items) => {
            let (label, children) = match items.first() {
                Some(Item {
                    py: Py::Str(s),
                    span,
                }) => (Some((s.as_str(), span)), &items[1..]),
                _ => (None, &items[..]),
            };
            if children.is_empty() {
                let message = if label.is_some() {
                    "this inner node has no children"
                } else {
                    "empty list"
                };
                return Err(p.error(
                    item.span.clone(),
                    message,
                    "every list is a node with children: put leaves or lists inside, or write a leaf ('B', 5)",
                ));
            }
            Ok(Node {
                label,
                value: None,
                children: children.iter().collect(),
                span: &item.span,
            })
        }
        Py::Tuple(items) => match items.as_slice() {
            [
                Item {
                    py: Py::Str(s),
                    span,
                },
                second,
            ] => {
                let label = Some((s.as_str(), span));
                match &second.py {
                    Py::Num(v) => Ok(Node {
                        label,
                        value: Some(*v),
                        children: Vec::new(),
                        span: &item.span,
                    }),
                    // ('C', [children]): a named inner node.
                    Py::List(children) if !children.is_empty() => Ok(Node {
                        label,
                        value: None,
                        children: children.iter().collect(),
                        span: &item.span,
                    }),
                    _ => Err(p.error(
                        second.span.clone(),
                        "a leaf's value is a number",
                        "write a leaf as ('B', 5): its label, then its value",
                    )),
                }
            }
            _ => Err(p.error(
                item.span.clone(),
                "a tuple is a leaf: its label and its value",
                "write a leaf as ('B', 5)",
            )),
        },
    }
}

/// Reads a game tree from a Python nested-list file.
pub fn read(source: &Source) -> Result<Tree, InputError> {
    let mut p = Parser {
        source,
        at: 0,
        count: 0,
    };
    p.skip();
    // `name = [...]`: the name is left aside.
    if p.peek().is_some_and(|c| c.is_alphabetic() || c == '_') {
        let start = p.at;
        p.ident();
        p.skip();
        if p.peek() != Some('=') {
            p.at = start;
        } else {
            p.at += 1;
        }
    }
    let top = p.value(0)?;
    p.skip();
    if p.at < source.text.len() {
        return Err(p.error(
            p.here(),
            "the tree ends before this",
            "a file holds one tree: remove what follows it, or make it a comment with #",
        ));
    }
    let root = node(&p, &top)?;
    if root.value.is_some() {
        return Err(p.error(top.span.clone(), "the tree is a single leaf", FORM));
    }
    // Breadth first, as treequiz numbers nodes: labels in that order.
    let mut labels: Vec<String> = Vec::new();
    let mut unlabelled: Option<&Range<usize>> = None;
    // Python strings: `a` and `A` are two labels.
    let mut seen = super::file::Labels::new(true);
    let mut queue = std::collections::VecDeque::from([root]);
    let mut order: Vec<(Option<Value>, usize)> = Vec::new();
    while let Some(n) = queue.pop_front() {
        match n.label {
            Some((text, span)) => {
                let label = crate::input::label_text(text);
                seen.check(&label)
                    .map_err(|(m, h)| source.error_at(span.clone(), m, Some(h)))?;
                labels.push(label);
            }
            None => unlabelled = unlabelled.or(Some(n.span)),
        }
        order.push((n.value, n.children.len()));
        for child in n.children {
            queue.push_back(node(&p, child)?);
        }
    }
    if let (false, Some(span)) = (labels.is_empty(), unlabelled) {
        return Err(p.error(
            span.clone(),
            "this node has no label, and others have",
            "name every node (['A', ('B', 5)]) or none ([[3, 12], [2, 4]])",
        ));
    }
    // The breadth-first list of nodes back into nested shapes.
    let mut shapes: Vec<Option<Shape>> = Vec::with_capacity(order.len());
    shapes.resize_with(order.len(), || None);
    let mut first_child = vec![0usize; order.len()];
    let mut next = 1;
    for (i, &(_, children)) in order.iter().enumerate() {
        first_child[i] = next;
        next += children;
    }
    for i in (0..order.len()).rev() {
        let (value, children) = order[i];
        shapes[i] = Some(match value {
            Some(v) => Shape::Leaf(v),
            None => Shape::Inner(
                (first_child[i]..first_child[i] + children)
                    .map(|c| shapes[c].take().expect("children come after their parent"))
                    .collect(),
            ),
        });
    }
    let shape = shapes[0].take().expect("the root");
    Tree::from_shape(&shape, Player::Max, None)
        .and_then(|t| {
            let t = t.with_case_sensitive_labels(seen.differ_in_case());
            if labels.is_empty() {
                Ok(t)
            } else {
                t.relabel(labels)
            }
        })
        .map_err(|e| {
            let hint = match e {
                TreeError::TooDeep | TreeError::TooLarge => "make the tree smaller",
                _ => FORM,
            };
            p.error(top.span.clone(), e.to_string(), hint)
        })
}

/// A Python string literal of `text`.
fn quoted(text: &str) -> String {
    let mut out = String::from("'");
    for c in text.chars() {
        match c {
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

fn number(v: Value) -> String {
    match v {
        Value::Finite(n) => n.to_string(),
        Value::Decimal(d) => d.to_string(),
        Value::PosInf => "float('inf')".to_string(),
        Value::NegInf => "float('-inf')".to_string(),
    }
}

/// The tree as a Python nested list with labels, `tree = ['A', ('B', 5), …]`,
/// after a comment that says how to read it. `None` when the root is MIN:
/// the form has no place to say so (its root is MAX).
pub fn write(tree: &Tree) -> Option<String> {
    if tree.root_player() != Player::Max {
        return None;
    }
    fn go(tree: &Tree, id: super::NodeId, out: &mut String) {
        let label = quoted(&tree.label(id));
        match tree.leaf(id) {
            Some(v) => out.push_str(&format!("({label}, {})", number(v))),
            None => {
                out.push('[');
                out.push_str(&label);
                for c in tree.children(id) {
                    out.push_str(", ");
                    go(tree, c, out);
                }
                out.push(']');
            }
        }
    }
    let mut out = String::from(
        "# A game tree (treequiz): a list is an inner node, its first item its label;\n# a tuple is a leaf, its label and its value. The root is MAX.\ntree = ",
    );
    go(tree, tree.root(), &mut out);
    out.push('\n');
    Some(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn src(text: &str) -> Source {
        Source {
            path: "t.py".into(),
            text: text.into(),
        }
    }

    /// Every node, breadth first: its label, leaf value and number of children.
    pub(crate) fn values(t: &Tree) -> Vec<(String, Option<Value>, usize)> {
        t.ids()
            .map(|i| (t.label(i).into_owned(), t.leaf(i), t.children(i).count()))
            .collect()
    }

    /// A random shape: leaves at any depth up to `depth`, values from −12
    /// to 12, now and then an infinity.
    pub(crate) fn random_shape(state: &mut u64, depth: u32) -> Shape {
        fn next(state: &mut u64, n: u64) -> u64 {
            *state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (*state >> 33) % n
        }
        if depth > 0 && next(state, 4) != 0 {
            let k = 1 + next(state, 3);
            Shape::Inner((0..k).map(|_| random_shape(state, depth - 1)).collect())
        } else {
            Shape::Leaf(match next(state, 25) {
                0 => Value::PosInf,
                1 => Value::NegInf,
                2 => Value::decimal(
                    next(state, 20_001) as i64 - 10_000,
                    1 + next(state, 9) as u32,
                )
                .expect("at most 9 places"),
                n => Value::Finite(n as i64 - 12),
            })
        }
    }

    #[test]
    fn the_three_common_forms_read_as_one_tree() {
        let named = read(&src(
            "tree = ['A', ['B', ('D', 3), ('E', 12)], ['C', ('F', 2), ('G', float('-inf'))]]",
        ))
        .unwrap();
        let plain = read(&src("# AIMA-like\n[[3, 12], [2, -math.inf]]\n")).unwrap();
        let toml = Tree::from_shape(
            &Shape::Inner(vec![
                Shape::Inner(vec![
                    Shape::Leaf(Value::Finite(3)),
                    Shape::Leaf(Value::Finite(12)),
                ]),
                Shape::Inner(vec![
                    Shape::Leaf(Value::Finite(2)),
                    Shape::Leaf(Value::NegInf),
                ]),
            ]),
            Player::Max,
            None,
        )
        .unwrap();
        assert_eq!(values(&named), values(&plain));
        assert_eq!(values(&plain), values(&toml));
        let tuples = read(&src(
            "('A', [('B', [('D', 3), ('E', 12)]), ('C', [('F', 2), ('G', -float('inf'))])])",
        ))
        .unwrap();
        assert_eq!(values(&tuples), values(&named));
        assert!(!named.case_sensitive());
        // Python floats are read exactly, and `a` and `A` are two strings.
        let exact = read(&src("['a', ('A', -4.01), ('b', 15e-1), ('B', 1_000.50)]")).unwrap();
        assert!(exact.case_sensitive());
        let shown: Vec<String> = exact
            .ids()
            .map(|i| {
                format!(
                    "{}{}",
                    exact.label(i),
                    exact.leaf(i).map(|v| format!("={v}")).unwrap_or_default()
                )
            })
            .collect();
        assert_eq!(shown, ["a", "A=-4.01", "b=1.5", "B=1000.5"]);
        assert_eq!(exact.find("b"), Some(crate::gametree::NodeId(2)));
    }

    #[test]
    fn errors_say_where_and_how() {
        for (text, line, col, words) in [
            ("['A', ('B', 5), 'C']", 1, 17, "stands alone"),
            (
                "['A', ('B', 5), ('C', 1e-10)]",
                1,
                23,
                "more than 9 decimal places",
            ),
            (
                "['A', ('B', 5), ('C', 3.5.1)]",
                1,
                23,
                "`3.5.1` is not a number",
            ),
            ("[[1, 2], [3, 99999999999999999999]]", 1, 14, "too large"),
            ("[[1, 2],\n [3 4]]", 2, 5, "expected `,` or `]`"),
            ("['A', ('B', 5), [('C', 1), ('D', 2)]]", 1, 17, "no label"),
            ("['A', ('B', 5), ('B', 1)]", 1, 18, "used twice"),
            ("[[1, 2], []]", 1, 10, "empty list"),
            ("[[1, 2]] x", 1, 10, "ends before this"),
            ("['A', ('B', 5)", 1, 1, "never closed"),
            ("['A', ('B', 5), ", 1, 17, "ends where a value"),
        ] {
            let e = read(&src(text)).unwrap_err();
            assert!(e.message.contains(words), "{text}: {}", e.message);
            assert_eq!(e.line_column(), Some((line, col)), "{text}: {}", e.message);
        }
    }

    /// 1,000 random trees (a root with at least one child; some decimal
    /// leaves; every other tree labelled `A`, `a`, `B`, `b`, …, so compared
    /// with case), each written by `write` and read back by `read` from a
    /// file named `path`: the same tree.
    pub(crate) fn assert_round_trips(
        mut state: u64,
        path: &str,
        write: impl Fn(&Tree) -> String,
        read: impl Fn(&Source) -> Result<Tree, InputError>,
    ) {
        for seed in 0..1000 {
            let shape = match random_shape(&mut state, 5) {
                leaf @ Shape::Leaf(_) => Shape::Inner(vec![leaf]),
                inner => inner,
            };
            let mut t = Tree::from_shape(&shape, Player::Max, None).unwrap();
            if seed % 2 == 1 {
                let labels = t
                    .ids()
                    .map(|i| {
                        let l = crate::gametree::textbook_label(i.index() / 2);
                        if i.index() % 2 == 1 {
                            l.to_lowercase()
                        } else {
                            l
                        }
                    })
                    .collect();
                t = t.with_case_sensitive_labels(true).relabel(labels).unwrap();
            }
            let text = write(&t);
            let back = read(&Source {
                path: path.into(),
                text: text.clone(),
            })
            .unwrap();
            assert_eq!(values(&back), values(&t), "seed {seed}:\n{text}");
            // `A` and `a` are read back as two labels, compared with case.
            assert_eq!(back.case_sensitive(), t.case_sensitive(), "seed {seed}");
        }
    }

    #[test]
    fn random_trees_round_trip() {
        assert_round_trips(7, "t.py", |t| write(t).unwrap(), read);
    }
}
