//! Scale benchmark: prints figures, asserts nothing about time.
//!
//! `cargo bench --bench scale` runs every size at N, 2N and 4N so that growth is
//! visible: doubling the size should roughly double the time. Sections by
//! name (`-- trees andor braids solve games generation`) run alone.

use std::hint::black_box;
use std::time::Instant;

use treequiz::andor::{self, Connector, CostModel, Graph, Node, NodeId};
use treequiz::gametree::{self, Grow, Player, Tree};
use treequiz::rng::Rng;
use treequiz::value::Value;

fn time<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed().as_secs_f64())
}

/// An AND/OR braid `levels` deep under the max model: two nodes a level,
/// each with an AND group and OR branches to the next level's two, h = 0.
/// AO* revises every marked ancestor at each expansion: about levels² revisions.
fn braid(levels: usize) -> String {
    let mut text = format!(
        "kind = \"and-or-graph\"\nstart = \"a0\"\ncost = \"max\"\nterminal = [\"a{levels}\", \"b{levels}\"]\nconnectors = [\n"
    );
    for i in 0..levels {
        let j = i + 1;
        text += &format!(
            "  {{ from = \"a{i}\", to = [\"a{j}\", \"b{j}\"], costs = [1, 1] }}, {{ from = \"a{i}\", to = [\"b{j}\"], costs = [3] }},\n  {{ from = \"b{i}\", to = [\"a{j}\"], costs = [1] }}, {{ from = \"b{i}\", to = [\"b{j}\"], costs = [2] }},\n"
        );
    }
    text += "]\n[nodes]\n";
    for i in 0..=levels {
        text += &format!("a{i} = 0\nb{i} = 0\n");
    }
    text
}

