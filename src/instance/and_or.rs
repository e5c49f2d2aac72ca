//! AND/OR graphs with k-connectors, for solvability, solution cost and AO*.

use super::{FamilyDef, Generator, Instance, MAX_EXERCISE_NODES, Model, Params};
use crate::andor::{self, Cost, CostModel, Graph};
use crate::draw::graph_figure;
use crate::gametree;
use crate::generate::GenerateError;
use crate::input::{Doc, InputError, Reader};

pub(super) static FAMILY: FamilyDef = FamilyDef {
    name: "and-or-graph",
    key_name: "graph",
    noun: "an AND/OR graph",
    param_keys: andor::generate::KEYS,
    read_params: |r, t, _| Ok(Params::new(andor::generate::read_params(r, t)?)),
    read,
    forms: &[],
    about: |i, lang| {
        let g = this(i);
        lang.fill(
            "solve.about_graph",
            &[
                ("nodes", &g.len().to_string()),
                ("connectors", &g.connectors().len().to_string()),
                ("start", g.label(g.start())),
            ],
        )
    },
    document: |i| andor::file::document(this(i)),
    model: |i| Model::Graph(this(i)),
    sheet_figure: |i, _| {
        let g = this(i);
        (graph_figure(g, None), g.label(g.start()).to_string())
    },
    figure_nodes: |i| Some(this(i).len()),
    largest_number: |i| costliest(this(i)),
    depth: |_| None,
};

fn this(instance: &Instance) -> &Graph {
    match instance {
        Instance::AndOr(g) => g,
        _ => unreachable!("the AND/OR family holds AND/OR graphs"),
    }
}

fn read(reader: &Reader<'_>, doc: &Doc) -> Result<Instance, InputError> {
    let table = reader.table(doc, andor::file::KEYS, "")?;
    andor::file::read(reader, &table).map(Instance::AndOr)
}

impl Generator for andor::generate::Params {
    fn generate(&self, seed: u64, _: gametree::Options) -> Result<Instance, GenerateError> {
        Ok(Instance::AndOr(andor::generate::generate(self, seed)?))
    }

    // A graph's `nodes` range bounds it when it is small enough.
    fn page_size(&self) -> Option<(u64, &'static str)> {
        self.nodes
            .is_none_or(|(_, hi)| u64::from(hi) > MAX_EXERCISE_NODES)
            .then(|| {
                (
                    self.max_nodes(),
                    "lower depth, alternatives or arity, or bound the size with `nodes = \"12..25\"`",
                )
            })
    }
}

/// The largest finite cost of any solution graph from the start, under every
/// cost model the graph can take (the sum and max models need arc costs).
fn costliest(g: &Graph) -> u64 {
    let models: &[CostModel] = if g.has_arc_costs() {
        &[CostModel::Connector, CostModel::Sum, CostModel::Max]
    } else {
        &[CostModel::Connector]
    };
    models
        .iter()
        .map(|&model| {
            let mut worst = vec![Cost::INFINITE; g.len()];
            for id in g.topological_order().into_iter().rev() {
                if g.node(id).terminal {
                    worst[id.index()] = Cost::ZERO;
                    continue;
                }
                worst[id.index()] = g
                    .connectors_of(id)
                    .iter()
                    .map(|&c| g.connector_cost(c, model, |t| worst[t.index()]))
                    .filter(|c| c.is_finite())
                    .max()
                    .unwrap_or(Cost::INFINITE);
            }
            worst[g.start().index()].get().unwrap_or(0)
        })
        .max()
        .unwrap_or(0)
}
