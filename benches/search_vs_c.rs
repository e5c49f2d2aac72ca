//! treequiz's minimax and alpha-beta against a tight C arena implementation
//! (`benches/c/ab.c`, built here with `gcc -O2`) on the same SplitMix64 trees.
//! Beside the targets (against C's bare searches) it prints the like-for-like
//! figures: `alpha_beta` against C recording the same trace, and `minimax()`
//! against C keeping every value it keeps (16 bytes for each node above the
//! deepest level; the leaves there are the tree's), as it does; each anchor's
//! counts (steps, cuts, pruned roots, bounds) must equal treequiz's.
//!
//! `cargo bench --bench search_vs_c` runs `ROUNDS` interleaved rounds (C, then
//! treequiz, each the best of `REPS` runs in the round) and prints each
//! search's time over C's as min / median / max over the rounds, beside the
//! targets (issue 31), with the load average before and after. Results
//! (values, leaves read) must agree with C; times are only printed.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use treequiz::gametree::Tree;
use treequiz::gametree::tree::splitmix_tree;
use treequiz::gametree::{self, Options};
use treequiz::value::Value;

const TREES: [(u32, u32, u64); 3] = [(4, 10, 1), (8, 7, 1), (4, 11, 1)];
const REPS: usize = 10;
const ROUNDS: usize = 5;

/// Targets: treequiz / C.
const MINIMAX_TARGET: f64 = 1.3;
const UNTRACED_TARGET: f64 = 1.3;
const TRACED_TARGET: f64 = 3.0;
const ALL_VALUES_TARGET: f64 = 2.0;
/// The like-for-like bar (C doing the same work), as for the bare searches.
const SAME_WORK_TARGET: f64 = 1.3;

/// Best of `REPS` runs, in seconds, with the last result. Each run follows a
/// `minimax_value` pass over the tree, as each of C's alpha-beta runs follows
/// its minimax: the same tree in cache for both (a 17 MB tree fits in L3).
fn best<T>(tree: &Tree, mut f: impl FnMut() -> T) -> (T, f64) {
    let mut best = f64::INFINITY;
    let mut out = None;
    for _ in 0..REPS {
        black_box(gametree::minimax_value(black_box(tree)));
        let start = Instant::now();
        let r = black_box(f());
        best = best.min(start.elapsed().as_secs_f64());
        out = Some(r);
    }
    (out.expect("REPS > 0"), best)
}

/// Compiles the C reference; `None` (with a note) when gcc is missing or fails.
fn build_c() -> Option<PathBuf> {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/c/ab.c");
    let exe = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("search_vs_c_ab");
    match Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(&src)
        .status()
    {
        Ok(s) if s.success() => Some(exe),
        Ok(s) => {
            println!(
                "note: gcc -O2 {} failed ({s}); C side skipped",
                src.display()
            );
            None
        }
        Err(e) => {
            println!("note: gcc not available ({e}); C side skipped");
            None
        }
    }
}

