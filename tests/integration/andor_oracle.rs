//! AND/OR solvers against exhaustive enumeration of every solution graph.

use std::collections::BTreeMap;

use treequiz::andor::generate::{Params, generate};
use treequiz::andor::{
    Connector, ConnectorId, Cost, CostModel, Graph, NodeId, Outcome, ao_star, optimal, solvable,
    try_optimal,
};
use treequiz::rng::Rng;

/// Every solution tree below `n`, each as the chosen connector of every node in it.
fn all_solutions(graph: &Graph, n: NodeId) -> Vec<BTreeMap<NodeId, ConnectorId>> {
    if graph.node(n).terminal {
        return vec![BTreeMap::new()];
    }
    let mut out = Vec::new();
    for &c in graph.connectors_of(n) {
        // Cartesian product of the children's solutions.
        let mut partial = vec![BTreeMap::from([(n, c)])];
        for &t in &graph.connector(c).to {
            let below = all_solutions(graph, t);
            partial = partial
                .iter()
                .flat_map(|p| {
                    below
                        .iter()
                        .map(move |b| p.iter().chain(b).map(|(k, v)| (*k, *v)).collect())
                })
                .collect();
        }
        out.extend(partial);
    }
    out
}

/// The cost of a solution tree by the textbook recursion.
fn cost_of(
    graph: &Graph,
    choice: &BTreeMap<NodeId, ConnectorId>,
    n: NodeId,
    model: CostModel,
) -> Cost {
    match choice.get(&n) {
        None => {
            assert!(
                graph.node(n).terminal,
                "a tip of a solution graph must be terminal"
            );
            Cost::ZERO
        }
        Some(&c) => graph.connector_cost(c, model, |t| cost_of(graph, choice, t, model)),
    }
}

/// A solution graph is valid: one connector per non-terminal node reached, every
/// AND group complete, every tip terminal. Returns its cost.
fn check_solution_graph(graph: &Graph, solution: &[ConnectorId], model: CostModel) -> Cost {
    let mut choice = BTreeMap::new();
    for &c in solution {
        assert!(
            choice.insert(graph.connector(c).from, c).is_none(),
            "two connectors from one node"
        );
    }
    let mut reached = vec![graph.start()];
    let mut i = 0;
    while i < reached.len() {
        if let Some(&c) = choice.get(&reached[i]) {
            reached.extend(graph.connector(c).to.iter().copied());
        } else {
            assert!(
                graph.node(reached[i]).terminal,
                "tip {} is not terminal",
                graph.label(reached[i])
            );
        }
        i += 1;
    }
    for from in choice.keys() {
        assert!(
            reached.contains(from),
            "connector from {} is not reached from the start",
            graph.label(*from)
        );
    }
    cost_of(graph, &choice, graph.start(), model)
}

pub(crate) fn random_params(rng: &mut Rng, shared: bool) -> Params {
    let model = [CostModel::Connector, CostModel::Sum, CostModel::Max][rng.below(3) as usize];
    Params {
        depth: rng.between(1, 3) as u32,
        alternatives: (1, rng.between(1, 3) as u32),
        arity: (1, 2),
        model,
        arc_costs: if rng.percent(50) { (1, 1) } else { (0, 3) },
        admissible: true,
        terminal_percent: rng.between(0, 30) as u32,
        shared_percent: if shared { 30 } else { 0 },
        dead_end_percent: rng.between(0, 40) as u32,
        solvable: false,
        ..Params::default()
    }
}

