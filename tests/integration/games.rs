//! The concrete games: lookahead trees against a direct recursive search over
//! positions, alpha-beta against minimax on them, and pinned generator seeds.

use treequiz::games::lookahead::Horizon;
use treequiz::games::othello::{self, Othello, Weights};
use treequiz::games::tictactoe::{self, Board, Mark, TicTacToe};
use treequiz::gametree::{Options, alpha_beta, minimax};
use treequiz::instance::Instance;
use treequiz::rng::Rng;
use treequiz::value::Value;

/// Minimax straight over tic-tac-toe boards, every move searched (no merging).
fn direct_ttt(board: Board, to_move: Mark, max: Mark, depth: u32) -> Value {
    if board.has_line(max) {
        return Value::PosInf;
    }
    if board.has_line(max.other()) {
        return Value::NegInf;
    }
    let empty = board.empty_cells();
    if depth == 0 || empty.is_empty() {
        return board.eval(max);
    }
    let values = empty
        .iter()
        .map(|&c| direct_ttt(board.play(c, to_move), to_move.other(), max, depth - 1));
    if to_move == max {
        values.max().unwrap()
    } else {
        values.min().unwrap()
    }
}

/// Minimax straight over Othello boards, passing when a side cannot move.
fn direct_othello(g: &Othello, board: othello::Board, to_move: othello::Side, depth: u32) -> Value {
    let moves = board.moves(to_move);
    if depth == 0 || board.finished() {
        return Value::Finite(board.eval(g.to_move, &g.weights));
    }
    let values: Vec<Value> = if moves.is_empty() {
        vec![direct_othello(g, board, to_move.other(), depth - 1)]
    } else {
        moves
            .iter()
            .map(|(m, _)| direct_othello(g, board.play(to_move, *m), to_move.other(), depth - 1))
            .collect()
    };
    let best = if to_move == g.to_move {
        values.iter().max()
    } else {
        values.iter().min()
    };
    *best.unwrap()
}

fn depth_of(h: Horizon) -> u32 {
    match h {
        Horizon::Depth(d) => d,
        _ => unreachable!("a depth"),
    }
}

/// The node-budget search as the course notes write it, over Othello boards:
/// `search(board, side, branches)` evaluates when `branches` is 0 or neither
/// side can move, and otherwise searches each move (or the pass) with
/// `branches / number of moves`. Returns the value, the nodes visited and
/// the nodes evaluated.
fn direct_budget(
    g: &Othello,
    board: othello::Board,
    to_move: othello::Side,
    branches: u32,
) -> (Value, usize, usize) {
    if branches == 0 || board.finished() {
        return (Value::Finite(board.eval(g.to_move, &g.weights)), 1, 1);
    }
    let moves = board.moves(to_move);
    let children: Vec<othello::Board> = if moves.is_empty() {
        vec![board]
    } else {
        moves.iter().map(|(m, _)| board.play(to_move, *m)).collect()
    };
    let each = branches / children.len() as u32;
    let (mut visited, mut evaluated) = (1, 0);
    let mut values = Vec::new();
    for child in children {
        let (v, n, e) = direct_budget(g, child, to_move.other(), each);
        values.push(v);
        visited += n;
        evaluated += e;
    }
    let best = if to_move == g.to_move {
        values.iter().max()
    } else {
        values.iter().min()
    };
    (*best.unwrap(), visited, evaluated)
}

/// Nodes a depth-limited search visits, counted by walking the boards.
fn direct_count(board: othello::Board, to_move: othello::Side, depth: u32) -> usize {
    if depth == 0 || board.finished() {
        return 1;
    }
    let moves = board.moves(to_move);
    if moves.is_empty() {
        return 1 + direct_count(board, to_move.other(), depth - 1);
    }
    1 + moves
        .iter()
        .map(|(m, _)| direct_count(board.play(to_move, *m), to_move.other(), depth - 1))
        .sum::<usize>()
}

fn all_options() -> Vec<Options> {
    super::procedures::every_options()
}

/// The move a node's label names, as a cell.
fn cell(name: &str) -> usize {
    let b = name.as_bytes();
    usize::from(b[0] - b'a') + 3 * usize::from(b[1] - b'1')
}

