//! A link as a QR code, drawn as one SVG path. The encoder is Project Nayuki's `qrcodegen`
//! (byte mode, versions 1–40); the error correction starts at low, the smallest code a link fits
//! (bigger modules scan from farther), and is raised when that costs no extra size.

use qrcodegen::{QrCode, QrCodeEcc};

/// Modules of white around the code, as the standard asks.
pub const QUIET: i32 = 4;

/// A code ready to draw: its SVG path (one `h` run per row of dark modules), its size in
/// modules and its version.
#[derive(Debug, Clone, PartialEq)]
pub struct Qr {
    pub path: String,
    pub size: i32,
    pub version: u8,
}

/// The code of `text`, or `None` when it is longer than the largest code holds.
pub fn encode(text: &str) -> Option<Qr> {
    let code = QrCode::encode_binary(text.as_bytes(), QrCodeEcc::Low).ok()?;
    let size = code.size();
    let mut path = String::new();
    for y in 0..size {
        let mut x = 0;
        while x < size {
            if code.get_module(x, y) {
                let start = x;
                while x < size && code.get_module(x, y) {
                    x += 1;
                }
                path.push_str(&format!("M{start} {y}h{}v1H{start}z", x - start));
            } else {
                x += 1;
            }
        }
    }
    Some(Qr {
        path,
        size,
        version: code.version().value(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dark modules a path covers, read back from its runs.
    fn dark(qr: &Qr) -> Vec<(i32, i32)> {
        qr.path
            .split('M')
            .skip(1)
            .flat_map(|run| {
                let (xy, rest) = run.split_once('h').unwrap();
                let (x, y) = xy.split_once(' ').unwrap();
                let (x, y): (i32, i32) = (x.parse().unwrap(), y.parse().unwrap());
                let len: i32 = rest.split_once('v').unwrap().0.parse().unwrap();
                (x..x + len).map(move |x| (x, y))
            })
            .collect()
    }

    #[test]
    fn the_path_draws_exactly_the_dark_modules() {
        let text = "https://roll.example/#share=1.eNqrVspLzE1VslJKzMlMTlXSUcrJT8_MU";
        let qr = encode(text).unwrap();
        let code = QrCode::encode_binary(text.as_bytes(), QrCodeEcc::Low).unwrap();
        let mut expected = Vec::new();
        for y in 0..code.size() {
            for x in 0..code.size() {
                if code.get_module(x, y) {
                    expected.push((x, y));
                }
            }
        }
        assert_eq!(dark(&qr), expected);
        assert_eq!(qr.size, 17 + 4 * i32::from(qr.version));
        // The three finder patterns: a dark 7×7 ring in three corners.
        for (cx, cy) in [(0, 0), (qr.size - 7, 0), (0, qr.size - 7)] {
            let d = dark(&qr);
            assert!((0..7).all(|i| d.contains(&(cx + i, cy)) && d.contains(&(cx, cy + i))));
            assert!(!d.contains(&(cx + 1, cy + 1)));
        }
    }

    #[test]
    fn versions_grow_with_the_link_and_stop_at_40() {
        let link = |n: usize| format!("https://roll.example/#share=1.{}", "a".repeat(n));
        // 30 bytes: version 2 holds 32 at low error correction.
        assert_eq!(encode(&link(0)).unwrap().version, 2);
        let mut last = 0;
        for n in (0..2900).step_by(100) {
            let v = encode(&link(n)).unwrap().version;
            assert!(v >= last);
            last = v;
        }
        // 2953 bytes is the most a version 40 code holds (low error correction, byte mode).
        assert_eq!(encode(&"x".repeat(2953)).unwrap().version, 40);
        assert_eq!(encode(&"x".repeat(2954)), None);
    }
}
