//! Seeded random expectiminimax trees, with constraints that make the point
//! of an exercise: the expectation choosing another move than the worst
//! case (plain minimax, every chance node read as MIN).

use serde::Serialize;

use super::{ChanceTree, DEFAULT_LEVELS, NodeKind, expectiminimax, worst_case};
use crate::gametree::{Grow, Player, Tree};
pub use crate::generate::GenerateError;
use crate::generate::first_satisfying;
use crate::rng::Rng;
use crate::value::{Ratio, Value};

/// Version of the chance-tree generator; bumped whenever seed → tree changes.
pub const GENERATOR_VERSION: u32 = 1;

/// Largest weight a chance edge draws when probabilities are not uniform:
/// weights 1 to 3 give probabilities such as 1/4, 1/2, 3/5, which a student
/// multiplies by hand.
pub const MAX_WEIGHT: i64 = 3;

/// The shape of a random chance tree and the constraints on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Params {
    /// Levels below the root; every leaf sits at this depth.
    pub depth: u32,
    /// Children per inner node, drawn from `lo..=hi`.
    pub branching: (u32, u32),
    /// Leaf values, drawn from `lo..=hi`.
    pub values: (i64, i64),
    /// The node kinds from the root down, repeated.
    pub levels: Vec<NodeKind>,
    /// Whether chance edges draw weights (1 to [`MAX_WEIGHT`] each,
    /// normalised) instead of being equally likely.
    pub weighted: bool,
    /// Exactly one best root move.
    pub unique_best: bool,
    /// No best move is a best move of the worst case (plain minimax, every
    /// chance node read as MIN).
    pub differs_from_minimax: bool,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            depth: 2,
            branching: (2, 3),
            values: (0, 12),
            levels: DEFAULT_LEVELS.to_vec(),
            weighted: false,
            unique_best: false,
            differs_from_minimax: false,
        }
    }
}

impl Params {
    /// The largest number of nodes these parameters can produce, saturating.
    pub fn max_nodes(&self) -> u64 {
        crate::gametree::generate::max_nodes(self.depth, self.branching.1)
    }

    /// Checks the parameters without generating anything.
    pub fn validate(&self) -> Result<(), GenerateError> {
        let invalid = |m: String| Err(GenerateError::Invalid(m));
        let bhi = self.branching.1;
        crate::gametree::generate::check_shape(self.depth, self.branching, self.values)?;
        if self.levels.is_empty() {
            return invalid("levels must name at least one node kind".to_string());
        }
        let chooses = matches!(self.levels[0], NodeKind::Max | NodeKind::Min);
        if (self.unique_best || self.differs_from_minimax) && !chooses {
            return invalid(
                "the root is a chance node, which has no best move: start levels with \"max\" or \"min\"".to_string(),
            );
        }
        if self.differs_from_minimax && (bhi < 2 || !self.levels.contains(&NodeKind::Chance)) {
            return invalid(
                "the expectation can differ from minimax only with chance levels and at least two moves at the root".to_string(),
            );
        }
        Ok(())
    }

    /// The first constraint `tree` does not meet, named.
    pub fn unmet(&self, tree: &ChanceTree) -> Option<String> {
        let best = expectiminimax(tree).best_moves;
        if self.unique_best && best.len() != 1 {
            return Some("a unique best move".into());
        }
        // No move best under both: a tie would blur the point.
        if self.differs_from_minimax && best.iter().any(|m| worst_case(tree).contains(m)) {
            return Some("a best move that differs from minimax's".into());
        }
        None
    }
}

