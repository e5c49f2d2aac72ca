//! AO* against Nilsson's procedure (Principles of Artificial Intelligence,
//! 1980, §3.2), transcribed literally on the explicit graph G', with the tie
//! rules of docs/conventions.md: the first unsolved tip depth-first, left to
//! right; from S, of the nodes none of whose descendants in G' is in S, the
//! one on the lowest row of the drawing, then the first in file order; the
//! first cheapest connector in file order. Every cycle's revisions, in order,
//! are compared. Then the key's notes on ties and on an inadmissible h.

use std::cmp::Reverse;

use treequiz::andor::generate::generate;
use treequiz::andor::{ConnectorId, Cost, CostModel, Graph, NodeId, Outcome, ao_star};
use treequiz::rng::Rng;

use super::andor_oracle::random_params;

/// (node, old cost, new cost, marked connector, became SOLVED).
type Rev = (NodeId, Cost, Cost, Option<ConnectorId>, bool);

struct Nilsson<'g> {
    g: &'g Graph,
    q: Vec<Option<Cost>>,
    marked: Vec<Option<ConnectorId>>,
    solved: Vec<bool>,
    expanded: Vec<bool>,
}

impl Nilsson<'_> {
    /// The cost of connector `c` from the definitions of the three models.
    fn connector_cost(&self, c: ConnectorId) -> Cost {
        let con = self.g.connector(c);
        let q = |t: &NodeId| self.q[t.index()].unwrap();
        match self.g.model() {
            CostModel::Connector => con.to.iter().fold(Cost::finite(con.cost), |a, t| a + q(t)),
            CostModel::Sum => con
                .to
                .iter()
                .zip(con.arcs.as_ref().unwrap())
                .fold(Cost::ZERO, |a, (t, &c)| a + Cost::finite(c) + q(t)),
            CostModel::Max => con
                .to
                .iter()
                .zip(con.arcs.as_ref().unwrap())
                .map(|(t, &c)| Cost::finite(c) + q(t))
                .max()
                .unwrap(),
        }
    }

    /// Step 4: the first non-terminal, unsolved tip of the partial solution
    /// graph, tracing the marked connectors depth-first, left to right.
    fn tip(&self, n: NodeId) -> Option<NodeId> {
        if self.solved[n.index()] {
            return None;
        }
        if !self.expanded[n.index()] {
            return Some(n);
        }
        let c = self.marked[n.index()]?;
        self.g.connector(c).to.iter().find_map(|&t| self.tip(t))
    }

    /// Whether `to` is a descendant of `from` in G' (through expanded nodes).
    fn descends(&self, from: NodeId, to: NodeId) -> bool {
        let mut stack = vec![from];
        let mut seen = vec![false; self.g.len()];
        while let Some(n) = stack.pop() {
            if !self.expanded[n.index()] {
                continue;
            }
            for &c in self.g.connectors_of(n) {
                for &t in &self.g.connector(c).to {
                    if t == to {
                        return true;
                    }
                    if !seen[t.index()] {
                        seen[t.index()] = true;
                        stack.push(t);
                    }
                }
            }
        }
        false
    }

    fn run(mut self) -> (Outcome, Vec<NodeId>, Vec<Vec<Rev>>) {
        let g = self.g;
        let s = g.start();
        // 1. G' = {s}, q(s) = h(s); a terminal s is SOLVED.
        let init = |this: &mut Self, n: NodeId| {
            if g.node(n).terminal {
                this.q[n.index()] = Some(Cost::ZERO);
                this.solved[n.index()] = true;
            } else {
                this.q[n.index()] = Some(Cost::finite(g.node(n).h));
            }
        };
        init(&mut self, s);
        let (mut expanded, mut cycles) = (Vec::new(), Vec::new());
        // 2. Until s is SOLVED (or its cost is infinite: no solution).
        let outcome = loop {
            if self.solved[s.index()] {
                break Outcome::Solved;
            }
            if !self.q[s.index()].unwrap().is_finite() {
                break Outcome::Unsolvable;
            }
            let n = self.tip(s).expect("an unsolved start has a tip");
            // 5. Expand n; new successors get q = h (terminals 0, SOLVED).
            self.expanded[n.index()] = true;
            expanded.push(n);
            for &c in g.connectors_of(n) {
                for &t in &g.connector(c).to {
                    if self.q[t.index()].is_none() {
                        init(&mut self, t);
                    }
                }
            }
            // 6. S = {n}.
            let mut set = vec![n];
            let mut revs = Vec::new();
            // 7. Until S is empty:
            while !set.is_empty() {
                // 8. Remove from S a node none of whose descendants in G' is in S.
                let m = *set
                    .iter()
                    .filter(|&&m| !set.iter().any(|&o| o != m && self.descends(m, o)))
                    .max_by_key(|&&m| (g.level(m), Reverse(m)))
                    .expect("G' is acyclic");
                set.retain(|&x| x != m);
                // 9. q(m) = the cheapest connector's cost; mark it; SOLVED if its children are.
                let old = self.q[m.index()].unwrap();
                let mut best: Option<(Cost, ConnectorId)> = None;
                for &c in g.connectors_of(m) {
                    let cost = self.connector_cost(c);
                    if best.is_none_or(|(b, _)| cost < b) {
                        best = Some((cost, c));
                    }
                }
                let (new, mark) = match best {
                    Some((c, id)) if c.is_finite() => (c, Some(id)),
                    _ => (Cost::INFINITE, None),
                };
                self.q[m.index()] = Some(new);
                self.marked[m.index()] = mark;
                let all =
                    mark.is_some_and(|c| g.connector(c).to.iter().all(|t| self.solved[t.index()]));
                let became = all && !self.solved[m.index()];
                if all {
                    self.solved[m.index()] = true;
                }
                revs.push((m, old, new, mark, became));
                // 10. If m became SOLVED or its cost changed, add to S its
                // parents whose marked connector leads to it.
                if became || new != old {
                    for &pc in g.parents_of(m) {
                        let p = g.connector(pc).from;
                        if self.expanded[p.index()]
                            && self.marked[p.index()] == Some(pc)
                            && !set.contains(&p)
                        {
                            set.push(p);
                        }
                    }
                }
            }
            cycles.push(revs);
            assert!(cycles.len() < 10_000, "AO* should end");
        };
        (outcome, expanded, cycles)
    }
}

