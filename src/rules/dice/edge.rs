//! Advantage and disadvantage (roll twice, keep the better or the worse) and mapping a
//! distribution's values: shared by every system that rolls twice or transforms a total.

use super::Distribution;

/// Roll once, or twice keeping the better (advantage) or the worse (disadvantage).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Edge {
    #[default]
    Normal,
    Advantage,
    Disadvantage,
}

/// The larger (or smaller) of two independent copies of `d`: P(max ≤ v) = F(v)².
pub fn best_of_two(d: &Distribution, higher: bool) -> Distribution {
    let (min, max) = (d.min(), d.max());
    let mut probs = Vec::with_capacity((max - min + 1) as usize);
    let mut below = 0.0f64;
    for v in min..=max {
        let p = d.p(v);
        let at_most = below + p;
        let q = if higher {
            at_most * at_most - below * below
        } else {
            // P(min = v) = (1 − F(v−1))² − (1 − F(v))², from the upper tails.
            let above_prev = 1.0 - below;
            let above = 1.0 - at_most;
            above_prev * above_prev - above * above
        };
        probs.push(q.max(0.0));
        below = at_most;
    }
    Distribution::from_probs(min, probs)
}

/// The distribution of f(X).
pub fn map_values(d: &Distribution, f: impl Fn(i64) -> i64) -> Distribution {
    let mapped: Vec<(i64, f64)> = d.iter().map(|(v, p)| (f(v), p)).collect();
    let lo = mapped.iter().map(|m| m.0).min().unwrap_or(0);
    let hi = mapped.iter().map(|m| m.0).max().unwrap_or(0);
    let mut probs = vec![0.0; (hi - lo + 1) as usize];
    for (v, p) in mapped {
        probs[(v - lo) as usize] += p;
    }
    Distribution::from_probs(lo, probs)
}
