//! Nothing a player types into the roller may crash the app: every expression up to the
//! notation's limits parses or is refused with a message, its exact odds are computed or
//! refused as too large, and every figure the roller shows is formatted without a panic.

use rollsheet::rules::dice::{
    parse, roll, Chance, Distribution, SeededSource, MAX_CONSTANT, MAX_DICE, MAX_SIDES,
};
use rollsheet::ui::format::{decimal, percent};

/// Everything the roller page shows for a distribution.
fn shown(d: &Distribution) -> Vec<String> {
    let mut out = vec![decimal(d.mean()), decimal(d.std_dev())];
    out.extend(d.binned(60).iter().map(|b| percent(b.chance)));
    let mid = (d.min() + d.max()) / 2;
    for t in [
        i64::MIN + 1,
        d.min() - 1,
        d.min(),
        d.min() + 1,
        mid,
        d.max() - 1,
        d.max(),
        d.max() + 1,
        i64::MAX - 1,
    ] {
        out.push(percent(d.at_least(t)));
        out.push(percent(d.at_most(t)));
    }
    out
}

fn check(text: &str, src: &mut SeededSource) {
    let Ok(expr) = parse(text) else { return };
    let outcome = roll(&expr, src);
    match Distribution::of_expr(&expr) {
        Ok(d) => {
            assert!(
                (d.total() - 1.0).abs() < 1e-9,
                "{text}: total {}",
                d.total()
            );
            assert!(
                (d.min()..=d.max()).contains(&outcome.total),
                "{text}: rolled {} outside {}..{}",
                outcome.total,
                d.min(),
                d.max()
            );
            for s in shown(&d) {
                assert!(!s.is_empty() && s.len() < 32, "{text}: {s}");
            }
            // The certain and impossible ends are exact.
            assert_eq!(d.at_least(d.min()), Chance::Certain, "{text}");
            assert_eq!(d.at_least(d.max() + 1), Chance::Impossible, "{text}");
            if d.min() < d.max() {
                assert_ne!(
                    percent(d.at_least(d.max())),
                    "0%",
                    "{text}: top is possible"
                );
                assert_ne!(
                    percent(d.at_most(d.max() - 1)),
                    "100%",
                    "{text}: top can happen"
                );
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

#[test]
fn every_shape_up_to_the_limits_survives() {
    let mut src = SeededSource::new(7);
    let counts = [1, 2, 3, 10, 50, 90, 99, MAX_DICE, MAX_DICE + 1];
    let sides = [1, 2, 3, 6, 10, 20, 100, 999, MAX_SIDES, MAX_SIDES + 1];
    let suffixes = ["", "!", "kh1", "kl1", "kh3", "!kh2", "!kl1"];
    let mut tried = 0;
    for n in counts {
        for s in sides {
            for suffix in suffixes {
                check(&format!("{n}d{s}{suffix}"), &mut src);
                tried += 1;
            }
        }
    }
    for text in [
        "100d6",
        "100d6+100d6",
        "100d6-100d6",
        "-100d6",
        "100d2!",
        "100d6!",
        "50d50+50d50",
        "100d10+100d10",
        "100d1000",
        "100d1000kh1",
        "100d1000kl1",
        "d%",
        "1d%+1d%+1d%",
        &format!("{MAX_CONSTANT}"),
        &format!("{}", MAX_CONSTANT + 1),
        &format!("1d6+{MAX_CONSTANT}-{MAX_CONSTANT}"),
        &vec!["1d6"; 20].join("+"),
        &vec!["1d6"; 21].join("+"),
        "0d6",
        "1d0",
        "",
        "d",
        "999999999999999999999d6",
        "1d99999999999999999999",
    ] {
        check(text, &mut src);
        tried += 1;
    }
    assert!(tried > 600);
}

#[test]
fn extreme_roller_figures_are_truthful() {
    // 50d6, 300 or more: one chance in 6⁵⁰ ≈ 8.1 × 10³⁸.
    let d = Distribution::of_expr(&parse("50d6").unwrap()).unwrap();
    assert_eq!(percent(d.at_least(300)), "1 in 8.1 × 10³⁸");
    assert_eq!(percent(d.at_most(299)), "> 99.9999%");
    assert_eq!(percent(d.at_most(300)), "100%");
    // 1d6 at most 6 is certain; at most 5 is not.
    let d = Distribution::die(6);
    assert_eq!(percent(d.at_most(6)), "100%");
    assert_eq!(percent(d.at_most(5)), "83.3%");
    // 100d6 renders every bar (this crashed the app: a bar far below 10⁻⁶⁰).
    let d = Distribution::of_expr(&parse("100d6").unwrap()).unwrap();
    let first = d.binned(60)[0].chance;
    assert!(matches!(first, Chance::Between { .. }));
    assert!(percent(first).starts_with("1 in "));
}
