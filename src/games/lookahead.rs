//! Depth-limited lookahead in a concrete game: the game tree a textbook draws
//! from a position, with the static evaluation at the frontier. The tree is an
//! ordinary [`Tree`], so minimax, alpha-beta, drawings and grading all apply.

use crate::gametree::{Grow, Player, Tree};
use crate::value::Value;

/// A position of a game that can be searched.
pub trait Position: Sized {
    /// The positions one move away, each with the move's name (`b2`, `d3`,
    /// `pass`), in the order the search takes them; empty when the game is over.
    fn successors(&self) -> Vec<(String, Self)>;
    /// The successors without their moves' names, in the same order: what
    /// a search that only counts needs (a game may skip naming them).
    fn children(&self) -> Vec<Self> {
        self.successors().into_iter().map(|(_, p)| p).collect()
    }
    /// How many [`Position::children`] there are: what a search that stops
    /// at them counts without making them (a game may count faster).
    fn child_count(&self) -> usize {
        self.children().len()
    }
    /// The static evaluation for MAX (won and lost games as ±inf, or a score).
    fn evaluate(&self) -> Value;
}

/// The root's label.
pub const ROOT: &str = "P";

/// A lookahead tree and the position at every node (by node index).
#[derive(Clone, Debug)]
pub struct Lookahead<P> {
    /// Labels are move paths: `P` at the root, then `b2`, then `b2-a1`, …
    pub tree: Tree,
    /// The position at each node.
    pub positions: Vec<P>,
    /// What each node was given: plies left, or its node budget.
    pub allowances: Vec<u32>,
}

/// Where a search stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Horizon {
    /// `depth` plies from the root.
    Depth(u32),
    /// A node budget, the course notes' `branches`: the root gets it, and a
    /// node's budget divided by its number of moves (integer division) is
    /// what each of its children gets. A node is evaluated when its budget is
    /// 0 or the game is over. A single move (a pass, a forced reply) costs
    /// nothing, and a budget smaller than the number of moves still expands
    /// the node: every child gets 0 and is evaluated.
    Budget(u32),
    /// Iterative deepening under a node budget: searches 1, 2, 3, … plies
    /// deep, counting every node each iteration visits (the root each time),
    /// until the count would pass the budget; the lookahead is the deepest
    /// iteration that completed ([`deepening`]).
    Deepening(u32),
}

impl Horizon {
    /// What a node's children get, if it is expanded: `None` when it is
    /// evaluated whatever its moves.
    fn split(self, moves: usize) -> Option<Horizon> {
        match self {
            Horizon::Depth(0) | Horizon::Budget(0) => None,
            Horizon::Depth(d) => Some(Horizon::Depth(d - 1)),
            Horizon::Budget(b) => Some(Horizon::Budget(b / moves.max(1) as u32)),
            // Every caller (lookahead_within, count_nodes, frontier_depths) resolves first.
            Horizon::Deepening(_) => unreachable!("resolved to a depth first"),
        }
    }

    /// Iterative deepening as the depth of its deepest completed iteration
    /// from `root`; the other horizons as they are.
    fn resolved<P: Position + Clone>(self, root: &P) -> Horizon {
        match self {
            Horizon::Deepening(budget) => Horizon::Depth(deepening(root, budget).completed),
            h => h,
        }
    }

    /// What the horizon gives: plies, or a node budget.
    pub fn allowance(self) -> u32 {
        match self {
            Horizon::Depth(n) | Horizon::Budget(n) | Horizon::Deepening(n) => n,
        }
    }
}

/// The tree of every line of play `depth` moves deep from `root`, with
/// `to_move` at the root; the evaluation at the frontier and where a game ends.
pub fn lookahead<P: Position + Clone>(root: P, to_move: Player, depth: u32) -> Lookahead<P> {
    lookahead_within(root, to_move, Horizon::Depth(depth))
}

