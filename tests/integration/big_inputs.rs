//! Big inputs of every shape a reader meets, about 5 MB each: each is read
//! (accepted, or refused with a message) within a deadline.
//!
//! This is a hang guard, not a benchmark: the deadline is generous (10 s in
//! a release build; these files read in well under a second there), while a
//! duplicate check that compares every item with every other takes hours on
//! them (40,000 labels took 71 s; 420,000 take about 2 hours). A reader that
//! misses the deadline fails the test without being waited for.

use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use treequiz::input::Source;

/// Far above what a near-linear reader needs, far below a quadratic one.
const DEADLINE: Duration = Duration::from_secs(if cfg!(debug_assertions) { 120 } else { 10 });

/// Runs `read` on another thread and fails if it has not finished by the
/// deadline; returns its outcome (accepted, or the refusal's message).
fn within_deadline(name: &str, read: impl FnOnce() -> Result<String, String> + Send + 'static) {
    let (tx, rx) = mpsc::channel();
    let started = Instant::now();
    std::thread::spawn(move || {
        let _ = tx.send(read());
    });
    match rx.recv_timeout(DEADLINE) {
        Ok(outcome) => {
            let took = started.elapsed();
            eprintln!(
                "{name}: {:.2} s, {}",
                took.as_secs_f64(),
                match &outcome {
                    Ok(what) => format!("read: {what}"),
                    Err(e) => format!("refused: {}", e.lines().next().unwrap_or("")),
                }
            );
            if let Err(e) = &outcome {
                assert!(!e.trim().is_empty(), "{name}: refused without a message");
            }
        }
        Err(_) => panic!(
            "{name}: not read within {} s (a reader is quadratic, or hangs)",
            DEADLINE.as_secs()
        ),
    }
}

fn instance(name: &'static str, text: String) {
    assert!(
        (4_000_000..8 * 1024 * 1024).contains(&text.len()),
        "{name} is {} bytes",
        text.len()
    );
    within_deadline(name, move || {
        let source = Source {
            path: name.into(),
            text,
        };
        treequiz::instance::parse(&source)
            .map(|i| format!("{:?} nodes", i.figure_nodes()))
            .map_err(|e| e.to_string())
    });
}

fn list(n: usize, item: impl Fn(usize) -> String) -> String {
    (0..n).map(item).collect::<Vec<_>>().join(", ")
}

fn node_table(n: usize) -> String {
    format!("{{ {} }}", list(n, |i| format!("n{i} = 0")))
}

#[test]
fn labels() {
    // A root with 420,000 leaves and a label for each node.
    let n = 420_000;
    let text = format!(
        "kind = \"game-tree\"\ntree = [{}]\nlabels = [{}]\n",
        list(n, |_| "0".into()),
        list(n + 1, |i| format!("\"L{i}\"")),
    );
    instance("labels.toml", text);
}

#[test]
fn terminal_list() {
    let n = 230_000;
    let text = format!(
        "kind = \"and-or-graph\"\nstart = \"n0\"\nnodes = {}\nterminal = [{}]\n",
        node_table(n),
        list(n, |i| format!("\"n{i}\"")),
    );
    instance("terminal.toml", text);
}

#[test]
fn terminal_list_in_json() {
    let n = 200_000;
    let text = format!(
        "{{\"kind\": \"and-or-graph\", \"start\": \"n0\", \"nodes\": {{{}}}, \"terminal\": [{}]}}\n",
        list(n, |i| format!("\"n{i}\": 0")),
        list(n, |i| format!("\"n{i}\"")),
    );
    instance("terminal.json", text);
}

#[test]
fn wide_connector() {
    let n = 220_000;
    let text = format!(
        "kind = \"and-or-graph\"\nstart = \"n0\"\nnodes = {}\nconnectors = [{{ from = \"n0\", to = [{}] }}]\n",
        node_table(n),
        list(n - 1, |i| format!("\"n{}\"", i + 1)),
    );
    instance("connector.toml", text);
}

#[test]
fn wide_game_tree_node() {
    let n = 800_000;
    let text = format!(
        "kind = \"game-tree\"\ntree = [{}]\n",
        list(n, |i| (1000 + i % 9000).to_string())
    );
    instance("wide-tree.toml", text);
}

#[test]
fn long_node_table_and_chain() {
    // Node after node, each the only child of the one before it.
    let n = 100_000;
    let connectors: String = (0..n - 1)
        .map(|i| format!("  {{ from = \"n{i}\", to = [\"n{}\"] }},\n", i + 1))
        .collect();
    let text = format!(
        "kind = \"and-or-graph\"\nstart = \"n0\"\nnodes = {}\nconnectors = [\n{connectors}]\n",
        node_table(n)
    );
    instance("chain.toml", text);
}

#[test]
fn long_cycle() {
    // The same chain closed into one cycle: refused, and the cycle named briefly.
    let n = 100_000;
    let connectors: String = (0..n)
        .map(|i| format!("  {{ from = \"n{i}\", to = [\"n{}\"] }},\n", (i + 1) % n))
        .collect();
    let text = format!(
        "kind = \"and-or-graph\"\nstart = \"n0\"\nnodes = {}\nconnectors = [\n{connectors}]\n",
        node_table(n)
    );
    let source = Source {
        path: "cycle.toml".into(),
        text: text.clone(),
    };
    instance("cycle.toml", text);
    let e = treequiz::instance::parse(&source).unwrap_err();
    assert!(
        e.message.contains("(100000 nodes in all)") && e.message.len() < 300,
        "{}",
        e.message
    );
}

#[test]
fn roster_with_many_rows() {
    let n = 250_000;
    let text = format!(
        "id,name\n{}",
        (0..n)
            .map(|i| format!("s{i},Student {i}\n"))
            .collect::<String>()
    );
    within_deadline("roster.csv", move || {
        let source = Source {
            path: "roster.csv".into(),
            text,
        };
        treequiz::roster::parse(&source)
            .map(|s| format!("{} students", s.len()))
            .map_err(|e| e.to_string())
    });
}

#[test]
fn problem_set_with_a_large_fixed_instance() {
    // A fixed instance of 700,000 nodes in a set: refused by the page's limit.
    let n = 700_000;
    let text = format!(
        "title = \"Big\"\n\n[[exercise]]\nkind = \"minimax\"\ninstance = {{ kind = \"game-tree\", tree = [{}] }}\n",
        list(n, |i| (i % 10).to_string())
    );
    within_deadline("big-set.toml", move || {
        let source = Source {
            path: "big-set.toml".into(),
            text,
        };
        match treequiz::problem_set::parse(&source, Path::new(".")) {
            Ok(_) => Ok("accepted".into()),
            Err(e) => {
                assert!(e.message.contains("700001 nodes"), "{e}");
                Err(e.to_string())
            }
        }
    });
}