/// One random tree (no constraints checked): branching, leaf values and
/// edge weights come from one stream, in breadth-first order.
pub fn draw(params: &Params, rng: &mut Rng) -> ChanceTree {
    let (blo, bhi) = params.branching;
    let (vlo, vhi) = params.values;
    let tree = Tree::build_levels(Player::Max, |depth| {
        if depth < params.depth as usize {
            Grow::Children(rng.between(i64::from(blo), i64::from(bhi)) as u32)
        } else {
            Grow::Leaf(Value::Finite(rng.between(vlo, vhi)))
        }
    })
    .expect("validated parameters give every inner node at least one child");
    let levels = params.levels.clone();
    let given = if params.weighted {
        tree.ids()
            .filter(|&id| {
                tree.leaf(id).is_none()
                    && levels[tree.depth_of(id) % levels.len()] == NodeKind::Chance
            })
            .map(|id| {
                let weights: Vec<i64> = tree
                    .children(id)
                    .map(|_| rng.between(1, MAX_WEIGHT))
                    .collect();
                let total: i64 = weights.iter().sum();
                let ps = weights
                    .iter()
                    .map(|&w| Ratio::new(i128::from(w), i128::from(total)).expect("total > 0"))
                    .collect();
                (id, ps)
            })
            .collect()
    } else {
        Vec::new()
    };
    ChanceTree::new(tree, levels, given).expect(
        "validated parameters: finite leaves, probabilities summing to 1, small denominators",
    )
}

/// A random tree for `seed` that meets every constraint of `params`; fails
/// with the first unmet constraint after
/// [`MAX_ATTEMPTS`](crate::generate::MAX_ATTEMPTS) attempts.
pub fn generate(params: &Params, seed: u64) -> Result<ChanceTree, GenerateError> {
    params.validate()?;
    first_satisfying(
        "tree",
        seed,
        |rng| draw(params, rng),
        |t| t.tree().len(),
        |candidate| params.unmet(candidate).map(|m| (1, m)),
    )
}

/// The keys a problem set (or `sample`) shapes a generated chance tree with.
pub const KEYS: &[&str] = &[
    "depth",
    "branching",
    "values",
    "levels",
    "weighted",
    "unique_best",
    "differs_from_minimax",
];

/// Reads [`Params`] from a problem set's exercise table (or `sample`'s options).
pub fn read_params(
    r: &crate::input::Reader<'_>,
    t: &crate::input::Table<'_>,
) -> Result<Params, crate::input::InputError> {
    let mut p = Params::default();
    if let Some(d) = t.get("depth") {
        p.depth = r.small_int(d, "depth = 2")?;
    }
    if let Some(d) = t.get("branching") {
        p.branching = r.small_range(d)?;
    }
    if let Some(d) = t.get("values") {
        p.values = r.range(d)?;
    }
    if let Some(d) = t.get("levels") {
        p.levels = super::file::read_levels(r, d)?;
    }
    for (key, flag) in [
        ("weighted", &mut p.weighted),
        ("unique_best", &mut p.unique_best),
        ("differs_from_minimax", &mut p.differs_from_minimax),
    ] {
        if let Some(d) = t.get(key) {
            *flag = r.bool(d, &format!("{key} = true"))?;
        }
    }
    r.check_generator(t, p.validate().err())?;
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_tree() {
        let p = Params {
            weighted: true,
            ..Params::default()
        };
        let a = crate::document::to_toml(&super::super::file::document(&generate(&p, 7).unwrap()));
        let b = crate::document::to_toml(&super::super::file::document(&generate(&p, 7).unwrap()));
        assert_eq!(a, b);
        assert!(a.contains("[probabilities]"), "{a}");
    }

    #[test]
    fn differs_from_minimax_is_met_or_refused_up_front() {
        let p = Params {
            differs_from_minimax: true,
            unique_best: true,
            ..Params::default()
        };
        for seed in 0..20 {
            let t = generate(&p, seed).unwrap();
            let best = expectiminimax(&t).best_moves;
            assert_eq!(best.len(), 1);
            assert!(!worst_case(&t).contains(&best[0]), "seed {seed}");
        }
        let only_max = Params {
            levels: vec![NodeKind::Max, NodeKind::Min],
            ..p.clone()
        };
        assert!(matches!(
            only_max.validate(),
            Err(GenerateError::Invalid(_))
        ));
        let chance_root = Params {
            levels: vec![NodeKind::Chance, NodeKind::Max],
            ..p
        };
        assert!(matches!(
            chance_root.validate(),
            Err(GenerateError::Invalid(_))
        ));
    }
}
