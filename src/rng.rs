//! Portable seeded randomness.
//!
//! Every random choice in treequiz goes through [`Rng`], so that a seed gives
//! the same exercise on every platform and with every future build. The raw
//! stream is ChaCha8 (its output has not changed since rand_chacha 0.3); the
//! seed is expanded with SplitMix64, and bounded integers, shuffles and choices
//! are sampled here, never by a `rand` distribution, whose values may change in
//! a minor release. No floats, no `usize`-width sampling.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng as _, SeedableRng};

/// The seeded random source of every generator.
#[derive(Clone, Debug)]
pub struct Rng(ChaCha8Rng);

/// One step of SplitMix64 (Steele, Lea & Flood 2014): a fixed, well-mixed map.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// The stream for `seed`: four SplitMix64 outputs form the ChaCha8 key.
    pub fn from_seed(seed: u64) -> Rng {
        let mut state = seed;
        let mut key = [0u8; 32];
        for chunk in key.chunks_exact_mut(8) {
            chunk.copy_from_slice(&splitmix64(&mut state).to_le_bytes());
        }
        Rng(ChaCha8Rng::from_seed(key))
    }

    /// The next raw 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A uniform integer in `0..n` (`n > 0`), by rejection so it has no bias.
    ///
    /// # Panics
    ///
    /// When `n` is 0 (the range is empty): a caller's bug, as with slice indexing.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below(0) has no value");
        // Reject the top partial block of u64 values so every residue is equally likely.
        let zone = u64::MAX - (u64::MAX - n + 1) % n;
        loop {
            let x = self.next_u64();
            if x <= zone {
                return x % n;
            }
        }
    }

    /// A uniform integer in `lo..=hi` (`lo <= hi`).
    ///
    /// # Panics
    ///
    /// When `lo > hi` (the range is empty); generator parameters are validated before they reach it.
    pub fn between(&mut self, lo: i64, hi: i64) -> i64 {
        assert!(lo <= hi, "empty range {lo}..={hi}");
        let span = hi.abs_diff(lo);
        if span == u64::MAX {
            return self.next_u64() as i64;
        }
        lo.wrapping_add(self.below(span + 1) as i64)
    }

    /// True with probability `percent / 100`.
    pub fn percent(&mut self, percent: u32) -> bool {
        self.below(100) < u64::from(percent)
    }

    /// Fisher–Yates shuffle, from the last element down.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// A uniformly chosen element, or `None` for an empty slice.
    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            Some(&items[self.below(items.len() as u64) as usize])
        }
    }
}

/// FNV-1a, 64 bits: a fixed, documented hash for stream ids and checksums
/// (not for secrecy: that comes from the ChaCha key).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The key every seed of a class set is derived from: a practice seed, or an
/// exam secret. Derivation is a keyed PRF (ChaCha8 keyed by the master, one
/// stream per context), so seeing derived seeds or variant ids does not reveal
/// the secret.
#[derive(Clone)]
pub struct Master([u8; 32]);

impl std::fmt::Debug for Master {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Master(…)")
    }
}

impl Master {
    /// The master of a public practice seed.
    pub fn from_seed(seed: u64) -> Master {
        let mut state = seed;
        let mut key = [0u8; 32];
        for chunk in key.chunks_exact_mut(8) {
            chunk.copy_from_slice(&splitmix64(&mut state).to_le_bytes());
        }
        Master(key)
    }

    /// The master of an exam secret: 32 to 64 hex digits (128 to 256 bits), as `treequiz secret` prints.
    /// See [`Master::from_secret_bytes`].
    pub fn from_secret(text: &str) -> Result<Master, String> {
        Master::from_secret_bytes(text.as_bytes())
    }

    /// The master of a secret file's bytes: 32 to 64 hex digits (an even
    /// number), whitespace anywhere, a UTF-8 byte-order mark ignored. An
    /// error says what is wrong and where (line and byte), never any of the
    /// secret's text. A secret anyone could guess is refused: every byte the
    /// same (all zeros), one block repeated, or bytes counting up or down in
    /// equal steps.
    pub fn from_secret_bytes(bytes: &[u8]) -> Result<Master, String> {
        const MAKE: &str = "make one with `treequiz secret`";
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let mut hex = Vec::with_capacity(64);
        let (mut line, mut column) = (1usize, 0usize);
        for &b in bytes {
            column += 1;
            match b {
                b'\n' => (line, column) = (line + 1, 0),
                b if b.is_ascii_whitespace() => {}
                b if b.is_ascii_hexdigit() => hex.push(b),
                b => {
                    let what = if b.is_ascii_graphic() {
                        "a character that is not a hexadecimal digit"
                    } else if b.is_ascii() {
                        "a control character"
                    } else {
                        "a byte that is not ASCII"
                    };
                    return Err(format!(
                        "line {line}, byte {column} of the secret is {what} (the secret is not shown); a secret is 32 to 64 hexadecimal digits (128 to 256 bits): remove what is not one, or {MAKE}"
                    ));
                }
            }
        }
        if !(32..=64).contains(&hex.len()) || !hex.len().is_multiple_of(2) {
            return Err(format!(
                "the secret has {} hexadecimal digits; a secret is 32 to 64 of them, an even number (128 to 256 bits): {MAKE}",
                hex.len()
            ));
        }
        let key: Vec<u8> = hex
            .chunks(2)
            .map(|pair| {
                u8::from_str_radix(std::str::from_utf8(pair).expect("ASCII"), 16)
                    .expect("hex digits")
            })
            .collect();
        if let Some(why) = guessable(&key) {
            return Err(format!(
                "this secret is no secret: {why}, so anyone could guess it; {MAKE}"
            ));
        }
        let mut master = [0u8; 32];
        master[..key.len()].copy_from_slice(&key);
        // Mark secret-derived keys apart from seed-derived ones.
        master[31] ^= 0x5A;
        Ok(Master(master))
    }

