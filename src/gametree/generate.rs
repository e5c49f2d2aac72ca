//! Seeded random game trees, with constraints on the exercise they make.

use std::collections::HashSet;

use serde::Serialize;

use super::alpha_beta::{Options, alpha_beta_summary};
use super::minimax::minimax;
use super::tree::{Grow, MAX_DEPTH, Player, Tree};
pub use crate::generate::GenerateError;
use crate::generate::{MAX_GENERATED_NODES, count_nodes, first_satisfying};
use crate::rng::Rng;
use crate::value::Value;

/// Version of the game-tree generator; bumped whenever seed → tree changes.
pub const GENERATOR_VERSION: u32 = 1;

/// The shape of a random game tree and the constraints on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Params {
    /// Levels below the root; every leaf sits at this depth.
    pub depth: u32,
    /// Children per inner node, drawn from `lo..=hi`.
    pub branching: (u32, u32),
    /// Leaf values, drawn from `lo..=hi`.
    pub values: (i64, i64),
    /// The player at the root.
    pub root: Player,
    /// All leaf values different.
    pub distinct: bool,
    /// At least this many cuts under `alpha_beta`.
    pub min_cuts: Option<u32>,
    /// At most this many cuts.
    pub max_cuts: Option<u32>,
    /// Exactly one best root move.
    pub unique_best: bool,
    /// The conventions under which cuts are counted.
    pub alpha_beta: Options,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            depth: 3,
            branching: (2, 3),
            values: (0, 20),
            root: Player::Max,
            distinct: false,
            min_cuts: None,
            max_cuts: None,
            unique_best: false,
            alpha_beta: Options::default(),
        }
    }
}

/// The largest number of nodes a tree `depth` levels deep with up to
/// `most` children per node can have, saturating.
pub fn max_nodes(depth: u32, most: u32) -> u64 {
    let (mut level, mut total) = (1u64, 1u64);
    for _ in 0..depth {
        level = level.saturating_mul(u64::from(most));
        total = total.saturating_add(level);
    }
    total
}

/// Checks a random tree's shape: its depth, its children per node
/// (`lo..=hi`) and its leaf values (`lo..=hi`), and that it is no larger
/// than an instance file may be (so that what `sample` writes `solve` reads).
/// Every family of game trees draws its shape so.
pub fn check_shape(
    depth: u32,
    branching: (u32, u32),
    values: (i64, i64),
) -> Result<(), GenerateError> {
    let invalid = |m: String| Err(GenerateError::Invalid(m));
    let (blo, bhi) = branching;
    if depth == 0 || depth as usize > MAX_DEPTH {
        return invalid(format!(
            "depth must be between 1 and {MAX_DEPTH}, not {depth}"
        ));
    }
    if blo == 0 || blo > bhi {
        return invalid(format!(
            "branching must be a range lo..=hi with 1 <= lo <= hi, not {blo}..={bhi}"
        ));
    }
    if values.0 > values.1 {
        return invalid(format!(
            "the value range {}..={} is empty",
            values.0, values.1
        ));
    }
    let limit = MAX_GENERATED_NODES.min(crate::gametree::tree::MAX_FILE_NODES as u64);
    if max_nodes(depth, bhi) > limit {
        return invalid(format!(
            "depth {depth} with up to {bhi} children can give {}, more than the limit of {limit}; lower the depth or the branching",
            count_nodes(max_nodes(depth, bhi))
        ));
    }
    Ok(())
}

impl Params {
    /// The largest number of nodes these parameters can produce, saturating.
    pub fn max_nodes(&self) -> u64 {
        max_nodes(self.depth, self.branching.1)
    }

