//! Grading benchmark: prints figures, asserts nothing about time.
//!
//! `cargo bench --bench grade`: `treequiz grade --manifest` for classes of
//! 1,000, 3,000 and 10,000 students of the six-exercise Chinese midterm, each
//! student's answer file (a perfect key, so every field is compared) against
//! the class's manifest, reports written, beside the targets (10,000 files in
//! < 10 s and < 200 MiB; linear in files and variants). Peak memory is
//! printed where `/usr/bin/time` exists.

use std::process::Command;
use std::time::Instant;

fn main() {
    let bin = env!("CARGO_BIN_EXE_treequiz");
    let dir = std::env::temp_dir().join(format!("treequiz-bench-grade-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let set = concat!(env!("CARGO_MANIFEST_DIR"), "/problem-sets/midterm-zh.toml");
    println!(
        "treequiz grade --manifest, midterm-zh (6 exercises): a class of N, its N perfect answer files against its N-variant manifest, best of 3 runs (targets: 10,000 files < 10 s and < 200 MiB; linear)\n"
    );
    let time = std::path::Path::new("/usr/bin/time").exists();
    println!(
        "{:>8} {:>12} {:>10} {:>14} {:>12}",
        "files", "manifest MB", "seconds", "ms per file", "peak MiB"
    );
    let mut per_file = Vec::new();
    for n in [1_000usize, 3_000, 10_000] {
        let rows: Vec<String> = (1..=n).map(|i| format!("2026{i:05}")).collect();
        let class = dir.join(format!("class-{n}.csv"));
        std::fs::write(&class, format!("id\n{}\n", rows.join("\n"))).unwrap();
        let exam = dir.join(format!("exam-{n}"));
        let made = Command::new(bin)
            .args(["generate", set, "--roster"])
            .arg(&class)
            .arg("--out")
            .arg(&exam)
            .args(["--format", "md"])
            .output()
            .unwrap();
        assert!(
            made.status.success(),
            "{}",
            String::from_utf8_lossy(&made.stderr)
        );
        let subs = dir.join(format!("subs-{n}"));
        std::fs::create_dir_all(&subs).unwrap();
        for id in &rows {
            std::fs::copy(
                exam.join(format!("keys/{id}/key.toml")),
                subs.join(format!("{id}.toml")),
            )
            .unwrap();
        }
        let manifest = exam.join("manifest.json");
        let mb = std::fs::metadata(&manifest).unwrap().len() as f64 / 1e6;
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
                .args(["grade", "--manifest"])
                .arg(&manifest)
                .arg(&subs)
                .arg("--out")
                .arg(dir.join(format!("report-{n}")))
                .arg("--force")
                .output()
                .unwrap();
            assert!(
                out.status.success(),
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
            "{n:>8} {mb:>12.1} {best:>10.3} {:>14.2} {peak:>12}{}",
            best * 1000.0 / n as f64,
            if n == 10_000 {
                "   (targets: < 10 s, < 200 MiB)"
            } else {
                ""
            }
        );
    }
    let growth = per_file[2] / per_file[0];
    println!(
        "time per file, 10,000 vs 1,000: {growth:.2}x{}",
        if growth > 1.25 {
            " (worse than linear)"
        } else {
            " (linear)"
        }
    );
    let _ = std::fs::remove_dir_all(&dir);
}
