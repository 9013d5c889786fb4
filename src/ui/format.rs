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
    let mut decimals: u32 = if x < 1.0 {
        (-x.log10()).ceil() as u32 + 1
    } else {
        1
    };
    loop {
        let scaled = scale(x, decimals);
        if (scaled > 0 && scaled < 100 * 10u64.pow(decimals)) || decimals >= 12 {
            return format!("{}%", fixed(scaled, decimals));
        }
        decimals += 1;
    }
}

/// A mean or deviation with up to two decimals, without trailing zeros.
pub fn decimal(x: f64) -> String {
    let scaled = scale(x.abs(), 2);
    let text = fixed(scaled, 2);
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if x < 0.0 && scaled > 0 {
        format!("-{text}")
    } else {
        text.to_owned()
    }
}

/// `x` (≥ 0) times 10^decimals, rounded.
fn scale(x: f64, decimals: u32) -> u64 {
    (x * 10f64.powi(decimals as i32)).round() as u64
}

/// Writes a scaled integer with a decimal point, in integer arithmetic (no float formatting
/// code in the app binary).
fn fixed(scaled: u64, decimals: u32) -> String {
    let unit = 10u64.pow(decimals);
    if decimals == 0 {
        return scaled.to_string();
    }
    format!(
        "{}.{:0width$}",
        scaled / unit,
        scaled % unit,
        width = decimals as usize
    )
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
        assert_eq!(decimal(-2.5), "-2.5");
        assert_eq!(decimal(0.0), "0");
    }
}
