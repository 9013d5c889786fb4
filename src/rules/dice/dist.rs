//! Exact probability distributions of integer-valued rolls.
//!
//! Everything here is computed, never sampled: plain pools by convolution (a sliding window for
//! uniform dice), keep-highest/lowest by a dynamic programme over order statistics, exploding
//! dice as the exact distribution of the capped process (see [`EXPLODE_CAP`]), expressions by
//! convolving their terms. Values are `f64`; every distribution sums to 1 within rounding.

use super::chance::Chance;
use super::notation::{Expr, Keep, Pool, TermKind, EXPLODE_CAP};

/// Probabilities of the consecutive integers `min, min+1, …`.
#[derive(Debug, Clone, PartialEq)]
pub struct Distribution {
    min: i64,
    probs: Vec<f64>,
}

/// The expression would take too long to compute exactly on a phone; it can still be rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("this roll is too big to compute its exact odds quickly; it can still be rolled")]
pub struct TooLarge;

/// A rough count of multiply-adds above which we refuse to compute (tens of milliseconds).
const WORK_LIMIT: f64 = 3.0e7;

impl Distribution {
    /// From the probabilities of `min, min+1, …` (computed elsewhere, e.g. in closed form).
    pub fn from_probs(min: i64, probs: Vec<f64>) -> Self {
        assert!(!probs.is_empty(), "a distribution needs at least one value");
        Distribution { min, probs }.trimmed()
    }

    /// P(X > Y) and P(X = Y) for independent X (self) and Y: the two sides of an opposed roll.
    pub fn beats(&self, other: &Self) -> (f64, f64) {
        let (mut win, mut tie) = (0.0, 0.0);
        for (v, p) in self.iter() {
            win += p * other.p_at_most(v - 1);
            tie += p * other.p(v);
        }
        (win, tie)
    }

    /// Certainly `value`.
    pub fn point(value: i64) -> Self {
        Distribution {
            min: value,
            probs: vec![1.0],
        }
    }

    /// A fair die `1..=sides`.
    pub fn die(sides: u32) -> Self {
        Distribution {
            min: 1,
            probs: vec![1.0 / f64::from(sides); sides as usize],
        }
    }

    /// One exploding die: a top face adds another roll, at most [`EXPLODE_CAP`] extra rolls.
    /// This is exactly how [`super::roll`] rolls it, so the distribution sums to 1.
    pub fn exploding_die(sides: u32) -> Self {
        assert!(sides >= 2, "a d1 cannot explode");
        let s = sides as usize;
        let cap = EXPLODE_CAP as usize;
        let inv = 1.0 / f64::from(sides);
        let mut probs = vec![0.0; s * (cap + 1)];
        let mut chain = inv; // probability of this particular run of top faces and then face r
        for k in 0..=cap {
            // k top faces in a row (k·sides), then a final face r: 1..sides-1, or any face at the cap.
            let last = if k == cap { s } else { s - 1 };
            for r in 1..=last {
                probs[k * s + r - 1] = chain;
            }
            chain *= inv;
        }
        Distribution { min: 1, probs }
    }

    /// The chance that [`EXPLODE_CAP`] cut an explosion short for at least one of `count` dice:
    /// the probability mass of the uncapped roll that the capped distribution leaves out.
    pub fn explode_truncated_mass(sides: u32, count: u32) -> f64 {
        let per_die = f64::from(sides).powi(-(EXPLODE_CAP as i32 + 1));
        // 1 − (1 − m)^count without cancellation.
        -(f64::from(count) * (-per_die).ln_1p()).exp_m1()
    }

    /// How many values a pool's distribution has, or `TooLarge` when computing it would take
    /// more than [`WORK_LIMIT`] steps: sizes only, nothing built.
    fn pool_len(pool: &Pool) -> Result<usize, TooLarge> {
        let faces = if pool.explode {
            pool.sides as usize * (EXPLODE_CAP as usize + 1)
        } else {
            pool.sides as usize
        };
        let n = pool.count as usize;
        let (f, kept) = (faces as f64, pool.keep.map_or(n, |k| k.count() as usize));
        let work = match pool.keep {
            None if pool.explode => f * f * (n * n) as f64 / 2.0,
            None => f * (n * n) as f64,
            Some(_) => f * kept as f64 * (kept as f64 * f) * n as f64,
        };
        if work > WORK_LIMIT {
            return Err(TooLarge);
        }
        Ok(kept * (faces - 1) + 1)
    }

