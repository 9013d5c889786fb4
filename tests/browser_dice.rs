//! The real dice in the real browser: `CryptoSource` draws from `crypto.getRandomValues`
//! through getrandom, and every standard die passes a χ² test over 10^5 rolls at α = 1e-6.
#![cfg(target_arch = "wasm32")]

use rollsheet::rules::dice::fairness::{face_counts, fairness_p_value};
use rollsheet::rules::dice::{parse, roll, CryptoSource, DiceSource, Distribution};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn getrandom_dice_are_fair_in_the_browser() {
    let mut src = CryptoSource::new().expect("crypto.getRandomValues is available");
    for sides in [4u32, 6, 8, 10, 12, 20, 100] {
        let p = fairness_p_value(&mut src, sides, 100_000);
        assert!(p > 1e-6, "d{sides}: p = {p}");
    }
}

#[wasm_bindgen_test]
fn getrandom_source_is_not_constant() {
    let mut src = CryptoSource::new().unwrap();
    let counts = face_counts(&mut src, 6, 600);
    assert!(
        counts.iter().all(|&c| c > 40),
        "every face shows up: {counts:?}"
    );
    let words: Vec<u32> = (0..4).map(|_| src.next_u32()).collect();
    assert!(words.windows(2).any(|w| w[0] != w[1]));
}

#[wasm_bindgen_test]
fn distributions_compute_in_wasm_like_on_the_host() {
    let expr = parse("4d6kh3").unwrap();
    let d = Distribution::of_expr(&expr).unwrap();
    assert!((d.mean() - 15869.0 / 1296.0).abs() < 1e-9);
    let mut src = CryptoSource::new().unwrap();
    let out = roll(&expr, &mut src);
    assert!((3..=18).contains(&out.total));
    assert_eq!(out.dice().filter(|d| !d.kept).count(), 1);
}
