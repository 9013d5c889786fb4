//! Distribution benchmarks (`cargo bench`): time per computation for representative rolls.
//! Goal: every one under 20 µs on the host. A plain harness: each case runs in batches for
//! about half a second and the fastest batch's time per iteration is reported.

use rollsheet::rules::dice::{parse, Distribution};
use std::hint::black_box;
use std::time::{Duration, Instant};

fn bench(name: &str, f: impl Fn() -> f64) {
    let mut batch = 1u32;
    while {
        let t = Instant::now();
        for _ in 0..batch {
            black_box(f());
        }
        t.elapsed() < Duration::from_millis(20)
    } {
        batch *= 2;
    }
    let mut best = f64::INFINITY;
    let start = Instant::now();
    while start.elapsed() < Duration::from_millis(500) {
        let t = Instant::now();
        for _ in 0..batch {
            black_box(f());
        }
        best = best.min(t.elapsed().as_secs_f64() / f64::from(batch));
    }
    let us = best * 1e6;
    println!(
        "{name:<28} {us:>10.2} µs/iter {}",
        if us < 20.0 {
            ""
        } else {
            "  (over the 20 µs goal)"
        }
    );
}

fn main() {
    for text in [
        "20d10kh1",
        "10d6",
        "4d6kh3",
        "1d20!",
        "2d20kl1",
        "3d6+1d4-2",
        "1d%",
        "10d10!",
    ] {
        let expr = parse(text).expect("valid");
        bench(text, || {
            Distribution::of_expr(black_box(&expr))
                .expect("computable")
                .mean()
        });
    }
    for c in [-20, -5, 5, 20] {
        bench(&format!("heimr challenge C {c:+}"), || {
            rollsheet::rules::heimr::challenge::dice_distribution(black_box(c)).mean()
        });
    }
    bench("parse + 4d6kh3", || {
        Distribution::of_expr(&parse(black_box("4d6kh3")).unwrap())
            .unwrap()
            .mean()
    });
}
