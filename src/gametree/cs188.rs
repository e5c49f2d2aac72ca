//! Game trees as Berkeley CS188's `GraphGameTreeTest` files (the multiagent
//! project's `test_cases/q2`–`q3`): `key: "value"` lines and `key: """`
//! blocks, `#` starting a comment anywhere on a line, as its `testParser.py`
//! reads them. The tree is `successors` (`state action next` lines, each
//! state's actions in order) from `start_state`, two agents (MAX, then MIN);
//! leaves are the states without successors, the `win_states` and
//! `lose_states` (the agents stop there), and the states `depth` rounds down;
//! their values are in `evaluation` (`state value` lines), which CS188 reads
//! as Python floats and treequiz exactly (`-4.01` is −4.01, not the binary
//! float nearest it). States are Python strings, so `a` and `A` are two
//! states: a file that has both gets a tree whose labels are case-sensitive.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use super::tree::{MAX_DEPTH, MAX_FILE_NODES, Player, Shape, Tree};
use crate::input::{InputError, Source};
use crate::value::{NumberError, Value};

/// The keys a `GraphGameTreeTest` may have; treequiz reads the tree's.
const KEYS: &[&str] = &[
    "class",
    "alg",
    "depth",
    "diagram",
    "num_agents",
    "start_state",
    "win_states",
    "lose_states",
    "successors",
    "evaluation",
];

/// A key's value: its lines without their comments (one for a quoted
/// value), each a slice of the file's text, so that spans can be found.
struct Entry<'s> {
    lines: Vec<&'s str>,
    /// Where the value starts.
    at: usize,
    key_span: Range<usize>,
}

impl<'s> Entry<'s> {
    /// A quoted value's text (a block's first line).
    fn text(&self) -> &'s str {
        self.lines.first().copied().unwrap_or("")
    }

    /// The value's span, or an empty one where it would start.
    fn span(&self) -> Range<usize> {
        self.at..self.at + self.text().len()
    }
}

/// The file's keys, as `testParser.py` reads them.
fn entries(source: &Source) -> Result<HashMap<&str, Entry<'_>>, InputError> {
    let text = source.text.as_str();
    let mut out: HashMap<&str, Entry<'_>> = HashMap::new();
    // Each line without its comment, and where it starts.
    let mut lines = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let body = body.find('#').map_or(body, |i| &body[..i]);
        lines.push((start, body));
        start += line.len();
    }
    let mut i = 0;
    while i < lines.len() {
        let (at, line) = lines[i];
        i += 1;
        if line.trim().is_empty() {
            continue;
        }
        let Some(colon) = line.find(':').filter(|&c| !line[..c].contains('"')) else {
            return Err(source.error_at(
                at..at + line.len(),
                "this line is not `key: \"value\"`",
                Some("write each property as key: \"value\", or key: \"\"\" with the lines below it and a closing \"\"\"".to_string()),
            ));
        };
        let key = line[..colon].trim();
        let key_span = at..at + colon;
        let rest = line[colon + 1..].trim();
        let entry = if rest == "\"\"\"" {
            // A block: the lines up to the one that is `"""`.
            let first = i;
            while i < lines.len() && lines[i].1.trim() != "\"\"\"" {
                i += 1;
            }
            if i == lines.len() {
                return Err(source.error_at(
                    key_span,
                    format!("the block `{key}` is never closed"),
                    Some("end it with a line that is \"\"\"".to_string()),
                ));
            }
            let from = lines.get(first).map_or(text.len(), |l| l.0);
            let body: Vec<&str> = lines[first..i].iter().map(|l| l.1).collect();
            i += 1;
            Entry {
                lines: body,
                at: from,
                key_span,
            }
        } else if rest.len() >= 2
            && rest.starts_with('"')
            && rest.ends_with('"')
            && !rest[1..rest.len() - 1].contains('"')
        {
            let offset = at + colon + 1 + line[colon + 1..].find('"').unwrap_or(0) + 1;
            Entry {
                lines: vec![&rest[1..rest.len() - 1]],
                at: offset,
                key_span,
            }
        } else {
            return Err(source.error_at(
                at + colon + 1..at + line.len(),
                format!("the value of `{key}` is not in double quotes"),
                Some(format!(
                    "write {key}: \"...\", or a block: {key}: \"\"\" on its own line"
                )),
            ));
        };
        if !KEYS.contains(&key) {
            let hint = crate::input::did_you_mean(key, KEYS, "a GraphGameTreeTest has");
            return Err(source.error_at(
                entry.key_span,
                format!("unknown key `{key}`"),
                Some(hint),
            ));
        }
        if let Some(old) = out.insert(key, entry) {
            return Err(source.error_at(
                old.key_span,
                format!("`{key}` is given twice"),
                Some("keep one of them".to_string()),
            ));
        }
    }
    Ok(out)
}

