//! Rolling an expression with an injected [`DiceSource`], keeping every die for display.

use super::notation::{Expr, Keep, Pool, Sign, TermKind, EXPLODE_CAP};
use super::source::DiceSource;
use serde::{Deserialize, Serialize};

/// One physical die: every face it showed (more than one when it exploded) and whether it counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DieRoll {
    pub sides: u32,
    pub faces: Vec<u32>,
    pub kept: bool,
}

impl DieRoll {
    pub fn value(&self) -> i64 {
        self.faces.iter().map(|&f| i64::from(f)).sum()
    }

    pub fn exploded(&self) -> bool {
        self.faces.len() > 1
    }
}

/// One term of the expression as rolled; `value` already carries the sign.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TermRoll {
    pub negative: bool,
    pub dice: Vec<DieRoll>,
    pub constant: Option<u32>,
    pub value: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollOutcome {
    pub terms: Vec<TermRoll>,
    pub total: i64,
}

impl RollOutcome {
    pub fn dice(&self) -> impl Iterator<Item = &DieRoll> {
        self.terms.iter().flat_map(|t| t.dice.iter())
    }

    /// One die that showed `face` (a table roll, a healing die), as the roll log keeps it.
    pub fn single(sides: u32, face: u32) -> RollOutcome {
        RollOutcome {
            terms: vec![TermRoll {
                negative: false,
                dice: vec![DieRoll {
                    sides,
                    faces: vec![face],
                    kept: true,
                }],
                constant: None,
                value: i64::from(face),
            }],
            total: i64::from(face),
        }
    }
}

/// Rolls one pool: explodes (capped at [`EXPLODE_CAP`] extra rolls per die), then marks the
/// kept dice (ties broken by position, so the result is deterministic for a given source).
pub fn roll_pool<S: DiceSource + ?Sized>(pool: &Pool, src: &mut S) -> Vec<DieRoll> {
    let mut dice: Vec<DieRoll> = (0..pool.count)
        .map(|_| {
            let mut faces = vec![src.roll(pool.sides)];
            while pool.explode
                && faces.last() == Some(&pool.sides)
                && faces.len() <= EXPLODE_CAP as usize
            {
                faces.push(src.roll(pool.sides));
            }
            DieRoll {
                sides: pool.sides,
                faces,
                kept: true,
            }
        })
        .collect();
    if let Some(keep) = pool.keep {
        let high = matches!(keep, Keep::Highest(_));
        let order = crate::rules::order::order(dice.len(), &|a, b| {
            let (x, y) = (dice[a].value(), dice[b].value());
            if high {
                y.cmp(&x)
            } else {
                x.cmp(&y)
            }
        });
        for &i in &order[keep.count() as usize..] {
            dice[i].kept = false;
        }
    }
    dice
}

/// Rolls a whole expression.
pub fn roll<S: DiceSource + ?Sized>(expr: &Expr, src: &mut S) -> RollOutcome {
    let terms: Vec<TermRoll> = expr
        .terms
        .iter()
        .map(|term| {
            let (dice, constant, magnitude) = match &term.kind {
                TermKind::Constant(c) => (Vec::new(), Some(*c), i64::from(*c)),
                TermKind::Dice(pool) => {
                    let dice = roll_pool(pool, src);
                    let sum = dice.iter().filter(|d| d.kept).map(DieRoll::value).sum();
                    (dice, None, sum)
                }
            };
            TermRoll {
                negative: term.sign == Sign::Minus,
                dice,
                constant,
                value: term.sign.apply(magnitude),
            }
        })
        .collect();
    let total = terms.iter().map(|t| t.value).sum();
    RollOutcome { terms, total }
}

#[cfg(test)]
mod tests {
    use super::super::notation::parse;
    use super::super::source::{ScriptedSource, SeededSource};
    use super::super::Distribution;
    use super::*;

    #[test]
    fn keeps_and_drops_the_right_dice() {
        let mut src = ScriptedSource::new(vec![3, 6, 1, 5]);
        let out = roll(&parse("4d6kh3").unwrap(), &mut src);
        let kept: Vec<bool> = out.dice().map(|d| d.kept).collect();
        assert_eq!(kept, vec![true, true, false, true]);
        assert_eq!(out.total, 14);

        let mut src = ScriptedSource::new(vec![17, 4]);
        let out = roll(&parse("2d20kl1+2").unwrap(), &mut src);
        assert_eq!(out.total, 6);
        assert_eq!(out.dice().filter(|d| d.kept).count(), 1);
    }

    #[test]
    fn ties_drop_the_later_die() {
        let mut src = ScriptedSource::new(vec![4, 4]);
        let out = roll(&parse("2d6kh1").unwrap(), &mut src);
        assert_eq!(
            out.dice().map(|d| d.kept).collect::<Vec<_>>(),
            vec![true, false]
        );
    }

    #[test]
    fn exploding_dice_chain_and_stop_at_the_cap() {
        let mut src = ScriptedSource::new(vec![10, 10, 3]);
        let out = roll(&parse("1d10!").unwrap(), &mut src);
        assert_eq!(out.dice().next().unwrap().faces, vec![10, 10, 3]);
        assert_eq!(out.total, 23);

        let script = vec![2; EXPLODE_CAP as usize + 1];
        let mut src = ScriptedSource::new(script);
        let out = roll(&parse("1d2!").unwrap(), &mut src);
        assert_eq!(
            out.dice().next().unwrap().faces.len(),
            EXPLODE_CAP as usize + 1
        );
        assert_eq!(src.remaining(), 0, "no roll beyond the cap");
    }

    #[test]
    fn signs_and_constants() {
        let mut src = ScriptedSource::new(vec![5, 2]);
        let out = roll(&parse("1d6-1d4-3").unwrap(), &mut src);
        assert_eq!(
            out.terms.iter().map(|t| t.value).collect::<Vec<_>>(),
            vec![5, -2, -3]
        );
        assert_eq!(out.total, 0);
    }

    /// Rolling many times lands inside the computed support, and the empirical mean agrees with
    /// the exact one: rolls and distributions describe the same process.
    #[test]
    fn rolls_agree_with_their_distribution() {
        let mut src = SeededSource::new(42);
        for text in ["4d6kh3", "2d20kl1", "3d6!", "1d4!kh1+2", "1d%-10"] {
            let expr = parse(text).unwrap();
            let dist = Distribution::of_expr(&expr).unwrap();
            let n = 200_000;
            let mut sum = 0.0;
            for _ in 0..n {
                let t = roll(&expr, &mut src).total;
                assert!(
                    dist.p(t) > 0.0,
                    "{text}: rolled {t}, impossible by the distribution"
                );
                sum += t as f64;
            }
            let se = dist.std_dev() / (n as f64).sqrt();
            assert!(
                (sum / n as f64 - dist.mean()).abs() < 6.0 * se,
                "{text}: mean off"
            );
        }
    }
}
