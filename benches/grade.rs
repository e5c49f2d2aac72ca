//! Grading benchmark: prints figures, asserts nothing about time.
//!
//! `cargo bench --bench grade`: `treequiz grade --manifest` on 1,000, 3,000
//! and 10,000 answer files of the six-exercise Chinese midterm against the
//! manifest of a 10,000-student roster (every file a perfect key, so every
//! field is compared), reports written, beside the targets (10,000 files in
//! < 10 s and < 200 MiB; linear in the files). Peak memory is printed where
//! `/usr/bin/time` exists.

use std::process::Command;
use std::time::Instant;

fn main() {
    let bin = env!("CARGO_BIN_EXE_treequiz");
    let dir = std::env::temp_dir().join(format!("treequiz-bench-grade-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let rows: Vec<String> = (1..=10_000).map(|i| format!("2026{i:05}")).collect();
    std::fs::write(dir.join("class.csv"), format!("id\n{}\n", rows.join("\n"))).unwrap();
    let set = concat!(env!("CARGO_MANIFEST_DIR"), "/problem-sets/midterm-zh.toml");
    let status = Command::new(bin)
        .current_dir(&dir)
        .args([
            "generate",
            set,
            "--roster",
            "class.csv",
            "--out",
            "exam",
            "--format",
            "md",
        ])
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    println!(
        "treequiz grade --manifest, midterm-zh (6 exercises, 10,000 variants), perfect answer files, best of 3 runs (targets: 10,000 files < 10 s and < 200 MiB)\n"
    );
    let time = std::path::Path::new("/usr/bin/time").exists();
    println!(
        "{:>8} {:>10} {:>14} {:>12}",
        "files", "seconds", "ms per file", "peak MiB"
    );
    let mut per_file = Vec::new();
    for n in [1_000usize, 3_000, 10_000] {
        let subs = dir.join(format!("subs-{n}"));
        std::fs::create_dir_all(&subs).unwrap();
        for id in rows.iter().take(n) {
            std::fs::copy(
                dir.join(format!("exam/keys/{id}/key.toml")),
                subs.join(format!("{id}.toml")),
            )
            .unwrap();
        }
        let mut best = f64::INFINITY;
        let mut peak = String::from("-");
        for _ in 0..3 {
            let start = Instant::now();
            let mut cmd = if time {
                let mut c = Command::new("/usr/bin/time");
                c.args(["-f", "%M", bin]);
                c
            } else {
                Command::new(bin)
            };
            let out = cmd
                .current_dir(&dir)
                .args([
                    "grade",
                    "--manifest",
                    "exam/manifest.json",
                    subs.to_str().unwrap(),
                    "--out",
                    &format!("report-{n}"),
                    "--force",
                ])
                .output()
                .unwrap();
            // Exit code 1 below 10,000 files: students who handed nothing in are listed as missing.
            assert!(
                matches!(out.status.code(), Some(0 | 1)),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            best = best.min(start.elapsed().as_secs_f64());
            if time
                && let Some(kib) = String::from_utf8_lossy(&out.stderr)
                    .lines()
                    .last()
                    .and_then(|l| l.trim().parse::<u64>().ok())
            {
                peak = (kib / 1024).to_string();
            }
        }
        per_file.push(best / n as f64);
        println!(
            "{n:>8} {best:>10.3} {:>14.2} {peak:>12}{}",
            best * 1000.0 / n as f64,
            if n == 10_000 {
                "   (targets: < 10 s, < 200 MiB)".to_string()
            } else {
                String::new()
            }
        );
    }
    let growth = per_file[2] / per_file[0];
    println!(
        "time per file, 10,000 vs 1,000 files: {growth:.2}x{}",
        if growth > 1.25 {
            " (worse than linear)"
        } else {
            " (linear)"
        }
    );
    let _ = std::fs::remove_dir_all(&dir);
}