/// `treequiz solve` on braids 500 to 4,000 levels deep (the shape of issue
/// 25's 8,000-node graph): its time, peak memory (from `/usr/bin/time -v`
/// where it exists) and output, which must stay linear in the file: the AO*
/// table is cut, and a run past its step budget refused.
/// `TREEQUIZ_BENCH_BASELINE=path/to/treequiz` runs another build beside it.
fn solve_on_deep_braids() {
    println!(
        "\n`treequiz solve` on deep AND/OR braids, max cost (AO* revises about levels² times)"
    );
    println!(
        "{:>8} {:>8} {:>10} {:>6} {:>8} {:>10} {:>12}  build",
        "levels", "nodes", "file B", "exit", "wall s", "peak MiB", "stdout B"
    );
    let dir = std::env::temp_dir().join(format!("treequiz-bench-braid-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut builds = vec![("this", env!("CARGO_BIN_EXE_treequiz").to_string())];
    if let Ok(old) = std::env::var("TREEQUIZ_BENCH_BASELINE") {
        builds.push(("baseline", old));
    }
    let timed = std::path::Path::new("/usr/bin/time").exists();
    for levels in [500usize, 1_000, 2_000, 4_000] {
        let file = dir.join(format!("braid-{levels}.toml"));
        let text = braid(levels);
        std::fs::write(&file, &text).unwrap();
        for (name, bin) in &builds {
            let mut command = if timed {
                let mut c = std::process::Command::new("/usr/bin/time");
                c.args(["-v", bin]);
                c
            } else {
                std::process::Command::new(bin)
            };
            let (out, wall) = time(|| command.arg("solve").arg(&file).output().unwrap());
            let err = String::from_utf8_lossy(&out.stderr);
            let peak = err
                .lines()
                .find_map(|l| l.trim().strip_prefix("Maximum resident set size (kbytes):"))
                .and_then(|v| v.trim().parse::<f64>().ok())
                .map_or("-".to_string(), |k| format!("{:.0}", k / 1024.0));
            println!(
                "{levels:>8} {:>8} {:>10} {:>6} {wall:>8.2} {peak:>10} {:>12}  {name}",
                2 * levels + 2,
                text.len(),
                out.status.code().unwrap_or(-1),
                out.stdout.len()
            );
            if *name == "this" {
                assert!(
                    out.stdout.len() <= (2 << 20) + 16 * text.len(),
                    "solve printed {} bytes for a {}-byte file",
                    out.stdout.len(),
                    text.len()
                );
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A game tree file `branching` wide and `depth` deep, SplitMix-style
/// pseudo-random leaves in -50..=50 (no `rand` in the file's making).
fn tree_file(branching: u32, depth: u32) -> String {
    fn grow(out: &mut String, b: u32, d: u32, state: &mut u64) {
        if d == 0 {
            *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let z = (*state ^ (*state >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            out.push_str(&((z >> 33) as i64 % 101 - 50).to_string());
            return;
        }
        out.push('[');
        for i in 0..b {
            if i > 0 {
                out.push_str(", ");
            }
            grow(out, b, d - 1, state);
        }
        out.push(']');
    }
    let mut text = String::from("kind = \"game-tree\"\ntree = ");
    grow(&mut text, branching, depth, &mut 1);
    text.push('\n');
    text
}

/// `treequiz solve` on game trees of 88,573, 265,720 and 797,161 nodes (one
/// shape, three times as large each time) and of 960,800: its wall time and peak memory (`/usr/bin/time -v`), beside its
/// anchor, reading the file and searching it in this process (instance
/// parse, minimax, traced alpha-beta). Targets: linear in the tree, within
/// 3× of the anchor, and 1,000,000 nodes in < 2 s and < 300 MiB.
fn solve_on_large_trees() {
    println!(
        "\n`treequiz solve` on large game trees (targets: within 3x of reading + searching; ~1M nodes < 2 s and < 300 MiB)"
    );
    println!(
        "{:>8} {:>10} {:>9} {:>10} {:>9} {:>8} {:>11}",
        "nodes", "file MB", "solve s", "anchor s", "ratio", "peak MiB", "us/node"
    );
    let dir = std::env::temp_dir().join(format!("treequiz-bench-solve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let timed = std::path::Path::new("/usr/bin/time").exists();
    let mut per_node = Vec::new();
    // One shape three times the size each time (the growth), then the target's size.
    for (b, d) in [(3u32, 10u32), (3, 11), (3, 12), (7, 7)] {
        let nodes: u64 = (0..=d).map(|k| u64::from(b).pow(k)).sum();
        let file = dir.join(format!("tree-{b}-{d}.toml"));
        let text = tree_file(b, d);
        std::fs::write(&file, &text).unwrap();
        let mut best = (f64::INFINITY, None::<f64>);
        for _ in 0..3 {
            let mut command = if timed {
                let mut c = std::process::Command::new("/usr/bin/time");
                c.args(["-v", env!("CARGO_BIN_EXE_treequiz")]);
                c
            } else {
                std::process::Command::new(env!("CARGO_BIN_EXE_treequiz"))
            };
            let (out, wall) = time(|| command.arg("solve").arg(&file).output().unwrap());
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let peak = String::from_utf8_lossy(&out.stderr)
                .lines()
                .find_map(|l| l.trim().strip_prefix("Maximum resident set size (kbytes):"))
                .and_then(|v| v.trim().parse::<f64>().ok())
                .map(|k| k / 1024.0);
            if wall < best.0 {
                best = (wall, peak);
            }
        }
        let mut anchor = f64::INFINITY;
        for _ in 0..3 {
            let (_, t) = time(|| {
                let source = treequiz::input::Source {
                    path: file.display().to_string(),
                    text: std::fs::read_to_string(&file).unwrap(),
                };
                let treequiz::instance::Instance::GameTree(tree) =
                    treequiz::instance::parse(&source).unwrap()
                else {
                    unreachable!("a game tree file")
                };
                let mm = gametree::minimax(black_box(&tree));
                let ab = gametree::alpha_beta(black_box(&tree), gametree::Options::default());
                black_box((mm.value, ab.value))
            });
            anchor = anchor.min(t);
        }
        let us = best.0 * 1e6 / nodes as f64;
        per_node.push(us);
        println!(
            "{nodes:>8} {:>10.1} {:>9.2} {anchor:>10.2} {:>8.2}x {:>8} {us:>11.2}",
            text.len() as f64 / 1e6,
            best.0,
            best.0 / anchor,
            best.1.map_or("-".into(), |p| format!("{p:.0}")),
        );
    }
    let growth = per_node[2] / per_node[0];
    println!(
        "{:>8} branching 3, depth 12 vs 10 (9x the nodes): time per node {growth:.2}x{}",
        "",
        if growth > 1.25 {
            "  (worse than linear)"
        } else {
            "  (linear)"
        }
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A tree of depth 7 whose levels have the given branching; random leaves 0..=99.
fn game_tree(branching: &[u32], seed: u64) -> Tree {
    let mut rng = Rng::from_seed(seed);
    Tree::build_levels(Player::Max, |depth| match branching.get(depth) {
        Some(&b) => Grow::Children(b),
        None => Grow::Leaf(Value::Finite(rng.between(0, 99))),
    })
    .expect("every level has at least one child")
}

/// A layered random DAG: `levels` levels of `width` nodes; each node has an OR
/// branch to one node and an AND group of two nodes on the next level; the last
/// level is goals. Consistent random h on top.
fn and_or_dag(levels: usize, width: usize, seed: u64) -> Graph {
    let mut rng = Rng::from_seed(seed);
    let n = levels * width + 1;
    let mut nodes: Vec<Node> = (0..n)
        .map(|i| Node {
            label: format!("n{i}"),
            h: 0,
            terminal: i > (levels - 1) * width,
        })
        .collect();
    nodes[0].terminal = false;
    let mut connectors = Vec::with_capacity(2 * n);
    let pick = |rng: &mut Rng, level: usize| {
        NodeId((1 + level * width + rng.below(width as u64) as usize) as u32)
    };
    connectors.push(Connector {
        from: NodeId(0),
        to: vec![pick(&mut rng, 0)],
        cost: 1,
        arcs: Some(vec![1]),
    });
    connectors.push(Connector {
        from: NodeId(0),
        to: vec![pick(&mut rng, 0), NodeId(1 + (width / 2) as u32)],
        cost: 2,
        arcs: Some(vec![1, 1]),
    });
    for level in 0..levels - 1 {
        for i in 0..width {
            let from = NodeId((1 + level * width + i) as u32);
            let a = pick(&mut rng, level + 1);
            let (b, c) = (pick(&mut rng, level + 1), pick(&mut rng, level + 1));
            connectors.push(Connector {
                from,
                to: vec![a],
                cost: 1,
                arcs: Some(vec![1]),
            });
            if b != c {
                connectors.push(Connector {
                    from,
                    to: vec![b, c],
                    cost: 2,
                    arcs: Some(vec![1, 1]),
                });
            }
        }
    }
    let graph =
        Graph::new(nodes, connectors, NodeId(0), CostModel::Sum).expect("layers make a DAG");
    andor::generate::with_heuristic(graph, true, &mut rng)
}

/// The bytes a graph's nodes and connectors take (labels, child lists and
/// arc costs included; the allocator's own words left out).
fn footprint(graph: &Graph) -> usize {
    use std::mem::size_of;
    let nodes: usize = graph
        .nodes()
        .iter()
        .map(|n| size_of::<Node>() + n.label.len())
        .sum();
    let connectors: usize = graph
        .connectors()
        .iter()
        .map(|c| size_of::<Connector>() + c.to.len() * (4 + 8) + 8)
        .sum();
    nodes + connectors
}

/// This process's minor page faults and system seconds so far, from
/// `/proc/self/stat` (Linux; `None` elsewhere): what first touching fresh
/// memory costs, which a large trace pays.
fn faults_and_sys() -> Option<(u64, f64)> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command's closing parenthesis: minflt is the 10th
    // field of the line, stime the 15th (in clock ticks, 100 a second here).
    let after = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    let minflt = fields.get(7)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((minflt, stime / 100.0))
}

/// Nanoseconds a dependent read at a random place in an array of `bytes`.
fn chase_ns(bytes: usize) -> f64 {
    let len = (bytes / 8).max(1);
    let array: Vec<u64> = (0..len as u64)
        .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .collect();
    let reads = 5_000_000;
    let (mut at, mut x) = (0usize, 0x2545_F491_4F6C_DD1Du64);
    let (_, t) = time(|| {
        for _ in 0..reads {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            at = ((array[at] ^ x) % len as u64) as usize;
        }
        black_box(at)
    });
    t * 1e9 / reads as f64
}

fn main() {
    // `cargo bench --bench scale -- solve andor`: only the sections named.
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wanted = |name: &str| only.is_empty() || only.iter().any(|o| name.contains(o.as_str()));
    println!(
        "treequiz scale benchmark ({} build)\n",
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        }
    );

    if wanted("trees") {
        println!(
            "Game trees, depth 7, random leaves 0..99 (alpha-beta: left to right, prune on equality, full trace)"
        );
        println!(
            "{:>12} {:>12} {:>12} {:>14} {:>12}",
            "leaves", "build s", "minimax s", "alpha-beta s", "evaluated"
        );
        for branching in [
            [10, 10, 10, 10, 10, 5, 5],
            [10, 10, 10, 10, 10, 10, 5],
            [10; 7],
        ] {
            let (tree, build) = time(|| game_tree(&branching, 1));
            let leaves: u64 = branching.iter().map(|&b| u64::from(b)).product();
            let (mm, t_mm) = time(|| gametree::minimax(black_box(&tree)));
            let (ab, t_ab) =
                time(|| gametree::alpha_beta(black_box(&tree), gametree::Options::default()));
            assert_eq!(mm.value, ab.value);
            println!(
                "{leaves:>12} {build:>12.3} {t_mm:>12.3} {t_ab:>14.3} {:>12}",
                ab.evaluated.len()
            );
        }
    }

    if wanted("andor") {
        println!(
            "\nAND/OR DAGs, 100 levels, sum cost, consistent h (optimal = one pass over every node; AO* = Nilsson with trace)"
        );
        println!(
            "{:>12} {:>12} {:>12} {:>10} {:>10} {:>10} {:>12} {:>6} {:>8} {:>9} {:>9} {:>8} {:>9} {:>9}",
            "nodes",
            "connectors",
            "build s",
            "optimal s",
            "AO* s",
            "expanded",
            "revisions",
            "cost",
            "graph MB",
            "us/rev",
            "chase ns",
            "faults",
            "sys s",
            "us/fault"
        );
        for width in [2_500usize, 5_000, 10_000] {
            let (graph, build) = time(|| and_or_dag(100, width, 2));
            let graph_bytes = footprint(&graph);
            let (opt, t_opt) = time(|| andor::optimal(black_box(&graph), CostModel::Sum));
            let before = faults_and_sys();
            let (run, t_ao) =
                time(|| andor::ao_star(black_box(&graph), andor::ao_star::Options::default()));
            let paid = before
                .zip(faults_and_sys())
                .map(|((f0, s0), (f1, s1))| (f1 - f0, s1 - s0));
            assert_eq!(
                opt.cost, run.cost,
                "AO* with admissible h finds the optimum"
            );
            let revisions: usize = run.cycles.iter().map(|c| c.revised.len()).sum();
            let (faults, sys, per_fault) = match paid {
                Some((f, s)) => (
                    f.to_string(),
                    format!("{s:.2}"),
                    format!("{:.1}", s * 1e6 / f.max(1) as f64),
                ),
                None => ("-".into(), "-".into(), "-".into()),
            };
            println!(
                "{:>12} {:>12} {build:>12.3} {t_opt:>10.3} {t_ao:>10.3} {:>10} {revisions:>12} {:>6} {:>8.0} {:>9.3} {:>9.1} {faults:>8} {sys:>9} {per_fault:>9}",
                graph.len(),
                graph.connectors().len(),
                run.expanded.len(),
                run.cost,
                graph_bytes as f64 / 1e6,
                t_ao * 1e6 / revisions as f64,
                chase_ns(graph_bytes)
            );
        }
        println!(
            "(graph MB: its nodes and connectors, with their lists; chase ns: one read at a random place in an array that large, each read's place depending on the last, as a revision's reads of parents and children do: the anchor for how a step's cost grows once the graph outgrows the processor's caches; faults, sys s: the minor page faults and system time of the AO* run, most of them its trace's first touch of fresh memory, and what each cost)"
        );
    }

    if wanted("braids") {
        solve_on_deep_braids();
    }
    if wanted("solve") {
        solve_on_large_trees();
    }

    if wanted("games") {
        println!("\nGames: lookahead trees built from positions, then minimax and alpha-beta");
        println!(
            "{:>34} {:>10} {:>10} {:>10} {:>12}",
            "search", "nodes", "build s", "minimax s", "alpha-beta s"
        );
        for symmetry in [false, true] {
            let game = treequiz::games::tictactoe::TicTacToe {
                board: treequiz::games::tictactoe::Board::empty(),
                max: treequiz::games::tictactoe::Mark::X,
                first: treequiz::games::tictactoe::Mark::X,
                depth: 9,
                symmetry,
            };
            let (look, build) = time(|| game.lookahead());
            let (mm, t_mm) = time(|| gametree::minimax(black_box(&look.tree)));
            let (ab, t_ab) =
                time(|| gametree::alpha_beta(black_box(&look.tree), gametree::Options::default()));
            assert_eq!((mm.value, ab.value), (Value::Finite(0), Value::Finite(0)));
            let what = if symmetry {
                "tic-tac-toe, whole game, merged"
            } else {
                "tic-tac-toe, whole game"
            };
            println!(
                "{what:>34} {:>10} {build:>10.3} {t_mm:>10.3} {t_ab:>12.3}",
                look.tree.len()
            );
        }
        for count in [250u64, 500, 1_000] {
            // 3-ply searches from random mid-game positions (20..40 plies in).
            let games: Vec<treequiz::games::othello::Othello> = (0..count)
                .map(|seed| {
                    let mut rng = Rng::from_seed(seed);
                    let plies = 20 + rng.below(20) as u32;
                    let (board, to_move) =
                        treequiz::games::othello::board::random_position(plies, &mut |n| {
                            rng.below(n as u64) as usize
                        });
                    treequiz::games::othello::Othello {
                        board,
                        to_move,
                        horizon: treequiz::games::lookahead::Horizon::Depth(3),
                        weights: Default::default(),
                        regions: treequiz::games::othello::REGIONS,
                    }
                })
                .collect();
            let (trees, build) =
                time(|| games.iter().map(|g| g.lookahead().tree).collect::<Vec<_>>());
            let nodes: usize = trees.iter().map(Tree::len).sum();
            let (_, t_mm) = time(|| {
                trees
                    .iter()
                    .map(|t| gametree::minimax(black_box(t)).value)
                    .collect::<Vec<_>>()
            });
            let (_, t_ab) = time(|| {
                trees
                    .iter()
                    .map(|t| gametree::alpha_beta(black_box(t), gametree::Options::default()).value)
                    .collect::<Vec<_>>()
            });
            println!(
                "{:>34} {nodes:>10} {build:>10.3} {t_mm:>10.3} {t_ab:>12.3}",
                format!("{count} Othello positions, 3 plies")
            );
        }
        for count in [1_000u64, 2_000, 4_000] {
            let ttt = treequiz::games::tictactoe::Params {
                search: treequiz::games::lookahead::Search {
                    min_cuts: Some(1),
                    ..treequiz::games::lookahead::Search::plies(2)
                },
                ..Default::default()
            };
            let oth = treequiz::games::othello::Params {
                search: treequiz::games::lookahead::Search {
                    min_cuts: Some(1),
                    ..treequiz::games::lookahead::Search::plies(2)
                },
                ..Default::default()
            };
            let (made, t) = time(|| {
                (0..count)
                    .filter(|&seed| {
                        treequiz::games::tictactoe::generate(&ttt, seed).is_ok()
                            && treequiz::games::othello::generate(&oth, seed).is_ok()
                    })
                    .count()
            });
            println!(
                "{count:>6} tic-tac-toe + Othello exercises (min_cuts 1): {t:.3} s, {:.0} pairs/s ({made} made)",
                count as f64 / t
            );
        }
    }

    if wanted("generation") {
        println!(
            "\nConstrained generation: depth 4, branching 2..3, values 0..20, at least 3 cuts, unique best move"
        );
        let params = gametree::generate::Params {
            depth: 4,
            branching: (2, 3),
            values: (0, 20),
            min_cuts: Some(3),
            unique_best: true,
            ..Default::default()
        };
        for count in [1_000u64, 2_000, 4_000] {
            let (made, t) = time(|| {
                (0..count)
                    .filter(|&seed| gametree::generate::generate(&params, seed).is_ok())
                    .count()
            });
            println!(
                "{count:>6} trees: {t:.3} s, {:.0} trees/s ({made} made)",
                count as f64 / t
            );
        }
    }
}