#[test]
fn ao_star_revises_in_the_documented_order_of_nilssons_procedure() {
    let (mut graphs, mut cycles, mut multi) = (0, 0, 0);
    for seed in 0..3_000u64 {
        let mut rng = Rng::from_seed(seed);
        let mut params = random_params(&mut rng, true);
        params.admissible = rng.percent(80);
        // One graph in three is deeper, with more sharing: long revision chains.
        if seed % 3 == 0 {
            params.depth = rng.between(4, 5) as u32;
            params.arity = (1, 3);
            params.shared_percent = 40;
        }
        let Ok(g) = generate(&params, seed) else {
            continue;
        };
        let n = g.len();
        let (outcome, expanded, revisions) = Nilsson {
            g: &g,
            q: vec![None; n],
            marked: vec![None; n],
            solved: vec![false; n],
            expanded: vec![false; n],
        }
        .run();
        let run = ao_star(&g, Default::default());
        assert_eq!(run.outcome, outcome, "seed {seed}");
        assert_eq!(run.expanded, expanded, "seed {seed}");
        let ours: Vec<Vec<Rev>> = run
            .cycles
            .iter()
            .map(|cy| {
                cy.revised
                    .iter()
                    .map(|r| (r.node, r.old, r.new, r.marked, r.solved))
                    .collect()
            })
            .collect();
        assert_eq!(ours, revisions, "seed {seed}: revisions, cycle by cycle");
        graphs += 1;
        cycles += revisions.len();
        multi += revisions.iter().filter(|r| r.len() > 2).count();
    }
    eprintln!("{graphs} graphs, {cycles} cycles, {multi} with more than two revisions");
    assert!(
        graphs > 2_000 && multi > 1_000,
        "{graphs} graphs, {multi} long cycles"
    );
}

fn graph(text: &str) -> treequiz::instance::Instance {
    let source = treequiz::input::Source {
        path: "case.toml".into(),
        text: text.to_string(),
    };
    treequiz::instance::parse(&source).unwrap()
}

/// The notes of the AO* key for `instance`, in English.
fn notes(instance: &treequiz::instance::Instance) -> Vec<String> {
    let kind = treequiz::exercise::kind("ao-star").unwrap();
    let conventions = Default::default();
    let key = (kind.solve)(instance, &conventions);
    let lang = treequiz::render::Renderer::new(None)
        .unwrap()
        .lang("en")
        .unwrap();
    kind.explain_key(instance, &key, &conventions, &kind.field_names(), &lang)
        .notes
}

#[test]
fn a_tie_is_called_a_tie_and_an_overestimate_is_named() {
    // S's connectors to A and to B cost the same once B is expanded: the first
    // in file order wins the tie, which moves the mark back to S -> A.
    let tie = graph(
        "kind = \"and-or-graph\"\nstart = \"S\"\nnodes = { S = 0, A = 2, B = 1, t = 0 }\nterminal = [\"t\"]\n\
         connectors = [{ from = \"S\", to = [\"A\"] }, { from = \"S\", to = [\"B\"] }, \
         { from = \"A\", to = [\"t\"], cost = 2 }, { from = \"B\", to = [\"t\"], cost = 2 }]\n",
    );
    let said = notes(&tie);
    assert!(
        said.iter().any(|n| n.starts_with("Cycle 2: at S, S -> A, S -> B cost the same (3); the tie rule marks the first in file order, S -> A (a switch from S -> B).")),
        "{said:#?}"
    );
    assert!(!said.iter().any(|n| n.contains("now cheaper")), "{said:#?}");

    // h(A) = 10 overestimates (A's real cost is 1): AO* ends through B at 6, above 2.
    let over = graph(
        "kind = \"and-or-graph\"\nstart = \"S\"\nnodes = { S = 0, A = 10, B = 1, t = 0 }\nterminal = [\"t\"]\n\
         connectors = [{ from = \"S\", to = [\"A\"] }, { from = \"S\", to = [\"B\"] }, \
         { from = \"A\", to = [\"t\"], cost = 1 }, { from = \"B\", to = [\"t\"], cost = 5 }]\n",
    );
    let said = notes(&over);
    assert!(
        said.iter().any(|n| n
            .starts_with("AO* ends SOLVED with cost 6, above the optimal 2: h overestimates at A")),
        "{said:#?}"
    );
}