    /// The distribution of a pool of dice.
    pub fn of_pool(pool: &Pool) -> Result<Self, TooLarge> {
        Self::pool_len(pool)?;
        let die = if pool.explode {
            Self::exploding_die(pool.sides)
        } else {
            Self::die(pool.sides)
        };
        let n = pool.count as usize;
        Ok(match pool.keep {
            None if pool.explode => die.sum_of(n),
            None => Self::uniform_sum(n, pool.sides),
            Some(keep) => die.keep(n, keep.count() as usize, matches!(keep, Keep::Highest(_))),
        })
    }

    /// How many values an expression's distribution has, or `TooLarge` (see [`Self::fits`]).
    fn expr_len(expr: &Expr) -> Result<usize, TooLarge> {
        expr.terms.iter().try_fold(1, |total, term| {
            let part = match &term.kind {
                TermKind::Constant(_) => 1,
                TermKind::Dice(pool) => Self::pool_len(pool)?,
            };
            if total as f64 * part as f64 > WORK_LIMIT {
                return Err(TooLarge);
            }
            Ok(total + part - 1)
        })
    }

    /// Whether [`Self::of_expr`] can compute `expr`, from sizes alone: a sheet's dice are
    /// checked on every load, import and edit, and building "100d1000" only to drop it took a
    /// phone tens of milliseconds each time.
    pub fn fits(expr: &Expr) -> bool {
        Self::expr_len(expr).is_ok()
    }

    /// The distribution of a whole expression.
    pub fn of_expr(expr: &Expr) -> Result<Self, TooLarge> {
        Self::expr_len(expr)?;
        let mut total = Distribution::point(0);
        for term in &expr.terms {
            let part = match &term.kind {
                TermKind::Constant(c) => Distribution::point(i64::from(*c)),
                TermKind::Dice(pool) => Distribution::of_pool(pool)?,
            };
            let part = match term.sign {
                super::notation::Sign::Plus => part,
                super::notation::Sign::Minus => part.negate(),
            };
            total = total.convolve(&part);
        }
        Ok(total)
    }

    /// Sum of `n` fair `sides`-sided dice. Each step replaces every value by the average of a
    /// window of `sides` values, O(range): the window sums are built from prefix sums within
    /// blocks of `sides` values and suffix sums of the block before, so they only ever add
    /// non-negative numbers. A running sum that subtracts would leave rounding noise (~10⁻¹⁷)
    /// in place of the tails' true values (10⁻³⁹ for 50d6 = 300).
    // Index loops: the prefix and suffix sums read neighbours on both sides.
    #[allow(clippy::needless_range_loop)]
    pub fn uniform_sum(n: usize, sides: u32) -> Self {
        let s = sides as usize;
        let inv = 1.0 / f64::from(sides);
        let mut probs = vec![1.0];
        for _ in 0..n {
            let len = probs.len() + s - 1;
            let at = |i: usize| probs.get(i).copied().unwrap_or(0.0);
            // prefix[i]: sum of probs[block start ..= i]; suffix[i]: sum of probs[i ..= block end].
            let mut prefix = vec![0.0; len];
            let mut suffix = vec![0.0; len];
            for i in 0..len {
                prefix[i] = at(i) + if i % s == 0 { 0.0 } else { prefix[i - 1] };
            }
            for i in (0..len).rev() {
                let block_end = i % s == s - 1 || i + 1 == len;
                suffix[i] = at(i) + if block_end { 0.0 } else { suffix[i + 1] };
            }
            // next[t] = sum of probs[t + 1 − s ..= t] (the faces 1..=s reaching total t).
            let next = (0..len)
                .map(|t| {
                    let window = if t + 1 < s {
                        prefix[t]
                    } else {
                        let start = t + 1 - s;
                        if start % s == 0 {
                            prefix[t]
                        } else {
                            suffix[start] + prefix[t]
                        }
                    };
                    window * inv
                })
                .collect();
            probs = next;
        }
        Distribution {
            min: n as i64,
            probs,
        }
    }

    /// Sum of `n` independent copies of this distribution.
    pub fn sum_of(&self, n: usize) -> Self {
        (0..n).fold(Distribution::point(0), |acc, _| acc.convolve(self))
    }