    /// A 64-bit value for (`context`, `index`): the seed of exercise `index`
    /// for the student and set named in `context`.
    pub fn derive(&self, context: &str, index: u64) -> u64 {
        let mut rng = ChaCha8Rng::from_seed(self.0);
        rng.set_stream(fnv1a64(context.as_bytes()));
        rng.set_word_pos(u128::from(index) * 2);
        rng.next_u64()
    }
}

/// Why a secret's bytes have obviously no entropy, if they have not: every
/// byte the same, a block repeated (`deadbeefdeadbeef…`), or bytes in equal
/// steps (`000102…`, `00112233…`). 128 random bits are one of these with a
/// chance far below 2^-64.
fn guessable(key: &[u8]) -> Option<String> {
    let step = key[1].wrapping_sub(key[0]);
    if key.windows(2).all(|w| w[1].wrapping_sub(w[0]) == step) {
        return Some(if step == 0 {
            "every byte of it is the same".to_string()
        } else {
            "its bytes count up or down in equal steps".to_string()
        });
    }
    (1..=key.len() / 2)
        .find(|&p| key.len().is_multiple_of(p) && key.chunks(p).all(|c| c == &key[..p]))
        .map(|p| format!("it repeats one block of {p} bytes"))
}

/// A fresh exam secret: 128 random bits from the operating system, as 32 hex digits.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub fn fresh_secret() -> Result<String, String> {
    loop {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes)
            .map_err(|e| format!("the operating system gave no random bytes: {e}"))?;
        // Never print a secret `generate --secret` would refuse (a failing source of randomness).
        if guessable(&bytes).is_none() {
            return Ok(bytes.iter().map(|b| format!("{b:02x}")).collect());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pins the stream: if this changes, every seeded exercise changes.
    #[test]
    fn stream_is_pinned() {
        let mut rng = Rng::from_seed(42);
        let got: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        insta::assert_debug_snapshot!(got);
        let mut rng = Rng::from_seed(42);
        let small: Vec<i64> = (0..12).map(|_| rng.between(-3, 3)).collect();
        insta::assert_debug_snapshot!(small);
    }

    #[test]
    fn derivation_is_pinned_and_keyed() {
        let m = Master::from_seed(2026);
        let got = [
            m.derive("treequiz/1\0Quiz\0", 0),
            m.derive("treequiz/1\0Quiz\0", 1),
            m.derive("treequiz/1\0Quiz\0s42", 0),
        ];
        insta::assert_debug_snapshot!(got);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        let secret = Master::from_secret("3f9c2a71d04be8565e17ac93b2f04d68").unwrap();
        assert_ne!(secret.derive("x", 0), Master::from_seed(0).derive("x", 0));
        assert!(Master::from_secret("abc").is_err());
        assert_eq!(fresh_secret().unwrap().len(), 32);
        assert_ne!(fresh_secret().unwrap(), fresh_secret().unwrap());
    }

    #[test]
    fn secrets_are_refused_without_showing_them() {
        let good = "3f9c2a71d04be8565e17ac93b2f04d68";
        assert!(Master::from_secret_bytes(format!("\u{feff}{good}\n").as_bytes()).is_ok());
        for bad in [
            format!("{good}\x01\n"),
            format!("{}\u{7}{}", &good[..10], &good[10..]),
            format!("{good}\u{e9}"),
            format!("{}g", &good[..31]),
        ] {
            let e = Master::from_secret_bytes(bad.as_bytes()).unwrap_err();
            assert!(e.contains("line 1, byte"), "{e}");
            // No run of the secret's digits is in the message.
            assert!(!e.contains(&good[..6]) && !e.contains(&good[26..]), "{e}");
        }
        let e = Master::from_secret_bytes(b"3f9c2a71\n\xff").unwrap_err();
        assert!(e.starts_with("line 2, byte 1 "), "{e}");
        for guessable in [
            "00000000000000000000000000000000",
            "ffffffffffffffffffffffffffffffff",
            "000102030405060708090a0b0c0d0e0f",
            "00112233445566778899aabbccddeeff",
            "deadbeefdeadbeefdeadbeefdeadbeef",
            "0123456789abcdef0123456789abcdef",
        ] {
            let e = Master::from_secret(guessable).unwrap_err();
            assert!(e.contains("no secret"), "{guessable}: {e}");
        }
        let e = Master::from_secret(&good[..30]).unwrap_err();
        assert!(
            e.contains("has 30 hexadecimal digits") && !e.contains(&good[..6]),
            "{e}"
        );
    }

    #[test]
    fn below_covers_every_value() {
        let mut rng = Rng::from_seed(1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[rng.below(7) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| (800..1200).contains(&c)), "{seen:?}");
    }

    #[test]
    fn between_handles_extremes() {
        let mut rng = Rng::from_seed(3);
        assert_eq!(rng.between(5, 5), 5);
        let v = rng.between(i64::MIN, i64::MAX);
        let _ = v;
        for _ in 0..100 {
            assert!((-2..=2).contains(&rng.between(-2, 2)));
        }
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut rng = Rng::from_seed(9);
        let mut v: Vec<u32> = (0..50).collect();
        rng.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }
}
