//! Progress on a terminal: one line on stderr, rewritten in place, only when
//! stderr is a terminal (nothing reaches a pipe, a file or a CI log).

use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How often the line is rewritten at most.
const EVERY: Duration = Duration::from_millis(100);

/// Where progress goes, and when it last went there.
type Line = Mutex<(Box<dyn Write + Send>, Option<Instant>)>;

/// A counter of `total` steps that shows `label done / total` while it runs
/// (with `total` 0, a step of unknown length: `label…`).
pub(crate) struct Progress {
    label: &'static str,
    total: usize,
    done: AtomicUsize,
    /// The writer and when it last wrote; `None` when progress is not shown.
    out: Option<Line>,
}

impl Progress {
    /// Progress on stderr, shown only when stderr is a terminal.
    pub(crate) fn stderr(label: &'static str, total: usize) -> Progress {
        let shown = std::io::stderr().is_terminal();
        Progress::to(
            shown.then(|| Box::new(std::io::stderr()) as Box<dyn Write + Send>),
            label,
            total,
        )
    }

    /// Progress written to `out`, or nowhere.
    pub(crate) fn to(
        out: Option<Box<dyn Write + Send>>,
        label: &'static str,
        total: usize,
    ) -> Progress {
        let progress = Progress {
            label,
            total,
            done: AtomicUsize::new(0),
            out: out.map(|w| Mutex::new((w, None))),
        };
        progress.show(0, true);
        progress
    }

    /// One step done (from any thread).
    pub(crate) fn tick(&self) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        self.show(done, done == self.total);
    }

    fn show(&self, done: usize, always: bool) {
        let Some(out) = &self.out else { return };
        // Another thread is writing: this step shows in the next line.
        let Ok(mut guard) = (if always {
            out.lock().map_err(|_| ())
        } else {
            out.try_lock().map_err(|_| ())
        }) else {
            return;
        };
        let (w, last) = &mut *guard;
        if !always && last.is_some_and(|t| t.elapsed() < EVERY) {
            return;
        }
        *last = Some(Instant::now());
        let _ = if self.total == 0 {
            write!(w, "\r{}…", self.label)
        } else {
            write!(w, "\r{} {done} / {}", self.label, self.total)
        };
        let _ = w.flush();
    }

    /// Clears the line, so that what follows starts on a clean one (once).
    pub(crate) fn finish(&self) {
        if let Some(out) = &self.out
            && let Ok(mut guard) = out.lock()
            && guard.1.take().is_some()
        {
            let _ = write!(guard.0, "\r\x1b[K");
            let _ = guard.0.flush();
        }
    }
}

/// A run that ends early (an error) leaves no progress line behind either.
impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// A writer the test can read back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_terminal_sees_the_count_and_a_cleared_line() {
        let shared = Shared::default();
        let p = Progress::to(Some(Box::new(shared.clone())), "grading", 3);
        for _ in 0..3 {
            p.tick();
        }
        p.finish();
        let text = String::from_utf8(shared.0.lock().unwrap().clone()).unwrap();
        assert!(text.starts_with("\rgrading 0 / 3"), "{text:?}");
        assert!(text.contains("\rgrading 3 / 3"), "{text:?}");
        assert!(text.ends_with("\r\x1b[K"), "{text:?}");
    }

    #[test]
    fn no_terminal_no_output() {
        let p = Progress::to(None, "grading", 2);
        p.tick();
        p.tick();
        p.finish();
        assert_eq!(p.done.load(Ordering::Relaxed), 2);
    }
}
