//! Order-preserving parallel work, for the per-student and per-file work that
//! is independent (variants, renders, gradings): [`map`] when every result is
//! kept, [`stream`] when results are consumed one by one and memory must not
//! grow with the number of items.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, mpsc};

/// How many threads the parallel work uses: every core, at most 8.
pub fn threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, usize::from)
        .clamp(1, 8)
}

/// `items.iter().map(f)`, on every core (at most 8 threads), results in order.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    // One core, or none to spawn on (the browser page): on this thread.
    if threads() == 1 {
        return items.iter().map(f).collect();
    }
    let chunk = items.len().div_ceil(threads()).max(1);
    let f = &f;
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(f).collect::<Vec<R>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

/// Runs `f` on every item, on every core, and hands each result to `sink`
/// on the calling thread, in the items' order. At most `window` items are
/// started and not yet consumed, so the results held at any time do not
/// depend on how many items there are. Threads take the next item when they
/// are free (no item waits for a slow neighbour's chunk). The first error
/// `sink` returns stops the work (items already started finish) and is
/// returned.
pub fn stream<T: Sync, R: Send, E>(
    items: &[T],
    window: usize,
    f: impl Fn(&T) -> R + Sync,
    mut sink: impl FnMut(R) -> Result<(), E>,
) -> Result<(), E> {
    if threads() == 1 {
        return items.iter().try_for_each(|item| sink(f(item)));
    }
    let window = window.max(1);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    // How many results the sink has consumed; workers wait on it to stay in the window.
    let consumed = (Mutex::new(0usize), Condvar::new());
    let (f, next, stop, consumed) = (&f, &next, &stop, &consumed);
    std::thread::scope(|scope| {
        let (send, receive) = mpsc::channel::<(usize, R)>();
        for _ in 0..threads().min(items.len()) {
            let send = send.clone();
            scope.spawn(move || {
                // A panic in `f` stops the others, so that nobody waits for its result.
                let _guard = StopOnPanic(stop, consumed);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= items.len() {
                        return;
                    }
                    {
                        let (lock, moved) = consumed;
                        let mut done = lock.lock().unwrap_or_else(|e| e.into_inner());
                        while i >= *done + window && !stop.load(Ordering::Relaxed) {
                            done = moved.wait(done).unwrap_or_else(|e| e.into_inner());
                        }
                    }
                    if stop.load(Ordering::Relaxed) || send.send((i, f(&items[i]))).is_err() {
                        return;
                    }
                }
            });
        }
        drop(send);
        let mut waiting = BTreeMap::new();
        let mut want = 0;
        let mut result = Ok(());
        // Ends when every worker has ended (all senders dropped).
        for (i, r) in receive.iter() {
            if result.is_err() {
                continue;
            }
            waiting.insert(i, r);
            while let Some(r) = waiting.remove(&want) {
                want += 1;
                if let Err(e) = sink(r) {
                    result = Err(e);
                    stop.store(true, Ordering::Relaxed);
                    waiting.clear();
                    break;
                }
            }
            let (lock, moved) = consumed;
            *lock.lock().unwrap_or_else(|e| e.into_inner()) = want;
            moved.notify_all();
        }
        result
    })
}

/// Sets the stop flag and wakes every waiting worker when a worker unwinds.
struct StopOnPanic<'a>(&'a AtomicBool, &'a (Mutex<usize>, Condvar));

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Relaxed);
            let _lock = self.1.0.lock();
            self.1.1.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn keeps_the_order() {
        let items: Vec<u32> = (0..1000).collect();
        assert_eq!(
            super::map(&items, |x| x * 2),
            items.iter().map(|x| x * 2).collect::<Vec<_>>()
        );
        assert!(super::map(&[] as &[u32], |x| *x).is_empty());
    }

    #[test]
    fn stream_keeps_the_order_and_holds_at_most_the_window() {
        let items: Vec<u64> = (0..2000).collect();
        // Started and not yet consumed: never more than the window.
        let open = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        let mut got = Vec::new();
        super::stream(
            &items,
            8,
            |&x| {
                let now = open.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                // Uneven work, so that results arrive out of order.
                let spin = (0..(x % 7) * 1000).fold(x, |a, b| a.wrapping_mul(31) ^ b);
                std::hint::black_box(spin);
                x
            },
            |x| {
                open.fetch_sub(1, Ordering::SeqCst);
                got.push(x);
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        assert_eq!(got, items);
        assert!(most.load(Ordering::SeqCst) <= 8, "{most:?}");
        assert_eq!(super::stream(&[] as &[u32], 4, |x| *x, |_| Err(())), Ok(()));
    }

    #[test]
    fn stream_stops_at_the_first_error() {
        let items: Vec<u32> = (0..10_000).collect();
        let started = AtomicUsize::new(0);
        let mut seen = Vec::new();
        let result = super::stream(
            &items,
            16,
            |&x| {
                started.fetch_add(1, Ordering::SeqCst);
                x
            },
            |x| {
                seen.push(x);
                if x == 100 { Err(x) } else { Ok(()) }
            },
        );
        assert_eq!(result, Err(100));
        assert_eq!(seen, (0..=100).collect::<Vec<_>>());
        assert!(started.load(Ordering::SeqCst) <= 100 + 16 + super::threads());
    }
}
