//! EXPECTIMINIMAX against an obviously correct recursive reference, over
//! thousands of seeded random trees, and against CS188's own expectimax
//! tests (question 4: the action its reference agent takes and the states it
//! generates).

use std::cmp::Ordering;
use std::collections::{BTreeSet, HashMap};

use treequiz::chance::{ChanceTree, NodeKind, expectiminimax, file, generate, worst_case};
use treequiz::gametree::{NodeId, Player, Shape, Tree, minimax};
use treequiz::input::{Reader, Source};
use treequiz::rng::Rng;
use treequiz::value::{Ratio, Value};

use crate::common::root;
use crate::cs188_suite::{Problem, V, fields, problem};

/// A fraction kept by this test alone: numerator and positive denominator
/// in lowest terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Frac(i128, i128);

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

impl Frac {
    fn new(n: i128, d: i128) -> Frac {
        let g = gcd(n, d).max(1) * d.signum();
        Frac(n / g, d / g)
    }
    fn add(self, o: Frac) -> Frac {
        Frac::new(self.0 * o.1 + o.0 * self.1, self.1 * o.1)
    }
    fn mul(self, o: Frac) -> Frac {
        Frac::new(self.0 * o.0, self.1 * o.1)
    }
    fn cmp(self, o: Frac) -> Ordering {
        (self.0 * o.1).cmp(&(o.0 * self.1))
    }
    fn of(r: Ratio) -> Frac {
        Frac(r.numer(), r.denom())
    }
}

/// A node of the reference's own tree: kind, probabilities, children.
enum Node {
    Leaf(i64),
    Inner(NodeKind, Vec<(Frac, Node)>),
}

/// Naive recursive EXPECTIMINIMAX, as AIMA writes it; every node's value
/// pushed in preorder.
fn naive(node: &Node, out: &mut Vec<Frac>) -> Frac {
    let at = out.len();
    out.push(Frac(0, 1));
    let v = match node {
        Node::Leaf(v) => Frac(i128::from(*v), 1),
        Node::Inner(kind, children) => {
            let vs: Vec<(Frac, Frac)> = children.iter().map(|(p, c)| (*p, naive(c, out))).collect();
            match kind {
                NodeKind::Max => vs.iter().map(|x| x.1).max_by(|a, b| a.cmp(*b)).unwrap(),
                NodeKind::Min => vs.iter().map(|x| x.1).min_by(|a, b| a.cmp(*b)).unwrap(),
                NodeKind::Chance => vs.iter().fold(Frac(0, 1), |s, (p, v)| s.add(p.mul(*v))),
            }
        }
    };
    out[at] = v;
    v
}

/// An irregular random tree, its levels and weighted probabilities: leaves
/// at several depths, values in a small range so that ties happen.
fn random(rng: &mut Rng) -> (ChanceTree, Node) {
    let kinds = [NodeKind::Max, NodeKind::Min, NodeKind::Chance];
    let levels: Vec<NodeKind> = (0..rng.between(1, 4))
        .map(|_| *rng.choose(&kinds).unwrap())
        .collect();
    fn shape(rng: &mut Rng, depth: u32) -> Shape {
        if depth == 0 || (depth < 4 && rng.percent(20)) {
            return Shape::Leaf(Value::Finite(rng.between(-3, 5)));
        }
        Shape::Inner(
            (0..rng.between(1, 4))
                .map(|_| shape(rng, depth - 1))
                .collect(),
        )
    }
    let s = match shape(rng, 5) {
        leaf @ Shape::Leaf(_) => Shape::Inner(vec![leaf]),
        inner => inner,
    };
    let tree = Tree::from_shape(&s, Player::Max, None).unwrap();
    let mut given = Vec::new();
    for id in tree.ids() {
        let chance =
            tree.leaf(id).is_none() && levels[tree.depth_of(id) % levels.len()] == NodeKind::Chance;
        // Now and then uniform, by leaving it out.
        if chance && rng.percent(70) {
            let w: Vec<i128> = tree
                .children(id)
                .map(|_| rng.between(1, 4) as i128)
                .collect();
            let total: i128 = w.iter().sum();
            given.push((
                id,
                w.iter().map(|&x| Ratio::new(x, total).unwrap()).collect(),
            ));
        }
    }
    let ct = ChanceTree::new(tree, levels, given).unwrap();
    fn build(ct: &ChanceTree, id: NodeId) -> Node {
        let t = ct.tree();
        match ct.kind(id) {
            None => match t.leaf(id) {
                Some(Value::Finite(v)) => Node::Leaf(v),
                other => panic!("{other:?}"),
            },
            Some(kind) => {
                let k = t.children(id).len() as i128;
                let ps: Vec<Frac> = if kind == NodeKind::Chance {
                    ct.probabilities(id).iter().map(|&p| Frac::of(p)).collect()
                } else {
                    vec![Frac::new(1, k); k as usize]
                };
                Node::Inner(
                    kind,
                    t.children(id)
                        .zip(ps)
                        .map(|(c, p)| (p, build(ct, c)))
                        .collect(),
                )
            }
        }
    }
    let node = build(&ct, ct.tree().root());
    (ct, node)
}