    /// The distribution of X + Y for independent X (self) and Y (other).
    pub fn convolve(&self, other: &Self) -> Self {
        let mut probs = vec![0.0; self.probs.len() + other.probs.len() - 1];
        for (i, &a) in self.probs.iter().enumerate() {
            if a == 0.0 {
                continue;
            }
            for (j, &b) in other.probs.iter().enumerate() {
                probs[i + j] += a * b;
            }
        }
        Distribution {
            min: self.min + other.min,
            probs,
        }
    }

    /// The distribution of −X.
    pub fn negate(&self) -> Self {
        let mut probs = self.probs.clone();
        probs.reverse();
        Distribution {
            min: -self.max(),
            probs,
        }
    }

    /// The distribution of max(X, floor): everything below `floor` lands on it.
    pub fn floored(&self, floor: i64) -> Self {
        if self.min >= floor {
            return self.clone();
        }
        if self.max() <= floor {
            return Distribution::point(floor);
        }
        let below: f64 = self
            .iter()
            .filter(|&(v, _)| v <= floor)
            .map(|(_, p)| p)
            .sum();
        let mut probs = vec![below];
        probs.extend(self.iter().filter(|&(v, _)| v > floor).map(|(_, p)| p));
        Distribution { min: floor, probs }
    }

    /// The distribution of X + c.
    pub fn shift(mut self, c: i64) -> Self {
        self.min += c;
        self
    }

    /// The sum of the `k` highest (or lowest) of `n` independent dice distributed as `self`.
    ///
    /// Faces are visited best-first (highest first for keep-highest). The state is how many dice
    /// have been placed on the faces seen so far (fewer than `k`) and the sum they contribute;
    /// placing `c` of the remaining dice on a face weighs `C(rest, c)·p^c`. Once `k` dice are
    /// placed the kept sum is final and the other dice need only show worse faces, probability
    /// `tail^rest`, so those states close at once. Cost: faces × k × sums × n.
    // Index loops: the DP reads and writes several tables at the same indices.
    #[allow(clippy::needless_range_loop)]
    pub fn keep(&self, n: usize, k: usize, highest: bool) -> Self {
        assert!(k >= 1 && k <= n, "keep {k} of {n}");
        let mut faces: Vec<(i64, f64)> = self.iter().filter(|&(_, p)| p > 0.0).collect();
        if highest {
            faces.reverse();
        }
        let binom = binomials(n);
        let lo = k as i64 * self.min;
        let width = k * (self.probs.len() - 1) + 1;
        let mut result = vec![0.0; width];
        // cur[a][s]: probability weight with `a` dice placed, kept sum lo_a + s.
        let mut cur = vec![vec![0.0; width]; k];
        cur[0][0] = 1.0;
        // tails[i]: probability of a face worse than faces[i] (summed from the worst end).
        let mut tails = vec![0.0; faces.len()];
        for i in (0..faces.len().saturating_sub(1)).rev() {
            tails[i] = tails[i + 1] + faces[i + 1].1;
        }
        for (&(v, p), &tail) in faces.iter().zip(&tails) {
            let mut next = vec![vec![0.0; width]; k];
            for a in 0..k {
                for s in 0..width {
                    let w = cur[a][s];
                    if w == 0.0 {
                        continue;
                    }
                    let rest = n - a;
                    let mut pc = 1.0; // p^c
                    for c in 0..=rest {
                        let weight = w * binom[rest][c] * pc;
                        let placed = a + c;
                        let kept_here = c.min(k - a);
                        // Sums are stored relative to `self.min` per kept die.
                        let ns = s + kept_here * (v - self.min) as usize;
                        if placed >= k {
                            result[ns] += weight * tail.powi((n - placed) as i32);
                        } else {
                            next[placed][ns] += weight;
                        }
                        pc *= p;
                    }
                }
            }
            cur = next;
        }
        Distribution {
            min: lo,
            probs: result,
        }
        .trimmed()
    }

    /// Drops zero-probability ends (exact zeros only).
    fn trimmed(mut self) -> Self {
        while self.probs.len() > 1 && self.probs.last() == Some(&0.0) {
            self.probs.pop();
        }
        let lead = self
            .probs
            .iter()
            .take_while(|&&p| p == 0.0)
            .count()
            .min(self.probs.len() - 1);
        self.probs.drain(..lead);
        self.min += lead as i64;
        self
    }

    pub fn min(&self) -> i64 {
        self.min
    }

    pub fn max(&self) -> i64 {
        self.min + self.probs.len() as i64 - 1
    }

    /// P(X = v).
    pub fn p(&self, v: i64) -> f64 {
        usize::try_from(v - self.min)
            .ok()
            .and_then(|i| self.probs.get(i))
            .copied()
            .unwrap_or(0.0)
    }