#[test]
fn ao_star_finds_the_exhaustive_optimum_on_random_trees() {
    let mut solved = 0;
    let mut switched = 0;
    for seed in 0..3_000u64 {
        let mut rng = Rng::from_seed(seed);
        let params = random_params(&mut rng, false);
        let graph = generate(&params, seed).unwrap();
        let every = all_solutions(&graph, graph.start());
        let ok = solvable(&graph);
        assert_eq!(
            ok[graph.start().index()],
            !every.is_empty(),
            "seed {seed}: solvable"
        );
        for model in [CostModel::Connector, CostModel::Sum, CostModel::Max] {
            let best = every
                .iter()
                .map(|s| cost_of(&graph, s, graph.start(), model))
                .min()
                .unwrap_or(Cost::INFINITE);
            let opt = optimal(&graph, model);
            assert_eq!(opt.cost, best, "seed {seed} {model:?}: optimal");
            if best.is_finite() {
                assert_eq!(
                    check_solution_graph(&graph, &opt.solution, model),
                    best,
                    "seed {seed}"
                );
            }
        }
        // AO* with the instance's model and its admissible h.
        let model = graph.model();
        let best = optimal(&graph, model).cost;
        let run = ao_star(&graph, Default::default());
        if best.is_finite() {
            assert_eq!(run.outcome, Outcome::Solved, "seed {seed}");
            assert_eq!(run.cost, best, "seed {seed} {model:?}: AO* cost");
            assert_eq!(
                check_solution_graph(&graph, &run.solution, model),
                best,
                "seed {seed}: AO* solution"
            );
            solved += 1;
        } else {
            assert_eq!(run.outcome, Outcome::Unsolvable, "seed {seed}");
        }
        // Expanded nodes are distinct; every cycle expands one.
        let mut expanded = run.expanded.clone();
        expanded.sort_unstable();
        expanded.dedup();
        assert_eq!(expanded.len(), run.cycles.len(), "seed {seed}");
        switched += usize::from(run.switches > 0);
    }
    assert!(solved > 1_500, "only {solved} solvable instances");
    assert!(switched > 100, "only {switched} runs switch branch");
}

/// A bare connector cost (`cost = C`, no arc costs, as Nilsson writes a
/// k-connector's k) is the connector model's own: its optimum, and AO*'s cost
/// with an admissible h, are the cheapest enumerated solution tree's; the sum
/// and max models, defined arc by arc, refuse the graph.
#[test]
fn bare_connector_costs_give_the_exhaustive_optimum() {
    let mut changed = 0;
    for seed in 0..2_000u64 {
        let mut rng = Rng::from_seed(seed ^ 0xC057);
        let mut params = random_params(&mut rng, false);
        params.model = CostModel::Connector;
        let base = generate(&params, seed).unwrap();
        // Each connector a cost of its own, never below its arcs' sum, so
        // that h, admissible for the arcs, stays admissible.
        let connectors: Vec<Connector> = base
            .connectors()
            .iter()
            .map(|c| Connector {
                cost: c.cost + rng.below(4),
                arcs: None,
                ..c.clone()
            })
            .collect();
        let graph = Graph::new(
            base.nodes().to_vec(),
            connectors,
            base.start(),
            CostModel::Connector,
        )
        .unwrap();
        assert!(!graph.has_arc_costs() || graph.connectors().is_empty());
        let best = all_solutions(&graph, graph.start())
            .iter()
            .map(|s| cost_of(&graph, s, graph.start(), CostModel::Connector))
            .min()
            .unwrap_or(Cost::INFINITE);
        let opt = optimal(&graph, CostModel::Connector);
        assert_eq!(opt.cost, best, "seed {seed}: optimal");
        changed += usize::from(opt.cost != optimal(&base, CostModel::Connector).cost);
        let run = ao_star(&graph, Default::default());
        if best.is_finite() {
            let found = check_solution_graph(&graph, &opt.solution, CostModel::Connector);
            assert_eq!(found, best, "seed {seed}");
            assert_eq!(
                (run.outcome, run.cost),
                (Outcome::Solved, best),
                "seed {seed}: AO*"
            );
        } else {
            assert_eq!(run.outcome, Outcome::Unsolvable, "seed {seed}");
        }
        if !graph.connectors().is_empty() {
            assert!(try_optimal(&graph, CostModel::Sum).is_err(), "seed {seed}");
            assert!(try_optimal(&graph, CostModel::Max).is_err(), "seed {seed}");
        }
    }
    // The connectors' own costs change the answer often enough to test it.
    assert!(changed > 300, "only {changed} optima changed");
}