/// A value as CS188's `float()` reads it, but exactly (a float would round
/// `-4.01`, and `12.0` past 2^53): `3.0` is 3, `-4.01` is −4.01; or an infinity.
fn value(text: &str) -> Result<Value, NumberError> {
    match text.to_ascii_lowercase().as_str() {
        "inf" | "+inf" | "infinity" | "+infinity" => Ok(Value::PosInf),
        "-inf" | "-infinity" => Ok(Value::NegInf),
        _ => Value::parse_number(text),
    }
}

/// Reads a game tree from a CS188 `GraphGameTreeTest` file.
pub fn read(source: &Source) -> Result<Tree, InputError> {
    read_entries(source, &entries(source)?, false).map(|(tree, _)| tree)
}

/// Reads the tree of a `GraphGameTreeTest` for `ExpectimaxAgent`, where any
/// number of agents take turns (Pacman, then each ghost): the tree (its
/// players left to the caller) and the number of agents.
pub(crate) fn read_agents(source: &Source) -> Result<(Tree, usize), InputError> {
    read_entries(source, &entries(source)?, true)
}

/// Most agents an `ExpectimaxAgent` test may have: CS188's have two or three.
pub(crate) const MAX_AGENTS: usize = 8;

fn read_entries<'a>(
    source: &'a Source,
    entries: &HashMap<&'a str, Entry<'a>>,
    many_agents: bool,
) -> Result<(Tree, usize), InputError> {
    let end = source.text.len();
    let missing = |key: &str, example: &str| {
        source.error_at(
            end..end,
            format!("missing key `{key}`"),
            Some(format!("a GraphGameTreeTest needs it: {example}")),
        )
    };
    // Words of a value, each with its span in the file.
    let words = |e: &Entry<'a>| -> Vec<(&'a str, Range<usize>)> {
        e.lines
            .iter()
            .flat_map(|l| l.split_ascii_whitespace())
            .map(|w| {
                let at = w.as_ptr() as usize - source.text.as_ptr() as usize;
                (w, at..at + w.len())
            })
            .collect()
    };
    let agents = entries
        .get("num_agents")
        .ok_or_else(|| missing("num_agents", "num_agents: \"2\""))?;
    let agent_count = match agents.text().trim().parse::<usize>() {
        Ok(2) => 2,
        Ok(n) if many_agents && (2..=MAX_AGENTS).contains(&n) => n,
        _ if many_agents => {
            return Err(source.error_at(
                agents.span(),
                format!("`{}` is not a number of agents", agents.text().trim()),
                Some(format!(
                    "num_agents: \"2\" (Pacman and one ghost) up to \"{MAX_AGENTS}\""
                )),
            ));
        }
        _ => {
            return Err(source.error_at(
                agents.span(),
                format!(
                    "{} agents: treequiz's trees have two players",
                    agents.text().trim()
                ),
                Some("num_agents: \"2\" (MAX, then MIN, alternating)".to_string()),
            ));
        }
    };
    let start_entry = entries
        .get("start_state")
        .ok_or_else(|| missing("start_state", "start_state: \"root\""))?;
    let start = start_entry.text().trim();
    let successors = entries.get("successors").ok_or_else(|| {
        missing(
            "successors",
            "successors: \"\"\" (lines: state action next)",
        )
    })?;
    let evaluation = entries
        .get("evaluation")
        .ok_or_else(|| missing("evaluation", "evaluation: \"\"\" (lines: state value)"))?;
    let terminal: HashSet<&str> = ["win_states", "lose_states"]
        .iter()
        .filter_map(|k| entries.get(k))
        .flat_map(|e| e.lines.iter().flat_map(|l| l.split_ascii_whitespace()))
        .collect();
    let depth = match entries.get("depth") {
        None => None,
        Some(e) => match e.text().trim().parse::<usize>() {
            Ok(d) if d >= 1 => Some(d),
            _ => {
                return Err(source.error_at(
                    e.span(),
                    format!(
                        "depth `{}` is not a whole number of rounds",
                        e.text().trim()
                    ),
                    Some("depth: \"2\" (each round, MAX and MIN move once)".to_string()),
                ));
            }
        },
    };
    // Children in file order; each state one parent, named where it is reached.
    let mut children: HashMap<&str, Vec<&str>> = HashMap::new();
    let mut parent: HashMap<&str, &str> = HashMap::new();
    let mut named: HashMap<&str, Range<usize>> = HashMap::new();
    let all = words(successors);
    // Lines with words, split as `words` splits them (ASCII whitespace: a
    // line of vertical tabs alone is a word, not a blank line).
    let lines = |e: &Entry<'a>| -> Vec<&'a str> {
        e.lines
            .iter()
            .copied()
            .filter(|l| l.split_ascii_whitespace().next().is_some())
            .collect()
    };
    let offset = |l: &str| l.as_ptr() as usize - source.text.as_ptr() as usize;
    if let Some(line) = lines(successors)
        .into_iter()
        .find(|l| l.split_ascii_whitespace().count() != 3)
    {
        return Err(source.error_at(
            offset(line)..offset(line) + line.len(),
            "a successor line needs three words",
            Some("write each move as: state action next_state".to_string()),
        ));
    }
    for triple in all.chunks(3) {
        let (from, next) = (triple[0].0, triple[2].0);
        if let Some(first) = parent.insert(next, from) {
            let message = if first == from {
                format!("`{next}` is a successor of `{from}` twice")
            } else {
                format!("`{next}` is reached from `{first}` and from `{from}`")
            };
            return Err(source.error_at(
                triple[2].1.clone(),
                message,
                Some("treequiz reads trees: give each state one parent (copy the state under a new name)".to_string()),
            ));
        }
        children.entry(from).or_default().push(next);
        named.insert(next, triple[2].1.clone());
    }
    let mut values: HashMap<&str, Value> = HashMap::new();
    for line in lines(evaluation) {
        let at = offset(line);
        let parts: Vec<&str> = line.split_ascii_whitespace().collect();
        let [state, text] = parts.as_slice() else {
            return Err(source.error_at(
                at..at + line.len(),
                "an evaluation line needs two words",
                Some("write each value as: state value".to_string()),
            ));
        };
        let v = value(text).map_err(|why| {
            let (message, hint) = super::file::number_problem(text, why).unwrap_or_else(|| {
                (
                    format!("`{text}` is not a number"),
                    "write each value as: state value, the number with a decimal point (3.0, -4.01), or inf / -inf"
                        .to_string(),
                )
            });
            source.error_at(offset(text)..offset(text) + text.len(), message, Some(hint))
        })?;
        values.insert(state, v);
    }
    // Breadth first from the start: labels and the shape.
    // A round is one move of each agent.
    let limit = depth.map_or(usize::MAX, |d| agent_count * d);
    let mut order: Vec<(&str, usize, usize)> = vec![(start, 0, 0)]; // (state, depth, children)
    let mut i = 0;
    while i < order.len() {
        let (state, d, _) = order[i];
        let kids: &[&str] = if terminal.contains(state) || d >= limit {
            &[]
        } else {
            children.get(state).map_or(&[], Vec::as_slice)
        };
        if !kids.is_empty() && d + 1 > MAX_DEPTH {
            return Err(source.error_at(
                start_entry.span(),
                format!("the tree is deeper than {MAX_DEPTH} levels"),
                Some("exercises need far fewer levels".to_string()),
            ));
        }
        order[i].2 = kids.len();
        for &k in kids {
            if order.len() >= MAX_FILE_NODES {
                return Err(source.error_at(
                    successors.key_span.clone(),
                    format!("the tree has more than {MAX_FILE_NODES} nodes"),
                    Some("make the tree smaller".to_string()),
                ));
            }
            order.push((k, d + 1, 0));
        }
        i += 1;
    }
    if order[0].2 == 0 {
        return Err(source.error_at(
            start_entry.span(),
            format!("the start state `{start}` has no successors"),
            Some("the tree starts at start_state: list its moves in successors".to_string()),
        ));
    }
    // States are Python strings: `a` and `A` are two.
    let mut labels = Vec::with_capacity(order.len());
    let mut seen = super::file::Labels::new(true);
    for &(state, _, _) in &order {
        let label = crate::input::label_text(state);
        seen.check(&label).map_err(|(m, h)| {
            let at = named
                .get(state)
                .cloned()
                .unwrap_or_else(|| start_entry.span());
            source.error_at(at, m, Some(h))
        })?;
        labels.push(label);
    }
    // Nested shapes from the breadth-first list, last first.
    let mut first_child = Vec::with_capacity(order.len());
    let mut next = 1;
    for &(_, _, k) in &order {
        first_child.push(next);
        next += k;
    }
    let mut shapes: Vec<Option<Shape>> = Vec::new();
    shapes.resize_with(order.len(), || None);
    for i in (0..order.len()).rev() {
        let (state, _, k) = order[i];
        shapes[i] = Some(if k == 0 {
            let Some(v) = values.get(state) else {
                return Err(source.error_at(
                    evaluation.key_span.clone(),
                    format!("the leaf `{state}` has no value"),
                    Some(format!("add a line `{state} 0.0` to evaluation")),
                ));
            };
            Shape::Leaf(*v)
        } else {
            Shape::Inner(
                (first_child[i]..first_child[i] + k)
                    .map(|c| shapes[c].take().expect("children come after their parent"))
                    .collect(),
            )
        });
    }
    let shape = shapes[0].take().expect("the start state");
    Tree::from_shape(&shape, Player::Max, None)
        .and_then(|t| {
            t.with_case_sensitive_labels(seen.differ_in_case())
                .relabel(labels)
        })
        .map(|t| (t, agent_count))
        .map_err(|e| {
            source.error_at(
                start_entry.span(),
                e.to_string(),
                Some("make the tree smaller".to_string()),
            )
        })
}

