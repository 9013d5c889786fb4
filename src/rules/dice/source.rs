//! Where dice get their randomness.
//!
//! Every roll takes a `&mut impl DiceSource`, so the rules never reach for a global generator:
//! the app passes [`CryptoSource`] (the platform's cryptographic generator through `getrandom`,
//! i.e. `crypto.getRandomValues` in the browser) and tests pass a [`SeededSource`] or a
//! [`ScriptedSource`] for deterministic results.

/// A source of uniformly distributed random bits.
pub trait DiceSource {
    /// 32 uniformly random bits.
    fn next_u32(&mut self) -> u32;

    /// A uniform integer in `1..=sides`, without modulo bias (Lemire's multiply-and-reject
    /// method: the rejected zone makes every outcome exactly equally likely).
    fn roll(&mut self, sides: u32) -> u32 {
        assert!(sides > 0, "a die needs at least one side");
        uniform_below(self, sides) + 1
    }
}

/// A uniform integer in `0..n` (`n > 0`) from 32-bit draws, with no modulo bias.
///
/// D. Lemire, "Fast Random Integer Generation in an Interval", ACM TOMACS 2019.
pub fn uniform_below<S: DiceSource + ?Sized>(src: &mut S, n: u32) -> u32 {
    let mut m = u64::from(src.next_u32()) * u64::from(n);
    let mut low = m as u32;
    if low < n {
        // 2^32 mod n: draws whose low half falls below it would over-represent some outcomes.
        let threshold = n.wrapping_neg() % n;
        while low < threshold {
            m = u64::from(src.next_u32()) * u64::from(n);
            low = m as u32;
        }
    }
    (m >> 32) as u32
}

/// The production source: cryptographic randomness from the platform via `getrandom`,
/// fetched in blocks so a big pool costs one call into the browser, not one per die.
#[derive(Debug)]
pub struct CryptoSource {
    buf: [u32; 64],
    pos: usize,
}

/// The platform generator could not be reached (no `crypto` object, for instance).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the device's random number generator is unavailable ({0})")]
pub struct EntropyError(pub String);

impl CryptoSource {
    /// A source whose first block is already drawn, so an unavailable generator is reported
    /// here, as an error, rather than in the middle of a roll.
    pub fn new() -> Result<Self, EntropyError> {
        let mut source = CryptoSource {
            buf: [0; 64],
            pos: 64,
        };
        source.refill()?;
        Ok(source)
    }

    fn refill(&mut self) -> Result<(), EntropyError> {
        let mut bytes = [0u8; 256];
        getrandom::fill(&mut bytes).map_err(|e| EntropyError(e.to_string()))?;
        for (word, chunk) in self.buf.iter_mut().zip(bytes.chunks_exact(4)) {
            *word = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        }
        self.pos = 0;
        Ok(())
    }
}

impl DiceSource for CryptoSource {
    fn next_u32(&mut self) -> u32 {
        if self.pos == self.buf.len() {
            // `new` proved the generator works; a later failure is not recoverable mid-roll.
            self.refill()
                .expect("random number generator failed after a successful start");
        }
        let word = self.buf[self.pos];
        self.pos += 1;
        word
    }
}

/// A fast deterministic generator for tests and benchmarks (xoshiro128++ seeded by SplitMix64).
/// Never used for rolls a player sees.
#[derive(Debug, Clone)]
pub struct SeededSource {
    s: [u32; 4],
}

impl SeededSource {
    pub fn new(seed: u64) -> Self {
        let mut z = seed;
        let mut next = || {
            z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut x = z;
            x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            x ^ (x >> 31)
        };
        let (a, b) = (next(), next());
        SeededSource {
            s: [a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32],
        }
    }
}

impl DiceSource for SeededSource {
    fn next_u32(&mut self) -> u32 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(7).wrapping_add(s[0]);
        let t = s[1] << 9;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(11);
        result
    }
}