fn preorder(t: &Tree, id: NodeId, out: &mut Vec<NodeId>) {
    out.push(id);
    for c in t.children(id) {
        preorder(t, c, out);
    }
}

fn read_toml(path: &str, text: &str) -> ChanceTree {
    let source = Source {
        path: path.into(),
        text: text.into(),
    };
    let doc = source.parse().unwrap();
    let reader = Reader { source: &source };
    file::read(&reader, &reader.table(&doc, file::KEYS, "").unwrap())
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Every value, the best moves and the trace agree with the reference, and
/// the tree reads back from TOML and JSON as it was, over 4,000 trees.
#[test]
fn expectiminimax_agrees_with_the_naive_reference() {
    let (mut chance_roots, mut fractions) = (0, 0);
    for seed in 0..4_000u64 {
        let mut rng = Rng::from_seed(seed);
        let (ct, node) = random(&mut rng);
        let t = ct.tree();
        let e = expectiminimax(&ct);
        let mut want = Vec::new();
        naive(&node, &mut want);
        let mut order = Vec::new();
        preorder(t, t.root(), &mut order);
        for (id, w) in order.iter().zip(&want) {
            assert_eq!(
                Frac::of(e.values[id.index()]),
                *w,
                "seed {seed}: {}",
                t.label(*id)
            );
        }
        fractions += usize::from(!e.value.is_integer());
        // The best moves: the root's children of its value, if it chooses.
        let root_value = e.values[0];
        let of_value: Vec<NodeId> = t
            .children(t.root())
            .filter(|c| e.values[c.index()] == root_value)
            .collect();
        match ct.kind(t.root()) {
            Some(NodeKind::Chance) => {
                chance_roots += 1;
                assert!(e.best_moves.is_empty(), "seed {seed}");
            }
            _ => assert_eq!(e.best_moves, of_value, "seed {seed}"),
        }
        // Each inner node is one step, children first, and a chance step
        // is the weighted sum of its terms, whose probabilities sum to 1.
        let mut done = vec![false; t.len()];
        for s in &e.steps {
            assert!(
                s.terms
                    .iter()
                    .all(|x| done[x.child.index()] || t.leaf(x.child).is_some())
            );
            done[s.node.index()] = true;
            if s.kind == NodeKind::Chance {
                let sum = s
                    .terms
                    .iter()
                    .fold(Frac(0, 1), |a, x| a.add(Frac::of(x.probability.unwrap())));
                assert_eq!(sum, Frac(1, 1), "seed {seed}");
                let mean = s.terms.iter().fold(Frac(0, 1), |a, x| {
                    a.add(Frac::of(x.probability.unwrap()).mul(Frac::of(x.value)))
                });
                assert_eq!(mean, Frac::of(s.value), "seed {seed}");
            }
        }
        assert_eq!(e.steps.len(), t.len() - t.leaves().count(), "seed {seed}");
        // Written and read back, the same tree and the same answers.
        for path in ["t.toml", "t.json"] {
            let doc = file::document(&ct);
            let text = if path.ends_with(".json") {
                treequiz::document::to_json(&doc)
            } else {
                treequiz::document::to_toml(&doc)
            };
            let back = read_toml(path, &text);
            assert_eq!(back.levels(), ct.levels(), "seed {seed}");
            for id in t.ids() {
                assert_eq!(back.probabilities(id), ct.probabilities(id), "seed {seed}");
            }
            assert_eq!(expectiminimax(&back), e, "seed {seed}\n{text}");
        }
    }
    // The trees exercised what they should.
    assert!(
        chance_roots > 500 && fractions > 1_000,
        "{chance_roots} {fractions}"
    );
}

/// Without chance levels, EXPECTIMINIMAX is minimax: the game-tree solver's
/// values, on the same trees.
#[test]
fn without_chance_nodes_it_is_minimax() {
    for seed in 0..1_000u64 {
        let mut rng = Rng::from_seed(seed);
        let (ct, _) = random(&mut rng);
        let t = ct.tree();
        for (levels, player) in [
            (vec![NodeKind::Max, NodeKind::Min], Player::Max),
            (vec![NodeKind::Min, NodeKind::Max], Player::Min),
        ] {
            let shape = t.to_shape();
            let plain = Tree::from_shape(&shape, player, None).unwrap();
            let mm = minimax(&plain);
            let e = expectiminimax(&ChanceTree::uniform(plain.clone(), levels).unwrap());
            for id in plain.ids() {
                assert_eq!(e.values[id.index()].to_value(), Some(mm.of(&plain, id)));
            }
            assert_eq!(e.best_moves, mm.best_moves, "seed {seed}");
        }
    }
}

/// The generator's trees meet what they were asked: on request, the best
/// move is not minimax's (the worst case's), over 500 seeds.
#[test]
fn generated_trees_choose_another_move_than_minimax_on_request() {
    let p = generate::Params {
        depth: 2,
        branching: (2, 3),
        weighted: true,
        unique_best: true,
        differs_from_minimax: true,
        ..generate::Params::default()
    };
    for seed in 0..500 {
        let t = generate::generate(&p, seed).unwrap();
        let best = expectiminimax(&t).best_moves;
        assert_eq!(best.len(), 1, "seed {seed}");
        assert!(!worst_case(&t).contains(&best[0]), "seed {seed}");
    }
}

/// An expected value of the CS188 file, in units of 10⁻⁹ over a denominator.
fn frac_of(v: V) -> Frac {
    match v {
        V::N(n) => Frac::new(n, 1_000_000_000),
        other => panic!("an infinity in an expectimax test: {other:?}"),
    }
}

impl Problem {
    /// CS188's expectimax: Pacman (ply multiple of the agents) maximises,
    /// each ghost averages its moves uniformly.
    fn expectimax(&self, s: &str, ply: usize, values: &mut HashMap<String, Frac>) -> Frac {
        let next = self.next(s, ply);
        let value = if next.is_empty() {
            frac_of(self.eval[s])
        } else {
            let vs: Vec<Frac> = next
                .iter()
                .map(|c| self.expectimax(c, ply + 1, values))
                .collect();
            if ply.is_multiple_of(self.agents) {
                vs.into_iter().max_by(|a, b| a.cmp(*b)).unwrap()
            } else {
                let p = Frac::new(1, vs.len() as i128);
                vs.into_iter().fold(Frac(0, 1), |a, v| a.add(p.mul(v)))
            }
        };
        values.insert(s.to_string(), value);
        value
    }
}

/// CS188's question 4, all 16 `GraphGameTreeTest`s (11 with one ghost, 5
/// with two): each reads as a chance tree whose nodes are the states
/// CS188's reference agent generates, whose values are the test's own
/// expectimax, and whose best move is the action the reference takes.
#[test]
fn cs188s_expectimax_tests_read_and_solve_as_cs188_does() {
    let dir = root().join("tests/fixtures/cs188/q4");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "test"))
        .collect();
    paths.sort();
    let mut agents = Vec::new();
    for path in &paths {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(path).unwrap();
        let p = problem(&text);
        agents.push(p.agents);
        let source = Source {
            path: name.clone(),
            text: text.clone(),
        };
        let ct = file::read_cs188(&source).unwrap_or_else(|e| panic!("{name}: {e}"));
        let t = ct.tree();
        let solution = fields(&std::fs::read_to_string(path.with_extension("solution")).unwrap());
        let gold: BTreeSet<String> = solution["generated"]
            .split_whitespace()
            .map(String::from)
            .collect();
        let gold_move = &p.moves[&p.start]
            .iter()
            .find(|(action, _)| *action == solution["action"])
            .unwrap()
            .1;

        // The test's own search reproduces CS188's recorded answers.
        let mut values = HashMap::new();
        let root_value = p.expectimax(&p.start, 0, &mut values);
        let first_best = p
            .next(&p.start, 0)
            .into_iter()
            .find(|c| values[*c] == root_value);
        assert_eq!(first_best, Some(gold_move.as_str()), "{name}");
        let all: BTreeSet<String> = values.keys().cloned().collect();
        assert_eq!(all, gold, "{name}: the states generated");

        // treequiz's answers are theirs.
        let e = expectiminimax(&ct);
        let labels: BTreeSet<String> = t.ids().map(|id| t.label(id).into_owned()).collect();
        assert_eq!(labels, gold, "{name}");
        for id in t.ids() {
            let state = t.label(id);
            assert_eq!(
                Frac::of(e.values[id.index()]),
                values[state.as_ref()],
                "{name}: {state}"
            );
        }
        assert_eq!(t.label(e.best_moves[0]), gold_move.as_str(), "{name}");
        // Written back for CS188, the same tree.
        let again = file::read_cs188(&Source {
            path: name.clone(),
            text: file::write_cs188(&ct).unwrap(),
        })
        .unwrap();
        assert_eq!(expectiminimax(&again), e, "{name}");
    }
    agents.sort_unstable();
    assert_eq!(agents, [[2; 11].as_slice(), &[3; 5]].concat());
}