/// The tree a search bounded by `horizon` visits from `root`, with `to_move`
/// at the root; the evaluation at its frontier and where a game ends.
pub fn lookahead_within<P: Position + Clone>(
    root: P,
    to_move: Player,
    horizon: Horizon,
) -> Lookahead<P> {
    let horizon = horizon.resolved(&root);
    // Breadth-first, as the arena numbers nodes: a queue of nodes still to grow.
    let mut queue = std::collections::VecDeque::from([(root, String::new(), horizon)]);
    let mut positions = Vec::new();
    let mut labels = Vec::new();
    let mut allowances = Vec::new();
    let tree = Tree::build_levels(to_move, |_| {
        let (position, path, given) = queue.pop_front().expect("one queued node per grown node");
        // Moves are generated only where the horizon may expand the node.
        let (next, child) = match given.split(1) {
            None => (Vec::new(), given),
            Some(_) => {
                let next = position.successors();
                let child = given.split(next.len()).expect("expanded above");
                (next, child)
            }
        };
        let grow = if next.is_empty() {
            Grow::Leaf(position.evaluate())
        } else {
            Grow::Children(next.len() as u32)
        };
        for (name, successor) in next {
            let child_path = if path.is_empty() {
                name.clone()
            } else {
                format!("{path}-{name}")
            };
            queue.push_back((successor, child_path, child));
        }
        labels.push(if path.is_empty() {
            ROOT.to_string()
        } else {
            path
        });
        positions.push(position);
        allowances.push(given.allowance());
        grow
    })
    .expect("a node is inner only when it has moves");
    let tree = tree
        .relabel(labels)
        .expect("move paths are unique: sibling moves have different names");
    Lookahead {
        tree,
        positions,
        allowances,
    }
}

/// How many nodes the search bounded by `horizon` visits from `root`,
/// counted without building its tree; `None` as soon as there are more than
/// `cap`, so a position too large for a page (a depth-9 tic-tac-toe search
/// has 549,946 nodes) costs no more than `cap` positions to refuse.
pub fn count_nodes<P: Position + Clone>(root: &P, horizon: Horizon, cap: usize) -> Option<usize> {
    let horizon = horizon.resolved(root);
    let mut count = 1usize;
    let mut stack = vec![(root.clone(), horizon)];
    while let Some((position, given)) = stack.pop() {
        if given.split(1).is_none() {
            continue;
        }
        let next = position.children();
        let Some(child) = given.split(next.len()) else {
            continue;
        };
        for successor in next {
            count += 1;
            if count > cap {
                return None;
            }
            stack.push((successor, child));
        }
    }
    (count <= cap).then_some(count)
}

/// The shape of the tree a search visits, counted without building it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frontier {
    /// Nodes visited, the root included (the tree's `len`).
    pub nodes: usize,
    /// Positions evaluated (the tree's leaves).
    pub leaves: usize,
    /// The least depth of a leaf, in plies.
    pub lo: usize,
    /// The greatest depth of a leaf, in plies.
    pub hi: usize,
}

impl Frontier {
    /// Whether the leaves lie at different depths ([`uneven`] of the tree).
    pub fn uneven(&self) -> bool {
        self.lo < self.hi
    }
}

/// The shape of the tree the search bounded by `horizon` visits from
/// `root`, found without evaluating or naming a position; `None` as soon as
/// it visits more than `cap` nodes. Generators refuse most positions on it
/// before building a tree ([`lookahead_within`]).
pub fn frontier_depths<P: Position + Clone>(
    root: &P,
    horizon: Horizon,
    cap: usize,
) -> Option<Frontier> {
    // Deepening searches to a depth: resolved here too, so `split` never sees it.
    let horizon = horizon.resolved(root);
    let (mut visited, mut leaves, mut lo, mut hi) = (0usize, 0usize, usize::MAX, 0usize);
    let mut stack = vec![(root.clone(), horizon, 0usize)];
    while let Some((position, given, depth)) = stack.pop() {
        visited += 1;
        if visited > cap {
            return None;
        }
        let moves = match given.split(1) {
            None => 0,
            Some(_) => position.child_count(),
        };
        // A leaf; or children that are all leaves (nothing left to give
        // them), counted without being made: most of the nodes.
        let (count, at) = match given.split(moves) {
            _ if moves == 0 => (1, depth),
            Some(child) if child.split(1).is_some() => {
                stack.extend(
                    position
                        .children()
                        .into_iter()
                        .map(|p| (p, child, depth + 1)),
                );
                continue;
            }
            _ => {
                visited += moves;
                if visited > cap {
                    return None;
                }
                (moves, depth + 1)
            }
        };
        leaves += count;
        lo = lo.min(at);
        hi = hi.max(at);
    }
    Some(Frontier {
        nodes: visited,
        leaves,
        lo,
        hi,
    })
}

/// Iterative deepening from a position under a node budget, iteration by
/// iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deepening {
    /// The iterations begun, 1 ply deep first: the last may not complete.
    pub iterations: Vec<Iteration>,
    /// The depth of the deepest iteration that completed (0 if none did):
    /// the search returns its best move.
    pub completed: u32,
    /// Whether the search stopped because an iteration saw the end of every
    /// line (deeper ones would repeat it), not because the budget ran out.
    pub exhausted: bool,
}