/// Why a label cannot be written to a CS188 file (`testParser.py` cuts a
/// line at `#`, ends a value at `"`, and splits states at blanks).
fn unwritable(label: &str) -> bool {
    label.contains(['#', '"']) || label.chars().any(char::is_whitespace)
}

/// The tree as a `GraphGameTreeTest` for `alg` (`MinimaxAgent`,
/// `AlphaBetaAgent`): each move's action is the child's label; `depth`
/// rounds reach the deepest leaf, and a leaf above that is a win state
/// (positive value) or a lose state (the agents stop at both). `Err` says
/// why the tree cannot be written so.
pub fn write(tree: &Tree, alg: &str) -> Result<String, String> {
    if tree.root_player() != Player::Max {
        return Err("CS188's trees start with MAX (Pacman), and this one starts with MIN".into());
    }
    write_agents(tree, alg, 2)
}

/// The tree as a `GraphGameTreeTest` where `agents` agents take turns
/// (Pacman, then each ghost), as [`write`] says.
pub(crate) fn write_agents(tree: &Tree, alg: &str, agents: usize) -> Result<String, String> {
    if let Some(id) = tree.ids().find(|&id| unwritable(&tree.label(id))) {
        return Err(format!(
            "the label `{}` holds `#`, `\"` or a blank, which a CS188 test file cannot",
            tree.label(id)
        ));
    }
    let height = tree.ids().map(|id| tree.depth_of(id)).max().unwrap_or(0);
    let rounds = height.div_ceil(agents).max(1);
    let (mut win, mut lose) = (Vec::new(), Vec::new());
    let mut successors = String::new();
    let mut evaluation = String::new();
    for id in tree.ids() {
        let label = tree.label(id);
        for c in tree.children(id) {
            let child = tree.label(c);
            successors.push_str(&format!("{label} {child} {child}\n"));
        }
        if let Some(v) = tree.leaf(id) {
            let text = match v {
                Value::Finite(n) => format!("{n}.0"),
                Value::Decimal(d) => d.to_string(),
                Value::PosInf => "inf".to_string(),
                Value::NegInf => "-inf".to_string(),
            };
            evaluation.push_str(&format!("{label} {text}\n"));
            if tree.depth_of(id) < agents * rounds {
                if v > Value::Finite(0) {
                    win.push(label.into_owned());
                } else {
                    lose.push(label.into_owned());
                }
            }
        }
    }
    let diagram = super::pylist::write(tree)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n");
    Ok(format!(
        "# A game tree from treequiz for the CS188 multiagent autograder. The root is MAX;\n\
         # each move's action is the child's name. Leaves above the depth limit are\n\
         # win states (value > 0) or lose states, where the agents stop.\n\
         class: \"GraphGameTreeTest\"\n\
         alg: \"{alg}\"\n\
         depth: \"{rounds}\"\n\
         diagram: \"\"\"\n{diagram}\n\"\"\"\n\
         num_agents: \"{agents}\"\n\n\
         start_state: \"{}\"\n\
         win_states: \"{}\"\n\
         lose_states: \"{}\"\n\n\
         successors: \"\"\"\n{successors}\"\"\"\n\n\
         evaluation: \"\"\"\n{evaluation}\"\"\"\n",
        tree.label(tree.root()),
        win.join(" "),
        lose.join(" "),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gametree::file::tests::{read_file, write_file};
    use crate::gametree::pylist::tests::{assert_round_trips, values};

    fn src(text: &str) -> Source {
        Source {
            path: "t.test".into(),
            text: text.into(),
        }
    }

    /// A file as CS188 ships them: comments, a diagram, actions by name,
    /// floats, and the values of inner states ignored.
    #[test]
    fn a_cs188_file_reads_as_its_tree() {
        let text = "class: \"GraphGameTreeTest\"\nalg: \"MinimaxAgent\"\ndepth: \"1\"\n\n# Tree from the lecture\ndiagram: \"\"\"\n    max\n   /   \\\\\n min   min\n\"\"\"\nnum_agents: \"2\"\n\nstart_state: \"a\"\nwin_states: \"\"\nlose_states: \"\"\n\nsuccessors: \"\"\"\na Left b\na Right c\nb Left d   # the first leaf\nb Right e\nc Left f\nc Right g\n\"\"\"\n\nevaluation: \"\"\"\nd 3.0\ne 9.0\nf 0.0\ng -5.0\n\"\"\"\n";
        let t = read(&src(text)).unwrap();
        let toml = crate::gametree::Tree::from_shape(
            &Shape::Inner(vec![
                Shape::Inner(vec![
                    Shape::Leaf(Value::Finite(3)),
                    Shape::Leaf(Value::Finite(9)),
                ]),
                Shape::Inner(vec![
                    Shape::Leaf(Value::Finite(0)),
                    Shape::Leaf(Value::Finite(-5)),
                ]),
            ]),
            Player::Max,
            Some(
                ["a", "b", "c", "d", "e", "f", "g"]
                    .map(String::from)
                    .to_vec(),
            ),
        )
        .unwrap();
        assert_eq!(values(&t), values(&toml));
        // Values as large as an i64 holds, exactly.
        let big = text.replace("g -5.0", "g -9223372036854775807.0");
        let t = read(&src(&big)).unwrap();
        assert_eq!(
            t.leaf(crate::gametree::NodeId(6)),
            Some(Value::Finite(-i64::MAX))
        );
        // depth "1" stops at d..g even if they had successors.
        let deeper = text.replace("c Right g\n", "c Right g\nd Left h\n");
        assert_eq!(values(&read(&src(&deeper)).unwrap()), values(&toml));
    }

    #[test]
    fn errors_say_where_and_how() {
        let base = "num_agents: \"2\"\nstart_state: \"a\"\nsuccessors: \"\"\"\na L b\na R c\n\"\"\"\nevaluation: \"\"\"\nb 1\nc 2\n\"\"\"\n";
        assert!(read(&src(base)).is_ok());
        for (text, line, words) in [
            (base.replace("\"2\"", "\"3\""), 1, "two players"),
            (base.replace("a R c", "a R"), 5, "three words"),
            (base.replace("c 2", "c 2,5"), 9, "`2,5` is not a number"),
            (base.replace("c 2", "c nan"), 9, "`nan` is not a number"),
            (
                base.replace("c 2", "c -4.0000000001"),
                9,
                "`-4.0000000001` has more than 9 decimal places",
            ),
            (
                base.replace("c 2", "c 92233720368547758.08"),
                9,
                "`92233720368547758.08` is too large",
            ),
            (base.replace("c 2\n", ""), 7, "`c` has no value"),
            // A successor back to the start: two nodes named `a`, the second marked.
            (
                format!("depth: \"1\"\n{}", base.replace("a R c", "a R c\nc L a")),
                7,
                "`a` is used twice",
            ),
            (
                base.replace("a R c", "a R b"),
                5,
                "a successor of `a` twice",
            ),
            (base.replace("start_state", "start_sate"), 2, "unknown key"),
            (format!("{base}start_state: \"b\"\n"), 2, "given twice"),
            (base.replace("\"a\"", "a"), 2, "not in double quotes"),
        ] {
            let e = read(&src(&text)).unwrap_err();
            assert!(e.message.contains(words), "{text}: {}", e.message);
            assert_eq!(
                e.line_column().map(|l| l.0),
                Some(line),
                "{text}: {}",
                e.message
            );
            // A bad value is marked itself, after its state.
            if line == 9 {
                assert_eq!(e.line_column(), Some((9, 3)), "{}", e.message);
            }
        }
    }

    /// CS188's own 1-5-minmax, cut down: states `a` and `A` (two nodes, so
    /// the tree's labels are case-sensitive) and the value 3.01, read exactly:
    /// MAX prefers 3.01 to 3. Written back, and through TOML and JSON, the
    /// tree reads the same.
    #[test]
    fn decimals_and_states_differing_in_case_read_as_cs188_reads_them() {
        let text = "num_agents: \"2\"\nstart_state: \"a\"\nwin_states: \"A Z\"\nlose_states: \"\"\nsuccessors: \"\"\"\na Left b1\na Right b2\nb1 Down A\nb2 Down Z\n\"\"\"\nevaluation: \"\"\"\nA 3.0\nZ 3.01\n\"\"\"\n";
        let t = read(&src(text)).unwrap();
        assert!(t.case_sensitive());
        let (a, big_a) = (t.find("a").unwrap(), t.find("A").unwrap());
        assert_ne!(a, big_a);
        assert_eq!(t.leaf(big_a), Some(Value::Finite(3)));
        let z = t.leaf(t.find("Z").unwrap()).unwrap();
        assert_eq!(z.to_string(), "3.01");
        assert_eq!(crate::gametree::minimax(&t).value, z);
        assert_eq!(
            crate::gametree::minimax(&t).best_moves,
            [t.find("b2").unwrap()]
        );
        let back = read(&src(&write(&t, "MinimaxAgent").unwrap())).unwrap();
        assert_eq!(values(&back), values(&t));
        assert!(back.case_sensitive());
        for path in ["t.toml", "t.json"] {
            let written = write_file(path, &t);
            assert!(written.contains("case_sensitive_labels"), "{written}");
            let again = read_file(path, &written).unwrap_or_else(|e| panic!("{written}\n{e}"));
            assert_eq!(values(&again), values(&t), "{written}");
            assert!(again.case_sensitive());
        }
        // Without both, a file's states are compared without case, as before.
        let plain = read(&src(&text.replace("A", "X"))).unwrap();
        assert!(!plain.case_sensitive());
        assert_eq!(plain.find("x"), plain.find("X"));
    }

    /// Written and read back: the same tree, over 1,000 random shapes with
    /// leaves at several depths.
    #[test]
    fn random_trees_round_trip() {
        assert_round_trips(11, "t.test", |t| write(t, "MinimaxAgent").unwrap(), read);
    }
}
