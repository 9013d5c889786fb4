//! How numbers are written for the player.

/// A probability as a percentage that never rounds a possible outcome to "0%" or a
/// not-quite-certain one to "100%": 45.3%, 2.78%, 0.049%, 99.9986%.
pub fn percent(p: f64) -> String {
    if p <= 0.0 {
        return "0%".into();
    }
    if p >= 1.0 {
        return "100%".into();
    }
    let x = p * 100.0;
    let mut decimals: usize = if x < 1.0 { (-x.log10()).ceil() as usize + 1 } else { 1 };
    loop {
        let text = format!("{x:.decimals$}");
        let shown: f64 = text.parse().unwrap_or(x);
        if (shown > 0.0 && shown < 100.0) || decimals >= 12 {
            return format!("{text}%");
        }
        decimals += 1;
    }
}

/// A mean or deviation with one decimal, without a trailing ".0".
pub fn decimal(x: f64) -> String {
    let text = format!("{x:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" { "0".into() } else { text.into() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages() {
        assert_eq!(percent(0.0), "0%");
        assert_eq!(percent(1.0), "100%");
        assert_eq!(percent(0.453), "45.3%");
        assert_eq!(percent(0.5), "50.0%");
        assert_eq!(percent(1.0 / 36.0), "2.8%");
        assert_eq!(percent(0.000488), "0.049%");
        assert_eq!(percent(1e-9), "0.00000010%");
        assert_eq!(percent(0.999_986), "99.999%");
        assert_eq!(percent(0.9996), "99.96%");
    }

    #[test]
    fn decimals() {
        assert_eq!(decimal(10.5), "10.5");
        assert_eq!(decimal(7.0), "7");
        assert_eq!(decimal(12.2445), "12.24");
        assert_eq!(decimal(-0.001), "0");
    }
}
