//! A probability that knows whether it is exactly certain or impossible.
//!
//! Floating point cannot tell "certain" from "fails once in 10³⁷" (1 − 10⁻³⁷ rounds to 1.0),
//! nor "impossible" from an underflowed tail. So a chance is decided structurally where it is
//! made (from a distribution's support, or from counts of faces), and a chance strictly between
//! 0 and 1 carries both the event's and the complement's probability, each summed directly:
//! whichever is small keeps all its significant digits.

/// The chance of an event.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Chance {
    /// The event cannot happen.
    Impossible,
    /// The event always happens.
    Certain,
    /// Strictly between 0 and 1: `p` is the event's probability and `q` its complement's,
    /// each computed on its own (not as `1 − other`) when that is possible. Either may have
    /// underflowed to 0.0 in an extreme tail; the event is still possible and not certain.
    Between { p: f64, q: f64 },
}

impl Chance {
    /// From the summed probability of the event's outcomes and of the others' (both ≥ 0).
    /// Exactly 0 of one side means structurally impossible only if the caller says so;
    /// use [`Chance::from_masses`] when both sides are known to hold outcomes.
    pub fn between(event: f64, complement: f64) -> Chance {
        let total = event + complement;
        let (p, q) = if total > 0.0 {
            (event / total, complement / total)
        } else {
            (0.0, 0.0)
        };
        Chance::Between { p, q }
    }

    /// From the masses of the event and its complement, where an empty side is flagged by the
    /// caller (`event_possible`, `complement_possible`) from the support, not from the float.
    pub fn from_masses(
        event: f64,
        complement: f64,
        event_possible: bool,
        complement_possible: bool,
    ) -> Chance {
        match (event_possible, complement_possible) {
            (false, _) => Chance::Impossible,
            (true, false) => Chance::Certain,
            (true, true) => Chance::between(event, complement),
        }
    }

    /// Both of two independent events.
    pub fn and(self, other: Chance) -> Chance {
        match (self, other) {
            (Chance::Impossible, _) | (_, Chance::Impossible) => Chance::Impossible,
            (Chance::Certain, x) | (x, Chance::Certain) => x,
            (a, b) => Chance::between(a.p() * b.p(), a.q() + a.p() * b.q()),
        }
    }

    /// `k` favourable of `n` equally likely cases (exact).
    pub fn ratio(k: u64, n: u64) -> Chance {
        assert!(n > 0, "a ratio needs cases");
        let k = k.min(n);
        Chance::from_masses(k as f64, (n - k) as f64, k > 0, k < n)
    }

    /// A probability computed in closed form that is exactly 0 or 1 only when it truly is
    /// (e.g. a product of rationals with no rounding to 0 or 1 possible).
    pub fn exact(p: f64) -> Chance {
        if p <= 0.0 {
            Chance::Impossible
        } else if p >= 1.0 {
            Chance::Certain
        } else {
            Chance::Between { p, q: 1.0 - p }
        }
    }

    /// The probability as a plain number (for arithmetic and tests).
    pub fn p(self) -> f64 {
        match self {
            Chance::Impossible => 0.0,
            Chance::Certain => 1.0,
            Chance::Between { p, .. } => p,
        }
    }

    /// The probability that the event does not happen, accurate when it is tiny.
    pub fn q(self) -> f64 {
        match self {
            Chance::Impossible => 1.0,
            Chance::Certain => 0.0,
            Chance::Between { q, .. } => q,
        }
    }

    /// The chance that the event does not happen.
    pub fn complement(self) -> Chance {
        match self {
            Chance::Impossible => Chance::Certain,
            Chance::Certain => Chance::Impossible,
            Chance::Between { p, q } => Chance::Between { p: q, q: p },
        }
    }

    pub fn is_certain(self) -> bool {
        self == Chance::Certain
    }

    pub fn is_impossible(self) -> bool {
        self == Chance::Impossible
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_are_exact_at_the_ends() {
        assert_eq!(Chance::ratio(0, 20), Chance::Impossible);
        assert_eq!(Chance::ratio(20, 20), Chance::Certain);
        assert_eq!(Chance::ratio(25, 20), Chance::Certain);
        let c = Chance::ratio(1, 20);
        assert_eq!(c.p(), 0.05);
        assert_eq!(c.q(), 0.95);
        assert_eq!(c.complement().p(), 0.95);
    }

    #[test]
    fn tiny_complements_keep_their_digits() {
        let c = Chance::from_masses(1.0, 1e-40, true, true);
        assert_eq!(c.p(), 1.0); // the float rounds …
        assert!(!c.is_certain()); // … the chance does not
        assert!((c.q() - 1e-40).abs() < 1e-55);
    }

    #[test]
    fn exact_probabilities() {
        assert_eq!(Chance::exact(0.0), Chance::Impossible);
        assert_eq!(Chance::exact(1.0), Chance::Certain);
        assert_eq!(Chance::exact(0.25).q(), 0.75);
    }
}