/// One iteration of [`Deepening`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// Plies searched.
    pub depth: u32,
    /// Nodes the whole iteration visits, the root included; `None` when
    /// more than [`MAX_COUNTED`].
    pub nodes: Option<u32>,
    /// Nodes counted before it began, by the earlier iterations.
    pub before: u32,
    /// Whether it ends within the budget: `before + nodes <= budget`.
    pub completed: bool,
}

/// Most nodes an iteration is counted to: beyond, it cannot complete under
/// any budget an exercise gives.
pub const MAX_COUNTED: usize = 1_000_000;

/// Iterative deepening under a node budget: iteration `d` searches every
/// line `d` plies deep (or to the game's end), visiting each node once,
/// the root included, in the same move order every time; the counter runs on
/// across iterations. An iteration completes when the counter stays within
/// `budget` to its end; the first that would pass it is stopped there.
/// The search also stops after an iteration that reached the end of every
/// line. A depth-limited minimax visits the same nodes whatever their
/// values, so an iteration's count is its tree's size.
pub fn deepening<P: Position + Clone>(root: &P, budget: u32) -> Deepening {
    let mut iterations = Vec::new();
    let mut before = 0u32;
    let mut completed = 0;
    let mut exhausted = false;
    for depth in 1..=crate::gametree::tree::MAX_DEPTH as u32 {
        let nodes = count_nodes(root, Horizon::Depth(depth), MAX_COUNTED).map(|n| n as u32);
        let done = nodes.is_some_and(|n| before + n <= budget);
        iterations.push(Iteration {
            depth,
            nodes,
            before,
            completed: done,
        });
        let Some(nodes) = nodes.filter(|_| done) else {
            break;
        };
        before += nodes;
        completed = depth;
        if count_nodes(root, Horizon::Depth(depth + 1), nodes as usize + 1) == Some(nodes as usize)
        {
            exhausted = true;
            break;
        }
    }
    Deepening {
        iterations,
        completed,
        exhausted,
    }
}

/// What a generated exercise asks of its lookahead, whatever the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Search {
    /// Plies searched.
    pub depth: u32,
    /// At least this many alpha-beta cuts.
    pub min_cuts: Option<u32>,
    /// Exactly one best move.
    pub unique_best: bool,
    /// The conventions under which cuts are counted (the set's).
    pub alpha_beta: crate::gametree::Options,
}

impl Search {
    /// A search `depth` plies deep, with no constraint.
    pub fn plies(depth: u32) -> Search {
        Search {
            depth,
            min_cuts: None,
            unique_best: false,
            alpha_beta: crate::gametree::Options::default(),
        }
    }

    /// A depth outside `1..=max`, named.
    pub fn check(&self, max: u32) -> Result<(), crate::generate::GenerateError> {
        check_depth(self.depth, max)
    }

    /// The first constraint the searched tree does not meet.
    pub fn unmet(&self, tree: &Tree) -> Option<String> {
        if self.unique_best && crate::gametree::minimax(tree).best_moves.len() != 1 {
            return Some("unique_best = true".to_string());
        }
        let min = self.min_cuts?;
        let cuts = crate::gametree::alpha_beta_summary(tree, self.alpha_beta).cuts;
        ((cuts as u32) < min).then(|| format!("min_cuts = {min}"))
    }
}

/// A lookahead depth outside `1..=max`, named.
pub fn check_depth(depth: u32, max: u32) -> Result<(), crate::generate::GenerateError> {
    if (1..=max).contains(&depth) {
        Ok(())
    } else {
        Err(crate::generate::GenerateError::Invalid(format!(
            "a lookahead of {depth} plies: it must be 1 to {max}"
        )))
    }
}

/// Reads `depth = 2` from an instance file, which must lie in `1..=max`.
pub fn read_depth(
    reader: &crate::input::Reader<'_>,
    doc: &crate::input::Doc,
    max: u32,
    hint: &str,
) -> Result<u32, crate::input::InputError> {
    let d = reader.int(doc, "depth = 2")?;
    u32::try_from(d)
        .ok()
        .filter(|&d| check_depth(d, max).is_ok())
        .ok_or_else(|| {
            reader.source.error(
                doc,
                format!("a lookahead of {d} plies: it must be 1 to {max}"),
                hint.to_string(),
            )
        })
}