    /// `(value, probability)` pairs from the lowest value up.
    pub fn iter(&self) -> impl Iterator<Item = (i64, f64)> + '_ {
        self.probs
            .iter()
            .enumerate()
            .map(|(i, &p)| (self.min + i as i64, p))
    }

    pub fn total(&self) -> f64 {
        self.probs.iter().sum()
    }

    /// The chance of X ≥ t: certain or impossible from the support, otherwise both sides summed
    /// directly so that either may be tiny.
    pub fn at_least(&self, t: i64) -> Chance {
        self.split_at(t)
    }

    /// The chance of X ≤ t.
    pub fn at_most(&self, t: i64) -> Chance {
        self.split_at(t.saturating_add(1)).complement()
    }

    /// The chance of X ≥ t, decided from the support (min and max always have mass).
    fn split_at(&self, t: i64) -> Chance {
        let (mut above, mut below) = (0.0, 0.0);
        for (v, p) in self.iter() {
            if v >= t {
                above += p;
            } else {
                below += p;
            }
        }
        Chance::from_masses(above, below, t <= self.max(), t > self.min())
    }

    /// The chance of exactly `v`: impossible outside the support or where the value has no
    /// mass at all (a gap, like a 6 on an exploding d6).
    pub fn exactly(&self, v: i64) -> Chance {
        let p = self.p(v);
        let rest = self.total() - p;
        let only = self.min() == v && self.max() == v;
        Chance::from_masses(p, rest.max(0.0), p > 0.0, !only)
    }

    /// Win, tie and lose chances of X (self) against an independent Y: P(X > Y), P(X = Y),
    /// P(X < Y), each certain or impossible from the supports.
    pub fn versus(&self, other: &Self) -> (Chance, Chance, Chance) {
        let (mut win, mut tie, mut lose) = (0.0, 0.0, 0.0);
        for (v, p) in self.iter() {
            if p == 0.0 {
                continue;
            }
            for (w, r) in other.iter() {
                match v.cmp(&w) {
                    std::cmp::Ordering::Greater => win += p * r,
                    std::cmp::Ordering::Equal => tie += p * r,
                    std::cmp::Ordering::Less => lose += p * r,
                }
            }
        }
        // Supports: X > Y is possible iff max X > min Y; certain iff min X > max Y.
        let (xl, xh, yl, yh) = (self.min(), self.max(), other.min(), other.max());
        let can_win = xh > yl;
        let can_lose = xl < yh;
        let can_tie = xl.max(yl) <= xh.min(yh) && self.overlap_has_mass(other);
        (
            Chance::from_masses(win, tie + lose, can_win, can_tie || can_lose),
            Chance::from_masses(tie, win + lose, can_tie, can_win || can_lose),
            Chance::from_masses(lose, win + tie, can_lose, can_win || can_tie),
        )
    }

    /// Whether some value carries mass in both distributions (a tie can happen).
    fn overlap_has_mass(&self, other: &Self) -> bool {
        self.iter().any(|(v, p)| p > 0.0 && other.p(v) > 0.0)
    }

    /// P(X ≥ t).
    pub fn p_at_least(&self, t: i64) -> f64 {
        self.iter()
            .filter(|&(v, _)| v >= t)
            .map(|(_, p)| p)
            .sum::<f64>()
            .min(1.0)
    }

    /// P(X ≤ t).
    pub fn p_at_most(&self, t: i64) -> f64 {
        self.iter()
            .filter(|&(v, _)| v <= t)
            .map(|(_, p)| p)
            .sum::<f64>()
            .min(1.0)
    }

    pub fn mean(&self) -> f64 {
        self.iter().map(|(v, p)| v as f64 * p).sum()
    }

    pub fn std_dev(&self) -> f64 {
        let mean = self.mean();
        self.iter()
            .map(|(v, p)| (v as f64 - mean).powi(2) * p)
            .sum::<f64>()
            .sqrt()
    }

    /// The most likely value (the lowest one on a tie).
    pub fn mode(&self) -> i64 {
        let best = self.probs.iter().copied().fold(0.0, f64::max);
        self.iter()
            .find(|&(_, p)| p == best)
            .map_or(self.min, |(v, _)| v)
    }

    /// At most `max_bars` bars for a chart: consecutive values grouped into equal-width ranges.
    pub fn binned(&self, max_bars: usize) -> Vec<Bin> {
        let width = self.probs.len().div_ceil(max_bars.max(1));
        let total = self.total();
        let many = self.probs.chunks(width).len() > 1;
        self.probs
            .chunks(width)
            .enumerate()
            .map(|(i, chunk)| {
                let lo = self.min + (i * width) as i64;
                let p: f64 = chunk.iter().sum();
                Bin {
                    lo,
                    hi: lo + chunk.len() as i64 - 1,
                    p,
                    chance: Chance::from_masses(p, (total - p).max(0.0), p > 0.0, many),
                }
            })
            .collect()
    }
}