/// The lecture tree of CS188's 0-expectimax1: the left chance node is
/// (3 + 12 + 8) / 3 = 23/3, exactly, not 7.666….
#[test]
fn the_lecture_tree_is_worth_twenty_three_thirds() {
    let path = root().join("tests/fixtures/cs188/q4/0-expectimax1.test");
    let ct = file::read_cs188(&Source {
        path: "0-expectimax1.test".into(),
        text: std::fs::read_to_string(path).unwrap(),
    })
    .unwrap();
    let e = expectiminimax(&ct);
    assert_eq!(e.value.to_string(), "23/3");
    assert_eq!(e.value.rounded(2), "7.67");
}

fn loaded(path: &std::path::Path) -> ChanceTree {
    match treequiz::instance::load(path) {
        Ok(treequiz::instance::Instance::Chance(c)) => *c,
        other => panic!("{}: {:?}", path.display(), other.map(|i| i.family())),
    }
}

/// `convert` writes each of CS188's q4 tests as TOML, JSON, a CS188 test and
/// (with one ghost) a Python nested list, and each reads back as the same
/// chance tree (`.test` files for ExpectimaxAgent and `.py` files marked
/// `# kind: chance-tree` are chance trees); two ghosts have no Python form.
#[test]
fn cs188s_expectimax_tests_convert_to_every_form_and_back() {
    let dir = crate::common::scratch("chance-convert");
    let fixtures = root().join("tests/fixtures/cs188/q4");
    let mut paths: Vec<_> = std::fs::read_dir(&fixtures)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "test"))
        .collect();
    paths.sort();
    let mut python = 0;
    for path in &paths {
        let want = expectiminimax(&loaded(path));
        let stem = path.file_stem().unwrap().to_str().unwrap();
        for (form, ext) in [
            ("toml", "toml"),
            ("json", "json"),
            ("cs188", "test"),
            ("python", "py"),
        ] {
            let (code, written, err) =
                crate::common::run(&["convert", path.to_str().unwrap(), "--to", form]);
            if form == "python" && problem(&std::fs::read_to_string(path).unwrap()).agents > 2 {
                assert_eq!(code, 2, "{stem}");
                assert!(err.contains("MAX and uniform chance levels only"), "{err}");
                continue;
            }
            assert_eq!(code, 0, "{stem} --to {form}: {err}");
            python += usize::from(form == "python");
            let back = dir.join(format!("{stem}.{ext}"));
            std::fs::write(&back, &written).unwrap();
            assert_eq!(
                expectiminimax(&loaded(&back)),
                want,
                "{stem} as {form}:\n{written}"
            );
        }
    }
    assert_eq!(python, 11);
}

/// `sample chance-tree` gives the same file for the same seed, which reads
/// back as the tree its options asked for.
#[test]
fn sampled_chance_trees_are_seeded_and_meet_their_options() {
    let args = [
        "sample",
        "chance-tree",
        "--seed",
        "5",
        "weighted=true",
        "levels=max,chance,min,chance",
        "depth=4",
        "branching=2",
        "--differs-from-minimax",
    ];
    let (code, first, err) = crate::common::run(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(crate::common::run(&args).1, first);
    let dir = crate::common::scratch("chance-sample");
    let file = dir.join("t.toml");
    std::fs::write(&file, &first).unwrap();
    let t = loaded(&file);
    use NodeKind::*;
    assert_eq!(t.levels(), [Max, Chance, Min, Chance]);
    assert!(!t.all_uniform(), "{first}");
    let best = expectiminimax(&t).best_moves;
    assert!(best.iter().all(|m| !worst_case(&t).contains(m)), "{first}");
}