/// Dice that show exactly the faces given, in order: for reproducing worked examples in tests.
/// `roll(sides)` returns the next scripted face (checked to fit the die).
#[derive(Debug, Clone)]
pub struct ScriptedSource {
    faces: Vec<u32>,
    next: usize,
}

impl ScriptedSource {
    pub fn new(faces: impl Into<Vec<u32>>) -> Self {
        ScriptedSource {
            faces: faces.into(),
            next: 0,
        }
    }

    /// How many scripted faces have not been used.
    pub fn remaining(&self) -> usize {
        self.faces.len() - self.next
    }
}

impl DiceSource for ScriptedSource {
    fn next_u32(&mut self) -> u32 {
        panic!("ScriptedSource only scripts whole dice; call roll()")
    }

    fn roll(&mut self, sides: u32) -> u32 {
        let face = *self
            .faces
            .get(self.next)
            .expect("the script ran out of dice");
        assert!(
            (1..=sides).contains(&face),
            "scripted face {face} does not fit a d{sides}"
        );
        self.next += 1;
        face
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts how often each value of `uniform_below` occurs over *every* 32-bit input when the
    /// generator is an 8-bit one in disguise — impossible at 32 bits, so instead check the
    /// defining property on a tiny word: Lemire's rejection must accept equally many inputs
    /// for every output.
    #[test]
    fn lemire_accepts_equal_counts_per_outcome_on_a_small_word() {
        // Re-implementation of the same algorithm on 8-bit words, exhaustively.
        for n in 1u32..=255 {
            let mut counts = vec![0u32; n as usize];
            let threshold = (256 - n) % n;
            for x in 0u32..256 {
                let m = x * n;
                if (m & 0xFF) < threshold {
                    continue;
                }
                counts[(m >> 8) as usize] += 1;
            }
            let first = counts[0];
            assert!(counts.iter().all(|&c| c == first), "n = {n}: {counts:?}");
        }
    }

    #[test]
    fn rolls_stay_in_range() {
        let mut src = SeededSource::new(7);
        for sides in [1, 2, 3, 4, 6, 7, 10, 12, 20, 100, 1000, u32::MAX] {
            for _ in 0..2000 {
                let r = src.roll(sides);
                assert!((1..=sides).contains(&r));
            }
        }
    }

    #[test]
    fn seeded_source_is_deterministic_and_seed_sensitive() {
        let a: Vec<u32> = (0..8)
            .map({
                let mut s = SeededSource::new(1);
                move |_| s.next_u32()
            })
            .collect();
        let b: Vec<u32> = (0..8)
            .map({
                let mut s = SeededSource::new(1);
                move |_| s.next_u32()
            })
            .collect();
        let c: Vec<u32> = (0..8)
            .map({
                let mut s = SeededSource::new(2);
                move |_| s.next_u32()
            })
            .collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn rejection_path_is_taken_and_still_uniform() {
        /// Feeds words that land in the rejected zone first.
        struct Words(Vec<u32>);
        impl DiceSource for Words {
            fn next_u32(&mut self) -> u32 {
                self.0.remove(0)
            }
        }
        // n = 3: threshold = 2^32 mod 3 = 1, so x = 0 gives low = 0 < 1 and is rejected.
        let mut src = Words(vec![0, u32::MAX]);
        assert_eq!(uniform_below(&mut src, 3), 2);
        assert!(
            src.0.is_empty(),
            "the rejected draw must be replaced by a fresh one"
        );
    }

    #[test]
    fn crypto_source_draws_varied_values() {
        let mut src = CryptoSource::new().expect("host OS generator");
        let draws: Vec<u32> = (0..200).map(|_| src.next_u32()).collect();
        let distinct: std::collections::HashSet<_> = draws.iter().collect();
        assert!(
            distinct.len() > 190,
            "200 random words should practically never collide"
        );
    }

    #[test]
    fn scripted_source_replays_faces() {
        let mut src = ScriptedSource::new(vec![3, 10, 1]);
        assert_eq!(src.roll(6), 3);
        assert_eq!(src.roll(10), 10);
        assert_eq!(src.remaining(), 1);
    }
}