#[test]
fn tic_tac_toe_lookahead_equals_direct_search() {
    let mut checked = 0;
    for seed in 0..3_000u64 {
        let mut rng = Rng::from_seed(seed);
        let marks = rng.below(8) as u32;
        let Some(board) = tictactoe::random_position(marks, &mut rng) else {
            continue;
        };
        let game = TicTacToe {
            board,
            max: if rng.below(2) == 0 { Mark::X } else { Mark::O },
            first: Mark::X,
            depth: 1 + rng.below(4) as u32,
            symmetry: rng.below(2) == 0,
        };
        let look = game.lookahead();
        let t = &look.tree;
        let mm = minimax(t);
        let to_move = game.to_move();
        let direct = direct_ttt(board, to_move, game.max, game.depth);
        assert_eq!(mm.value, direct, "seed {seed}: {board}");
        // Every move kept (merged or not) has the value a full search gives it.
        for c in t.children(t.root()) {
            let after = board.play(cell(&t.label(c)), to_move);
            let v = direct_ttt(after, to_move.other(), game.max, game.depth - 1);
            assert_eq!(mm.of(t, c), v, "seed {seed}: {board} {}", t.label(c));
        }
        // Merging keeps one move per class of symmetric positions, and only one.
        let kept: Vec<Board> = t
            .children(t.root())
            .map(|c| board.play(cell(&t.label(c)), to_move))
            .collect();
        for (i, a) in kept.iter().enumerate() {
            for b in &kept[i + 1..] {
                assert!(!(game.symmetry && a.symmetric_to(b)), "seed {seed}");
            }
        }
        for options in all_options() {
            assert_eq!(alpha_beta(t, options).value, mm.value, "seed {seed}");
        }
        checked += 1;
    }
    assert!(checked > 2_000, "{checked}");
}

#[test]
fn othello_lookahead_equals_direct_search() {
    let mut passes = 0;
    for seed in 0..3_000u64 {
        let mut rng = Rng::from_seed(seed);
        // Half the positions late in the game, where passes and finished games happen.
        let plies = if seed % 2 == 0 {
            rng.below(50) as u32
        } else {
            50 + rng.below(10) as u32
        };
        let (board, to_move) =
            othello::board::random_position(plies, &mut |n| rng.below(n as u64) as usize);
        let mut weights = Weights::default();
        if rng.below(2) == 0 {
            weights.mobility = rng.between(-5, 5);
            weights.frontier = rng.between(-5, 5);
            weights.stable = rng.between(-5, 5);
            weights.potential = rng.between(-5, 5);
        }
        let game = Othello {
            board,
            to_move,
            // A pass at depth 1 only shows in the value three plies deep.
            horizon: Horizon::Depth(1 + rng.below(3) as u32),
            weights,
            regions: othello::REGIONS,
        };
        let look = game.lookahead();
        let t = &look.tree;
        passes += usize::from(t.ids().any(|id| t.label(id).ends_with(othello::PASS)));
        let mm = minimax(t);
        assert_eq!(
            mm.value,
            direct_othello(&game, board, to_move, depth_of(game.horizon)),
            "seed {seed}: {board}"
        );
        for options in all_options() {
            assert_eq!(alpha_beta(t, options).value, mm.value, "seed {seed}");
        }
    }
    assert!(passes >= 20, "only {passes} trees with a pass");
}

#[test]
fn game_seeds_are_pinned() {
    let ttt = tictactoe::generate(&tictactoe::Params::default(), 7).unwrap();
    insta::assert_snapshot!("tictactoe_seed_7", Instance::TicTacToe(ttt).to_toml());
    let params = tictactoe::Params {
        marks: (1, 3),
        search: treequiz::games::lookahead::Search {
            min_cuts: Some(3),
            ..treequiz::games::lookahead::Search::plies(2)
        },
        ..Default::default()
    };
    let ttt = tictactoe::generate(&params, 2026).unwrap();
    insta::assert_snapshot!(
        "tictactoe_seed_2026_cuts",
        Instance::TicTacToe(ttt).to_toml()
    );
    let oth = othello::generate(&othello::Params::default(), 7).unwrap();
    insta::assert_snapshot!("othello_seed_7", Instance::Othello(Box::new(oth)).to_toml());
    let grundy = treequiz::games::grundy::Params::default().generate(7);
    insta::assert_snapshot!("grundy_seed_7", format!("{grundy:?}"));
}