    /// Checks the parameters without generating anything.
    pub fn validate(&self) -> Result<(), GenerateError> {
        let invalid = |m: String| Err(GenerateError::Invalid(m));
        let bhi = self.branching.1;
        check_shape(self.depth, self.branching, self.values)?;
        let leaves = u64::from(bhi).saturating_pow(self.depth);
        let range = self.values.1.abs_diff(self.values.0).saturating_add(1);
        if self.distinct && range < leaves {
            return invalid(format!(
                "distinct leaf values need at least {leaves} values, but {}..={} has only {range}; widen the value range",
                self.values.0, self.values.1
            ));
        }
        // A cut needs an inner node with a child left to skip: at most one per inner node.
        let inner = self.max_nodes() - leaves.min(self.max_nodes());
        if let Some(lo) = self.min_cuts.filter(|&lo| u64::from(lo) > inner) {
            return invalid(format!(
                "{lo} cuts are impossible: these parameters give at most {inner} inner node(s), and each cuts at most once"
            ));
        }
        if let (Some(lo), Some(hi)) = (self.min_cuts, self.max_cuts)
            && lo > hi
        {
            return invalid(format!("min_cuts = {lo} is more than max_cuts = {hi}"));
        }
        Ok(())
    }

    /// The first constraint `tree` does not meet, named.
    pub fn unmet(&self, tree: &Tree) -> Option<String> {
        if self.unique_best && minimax(tree).best_moves.len() != 1 {
            return Some("a unique best move".into());
        }
        if self.min_cuts.is_some() || self.max_cuts.is_some() {
            let cuts = alpha_beta_summary(tree, self.alpha_beta).cuts as u32;
            if let Some(lo) = self.min_cuts.filter(|&lo| cuts < lo) {
                return Some(format!("at least {lo} cuts"));
            }
            if let Some(hi) = self.max_cuts.filter(|&hi| cuts > hi) {
                return Some(format!("at most {hi} cuts"));
            }
        }
        None
    }
}

/// One random tree (no constraints checked): branching and leaf values come
/// from one stream, in breadth-first order.
pub fn draw(params: &Params, rng: &mut Rng) -> Tree {
    let (blo, bhi) = params.branching;
    let (vlo, vhi) = params.values;
    let mut used = HashSet::new();
    Tree::build_levels(params.root, |depth| {
        if depth < params.depth as usize {
            return Grow::Children(rng.between(i64::from(blo), i64::from(bhi)) as u32);
        }
        loop {
            let v = rng.between(vlo, vhi);
            // `used` is only asked for membership, so its order never matters.
            if !params.distinct || used.insert(v) {
                return Grow::Leaf(Value::Finite(v));
            }
        }
    })
    .expect("validated parameters give every inner node at least one child")
}

/// A random tree for `seed` that meets every constraint of `params`.
///
/// Attempts draw from one stream, so the result depends only on the seed and
/// the parameters. Fails with the first unmet constraint after
/// [`MAX_ATTEMPTS`](crate::generate::MAX_ATTEMPTS) attempts.
pub fn generate(params: &Params, seed: u64) -> Result<Tree, GenerateError> {
    params.validate()?;
    first_satisfying(
        "tree",
        seed,
        |rng| draw(params, rng),
        Tree::len,
        |candidate| params.unmet(candidate).map(|m| (1, m)),
    )
}

/// The keys a problem set (or `sample`) shapes a generated tree with; a
/// node budget's (`budget`, `deepening`: games::budget_tree) among them.
pub const KEYS: &[&str] = &[
    "depth",
    "branching",
    "values",
    "root",
    "distinct",
    "min_cuts",
    "max_cuts",
    "unique_best",
    "budget",
    "deepening",
];

/// Reads [`Params`] from a problem set's exercise table (or `sample`'s options).
pub fn read_params(
    r: &crate::input::Reader<'_>,
    t: &crate::input::Table<'_>,
) -> Result<Params, crate::input::InputError> {
    let mut p = Params::default();
    if let Some(d) = t.get("depth") {
        p.depth = r.small_int(d, "depth = 3")?;
    }
    if let Some(d) = t.get("branching") {
        p.branching = r.small_range(d)?;
    }
    if let Some(d) = t.get("values") {
        p.values = r.range(d)?;
    }
    if let Some(d) = t.get("root") {
        p.root = super::file::read_player(r, d)?;
    }
    if let Some(d) = t.get("distinct") {
        p.distinct = r.bool(d, "distinct = true")?;
    }
    p.min_cuts = r.count(t, "min_cuts")?;
    p.max_cuts = r.count(t, "max_cuts")?;
    if let Some(d) = t.get("unique_best") {
        p.unique_best = r.bool(d, "unique_best = true")?;
    }
    r.check_generator(t, p.validate().err())?;
    Ok(p)
}