/// A chart bar: the values `lo..=hi` together have probability `p`.
#[derive(Debug, Clone, PartialEq)]
pub struct Bin {
    pub lo: i64,
    pub hi: i64,
    pub p: f64,
    /// `p` as a chance: impossible only for a gap with no mass, certain only for a lone bar.
    pub chance: Chance,
}

/// Pascal's triangle up to row `n`, as f64 (exact up to n = 1000 well beyond our limits).
fn binomials(n: usize) -> Vec<Vec<f64>> {
    let mut rows: Vec<Vec<f64>> = Vec::with_capacity(n + 1);
    for r in 0..=n {
        let mut row = vec![1.0; r + 1];
        for c in 1..r {
            row[c] = rows[r - 1][c - 1] + rows[r - 1][c];
        }
        rows.push(row);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::super::notation::parse;
    use super::*;
    use std::collections::BTreeMap;

    const EPS: f64 = 1e-12;

    /// Every face combination of `n` dice with the given per-die outcomes (value, weight),
    /// enumerated one by one: the brute force the fast methods must agree with.
    fn brute_force(
        die: &[(i64, f64)],
        n: usize,
        combine: impl Fn(&mut Vec<i64>) -> i64,
    ) -> BTreeMap<i64, f64> {
        let mut out = BTreeMap::new();
        let mut idx = vec![0usize; n];
        loop {
            let mut values: Vec<i64> = idx.iter().map(|&i| die[i].0).collect();
            let p: f64 = idx.iter().map(|&i| die[i].1).product();
            *out.entry(combine(&mut values)).or_insert(0.0) += p;
            // odometer
            let mut pos = 0;
            loop {
                if pos == n {
                    return out;
                }
                idx[pos] += 1;
                if idx[pos] < die.len() {
                    break;
                }
                idx[pos] = 0;
                pos += 1;
            }
        }
    }

    fn faces(sides: u32) -> Vec<(i64, f64)> {
        (1..=sides as i64)
            .map(|v| (v, 1.0 / f64::from(sides)))
            .collect()
    }

    fn assert_matches(d: &Distribution, expected: &BTreeMap<i64, f64>, what: &str) {
        assert!((d.total() - 1.0).abs() < EPS, "{what}: total {}", d.total());
        for (v, p) in d.iter() {
            let e = expected.get(&v).copied().unwrap_or(0.0);
            assert!((p - e).abs() < EPS, "{what}: P({v}) = {p}, brute force {e}");
        }
        for (&v, &e) in expected {
            assert!((d.p(v) - e).abs() < EPS, "{what}: missing P({v}) = {e}");
        }
    }

    #[test]
    fn plain_pools_equal_brute_force() {
        for sides in [1, 2, 3, 4, 6, 8, 10, 12, 20] {
            for n in 1..=4 {
                if (sides as usize).pow(n as u32) > 200_000 {
                    continue;
                }
                let d = Distribution::uniform_sum(n, sides);
                let bf = brute_force(&faces(sides), n, |v| v.iter().sum());
                assert_matches(&d, &bf, &format!("{n}d{sides}"));
                assert_matches(
                    &Distribution::die(sides).sum_of(n),
                    &bf,
                    &format!("{n}d{sides} by convolution"),
                );
            }
        }
    }

    #[test]
    fn keep_highest_and_lowest_equal_brute_force() {
        for sides in [2, 3, 4, 6, 10, 20] {
            for n in 1..=5 {
                if (sides as usize).pow(n as u32) > 400_000 {
                    continue;
                }
                for k in 1..=n {
                    let hi = Distribution::die(sides).keep(n, k, true);
                    let bf_hi = brute_force(&faces(sides), n, |v| {
                        v.sort_unstable_by(|a, b| b.cmp(a));
                        v[..k].iter().sum()
                    });
                    assert_matches(&hi, &bf_hi, &format!("{n}d{sides}kh{k}"));
                    let lo = Distribution::die(sides).keep(n, k, false);
                    let bf_lo = brute_force(&faces(sides), n, |v| {
                        v.sort_unstable();
                        v[..k].iter().sum()
                    });
                    assert_matches(&lo, &bf_lo, &format!("{n}d{sides}kl{k}"));
                }
            }
        }
    }

    /// Walks every possible sequence of rolls of one capped exploding die.
    fn exploding_paths(sides: u32) -> Vec<(i64, f64)> {
        fn walk(sides: u32, depth: u32, sum: i64, p: f64, out: &mut Vec<(i64, f64)>) {
            for face in 1..=sides {
                let p = p / f64::from(sides);
                let sum = sum + i64::from(face);
                if face == sides && depth < EXPLODE_CAP {
                    walk(sides, depth + 1, sum, p, out);
                } else {
                    out.push((sum, p));
                }
            }
        }
        let mut out = Vec::new();
        walk(sides, 0, 0, 1.0, &mut out);
        out
    }

    #[test]
    fn exploding_dice_equal_brute_force_over_roll_sequences() {
        for sides in [2, 3, 4, 6, 10] {
            let paths = exploding_paths(sides);
            let one: BTreeMap<i64, f64> = paths.iter().fold(BTreeMap::new(), |mut m, &(v, p)| {
                *m.entry(v).or_insert(0.0) += p;
                m
            });
            assert_matches(
                &Distribution::exploding_die(sides),
                &one,
                &format!("1d{sides}!"),
            );
            let two = brute_force(&paths, 2, |v| v.iter().sum());
            let pool = Distribution::of_pool(&Pool {
                count: 2,
                sides,
                keep: None,
                explode: true,
            })
            .unwrap();
            assert_matches(&pool, &two, &format!("2d{sides}!"));
            let kh = brute_force(&paths, 2, |v| *v.iter().max().unwrap());
            let pool = Distribution::of_pool(&Pool {
                count: 2,
                sides,
                keep: Some(Keep::Highest(1)),
                explode: true,
            });
            assert_matches(&pool.unwrap(), &kh, &format!("2d{sides}!kh1"));
        }
    }

    #[test]
    fn truncated_mass_is_what_the_cap_cuts() {
        // One d2: the cap is hit when all 11 rolls show 2.
        let m = Distribution::explode_truncated_mass(2, 1);
        assert!((m - 0.5f64.powi(11)).abs() < 1e-15);
        let d = Distribution::exploding_die(2);
        assert!(
            (d.p(d.max()) - 0.5f64.powi(11)).abs() < 1e-15,
            "capped top value has that mass"
        );
        assert!(Distribution::explode_truncated_mass(10, 3) < 1e-10);
    }

    #[test]
    fn expressions_combine_terms_with_signs() {
        let d = Distribution::of_expr(&parse("2d6+1d4-1").unwrap()).unwrap();
        let mut bf = BTreeMap::new();
        for a in 1..=6 {
            for b in 1..=6 {
                for c in 1..=4 {
                    *bf.entry(a + b + c - 1).or_insert(0.0) += 1.0 / 144.0;
                }
            }
        }
        assert_matches(&d, &bf, "2d6+1d4-1");
        let d = Distribution::of_expr(&parse("1d6-1d6").unwrap()).unwrap();
        assert_eq!((d.min(), d.max()), (-5, 5));
        assert!((d.p(0) - 6.0 / 36.0).abs() < EPS);
        let d = Distribution::of_expr(&parse("5").unwrap()).unwrap();
        assert_eq!((d.min(), d.max(), d.p(5)), (5, 5, 1.0));
    }

    #[test]
    fn summary_figures() {
        let d = Distribution::of_expr(&parse("1d20").unwrap()).unwrap();
        assert!((d.mean() - 10.5).abs() < EPS);
        assert!((d.std_dev() - (399.0f64 / 12.0).sqrt()).abs() < EPS);
        assert!((d.p_at_least(15) - 0.30).abs() < EPS);
        assert!((d.p_at_most(15) - 0.75).abs() < EPS);
        assert_eq!(d.p_at_least(21), 0.0);
        assert!((d.p_at_least(-3) - 1.0).abs() < EPS);
        let d = Distribution::of_expr(&parse("4d6kh3").unwrap()).unwrap();
        // Known exact mean of 4d6 drop lowest: 15869/1296.
        assert!((d.mean() - 15869.0 / 1296.0).abs() < 1e-9);
        assert!((d.p(18) - 21.0 / 1296.0).abs() < EPS);
        assert!((d.p(3) - 1.0 / 1296.0).abs() < EPS);
    }

    #[test]
    fn large_expressions_sum_to_one() {
        for text in [
            "20d10kh1",
            "10d6",
            "4d6kh3",
            "1d20!",
            "100d6",
            "100d100",
            "10d6!",
            "50d20kl10",
            "1d%+1d%",
            "20d6!kh3",
        ] {
            let d = Distribution::of_expr(&parse(text).unwrap()).unwrap();
            assert!((d.total() - 1.0).abs() < 1e-12, "{text}: {}", d.total());
            assert!(d.iter().all(|(_, p)| (0.0..=1.0).contains(&p)), "{text}");
        }
    }

    #[test]
    fn bins_cover_every_value_once() {
        let d = Distribution::of_expr(&parse("100d6").unwrap()).unwrap();
        let bins = d.binned(60);
        assert!(bins.len() <= 60);
        assert_eq!((bins[0].lo, bins.last().unwrap().hi), (d.min(), d.max()));
        assert!(bins.windows(2).all(|w| w[1].lo == w[0].hi + 1));
        assert!((bins.iter().map(|b| b.p).sum::<f64>() - 1.0).abs() < 1e-12);
        let small = Distribution::die(6).binned(60);
        assert_eq!(small.len(), 6);
        assert_eq!(Distribution::uniform_sum(2, 6).mode(), 7);
    }

    #[test]
    fn fits_says_from_sizes_what_of_expr_computes() {
        // Every pool shape around the work limit, alone and in sums: `fits` and the size it is
        // worked out from agree with what computing the distribution gives.
        let mut seen = (0, 0);
        for n in [1, 2, 3, 7, 30, 54, 55, 100] {
            for s in [2, 6, 10, 100, 547, 548, 1000] {
                for tail in ["", "!", "kh1", "kl2", "kh5"] {
                    for form in ["{p}", "{p}+{p}", "3-{p}+1d4", "{p}-{p}-{p}"] {
                        let pool = format!("{n}d{s}{tail}");
                        let Ok(e) = parse(&form.replace("{p}", &pool)) else {
                            continue;
                        };
                        let built = Distribution::of_expr(&e);
                        assert_eq!(Distribution::fits(&e), built.is_ok(), "{form} {pool}");
                        if let Ok(d) = built {
                            assert_eq!(Distribution::expr_len(&e), Ok(d.probs.len()));
                            seen.0 += 1;
                        } else {
                            seen.1 += 1;
                        }
                    }
                }
            }
        }
        assert!(seen.0 > 300 && seen.1 > 50, "both sides tried: {seen:?}");
    }

    #[test]
    fn huge_expressions_are_refused_not_frozen() {
        assert_eq!(
            Distribution::of_expr(&parse("100d1000kh50").unwrap()),
            Err(TooLarge)
        );
        assert_eq!(
            Distribution::of_expr(&parse("100d1000!").unwrap()),
            Err(TooLarge)
        );
    }

    #[test]
    fn twenty_d10_keep_one_matches_closed_form() {
        let d = Distribution::of_expr(&parse("20d10kh1").unwrap()).unwrap();
        for m in 1..=10 {
            let exact = (m as f64 / 10.0).powi(20) - ((m - 1) as f64 / 10.0).powi(20);
            assert!((d.p(m) - exact).abs() < EPS, "P(max = {m})");
        }
    }

    /// Exact counts of the totals of `n` dice with `sides` faces (u128: exact while
    /// sides^n < 3.4 × 10³⁸).
    fn exact_counts(n: usize, sides: u32) -> Vec<u128> {
        let mut counts = vec![1u128];
        for _ in 0..n {
            let mut next = vec![0u128; counts.len() + sides as usize - 1];
            for (i, &c) in counts.iter().enumerate() {
                for f in 0..sides as usize {
                    next[i + f] += c;
                }
            }
            counts = next;
        }
        counts
    }

    #[test]
    fn uniform_sums_keep_relative_accuracy_in_the_tails() {
        for (n, sides) in [(49usize, 6u32), (30, 10), (20, 20), (12, 100), (3, 1000)] {
            let counts = exact_counts(n, sides);
            let all = (sides as f64).powi(n as i32);
            let d = Distribution::uniform_sum(n, sides);
            assert_eq!((d.min(), d.max()), (n as i64, n as i64 * i64::from(sides)));
            for (i, &c) in counts.iter().enumerate() {
                let exact = c as f64 / all;
                let got = d.p(n as i64 + i as i64);
                assert!(
                    ((got - exact) / exact).abs() < 1e-9,
                    "{n}d{sides} = {}: {got:e} vs {exact:e}",
                    n + i
                );
            }
        }
    }

    #[test]
    fn fifty_d6_extremes_are_neither_zero_nor_one() {
        let d = Distribution::of_expr(&parse("50d6").unwrap()).unwrap();
        let top = 6f64.powi(-50);
        let c = d.at_least(300);
        assert!(matches!(c, Chance::Between { .. }), "possible, not certain");
        assert!(((c.p() - top) / top).abs() < 1e-9, "{:e}", c.p());
        let c = d.at_most(299);
        assert!(!c.is_certain());
        assert!(
            ((c.q() - top) / top).abs() < 1e-9,
            "complement keeps its digits"
        );
        assert_eq!(d.at_least(301), Chance::Impossible);
        assert_eq!(d.at_least(50), Chance::Certain);
        assert_eq!(d.at_most(300), Chance::Certain);
        assert_eq!(d.at_most(49), Chance::Impossible);
        let c = d.at_most(50);
        assert!(((c.p() - top) / top).abs() < 1e-9);
    }

    #[test]
    fn chances_are_certain_or_impossible_exactly_on_the_support() {
        for text in [
            "1d6", "2d6+1", "1d6!", "4d6kh3", "3d4kl1", "5", "1d6-1d6", "100d6",
        ] {
            let d = Distribution::of_expr(&parse(text).unwrap()).unwrap();
            for t in d.min() - 2..=d.max() + 2 {
                let ge = d.at_least(t);
                assert_eq!(ge.is_certain(), t <= d.min(), "{text} ≥ {t}");
                assert_eq!(ge.is_impossible(), t > d.max(), "{text} ≥ {t}");
                assert!((ge.p() - d.p_at_least(t)).abs() < 1e-12, "{text} ≥ {t}");
                assert!((ge.p() + ge.q() - 1.0).abs() < 1e-12);
                let le = d.at_most(t);
                assert_eq!(le.is_certain(), t >= d.max(), "{text} ≤ {t}");
                assert_eq!(le.is_impossible(), t < d.min(), "{text} ≤ {t}");
                assert!((le.p() - d.p_at_most(t)).abs() < 1e-12, "{text} ≤ {t}");
                let eq = d.exactly(t);
                assert_eq!(eq.is_impossible(), d.p(t) == 0.0, "{text} = {t}");
            }
        }
        // A gap of an exploding die is impossible, not "tiny".
        let d = Distribution::of_expr(&parse("1d6!").unwrap()).unwrap();
        assert_eq!(d.exactly(6), Chance::Impossible);
        assert_eq!(Distribution::point(3).exactly(3), Chance::Certain);
    }

    #[test]
    fn versus_matches_brute_force_and_sums_to_one() {
        for (a, b) in [
            ("1d6", "1d6"),
            ("2d6", "1d12"),
            ("1d4", "1d4+4"),
            ("3", "1d2"),
            ("1d6!", "2d4kh1"),
        ] {
            let x = Distribution::of_expr(&parse(a).unwrap()).unwrap();
            let y = Distribution::of_expr(&parse(b).unwrap()).unwrap();
            let (mut w, mut t, mut l) = (0.0, 0.0, 0.0);
            for (v, p) in x.iter() {
                for (u, q) in y.iter() {
                    match v.cmp(&u) {
                        std::cmp::Ordering::Greater => w += p * q,
                        std::cmp::Ordering::Equal => t += p * q,
                        std::cmp::Ordering::Less => l += p * q,
                    }
                }
            }
            let (cw, ct, cl) = x.versus(&y);
            for (c, e) in [(cw, w), (ct, t), (cl, l)] {
                assert!((c.p() - e).abs() < 1e-12, "{a} vs {b}");
                assert_eq!(c.is_impossible(), e == 0.0, "{a} vs {b}");
                assert_eq!(c.is_certain(), e == 1.0, "{a} vs {b}");
            }
            assert!((cw.p() + ct.p() + cl.p() - 1.0).abs() < 1e-12);
        }
        // 1d4 against 1d4+4: losing is certain.
        let x = Distribution::die(4);
        let y = Distribution::die(4).shift(4);
        assert_eq!(x.versus(&y).2, Chance::Certain);
    }
}