/// Most nodes a budget may give: a search that large does not fit a page.
pub const MAX_BUDGET: u32 = 10_000;

/// The keys a file gives a horizon by: plies, a node budget divided among
/// the moves, iterative deepening under a node budget.
pub const HORIZON_KEYS: [&str; 3] = ["depth", "budget", "deepening"];

/// Reads `depth = 2` (where `depth` gives its limit and a hint), `budget =
/// 12` or `deepening = 40` from an instance file: at most one; `None` when
/// none is given.
pub fn read_horizon(
    reader: &crate::input::Reader<'_>,
    table: &crate::input::Table<'_>,
    depth: Option<(u32, &str)>,
) -> Result<Option<Horizon>, crate::input::InputError> {
    let given: Vec<(&str, &crate::input::Doc)> = HORIZON_KEYS
        .into_iter()
        .filter(|&k| k != "depth" || depth.is_some())
        .filter_map(|k| table.get(k).map(|d| (k, d)))
        .collect();
    match given.as_slice() {
        [] => Ok(None),
        [("depth", d)] => {
            let (max, hint) = depth.expect("read only when allowed");
            Ok(Some(Horizon::Depth(read_depth(reader, d, max, hint)?)))
        }
        [(key, d)] => {
            let n = reader.int(d, &format!("{key} = 12"))?;
            let n = u32::try_from(n)
                .ok()
                .filter(|n| (1..=MAX_BUDGET).contains(n))
                .ok_or_else(|| {
                    reader.source.error(
                        d,
                        format!("a node budget of {n}"),
                        format!("give a budget of 1 to {MAX_BUDGET} nodes"),
                    )
                })?;
            Ok(Some(if *key == "budget" {
                Horizon::Budget(n)
            } else {
                Horizon::Deepening(n)
            }))
        }
        [_, (key, d), ..] => Err(reader.source.error(
            d,
            format!("`{key}` and `{}` both say where the search stops", given[0].0),
            if depth.is_some() {
                "give one of depth (plies), budget (a node budget divided among the moves) and deepening (iterative deepening under a node budget)"
            } else {
                "give one of budget (a node budget divided among the children) and deepening (iterative deepening under a node budget)"
            }
            .to_string(),
        )),
    }
}

/// The key an instance file gives a horizon by.
pub fn horizon_key(h: Horizon) -> &'static str {
    match h {
        Horizon::Depth(_) => "depth",
        Horizon::Budget(_) => "budget",
        Horizon::Deepening(_) => "deepening",
    }
}

/// A generator's node budget: a search under a budget divided among the
/// moves, or iterative deepening, with the range its budget is drawn from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budgets {
    /// `budget = "4..10"`.
    pub budget: Option<(u32, u32)>,
    /// `deepening = "8..20"`.
    pub deepening: Option<(u32, u32)>,
}

impl Budgets {
    /// Neither: a search that stops at a depth.
    pub const NONE: Budgets = Budgets {
        budget: None,
        deepening: None,
    };

    /// Reads `budget = "4..10"` and `deepening = "8..20"`; `default` when
    /// the table gives neither (a budgeted kind's documented range).
    pub fn read(
        r: &crate::input::Reader<'_>,
        t: &crate::input::Table<'_>,
        default: Budgets,
    ) -> Result<Budgets, crate::input::InputError> {
        let range = |key| t.get(key).map(|d| r.small_range(d)).transpose();
        let given = Budgets {
            budget: range("budget")?,
            deepening: range("deepening")?,
        };
        Ok(if given.any() { given } else { default })
    }

    /// The key that gives this range, and the range (the first given).
    pub fn key_and_range(self) -> Option<(&'static str, (u32, u32))> {
        match (self.budget, self.deepening) {
            (Some(r), _) => Some(("budget", r)),
            (None, Some(r)) => Some(("deepening", r)),
            (None, None) => None,
        }
    }

    /// Whether either is given.
    pub fn any(self) -> bool {
        self.budget.is_some() || self.deepening.is_some()
    }

    /// Impossible ranges, named.
    pub fn validate(self) -> Result<(), crate::generate::GenerateError> {
        let invalid = |m: String| Err(crate::generate::GenerateError::Invalid(m));
        for (key, range) in [("budget", self.budget), ("deepening", self.deepening)] {
            if let Some((lo, hi)) = range
                && (lo == 0 || hi > MAX_BUDGET)
            {
                return invalid(format!(
                    "{key} = \"{lo}..{hi}\": a node budget lies between 1 and {MAX_BUDGET}"
                ));
            }
        }
        if self.budget.is_some() && self.deepening.is_some() {
            return invalid(
                "budget and deepening both say where the search stops: give one".to_string(),
            );
        }
        Ok(())
    }

