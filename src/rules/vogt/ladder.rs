//! The die-size ladder: an ability score is a rung, and each rung is a pool of dice.

use crate::rules::dice::{DiceSource, Distribution};

/// Rung 0 is no die at all; rung 16 (5d12) is the top.
pub const LADDER: [(u32, u32); 17] = [
    (0, 0),
    (1, 4),
    (1, 6),
    (1, 8),
    (1, 10),
    (1, 12),
    (2, 6),
    (2, 8),
    (2, 10),
    (2, 12),
    (3, 8),
    (3, 10),
    (3, 12),
    (4, 10),
    (4, 12),
    (5, 10),
    (5, 12),
];

/// The highest rung.
pub const TOP: i32 = 16;

/// A pool of equal dice: `count`d`sides` (0 dice: always 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Dice {
    pub count: u32,
    pub sides: u32,
}

impl Dice {
    pub const NONE: Dice = Dice { count: 0, sides: 0 };

    pub const fn new(count: u32, sides: u32) -> Dice {
        if count == 0 || sides == 0 {
            Dice::NONE
        } else {
            Dice { count, sides }
        }
    }

    /// The dice of a rung, clamped to the ladder (a status can push a score below 0).
    pub fn of_rung(rung: i32) -> Dice {
        let (count, sides) = LADDER[rung.clamp(0, TOP) as usize];
        Dice::new(count, sides)
    }

    pub fn is_none(self) -> bool {
        self.count == 0
    }

    /// The largest total.
    pub fn max(self) -> i64 {
        i64::from(self.count) * i64::from(self.sides)
    }

    /// The exact distribution of the total.
    pub fn dist(self) -> Distribution {
        if self.is_none() {
            Distribution::point(0)
        } else {
            Distribution::uniform_sum(self.count as usize, self.sides)
        }
    }

    /// The median of the total, rounded down (SPEC decision 8): 1d4 → 2, 2d6 → 7, 3d8 → 13.
    /// A sum of equal dice is symmetric about its mean, so the median is the mean.
    pub fn median_floor(self) -> i32 {
        ((u64::from(self.count) * (u64::from(self.sides) + 1)) / 2) as i32
    }

    /// Rolls every die.
    pub fn roll<S: DiceSource + ?Sized>(self, src: &mut S) -> Vec<u32> {
        (0..self.count).map(|_| src.roll(self.sides)).collect()
    }
}

impl std::fmt::Display for Dice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_none() {
            f.write_str("0")
        } else {
            write!(f, "{}d{}", self.count, self.sides)
        }
    }
}

/// "2d6" → the dice, for a weapon's damage die or a typed initiative die.
pub fn parse_dice(text: &str) -> Option<Dice> {
    let t = text.trim().to_ascii_lowercase();
    let (c, s) = t.split_once('d')?;
    let count = if c.is_empty() { 1 } else { c.parse().ok()? };
    let sides = s.parse().ok()?;
    ((1..=20).contains(&count) && (2..=100).contains(&sides)).then_some(Dice { count, sides })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ladder_climbs_in_average_and_ends_at_5d12() {
        let means: Vec<f64> = (0..=TOP).map(|r| Dice::of_rung(r).dist().mean()).collect();
        assert!(means.windows(2).all(|w| w[0] < w[1]), "{means:?}");
        assert_eq!(Dice::of_rung(0).to_string(), "0");
        assert_eq!(Dice::of_rung(1).to_string(), "1d4");
        assert_eq!(Dice::of_rung(6).to_string(), "2d6");
        assert_eq!(Dice::of_rung(16).to_string(), "5d12");
        assert_eq!(Dice::of_rung(-3), Dice::NONE);
        assert_eq!(Dice::of_rung(99).to_string(), "5d12");
    }

    #[test]
    fn median_by_brute_force_for_every_rung() {
        for r in 0..=TOP {
            let d = Dice::of_rung(r);
            let dist = d.dist();
            // The lower median: the smallest v with P(X ≤ v) ≥ 1/2; for symmetric sums the
            // mean rounded down equals it, or sits in the middle of two central values.
            let mut cum = 0.0;
            let mut lower = 0;
            for (v, p) in dist.iter() {
                cum += p;
                if cum >= 0.5 - 1e-12 {
                    lower = v;
                    break;
                }
            }
            let m = d.median_floor() as i64;
            assert!(m == lower || m == lower + 1, "rung {r}: {m} vs {lower}");
            assert_eq!((dist.mean() + 1e-9).floor() as i64, m, "rung {r}");
        }
        assert_eq!(Dice::new(1, 4).median_floor(), 2);
        assert_eq!(Dice::new(2, 6).median_floor(), 7);
        assert_eq!(Dice::new(3, 8).median_floor(), 13);
        assert_eq!(Dice::NONE.median_floor(), 0);
    }

    #[test]
    fn parses_dice() {
        assert_eq!(parse_dice("2d6"), Some(Dice::new(2, 6)));
        assert_eq!(parse_dice(" D8 "), Some(Dice::new(1, 8)));
        assert_eq!(parse_dice("d1"), None);
        assert_eq!(parse_dice("x"), None);
        assert_eq!(parse_dice("0d6"), None);
    }
}