/// Every generated exercise fits its page and has the cuts it was asked for.
#[test]
fn generated_positions_meet_their_constraints() {
    for seed in 0..300 {
        let p = tictactoe::Params {
            search: treequiz::games::lookahead::Search {
                min_cuts: Some(2),
                ..treequiz::games::lookahead::Search::plies(2)
            },
            ..Default::default()
        };
        let g = tictactoe::generate(&p, seed).unwrap();
        assert!(
            !g.board.finished() && g.unreachable().is_none(),
            "seed {seed}"
        );
        assert_eq!(g.root_player(), treequiz::gametree::Player::Max);
        let t = g.lookahead().tree;
        assert!(
            alpha_beta(&t, Options::default()).cuts.len() >= 2,
            "seed {seed}"
        );
        let o = othello::generate(
            &othello::Params {
                search: treequiz::games::lookahead::Search::plies(2),
                ..Default::default()
            },
            seed,
        )
        .unwrap();
        assert!(!o.board.moves(o.to_move).is_empty(), "seed {seed}");
        assert!(o.lookahead().tree.leaves().count() <= othello::MAX_LEAVES);
    }
}

/// The coin limit of exercises is where the game graph stops fitting an A4 page (170 mm).
#[test]
fn grundy_graphs_of_exercise_size_fit_the_page() {
    use treequiz::games::grundy::{MAX_EXERCISE_COINS, solve};
    use treequiz::gametree::Player;
    let width = |n| treequiz::draw::grundy_figure(&solve(n, Player::Max), None).width;
    for n in 3..=MAX_EXERCISE_COINS {
        assert!(width(n) <= 170.0, "{n} coins: {} mm", width(n));
    }
    assert!(width(MAX_EXERCISE_COINS + 1) > 170.0);
}

/// The node-budget search and iterative deepening under a node budget,
/// against the procedures written straight over boards, on 3,000 random
/// positions: the same nodes visited and evaluated and the same value; the
/// same deepest completed iteration.
#[test]
fn node_budgets_are_the_notes_procedure() {
    let mut rng = Rng::from_seed(0xB0D6E7);
    let (mut uneven, mut stopped_mid) = (0, 0);
    for seed in 0..3000u64 {
        let plies = rng.between(0, 56) as u32;
        let (board, to_move) =
            othello::board::random_position(plies, &mut |n| rng.below(n as u64) as usize);
        let budget = rng.between(1, 40) as u32;
        let mut game = Othello {
            board,
            to_move,
            horizon: Horizon::Budget(budget),
            weights: Weights::default(),
            regions: othello::REGIONS,
        };
        let look = game.lookahead();
        let t = &look.tree;
        let (value, visited, evaluated) = direct_budget(&game, board, to_move, budget);
        assert_eq!(
            minimax(t).value,
            value,
            "seed {seed}: {board} budget {budget}"
        );
        assert_eq!(t.len(), visited, "seed {seed}");
        assert_eq!(t.leaves().count(), evaluated, "seed {seed}");
        assert_eq!(look.allowances[0], budget);
        let depths: std::collections::BTreeSet<usize> = t.leaves().map(|l| t.depth_of(l)).collect();
        uneven += usize::from(depths.len() > 1);

        // Iterative deepening: iteration d costs the depth-d tree's nodes.
        let total = rng.between(1, 200) as u32;
        let (mut before, mut completed) = (0, 0);
        for depth in 1..=64 {
            let n = direct_count(board, to_move, depth) as u32;
            if before + n > total {
                stopped_mid += usize::from(before < total);
                break;
            }
            before += n;
            completed = depth;
            if direct_count(board, to_move, depth + 1) as u32 == n {
                break;
            }
        }
        let d = game.deepening(total);
        assert_eq!(
            d.completed, completed,
            "seed {seed}: {board} budget {total}"
        );
        game.horizon = Horizon::Deepening(total);
        if completed > 0 {
            let deep = game.lookahead();
            assert_eq!(deep.tree.len(), direct_count(board, to_move, completed));
        }
    }
    assert!(uneven > 300 && stopped_mid > 1000, "{uneven} {stopped_mid}");
}