    /// A horizon drawn from the range given, if one is (nothing is drawn
    /// otherwise, so that sets without budgets keep their seeds' instances).
    pub fn draw(self, rng: &mut crate::rng::Rng) -> Option<Horizon> {
        let draw = |rng: &mut crate::rng::Rng, (lo, hi): (u32, u32)| {
            rng.between(i64::from(lo), i64::from(hi)) as u32
        };
        match (self.budget, self.deepening) {
            (Some(range), _) => Some(Horizon::Budget(draw(rng, range))),
            (None, Some(range)) => Some(Horizon::Deepening(draw(rng, range))),
            (None, None) => None,
        }
    }

    /// Few instances make a budget's point (lines searched to different
    /// depths, at most `max_leaves` evaluated, on a page:
    /// [`budget_makes_its_point`]), and which budget does depends on the
    /// instance: of the range's budgets, from the one drawn on (wrapping
    /// round), the first that makes it from `root`; the drawn one if none does.
    pub fn budget_with_point<P: Position + Clone>(
        self,
        drawn: Horizon,
        root: &P,
        max_leaves: usize,
    ) -> Horizon {
        let (Horizon::Budget(b), Some((lo, hi))) = (drawn, self.budget) else {
            return drawn;
        };
        // A search under a budget depends on it only through what the root's
        // children get (`Horizon::split`): budgets that give them the same
        // are one search, counted once.
        let moves = root.child_count().max(1) as u32;
        let mut searched: Vec<(Option<u32>, bool)> = Vec::new();
        let mut makes_point = |b: u32| {
            let given = (b > 0).then(|| b / moves);
            if let Some(&(_, made)) = searched.iter().find(|(g, _)| *g == given) {
                return made;
            }
            let made = budget_makes_its_point(root, b, max_leaves);
            searched.push((given, made));
            made
        };
        (b..=hi)
            .chain(lo..b)
            .find(|&b| makes_point(b))
            .map_or(drawn, Horizon::Budget)
    }

    /// The constraint a budgeted search of `root` (its leaves at different
    /// depths when `uneven`) does not meet: lines searched to different
    /// depths under a budget; a deepening budget that runs out inside an
    /// iteration, after one completes.
    pub fn unmet<P: Position + Clone>(horizon: Horizon, root: &P, uneven: bool) -> Option<String> {
        match horizon {
            Horizon::Budget(_) if !uneven => Some("lines searched to different depths".to_string()),
            Horizon::Deepening(budget) => {
                let d = deepening(root, budget);
                (d.completed == 0 || d.exhausted).then(|| {
                    "a budget that runs out inside an iteration, after one completes".to_string()
                })
            }
            _ => None,
        }
    }
}

/// Whether a search's leaves lie at different depths.
pub fn uneven(t: &Tree) -> bool {
    let mut depths = t.leaves().map(|l| t.depth_of(l));
    let first = depths.next();
    !depths.all(|d| Some(d) == first)
}

/// Whether a search of `root` under `budget` evaluates nodes at different
/// depths, at most `max_leaves` of them; counted without evaluating, since
/// most positions and budgets are refused.
pub fn budget_makes_its_point<P: Position + Clone>(
    root: &P,
    budget: u32,
    max_leaves: usize,
) -> bool {
    frontier_depths(root, Horizon::Budget(budget), 4 * max_leaves)
        .is_some_and(|f| f.leaves <= max_leaves && f.uneven())
}

/// The keys every game shapes its search with.
pub const KEYS: &[&str] = &["depth", "min_cuts", "unique_best"];

/// Reads `depth`, `min_cuts` and `unique_best` over `search`'s defaults.
pub fn read_search(
    r: &crate::input::Reader<'_>,
    t: &crate::input::Table<'_>,
    mut search: Search,
) -> Result<Search, crate::input::InputError> {
    if let Some(d) = t.get("depth") {
        search.depth = r.small_int(d, "depth = 2")?;
    }
    search.min_cuts = r.count(t, "min_cuts")?;
    if let Some(d) = t.get("unique_best") {
        search.unique_best = r.bool(d, "unique_best = true")?;
    }
    Ok(search)
}