#[test]
fn ao_star_is_optimal_on_random_dags_and_valid_with_inadmissible_h() {
    for seed in 0..3_000u64 {
        let mut rng = Rng::from_seed(seed ^ 0xDA6);
        let mut params = random_params(&mut rng, true);
        params.depth = rng.between(1, 4) as u32;
        params.admissible = seed % 2 == 0;
        let graph = generate(&params, seed).unwrap();
        let model = graph.model();
        let best = optimal(&graph, model);
        let run = ao_star(&graph, Default::default());
        if !best.cost.is_finite() {
            assert_eq!(run.outcome, Outcome::Unsolvable, "seed {seed}");
            continue;
        }
        assert_eq!(run.outcome, Outcome::Solved, "seed {seed}");
        // Whatever h, the reported cost is the true cost of the solution found.
        assert_eq!(
            check_solution_graph(&graph, &run.solution, model),
            run.cost,
            "seed {seed}"
        );
        if params.admissible {
            assert_eq!(
                run.cost, best.cost,
                "seed {seed}: admissible h gives the optimum"
            );
        } else {
            assert!(run.cost >= best.cost);
        }
    }
}

#[test]
fn futility_bound_stops_ao_star() {
    let params = Params {
        depth: 3,
        ..Params::default()
    };
    let graph = generate(&params, 5).unwrap();
    let best = optimal(&graph, graph.model()).cost.get().unwrap();
    assert!(best > 0);
    let run = ao_star(
        &graph,
        treequiz::andor::ao_star::Options {
            model: None,
            futility: Some(best - 1),
            max_steps: None,
            max_traced: None,
        },
    );
    assert_eq!(run.outcome, Outcome::Futile);
    let run = ao_star(
        &graph,
        treequiz::andor::ao_star::Options {
            model: None,
            futility: Some(best),
            max_steps: None,
            max_traced: None,
        },
    );
    assert_eq!(run.outcome, Outcome::Solved);
}

#[test]
fn constraints_are_met_or_named() {
    let params = Params {
        depth: 3,
        alternatives: (2, 2),
        arity: (1, 2),
        min_switches: Some(1),
        min_expansions: Some(4),
        ..Params::default()
    };
    for seed in 0..20 {
        let graph = generate(&params, seed).unwrap();
        let run = ao_star(&graph, Default::default());
        assert!(run.switches >= 1 && run.expanded.len() >= 4, "seed {seed}");
    }
    let impossible = Params {
        depth: 1,
        alternatives: (1, 1),
        arity: (1, 1),
        min_switches: Some(1),
        ..Params::default()
    };
    let err = generate(&impossible, 1).unwrap_err().to_string();
    assert!(err.contains("switching branch at least 1"), "{err}");
    let sized = Params {
        depth: 4,
        alternatives: (1, 2),
        arity: (1, 3),
        nodes: Some((20, 25)),
        ..Params::default()
    };
    for seed in 0..20 {
        let n = generate(&sized, seed).unwrap().len();
        assert!((20..=25).contains(&n), "seed {seed}: {n} nodes");
    }
    let unreachable = Params {
        depth: 1,
        alternatives: (1, 1),
        arity: (1, 2),
        nodes: Some((20, 25)),
        ..Params::default()
    };
    assert!(
        generate(&unreachable, 1)
            .unwrap_err()
            .to_string()
            .contains("cannot be reached")
    );
    let huge = Params {
        depth: 30,
        alternatives: (3, 3),
        arity: (3, 3),
        ..Params::default()
    };
    let err = generate(&huge, 1).unwrap_err().to_string();
    assert!(err.contains("more than the limit"), "{err}");
}
