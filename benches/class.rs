//! Class-set benchmark: prints figures, asserts nothing about time.
//!
//! `cargo bench --bench class`: `treequiz generate` on the six-exercise Chinese
//! midterm and on the four-exercise games set for rosters of 75, 150 and 300
//! students, every format (md, html, tex; LaTeX is written, not compiled),
//! files written to disk.
//!
//! Then the class size: the command teachers run for an exam (`--secret
//! --roster`, default formats) on the midterm for 1,000, 3,000 and 10,000
//! students (`TREEQUIZ_BENCH_CLASS=N` for another largest size), one run
//! each, with the targets (10,000 in < 60 s and < 500 MB, memory flat in the
//! class size), the peak memory and CPU time from `/usr/bin/time -v` where it exists, and the
//! time per student over the first and the last thousand students: CPU time
//! from `/proc` (sampled as the students' key folders appear in the staging
//! folder), wall time from the key files' modification times.
//! `TREEQUIZ_BENCH_BASELINE=path/to/an/older/treequiz` runs that binary on the
//! same rosters in the same run, for a before/after comparison.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

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
    class_size(bin, &dir);
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
        let roster = roster(dir, students);
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
        let (files, bytes) = size(&out);
        println!(
            "{students:>9} {files:>8} {:>10.1} {best:>10.3} {:>12.2}",
            bytes as f64 / 1e6,
            best * 1000.0 / f64::from(students)
        );
    }
}

/// A roster of `students` ids `2026xxxxx` with names.
fn roster(dir: &Path, students: u32) -> PathBuf {
    let path = dir.join(format!("class-{students}.csv"));
    let rows: Vec<String> = (1..=students)
        .map(|i| format!("2026{i:05},Student {i}"))
        .collect();
    std::fs::write(&path, format!("id,name\n{}\n", rows.join("\n"))).unwrap();
    path
}

/// Files and bytes under `dir`.
fn size(dir: &Path) -> (u64, u64) {
    let (mut files, mut bytes) = (0u64, 0u64);
    let mut todo = vec![dir.to_path_buf()];
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
    (files, bytes)
}

/// One `generate` run, measured.
struct Run {
    wall: f64,
    /// User + system seconds and peak resident memory (KiB), from `/usr/bin/time -v`.
    cpu: Option<f64>,
    /// System seconds (part of `cpu`): creating and writing the files.
    sys: Option<f64>,
    rss_kib: Option<u64>,
    /// (students whose key folder exists in the staging folder, CPU seconds so far).
    progress: Vec<(usize, f64)>,
}