/// The C program's `key value` lines.
fn run_c(exe: &PathBuf, (b, d, seed): (u32, u32, u64)) -> BTreeMap<String, String> {
    let out = Command::new(exe)
        .args([
            b.to_string(),
            d.to_string(),
            seed.to_string(),
            REPS.to_string(),
        ])
        .output()
        .expect("run the C reference");
    assert!(out.status.success(), "C reference failed");
    String::from_utf8(out.stdout)
        .expect("ASCII output")
        .lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// min / median / max of ratios, flagged against `target`.
fn spread(mut r: Vec<f64>, target: f64) -> String {
    r.sort_by(f64::total_cmp);
    let (min, med, max) = (r[0], r[r.len() / 2], r[r.len() - 1]);
    let flag = if med <= target { "ok" } else { "OVER" };
    format!("{min:.2} / {med:.2} / {max:.2}x (≤ {target:.1}x {flag})")
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

fn main() {
    let Some(c) = build_c() else { return };
    println!("load average before: {}", loadavg());
    println!(
        "SplitMix64 trees, root MAX; alpha-beta left to right, prune on equal. Each figure is treequiz / C, min / median / max over {ROUNDS} interleaved rounds (each the best of {REPS} runs); the flag compares the median with the target."
    );
    for spec in TREES {
        let (b, d, _) = spec;
        let tree = splitmix_tree(b, d, spec.2).expect("a bench tree fits the arena");
        let n = tree.len();
        assert_eq!(tree.leaves().count(), (b as usize).pow(d));
        let mut ratios: [Vec<f64>; 4] = Default::default();
        let (mut same_trace, mut same_values, mut c_trace) = (Vec::new(), Vec::new(), Vec::new());
        let (mut c_ab_leaf, mut all_ns, mut floor_ns) = (Vec::new(), Vec::new(), Vec::new());
        let (mut trace_bytes, mut trace_floor) = (Vec::new(), Vec::new());
        let mut read = 0;
        for _ in 0..ROUNDS {
            let got = run_c(&c, spec);
            let num = |k: &str| got[k].parse::<f64>().expect("a number");
            let (c_mm, c_ab) = (num("minimax_s"), num("alphabeta_s"));
            let (c_all, c_traced) = (num("all_values_s"), num("traced_s"));
            let (mm, t_mm) = best(&tree, || gametree::minimax_value(black_box(&tree)));
            let (all, t_all) = best(&tree, || gametree::minimax(black_box(&tree)));
            // The floor of what `minimax()` keeps: a buffer of one `Value` for
            // each node above the deepest level, allocated and written once
            // (the page faults included).
            let kept = tree.deepest_level_start();
            let (_, t_floor) = best(&tree, || vec![Value::NegInf; black_box(kept)]);
            let (ab, t_ab) = best(&tree, || {
                let s = gametree::alpha_beta_summary(black_box(&tree), Options::default());
                (s.value, s.leaves_evaluated)
            });
            let (tr, t_tr) = best(&tree, || {
                gametree::alpha_beta(black_box(&tree), Options::default())
            });
            assert_eq!(got["nodes"], n.to_string());
            assert_eq!(Value::Finite(got["minimax"].parse().unwrap()), mm);
            assert_eq!(Value::Finite(got["alphabeta"].parse().unwrap()), ab.0);
            assert_eq!(got["leaves_read"], ab.1.to_string(), "leaves read");
            assert_eq!((all.value, ab.0, tr.value), (mm, mm, mm));
            assert_eq!(tr.evaluated.len(), ab.1);
            // C's anchors did the same work: every value, and the same trace.
            assert_eq!(Value::Finite(got["all_values_root"].parse().unwrap()), mm);
            assert_eq!(Value::Finite(got["traced_value"].parse().unwrap()), mm);
            let count = |k: &str| got[k].parse::<usize>().expect("a count");
            assert_eq!(count("traced_leaves_read"), tr.evaluated.len());
            assert_eq!(count("traced_steps"), tr.steps().len());
            assert_eq!(count("traced_cuts"), tr.cuts.len());
            assert_eq!(count("traced_pruned"), tr.pruned.len());
            assert_eq!(count("traced_bounds"), tr.bounds().count());
            same_trace.push(t_tr / c_traced);
            same_values.push(t_all / c_all);
            c_trace.push(c_traced / c_ab);
            read = ab.1;
            // What the trace holds: 16-byte steps, a 4-byte index a bound,
            // the cuts, the leaves read and the pruned roots; and what writing
            // that many bytes into fresh memory costs alone.
            let bytes = tr.steps().len() * 16
                + tr.bounds().count() * 4
                + tr.cuts.len() * std::mem::size_of::<gametree::Cut>()
                + (tr.evaluated.len() + tr.pruned.len()) * 4;
            trace_bytes.push(bytes as f64);
            let (_, t_bytes) = best(&tree, || vec![1u8; black_box(bytes)]);
            trace_floor.push(t_bytes / c_ab);
            ratios[0].push(t_mm / c_mm);
            ratios[1].push(t_ab / c_ab);
            ratios[2].push(t_tr / c_ab);
            ratios[3].push(t_all / c_mm);
            c_ab_leaf.push(c_ab * 1e9 / read as f64);
            all_ns.push(t_all * 1e9 / n as f64);
            floor_ns.push(t_floor * 1e9 / n as f64);
        }
        let median = |mut v: Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        println!(
            "\n({b},{d}): {n} nodes, {} leaves, alpha-beta reads {read} (C: {:.2} ns a leaf read)",
            (b as usize).pow(d),
            median(c_ab_leaf)
        );
        let [mm, ab, tr, all] = ratios;
        println!(
            "  minimax_value (root only) / C minimax:      {}",
            spread(mm, MINIMAX_TARGET)
        );
        println!(
            "  alpha_beta_summary (untraced) / C:         {}",
            spread(ab, UNTRACED_TARGET)
        );
        println!(
            "  alpha_beta (full trace) / C alpha-beta:    {}",
            spread(tr, TRACED_TARGET)
        );
        println!(
            "    its trace, {:.1} MB, written once into fresh memory alone: {:.2}x C",
            median(trace_bytes) / 1e6,
            median(trace_floor)
        );
        println!(
            "    C recording the same trace / C alpha-beta:  {:.2}x; alpha_beta / C with the same trace: {}",
            median(c_trace),
            spread(same_trace, SAME_WORK_TARGET)
        );
        println!(
            "  minimax() every node's value / C minimax:  {}, {:.2} ns a node; the fresh buffer it keeps, alone: {:.2} ns a node",
            spread(all, ALL_VALUES_TARGET),
            median(all_ns),
            median(floor_ns)
        );
        println!(
            "    minimax() / C keeping the same values (16 bytes above the deepest level, malloc, as treequiz): {}",
            spread(same_values, SAME_WORK_TARGET)
        );
    }
    println!("\nload average after: {}", loadavg());
}
