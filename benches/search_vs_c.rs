//! treequiz's minimax and alpha-beta against a tight C arena implementation
//! (`benches/c/ab.c`, built here with `gcc -O2`) on the same SplitMix64 trees.
//!
//! `cargo bench --bench search_vs_c` prints ns per tree node and per leaf read,
//! best of several runs each. Results (values, leaves read) must agree with C;
//! times are only printed.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use treequiz::gametree::tree::splitmix_tree;
use treequiz::gametree::{self, Options};
use treequiz::value::Value;

const TREES: [(u32, u32, u64); 3] = [(4, 10, 1), (8, 7, 1), (4, 11, 1)];
const REPS: usize = 5;

/// Best of `REPS` runs, in seconds, with the last result.
fn best<T>(mut f: impl FnMut() -> T) -> (T, f64) {
    let mut best = f64::INFINITY;
    let mut out = None;
    for _ in 0..REPS {
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

fn ratio(rust: f64, c: Option<f64>) -> String {
    c.map_or("-".into(), |c| format!("{:.2}x", rust / c))
}

fn ns(secs: Option<f64>, per: usize) -> String {
    secs.map_or("-".into(), |s| format!("{:.2}", s * 1e9 / per as f64))
}

fn main() {
    let c = build_c();
    println!(
        "SplitMix64 trees, root MAX; alpha-beta left to right, prune on equal. ns per tree node (and per leaf read for alpha-beta); ratio = treequiz / C."
    );
    println!(
        "{:>8} {:>9} {:>9} {:>8} | {:>7} {:>7} {:>6} | {:>7} {:>7} {:>6} {:>8} {:>8} | {:>7} {:>8} {:>6}",
        "(b,d)",
        "nodes",
        "leaves",
        "read",
        "mm C",
        "mm tq",
        "ratio",
        "ab C",
        "ab tq",
        "ratio",
        "C/leaf",
        "tq/leaf",
        "traced",
        "tr/leaf",
        "ratio",
    );
    let mut full_minimax = Vec::new();
    for spec in TREES {
        let (b, d, _) = spec;
        let tree = splitmix_tree(spec.0, spec.1, spec.2).expect("a bench tree fits the arena");
        let leaves = (b as usize).pow(d);
        assert_eq!(tree.leaves().count(), leaves);
        let (mm, t_mm) = best(|| gametree::minimax_value(black_box(&tree)));
        let (all, t_all) = best(|| gametree::minimax(black_box(&tree)));
        let (ab, t_ab) = best(|| {
            let s = gametree::alpha_beta_summary(black_box(&tree), Options::default());
            (s.value, s.leaves_evaluated)
        });
        let (tr, t_tr) = best(|| gametree::alpha_beta(black_box(&tree), Options::default()));
        assert_eq!(mm, ab.0);
        assert_eq!(all.value, mm);
        full_minimax.push((format!("({b},{d})"), t_all * 1e9 / tree.len() as f64));
        assert_eq!(tr.value, ab.0);
        assert_eq!(tr.evaluated.len(), ab.1);
        let read = ab.1;
        let (c_mm, c_ab) = match &c {
            Some(exe) => {
                let got = run_c(exe, spec);
                let num = |k: &str| got[k].parse::<f64>().expect("a number");
                assert_eq!(got["nodes"], tree.len().to_string());
                assert_eq!(Value::Finite(got["minimax"].parse().unwrap()), mm);
                assert_eq!(Value::Finite(got["alphabeta"].parse().unwrap()), ab.0);
                assert_eq!(got["leaves_read"], read.to_string(), "leaves read");
                (Some(num("minimax_s")), Some(num("alphabeta_s")))
            }
            None => (None, None),
        };
        let n = tree.len();
        println!(
            "{:>8} {:>9} {:>9} {:>8} | {:>7} {:>7} {:>6} | {:>7} {:>7} {:>6} {:>8} {:>8} | {:>7} {:>8} {:>6}",
            format!("({b},{d})"),
            n,
            leaves,
            read,
            ns(c_mm, n),
            ns(Some(t_mm), n),
            ratio(t_mm, c_mm),
            ns(c_ab, n),
            ns(Some(t_ab), n),
            ratio(t_ab, c_ab),
            ns(c_ab, read),
            ns(Some(t_ab), read),
            ns(Some(t_tr), n),
            ns(Some(t_tr), read),
            ratio(t_tr, c_ab),
        );
    }
    println!(
        "mm = minimax_value (root value only), ab = alpha_beta_summary (untraced), traced = alpha_beta (full trace); every ratio is against C's untraced search."
    );
    for (t, ns) in full_minimax {
        println!("minimax() with every node's value, {t}: {ns:.2} ns/node");
    }
}