/// The CPU seconds (user + system) `pid` has used, from `/proc/PID/stat`
/// (clock ticks of 1/100 s, Linux's USER_HZ).
fn cpu_of(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which is in parentheses): state is field 3, utime 14, stime 15.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// The first child of `pid` (the treequiz that `/usr/bin/time` started).
fn child_of(pid: u32) -> Option<u32> {
    std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children"))
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

fn measure(bin: &str, roster: &Path, secret: &Path, out: &Path) -> Run {
    let _ = std::fs::remove_dir_all(out);
    let timed = Path::new("/usr/bin/time").exists();
    let mut command = if timed {
        let mut c = Command::new("/usr/bin/time");
        c.args(["-v", bin]);
        c
    } else {
        Command::new(bin)
    };
    command
        .args(["generate", "problem-sets/midterm-zh.toml", "--roster"])
        .arg(roster)
        .arg("--secret")
        .arg(secret)
        .arg("--out")
        .arg(out)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    let staging_keys = out
        .with_file_name(format!(
            ".{}.treequiz-partial",
            out.file_name().unwrap().to_string_lossy()
        ))
        .join("keys");
    let start = Instant::now();
    let mut child = command.spawn().unwrap();
    let mut progress = Vec::new();
    let mut pid = (!timed).then_some(child.id());
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if pid.is_none() {
            pid = child_of(child.id());
        }
        if let (Some(pid), Ok(keys)) = (pid, std::fs::read_dir(&staging_keys)) {
            let done = keys.count();
            if let Some(cpu) = cpu_of(pid) {
                progress.push((done, cpu));
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let wall = start.elapsed().as_secs_f64();
    let output = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{err}");
    let field = |name: &str| {
        err.lines()
            .find_map(|l| l.trim().strip_prefix(name))
            .and_then(|v| v.trim().parse::<f64>().ok())
    };
    let cpu = field("User time (seconds):")
        .zip(field("System time (seconds):"))
        .map(|(u, s)| u + s);
    Run {
        wall,
        cpu,
        sys: field("System time (seconds):"),
        rss_kib: field("Maximum resident set size (kbytes):").map(|k| k as u64),
        progress,
    }
}

/// CPU seconds when `done` students had started, interpolated between samples.
fn cpu_at(progress: &[(usize, f64)], done: usize) -> Option<f64> {
    let after = progress.iter().position(|&(d, _)| d >= done)?;
    let (d1, c1) = progress[after];
    if after == 0 || d1 == done {
        return Some(c1);
    }
    let (d0, c0) = progress[after - 1];
    Some(c0 + (c1 - c0) * (done - d0) as f64 / (d1 - d0) as f64)
}

/// Milliseconds per student between roster rows `from` and `to` (1-based),
/// from the modification times of their `keys/<id>/key.toml`.
fn wall_ms_per_student(out: &Path, from: u32, to: u32) -> Option<f64> {
    let at = |i: u32| {
        std::fs::metadata(out.join(format!("keys/2026{i:05}/key.toml")))
            .and_then(|m| m.modified())
            .ok()
    };
    let span = at(to)?.duration_since(at(from)?).ok()?;
    Some(span.as_secs_f64() * 1000.0 / f64::from(to - from))
}

fn class_size(bin: &str, dir: &Path) {
    let large: u32 = std::env::var("TREEQUIZ_BENCH_CLASS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n >= 2000)
        .unwrap_or(10_000);
    let baseline = std::env::var("TREEQUIZ_BENCH_BASELINE").ok();
    println!(
        "\nClass size: problem-sets/midterm-zh.toml --secret --roster, md + html + tex, one run each (targets: {large} students in < 60 s and < 500 MB; memory flat)\n"
    );
    let secret = dir.join("exam.secret");
    let made = Command::new(bin).arg("secret").output().unwrap();
    assert!(made.status.success());
    std::fs::write(&secret, &made.stdout).unwrap();
    println!(
        "{:>9} {:>9} {:>8} {:>9} {:>9} {:>9} {:>9} {:>11} {:>12} {:>12}",
        "binary",
        "students",
        "files",
        "MB",
        "wall s",
        "CPU s",
        "sys s",
        "peak MiB",
        "wall ms/st",
        "CPU ms/st"
    );
    let mut binaries = vec![("current", bin.to_string())];
    if let Some(b) = baseline {
        binaries.push(("baseline", b));
    }
    // Outputs are removed only at the end: ext4 skips inodes freed in the
    // last minutes when it allocates new ones, which makes creating files
    // right after removing 80,000 cost several times the system time.
    let mut outputs = Vec::new();
    let opt =
        |v: Option<f64>, digits: usize| v.map_or("-".to_string(), |v| format!("{v:.digits$}"));
    for (name, binary) in &binaries {
        let mut per_student = Vec::new();
        for students in [1_000, 3_000, large] {
            let roster = roster(dir, students);
            let out = dir.join(format!("size-{name}-{students}"));
            let run = measure(binary, &roster, &secret, &out);
            let (files, bytes) = size(&out);
            let n = f64::from(students);
            println!(
                "{name:>9} {students:>9} {files:>8} {:>9.1} {:>9.2} {:>9} {:>9} {:>11} {:>12.2} {:>12}",
                bytes as f64 / 1e6,
                run.wall,
                opt(run.cpu, 2),
                opt(run.sys, 2),
                opt(run.rss_kib.map(|k| k as f64 / 1024.0), 1),
                run.wall * 1000.0 / n,
                opt(run.cpu.map(|c| c * 1000.0 / n), 2),
            );
            per_student.push((run.wall / n, run.cpu.map(|c| c / n), run.rss_kib));
            if students == large {
                let first = cpu_at(&run.progress, 1000)
                    .zip(cpu_at(&run.progress, 1))
                    .map(|(b, a)| (b - a) * 1000.0 / 999.0);
                // The last sample may come a few students before the end (the
                // staging folder is renamed when the set is complete).
                let end = run.progress.last().map_or(0, |&(done, _)| done);
                let last = cpu_at(&run.progress, end)
                    .zip(cpu_at(&run.progress, end.saturating_sub(999).max(1)))
                    .map(|(b, a)| (b - a) * 1000.0 / 999.0);
                let wall_first = wall_ms_per_student(&out, 1, 1000);
                let wall_last = wall_ms_per_student(&out, large - 999, large);
                if first.is_some() {
                    println!(
                        "{:>20} first 1,000 students: {} ms CPU, {} ms wall per student; last 1,000: {} ms CPU, {} ms wall",
                        "",
                        opt(first, 2),
                        opt(wall_first, 2),
                        opt(last, 2),
                        opt(wall_last, 2)
                    );
                    // Thousand by thousand, the last stretch ending at the last sample.
                    let each: Vec<String> = (1..)
                        .map(|k| k * 1000)
                        .take_while(|&k| k < end + 1000)
                        .map(|k| {
                            let from = if k == 1000 { 1 } else { k - 1000 };
                            let k = k.min(end);
                            let per = cpu_at(&run.progress, k)
                                .zip(cpu_at(&run.progress, from))
                                .map(|(b, a)| (b - a) * 1000.0 / (k - from) as f64);
                            opt(per, 1)
                        })
                        .collect();
                    println!(
                        "{:>20} CPU ms per student, thousand by thousand: {}",
                        "",
                        each.join(", ")
                    );
                } else {
                    println!(
                        "{:>20} (no staging folder to follow: per-thousand times not measured)",
                        ""
                    );
                }
            }
            outputs.push(out);
        }
        if let [(w0, c0, r0), _, (w1, c1, r1)] = per_student[..] {
            let growth = w1 / w0;
            println!(
                "{:>20} {large} vs 1,000 students: {growth:.2}× the wall time per student{}, {} the CPU time, {} the peak memory",
                "",
                if growth > 1.25 {
                    " (worse than linear)"
                } else {
                    " (linear)"
                },
                opt(c1.zip(c0).map(|(a, b)| a / b), 2) + "×",
                opt(r1.zip(r0).map(|(a, b)| a as f64 / b as f64), 2) + "×",
            );
            println!(
                "{:>20} {large} students: {:.1} s wall (target < 60 s), {} MiB peak (target < 500 MB)",
                "",
                w1 * f64::from(large),
                opt(r1.map(|k| k as f64 / 1024.0), 1),
            );
        }
    }
    for out in outputs {
        let _ = std::fs::remove_dir_all(out);
    }
}
