//! Class-set benchmark: prints figures, asserts nothing about time.
//!
//! `cargo bench --bench class`: `treequiz generate` on the six-exercise Chinese
//! midterm and on the four-exercise games set for rosters of 75, 150 and 300
//! students, every format (md, html, tex; LaTeX is written, not compiled),
//! files written to disk.

use std::process::Command;
use std::time::Instant;

fn main() {
    let bin = env!("CARGO_BIN_EXE_treequiz");
    let dir = std::env::temp_dir().join(format!("treequiz-bench-class-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (set, what) in [
        ("midterm-zh", "6 exercises"),
        ("games", "tic-tac-toe, Grundy, Othello, tic-tac-toe"),
    ] {
        run_set(bin, &dir, set, what);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn run_set(bin: &str, dir: &std::path::Path, set: &str, what: &str) {
    println!(
        "\ntreequiz generate, problem-sets/{set}.toml ({what}), md + html + tex, best of 3 runs\n"
    );
    println!(
        "{:>9} {:>8} {:>10} {:>10} {:>12}",
        "students", "files", "MB", "seconds", "ms/student"
    );
    for students in [75, 150, 300] {
        let roster = dir.join(format!("class-{students}.csv"));
        let rows: Vec<String> = (1..=students)
            .map(|i| format!("2026{i:04},Student {i}"))
            .collect();
        std::fs::write(&roster, format!("id,name\n{}\n", rows.join("\n"))).unwrap();
        let out = dir.join(format!("out-{set}-{students}"));
        let mut best = f64::INFINITY;
        for _ in 0..3 {
            let _ = std::fs::remove_dir_all(&out);
            let start = Instant::now();
            let status = Command::new(bin)
                .args([
                    "generate",
                    &format!("problem-sets/{set}.toml"),
                    "--roster",
                    roster.to_str().unwrap(),
                    "--out",
                    out.to_str().unwrap(),
                ])
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .output()
                .unwrap();
            assert!(
                status.status.success(),
                "{}",
                String::from_utf8_lossy(&status.stderr)
            );
            best = best.min(start.elapsed().as_secs_f64());
        }
        let (mut files, mut bytes) = (0u64, 0u64);
        let mut todo = vec![out.clone()];
        while let Some(d) = todo.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    todo.push(p);
                } else {
                    files += 1;
                    bytes += p.metadata().unwrap().len();
                }
            }
        }
        println!(
            "{students:>9} {files:>8} {:>10.1} {best:>10.3} {:>12.2}",
            bytes as f64 / 1e6,
            best * 1000.0 / f64::from(students)
        );
    }
}
