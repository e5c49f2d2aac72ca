//! The concrete games: lookahead trees against a direct recursive search over
//! positions, alpha-beta against minimax on them, and pinned generator seeds.

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
            assert_eq!(
                mm.values[c.index()],
                v,
                "seed {seed}: {board} {}",
                t.label(c)
            );
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
            depth: 1 + rng.below(3) as u32,
            weights,
            regions: othello::REGIONS,
        };
        let look = game.lookahead();
        let t = &look.tree;
        passes += usize::from(t.ids().any(|id| t.label(id).ends_with(othello::PASS)));
        let mm = minimax(t);
        assert_eq!(
            mm.value,
            direct_othello(&game, board, to_move, game.depth),
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
